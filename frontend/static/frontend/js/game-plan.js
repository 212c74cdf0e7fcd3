// "Plan moves": conditional moves for two-seat correspondence games (docs/protocol.md,
// "Conditional moves"). A board of its own, clearly marked, that records clicks into
// lines (the opponent's move, my reply, ...) and never sends a move: nothing leaves
// the page until "Save", and then only as the lines (PUT /api/games/<id>/conditional/).
import { $, button, h } from "./dom.js";
import { api, csrfToken, fmt, gettext, toast } from "./socket.js";

const PLANNED = new Set(["halma", "daschax", "idiotenspiel"]);
const MAX_LINES = 20;
const MAX_ACTIONS = 10;

/** A short text for a planned action: the board's own notation where it has
 * one, else its kind and its values, fields named as on the board. */
function actionText(boardModule, action) {
  if (boardModule.actionText) return boardModule.actionText(action);
  if (boardModule.fieldName && Array.isArray(action.path)) return action.path.map(boardModule.fieldName).join("–");
  const isField = (v) => Array.isArray(v) && v.length === 2 && v.every(Number.isInteger);
  /** @param {unknown} v @returns {string} */
  const show = (v) =>
    isField(v) && boardModule.fieldName ? boardModule.fieldName(v) : Array.isArray(v) ? v.map(show).join(" ") : String(v);
  const { type, ...rest } = action;
  return [type, ...Object.values(rest).map(show)].join(" ");
}

async function send(method, url, body) {
  const res = await fetch(url, {
    method,
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.message || res.statusText);
  return data;
}

export function createPlanner({ gameId, ruleset, boardModule, model, seatName, ctx }) {
  const area = h("section", "plan-area card", null, { id: "plan-area", "data-testid": "plan-area", hidden: "" });
  const banner = h("p", "plan-banner", gettext("Planning — not sent"), { role: "status", "data-testid": "plan-banner" });
  const hint = h("p", "hint", null, { "data-testid": "plan-hint" });
  // A named group (a label on a plain div is not read out), focusable: opening
  // the planner puts the keyboard here.
  const boardBox = h("div", "board plan-board", null, { role: "group", "aria-label": gettext("planning board"), tabindex: "-1" });
  const current = h("p", "plan-current", null, { "data-testid": "plan-current" });
  const list = h("ol", "plan-lines", null, { "data-testid": "plan-lines" });
  const undoBtn = button(gettext("Undo"), undo, "button small", { "data-testid": "plan-undo" });
  const addBtn = button(gettext("Add this line"), addLine, "button small", { "data-testid": "plan-add" });
  const saveBtn = button(gettext("Save"), save, "button small primary", { "data-testid": "plan-save" });
  const closeBtn = button(gettext("Leave planning"), () => open(false), "button small", { "data-testid": "plan-close" });
  area.append(banner, hint, boardBox, current, h("div", "row", [undoBtn, addBtn]), h("h3", "", gettext("Planned lines")), list, h("div", "row", [saveBtn, closeBtn]));
  $("board").after(area);
  const toggle = button(gettext("Plan moves"), () => open(true), "button small", { "data-testid": "plan-open", hidden: "" });
  $("actions").append(toggle);

  // The planning board: the page's own board module, its clicks recorded, never sent.
  const board = boardModule.createBoard(boardBox, { ...ctx, act: record, send: () => false });
  let lines = [];
  let line = [];
  let preview = null;
  let active = false;
  let dirty = false;

  /** Planning is for the opponent's turn: on one's own the live board is the place. */
  function possible() {
    const st = model.state;
    const clock = model.table?.clock?.kind ?? st?.clock?.kind;
    return (
      !!st && PLANNED.has(ruleset) && model.seat !== null && st.status === "active" && model.seats.length === 2 &&
      clock === "correspondence" && !st.to_act.includes(model.seat)
    );
  }

  /** Called by the page on every render: the button, and a position that moved on. */
  function update() {
    toggle.hidden = !possible() || active;
    if (active) $("board").hidden = true; // the page's render shows it again
    if (active && !possible()) {
      toast(gettext("The game moved on: planning closed. Your saved lines stay."), "info");
      open(false);
    }
  }

  async function open(on) {
    if (on && !possible()) return; // a click that raced the turn changing
    if (on && dirty === false) {
      try {
        lines = (await api(`/api/games/${gameId}/conditional/`)).lines;
      } catch (err) {
        return toast(err.message, "error");
      }
    }
    active = on;
    area.hidden = !on;
    $("board").hidden = on; // the live board is out of reach while planning
    toggle.hidden = on || !possible();
    if (on) {
      line = [];
      await refresh();
      boardBox.focus();
    } else {
      dirty = false;
      $("board").focus(); // the close button is gone: the keyboard goes back to the live board
    }
  }

  /** The position the line leads to, from the server (it knows the rules). */
  async function refresh() {
    try {
      preview = await api(`/api/games/${gameId}/conditional/preview/`, { line });
    } catch (err) {
      toast(err.message, "error");
      line.pop();
      return;
    }
    const mover = preview.to_act[0];
    const state = { ...model.state, view: preview.view, legal: preview.legal, to_act: preview.to_act, remis_allowed: [] };
    board.render(state, { event: null, myTurn: line.length < MAX_ACTIONS, pending: false, thinking: null });
    hint.textContent = line.length >= MAX_ACTIONS
      ? gettext("This line is full: add it.")
      : mover === model.seat
        ? gettext("Now your reply: pick it on the board.")
        : fmt(gettext("Pick a move %(player)s might make."), { player: seatName(mover) });
    renderLines();
  }

  function record(action) {
    if (line.length >= MAX_ACTIONS) return false;
    line.push(action);
    refresh();
    return true;
  }

  function undo() {
    line.pop();
    refresh();
  }

  function addLine() {
    if (line.length < 2 || line.length % 2 || lines.length >= MAX_LINES) return;
    lines.push(line);
    line = [];
    dirty = true;
    refresh();
  }

  async function save() {
    try {
      lines = (await send("PUT", `/api/games/${gameId}/conditional/`, { lines })).lines;
      dirty = false;
      toast(gettext("Planned lines saved."), "info");
      renderLines();
    } catch (err) {
      toast(err.message, "error");
    }
  }

  function renderLines() {
    current.textContent = line.length
      ? fmt(gettext("This line: %(moves)s"), { moves: line.map((a) => actionText(boardModule, a)).join(", ") })
      : gettext("Start a line: pick your opponent's move.");
    undoBtn.disabled = !line.length;
    addBtn.disabled = line.length < 2 || line.length % 2 === 1 || lines.length >= MAX_LINES;
    list.replaceChildren(
      ...lines.map((l, i) =>
        h("li", "", [
          l.map((a) => actionText(boardModule, a)).join(", "),
          " ",
          button(gettext("Delete"), () => {
            lines.splice(i, 1);
            dirty = true;
            renderLines();
          }, "button small", { "aria-label": fmt(gettext("Delete line %(n)s"), { n: i + 1 }) }),
        ]),
      ),
    );
    saveBtn.textContent = dirty ? gettext("Save (not saved yet)") : gettext("Save");
  }

  return { update };
}
