// Halma board: 10x10 squares, click a piece, then a lit target (or each landing of a chain).
import { h, svgEl } from "../dom.js";
import { activate, dismissOn, group, key, makeSvg, trail } from "./toolkit.js";
import { api, fmt, gettext } from "../socket.js";
import { createRemisPanel } from "./halma-remis.js";

const N = 10;
const CELL = 10;
const MARGIN = 4;

export function fieldName([r, c]) {
  return `${"abcdefghij"[c]}${N - r}`;
}

/** A path in the move list's notation: g1–g2 for a step, g1×g3×e5 for jumps. */
function pathText(path) {
  const jumps = path.length > 2 || Math.abs(path[0][0] - path[1][0]) === 2 || Math.abs(path[0][1] - path[1][1]) === 2;
  return path.map(fieldName).join(jumps ? "×" : "–");
}

/** An action (a move not yet or never played, e.g. the analysis's better one) in that notation. */
export function actionText(action) {
  return Array.isArray(action?.path) && action.path.length > 1 ? pathText(action.path) : String(action?.type ?? "");
}

export function describe(item, { seatName }) {
  if (item.type === "moved") return `${item.move_number}. ${seatName(item.seat)}: ${pathText(item.path)}`;
  if (item.type === "passed") return fmt(gettext("%(player)s cannot move and passes."), { player: seatName(item.seat) });
  return null;
}

export const moveHelp = gettext("Fields joined by – for a step or × for jumps, e.g. g1–g2 or g1×g3×e5.");

/** A field name ("e5") as [row, col], or null. */
export function parseField(text) {
  const m = /^([a-j])(10|[1-9])$/.exec(text);
  return m ? [N - Number(m[2]), "abcdefghij".indexOf(m[1])] : null;
}

/**
 * A typed move in the move list's notation (`g1–g2`, `g1×g3×e5`; `-`, `x` and
 * spaces work too) as an action, or {error}. Only a legal move is returned.
 */
export function parseMove(text, state) {
  const parts = text.trim().toLowerCase().split(/\s*[×x–\-\s]\s*/).filter(Boolean);
  const path = parts.map(parseField);
  if (path.length < 2 || path.some((p) => !p)) {
    return { error: gettext("Write a move as fields joined by – or ×, for example g1–g2 or g1×g3×e5.") };
  }
  const want = path.map(key).join(" ");
  if (!(state.legal || []).some((a) => a.path.map(key).join(" ") === want)) {
    return { error: fmt(gettext("%(move)s is not a legal move now."), { move: text.trim() }) };
  }
  return { action: { type: "move", path } };
}

