// Hexenhalma: the planning validator of games/rules/hexenhalma/orders.py, mirrored
// so the order editor can say what is wrong while a path is drawn. The server
// checks again on submit and has the last word.
import { key } from "./toolkit.js";
import { fmt, gettext } from "../socket.js";
import { DIRS, GOAL, NONE, PLAIN, START, fieldText, spellName } from "./hexenhalma-board.js";

const COUNTED = ["K", "M", "B", "I", "Z"];

/** Spells (and flights) one witch uses: {K, M, B, I, Z}. */
export function used(order) {
  const out = Object.fromEntries(COUNTED.map((s) => [s, 0]));
  for (const s of order.steps) {
    if (s.fly) out.Z += 1;
    if (s.spell) out[s.spell] += 1;
  }
  return out;
}

/**
 * Check a team's draft. Returns {witches: [message or null per witch],
 * team: [messages], goals: [goal key or null per witch]}.
 */
export function checkOrders(idx, params, orders) {
  const witches = orders.map(() => null);
  const team = [];
  const goals = orders.map(() => null);
  const startOf = new Map();
  orders.forEach((o, i) => {
    const w = i + 1;
    // The server reads every step's shape first: a ban without its target comes before all else.
    const unaimed = o.steps.findIndex((s) => s.spell === "B" && !s.ban_to);
    if (unaimed >= 0) {
      witches[i] = fmt(gettext("Witch %(witch)s, step %(step)s: a Bannzauber needs a ban target."), { witch: w, step: unaimed + 1 });
    } else if (!o.start) {
      witches[i] = fmt(gettext("Witch %(witch)s: click one of your start fields to place her."), { witch: w });
    } else if (idx.kindOf(o.start) !== START) {
      witches[i] = fmt(gettext("Witch %(witch)s: %(at)s is not one of your start fields."), { witch: w, at: fieldText(o.start) });
    } else if (startOf.has(key(o.start))) {
      team.push(fmt(gettext("Witches %(a)s and %(b)s share the start field %(at)s: two witches never share a start field."), { a: startOf.get(key(o.start)), b: w, at: fieldText(o.start) }));
    } else {
      startOf.set(key(o.start), w);
    }
  });
  const goalOf = new Map();
  orders.forEach((o, i) => {
    if (witches[i]) return;
    const w = i + 1;
    const path = checkPath(idx, params, w, o);
    witches[i] = path.error || checkCounts(params, w, o);
    if (path.goal) {
      goals[i] = key(path.goal);
      if (goalOf.has(goals[i])) {
        team.push(fmt(gettext("Witches %(a)s and %(b)s both plan to finish on %(at)s: a goal field takes one witch per team."), { a: goalOf.get(goals[i]), b: w, at: fieldText(path.goal) }));
      } else {
        goalOf.set(goals[i], w);
      }
    }
  });
  return { witches, team, goals };
}

function checkPath(idx, params, witch, order) {
  const count = order.steps.length;
  const lo = params.min_steps;
  const hi = params.max_steps;
  if (params.require_all_steps && count !== hi) {
    return { error: fmt(gettext("Witch %(witch)s has %(n)s steps: this round requires all %(max)s steps."), { witch, n: count, max: hi }) };
  }
  if (count < lo) return { error: fmt(gettext("Witch %(witch)s has %(n)s steps: this round needs at least %(min)s."), { witch, n: count, min: lo }) };
  if (count > hi) return { error: fmt(gettext("Witch %(witch)s has %(n)s steps: this round allows at most %(max)s."), { witch, n: count, max: hi }) };
  let pos = order.start;
  let walks = 99;
  for (let n = 0; n < count; n++) {
    const s = order.steps[n];
    const ctx = { witch, step: n + 1 };
    const say = (text, more = {}) => ({ error: fmt(text, { ...ctx, ...more }) });
    let next;
    if (s.fly) {
      next = s.fly;
      const kind = idx.kindOf(next);
      if (kind === NONE) return say(gettext("Witch %(witch)s, step %(step)s: the flight's target %(at)s is not a field of the board."), { at: fieldText(next) });
      if (kind !== PLAIN) return say(gettext("Witch %(witch)s, step %(step)s: a Beelzebub never lands on a start or goal field."));
      if (key(next) === key(pos)) return say(gettext("Witch %(witch)s, step %(step)s: standing still is not allowed."));
      walks = 0;
    } else {
      const [dr, dc] = DIRS[s.walk];
      next = [pos[0] + dr, pos[1] + dc];
      if (next[0] < 0 || next[0] >= idx.rows || next[1] < 0 || next[1] >= idx.cols) {
        return say(gettext("Witch %(witch)s, step %(step)s: this walk leaves the board."));
      }
      const kind = idx.kindOf(next);
      if (kind === NONE) return say(gettext("Witch %(witch)s, step %(step)s: %(at)s is not a field of the board."), { at: fieldText(next) });
      walks += 1;
      if (kind === START) return say(gettext("Witch %(witch)s, step %(step)s: %(at)s is a start field; start fields are entered only to start."), { at: fieldText(next) });
      if (kind === GOAL) {
        if (n !== count - 1) return say(gettext("Witch %(witch)s, step %(step)s: a goal field is entered only with the last step, which ends the path."));
        if (walks < 3) return say(gettext("Witch %(witch)s, step %(step)s: after a Beelzebub she must walk 3 steps, the goal at the earliest with the third."));
        if (s.spell) return say(gettext("Witch %(witch)s, step %(step)s: no spell is cast on a start or goal field."));
        return { error: null, goal: next };
      }
    }
    if (s.spell === "B") {
      const kind = idx.kindOf(s.ban_to);
      if (kind === NONE) return say(gettext("Witch %(witch)s, step %(step)s: the ban target %(at)s is not a field of the board."), { at: fieldText(s.ban_to) });
      if (kind !== PLAIN) return say(gettext("Witch %(witch)s, step %(step)s: the ban target %(at)s is a start or goal field."), { at: fieldText(s.ban_to) });
    }
    pos = next;
  }
  return { error: null, goal: null };
}

function checkCounts(params, witch, order) {
  const n = used(order);
  for (const s of COUNTED) {
    const allowed = params.spells[s] ?? 0;
    if (n[s] > allowed) {
      return fmt(gettext("Witch %(witch)s casts %(spell)s %(used)s times: this round allows %(allowed)s per witch."), { witch, spell: spellName(s), used: n[s], allowed });
    }
    if (params.require_all_spells && n[s] < allowed) {
      return fmt(gettext("Witch %(witch)s casts %(spell)s %(used)s times: this round requires all %(allowed)s."), { witch, spell: spellName(s), used: n[s], allowed });
    }
  }
  return null;
}
