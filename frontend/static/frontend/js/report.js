// "Report" on other players' chat lines (game page, club page: its chat log
// names the reader in data-me) and on a player's page.
// The server attaches the evidence; the reporter only picks a reason.
import { $, button } from "./dom.js";
import { api, gettext, toast } from "./socket.js";

const root = document.getElementById("game");
const me = root?.dataset.user || document.getElementById("report-form")?.dataset.me || document.getElementById("chat-log")?.dataset.me || "";

async function send(body, control) {
  try {
    await api("/api/reports/", body);
    toast(gettext("Thank you: moderators will look at your report."));
    if (control) control.disabled = true;
  } catch (err) {
    toast(err.message, "error");
  }
}

function reason() {
  const found = document.getElementById("report-reason");
  return found instanceof HTMLSelectElement ? found.value : "abuse";
}

// Chat lines: a small button after each line of someone else.
const log = document.getElementById("chat-log");
if (log && me) {
  const gameId = Number(root?.dataset.game) || null;
  // A club's chat: its lines carry their ids as data-id, and the report names the club.
  const clubId = Number(log.dataset.club) || null;
  const decorate = (li) => {
    const user = li.querySelector("strong")?.textContent;
    if (!user || user === me || user === "?" || li.querySelector(".report-line")) return;
    const chat = Number(clubId ? li.dataset.id : li.dataset.chat) || null;
    const text = li.textContent.slice(user.length + 2, 300);
    const where = clubId ? { club: clubId } : { game: gameId };
    const b = button("⚑", () => send({ username: user, ...where, reason: "abuse", text, chat }, b), "link report-line", {
      title: gettext("Report this line"),
      "aria-label": gettext("Report this line"),
      "data-testid": "report-line",
    });
    li.append(" ", b);
  };
  new MutationObserver((changes) => {
    for (const change of changes) change.addedNodes.forEach((n) => n instanceof HTMLLIElement && decorate(n));
  }).observe(log, { childList: true });
  log.querySelectorAll("li").forEach(decorate);
}

// A player's page: the report form.
const form = document.getElementById("report-form");
if (form instanceof HTMLFormElement) {
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("report-text", HTMLTextAreaElement).value;
    send({ username: form.dataset.username, reason: reason(), text }, form.querySelector("button"));
  });
  form.hidden = false;
}
