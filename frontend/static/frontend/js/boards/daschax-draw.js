// Daschax drawing: flat-topped hex cells, pieces with a front, trays beside the board.
import { svgEl } from "../dom.js";
import { group } from "./toolkit.js";
import { COLS, FACINGS, ROWS, SIZES } from "./daschax-rules.js";

export const S = 10; // hex circumradius in SVG units
const H = Math.sqrt(3) * S; // hex height = distance between rows
const TRAY = 30; // width of a tray beside the board (wide layout)
const BAND = 24; // height of a tray above or below the board (narrow layout)
const GAP = 9; // room for the row numbers
const BW = S * (1.5 * (COLS - 1) + 2);
const BH = H * (ROWS + 0.5);
const RADIUS = { small: 3.4, medium: 4.8, large: 6.2 };

/**
 * The page's geometry: wide, the trays stand left and right of the board;
 * narrow (a phone), above and below it, so the hexes stay large enough to tap.
 */
function geometry(narrow) {
  if (narrow) {
    const bx = GAP;
    const by = BAND + 2;
    return { narrow, bx, by, width: bx + BW + 3, height: by + BH + 10 + BAND };
  }
  const bx = TRAY + GAP;
  const by = 3;
  return { narrow, bx, by, width: bx + BW + 4 + TRAY, height: by + BH + 10 };
}

let G = geometry(false);

export function setLayout(narrow) {
  G = geometry(narrow);
  return G;
}

/**
 * Screen centre of a field; `flip` turns the board 180° (seat 1 sees its row at the bottom).
 * @param {number[]} field [column, row]
 * @param {boolean} flip
 * @returns {number[]} [x, y]
 */
export function centre([c, r], flip) {
  const x = G.bx + S + 1.5 * S * c;
  const y = G.by + BH - (H / 2 + H * r + (c & 1 ? H / 2 : 0));
  return flip ? [2 * G.bx + BW - x, 2 * G.by + BH - y] : [x, y];
}

/** Screen angle (degrees clockwise from up) of a facing, by index or name. */
export function angle(facing, flip) {
  const i = typeof facing === "number" ? facing : FACINGS.indexOf(facing);
  return i * 60 + (flip ? 180 : 0);
}

/**
 * @param {number[]} point [x, y]
 * @param {number} [r]
 */
function hexPoints([x, y], r = S) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 3) * i;
    pts.push(`${(x + r * Math.cos(a)).toFixed(2)},${(y + r * Math.sin(a)).toFixed(2)}`);
  }
  return pts.join(" ");
}

export function hex(parent, field, flip, attrs = {}) {
  return svgEl("polygon", { points: hexPoints(centre(field, flip)), ...attrs }, parent);
}

/** The wedge of a field's hex towards screen angle `deg` (a sixth, centre to edge). */
export function sector(parent, field, flip, deg, attrs = {}) {
  const [x, y] = centre(field, flip);
  const inner = S * 0.87; // the hex's edge midpoints lie at this distance
  const half = 30;
  const pt = (d, r) => {
    const rad = ((d - 90) * Math.PI) / 180;
    return `${(x + r * Math.cos(rad)).toFixed(2)},${(y + r * Math.sin(rad)).toFixed(2)}`;
  };
  const points = [`${x},${y}`, pt(deg - half, S), pt(deg, inner), pt(deg + half, S)].join(" ");
  return svgEl("polygon", { points, ...attrs }, parent);
}

/**
 * A piece drawn pointing up, then turned: base in the seat's colour, a coloured disc, a nose.
 * @param {Element} parent
 * @param {{seat: number, size: string}} p
 * @param {number[]} point [x, y]
 * @param {number} deg
 * @param {import("../dom.js").Attrs} [attrs]
 * @param {number} [scale]
 */
export function piece(parent, p, [x, y], deg, attrs = {}, scale = 1) {
  const R = RADIUS[p.size];
  const g = svgEl("g", { transform: `translate(${x} ${y}) rotate(${deg}) scale(${scale})`, ...attrs }, parent);
  const a = 0.45; // half-width of the nose, in radians
  const nose = R + 1 + 0.3 * R;
  const lx = (-R * Math.sin(a)).toFixed(2);
  const rx = (R * Math.sin(a)).toFixed(2);
  const ty = (-R * Math.cos(a)).toFixed(2);
  svgEl("path", { d: `M ${lx} ${ty} L 0 ${-nose} L ${rx} ${ty} A ${R} ${R} 0 1 1 ${lx} ${ty} Z`, class: "dx-base" }, g);
  svgEl("circle", { r: R * 0.64, class: `dx-core dx-${p.size}` }, g);
  const k = R * 0.34;
  svgEl("path", { d: `M ${-k} ${k * 0.35} L 0 ${-k * 1.45} L ${k} ${k * 0.35} Z`, class: "dx-arrow" }, g);
  return g;
}

