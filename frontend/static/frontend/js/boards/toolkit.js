// Small SVG helpers shared by every board module.
import { svgEl } from "../dom.js";

/** A fresh SVG filling `container`; `margin` leaves room for coordinates. */
export function makeSvg(container, width, height, label, margin = 0) {
  container.replaceChildren();
  const svg = svgEl("svg", {
    viewBox: `${-margin} 0 ${width + margin} ${height + margin}`,
    class: "board-svg",
    role: "img",
    "aria-label": label,
  });
  container.appendChild(svg);
  return svg;
}

export function group(parent, cls) {
  return svgEl("g", { class: cls }, parent);
}

/** Key for a coordinate pair, used in sets and maps. */
export function key(pair) {
  return `${pair[0]},${pair[1]}`;
}

/** Draws a path (list of [x, y] centres) as a polyline with a dot at each stop. */
export function trail(parent, points, cls) {
  const g = group(parent, cls);
  svgEl("polyline", { points: points.map((p) => p.join(",")).join(" ") }, g);
  points.forEach((p, i) => svgEl("circle", { cx: p[0], cy: p[1], r: i === 0 ? 1.2 : 1.6 }, g));
  return g;
}

/** Moves an SVG element from one centre to another in small hops. */
export function animateAlong(el, points, ms = 180) {
  if (!el || points.length < 2 || window.matchMedia("(prefers-reduced-motion: reduce)").matches) {
    return Promise.resolve();
  }
  const frames = points.map((p) => ({ transform: `translate(${p[0]}px, ${p[1]}px)` }));
  const anim = el.animate(frames, { duration: ms * (points.length - 1), easing: "ease-in-out" });
  return anim.finished.catch(() => {});
}

/**
 * Moves an SVG element through `points` hop by hop, each hop eased on its own.
 * `delay` holds it on the first point before it sets off (a piece waiting to be
 * knocked out); `ms` is the time per hop. Resolves when it arrives.
 */
export function animateHops(el, points, { ms = 180, delay = 0, easing = "ease-in-out" } = {}) {
  if (!el || points.length < 2 || window.matchMedia("(prefers-reduced-motion: reduce)").matches) {
    return Promise.resolve();
  }
  const frames = points.map((p) => ({ transform: `translate(${p[0]}px, ${p[1]}px)`, easing }));
  const anim = el.animate(frames, { duration: ms * (points.length - 1), delay, fill: "backwards" });
  return anim.finished.catch(() => {});
}

/** A straight arrow from one point to another (line plus a triangular head); `gap`
 * shortens both ends so the arrow sits between two pieces. */
export function arrow(parent, from, to, cls, gap = 0, head = 2.4) {
  const g = group(parent, cls);
  const dx = to[0] - from[0];
  const dy = to[1] - from[1];
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len;
  const uy = dy / len;
  const a = [from[0] + ux * gap, from[1] + uy * gap];
  const b = [to[0] - ux * gap, to[1] - uy * gap];
  const base = [b[0] - ux * head, b[1] - uy * head];
  svgEl("line", { x1: a[0], y1: a[1], x2: base[0], y2: base[1] }, g);
  const w = head * 0.6;
  svgEl("path", { d: `M${b[0]} ${b[1]}L${base[0] - uy * w} ${base[1] + ux * w}L${base[0] + uy * w} ${base[1] - ux * w}Z` }, g);
  return g;
}

/** Calls ``clear`` on a click in ``el`` (outside pieces, which stop the event) or on Escape. */
export function dismissOn(el, clear) {
  el.addEventListener("click", clear);
  document.addEventListener("keydown", (e) => e.key === "Escape" && clear());
}
