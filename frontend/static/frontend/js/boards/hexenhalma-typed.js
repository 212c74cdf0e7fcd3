// Hexenhalma typed: a team's orders in the notation its move list shows
// ("[11, 2] N Z[3, 2]+K N N N; [11, 5] N+B[6, 6] …", docs/rules/hexenhalma.md,
// "Typed orders"), checked by the planning validator's mirror before anything is
// sent; and the game master's two words, open <preset> and finish.
import { fmt, gettext } from "../socket.js";
import { boardIndex, fieldText } from "./hexenhalma-board.js";
import { checkOrders } from "./hexenhalma-check.js";
import { PRESETS } from "./hexenhalma-editor.js";

const WALKS = new Set(["N", "E", "S", "W"]);
const SPELLS = new Set(["K", "M", "B", "I"]);
// One token: a field ("11,2" or "[11, 2]"), a letter, "+" (before a spell), or an
// arrow ("->", "→", ">", allowed between Z or B and its field).
const TOKEN = /\s*(?:(\[?\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\]?)|([a-z])|(\+)|(->|→|>))/iy;

/** "[3, 2]" with a no-break space, so that a line never breaks inside a step. */
function field(rc) {
  return fieldText(rc).replace(" ", "\u00a0");
}

/** One step as the move list writes it: N, Z[3, 2], N+K, N+B[6, 6], Z[3, 2]+I. */
export function stepText(step) {
  let text = step.fly ? `Z${field(step.fly)}` : step.walk;
  if (step.spell) text += `+${step.spell}${step.spell === "B" && step.ban_to ? field(step.ban_to) : ""}`;
  return text;
}

/** A team's orders in the typed notation: per witch her start and steps; witches joined by "; ". */
export function ordersText(orders) {
  return orders.map((o) => [o.start ? field(o.start) : "?", ...o.steps.map(stepText)].join(" ")).join("; ");
}

/** The help under the box: the game master's words, or a team's notation. */
export function moveHelp(state, seat) {
  if (seat === 0) return gettext("open rectangle (or diamond, cross, arena) opens the next round on that preset board with its suggested limits; finish ends the campaign.");
  return gettext("Per witch: her start field, then her steps N, E, S, W or Z and a field (a flight), a spell after its step (+K, +M, +I, or +B and the ban target); witches separated by ;. E.g. 11,2 N N+K Z3,2+I W; 11,5 N N. Then: lock.");
}

const usage = () => gettext("Write each witch's start field and then her steps, witches separated by ;, e.g. 11,2 N N+K Z3,2+I W; 11,5 N N (or lock).");

function readTokens(text) {
  const out = [];
  const re = new RegExp(TOKEN.source, TOKEN.flags);
  let pos = 0;
  while (pos < text.length) {
    re.lastIndex = pos;
    const m = re.exec(text);
    if (!m) return { bad: text.slice(pos).trim().split(/\s+/)[0] };
    pos = re.lastIndex;
    if (m[1]) out.push({ field: [Number(m[2]), Number(m[3])] });
    else if (m[4]) out.push({ letter: m[4].toUpperCase() });
    else if (m[5]) out.push({ plus: true });
    else out.push({ arrow: m[6] });
  }
  return { tokens: out };
}