/**
 * The current translate+rotate of a piece as a CSS transform (for animations).
 * @param {number[]} point [x, y]
 * @param {number} deg
 */
export function pieceTransform([x, y], deg) {
  return `translate(${x}px, ${y}px) rotate(${deg}deg)`;
}

/** A small triangle at a field's edge pointing towards `deg`. */
export function tick(parent, field, flip, deg, attrs = {}) {
  const [x, y] = centre(field, flip);
  return svgEl("path", { d: "M -1.8 -5 L 0 -7 L 1.8 -5 Z", transform: `translate(${x} ${y}) rotate(${deg})`, ...attrs }, parent);
}

/** Column letters under the board and row numbers left of it, following the flip. */
export function labels(svg, flip) {
  const g = group(svg, "labels");
  for (let c = 0; c < COLS; c++) {
    const [x] = centre([c, 0], flip);
    svgEl("text", { x, y: G.by + BH + 7, class: "label dx-label" }, g).textContent = "abcdefghij"[c];
  }
  const leftCol = flip ? COLS - 1 : 0;
  for (let r = 0; r < ROWS; r++) {
    const [x, y] = centre([leftCol, r], flip);
    svgEl("text", { x: x - S - 4.5, y: y + 1.6, class: "label dx-label" }, g).textContent = String(r + 1);
  }
}

/**
 * A tray: a title and one entry per size, a piece icon and a count. Wide layout:
 * a column left or right of the board's top or bottom half; narrow: a row above
 * or below the board.
 * @param {SVGElement} svg
 * @param {{side: "left" | "right", half: "top" | "bottom", title: string, seat: number,
 *   counts: Record<string, number>, hideEmpty?: boolean, cls: string, footer?: string}} spec
 */
export function tray(svg, { side, half, title, seat, counts, hideEmpty, cls, footer }) {
  const g = group(svg, `dx-tray ${cls}`);
  const sizes = [...SIZES].reverse().filter((size) => !hideEmpty || counts[size]);
  let x0;
  let y0;
  let step;
  if (G.narrow) {
    x0 = side === "left" ? G.bx : G.bx + BW / 2 + 14;
    y0 = half === "top" ? 6 : G.by + BH + 16;
    step = [22, 0];
    svgEl("text", { x: x0, y: y0, class: "dx-tray-title start" }, g).textContent = footer ? `${title} · ${footer}` : title;
  } else {
    x0 = side === "left" ? 0 : G.width - TRAY;
    y0 = half === "top" ? G.by + 4 : G.by + BH / 2 + 8;
    step = [0, 18];
    svgEl("text", { x: x0 + TRAY / 2, y: y0, class: "dx-tray-title" }, g).textContent = title;
    if (footer) svgEl("text", { x: x0 + TRAY / 2, y: y0 + 62, class: "dx-tray-title" }, g).textContent = footer;
  }
  const scale = G.narrow ? 0.8 : 1;
  sizes.forEach((size, i) => {
    const n = counts[size];
    const x = x0 + (G.narrow ? 5 : 9) + i * step[0];
    const y = y0 + (G.narrow ? 11 : 12) + i * step[1];
    const row = group(g, `dx-tray-row${n ? "" : " empty"}`);
    row.dataset.size = size;
    row.dataset.count = String(n);
    piece(row, { seat, size }, [x, y], 0, { class: `dx-icon seat-${seat}` }, scale);
    svgEl("text", { x: x + (G.narrow ? 6 : 8), y: y + 2.2, class: "dx-count" }, row).textContent = `×${n}`;
  });
  if (!sizes.length) {
    const x = G.narrow ? x0 + 2 : x0 + TRAY / 2;
    svgEl("text", { x, y: y0 + 12, class: `dx-count none${G.narrow ? " start" : ""}` }, g).textContent = "–";
  }
  return g;
}

/** A tiny standalone SVG of a piece, for buttons and text. */
export function pieceIcon(p) {
  const svg = svgEl("svg", { viewBox: "-9 -10 18 18", class: "dx-mini", "aria-hidden": "true" });
  piece(svg, p, [0, 0], 0, { class: `dx-icon seat-${p.seat}` }, 1.2);
  return svg;
}
