// Hexenhalma: the game master's board editor and round set-up (opens a round).
import { button, h, svgEl } from "../dom.js";
import { group, key } from "./toolkit.js";
import { fmt, gettext } from "../socket.js";
import { gridCursor } from "./grid-cursor.js";
import { CELL, boardIndex, boardSvg, drawGrid, fieldAt, fieldText, sizeSvg, twin } from "./hexenhalma-board.js";

const MAX_SIDE = 64;
const MAX_STEPS = 200;
const COUNTS = ["K", "M", "B", "I", "Z"];

// The engine's PRESETS (games/rules/hexenhalma/presets.py), built the same way.
const range = (n) => [...Array(n).keys()];
const grid = (rows, cols, keep) => range(rows).flatMap((r) => range(cols).filter((c) => keep(r, c)).map((c) => [r, c]));
const params = (witches, lo, hi, tired, K, M, B, I, Z) => ({ witches, min_steps: lo, max_steps: hi, tiredness: tired, spells: { K, M, B, I, Z }, require_all_steps: false, require_all_spells: false });
const diamond = (r, c) => Math.abs(r - 7) + Math.abs(c - 7) <= 7;
export const PRESETS = {
  rectangle: () => ({
    title: gettext("Rectangle (the rule book's example)"),
    board: { rows: 12, cols: 10, fields: grid(12, 10, () => true), starts: range(8).map((c) => [11, c + 1]) },
    params: params(2, 11, 20, 4, 2, 2, 1, 2, 1),
  }),
  diamond: () => ({
    title: gettext("Diamond"),
    board: { rows: 15, cols: 15, fields: grid(15, 15, diamond), starts: grid(15, 15, (r, c) => r >= 12 && diamond(r, c)) },
    params: params(4, 14, 24, 4, 2, 1, 1, 1, 1),
  }),
  cross: () => ({
    title: gettext("Cross"),
    board: { rows: 21, cols: 21, fields: grid(21, 21, (r, c) => (r >= 7 && r <= 13) || (c >= 7 && c <= 13)), starts: grid(21, 21, (r, c) => r >= 19 && c >= 7 && c <= 13) },
    params: params(6, 19, 30, 5, 2, 2, 1, 2, 1),
  }),
  arena: () => ({
    title: gettext("Arena (30x30)"),
    board: { rows: 30, cols: 30, fields: grid(30, 30, () => true), starts: range(20).map((c) => [29, c + 5]) },
    params: params(10, 29, 60, 6, 3, 2, 2, 2, 2),
  }),
};

/** The round parameters' problems, as the server words them (validate_params). */
export function paramProblems(p, starts) {
  const out = [];
  const whole = (v) => Number.isInteger(v);
  if (!whole(p.witches) || p.witches < 1 || p.witches > starts) out.push(fmt(gettext("witches must lie between 1 and %(max)s (the board's start fields)."), { max: starts }));
  if (!whole(p.max_steps) || p.max_steps < 1 || p.max_steps > MAX_STEPS) out.push(fmt(gettext("max_steps must lie between 1 and %(max)s."), { max: MAX_STEPS }));
  else if (!whole(p.min_steps) || p.min_steps < 1 || p.min_steps > p.max_steps) out.push(gettext("min_steps must lie between 1 and max_steps."));
  if (!whole(p.tiredness) || p.tiredness < 0 || p.tiredness > MAX_STEPS) out.push(fmt(gettext("tiredness (the Müdezauber strength) must lie between 0 and %(max)s."), { max: MAX_STEPS }));
  for (const s of COUNTS) {
    const n = p.spells[s];
    if (!whole(n) || n < 0 || n > MAX_STEPS) out.push(fmt(gettext("The count of spell %(spell)s must lie between 0 and %(max)s."), { spell: s, max: MAX_STEPS }));
  }
  const cast = p.spells.K + p.spells.M + p.spells.B + p.spells.I;
  if (p.require_all_spells && cast > p.max_steps) out.push(gettext("With require_all_spells, K + M + B + I per witch must fit into max_steps."));
  return out;
}

