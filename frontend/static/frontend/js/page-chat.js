// A page's chat (a tournament's, a club's) and its live part: the lines the
// socket brings and the sender's own answer (each once), the form that posts
// one, and fetching the page again to swap its live part.
import { replaceKeepingInput } from "./dom.js";
import { api, gettext } from "./socket.js";

/**
 * @param {string} postPath where a line is posted (the page's chat API)
 * @returns {(line: {id: number, username: string | null, text: string}) => void} addLine
 */
export function pageChat(postPath) {
  const log = document.getElementById("chat-log");
  const form = document.getElementById("chat-form");
  const input = /** @type {HTMLInputElement | null} */ (document.getElementById("chat-input"));
  const note = document.getElementById("chat-note");

  function addLine(line) {
    if (!log || log.querySelector(`[data-id="${Number(line.id)}"]`)) return;
    const item = document.createElement("li");
    item.dataset.id = String(line.id);
    item.dataset.username = line.username || "";
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
      addLine(await api(postPath, { text: input.value }));
      input.value = "";
      say("");
    } catch (error) {
      say(error instanceof Error ? error.message : gettext("Could not send. Try again."));
    }
  });
  if (log) log.scrollTop = log.scrollHeight;
  return addLine;
}

/** Fetch this page again (same query: the pages the reader looks at) and swap the part ``id``. */
export async function refreshPart(id) {
  const answer = await fetch(location.pathname + location.search, { credentials: "same-origin" });
  if (!answer.ok) return;
  const page = new DOMParser().parseFromString(await answer.text(), "text/html");
  const fresh = page.getElementById(id);
  const current = document.getElementById(id);
  if (fresh && current) replaceKeepingInput(current, fresh); // a half-filled form stays
}
