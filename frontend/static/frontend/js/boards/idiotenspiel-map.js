// Das Idiotenspiel: the terrain map (colours, patterns, roads, walls, labels) and its legend.
import { h, svgEl } from "../dom.js";
import { group } from "./toolkit.js";
import { badge, counter } from "./idiotenspiel-units.js";
import { cap, fieldName, rowLabel, terrainName, typeName } from "./idiotenspiel-text.js";
import { gettext } from "../socket.js";

export const CELL = 10;
export const MARGIN = 5;

// Terrain letter -> [name, base colour]; the pattern marks are drawn in terrainDefs.
export const TERRAIN = {
  ".": ["plain", "#e9ddb3"],
  "=": ["road", "#e9ddb3"],
  h: ["hill", "#d8bb7f"],
  f: ["forest", "#a6c287"],
  s: ["swamp", "#c3cda3"],
  "~": ["river", "#6fa5cf"],
  o: ["ford", "#a9cfe3"],
  F: ["fortress", "#bfb5a5"],
  c: ["camp", "#ecd8a5"],
  r: ["rock", "#9c978d"],
};
const LETTERS = Object.keys(TERRAIN);
const ORDER = [".", "=", "h", "f", "s", "~", "o", "F", "c", "r"];

function patternId(prefix, letter) {
  return `${prefix}-${LETTERS.indexOf(letter)}`;
}

/** One <pattern> per terrain (one field big, aligned with the grid). */
export function terrainDefs(svg, prefix) {
  const defs = svgEl("defs", {}, svg);
  for (const letter of LETTERS) {
    const p = svgEl("pattern", { id: patternId(prefix, letter), width: CELL, height: CELL, patternUnits: "userSpaceOnUse" }, defs);
    svgEl("rect", { width: CELL, height: CELL, fill: TERRAIN[letter][1] }, p);
    marks(p, letter);
  }
  return defs;
}

function marks(p, letter) {
  const line = (d, stroke, width, extra = {}) => svgEl("path", { d, stroke, "stroke-width": width, fill: "none", "stroke-linecap": "round", ...extra }, p);
  switch (letter) {
    case ".":
      line("M2 8.2l.5-1 .5 1M7 3.4l.5-1 .5 1", "#cbbd8c", 0.3);
      break;
    case "h":
      line("M1.2 7.4Q5 1.6 8.8 7.4", "#9a7638", 0.55);
      line("M3.2 7.4Q5 4.6 6.8 7.4", "#9a7638", 0.45);
      break;
    case "f":
      for (const [x, y, r] of [[2.8, 3, 1.9], [7.2, 4.2, 2.1], [3.9, 7.6, 1.8], [8.4, 8.6, 1.2]]) {
        svgEl("circle", { cx: x, cy: y, r, fill: "#4d7b38" }, p);
        svgEl("circle", { cx: x - r / 3, cy: y - r / 3, r: r / 2.4, fill: "#6c9a4f" }, p);
      }
      break;
    case "s":
      line("M1.5 3h3M5.5 6h3M1 8.6h2.6", "#5f8580", 0.5);
      line("M2.3 3V1.6M3.4 3V2M6.6 6V4.4M7.6 6V5", "#6e8f4c", 0.4);
      break;
    case "~":
      line("M0 3.2q1.25-1 2.5 0t2.5 0 2.5 0 2.5 0M0 7.2q1.25-1 2.5 0t2.5 0 2.5 0 2.5 0", "#d8ebf7", 0.5);
      break;
    case "o":
      line("M0 5q1.25-.8 2.5 0t2.5 0 2.5 0 2.5 0", "#e6f2f9", 0.4);
      for (const [x, y] of [[2.2, 2.6], [5, 4.8], [7.8, 7.2], [3.6, 7.8]]) svgEl("ellipse", { cx: x, cy: y, rx: 1.1, ry: 0.75, fill: "#8c8577", stroke: "#6f6a5f", "stroke-width": 0.2 }, p);
      break;
    case "F":
      line("M0 2.5h10M0 5h10M0 7.5h10M2.5 0v2.5M7.5 0v2.5M5 2.5v2.5M0 2.5v2.5M2.5 5v2.5M7.5 5v2.5M5 7.5v2.5", "#8c8273", 0.3);
      break;
    case "c":
      svgEl("path", { d: "M2.2 7.8L5 2.8 7.8 7.8Z", fill: "#c88d47", stroke: "#7b5527", "stroke-width": 0.4, "stroke-linejoin": "round" }, p);
      line("M5 2.8V7.8", "#7b5527", 0.35);
      line("M5 2.8l-.2-1.2", "#7b5527", 0.3);
      break;
    case "r":
      svgEl("path", { d: "M1.2 8.4L3.3 3.6 4.9 5.8 6.8 2.2 9 8.4Z", fill: "#76716a", stroke: "#56524c", "stroke-width": 0.35, "stroke-linejoin": "round" }, p);
      line("M6.8 2.2l-.6 3 1 1.4", "#bdb8ae", 0.3);
      break;
    default:
      break;
  }
}

