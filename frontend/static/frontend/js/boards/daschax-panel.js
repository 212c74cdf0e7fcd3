// Daschax panels: the line above the board (phase, coin tosses, variants) and the
// controls below it (sizes to place, the turn being built, hints).
import { button, h } from "../dom.js";
import { key } from "./toolkit.js";
import { fmt, gettext } from "../socket.js";
import { FACINGS, POINTS, SIZES, fieldName, simulate } from "./daschax-rules.js";
import { pieceIcon } from "./daschax-draw.js";
import { STEP_LABELS, facingName, pieceName, piecesOn, stallCount, tossLines, variantsLine, whyNot } from "./daschax-text.js";

const STEP_SYMBOL = { F: "↑", L: "↺", R: "↻", B: "↓" };

export function renderHead(head, view, seatLabel) {
  const phase = view.phase === "placement"
    ? gettext("Placement")
    : view.phase === "play" ? fmt(gettext("Turn %(n)s"), { n: view.turns + 1 }) : gettext("Game over");
  const items = [h("strong", "dx-phase", phase)];
  for (const t of tossLines(view, seatLabel)) {
    const span = h("span", `dx-toss by-${t.by}`);
    span.append(h("span", `dx-coin seat-${t.seat}`), t.text);
    items.push(span);
  }
  const variants = variantsLine(view.options);
  if (variants) items.push(h("span", "dx-variants", variants));
  // The house rule's count, from 100 of 150 on (the server says when), like Halma's house warning.
  if (view.stall_warning) {
    items.push(h("span", "dx-stall", stallCount(view), {
      "data-testid": "dx-stall",
      title: fmt(gettext("At %(limit)s turns in a row without a capture the game ends drawn (the site's house rule)."), { limit: view.stall_turns }),
    }));
  }
  head.replaceChildren(...items);
}

export function renderControls(controls, p) {
  const { view, legal, myTurn, busy, ui, seatLabel } = p;
  const parts = [];
  if (view.phase === "placement" && view.to_move !== null) {
    if (myTurn && legal.length) {
      parts.push(sizePicker(p), h("p", "hint", gettext("Pick a size (keys 1, 2, 3), then a lit field in your start row.")));
    } else {
      parts.push(h("p", "hint", fmt(gettext("%(player)s is placing a piece."), { player: seatLabel(view.to_move) })));
    }
  } else if (view.phase === "play" && myTurn) {
    if (ui.sel) parts.push(...turnBuilder(p));
    else {
      let text = gettext("Pick one of your pieces to see where it can go.");
      if (view.options.removal) text += " " + gettext("You may first remove own pieces: pick one, then “Remove this piece”.");
      parts.push(h("p", "hint", text));
    }
  }
  if (view.removed_this_turn.length) {
    parts.push(h("p", "hint", fmt(gettext("Removed this turn: %(pieces)s."), { pieces: piecesOn(view.removed_this_turn) })));
  }
  if (busy) parts.push(h("p", "hint", gettext("Sending…")));
  controls.replaceChildren(...parts);
  controls.hidden = parts.length === 0;
}

function sizePicker({ view, seat, ui, busy, actions }) {
  const row = h("div", "row dx-sizes", null, { role: "group", "aria-label": gettext("Piece size") });
  SIZES.forEach((size, i) => {
    const n = view.to_place[seat][size];
    const label = [pieceIcon({ seat, size }), ` ${pieceName(size)} ×${n} `, h("kbd", "", String(i + 1))];
    const pick = button(label, () => actions.chooseSize(size), `button small dx-size${ui.size === size ? " primary" : ""}`, {
      "aria-pressed": String(ui.size === size),
      "data-size": size,
    });
    row.append(Object.assign(pick, { disabled: !n || busy }));
  });
  return row;
}

function turnBuilder({ view, legal, ui, busy, pieces, result, actions }) {
  const mover = pieces.get(key(ui.sel));
  const labelsOf = STEP_LABELS();
  const row = h("div", "row dx-steps");
  for (const s of ["F", "L", "R", ...(view.options.backward ? ["B"] : [])]) {
    const next = simulate(pieces, ui.sel, [...ui.steps, s], view.options);
    const step = button([`${STEP_SYMBOL[s]} ${labelsOf[s]} `, h("kbd", "", s)], () => actions.addStep(s), "button small", {
      title: (next.ok ? labelsOf[s] : whyNot(next.why)) || null,
      "data-step": s,
    });
    row.append(Object.assign(step, { disabled: !next.ok || busy }));
  }
  const undo = button([`⌫ ${gettext("Undo")} `, h("kbd", "", "⌫")], actions.undo, "button small", { "data-testid": "dx-undo" });
  const send = button([`${gettext("Send")} `, h("kbd", "", "⏎")], actions.sendBuilt, "button small primary", { "data-testid": "dx-send" });
  row.append(Object.assign(undo, { disabled: !ui.steps.length || busy }), Object.assign(send, { disabled: !result || busy }));
  if (legal.some((a) => a.type === "remove" && key(a.at) === key(ui.sel))) {
    const remove = button(gettext("Remove this piece"), actions.removeSelected, "button small danger", { "data-testid": "dx-remove" });
    row.append(Object.assign(remove, { disabled: busy }));
  }
  const status = h("p", "dx-status");
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
  if (ui.note) parts.push(h("p", "dx-note", ui.note));
  return parts;
}
