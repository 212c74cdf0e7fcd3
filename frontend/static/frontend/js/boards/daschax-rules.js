// Daschax geometry and step simulation for the page (mirrors games/rules/daschax/).
// The page never decides legality by itself: it simulates steps only to preview a
// turn and to group the server's legal actions (state.legal) by their end result.
import { key } from "./toolkit.js";

export const COLS = 10;
export const ROWS = 10;
export const FACINGS = ["N", "NE", "SE", "S", "SW", "NW"];
export const SIZES = ["small", "medium", "large"];
export const POINTS = { small: 1, medium: 2, large: 3 };

export function fieldName([c, r]) {
  return `${"abcdefghij"[c]}${r + 1}`;
}

/** The adjacent field in direction `facing` (0..5), or null off the board. */
export function neighbour([c, r], facing) {
  const odd = c & 1;
  const [dc, dr] = [[0, 1], [1, odd], [1, odd - 1], [0, -1], [-1, odd - 1], [-1, odd]][facing];
  const n = [c + dc, r + dr];
  return n[0] >= 0 && n[0] < COLS && n[1] >= 0 && n[1] < ROWS ? n : null;
}

/** Map "c,r" -> piece for the view's piece list. */
export function pieceMap(view) {
  return new Map(view.pieces.map((p) => [key(p.at), p]));
}

/**
 * Plays `steps` for the piece at `start` on the board `pieces`.
 * Returns {ok, path: [{at, facing}] (start first), at, facing, captures: [piece], stopped}
 * or {ok: false, why} when a step is not allowed: why is "points", "edge", "own" or "stopped".
 */
export function simulate(pieces, start, steps, options) {
  const piece = pieces.get(key(start));
  let facing = FACINGS.indexOf(piece.facing);
  let at = start;
  let stopped = false;
  const captures = [];
  const path = [{ at, facing }];
  if (steps.length > POINTS[piece.size]) return { ok: false, why: "points" };
  for (const step of steps) {
    if (step === "L") facing = (facing + 5) % 6;
    else if (step === "R") facing = (facing + 1) % 6;
    else {
      if (stopped) return { ok: false, why: "stopped" };
      const next = neighbour(at, step === "F" ? facing : (facing + 3) % 6);
      if (!next) return { ok: false, why: "edge" };
      const occ = pieces.get(key(next));
      const taken = captures.some((p) => key(p.at) === key(next));
      if (occ && key(next) !== key(start) && !taken) {
        if (occ.seat === piece.seat) return { ok: false, why: "own" };
        captures.push(occ);
        stopped = !options.move_on;
      }
      at = next;
    }
    path.push({ at, facing });
  }
  return { ok: true, path, at, facing, captures, stopped };
}

/** What tells two turns of one piece apart: end field, facing and captured fields. */
export function resultKey(sim) {
  const caps = sim.captures.map((p) => key(p.at)).sort().join(";");
  return `${key(sim.at)}|${sim.facing}|${caps}`;
}

/**
 * The legal turns of the piece at `start`, each with its simulated result:
 * [{action, sim, key}], and grouped by end field: Map "c,r" -> [result].
 */
export function turnsOf(view, legal, start) {
  const pieces = pieceMap(view);
  const results = [];
  for (const action of legal) {
    if (action.type !== "turn" || key(action.at) !== key(start)) continue;
    const sim = simulate(pieces, start, action.steps, view.options);
    if (sim.ok) results.push({ action, sim, key: resultKey(sim) });
  }
  const byField = new Map();
  for (const r of results) {
    const k = key(r.sim.at);
    if (!byField.has(k)) byField.set(k, []);
    byField.get(k).push(r);
  }
  // Each field's results in clockwise facing order, most captures first.
  for (const list of byField.values()) {
    list.sort((a, b) => a.sim.facing - b.sim.facing || b.sim.captures.length - a.sim.captures.length);
  }
  return { results, byField };
}
