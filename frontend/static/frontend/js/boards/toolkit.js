// Small SVG helpers shared by every board module.
import { svgEl } from "../dom.js";

/**
 * A fresh SVG filling `container`; `margin` leaves room for coordinates. The board
 * holds controls, so it is a labelled application, not an image. Keyboard focus
 * survives the redraw: the new element with the same field or target gets it back.
 */
export function makeSvg(container, width, height, label, margin = 0) {
  const again = focusKey(container);
  container.replaceChildren();
  const svg = svgEl("svg", {
    viewBox: `${-margin} 0 ${width + margin} ${height + margin}`,
    class: "board-svg",
    role: "application",
    "aria-label": label,
    tabindex: -1,
  });
  container.appendChild(svg);
  arrowKeys(container);
  if (again) queueMicrotask(() => refocus(container, again));
  return svg;
}

const KEY_ATTRS = ["data-target", "data-field", "data-testid", "id"];

/** A selector for the focused control inside `container` that a redraw can find again. */
export function focusKey(container) {
  const el = document.activeElement;
  if (!el || el === document.body || !container.contains(el)) return null;
  for (const attr of KEY_ATTRS) {
    const v = el.getAttribute(attr);
    if (v !== null) return `[${attr}="${CSS.escape(v)}"][tabindex]`;
  }
  return "svg";
}

/** Focuses the control matching `sel`, else the board's first control, else the board. */
export function refocus(container, sel) {
  if (container.contains(document.activeElement) && document.activeElement !== container) return;
  const el = container.querySelector(sel) ?? container.querySelector("[tabindex='0']") ?? container.querySelector("svg");
  if (el instanceof HTMLElement || el instanceof SVGElement) el.focus({ preventScroll: true });
}

/** `fn` on a click, or on Enter or Space while `el` has the focus (a button inside an SVG). */
export function activate(el, fn, label = null) {
  el.setAttribute("tabindex", "0");
  el.setAttribute("role", "button");
  if (label) el.setAttribute("aria-label", label);
  el.addEventListener("click", (e) => {
    e.stopPropagation();
    fn(e);
  });
  el.addEventListener("keydown", (e) => {
    if (e.key !== "Enter" && e.key !== " ") return;
    e.preventDefault();
    e.stopPropagation();
    fn(e);
  });
}

const STEP = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
const wired = new WeakSet();

/** Arrow keys move the focus to the nearest control of the board in that direction. */
function arrowKeys(container) {
  if (wired.has(container)) return;
  wired.add(container);
  container.addEventListener("keydown", (e) => {
    const dir = STEP[e.key];
    const from = /** @type {Element} */ (e.target);
    if (!dir || !(from instanceof SVGElement) || e.altKey || e.ctrlKey || e.metaKey) return;
    const next = nearest(container, from, dir);
    if (!next) return;
    e.preventDefault();
    next.focus();
  });
}

function middle(el) {
  const r = el.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
}

function nearest(container, from, [dx, dy]) {
  const [x0, y0] = middle(from);
  let best = null;
  let bestScore = Infinity;
  for (const el of container.querySelectorAll("svg [tabindex='0']")) {
    if (el === from) continue;
    const [x, y] = middle(el);
    const along = (x - x0) * dx + (y - y0) * dy;
    const across = Math.abs((x - x0) * dy) + Math.abs((y - y0) * dx);
    if (along <= 1 || across > along * 2) continue; // behind, or too far to the side
    const score = along + across * 2;
    if (score < bestScore) [best, bestScore] = [el, score];
  }
  return best;
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
