// The framable board (/embed/<id>/): one game's live picture and its status.
import { LivePicture, LivePlayers } from "./live-picture.js";
import { gettext } from "./socket.js";

const root = /** @type {HTMLElement} */ (document.getElementById("embed"));
const board = /** @type {HTMLImageElement} */ (document.getElementById("embed-board"));
const statusLine = /** @type {HTMLElement} */ (document.getElementById("embed-status"));
const players = new LivePlayers(
  /** @type {HTMLElement} */ (document.getElementById("embed-players-clocks")),
  /** @type {HTMLElement} */ (document.getElementById("embed-turn")),
  /** @type {HTMLElement} */ (document.getElementById("embed-players")),
);

const picture = new LivePicture(board, Number(root.dataset.game), Number(root.dataset.version), (state, seats) => {
  root.dataset.status = state.status;
  players.show(state, seats);
  statusLine.textContent = state.status === "active" ? gettext("live") : state.result_text || gettext("The game is over.");
});
window.__embed = { socket: picture.socket, version: () => picture.version };
