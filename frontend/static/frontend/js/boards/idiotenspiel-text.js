// Das Idiotenspiel: names, fight explanations and the move-list lines.
import { key } from "./toolkit.js";
import { fmt, gettext } from "../socket.js";

const ROW_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** A field's name as the map labels show it: row letter (from the north), column number. */
export function fieldName([x, y]) {
  return `${ROW_LETTERS[y] ?? y + 1}${x + 1}`;
}

export function rowLabel(y) {
  return ROW_LETTERS[y] ?? String(y + 1);
}

// The units seen in the latest view (the move list names units by their type).
const known = new Map();

export function learnUnits(view) {
  for (const u of view.units) known.set(u.id, u);
}

/** A unit by id: from the latest view, else from the fixed forces' numbering (the
 * move list is drawn once before the board has seen a view). */
export function unitInfo(id) {
  if (known.has(id)) return known.get(id);
  if (id === "m") return { id, side: 0, type: "civilian", leader: false, name: "Maid Marian" };
  const side = id.startsWith("s") ? 1 : 0;
  const n = Number(id.slice(1));
  if (n === 0) {
    return side
      ? { id, side, type: "cavalry", leader: true, name: "Sheriff of Nottingham" }
      : { id, side, type: "archer", leader: true, name: "Robin Hood" };
  }
  // s7-s11 are infantry in the Grundspiel but cavalry in "Rettet Maid Marian!".
  let type = side ? (n >= 13 ? "cavalry" : "infantry") : n >= 13 ? "archer" : "infantry";
  if (side && n >= 7 && n <= 11) type = "unit";
  return { id, side, type, leader: false, name: "" };
}

export function sideName(side) {
  return side === 0 ? gettext("Robin") : gettext("Sheriff");
}

export function typeName(type) {
  switch (type) {
    case "infantry": return gettext("infantry");
    case "archer": return gettext("archer");
    case "slinger": return gettext("slinger");
    case "shieldwall": return gettext("shield wall");
    case "cavalry": return gettext("cavalry");
    case "chariot": return gettext("chariot");
    case "elephant": return gettext("elephant");
    case "civilian": return gettext("civilian");
    case "unit": return gettext("unit");
    default: return type;
  }
}

function personName(name) {
  if (name === "Robin Hood") return gettext("Robin Hood");
  if (name === "Sheriff of Nottingham") return gettext("the Sheriff");
  if (name === "Maid Marian") return gettext("Maid Marian");
  return name;
}

/** "Sheriff's cavalry", "Robin Hood", "Maid Marian". */
export function unitName(u) {
  if (typeof u === "string") u = unitInfo(u);
  if (u.name) return personName(u.name);
  return fmt(gettext("%(side)s's %(type)s"), { side: sideName(u.side), type: typeName(u.type) });
}