export function createEditor(pane, ctx, view) {
  let board = null; // {rows, cols, fields: Set, starts: Set}
  let tool = "fields";
  let paint = null; // while dragging: {on: bool}
  let hint = "";

  const toolbar = h("div", "hh-toolbar");
  const presetSel = h("select", "", null, { "data-testid": "hh-preset", "aria-label": gettext("Preset board") });
  for (const [name, make] of Object.entries(PRESETS)) presetSel.append(new Option(make().title, name));
  const rowsIn = numberInput(12, 1, MAX_SIDE, "hh-rows");
  const colsIn = numberInput(10, 1, MAX_SIDE, "hh-cols");
  toolbar.append(
    labelled(gettext("Preset"), presetSel),
    button(gettext("Load preset"), () => load(PRESETS[presetSel.value]()), "button small", { "data-testid": "hh-load-preset" }),
    h("span", "hh-sep"),
    labelled(gettext("Rows"), rowsIn),
    labelled(gettext("Columns"), colsIn),
    button(gettext("Empty grid"), () => blank(false), "button small", { "data-testid": "hh-empty" }),
    button(gettext("Full grid"), () => blank(true), "button small", { "data-testid": "hh-full" }),
  );

  const tools = h("div", "hh-segmented", null, { role: "radiogroup", "aria-label": gettext("What a click changes") });
  const toolButtons = {
    fields: button(gettext("Fields on/off"), () => setTool("fields"), "hh-seg", { "data-testid": "hh-tool-fields" }),
    starts: button(gettext("Start fields (side A)"), () => setTool("starts"), "hh-seg", { "data-testid": "hh-tool-starts" }),
  };
  tools.append(...Object.values(toolButtons));
  const wrap = h("div", "hh-svgwrap editing");
  const counts = h("p", "hint", null, { "data-testid": "hh-board-counts" });
  const hintEl = h("p", "hint hh-hint", null, { "aria-live": "polite" });

  const form = h("fieldset", "hh-params");
  form.append(h("legend", "", gettext("This round")));
  const inputs = {
    witches: numberInput(2, 1, 64, "hh-p-witches"),
    min_steps: numberInput(11, 1, MAX_STEPS, "hh-p-min"),
    max_steps: numberInput(20, 1, MAX_STEPS, "hh-p-max"),
    tiredness: numberInput(4, 0, MAX_STEPS, "hh-p-tiredness"),
  };
  const spellIns = Object.fromEntries(COUNTS.map((s) => [s, numberInput(1, 0, MAX_STEPS, `hh-p-${s}`)]));
  const allSteps = h("input", "", null, { type: "checkbox", "data-testid": "hh-p-all-steps" });
  const allSpells = h("input", "", null, { type: "checkbox", "data-testid": "hh-p-all-spells" });
  const deadline = h("input", "", null, { type: "datetime-local", "data-testid": "hh-p-deadline" });
  const spellLabels = { K: gettext("K (Kugelblitz)"), M: gettext("M (Müdezauber)"), B: gettext("B (Bannzauber)"), I: gettext("I (Immunzauber)"), Z: gettext("Z (Beelzebub)") };
  const basics = h("div", "hh-counts");
  basics.append(
    labelled(gettext("Witches per team"), inputs.witches),
    labelled(gettext("Min. steps"), inputs.min_steps),
    labelled(gettext("Max. steps"), inputs.max_steps),
    labelled(gettext("Müdezauber strength"), inputs.tiredness),
  );
  const spellRow = h("div", "hh-counts");
  COUNTS.forEach((s) => spellRow.append(labelled(spellLabels[s], spellIns[s])));
  form.append(
    basics,
    h("p", "hint", gettext("Spells per witch:")),
    spellRow,
    checkLabel(allSteps, gettext("Every witch must use all steps")),
    checkLabel(allSpells, gettext("Every witch must use all her spells")),
    labelled(gettext("Deadline (optional; then every team is locked)"), deadline),
  );
  const problems = h("ul", "hh-problems", null, { "data-testid": "hh-setup-problems" });
  const openBtn = button("", openRound, "button primary", { "data-testid": "hh-open-round" });
  const actions = h("div", "row hh-actions");
  actions.append(openBtn);
  pane.append(
    h("p", "hh-intro", gettext("Draw this round's board: click fields on and off (the 180° twin follows), then mark side A's start fields; the goals appear opposite. Drag to paint several fields.")),
    toolbar, tools, wrap, counts, hintEl, form, problems, actions,
  );
  form.addEventListener("input", refresh);

  const svg = boardSvg(wrap, 1, 1, gettext("Board editor"));
  svg.addEventListener("pointerdown", (e) => {
    const rc = board && fieldAt(svg, e, board.rows, board.cols);
    if (!rc) return;
    e.preventDefault();
    paint = { on: !isOn(rc) };
    apply(rc);
  });
  svg.addEventListener("pointermove", (e) => {
    if (!paint || !e.buttons) return;
    const rc = fieldAt(svg, e, board.rows, board.cols);
    if (rc && isOn(rc) !== paint.on) apply(rc);
  });
  // Keys: the arrow-key cursor toggles the field under it, as one press of the pointer would.
  gridCursor(svg, {
    rows: () => board?.rows ?? 1,
    cols: () => board?.cols ?? 1,
    size: CELL,
    label: (rc) => `${fieldText(rc)}, ${board && isOn(rc) ? gettext("on") : gettext("off")}`,
    pick: (rc) => {
      if (!board) return;
      paint = { on: !isOn(rc) };
      apply(rc);
      paint = null;
    },
  });
  const stop = () => (paint = null);
  window.addEventListener("pointerup", stop);
  window.addEventListener("pointercancel", stop);

  function isOn(rc) {
    return tool === "fields" ? board.fields.has(key(rc)) : board.starts.has(key(rc)) || board.starts.has(key(twin(board, rc)));
  }

  function apply(rc) {
    const k = key(rc);
    const t = key(twin(board, rc));
    hint = "";
    if (tool === "fields") {
      if (paint.on) {
        board.fields.add(k);
        board.fields.add(t);
      } else {
        [k, t].forEach((x) => (board.fields.delete(x), board.starts.delete(x)));
      }
    } else if (!paint.on) {
      board.starts.delete(k);
      board.starts.delete(t);
    } else if (!board.fields.has(k)) {
      hint = fmt(gettext("%(at)s is not a field: switch it on first."), { at: fieldText(rc) });
    } else if (k === t) {
      hint = gettext("The centre field is its own twin: it cannot be a start field.");
    } else {
      board.starts.add(k);
    }
    refresh();
  }

  function setTool(name) {
    tool = name;
    refresh();
  }

  function load(preset) {
    board = { rows: preset.board.rows, cols: preset.board.cols, fields: new Set(preset.board.fields.map(key)), starts: new Set(preset.board.starts.map(key)) };
    setParams(preset.params);
    refresh();
  }

  function blank(full) {
    const rows = clamp(Number(rowsIn.value), 1, MAX_SIDE);
    const cols = clamp(Number(colsIn.value), 1, MAX_SIDE);
    board = { rows, cols, fields: new Set(full ? grid(rows, cols, () => true).map(key) : []), starts: new Set() };
    tool = "fields";
    refresh();
  }

  function setParams(p) {
    for (const name of Object.keys(inputs)) inputs[name].value = p[name];
    COUNTS.forEach((s) => (spellIns[s].value = p.spells[s] ?? 0));
    allSteps.checked = !!p.require_all_steps;
    allSpells.checked = !!p.require_all_spells;
  }

  function readParams() {
    const num = (el) => (el.value === "" ? NaN : Number(el.value));
    return {
      witches: num(inputs.witches),
      min_steps: num(inputs.min_steps),
      max_steps: num(inputs.max_steps),
      tiredness: num(inputs.tiredness),
      spells: Object.fromEntries(COUNTS.map((s) => [s, num(spellIns[s])])),
      require_all_steps: allSteps.checked,
      require_all_spells: allSpells.checked,
    };
  }

  function boardJson() {
    const parse = (k) => k.split(",").map(Number);
    const order = (a, b) => a[0] - b[0] || a[1] - b[1];
    return { rows: board.rows, cols: board.cols, fields: [...board.fields].map(parse).sort(order), starts: [...board.starts].map(parse).sort(order) };
  }

  function boardProblems(b) {
    const out = [];
    if (!b.starts.length) out.push(gettext("The board needs at least one start field."));
    if (b.fields.length === 2 * b.starts.length) out.push(gettext("The board needs fields besides start and goal fields."));
    return out;
  }

  function refresh() {
    Object.entries(toolButtons).forEach(([name, b]) => b.setAttribute("aria-pressed", String(name === tool)));
    rowsIn.value = board.rows;
    colsIn.value = board.cols;
    const b = boardJson();
    const idx = boardIndex(b);
    sizeSvg(svg, b.rows, b.cols);
    svg.replaceChildren();
    drawGrid(svg, idx, { voids: true });
    const ring = group(svg, "hh-frame");
    svgEl("rect", { x: 0, y: 0, width: b.cols * CELL, height: b.rows * CELL }, ring);
    counts.textContent = fmt(gettext("%(rows)s × %(cols)s grid · %(fields)s fields · %(starts)s start fields per side"), {
      rows: b.rows, cols: b.cols, fields: b.fields.length, starts: b.starts.length,
    });
    hintEl.textContent = hint;
    const list = [...boardProblems(b), ...paramProblems(readParams(), b.starts.length)];
    problems.replaceChildren(...list.map((m) => h("li", "", m)));
    openBtn.disabled = list.length > 0;
  }

  function openRound() {
    const value = deadline.value ? withOffset(deadline.value) : null;
    ctx.act({ type: "open_round", board: boardJson(), params: readParams(), deadline: value });
  }

  // Start from the last round's board (a GM usually varies it), else the rule book's rectangle.
  if (view.board) {
    load({ board: view.board, params: view.params });
  } else {
    load(PRESETS.rectangle());
  }

  return {
    update(state) {
      openBtn.textContent = fmt(gettext("Open round %(n)s"), { n: state.view.round + 1 });
    },
    destroy() {
      window.removeEventListener("pointerup", stop);
      window.removeEventListener("pointercancel", stop);
    },
  };
}

function withOffset(local) {
  const d = new Date(local);
  const off = -d.getTimezoneOffset();
  const sign = off >= 0 ? "+" : "-";
  const pad = (n) => String(Math.floor(Math.abs(n))).padStart(2, "0");
  return `${local.length === 16 ? `${local}:00` : local}${sign}${pad(off / 60)}:${pad(off % 60)}`;
}

function clamp(v, lo, hi) {
  return Number.isFinite(v) ? Math.min(hi, Math.max(lo, Math.round(v))) : lo;
}

function numberInput(value, min, max, testid) {
  return h("input", "", null, { type: "number", value, min, max, step: 1, inputmode: "numeric", "data-testid": testid });
}

function labelled(text, input) {
  const l = h("label", "hh-field");
  l.append(h("span", "", text), input);
  return l;
}

function checkLabel(input, text) {
  const l = h("label", "hh-check");
  l.append(input, h("span", "", text));
  return l;
}
