// Das Idiotenspiel: the map's moving parts, the unit counters per field and the
// marks for what just happened (last move, retreat, fight, eliminated units).
import { svgEl } from "../dom.js";
import { arrow, key } from "./toolkit.js";
import { CELL } from "./idiotenspiel-map.js";
import { badge, counter, fightIcon, prisoner } from "./idiotenspiel-units.js";

function byField(view) {
  const fields = new Map();
  for (const u of view.units) {
    if (!u.alive || !u.at) continue;
    const k = key(u.at);
    if (!fields.has(k)) fields.set(k, { at: u.at, sides: [[], []], prisoners: [], civ: [] });
    const f = fields.get(k);
    if (u.prisoner) f.prisoners.push(u);
    else if (u.type === "civilian") f.civ.push(u);
    else f.sides[u.side].push(u);
  }
  return fields;
}

/**
 * Every unit on the map: per field, each side's stack as offset counters (the
 * selected or active unit on top), prisoners on their guard, civilians.
 * `g` = {centre, flip, sel, acts}.
 */
export function drawUnits(layer, view, g) {
  const { centre, sel, acts } = g;
  layer.replaceChildren();
  const moving = view.phase === "move" || view.phase === "grace";
  const rank = (u) => (u.id === sel ? -2 : acts.units.has(u.id) ? -1 : 0) * 10 + (u.leader ? 0 : 1);
  for (const [, f] of byField(view)) {
    const [cx, cy] = centre(f.at);
    const both = f.sides[0].length && f.sides[1].length;
    const size = both ? 5.8 : 7.4;
    f.sides.forEach((stack, side) => {
      if (!stack.length) return;
      const off = both ? (side === 0 ? -1.9 : 1.9) : 0;
      const sorted = [...stack].sort((a, b) => rank(a) - rank(b));
      const step = 0.9;
      const n = sorted.length;
      for (let i = n - 1; i >= 0; i--) {
        const u = sorted[i];
        const d = off - (step * (n - 1)) / 2 + step * i;
        const classes = [];
        if ((moving && u.moved) || (view.phase === "combat" && u.fights > 0 && !acts.units.has(u.id))) classes.push("done");
        if (acts.units.has(u.id)) classes.push("can-act");
        if (u.id === sel) classes.push("selected");
        if (i > 0) classes.push("under");
        counter(layer, u, cx + d, cy + d, size, { rot: g.flip, classes });
      }
      const top = off - (step * (n - 1)) / 2;
      if (n > 1) badge(layer, n, cx + top, cy + top, size);
      f.prisoners
        .filter((p) => stack.some((g) => g.id === p.guard))
        .forEach((p, j) => prisoner(layer, p, cx + top - size / 2 + 1 + j * 3.2, cy + top + size / 2 - 0.8, 4.4));
    });
    f.civ.forEach((u, j) => {
      const alone = !f.sides[0].length && !f.sides[1].length;
      if (alone) counter(layer, u, cx, cy, 6.6, { classes: ["ids-civilian"] });
      else prisoner(layer, u, cx - 2.8 + j * 3.2, cy + 2.8, 4.4).classList.add("free");
    });
    // Prisoners whose guard stands elsewhere cannot happen; draw strays anyway.
    f.prisoners
      .filter((p) => !f.sides.flat().some((g) => g.id === p.guard))
      .forEach((p, j) => prisoner(layer, p, cx + j * 3.2, cy, 4.4));
  }
}

/** Marks under the counters: selection, grace field, pending decisions, the latest events. */
export function drawMarks(g, view, { centre, corner, sel, popFor }) {
  g.replaceChildren();
  const ring = (f, cls) => {
    const [x, y] = corner(f);
    svgEl("rect", { x: x + 0.5, y: y + 0.5, width: CELL - 1, height: CELL - 1, rx: 1.2, class: cls, "data-field": key(f) }, g);
  };
  if (view.phase === "grace" && view.movement.field_worked_on) ring(view.movement.field_worked_on, "ids-worked");
  const chosen = sel && view.phase !== "setup" && view.units.find((u) => u.id === sel);
  if (chosen && chosen.at) ring(chosen.at, "ids-sel");
  if (popFor && popFor.kind !== "stack") ring(popFor.field, "ids-sel pick");
  const p = view.combat && view.combat.pending;
  if (p && p.kind !== "defend") {
    if (p.field && (p.kind === "advance" || p.kind === "capture")) ring(p.field, "ids-maybe");
    for (const o of p.options) ring(o, "ids-maybe");
  }
  if (p && p.kind === "defend") {
    const shooter = view.units.find((u) => u.id === p.other);
    const target = view.units.find((u) => u.id === p.unit);
    if (shooter && target && shooter.at && target.at) arrow(g, centre(shooter.at), centre(target.at), "ids-shot", 3.5);
  }
  const trailTo = (item, cls) => {
    ring(item.to, cls === "ids-last-move" ? "ids-last-ring" : "ids-last-ring retreat");
    arrow(g, centre(item.from), centre(item.to), cls, 1.5);
  };
  for (const item of view.last) {
    switch (item.type) {
      case "placed": ring(item.at, "ids-last-ring"); break;
      case "moved":
        if (key(item.from) === key(item.to)) ring(item.to, "ids-last-ring");
        else trailTo(item, "ids-last-move");
        break;
      case "advanced": case "marian_moved":
        trailTo(item, "ids-last-move");
        break;
      case "retreated":
        trailTo(item, "ids-last-retreat");
        break;
      case "eliminated": {
        const [x, y] = centre(item.at);
        svgEl("path", { d: `M${x - 2.6} ${y - 2.6}l5.2 5.2m0 -5.2l-5.2 5.2`, class: "ids-last-dead" }, g);
        break;
      }
      case "fight": {
        const a = centre(item.attacker.at);
        const d = centre(item.defender.at);
        svgEl("line", { x1: a[0], y1: a[1], x2: d[0], y2: d[1], class: "ids-last-fight-line" }, g);
        fightIcon(g, (a[0] + d[0]) / 2, (a[1] + d[1]) / 2, item.kind === "ranged", "ids-last-fight");
        break;
      }
      default: break;
    }
  }
}

