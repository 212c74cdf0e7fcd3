// Das Idiotenspiel: the line that tells a player what to do now (or who is doing what).
import { key } from "./toolkit.js";
import { cap, fieldName, typeName, unitName } from "./idiotenspiel-text.js";
import { fmt, gettext } from "../socket.js";

const RANGED = ["archer", "slinger"];

/** Whether a prisoner taken now would stay one: a melee captor takes it along; else
 * another unit of the captor's side must stand in the leader's field. */
function captureHolds(view, p) {
  if (p.melee) return true;
  const side = 1 - view.units.find((u) => u.id === p.unit).side;
  return view.units.some((u) => u.alive && u.at && !u.prisoner && u.type !== "civilian"
    && u.side === side && u.id !== p.other && key(u.at) === key(p.field));
}

/** The line for a player who chooses fights now. */
function fightPrompt(view, acts) {
  if (acts.buttons.end_combat) return gettext("Choose a fight: click one of your units, then a marked enemy; or end your combat.");
  const mustShoot = view.combat.seat === view.active && (view.combat.must_fight || [])
    .some((id) => RANGED.includes((view.units.find((u) => u.id === id) || {}).type));
  return mustShoot
    ? gettext("Choose a fight: click one of your units, then a marked enemy. Units next to each other must fight, and after moving, archers and slingers with a target in range and sight must shoot.")
    : gettext("Choose a fight: click one of your units, then a marked enemy. Units next to each other must fight.");
}

/** `actor` names the seat to act; `mine`: the viewer is that seat. */
export function promptText(state, view, acts, actor, mine) {
  if (state.status !== "active") return state.status === "finished" ? gettext("The game is over.") : "";
  if (state.paused) return gettext("The game is paused.");
  const p = view.combat && view.combat.pending;
  const unit = (id) => unitName(id);
  switch (view.phase) {
    case "choose":
      return mine
        ? (acts.choose.some((a) => a.side) ? gettext("Choose your map side and where to set up.") : gettext("Choose where to set up."))
        : fmt(gettext("%(player)s is choosing where to set up."), { player: actor });
    case "setup":
      return mine ? gettext("Place your units: pick a unit type, then a lit field.") : fmt(gettext("%(player)s is placing units."), { player: actor });
    case "move":
      return mine
        ? gettext("Move your units: pick a unit, then a lit field. Each unit moves once; moves do not refill the sandglass.")
        : fmt(gettext("%(player)s is moving."), { player: actor });
    case "grace":
      return mine
        ? fmt(gettext("Time is up: you may still move the units from %(field)s."), { field: fieldName(view.movement.field_worked_on) })
        : fmt(gettext("Time is up: %(player)s may still move the units from %(field)s."), { player: actor, field: fieldName(view.movement.field_worked_on) });
    case "marian":
      return mine
        ? gettext("Move Maid Marian up to 3 fields (a lit field), or leave her where she is.")
        : fmt(gettext("%(player)s may move Maid Marian."), { player: actor });
    case "combat":
      if (p && p.kind === "defend") {
        if (!mine) return fmt(gettext("%(player)s decides whether %(unit)s rolls against the shot."), { player: actor, unit: unit(p.unit) });
        const line = fmt(gettext("%(shooter)s shoots at your %(unit)s. Roll to defend (1-3 counts 0), or decline: your unit has then not fought, may fight later, and may be shot at again."), { shooter: cap(unit(p.other)), unit: typeName(view.units.find((u) => u.id === p.unit).type) });
        return p.capture ? `${line} ${gettext("On 6 or more the shooter takes your leader prisoner; it goes free at once unless a unit of the shooter's side stands in its field.")}` : line;
      }
      if (p && p.kind === "capture") {
        if (!mine) return fmt(gettext("%(player)s decides whether to take %(leader)s prisoner."), { player: actor, leader: unit(p.unit) });
        const line = fmt(gettext("%(unit)s beat %(leader)s with 6 or more: take the leader prisoner, or eliminate it?"), { unit: cap(unit(p.other)), leader: unit(p.unit) });
        return captureHolds(view, p) ? line : `${line} ${gettext("None of your units stands in its field: a prisoner would go free at once.")}`;
      }
      if (p && p.kind === "retreat") {
        return mine
          ? fmt(gettext("%(unit)s must retreat: click a lit field."), { unit: cap(unit(p.unit)) })
          : fmt(gettext("%(player)s chooses where %(unit)s retreats."), { player: actor, unit: unit(p.unit) });
      }
      if (p && p.kind === "advance") {
        return mine
          ? fmt(gettext("%(unit)s won: advance into %(field)s (click it) or stay?"), { unit: cap(unit(p.unit)), field: fieldName(p.field) })
          : fmt(gettext("%(player)s decides whether %(unit)s advances."), { player: actor, unit: unit(p.unit) });
      }
      if (!mine) return fmt(gettext("%(player)s chooses the fights."), { player: actor });
      return fightPrompt(view, acts);
    default:
      return "";
  }
}

