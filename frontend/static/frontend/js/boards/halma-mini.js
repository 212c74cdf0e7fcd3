// A small read-only Halma board (the remis queue's evidence).
import { h, svgEl } from "../dom.js";
import { group, makeSvg, trail } from "./toolkit.js";

export function miniHalma(pieces, path = null) {
  const box = h("div", "mini-board");
  const svg = makeSvg(box, 100, 100, "Halma");
  svg.setAttribute("role", "img"); // a picture: nothing in it to press
  svg.removeAttribute("tabindex");
  const cells = group(svg, "cells");
  for (let r = 0; r < 10; r++) {
    for (let c = 0; c < 10; c++) {
      svgEl("rect", { x: c * 10, y: r * 10, width: 10, height: 10, class: `cell ${(r + c) % 2 ? "dark" : "light"}` }, cells);
    }
  }
  if (path) trail(svg, path.map(([r, c]) => [c * 10 + 5, r * 10 + 5]), "last-move");
  (pieces || []).forEach((list, seat) =>
    list.forEach(([r, c]) => svgEl("circle", { cx: c * 10 + 5, cy: r * 10 + 5, r: 3.4, class: `piece seat-${seat}` }, svg)),
  );
  return box;
}
