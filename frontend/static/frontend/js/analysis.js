// The computer's analysis under a finished game's replay: ask for it, follow
// it ply by ply over the game socket, and show a win-chance graph for every
// seat (click a point: the replay jumps there; a table for screen readers),
// marks in the move list, the better move and a summary per player.
// It talks to the replay (replay.js) through events on #replay only:
// "replay:shown" {version}, "replay:painted" {version} (the board is drawn),
// "replay:moves" (the list was rebuilt) in, and "replay:jump" {version} out.
// The computer's move for the position shown is drawn on the board as a
// dashed arrow through the fields it names (a path's, a move's from and to, or
// the one field it acts on: a ring), wherever the board marks its fields with data-field.
import { $, h, svgEl } from "./dom.js";
import { LiveSocket, api, fmt, gettext, toast } from "./socket.js";

const root = document.getElementById("replay");
const gameId = Number(root.dataset.game);
const seatCount = Number(root.dataset.seats);
const section = $("analysis");
const COLOURS = ["#b3261e", "#1d4ed8", "#15803d", "#a16207", "#7e22ce", "#0e7490"];
const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const WIDTH = 600;
const HEIGHT = 120;

/** @type {{status: string, plies: any[], summary: Record<string, any>, done: number, total: number}} */
let analysis = { status: "none", plies: [], summary: {}, done: 0, total: 0 };
let shown = 0; // the version the replay shows
let socket = null;

function judgementText(kind) {
  return { inaccuracy: gettext("inaccuracy"), mistake: gettext("mistake"), blunder: gettext("blunder") }[kind] || "";
}

const ruleset = root.dataset.ruleset;
const boardModule = await import(`./boards/${ruleset}.js`);

/** An action in the game's own notation (the board module's ``actionText``,
 *  as its move list writes moves); else a path's fields, a turn's steps, or its type. */
function actionText(action) {
  if (!action || typeof action !== "object") return String(action);
  if (boardModule.actionText) return boardModule.actionText(action);
  if (Array.isArray(action.path)) return action.path.map((p) => p.join(",")).join(" → ");
  if (action.at && action.steps) return `${action.at.join(",")} ${action.steps.join("")}`;
  const rest = Object.entries(action).filter(([k]) => k !== "type");
  return [action.type, ...rest.map(([k, v]) => `${k} ${JSON.stringify(v)}`)].join(" ");
}

function seatLabel(seat) {
  const name = Object.entries(analysis.summary).find(([, row]) => row.seat === seat)?.[0];
  return name || fmt(gettext("Seat %(n)s"), { n: seat + 1 });
}

function render() {
  const { status, done, total } = analysis;
  $("analysis-ask").hidden = !(status === "none" || status === "failed");
  const text = {
    none: gettext("This game has not been analysed yet."),
    queued: gettext("The analysis is queued."),
    running: fmt(gettext("analysing %(done)s of %(total)s"), { done, total }),
    done: gettext("Analysed by the computer."),
    failed: gettext("The analysis failed; you may ask again."),
  }[status];
  $("analysis-status").textContent = text || "";
  drawGraph();
  fillTable();
  fillSummary();
  markMoves();
  showBetter();
  drawArrow();
}

function point(i, chance) {
  const n = Math.max(analysis.plies.length, 1);
  return [((i + 0.5) * WIDTH) / n, HEIGHT - chance * HEIGHT];
}

