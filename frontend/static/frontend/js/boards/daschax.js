// Daschax board: hexes, pieces with a front; placement, then turns built step by step
// (F forward, L/R turn, B backward with that variant) or picked by clicking a lit end field.
import { h, svgEl } from "../dom.js";
import { group, key, makeSvg, trail } from "./toolkit.js";
import { fmt, gettext } from "../socket.js";
import { FACINGS, SIZES, fieldName, pieceMap, resultKey, simulate, turnsOf } from "./daschax-rules.js";
import { angle, centre, hex, labels, piece, pieceTransform, sector, setLayout, tick, tray } from "./daschax-draw.js";
import { renderControls, renderHead } from "./daschax-panel.js";
import { aPiece, facingName, pieceName, whyNot } from "./daschax-text.js";

export { describe } from "./daschax-text.js";
export { moveHelp, parseMove, textView } from "./daschax-typed.js";
export { fieldName };

/** A planned action in the move list's words (a placement) or typed notation (a turn). */
export function actionText(action) {
  if (action.type === "place") return fmt(gettext("%(piece)s on %(field)s"), { piece: aPiece(action.size), field: fieldName(action.at) });
  if (action.type === "remove") return fmt(gettext("remove %(field)s"), { field: fieldName(action.at) });
  if (action.type === "turn") return `${fieldName(action.at)} ${action.steps.join(" ")}`;
  return action.type;
}

const START_FACING = ["N", "S"];
const NARROW_PX = 540; // below this board width the trays go above and below the board

function onActivate(node, fn) {
  node.addEventListener("click", (e) => {
    e.stopPropagation();
    fn();
  });
  node.addEventListener("keydown", (e) => {
    if (e.key !== "Enter" && e.key !== " ") return;
    e.preventDefault();
    e.stopPropagation();
    fn();
  });
}

