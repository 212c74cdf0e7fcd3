// Hexenhalma: the shared board geometry and SVG drawing (grid, paths, flights, bans).
import { svgEl } from "../dom.js";
import { group, key } from "./toolkit.js";
import { fmt, gettext } from "../socket.js";

export const CELL = 10;
export const PAD = 6; // room for the row and column numbers
export const NONE = 0;
export const PLAIN = 1;
export const START = 2; // side A's start fields (the ones a team writes its orders from)
export const GOAL = 3; // side A's goals = side B's start fields
export const DIRS = { N: [-1, 0], E: [0, 1], S: [1, 0], W: [0, -1] };
export const SPELLS = ["K", "M", "B", "I"];

export function spellName(letter) {
  return {
    K: gettext("Kugelblitz"),
    M: gettext("Müdezauber"),
    B: gettext("Bannzauber"),
    I: gettext("Immunzauber"),
    Z: gettext("Beelzebub"),
  }[letter] ?? letter;
}

/** "[r, c]", as the server's messages write a field. */
export function fieldText(rc) {
  return `[${rc[0]}, ${rc[1]}]`;
}

export function twin(board, [r, c]) {
  return [board.rows - 1 - r, board.cols - 1 - c];
}

/** Lookups for a board {rows, cols, fields, starts}: kind of every field, plain fields. */
export function boardIndex(board) {
  const fields = new Set(board.fields.map(key));
  const starts = new Set(board.starts.map(key));
  const goals = new Set(board.starts.map((s) => key(twin(board, s))));
  const kindOf = (rc) => {
    const k = key(rc);
    if (!fields.has(k)) return NONE;
    if (starts.has(k)) return START;
    if (goals.has(k)) return GOAL;
    return PLAIN;
  };
  return { rows: board.rows, cols: board.cols, fields, starts, goals, kindOf };
}

/**
 * @param {number[]} field [row, column]
 * @returns {number[]} [x, y]
 */
export function centre([r, c]) {
  return [c * CELL + CELL / 2, r * CELL + CELL / 2];
}

/** A fresh SVG for a rows x cols board inside `wrap`; numbers above and left. */
export function boardSvg(wrap, rows, cols, label) {
  wrap.replaceChildren();
  const svg = svgEl("svg", { class: "hh-svg", role: "img", "aria-label": label });
  wrap.appendChild(svg);
  sizeSvg(svg, rows, cols);
  return svg;
}

/** Labels (and the margin for them) grow on big boards, so they stay readable. */
function labelScale(rows, cols) {
  return Math.max(1, Math.max(rows, cols) / 16);
}

/** Fit the SVG (and its wrapper's shape) to a rows x cols board. */
export function sizeSvg(svg, rows, cols) {
  const s = labelScale(rows, cols);
  const pad = PAD * s;
  const [w, hgt] = [cols * CELL + pad + 1, rows * CELL + pad + 1];
  svg.setAttribute("viewBox", `${-pad} ${-pad} ${w} ${hgt}`);
  svg.style.setProperty("--hh-label", `${3.2 * s}px`);
  // Zoomed on a phone (game.js, site.css), a field is 48 px: a finger's width, whatever the board's size.
  svg.style.setProperty("--hh-zoom", `${Math.ceil((w / CELL) * 48)}px`);
  if (svg.parentNode) svg.parentNode.style.aspectRatio = `${w} / ${hgt}`;
}

/** Row and column numbers; on big boards only every fifth (and the last). */
export function drawLabels(svg, rows, cols) {
  const g = group(svg, "hh-labels");
  const s = labelScale(rows, cols);
  const every = Math.max(rows, cols) > 16 ? 5 : 1;
  const show = (i, n) => i % every === 0 || i === n - 1;
  for (let c = 0; c < cols; c++) {
    if (show(c, cols)) svgEl("text", { x: centre([0, c])[0], y: -1.6 * s }, g).textContent = String(c);
  }
  for (let r = 0; r < rows; r++) {
    if (show(r, rows)) svgEl("text", { x: (-PAD * s) / 2, y: centre([r, 0])[1] + 1.2 * s }, g).textContent = String(r);
  }
}

/**
 * The grid: every field a square with its kind as a class, `data-field="r,c"`.
 * `voids` also draws the non-fields of the rectangle (the editor clicks them).
 */
export function drawGrid(svg, idx, { voids = false, marks = true } = {}) {
  const g = group(svg, "hh-grid");
  for (let r = 0; r < idx.rows; r++) {
    for (let c = 0; c < idx.cols; c++) {
      const kind = idx.kindOf([r, c]);
      if (kind === NONE && !voids) continue;
      const cls = ["hh-cell", ["void", "plain", "start", "goal"][kind], (r + c) % 2 ? "odd" : "even"];
      svgEl("rect", { x: c * CELL + 0.3, y: r * CELL + 0.3, width: CELL - 0.6, height: CELL - 0.6, rx: 1.2, class: cls.join(" "), "data-field": `${r},${c}` }, g);
      if (marks && kind === GOAL) svgEl("path", { d: starPath(centre([r, c]), 2.2), class: "hh-goal-mark" }, g);
      if (marks && kind === START) svgEl("circle", { cx: centre([r, c])[0], cy: centre([r, c])[1], r: 1.4, class: "hh-start-mark" }, g);
    }
  }
  drawLabels(svg, idx.rows, idx.cols);
  return g;
}