function drawGraph() {
  const box = $("analysis-graph");
  box.replaceChildren();
  const plies = analysis.plies;
  if (!plies.length) return;
  const svg = svgEl("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    preserveAspectRatio: "none",
    class: "analysis-graph",
    "aria-hidden": "true",
    "data-testid": "analysis-graph",
  });
  svgEl("line", { x1: 0, x2: WIDTH, y1: HEIGHT / 2, y2: HEIGHT / 2, class: "analysis-even" }, svg);
  for (let seat = 0; seat < seatCount; seat++) {
    const points = plies.map((p, i) => point(i, p.eval[seat] ?? 0).join(",")).join(" ");
    svgEl("polyline", { points, fill: "none", stroke: COLOURS[seat % COLOURS.length], "stroke-width": 2, "vector-effect": "non-scaling-stroke" }, svg);
  }
  const n = plies.length;
  plies.forEach((p, i) => {
    if (p.judgement) {
      const [x, y] = point(i, p.eval[p.seat] ?? 0);
      svgEl("circle", { cx: x, cy: y, r: 4, class: `analysis-dot ${p.judgement}`, "vector-effect": "non-scaling-stroke" }, svg);
    }
    const hit = svgEl("rect", { x: (i * WIDTH) / n, y: 0, width: WIDTH / n, height: HEIGHT, class: "analysis-hit", "data-version": p.version }, svg);
    hit.addEventListener("click", () => jump(p.version));
    if (p.version === shown) svgEl("line", { x1: point(i, 0)[0], x2: point(i, 0)[0], y1: 0, y2: HEIGHT, class: "analysis-now" }, svg);
  });
  box.append(svg);
  const legend = h("p", "hint analysis-legend");
  for (let seat = 0; seat < seatCount; seat++) {
    const swatch = h("span", "analysis-swatch");
    swatch.style.background = COLOURS[seat % COLOURS.length];
    legend.append(swatch, ` ${seatLabel(seat)} `);
  }
  box.append(legend);
}

function jump(version) {
  root.dispatchEvent(new CustomEvent("replay:jump", { detail: { version } }));
}

function fillTable() {
  const body = $("analysis-rows");
  body.replaceChildren(
    ...analysis.plies.map((p, i) => {
      const chances = p.eval.map((c, s) => `${seatLabel(s)} ${Math.round(c * 100)} %`).join(", ");
      const go = h("button", "link", String(i + 1), { type: "button" });
      go.addEventListener("click", () => jump(p.version));
      const cell = h("td");
      cell.append(go);
      return h("tr", "", [cell, h("td", "", seatLabel(p.seat)), h("td", "", chances), h("td", "", judgementText(p.judgement))]);
    }),
  );
}

function fillSummary() {
  const rows = Object.entries(analysis.summary).sort(([, a], [, b]) => a.seat - b.seat);
  $("analysis-summary").hidden = !rows.length;
  const dice = rows.some(([, r]) => r.luck !== null && r.luck !== undefined);
  $("analysis-luck-head").hidden = !dice;
  $("analysis-summary-rows").replaceChildren(
    ...rows.map(([name, r]) => {
      const cells = [h("th", "", name, { scope: "row" }), h("td", "", String(Math.round(r.accuracy))), h("td", "", String(r.inaccuracies)), h("td", "", String(r.mistakes)), h("td", "", String(r.blunders))];
      if (dice) cells.push(h("td", "", `${r.luck >= 0 ? "+" : ""}${Math.round((r.luck || 0) * 100)}`));
      return h("tr", "", cells);
    }),
  );
}

function markMoves() {
  const judged = new Map(analysis.plies.filter((p) => p.judgement).map((p) => [p.version, p.judgement]));
  const seen = new Set();
  for (const li of document.querySelectorAll("#moves li[data-version]")) {
    li.querySelector(".analysis-mark")?.remove();
    const version = Number(/** @type {HTMLElement} */ (li).dataset.version);
    const kind = judged.get(version);
    if (!kind || seen.has(version)) continue;
    seen.add(version);
    const mark = h("span", `analysis-mark ${kind}`, ` ${MARKS[kind]}`, { title: judgementText(kind), "data-testid": "analysis-mark" });
    mark.append(h("span", "sr-only", ` (${judgementText(kind)})`));
    li.append(mark);
  }
}

