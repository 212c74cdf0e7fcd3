// The game page's connection, in words: "Offline – reconnecting…" as soon as
// the socket is lost (the dot alone went unnoticed), "Live again." once the
// page has caught up, and a move made meanwhile shown as pending in the move
// list (it goes out when the page is live again, if the position is the same).
import { h } from "./dom.js";
import { gettext } from "./socket.js";

const LIVE_NOTE_MS = 4000;
let down = false;
let liveTimer = 0;

/** The socket's state ("connecting", "open", "reconnecting") on the dot and in words. */
export function showConnection(state) {
  const dot = document.getElementById("conn");
  const note = document.getElementById("conn-text");
  if (dot) dot.dataset.state = state;
  if (!note || state === "open" || state === "connecting") return;
  down = true;
  clearTimeout(liveTimer);
  note.dataset.state = "offline";
  note.textContent = gettext("Offline – reconnecting…");
  note.hidden = false;
}

/** The server's hello after a reconnect: the page shows the game as it is now. */
export function showCaughtUp() {
  const note = document.getElementById("conn-text");
  if (!note || !down) return;
  down = false;
  note.dataset.state = "live";
  note.textContent = gettext("Live again.");
  note.hidden = false;
  clearTimeout(liveTimer);
  liveTimer = setTimeout(() => (note.hidden = true), LIVE_NOTE_MS);
}

/** The move list's last line while a move waits for the connection. */
export function pendingItem() {
  return h("li", "pending", gettext("Your move – pending: it is sent when the connection is back."), { "data-testid": "pending-move" });
}