/** The field under a pointer event (or null), from the SVG's own coordinates. */
export function fieldAt(svg, event, rows, cols) {
  const m = svg.getScreenCTM();
  if (!m) return null;
  const pt = new DOMPoint(event.clientX, event.clientY).matrixTransform(m.inverse());
  const r = Math.floor(pt.y / CELL);
  const c = Math.floor(pt.x / CELL);
  return r >= 0 && r < rows && c >= 0 && c < cols ? [r, c] : null;
}

/**
 * @param {number[]} point [x, y]
 * @param {number} size
 */
export function starPath([x, y], size) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const a = (Math.PI / 5) * i - Math.PI / 2;
    const d = i % 2 ? size * 0.45 : size;
    pts.push(`${(x + d * Math.cos(a)).toFixed(2)},${(y + d * Math.sin(a)).toFixed(2)}`);
  }
  return `M${pts.join("L")}Z`;
}

/** A wavy line from a to b: a Beelzebub flight. */
export function wavyPath(a, b, amp = 1.6) {
  const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
  const len = Math.hypot(dx, dy) || 1;
  const waves = Math.max(2, Math.round(len / 6));
  const [nx, ny] = [-dy / len, dx / len];
  let d = `M${a[0]},${a[1]}`;
  for (let i = 0; i < waves; i++) {
    const t0 = i / waves;
    const t1 = (i + 1) / waves;
    const tm = (t0 + t1) / 2;
    const side = i % 2 ? -1 : 1;
    const cx = a[0] + dx * tm + nx * amp * 2 * side;
    const cy = a[1] + dy * tm + ny * amp * 2 * side;
    d += ` Q${cx.toFixed(2)},${cy.toFixed(2)} ${(a[0] + dx * t1).toFixed(2)},${(a[1] + dy * t1).toFixed(2)}`;
  }
  return d;
}

/** Where each step of an order lands (walks keep going even across non-fields). */
export function landings(start, steps) {
  const out = [];
  let pos = start;
  for (const s of steps) {
    pos = s.fly ? s.fly : [pos[0] + DIRS[s.walk][0], pos[1] + DIRS[s.walk][1]];
    out.push(pos);
  }
  return out;
}

/** A colour per witch number: well apart on the colour wheel. */
export function witchColour(i) {
  return `hsl(${Math.round((i * 137.5 + 15) % 360)} 62% 38%)`;
}

/**
 * One witch's order drawn on the board: walks as a line, flights wavy, a
 * dashed line to each ban target, spell letters on their fields.
 */
export function drawOrder(parent, order, i, { active = false, selected = -1 } = {}) {
  const g = group(parent, `hh-path${active ? " active" : ""}`);
  g.style.setProperty("--wc", witchColour(i));
  g.dataset.witch = i + 1;
  if (!order.start) return g;
  const lands = landings(order.start, order.steps);
  let prev = order.start;
  order.steps.forEach((s, n) => {
    const here = lands[n];
    const [a, b] = [centre(prev), centre(here)];
    if (s.fly) svgEl("path", { d: wavyPath(a, b), class: "hh-flight" }, g);
    else svgEl("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: "hh-walk" }, g);
    prev = here;
  });
  const [sx, sy] = centre(order.start);
  svgEl("circle", { cx: sx, cy: sy, r: 3.1, class: "hh-witch-start" }, g);
  svgEl("text", { x: sx, y: sy + 1.3, class: "hh-witch-no" }, g).textContent = i + 1;
  order.steps.forEach((s, n) => {
    const [x, y] = centre(lands[n]);
    const last = n === order.steps.length - 1;
    svgEl("circle", { cx: x, cy: y, r: n === selected ? 2 : last ? 1.6 : 0.9, class: `hh-stop${n === selected ? " selected" : ""}` }, g);
    if (s.spell) drawSpellBadge(g, lands[n], s.spell);
    if (s.spell === "B" && s.ban_to) drawBan(g, lands[n], s.ban_to);
  });
  return g;
}

export function drawSpellBadge(parent, rc, spell, cls = "") {
  const [x, y] = centre(rc);
  const g = group(parent, `hh-spell spell-${spell} ${cls}`.trim());
  svgEl("rect", { x: x + 0.6, y: y - 4.6, width: 4, height: 4, rx: 0.8 }, g);
  svgEl("text", { x: x + 2.6, y: y - 1.5 }, g).textContent = spell;
  return g;
}

export function drawBan(parent, from, to) {
  const [a, b] = [centre(from), centre(to)];
  const g = group(parent, "hh-ban");
  svgEl("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1] }, g);
  svgEl("path", { d: `M${b[0] - 2},${b[1] - 2}L${b[0] + 2},${b[1] + 2}M${b[0] + 2},${b[1] - 2}L${b[0] - 2},${b[1] + 2}` }, g);
  return g;
}

/** "2 witches, 11–20 steps, Müdezauber 4; per witch K 2 · M 2 · B 1 · I 2 · Z 1". */
export function paramsText(p) {
  const spells = ["K", "M", "B", "I", "Z"].map((s) => `${s} ${p.spells[s]}`).join(" · ");
  let text = fmt(gettext("%(witches)s witches, %(min)s–%(max)s steps, Müdezauber strength %(tired)s; per witch %(spells)s"), {
    witches: p.witches, min: p.min_steps, max: p.max_steps, tired: p.tiredness, spells,
  });
  if (p.require_all_steps) text += `; ${gettext("every step must be used")}`;
  if (p.require_all_spells) text += `; ${gettext("every spell must be used")}`;
  return text;
}

/** The game's id, on the game page (#game) and on the replay page (#replay). */
export function gameId() {
  return Number((document.getElementById("game") ?? document.getElementById("replay"))?.dataset.game);
}