/**
 * Draws the whole static map into `svg`: terrain, roads, walls, grid, labels.
 * Everything is drawn in map coordinates in one group, turned by 180 degrees for a
 * player whose home edge is north or east (the patterns turn back, so tents stand up).
 */
export function drawMap(svg, map, flip, prefix) {
  const defs = terrainDefs(svg, prefix);
  if (flip) {
    for (const p of defs.children) p.setAttribute("patternTransform", `rotate(180 ${CELL / 2} ${CELL / 2})`);
  }
  const W = map.width;
  const H = map.height;
  const at = (x, y) => (x >= 0 && y >= 0 && x < W && y < H ? map.rows[y][x] : null);
  const world = group(svg, "ids-world");
  if (flip) world.setAttribute("transform", `rotate(180 ${(W * CELL) / 2} ${(H * CELL) / 2})`);
  const fields = group(world, "ids-terrain");
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const letter = at(x, y);
      const rect = svgEl("rect", { x: x * CELL, y: y * CELL, width: CELL, height: CELL, fill: `url(#${patternId(prefix, letter)})` }, fields);
      svgEl("title", {}, rect).textContent = `${fieldName([x, y])}: ${terrainName(TERRAIN[letter][0])}`;
    }
  }
  drawRoads(group(world, "ids-roads"), at, W, H);
  drawWalls(group(world, "ids-walls"), at, W, H);
  drawGrid(group(world, "ids-grid"), W, H);
  drawLabels(group(svg, "label-layer"), W, H, flip);
}

const ROADLIKE = new Set(["=", "o"]);

function drawRoads(g, at, W, H) {
  const segs = [];
  const c = (v) => v * CELL + CELL / 2;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      if (at(x, y) !== "=") continue;
      let links = 0;
      for (const [dx, dy] of [[1, 0], [0, 1], [-1, 0], [0, -1]]) {
        const n = at(x + dx, y + dy);
        const from = `M${c(x)} ${c(y)}`;
        if (n === null) {
          // A road running off the map: carry it on to the edge.
          if (ROADLIKE.has(at(x - dx, y - dy))) segs.push(`${from}l${(dx * CELL) / 2} ${(dy * CELL) / 2}`);
        } else if (n === "o" || (n === "=" && (dx > 0 || dy > 0))) {
          links++;
          segs.push(`${from}L${c(x + dx)} ${c(y + dy)}`);
        } else if (n === "=") {
          links++;
        } else if (n === "F" || n === "c") {
          links++;
          segs.push(`${from}l${(dx * CELL) / 2} ${(dy * CELL) / 2}`);
        }
      }
      if (!links) segs.push(`M${c(x)} ${c(y)}h.01`);
    }
  }
  const d = segs.join("");
  svgEl("path", { d, class: "ids-road-bed" }, g);
  svgEl("path", { d, class: "ids-road" }, g);
}

function drawWalls(g, at, W, H) {
  for (const [letter, cls] of [["F", "ids-wall"], ["c", "ids-palisade"]]) {
    const segs = [];
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        if (at(x, y) !== letter) continue;
        const sx = x * CELL;
        const sy = y * CELL;
        if (at(x, y - 1) !== letter) segs.push(`M${sx} ${sy}h${CELL}`);
        if (at(x, y + 1) !== letter) segs.push(`M${sx} ${sy + CELL}h${CELL}`);
        if (at(x - 1, y) !== letter) segs.push(`M${sx} ${sy}v${CELL}`);
        if (at(x + 1, y) !== letter) segs.push(`M${sx + CELL} ${sy}v${CELL}`);
      }
    }
    if (segs.length) svgEl("path", { d: segs.join(""), class: cls }, g);
  }
}

