// Daschax for the keyboard and screen readers: the position as text, and moves typed
// in the move list's notation (docs/rules/daschax.md, "Typed moves").
import { fmt, gettext } from "../socket.js";
import { fieldName, pieceMap, simulate } from "./daschax-rules.js";
import { key } from "./toolkit.js";
import { aPiece, facingName, stallCount } from "./daschax-text.js";

export const moveHelp = gettext("A turn: the piece's field and its steps, e.g. e1 F R F. Placing: size and field, e.g. small e1.");

const SIZES = { s: "small", small: "small", m: "medium", medium: "medium", l: "large", large: "large" };

function parseField(text) {
  const m = /^([a-j])(10|[1-9])$/.exec(text);
  return m ? ["abcdefghij".indexOf(m[1]), Number(m[2]) - 1] : null;
}

/** A typed turn or placement as an action, or {error}; checked against the position. */
export function parseMove(text, state) {
  const words = text.trim().toLowerCase().split(/[\s,]+/).filter(Boolean);
  const legal = state.legal || [];
  const bad = { error: fmt(gettext("%(move)s is not a legal move now."), { move: text.trim() }) };
  const usage = { error: gettext("Write the piece's field and its steps (e1 F R F), or a size and a field to place (small e1).") };
  if (words.length === 2 && SIZES[words[0]] && parseField(words[1])) {
    const action = { type: "place", size: SIZES[words[0]], at: parseField(words[1]) };
    return legal.some((a) => a.type === "place" && a.size === action.size && key(a.at) === key(action.at)) ? { action } : bad;
  }
  const at = words.length ? parseField(words[0]) : null;
  const steps = words.slice(1).join("").toUpperCase().split("");
  if (!at || !steps.length || steps.some((s) => !"FLRB".includes(s))) return usage;
  if (!legal.some((a) => a.type === "turn" && key(a.at) === key(at))) return bad;
  if (steps.includes("B") && !state.view.options.backward) return bad;
  const sim = simulate(pieceMap(state.view), at, steps, state.view.options);
  return sim.ok ? { action: { type: "turn", at, steps } } : bad;
}

/** Each side's pieces with field and facing, for a screen reader; then the house rule's count. */
export function textView(state, { seatName }) {
  const view = state.view;
  const bySeat = [[], []];
  for (const p of view.pieces) {
    bySeat[p.seat]?.push(fmt(gettext("%(piece)s on %(field)s facing %(facing)s"), { piece: aPiece(p.size), field: fieldName(p.at), facing: facingName(p.facing) }));
  }
  const lines = bySeat.map((list, seat) => fmt(gettext("%(player)s: %(pieces)s"), { player: seatName(seat), pieces: list.join("; ") || "—" }));
  if (view.stall_turns && view.phase !== "placement") lines.push(stallCount(view));
  return lines;
}