export function createBoard(container, ctx) {
  container.classList.add("dx-board");
  const head = h("div", "dx-head");
  const holder = h("div", "dx-svg");
  const controls = h("div", "dx-controls", null, { "aria-live": "polite" });
  container.replaceChildren(head, holder, controls);

  // What the player is doing: the selected piece and the steps built so far,
  // the end field whose facings are offered, the size to place, a hint.
  const ui = { version: -1, sel: null, steps: [], focus: null, size: null, note: "" };
  let cur = null; // the last render's inputs and what was derived from them

  const seatLabel = (i) => ctx.seats()[i]?.name ?? String(i + 1);
  const narrow = () => (container.clientWidth || window.innerWidth) < NARROW_PX;
  let wasNarrow = null;
  window.addEventListener("resize", () => {
    if (cur && narrow() !== wasNarrow) rerender();
  });

  function resetSel() {
    Object.assign(ui, { sel: null, steps: [], focus: null, note: "" });
  }

  function render(state, info) {
    const view = state.view;
    if (state.version !== ui.version) {
      ui.version = state.version;
      resetSel();
    }
    const flip = ctx.seat() === 1;
    const legal = info.myTurn ? state.legal : [];
    cur = { state, info, view, flip, legal, pieces: pieceMap(view), busy: !!info.pending };
    cur.movable = new Set(legal.filter((a) => a.type !== "place").map((a) => key(a.at)));
    if (ui.sel && !cur.movable.has(key(ui.sel))) resetSel();
    cur.turns = ui.sel ? turnsOf(view, legal, ui.sel) : null;

    wasNarrow = narrow();
    const geo = setLayout(wasNarrow);
    const svg = makeSvg(holder, geo.width, geo.height, gettext("Daschax board"), 0);
    const cells = group(svg, "cells dx-cells");
    for (let r = 0; r < 10; r++) {
      for (let c = 0; c < 10; c++) {
        const start = r === 0 ? " start-0" : r === 9 ? " start-1" : "";
        hex(cells, [c, r], flip, { class: `dx-cell${start}`, "data-field": key([c, r]) });
      }
    }
    labels(svg, flip);
    drawTrays(svg, view, flip);
    const under = group(svg, "dx-last");
    const lit = group(svg, "dx-lit");
    const layer = group(svg, "pieces");
    const over = group(svg, "dx-over");
    drawLast(under, over, view, flip);
    drawPieces(layer, view, flip);
    if (view.phase === "placement" && legal.length) drawPlacement(lit, over, legal, flip);
    if (view.phase === "play" && ui.sel) drawReach(lit, over, flip);

    renderHead(head, view, seatLabel);
    renderControls(controls, {
      view,
      legal,
      myTurn: !!info.myTurn,
      busy: cur.busy,
      seat: ctx.seat(),
      ui,
      seatLabel,
      pieces: cur.pieces,
      result: builtResult(),
      actions: { chooseSize, addStep, undo, sendBuilt, removeSelected },
    });
    container.classList.toggle("my-turn", !!info.myTurn);
    container.dataset.phase = view.phase;
    if (info.event) animate(info.event, layer, flip);
  }

  function rerender(extra = {}) {
    if (cur) render(cur.state, { ...cur.info, ...extra });
  }

  // -- drawing ----------------------------------------------------------------
  function drawTrays(svg, view, flip) {
    const bottom = flip ? 1 : 0;
    for (const seat of [0, 1]) {
      const half = seat === bottom ? "bottom" : "top";
      if (view.phase === "placement") {
        tray(svg, { side: "left", half, title: gettext("to place"), seat, counts: view.to_place[seat], cls: `reserve seat-${seat}` });
      } else {
        const counts = { small: 0, medium: 0, large: 0 };
        view.pieces.forEach((p) => p.seat === seat && (counts[p.size] += 1));
        const removed = Object.values(view.removed[seat]).reduce((a, b) => a + b, 0);
        const footer = view.options.removal ? fmt(gettext("removed: %(n)s"), { n: removed }) : "";
        tray(svg, { side: "left", half, title: gettext("on board"), seat, counts, cls: `on-board seat-${seat}`, footer });
      }
      tray(svg, { side: "right", half, title: gettext("captured"), seat: 1 - seat, counts: view.captured[seat], hideEmpty: true, cls: `captured by-${seat}` });
    }
  }

  /** The last placement or turn, for everyone: start, path, facings on the way, captures, removals. */
  function drawLast(under, over, view, flip) {
    const last = view.last;
    const gone = [...(last?.removed ?? []), ...view.removed_this_turn];
    for (const p of gone) {
      if (cur.pieces.has(key(p.at))) continue;
      hex(under, p.at, flip, { class: "dx-removed-cell" });
      piece(under, p, centre(p.at, flip), angle(p.facing, flip), { class: `dx-ghost removed seat-${p.seat}` });
    }
    if (!last) return;
    if (last.kind === "place") {
      hex(under, last.at, flip, { class: "dx-last-end", "data-field": key(last.at) });
      return;
    }
    const end = last.path.at(-1).at;
    hex(under, last.at, flip, { class: "dx-last-from", "data-field": key(last.at) });
    hex(under, end, flip, { class: "dx-last-end", "data-field": key(end) });
    const points = [];
    for (const step of last.path) {
      const c = centre(step.at, flip);
      if (!points.length || points.at(-1).join() !== c.join()) points.push(c);
    }
    if (points.length > 1) trail(under, points, "last-move dx-trail");
    const ticks = group(over, "dx-last-ticks");
    last.path.forEach((step, i) => {
      const turned = i > 0 && (last.steps[i - 1] === "L" || last.steps[i - 1] === "R");
      if (i === 0 || turned) tick(ticks, step.at, flip, angle(step.facing, flip), { class: `dx-last-tick${i === 0 ? " from" : ""}` });
    });
    for (const cap of last.captures) {
      hex(under, cap.at, flip, { class: "dx-last-capture", "data-field": key(cap.at) });
      if (!cur.pieces.has(key(cap.at))) {
        piece(under, cap, centre(cap.at, flip), angle(cap.facing, flip), { class: `dx-ghost taken seat-${cap.seat}` });
      }
      const [x, y] = centre(cap.at, flip);
      const badge = group(over, "dx-badge");
      svgEl("circle", { cx: x + 5.6, cy: y - 5.4, r: 2.6 }, badge);
      svgEl("path", { d: `M ${x + 4.4} ${y - 6.6} l 2.4 2.4 m 0 -2.4 l -2.4 2.4` }, badge);
    }
  }

  function drawPieces(layer, view, flip) {
    for (const p of view.pieces) {
      const k = key(p.at);
      const can = cur.movable.has(k);
      const isSel = ui.sel && key(ui.sel) === k;
      const cls = ["piece", "dx-piece", `seat-${p.seat}`, `size-${p.size}`];
      if (can) cls.push("movable");
      if (isSel) cls.push("selected", ...(ui.steps.length ? ["previewing"] : []));
      const g = piece(layer, p, centre(p.at, flip), angle(p.facing, flip), {
        class: cls.join(" "),
        "data-field": k,
        "data-facing": p.facing,
        "data-size": p.size,
        tabindex: can ? 0 : undefined,
        role: can ? "button" : "img", // labelled, so it needs a role either way
        "aria-label": fmt(gettext("%(piece)s on %(field)s, facing %(facing)s"), {
          piece: pieceName(p.size),
          field: fieldName(p.at),
          facing: facingName(p.facing),
        }),
      });
      if (can) onActivate(g, () => select(p.at));
    }
  }

  function drawPlacement(lit, over, legal, flip) {
    const sizes = new Set(legal.map((a) => a.size));
    if (!sizes.has(ui.size)) ui.size = SIZES.find((s) => sizes.has(s)) ?? null;
    const seat = ctx.seat();
    for (const a of legal) {
      if (a.size !== ui.size) continue;
      const k = key(a.at);
      hex(lit, a.at, flip, { class: "dx-reach place" });
      piece(over, { seat, size: ui.size }, centre(a.at, flip), angle(START_FACING[seat], flip), { class: `dx-ghost hint seat-${seat}` });
      const hit = hex(over, a.at, flip, {
        class: "dx-end place",
        "data-field": k,
        tabindex: 0,
        role: "button",
        "aria-label": fmt(gettext("Place %(piece)s on %(field)s"), { piece: pieceName(ui.size), field: fieldName(a.at) }),
      });
      onActivate(hit, () => send({ type: "place", size: ui.size, at: a.at }));
    }
  }

  function drawReach(lit, over, flip) {
    const { byField } = cur.turns;
    hex(lit, ui.sel, flip, { class: "dx-sel-cell" });
    for (const list of byField.values()) {
      const capture = list.some((r) => r.sim.captures.length);
      hex(lit, list[0].sim.at, flip, { class: `dx-reach${capture ? " capture" : ""}` });
    }
    const sim = ui.steps.length ? simulate(cur.pieces, ui.sel, ui.steps, cur.view.options) : null;
    const shown = sim?.ok ? resultKey(sim) : null;
    for (const [k, list] of byField) {
      const at = list[0].sim.at;
      const facings = group(over, "dx-facings");
      for (const r of list) tick(facings, at, flip, angle(r.sim.facing, flip), { class: "dx-tick" });
      const hit = hex(over, at, flip, {
        class: `dx-end${ui.focus === k ? " focused" : ""}`,
        "data-field": k,
        "data-results": list.length,
        tabindex: 0,
        role: "button",
        "aria-label": fmt(gettext("Move to %(field)s"), { field: fieldName(at) }),
      });
      onActivate(hit, () => pickField(k));
      if (ui.focus !== k || list.length < 2) continue;
      const offered = new Set(); // moving on: per facing the result with the most captures
      for (const r of list) {
        const facing = FACINGS[r.sim.facing];
        if (offered.has(facing)) continue;
        offered.add(facing);
        const wedge = sector(over, at, flip, angle(r.sim.facing, flip), {
          class: `dx-sector${r.key === shown ? " current" : ""}`,
          "data-field": k,
          "data-facing": facing,
          tabindex: 0,
          role: "button",
          "aria-label": fmt(gettext("End on %(field)s facing %(facing)s"), { field: fieldName(at), facing: facingName(facing) }),
        });
        onActivate(wedge, () => send(r.action));
      }
    }
    if (sim?.ok) drawPreview(over, sim, flip); // on top, but lets clicks through
  }

  function drawPreview(over, sim, flip) {
    const g = group(over, "dx-preview");
    const points = [];
    for (const step of sim.path) {
      const c = centre(step.at, flip);
      if (!points.length || points.at(-1).join() !== c.join()) points.push(c);
    }
    if (points.length > 1) trail(g, points, "dx-preview-trail");
    for (const cap of sim.captures) hex(g, cap.at, flip, { class: "dx-cap-preview" });
    const mover = cur.pieces.get(key(ui.sel));
    piece(g, mover, centre(sim.at, flip), angle(sim.facing, flip), { class: `dx-ghost preview seat-${mover.seat}`, "data-field": key(sim.at), "data-facing": FACINGS[sim.facing] });
  }

  function animate(event, layer, flip) {
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    for (const item of event.events ?? []) {
      if (item.type !== "turned") continue;
      const g = layer.querySelector(`.dx-piece[data-field="${key(item.to)}"]`);
      if (!g) continue;
      let deg = angle(item.facing_from, flip);
      const frames = [{ transform: pieceTransform(centre(item.from, flip), deg) }];
      for (const st of item.path) {
        deg += st.step === "L" ? -60 : st.step === "R" ? 60 : 0;
        frames.push({ transform: pieceTransform(centre(st.at, flip), deg) });
      }
      g.animate(frames, { duration: 220 * item.path.length, easing: "ease-in-out" });
    }
  }

  // -- actions ---------------------------------------------------------------------
  function select(at) {
    // Enter on the picked piece after steps were built sends them, as the Send button's ⏎ says.
    if (ui.sel && key(ui.sel) === key(at) && ui.steps.length) return sendBuilt();
    if (ui.sel && key(ui.sel) === key(at)) resetSel();
    else Object.assign(ui, { sel: at, steps: [], focus: null, note: "" });
    rerender();
  }

  function chooseSize(size) {
    ui.size = size;
    rerender();
  }

  /** A lit end field: one result is sent at once; several are previewed in turn, their facings offered. */
  function pickField(k) {
    const list = cur.turns?.byField.get(k);
    if (!list) return;
    if (list.length === 1) return send(list[0].action);
    const now = builtResult()?.key;
    let next;
    if (ui.focus === k) next = list[(list.findIndex((r) => r.key === now) + 1) % list.length];
    else next = list.reduce((a, b) => (b.action.steps.length < a.action.steps.length ? b : a));
    Object.assign(ui, { focus: k, steps: [...next.action.steps], note: "" });
    rerender();
  }

  function addStep(step) {
    if (!ui.sel || cur.busy) return;
    const next = simulate(cur.pieces, ui.sel, [...ui.steps, step], cur.view.options);
    if (next.ok) Object.assign(ui, { steps: [...ui.steps, step], focus: null, note: "" });
    else ui.note = whyNot(next.why);
    rerender();
  }

  function undo() {
    if (ui.steps.length) Object.assign(ui, { steps: ui.steps.slice(0, -1), focus: null, note: "" });
    else resetSel();
    rerender();
  }

  /** The legal action with the same end result as the steps built so far, or null. */
  function builtResult() {
    if (!ui.sel || !ui.steps.length || !cur.turns) return null;
    const sim = simulate(cur.pieces, ui.sel, ui.steps, cur.view.options);
    if (!sim.ok) return null;
    const k = resultKey(sim);
    return cur.turns.results.find((r) => r.key === k) ?? null;
  }

  function sendBuilt() {
    const result = builtResult();
    if (result) return send(result.action);
    ui.note = ui.steps.length ? whyNot("noop") : gettext("Build a turn first: F, L, R, or click a lit field.");
    rerender();
  }

  function removeSelected() {
    if (!confirm(gettext("Remove this piece from the board? This cannot be undone."))) return;
    send({ type: "remove", at: ui.sel });
  }

  function send(action) {
    if (!ctx.act(action)) return rerender();
    resetSel();
    rerender({ pending: true });
  }

  holder.addEventListener("click", () => {
    if (ui.sel) {
      resetSel();
      rerender();
    }
  });

  document.addEventListener("keydown", (e) => {
    if (!cur || e.ctrlKey || e.metaKey || e.altKey) return;
    const target = /** @type {Element} */ (e.target);
    if (target.closest?.("input, textarea, select, [contenteditable]")) return;
    if ((e.key === "Enter" || e.key === " ") && target.closest?.("button, a, [role=button]")) return;
    if (!cur.info.myTurn || cur.busy) return;
    if (cur.view.phase === "placement") {
      const size = { 1: "small", 2: "medium", 3: "large" }[e.key];
      if (size && cur.view.to_place[ctx.seat()][size]) chooseSize(size);
      return;
    }
    if (!ui.sel) return;
    const letter = e.key.toUpperCase();
    if (["F", "L", "R"].includes(letter) || (letter === "B" && cur.view.options.backward)) addStep(letter);
    else if (e.key === "Backspace") undo();
    else if (e.key === "Enter") sendBuilt();
    else if (e.key === "Escape") {
      resetSel();
      rerender();
    } else return;
    e.preventDefault();
  });

  return { render };
}