/** One witch's typed order ("11,2 N N+K Z3,2") as {start, steps}, or {error}. */
function parseWitch(text, witch) {
  const read = readTokens(text.trim());
  const say = (msg, more = {}) => ({ error: fmt(msg, { witch, ...more }) });
  if (read.bad !== undefined) {
    return say(gettext("Witch %(witch)s: %(text)s is not part of an order. Steps are N, E, S, W or Z and a field; spells +K, +M, +I or +B and a field."), { text: read.bad });
  }
  const toks = read.tokens;
  if (!toks[0]?.field) return say(gettext("Witch %(witch)s: write her start field first, as row and column, e.g. 11,2."));
  const order = { start: toks[0].field, steps: [] };
  let i = 1;
  const fieldAfter = () => {
    if (toks[i]?.arrow) i += 1;
    const f = toks[i]?.field;
    if (f) i += 1;
    return f ?? null;
  };
  while (i < toks.length) {
    const t = toks[i];
    const step = order.steps.length; // the step a new token belongs to (1-based: step + 1)
    if (t.letter && WALKS.has(t.letter)) {
      order.steps.push({ walk: t.letter });
      i += 1;
    } else if (t.letter === "Z") {
      i += 1;
      const to = fieldAfter();
      if (!to) return say(gettext("Witch %(witch)s, step %(step)s: Z needs the field she flies to, e.g. Z3,2."), { step: step + 1 });
      order.steps.push({ fly: to });
    } else if (t.plus || (t.letter && SPELLS.has(t.letter))) {
      if (!step) return say(gettext("Witch %(witch)s: a spell follows the step it is cast on, e.g. N+K."));
      if (t.plus) i += 1;
      const letter = toks[i]?.letter;
      if (!letter || !SPELLS.has(letter)) return say(gettext("Witch %(witch)s, step %(step)s: a spell is +K, +M, +I, or +B and the ban target's field."), { step });
      i += 1;
      const last = order.steps[step - 1];
      if (last.spell) return say(gettext("Witch %(witch)s, step %(step)s: one spell per step."), { step });
      last.spell = letter;
      if (letter === "B") {
        const to = fieldAfter();
        if (!to) return say(gettext("Witch %(witch)s, step %(step)s: +B needs the ban target's field, e.g. +B6,6."), { step });
        last.ban_to = to;
      }
    } else if (t.field) {
      return say(gettext("Witch %(witch)s, step %(step)s: a field alone is not a step. Walk with N, E, S or W, fly with Z and the field (Z3,2); separate witches with ;."), { step: step + 1 });
    } else {
      return say(gettext("Witch %(witch)s, step %(step)s: %(text)s is not a step. Steps are N, E, S, W or Z and a field; spells +K, +M, +I or +B and a field."), { step: step + 1, text: t.letter ?? t.arrow });
    }
  }
  return { order };
}

/** The game master's typed words: open <preset>, finish. */
function parseMaster(words, view) {
  if (words[0] === "open" && words.length === 2) {
    const make = PRESETS[words[1]];
    if (!make) return { error: gettext("Name a preset board: open rectangle, open diamond, open cross or open arena.") };
    const preset = make();
    return { action: { type: "open_round", board: preset.board, params: preset.params, deadline: null } };
  }
  if (words[0] === "finish" && words.length === 1) {
    if (view.rounds) return { error: fmt(gettext("This campaign ends by itself after %(n)s rounds."), { n: view.rounds }) };
    if (!view.round) return { error: gettext("No round has been played yet: open one first, e.g. open rectangle.") };
    return { action: { type: "finish" } };
  }
  return { error: gettext("Type open and a preset board (open rectangle, open diamond, open cross or open arena) to open the next round, or finish to end the campaign.") };
}

/** Typed orders (or lock; or the game master's words) as an action, or {error}. */
export function parseMove(text, state, seat) {
  const view = state.view;
  const shown = text.trim();
  const words = shown.toLowerCase().split(/\s+/).filter(Boolean);
  if (seat === 0) return parseMaster(words, view);
  if (view.phase !== "orders" || !view.board || !view.params) return { error: gettext("No round is open for orders.") };
  if (words.length === 1 && words[0] === "lock") {
    if (!view.my_orders) return { error: gettext("You have submitted no orders: type them first, or lock with the Lock orders button (your witches then starve).") };
    return { action: { type: "lock" } };
  }
  const parts = shown.split(";").map((p) => p.trim()).filter(Boolean);
  if (!parts.length || !/\d/.test(shown)) return { error: usage() };
  const orders = [];
  for (const [n, part] of parts.entries()) {
    const one = parseWitch(part, n + 1);
    if (one.error) return one;
    orders.push(one.order);
  }
  const count = view.params.witches;
  if (orders.length !== count) {
    return { error: fmt(gettext("This round has %(count)s witches per team: write %(count)s orders, one per witch, separated by ;."), { count }) };
  }
  const check = checkOrders(boardIndex(view.board), view.params, orders);
  const problem = check.witches.find(Boolean) ?? check.team[0];
  if (problem) return { error: problem };
  return { action: { type: "orders", orders } };
}
