// Daschax panels: the line above the board (phase, coin tosses, variants) and the
// controls below it (sizes to place, the turn being built, hints).
import { key } from "./toolkit.js";
import { fmt, gettext } from "../socket.js";
import { FACINGS, POINTS, SIZES, fieldName, simulate } from "./daschax-rules.js";
import { pieceIcon } from "./daschax-draw.js";
import { STEP_LABELS, facingName, pieceName, piecesOn, tossLines, variantsLine, whyNot } from "./daschax-text.js";

const STEP_SYMBOL = { F: "↑", L: "↺", R: "↻", B: "↓" };

export function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function button(label, onClick, { cls = "button small", disabled = false, data = {}, title, pressed } = {}) {
  const b = el("button", cls);
  b.type = "button";
  b.append(...(Array.isArray(label) ? label : [label]));
  b.disabled = disabled;
  if (title) b.title = title;
  if (pressed !== undefined) b.setAttribute("aria-pressed", String(pressed));
  Object.assign(b.dataset, data);
  b.addEventListener("click", onClick);
  return b;
}

export function renderHead(head, view, seatLabel) {
  const phase = view.phase === "placement"
    ? gettext("Placement")
    : view.phase === "play" ? fmt(gettext("Turn %(n)s"), { n: view.turns + 1 }) : gettext("Game over");
  const items = [el("strong", "dx-phase", phase)];
  for (const t of tossLines(view, seatLabel)) {
    const span = el("span", `dx-toss by-${t.by}`);
    span.append(el("span", `dx-coin seat-${t.seat}`), t.text);
    items.push(span);
  }
  const variants = variantsLine(view.options);
  if (variants) items.push(el("span", "dx-variants", variants));
  head.replaceChildren(...items);
}

export function renderControls(controls, p) {
  const { view, legal, myTurn, busy, ui, seatLabel } = p;
  const parts = [];
  if (view.phase === "placement" && view.to_move !== null) {
    if (myTurn && legal.length) {
      parts.push(sizePicker(p), el("p", "hint", gettext("Pick a size (keys 1, 2, 3), then a lit field in your start row.")));
    } else {
      parts.push(el("p", "hint", fmt(gettext("%(player)s is placing a piece."), { player: seatLabel(view.to_move) })));
    }
  } else if (view.phase === "play" && myTurn) {
    if (ui.sel) parts.push(...turnBuilder(p));
    else {
      let text = gettext("Pick one of your pieces to see where it can go.");
      if (view.options.removal) text += " " + gettext("You may first remove own pieces: pick one, then “Remove this piece”.");
      parts.push(el("p", "hint", text));
    }
  }
  if (view.removed_this_turn.length) {
    parts.push(el("p", "hint", fmt(gettext("Removed this turn: %(pieces)s."), { pieces: piecesOn(view.removed_this_turn) })));
  }
  if (busy) parts.push(el("p", "hint", gettext("Sending…")));
  controls.replaceChildren(...parts);
  controls.hidden = parts.length === 0;
}

function sizePicker({ view, seat, ui, busy, actions }) {
  const row = el("div", "row dx-sizes");
  row.setAttribute("role", "group");
  row.setAttribute("aria-label", gettext("Piece size"));
  SIZES.forEach((size, i) => {
    const n = view.to_place[seat][size];
    const label = [pieceIcon({ seat, size }), ` ${pieceName(size)} ×${n} `, el("kbd", "", String(i + 1))];
    row.append(button(label, () => actions.chooseSize(size), {
      cls: `button small dx-size${ui.size === size ? " primary" : ""}`,
      disabled: !n || busy,
      data: { size },
      pressed: ui.size === size,
    }));
  });
  return row;
}

function turnBuilder({ view, legal, ui, busy, pieces, result, actions }) {
  const mover = pieces.get(key(ui.sel));
  const labelsOf = STEP_LABELS();
  const row = el("div", "row dx-steps");
  for (const s of ["F", "L", "R", ...(view.options.backward ? ["B"] : [])]) {
    const next = simulate(pieces, ui.sel, [...ui.steps, s], view.options);
    row.append(button([`${STEP_SYMBOL[s]} ${labelsOf[s]} `, el("kbd", "", s)], () => actions.addStep(s), {
      disabled: !next.ok || busy,
      data: { step: s },
      title: next.ok ? labelsOf[s] : whyNot(next.why),
    }));
  }
  row.append(button([`⌫ ${gettext("Undo")} `, el("kbd", "", "⌫")], actions.undo, { disabled: !ui.steps.length || busy, data: { testid: "dx-undo" } }));
  row.append(button([`${gettext("Send")} `, el("kbd", "", "⏎")], actions.sendBuilt, { cls: "button small primary", disabled: !result || busy, data: { testid: "dx-send" } }));
  if (legal.some((a) => a.type === "remove" && key(a.at) === key(ui.sel))) {
    row.append(button(gettext("Remove this piece"), actions.removeSelected, { cls: "button small danger", disabled: busy, data: { testid: "dx-remove" } }));
  }
  const status = el("p", "dx-status");
  status.dataset.steps = ui.steps.join("");
  let text = fmt(gettext("Selected: %(piece)s on %(field)s, %(used)s of %(points)s movement points used."), {
    piece: pieceName(mover.size),
    field: fieldName(ui.sel),
    used: ui.steps.length,
    points: POINTS[mover.size],
  });
  const sim = ui.steps.length ? simulate(pieces, ui.sel, ui.steps, view.options) : null;
  if (sim?.ok) {
    text += " " + fmt(gettext("Ends on %(field)s facing %(facing)s."), { field: fieldName(sim.at), facing: facingName(FACINGS[sim.facing]) });
    if (sim.captures.length) text += " " + fmt(gettext("Captures %(pieces)s."), { pieces: piecesOn(sim.captures) });
  }
  status.textContent = text;
  const parts = [row, status];
  if (ui.note) parts.push(el("p", "dx-note", ui.note));
  return parts;
}
