// Seats told apart by shape as well as by colour (for colour-blind players):
// each colour of pawn carries its own mark, drawn in the pawn and its house.
import { svgEl } from "../dom.js";

/** The mark's outline, centred on 0, 0, about `r` in radius. */
const SHAPES = {
  triangle: (r) => `M0 ${-r * 1.1}L${r * 1.05} ${r * 0.75}H${-r * 1.05}Z`,
  square: (r) => `M${-r * 0.8} ${-r * 0.8}h${r * 1.6}v${r * 1.6}h${-r * 1.6}Z`,
  circle: (r) => `M${-r * 0.85} 0a${r * 0.85} ${r * 0.85} 0 1 0 ${r * 1.7} 0a${r * 0.85} ${r * 0.85} 0 1 0 ${-r * 1.7} 0Z`,
  diamond: (r) => `M0 ${-r * 1.1}L${r * 1.1} 0L0 ${r * 1.1}L${-r * 1.1} 0Z`,
};

/** Malefiz: one shape per pawn colour (the colour belongs to a house, whatever the seat count). */
export const COLOUR_SHAPE = { red: "triangle", green: "square", yellow: "circle", blue: "diamond" };

/**
 * Draw `shape` at x, y into `parent`.
 * @param {Element} parent
 * @param {string} shape
 */
export function drawMark(parent, shape, x, y, r, cls = "seat-mark") {
  const d = SHAPES[shape];
  if (!d) return null;
  return svgEl("path", { d: d(r), transform: `translate(${x} ${y})`, class: `${cls} mark-${shape}` }, parent);
}
