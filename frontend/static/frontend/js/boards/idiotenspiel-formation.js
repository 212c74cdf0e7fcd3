// Idiotenspiel set-up by formation: the page picks each placement from the
// server's legal placements (so the server stays the judge of every one); one
// placement a turn, as the rules alternate them. The default formation, for
// either side and scenario, reads the side's home edge: foot soldiers and
// shield walls in front, archers a line behind, horsemen and chariots on the
// wings of that line, leaders and civilians further back in the middle.

const FRONT = ["infantry", "shieldwall"];
const WINGS = ["cavalry", "chariot", "elephant"];
// The order of placing: the front first, so it gets the front fields.
const ORDER = ["infantry", "shieldwall", "archer", "cavalry", "chariot", "elephant"];

function role(unit) {
  if (unit.leader || unit.name || unit.type === "civilian") return "rear";
  if (FRONT.includes(unit.type)) return "front";
  if (WINGS.includes(unit.type)) return "wing";
  return unit.type === "archer" ? "second" : "rear";
}

function rank(unit) {
  const r = role(unit);
  if (r === "rear") return 100;
  const i = ORDER.indexOf(unit.type);
  return i < 0 ? 50 : i;
}

/** How far a field lies from `edge` towards the enemy, and where along it. */
function depthAndLine([x, y], edge, map) {
  switch (edge) {
    case "W": return [x, y];
    case "E": return [map.width - 1 - x, y];
    case "N": return [y, x];
    default: return [map.height - 1 - y, x];
  }
}

/**
 * The formation's next placement for `seat`, one of the server's legal
 * `place` actions (`places`: unit id -> its actions), or null.
 * @param {any} view
 * @param {number} seat
 * @param {Map<string, any[]>} places
 */
export function nextPlacement(view, seat, places) {
  const byId = new Map(view.units.map((u) => [u.id, u]));
  const ids = [...places.keys()].filter((id) => byId.has(id));
  if (!ids.length) return null;
  ids.sort((a, b) => rank(byId.get(a)) - rank(byId.get(b)) || (a < b ? -1 : 1));
  const unit = byId.get(ids[0]);
  const edge = view.home[seat] ?? "S";
  const facing = view.facing_hint?.[seat] ?? null;
  let actions = places.get(unit.id);
  if (actions.some((a) => a.facing)) {
    const turned = actions.filter((a) => a.facing === facing);
    if (turned.length) actions = turned;
  }
  const own = new Map();
  for (const u of view.units) {
    if (u.alive && u.at && u.side === seat) own.set(`${u.at}`, (own.get(`${u.at}`) ?? 0) + 1);
  }
  const spots = actions.map((a) => [a, ...depthAndLine(a.at, edge, view.map)]);
  const deepest = Math.max(...spots.map((s) => s[1]));
  const shallowest = Math.min(...spots.map((s) => s[1]));
  const middle = spots.reduce((sum, s) => sum + s[2], 0) / spots.length;
  const r = role(unit);
  const target = { front: deepest, second: deepest - 1, wing: deepest - 1, rear: Math.max(shallowest, deepest - 3) }[r];
  const score = (/** @type {any[]} */ [a, depth, line]) => {
    const off = Math.abs(line - middle) * 0.6;
    return Math.abs(depth - target) * 4 + (own.get(`${a.at}`) ?? 0) * 5 + (r === "wing" ? -off : off);
  };
  let best = spots[0];
  for (const s of spots) if (score(s) < score(best)) best = s;
  return best[0];
}
