// Das Idiotenspiel typed: moves in the move list's field names (docs/rules/idiotenspiel.md,
// "Typed moves"), read into one of the server's legal actions, never anything else.
import { fmt, gettext } from "../socket.js";
import { key } from "./toolkit.js";
import { typeName } from "./idiotenspiel-text.js";

export const moveHelp = gettext("E.g. M14-N17 (move), M14xN15 (attack), infantry C4 (place), N19 (retreat), end, roll, decline, advance, stay, take, eliminate.");

const FACINGS = new Set(["n", "ne", "e", "se", "s", "sw", "w", "nw"]);
const WORDS = {
  end: (a) => a.type === "end_movement" || a.type === "end_combat",
  roll: (a) => a.type === "roll",
  decline: (a) => a.type === "decline",
  advance: (a) => a.type === "advance" && a.yes,
  stay: (a) => a.type === "advance" && !a.yes,
  take: (a) => a.type === "capture" && a.yes,
  eliminate: (a) => a.type === "capture" && !a.yes,
};

/** "N17" as [x, y] (row letter from the north, column from the west), or null. */
function parseField(word) {
  const m = /^([a-z])(\d{1,2})$/.exec(word);
  return m ? [Number(m[2]) - 1, m[1].charCodeAt(0) - 97] : null;
}

/** Does the selector (a unit id, a type, "leader", or nothing) name unit `u`? */
function names(selector, u) {
  if (!selector) return true;
  if (selector === u.id) return true;
  if (selector === "leader") return !!u.leader;
  const type = [u.type, typeName(u.type)].map((t) => t.toLowerCase().replace(/\s+/g, ""));
  return type.includes(selector) && !u.leader; // a type word means a plain unit, not the leader
}

/** The candidates left after the typed extras; one action, or an error naming what is missing. */
function pick(cands, extra, text) {
  const facing = extra.find((w) => FACINGS.has(w))?.toUpperCase();
  const withs = extra.filter((w) => w.startsWith("+")).map((w) => w.slice(1)).sort();
  const capture = extra.includes("capture");
  let left = cands.filter((a) => (facing ? a.facing === facing : true));
  left = left.filter((a) => JSON.stringify([...(a.with || [])].sort()) === JSON.stringify(withs));
  left = left.filter((a) => !!a.capture === capture);
  if (!left.length) return { error: fmt(gettext("%(move)s is not a legal move now."), { move: text }) };
  if (!facing && new Set(left.map((a) => a.facing ?? null)).size > 1) return { error: gettext("Add the shield wall's facing, e.g. NE.") };
  const units = new Set(left.map((a) => a.unit));
  if (units.size > 1 && left.some((a) => a.type !== "place")) return { error: gettext("Several units there can do that: name one first (its type or id, e.g. cavalry M14-N17 or s13 M14-N17).") };
  return { action: left[0] };
}

/** A typed move as one of `state.legal`, or {error}. */
export function parseMove(text, state) {
  const legal = state.legal || [];
  const view = state.view;
  const shown = text.trim();
  const bad = { error: fmt(gettext("%(move)s is not a legal move now."), { move: shown }) };
  const norm = shown.toLowerCase().replace(/shield\s+wall/g, "shieldwall").replace(/\s*(?:→|->|–|—|-)\s*/g, " - ").replace(/(\d)x(?=\s|[a-z]\d)/g, "$1 x ").replace(/\s*(?:×|\bx\b)\s*/g, " x ");
  const words = norm.split(/[\s,.]+/).filter(Boolean);
  if (words.length === 1 && WORDS[words[0]]) {
    const found = legal.find(WORDS[words[0]]);
    return found ? { action: found } : bad;
  }
  const at = (id) => view.units.find((u) => u.id === id);
  const sep = words.findIndex((w) => w === "-" || w === "x");
  if (sep > 0) {
    const from = parseField(words[sep - 1]);
    const to = parseField(words[sep + 1] ?? "");
    const selector = words.slice(0, sep - 1).join("");
    if (!from || !to) return { error: gettext("Write both fields, e.g. M14-N17 or M14xN15.") };
    const type = words[sep] === "-" ? "move" : "attack";
    const cands = legal.filter((a) => {
      if (a.type !== type) return false;
      const u = at(a.unit);
      if (!u?.at || key(u.at) !== key(from) || !names(selector, u)) return false;
      const dest = type === "move" ? a.to : at(a.target)?.at;
      return !!dest && key(dest) === key(to);
    });
    if (type === "attack" && new Set(cands.map((a) => a.target)).size > 1) return { error: gettext("Several enemies stand there: attack from the board, or name the attacker first.") };
    return pick(cands, words.slice(sep + 2), shown);
  }
  const fieldAt = words.findLastIndex((w) => !!parseField(w));
  if (fieldAt < 0) return { error: gettext("Write a field (N19), a move (M14-N17), an attack (M14xN15), a placement (infantry C4) or a word: end, roll, decline, advance, stay, take, eliminate.") };
  const field = parseField(words[fieldAt]);
  const selector = words.slice(0, fieldAt).join("");
  const extra = words.slice(fieldAt + 1);
  if (!selector && legal.some((a) => a.type === "place")) return { error: gettext("Name the unit to place, by type or id: e.g. infantry C4.") };
  const cands = legal.filter((a) => {
    if (a.type === "place") return key(a.at) === key(field) && names(selector, at(a.unit) ?? { id: a.unit, type: "" });
    return !selector && (a.type === "retreat" || a.type === "move_marian") && key(a.to) === key(field);
  });
  return pick(cands, extra, shown);
}
