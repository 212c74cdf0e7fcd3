// The framable board (/embed/<id>/): the spectators' picture of the position,
// drawn by the server, swapped for the next one whenever the game's socket
// says the version moved. Nothing of a frame's content is shown: whoever is
// logged in, the page only ever shows what spectators see.
import { LiveSocket, gettext } from "./socket.js";

const root = /** @type {HTMLElement} */ (document.getElementById("embed"));
const board = /** @type {HTMLImageElement} */ (document.getElementById("embed-board"));
const statusLine = /** @type {HTMLElement} */ (document.getElementById("embed-status"));
const gameId = Number(root.dataset.game);
let version = Number(root.dataset.version);

const socket = new LiveSocket(() => `/ws/game/${gameId}/?since=${version}`, {
  onFrame,
  ping: () => ({ type: "ping", game: gameId, version }),
});
window.__embed = { socket, version: () => version };

/** @param {any} frame */
function onFrame(frame) {
  if (frame.type === "hello" || frame.type === "sync") show(frame.state.version, frame.state);
  else if (frame.type === "event") show(frame.version, frame.state);
  else if (frame.type === "pong" && frame.version > version) socket.send({ type: "sync", game: gameId, version });
}

/**
 * @param {number} next
 * @param {{status?: string, result_text?: string} | undefined} state
 */
function show(next, state) {
  if (state?.status) {
    root.dataset.status = state.status;
    statusLine.textContent = state.status === "active" ? gettext("live") : state.result_text || gettext("The game is over.");
  }
  if (next === version && board.dataset.shown === String(next)) return;
  version = next;
  board.src = `/g/${gameId}/position.svg?v=${next}`;
  board.dataset.shown = String(next);
}