function drawGrid(g, W, H) {
  const segs = [];
  for (let x = 0; x <= W; x++) segs.push(`M${x * CELL} 0v${H * CELL}`);
  for (let y = 0; y <= H; y++) segs.push(`M0 ${y * CELL}h${W * CELL}`);
  svgEl("path", { d: segs.join(""), class: "ids-gridlines" }, g);
}

function drawLabels(g, W, H, flip) {
  for (let x = 0; x < W; x++) {
    const sx = (flip ? W - 1 - x : x) * CELL + CELL / 2;
    svgEl("text", { x: sx, y: H * CELL + 3.6, class: "label ids-label" }, g).textContent = String(x + 1);
  }
  for (let y = 0; y < H; y++) {
    const sy = (flip ? H - 1 - y : y) * CELL + CELL / 2;
    svgEl("text", { x: -MARGIN / 2, y: sy + 1, class: "label ids-label" }, g).textContent = rowLabel(y);
  }
}

/** The legend: a swatch per terrain with its movement ranges and melee bonuses. */
export function legend(el, prefix) {
  el.replaceChildren();
  const rows = {
    ".": "1/0 · 3/+1 · 2/+2", "=": "1/0 · 3/+1 · 2/+2", h: "1/0* · 3/+1* · \u2014", f: "1/+1 · \u2014 · \u2014",
    s: "1/\u22121 · \u2014 · \u2014", "~": "\u2014", o: "1/\u22121 · 3/0 · 1/0", F: "1/+1 · \u2014 · \u2014",
    c: "1/+1 · 2/\u22121 · \u2014", r: "\u2014",
  };
  const swatches = svgEl("svg", { width: 0, height: 0, "aria-hidden": "true" });
  swatches.style.position = "absolute";
  terrainDefs(swatches, prefix);
  el.append(swatches);
  const list = h("ul", "ids-legend-list");
  for (const letter of ORDER) {
    const sw = svgEl("svg", { viewBox: `0 0 ${CELL} ${CELL}`, class: "ids-swatch", "aria-hidden": "true" });
    svgEl("rect", { width: CELL, height: CELL, fill: `url(#${patternId(prefix, letter)})` }, sw);
    if (letter === "=") svgEl("path", { d: "M0 5H10", class: "ids-road" }, sw);
    list.append(h("li", "", [sw, h("strong", "", terrainName(TERRAIN[letter][0])), h("small", "", rows[letter])]));
  }
  const note = h("p", "hint", gettext("Range / melee bonus for infantry · cavalry · chariots (\u2014: impassable; *: +1 more against a foe on plain or road). A move's range is the smallest range among the fields it enters; units stop next to an enemy."));
  el.append(list, note);
}

/** The counters' legend: leaders, each type, Maid Marian, a stack. */
export function unitLegend(parent) {
  const list = parent.appendChild(h("ul", "ids-legend-list ids-unit-legend"));
  const samples = [
    [{ id: "l0", side: 0, type: "archer", leader: true, name: "Robin Hood" }, gettext("Robin Hood: leader (star), archer")],
    [{ id: "l1", side: 1, type: "cavalry", leader: true, name: "Sheriff of Nottingham" }, gettext("the Sheriff: mounted leader")],
    [{ id: "l2", side: 0, type: "infantry" }, typeName("infantry")],
    [{ id: "l3", side: 0, type: "archer" }, gettext("archer (shoots 3 fields)")],
    [{ id: "l4", side: 1, type: "cavalry" }, typeName("cavalry")],
    [{ id: "l5", side: 1, type: "shieldwall", facing: "N" }, gettext("shield wall (bar: facing)")],
    [{ id: "l6", side: 0, type: "civilian", name: "Maid Marian" }, gettext("Maid Marian")],
  ];
  for (const [u, text] of samples) {
    const li = list.appendChild(h("li"));
    const icon = svgEl("svg", { viewBox: "-7 -7 14 14", class: "ids-swatch", "aria-hidden": "true" }, li);
    counter(icon, { leader: false, name: "", at: null, ...u }, 0.4, 0.4, 10);
    li.appendChild(h("span", "", cap(text)));
  }
  const li = list.appendChild(h("li"));
  const icon = svgEl("svg", { viewBox: "-7 -7 14 14", class: "ids-swatch", "aria-hidden": "true" }, li);
  for (const d of [1.2, 0.2, -0.8]) counter(icon, { id: "l7", side: 1, type: "infantry", leader: false, name: "", at: null }, d, d, 9);
  badge(icon, 3, -0.8, -0.8, 9);
  li.appendChild(h("span", "", gettext("stack of 3 units")));
}