/** The position as lines of text for a screen reader: each side's pieces by field. */
export function textView(state, { seatName }) {
  const view = state.view;
  const lines = view.pieces.map((list, seat) =>
    fmt(gettext("%(player)s: %(fields)s"), { player: seatName(seat), fields: list.map(fieldName).sort().join(", ") }),
  );
  if (view.last_move) lines.push(fmt(gettext("Last move: %(path)s"), { path: view.last_move.path.map(fieldName).join(" ") }));
  return lines;
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
        const circle = svgEl("circle", { cx: x, cy: y, r: 3.4, class: cls, "data-field": key(p) }, pieces);
        if (movable) activate(circle, () => select(p), fmt(gettext("your piece on %(field)s"), { field: fieldName(p) }));
      }),
    );

    if (selected) drawTargets(svg, byStart.get(key(selected.path[0])));
    renderChainBar(selected ? byStart.get(key(selected.path[0])) : []);
    container.classList.toggle("my-turn", !!info.myTurn);
  }

  /** The legal actions that begin with the chain built so far. */
  function onward(actions) {
    const prefix = selected.path.map(key).join(" ");
    return actions.filter((a) => a.path.slice(0, selected.path.length).map(key).join(" ") === prefix);
  }

  function drawTargets(svg, actions) {
    const g = group(svg, "targets");
    const path = selected.path;
    const here = path.at(-1);
    const mine = onward(actions);
    const mark = (field, cls, label, onPick) => {
      const [x, y] = centre(field);
      const dot = svgEl("circle", { cx: x, cy: y, r: 2.2, class: `target ${cls}`, "data-target": key(field) }, g);
      activate(dot, onPick, fmt(label, { field: fieldName(field) }));
    };
    const shown = new Set();
    if (path.length === 1) {
      // The start: a click on a first landing goes on from there; on a farther end sends the whole path.
      for (const a of mine) {
        const next = a.path[1];
        if (shown.has(key(next))) continue;
        shown.add(key(next));
        const isJump = mine.some((b) => b.path.length > 2 && key(b.path[1]) === key(next)) || isJumpStep(path[0], next);
        mark(next, isJump ? "jump" : "end", isJump ? gettext("jump to %(field)s") : gettext("move to %(field)s"), () => extend(actions, next));
      }
      for (const a of mine) {
        const end = a.path.at(-1);
        if (shown.has(key(end))) continue;
        shown.add(key(end));
        mark(end, "end", gettext("jump along to %(field)s"), () => send(a.path));
      }
      return;
    }
    // Inside a chain: only the next jumps and the stop on this landing are legal now.
    trail(svg, path.map(centre), "chain");
    for (const a of mine) {
      const next = a.path[path.length];
      if (!next || shown.has(key(next))) continue;
      shown.add(key(next));
      mark(next, "jump", gettext("jump on to %(field)s"), () => extend(actions, next));
    }
    if (canStop(mine)) {
      const [x, y] = centre(here);
      // Above the chain trail, its whole disc clickable: a second click on the landing finishes.
      const stop = svgEl("circle", { cx: x, cy: y, r: 4.4, class: "target stop", "data-target": key(here), "pointer-events": "all" }, svg);
      activate(stop, () => send(path), fmt(gettext("finish the move on %(field)s"), { field: fieldName(here) }));
    }
  }

  function canStop(mine) {
    return mine.some((a) => a.path.length === selected.path.length);
  }

  function isJumpStep(a, b) {
    return Math.abs(a[0] - b[0]) === 2 || Math.abs(a[1] - b[1]) === 2;
  }

  /** One more landing; a plain step, or a landing with no jump beyond it, is sent at once. */
  function extend(actions, land) {
    selected.path = [...selected.path, land];
    const mine = onward(actions);
    const further = mine.some((a) => a.path.length > selected.path.length);
    if (!further || !isJumpStep(selected.path.at(-2), land)) return send(selected.path);
    rerender();
  }

  /** The chain's hint and its Finish and Cancel buttons, shown only inside a chain. */
  function renderChainBar(actions) {
    const inChain = !!selected && selected.path.length > 1;
    chainBar.hidden = !inChain;
    if (!inChain) return;
    const here = fieldName(selected.path.at(-1));
    const stop = canStop(onward(actions));
    chainHint.textContent = stop
      ? fmt(gettext("Landed on %(field)s. Jump on (blue dots), or finish here: press Enter, click the ring again or use the button."), { field: here })
      : fmt(gettext("Landed on %(field)s. The move cannot end here: jump on (blue dots)."), { field: here });
    finishBtn.hidden = !stop;
    finishBtn.textContent = fmt(gettext("Finish on %(field)s"), { field: here });
  }

  container.classList.add("halma-board");
  const remis = createRemisPanel(container, ctx, api);
  const holder = container.appendChild(h("div", "board-holder"));
  const chainHint = h("span", "chain-hint", "", { "data-testid": "chain-hint" });
  const finishBtn = h("button", "button small primary", "", { type: "button", "data-testid": "finish-chain" });
  const cancelBtn = h("button", "button small", gettext("Cancel"), { type: "button" });
  const chainBar = container.appendChild(h("div", "chain-bar row", [chainHint, finishBtn, cancelBtn], { hidden: "" }));
  finishBtn.addEventListener("click", (e) => {
    e.stopPropagation();
    if (selected) send(selected.path);
  });
  cancelBtn.addEventListener("click", (e) => {
    e.stopPropagation();
    selected = null;
    rerender();
  });
  // Enter anywhere but on another control finishes a chain that may end here.
  document.addEventListener("keydown", (e) => {
    const t = /** @type {Element} */ (e.target);
    if (e.key !== "Enter" || !selected || selected.path.length < 2 || !last) return;
    if (t.closest?.("button, a, input, textarea, select, [role=button]")) return;
    const actions = (last.info.myTurn ? last.state.legal : []).filter((a) => key(a.path[0]) === key(selected.path[0]));
    if (!canStop(onward(actions))) return;
    e.preventDefault();
    send(selected.path);
  });

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