function showBetter() {
  const ply = analysis.plies.find((p) => p.version === shown);
  const line = $("analysis-better");
  if (!ply) {
    line.textContent = "";
    return;
  }
  const parts = [fmt(gettext("%(seat)s played %(move)s."), { seat: seatLabel(ply.seat), move: actionText(ply.action) })];
  if (ply.best && ply.loss > 0) parts.push(fmt(gettext("Better: %(move)s (%(loss)s points of win chance given away)."), { move: actionText(ply.best), loss: Math.round(ply.loss * 100) }));
  if (ply.luck) parts.push(fmt(gettext("Luck of the roll: %(luck)s points of win chance."), { luck: `${ply.luck > 0 ? "+" : ""}${Math.round(ply.luck * 100)}` }));
  if (ply.judgement) parts.push(judgementText(ply.judgement));
  const here = bestHere();
  if (here) parts.push(fmt(gettext("The computer's move here (dashed on the board): %(move)s."), { move: actionText(here.best) }));
  line.textContent = parts.join(" ");
}

/** The analysis's choice for the position on show: the next ply's ``best``. */
function bestHere() {
  const next = analysis.plies.find((p) => p.version > shown);
  return next && next.best ? next : null;
}

/** The centre of a board field in its SVG's coordinates, or null. */
function fieldCentre(svg, field) {
  const cell = svg.querySelector(`[data-field="${field[0]},${field[1]}"]`);
  const matrix = svg.getScreenCTM();
  if (!cell || !matrix) return null;
  const box = cell.getBoundingClientRect();
  const pt = new DOMPoint(box.x + box.width / 2, box.y + box.height / 2).matrixTransform(matrix.inverse());
  return [pt.x, pt.y];
}

/** The fields a move names, in order: a path, a from-to (Malefiz; a house is
 * no field), or the one field it acts on. */
function bestFields(best) {
  if (Array.isArray(best.path)) return best.path;
  if (best.at) return [best.at];
  return [best.from, best.to].filter(Array.isArray);
}

function drawArrow() {
  // The board's own drawing: the SVG that holds the fields (a board may draw a die or houses in others).
  const svg = /** @type {SVGGraphicsElement | null} */ (document.querySelector("#board [data-field]"))?.ownerSVGElement;
  if (!svg) return;
  svg.querySelector(".analysis-arrow")?.remove();
  const ply = bestHere();
  if (!ply) return;
  const points = bestFields(ply.best).map((f) => fieldCentre(svg, f)).filter(Boolean);
  if (!points.length) return;
  const g = svgEl("g", { class: "analysis-arrow", "data-testid": "analysis-arrow", "aria-hidden": "true" }, svg);
  if (points.length === 1) svgEl("circle", { cx: points[0][0], cy: points[0][1], r: 4 }, g);
  else svgEl("polyline", { points: points.map((p) => p.join(",")).join(" ") }, g);
  const [x, y] = points.at(-1);
  svgEl("circle", { cx: x, cy: y, r: 1.6, class: "analysis-arrow-head" }, g);
}

/** The stored analysis (the socket's frames are best effort: this catches up). */
async function refresh() {
  try {
    analysis = await api(`/api/games/${gameId}/analysis/`);
  } catch (err) {
    toast(err.message, "error");
    return;
  }
  render();
  if (analysis.status === "queued" || analysis.status === "running") follow();
}

/** Follow the analysis over the game socket while it runs. */
function follow() {
  if (socket) return;
  socket = new LiveSocket(() => `/ws/game/${gameId}/`, {
    onFrame: (frame) => {
      if (frame.type === "hello") refresh(); // (re)connected: catch up
      if (frame.type !== "analysis") return;
      const step = frame.analysis;
      if (step.ply && !analysis.plies.some((p) => p.version === step.ply.version)) analysis.plies.push(step.ply);
      analysis.done = step.done;
      analysis.total = step.total;
      if (step.status === "done") return refresh(); // the summary
      analysis.status = step.status;
      render();
    },
  });
}

async function ask() {
  try {
    analysis = await api(`/api/games/${gameId}/analysis/`, {});
  } catch (err) {
    toast(err.message, "error");
    return;
  }
  render();
  if (analysis.status !== "done") follow();
}

$("analysis-ask").addEventListener("click", ask);
root.addEventListener("replay:shown", (e) => {
  shown = /** @type {CustomEvent} */ (e).detail.version;
  drawGraph();
  showBetter();
});
root.addEventListener("replay:moves", markMoves);
root.addEventListener("replay:painted", drawArrow);
if (section.dataset.over === "1") refresh();
