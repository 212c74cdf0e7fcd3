// A tournament page: when the lobby socket says this tournament changed (a
// result, a new round, someone joined), the live part is fetched again. The
// socket also carries this tournament's chat (?tournament=<id>).
import { LiveSocket, api, gettext } from "./socket.js";

const live = document.getElementById("tournament-live");
const id = Number(live?.dataset.id);
const log = document.getElementById("chat-log");
const form = document.getElementById("chat-form");
const input = /** @type {HTMLInputElement | null} */ (document.getElementById("chat-input"));
const note = document.getElementById("chat-note");

async function refresh() {
  // The same round and pages the reader is looking at.
  const answer = await fetch(location.pathname + location.search, { credentials: "same-origin" });
  if (!answer.ok) return;
  const page = new DOMParser().parseFromString(await answer.text(), "text/html");
  const fresh = page.getElementById("tournament-live");
  const current = document.getElementById("tournament-live");
  if (fresh && current) current.replaceWith(fresh);
}

/** One chat line, once (the sender's own answer and the socket both bring it). */
function addLine(line) {
  if (!log || log.querySelector(`[data-id="${Number(line.id)}"]`)) return;
  const item = document.createElement("li");
  item.dataset.id = String(line.id);
  const name = document.createElement("strong");
  name.textContent = line.username || "?";
  item.append(name, `: ${line.text}`);
  log.append(item);
  log.scrollTop = log.scrollHeight;
}

function say(text) {
  if (!note) return;
  note.textContent = text;
  note.hidden = !text;
}

form?.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!input || !input.value.trim()) return;
  try {
    addLine(await api(`/api/tournaments/${id}/chat/`, { text: input.value }));
    input.value = "";
    say("");
  } catch (error) {
    say(error instanceof Error ? error.message : gettext("Could not send. Try again."));
  }
});

if (live) {
  if (log) log.scrollTop = log.scrollHeight;
  new LiveSocket(() => `/ws/lobby/?tournament=${id}`, {
    ping: () => ({ type: "ping" }),
    onFrame(frame) {
      if (frame.type === "tournament" && frame.tournament?.id === id) refresh();
      if (frame.type === "tournament_chat") addLine(frame.message);
    },
  });
}
