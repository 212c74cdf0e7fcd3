// Halma board: 10x10 squares, click a piece, then a lit target (or each landing of a chain).
import { h, svgEl } from "../dom.js";
import { dismissOn, group, key, makeSvg, trail } from "./toolkit.js";
import { api, fmt, gettext } from "../socket.js";
import { createRemisPanel } from "./halma-remis.js";

const N = 10;
const CELL = 10;
const MARGIN = 4;
const DIRS = [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]];

export function fieldName([r, c]) {
  return `${"abcdefghij"[c]}${N - r}`;
}

export function describe(item, { seatName }) {
  if (item.type === "moved") {
    const jumps = item.path.length > 2 || Math.abs(item.path[0][0] - item.path[1][0]) === 2 ||
      Math.abs(item.path[0][1] - item.path[1][1]) === 2;
    const path = item.path.map(fieldName).join(jumps ? "×" : "–");
    return `${item.move_number}. ${seatName(item.seat)}: ${path}`;
  }
  if (item.type === "passed") return fmt(gettext("%(player)s cannot move and passes."), { player: seatName(item.seat) });
  return null;
}

export function createBoard(container, ctx) {
  let selected = null; // {start, path: [[r,c],...]}
  let last = null;

  function flip() {
    return ctx.seat() === 1;
  }
  function centre([r, c]) {
    const rr = flip() ? N - 1 - r : r;
    const cc = flip() ? N - 1 - c : c;
    return [cc * CELL + CELL / 2, rr * CELL + CELL / 2];
  }

  function occupied(view) {
    const map = new Map();
    view.pieces.forEach((list, seat) => list.forEach((p) => map.set(key(p), seat)));
    return map;
  }

  /** Single-jump landings from `from`, treating the chain's start as empty. */
  function jumpsFrom(view, from, path) {
    const occ = occupied(view);
    occ.delete(key(path[0]));
    const visited = new Set(path.map(key));
    const out = [];
    for (const [dr, dc] of DIRS) {
      const over = [from[0] + dr, from[1] + dc];
      const land = [from[0] + 2 * dr, from[1] + 2 * dc];
      if (land[0] < 0 || land[0] >= N || land[1] < 0 || land[1] >= N) continue;
      if (occ.has(key(over)) && !occ.has(key(land)) && !visited.has(key(land))) out.push(land);
    }
    return out;
  }

  function render(state, info) {
    last = { state, info };
    const view = state.view;
    const legal = info.myTurn ? state.legal : [];
    remis.render(state, info);
    const svg = makeSvg(holder, N * CELL, N * CELL, gettext("Halma board"), MARGIN);
    const cells = group(svg, "cells");
    const houses = view.board.houses.map((h) => new Set(h.map(key)));
    for (let r = 0; r < N; r++) {
      for (let c = 0; c < N; c++) {
        const [x, y] = centre([r, c]);
        const cls = ["cell", (r + c) % 2 ? "dark" : "light"];
        houses.forEach((h, s) => h.has(key([r, c])) && cls.push(`house-${s}`));
        svgEl("rect", { x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL, class: cls.join(" "), "data-field": key([r, c]) }, cells);
      }
    }
    drawLabels(svg);
    if (view.last_move) trail(svg, view.last_move.path.map(centre), "last-move");

    const byStart = new Map();
    for (const a of legal) {
      const k = key(a.path[0]);
      if (!byStart.has(k)) byStart.set(k, []);
      byStart.get(k).push(a);
    }
    if (selected && !byStart.has(key(selected.path[0]))) selected = null;

    const pieces = group(svg, "pieces");
    view.pieces.forEach((list, seat) =>
      list.forEach((p) => {
        const [x, y] = centre(p);
        const movable = byStart.has(key(p));
        const isSel = selected && key(selected.path[0]) === key(p);
        const cls = `piece seat-${seat}${movable ? " movable" : ""}${isSel ? " selected" : ""}`;
        const circle = svgEl("circle", { cx: x, cy: y, r: 3.4, class: cls, "data-field": key(p), tabindex: movable ? 0 : undefined }, pieces);
        if (movable) {
          circle.addEventListener("click", (e) => {
            e.stopPropagation();
            select(p);
          });
          circle.addEventListener("keydown", (e) => e.key === "Enter" && select(p));
        }
      }),
    );

    if (selected) drawTargets(svg, view, byStart.get(key(selected.path[0])));
    container.classList.toggle("my-turn", !!info.myTurn);
  }

  function drawTargets(svg, view, actions) {
    const g = group(svg, "targets");
    const path = selected.path;
    const here = path.at(-1);
    if (path.length > 1) trail(svg, path.map(centre), "chain");
    const chain = jumpsFrom(view, here, path);
    const ends = new Map(actions.map((a) => [key(a.path.at(-1)), a]));
    const shown = new Set();
    const mark = (field, cls, onPick) => {
      const k = key(field);
      if (shown.has(k)) return;
      shown.add(k);
      const [x, y] = centre(field);
      const dot = svgEl("circle", { cx: x, cy: y, r: 2.2, class: `target ${cls}`, "data-target": k, tabindex: 0 }, g);
      dot.addEventListener("click", (e) => {
        e.stopPropagation();
        onPick();
      });
      dot.addEventListener("keydown", (e) => e.key === "Enter" && onPick());
    };
    for (const land of chain) mark(land, "jump", () => extend(view, land));
    if (path.length > 1) {
      const [x, y] = centre(here);
      const stop = svgEl("circle", { cx: x, cy: y, r: 4.4, class: "target stop", "data-target": key(here), tabindex: 0, "pointer-events": "all" }, svg); // above the chain trail, its whole disc clickable
      stop.addEventListener("click", (e) => {
        e.stopPropagation();
        send(path);
      });
    }
    for (const [k, a] of ends) {
      if (path.length === 1 || k !== key(here)) mark(a.path.at(-1), "end", () => send(a.path));
    }
  }

  function extend(view, land) {
    selected.path = [...selected.path, land];
    if (jumpsFrom(view, land, selected.path).length === 0) return send(selected.path);
    rerender();
  }

  container.classList.add("halma-board");
  const remis = createRemisPanel(container, ctx, api);
  const holder = container.appendChild(h("div", "board-holder"));

  function select(field) {
    selected = selected && key(selected.path[0]) === key(field) ? null : { path: [field] };
    rerender();
  }

  function send(path) {
    const repeat = remis.candidateFor(path);
    if (repeat && confirm(gettext("This move repeats the position for the third time. Request remis instead of playing it? (Cancel plays the move.)"))) {
      selected = null;
      remis.file({ kind: "repetition", action: repeat.action, move_numbers: repeat.move_numbers });
      return rerender();
    }
    const ok = ctx.act({ type: "move", path });
    selected = null;
    if (!ok) rerender();
  }

  function rerender() {
    if (last) render(last.state, last.info);
  }

  function drawLabels(svg) {
    const g = group(svg, "labels");
    for (let i = 0; i < N; i++) {
      const [x] = centre([0, i]);
      const [, y] = centre([i, 0]);
      svgEl("text", { x, y: N * CELL + 3, class: "label" }, g).textContent = "abcdefghij"[i];
      svgEl("text", { x: -MARGIN / 2, y: y + 1, class: "label" }, g).textContent = String(N - i);
    }
  }

  dismissOn(container, () => {
    if (selected) {
      selected = null;
      rerender();
    }
  });

  return { render };
}
