// Das Idiotenspiel: unit counters (type symbol, side colour, leader star, stack size,
// shield-wall facing, prisoners) and small map marks.
import { svgEl } from "../dom.js";
import { group } from "./toolkit.js";
import { typeName, unitName } from "./idiotenspiel-text.js";

export const FACING_VECTORS = {
  N: [0, -1], NE: [1, -1], E: [1, 0], SE: [1, 1], S: [0, 1], SW: [-1, 1], W: [-1, 0], NW: [-1, -1],
};

const BOX = "M-3.3 -2.3h6.6v4.6h-6.6z";

/** The type symbol in a 10 x 10 box centred on 0, 0 (NATO-style frames for troops). */
function symbol(g, type) {
  const path = (d, cls = "ids-sym") => svgEl("path", { d, class: cls }, g);
  switch (type) {
    case "infantry":
      path(BOX);
      path("M-3.3 -2.3L3.3 2.3M-3.3 2.3L3.3 -2.3");
      break;
    case "cavalry":
      path(BOX);
      path("M-3.3 2.3L3.3 -2.3");
      break;
    case "archer":
      path(BOX);
      path("M-.9 -1.9Q2.2 0 -.9 1.9M-.9 -1.9V1.9M-2.6 0H2.5M1.6 -.8L2.6 0 1.6 .8");
      break;
    case "slinger":
      path(BOX);
      path("M-2.4 1.2Q0 -2.6 2 -1");
      svgEl("circle", { cx: 2, cy: -1, r: 0.7, class: "ids-sym-fill" }, g);
      break;
    case "shieldwall":
      path("M-2.4 -2.6H2.4V-.2Q2.4 2.2 0 3.2Q-2.4 2.2 -2.4 -.2Z");
      path("M0 -2.6V3.2M-2.4 -.6H2.4");
      break;
    case "chariot":
    case "elephant":
      path(BOX);
      if (type === "chariot") {
        svgEl("circle", { cx: 0, cy: 0, r: 1.6, class: "ids-sym" }, g);
        path("M-1.6 0H1.6M0 -1.6V1.6");
      } else {
        path("M-2.2 1.6V-.6Q-2.2 -1.8 0 -1.8Q2.2 -1.8 2.2 0Q2.2 1 1.4 1.8");
      }
      break;
    case "civilian":
      svgEl("circle", { cx: 0, cy: -1.9, r: 1.2, class: "ids-sym-fill" }, g);
      path("M-2 2.9L-.9 -.4H.9L2 2.9Z", "ids-sym-fill");
      break;
    default:
      break;
  }
}

function star(g, x, y, r) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const a = (Math.PI / 5) * i - Math.PI / 2;
    const rr = i % 2 ? r * 0.45 : r;
    pts.push(`${(x + rr * Math.cos(a)).toFixed(2)},${(y + rr * Math.sin(a)).toFixed(2)}`);
  }
  svgEl("polygon", { points: pts.join(" "), class: "ids-star" }, g);
}

/**
 * One counter, centred on cx, cy with side length `size`. `rot` turns facing arrows
 * when the map is turned. Returns the counter's group.
 */
export function counter(parent, u, cx, cy, size, { rot = false, classes = [] } = {}) {
  const k = size / 10;
  const g = svgEl("g", {
    class: ["ids-unit", `side-${u.side}`, `type-${u.type}`, u.leader ? "leader" : "", ...classes].filter(Boolean).join(" "),
    transform: `translate(${cx.toFixed(2)} ${cy.toFixed(2)}) scale(${k})`,
    "data-unit": u.id,
    "data-field": u.at ? `${u.at[0]},${u.at[1]}` : "",
  }, parent);
  svgEl("title", {}, g).textContent = unitName(u) + (u.leader || u.name ? ` (${typeName(u.type)})` : "");
  if (u.type === "civilian") {
    svgEl("circle", { r: 4.2, class: "ids-chip" }, g);
  } else if (u.side === 1) {
    // The Sheriff's counters are round, Robin's square: the sides differ in
    // shape as well as colour (red and green look alike to many).
    svgEl("circle", { r: 5.1, class: "ids-chip" }, g);
  } else {
    svgEl("rect", { x: -4.6, y: -4.6, width: 9.2, height: 9.2, rx: 1.2, class: "ids-chip" }, g);
  }
  symbol(g, u.type);
  if (u.type === "shieldwall" && u.facing) {
    let [dx, dy] = FACING_VECTORS[u.facing];
    if (rot) [dx, dy] = [-dx, -dy];
    const len = Math.hypot(dx, dy);
    const [ux, uy] = [dx / len, dy / len];
    const edge = dx && dy ? 5.6 : 4.6;
    const bx = ux * edge;
    const by = uy * edge;
    svgEl("path", { d: `M${bx - uy * 3} ${by + ux * 3}L${bx + uy * 3} ${by - ux * 3}`, class: "ids-facing" }, g);
    svgEl("path", { d: `M${bx + ux * 2.4} ${by + uy * 2.4}L${bx - uy * 1.4} ${by + ux * 1.4}L${bx + uy * 1.4} ${by - ux * 1.4}Z`, class: "ids-facing-tip" }, g);
  }
  if (u.leader) star(g, -4.4, -4.4, 2.3);
  return g;
}

/** A prisoner: a small round token with a chain ring, next to its guard. */
export function prisoner(parent, u, cx, cy, size) {
  const g = svgEl("g", {
    class: `ids-unit ids-prisoner side-${u.side} type-${u.type}`,
    transform: `translate(${cx.toFixed(2)} ${cy.toFixed(2)}) scale(${size / 10})`,
    "data-unit": u.id,
    "data-field": u.at ? `${u.at[0]},${u.at[1]}` : "",
  }, parent);
  svgEl("title", {}, g).textContent = unitName(u);
  svgEl("circle", { r: 4.4, class: "ids-chip" }, g);
  symbol(g, u.type === "civilian" ? "civilian" : u.type);
  svgEl("circle", { r: 5, class: "ids-chain" }, g);
  return g;
}

/** A number badge (stack size) at the counter's upper right corner. */
export function badge(parent, n, cx, cy, size) {
  const g = group(parent, "ids-badge");
  const r = size * 0.2;
  svgEl("circle", { cx: cx + size / 2, cy: cy - size / 2, r }, g);
  svgEl("text", { x: cx + size / 2, y: cy - size / 2 + r * 0.45 }, g).textContent = String(n);
  return g;
}

/** Crossed swords (melee) or an arrow (shot), centred on x, y. */
export function fightIcon(parent, x, y, ranged, cls) {
  const g = svgEl("g", { class: cls, transform: `translate(${x} ${y})` }, parent);
  svgEl("circle", { r: 2.6, class: "ids-icon-bg" }, g);
  if (ranged) {
    svgEl("path", { d: "M-1.6 1.6L1.5 -1.5M.2 -1.6H1.6V-.2M-1.6 .6V1.6H-.6", class: "ids-icon" }, g);
  } else {
    svgEl("path", { d: "M-1.6 -1.6L1.6 1.6M1.6 -1.6L-1.6 1.6M-1.6 .6L-.6 1.6M1.6 .6L.6 1.6", class: "ids-icon" }, g);
  }
  return g;
}
