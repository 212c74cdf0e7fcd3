// "Report <player>" on the game page: one form, kept across the players box's
// redraws (a frame must not wipe what someone is typing), posted with the
// game's id to /api/reports/. The server attaches the evidence itself.
import { button, h } from "./dom.js";
import { api, fmt, gettext, toast } from "./socket.js";

/** @type {Set<string>} players reported from this page (their button says so) */
const reported = new Set();
/** @type {HTMLFormElement | null} */
let form = null;
/** The acknowledgement: it stays when the form closes. */
const note = h("p", "hint", null, { id: "game-report-status", role: "status", "data-testid": "report-status", tabindex: -1, hidden: "" });

const REASONS = [
  ["cheating", gettext("cheating")],
  ["abuse", gettext("abuse")],
  ["stalling", gettext("stalling")],
  ["other", gettext("other")],
];

/**
 * The button for one other player: it opens the form for them.
 * @param {string} name
 * @param {Element} box the players box the form goes after
 */
export function reportButton(name, box) {
  const done = reported.has(name);
  const b = button(done ? gettext("Reported") : gettext("Report"), () => openForm(name, box, b), "button small", {
    "aria-label": fmt(done ? gettext("%(player)s reported") : gettext("Report %(player)s"), { player: name }),
    "data-testid": `report-${name}`,
    "aria-expanded": String(form?.dataset.username === name && !form.hidden),
    "aria-controls": "game-report",
  });
  b.disabled = done;
  return b;
}

function openForm(name, box, opener) {
  const f = form || (form = buildForm());
  if (f.previousElementSibling !== box) box.after(f, note);
  f.dataset.username = name;
  /** @type {HTMLElement} */ (f.querySelector("legend")).textContent = fmt(gettext("Report %(player)s"), { player: name });
  status("");
  f.hidden = false;
  opener.setAttribute("aria-expanded", "true");
  /** @type {HTMLSelectElement} */ (f.elements.namedItem("reason")).focus();
}

function status(text) {
  note.textContent = text;
  note.hidden = !text;
}

/** Close the form; the player's button takes the focus back. */
function close(f, name) {
  f.hidden = true;
  const opener = document.querySelector(`[data-testid="report-${CSS.escape(name)}"]`);
  if (opener instanceof HTMLElement) {
    opener.setAttribute("aria-expanded", "false");
    opener.focus();
  }
}

function buildForm() {
  const reason = h("select", "", REASONS.map(([value, label]) => h("option", "", label, { value })), { name: "reason", "data-testid": "report-reason" });
  const text = h("textarea", "", null, { name: "text", maxlength: 1000, rows: 3, "data-testid": "report-text" });
  const f = h("form", "stack game-report", null, { id: "game-report", hidden: "", "data-testid": "game-report" });
  const send = h("button", "button small primary", gettext("Send report"), { type: "submit", "data-testid": "report-send" });
  const cancel = button(gettext("Cancel"), () => close(f, f.dataset.username || ""), "button small");
  f.append(
    h("fieldset", "stack", [
      h("legend", ""),
      h("label", "", [gettext("Reason"), " ", reason]),
      h("label", "", [gettext("What happened (moderators see the games and chat themselves)"), text]),
      h("span", "row", [send, cancel]),
    ]),
  );
  f.addEventListener("keydown", (e) => e.key === "Escape" && close(f, f.dataset.username || ""));
  f.addEventListener("submit", (e) => {
    e.preventDefault();
    submit(f, reason, text, send);
  });
  return f;
}

async function submit(f, reason, text, send) {
  const name = f.dataset.username || "";
  const game = Number(document.getElementById("game")?.dataset.game) || null;
  send.disabled = true;
  try {
    await api("/api/reports/", { username: name, game, reason: reason.value, text: text.value });
    reported.add(name);
    text.value = "";
    close(f, name);
    const button = document.querySelector(`[data-testid="report-${CSS.escape(name)}"]`);
    if (button instanceof HTMLButtonElement) button.replaceWith(reportButton(name, /** @type {Element} */ (f.previousElementSibling)));
    status(fmt(gettext("Thank you: moderators will look at your report about %(player)s."), { player: name }));
    note.focus();
  } catch (err) {
    toast(/** @type {Error} */ (err).message, "error");
  } finally {
    send.disabled = false;
  }
}