export function cap(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

export function terrainName(name) {
  switch (name) {
    case "plain": return gettext("plain");
    case "road": return gettext("road");
    case "hill": return gettext("hill");
    case "forest": return gettext("forest");
    case "swamp": return gettext("swamp");
    case "river": return gettext("river");
    case "ford": return gettext("ford");
    case "fortress": return gettext("fortress");
    case "camp": return gettext("camp");
    case "rock": return gettext("rock");
    default: return name;
  }
}

export function facingName(f) {
  const names = {
    N: gettext("north"), NE: gettext("north-east"), E: gettext("east"), SE: gettext("south-east"),
    S: gettext("south"), SW: gettext("south-west"), W: gettext("west"), NW: gettext("north-west"),
  };
  return names[f] ?? f;
}

function signed(v) {
  return v < 0 ? `\u2212${-v}` : `+${v}`;
}

/** One side's score in a fight: "5+1", "no roll", "declined", "3 (counts 0)". */
export function score(side, ranged) {
  if (side.declined) return gettext("0 (declined)");
  if (side.die === null || side.die === undefined) return gettext("no roll");
  let text = `${side.die}${side.bonuses.map((b) => signed(b.value)).join("")}`;
  if (ranged && side.counted === 0) text = fmt(gettext("%(roll)s (counts 0)"), { roll: text });
  return text;
}

/** Why a bonus applies, in words: "+1 forest", "+1 leader's aura". */
export function bonusText(b) {
  let why;
  switch (b.source) {
    case "terrain": why = terrainName(b.terrain); break;
    case "hill": why = fmt(gettext("hill against %(terrain)s"), { terrain: terrainName(b.foe_terrain) }); break;
    case "leader": why = gettext("leader"); break;
    case "aura": why = fmt(gettext("aura of %(leader)s"), { leader: unitName(b.leader) }); break;
    case "shieldwall": why = gettext("shield wall front"); break;
    default: why = b.source;
  }
  return `${signed(b.value)} ${why}`;
}

/** What a fight did, naming units shortly when their types tell them apart. */
export function fightResult(item) {
  const a = item.attacker;
  const d = item.defender;
  const short = (id) => {
    const u = id === a.unit ? a : d;
    if (u.name || a.type === d.type) return unitName(u);
    return typeName(u.type);
  };
  const parts = [];
  for (const id of item.result.eliminated) parts.push(fmt(gettext("%(unit)s eliminated"), { unit: short(id) }));
  for (const id of item.result.captured) parts.push(fmt(gettext("%(unit)s taken prisoner"), { unit: short(id) }));
  // A beaten attacking leader: the defender's side chooses prisoner or elimination next.
  for (const id of item.result.beaten || []) parts.push(fmt(gettext("%(unit)s beaten with 6 or more"), { unit: short(id) }));
  if (item.result.retreat) parts.push(fmt(gettext("%(unit)s retreats"), { unit: short(item.result.retreat) }));
  return parts.length ? parts.join(", ") : gettext("no effect");
}

/** "Sheriff's cavalry 5+1 vs Robin's archer 3: archer retreats". */
export function fightText(item) {
  const ranged = item.kind === "ranged";
  const params = {
    a: cap(unitName(item.attacker)),
    as: score(item.attacker, ranged),
    d: unitName(item.defender),
    ds: score(item.defender, ranged),
    result: fightResult(item),
  };
  return ranged
    ? fmt(gettext("%(a)s %(as)s shoots at %(d)s %(ds)s: %(result)s"), params)
    : fmt(gettext("%(a)s %(as)s vs %(d)s %(ds)s: %(result)s"), params);
}

function edgeName(side) {
  return { N: gettext("north"), S: gettext("south"), W: gettext("west"), E: gettext("east") }[side] ?? side;
}

/** One move-list line per ruleset event (null: not worth a line). */
/** A combat phase that began and ended in one action without any fight. */
function quietCombat(event) {
  const items = event ? event.events : [];
  const start = items.findIndex((i) => i.type === "combat");
  const end = items.findIndex((i) => i.type === "combat_over");
  return start >= 0 && end > start && !items.slice(start, end).some((i) => i.type === "fight" || i.type === "shot");
}

/** Whether the action that made these events had a fight (its line names the dead
 * and the captured; a later capture decision needs lines of its own). */
function hadFight(event) {
  return !event || event.events.some((i) => i.type === "fight");
}

export function describe(item, { seatName, event }) {
  const u = (id) => cap(unitName(id));
  switch (item.type) {
    case "setup_chosen":
      return item.zone === "fortress"
        ? fmt(gettext("%(player)s sets up by the fortress on the %(edge)s side."), { player: seatName(item.seat), edge: edgeName(item.side) })
        : fmt(gettext("%(player)s sets up along the %(edge)s edge."), { player: seatName(item.seat), edge: edgeName(item.side) });
    case "placed":
      return fmt(gettext("%(unit)s placed on %(field)s."), { unit: u(item.unit), field: fieldName(item.at) });
    case "setup_over":
      return gettext("Set-up complete.");
    case "turn":
      return fmt(gettext("Turn %(turn)s: %(player)s moves."), { turn: item.turn, player: seatName(item.seat) });
    case "moved": {
      if (key(item.from) === key(item.to)) {
        return fmt(gettext("%(unit)s turns to face %(facing)s."), { unit: u(item.unit), facing: facingName(item.facing) });
      }
      const params = { unit: u(item.unit), from: fieldName(item.from), to: fieldName(item.to) };
      if (!item.with.length) return fmt(gettext("%(unit)s %(from)s \u2192 %(to)s."), params);
      params.units = item.with.map(unitName).join(", ");
      return fmt(gettext("%(unit)s %(from)s \u2192 %(to)s, with %(units)s."), params);
    }
    case "sandglass":
      return fmt(gettext("The sandglass ran out: only the units in %(field)s may still move (10 s)."), { field: fieldName(item.field) });
    case "movement_over":
      switch (item.reason) {
        case "sandglass": return gettext("The sandglass ran out: movement is over.");
        case "grace_over": return gettext("Grace time over: movement is over.");
        case "no_units": return fmt(gettext("%(player)s has no unit that can move."), { player: seatName(item.seat) });
        default:
          // The platform ends grace time with the player's "end_movement" on a timeout.
          if (event && event.events.some((i) => i.type === "timeout")) return gettext("Grace time over: movement is over.");
          return fmt(gettext("%(player)s ends the movement."), { player: seatName(item.seat) });
      }
    case "combat":
      return quietCombat(event) ? null : gettext("Combat.");
    case "combat_stage":
      return item.stage === "cleanup"
        ? fmt(gettext("%(player)s's units that still owe a fight must attack."), { player: seatName(item.seat) })
        : fmt(gettext("%(player)s's units that have not fought may attack."), { player: seatName(item.seat) });
    case "combat_over":
      return quietCombat(event) ? gettext("No fights.") : gettext("Combat over.");
    case "shot":
      return fmt(gettext("%(a)s shoots at %(d)s."), { a: u(item.attacker), d: unitName(item.target) });
    case "fight":
      return fightText(item);
    case "retreated":
      return fmt(gettext("%(unit)s retreats to %(field)s."), { unit: u(item.unit), field: fieldName(item.to) });
    case "advanced":
      return fmt(gettext("%(unit)s advances to %(field)s."), { unit: u(item.unit), field: fieldName(item.to) });
    case "stayed":
      return fmt(gettext("%(unit)s does not advance."), { unit: u(item.unit) });
    case "eliminated":
      if (item.reason === "no retreat") return fmt(gettext("%(unit)s cannot retreat and is eliminated."), { unit: u(item.unit) });
      return hadFight(event) ? null : fmt(gettext("%(unit)s is eliminated."), { unit: u(item.unit) });
    case "captured":
      if (item.how === "unaccompanied") return fmt(gettext("%(unit)s, left alone, is taken prisoner by %(by)s."), { unit: u(item.unit), by: unitName(item.by) });
      return hadFight(event) ? null : fmt(gettext("%(unit)s is taken prisoner by %(by)s."), { unit: u(item.unit), by: unitName(item.by) });
    case "freed":
      return fmt(gettext("%(unit)s is free."), { unit: u(item.unit) });
    case "guard":
      return fmt(gettext("%(by)s now guards %(unit)s."), { by: u(item.by), unit: unitName(item.unit) });
    case "marian_turn":
      return gettext("Robin may move Maid Marian up to 3 fields.");
    case "marian_moved":
      return fmt(gettext("Maid Marian moves %(from)s \u2192 %(to)s."), { from: fieldName(item.from), to: fieldName(item.to) });
    case "marian_stayed":
      return gettext("Maid Marian stays where she is.");
    default:
      return null;
  }
}

/** The position as text for a screen reader: each side's units by field, then prisoners. */
export function textView(state, { seatName }) {
  const view = state.view;
  learnUnits(view);
  const lines = [0, 1].map((side) => {
    const here = view.units.filter((u) => u.alive && u.at && u.side === side && !u.prisoner && u.type !== "civilian");
    const list = here.map((u) => fmt(gettext("%(unit)s on %(field)s"), { unit: unitName(u), field: fieldName(u.at) }));
    return fmt(gettext("%(side)s (%(player)s): %(units)s"), { side: sideName(side), player: seatName(side), units: list.join("; ") || "—" });
  });
  const prisoners = view.units.filter((u) => u.alive && u.at && u.prisoner);
  if (prisoners.length) {
    lines.push(fmt(gettext("Prisoners: %(units)s"), { units: prisoners.map((u) => fmt(gettext("%(unit)s on %(field)s"), { unit: unitName(u), field: fieldName(u.at) })).join("; ") }));
  }
  return lines;
}
