// The framable board (/embed/<id>/): one game's live picture and its status.
import { LivePicture } from "./live-picture.js";
import { gettext } from "./socket.js";

const root = /** @type {HTMLElement} */ (document.getElementById("embed"));
const board = /** @type {HTMLImageElement} */ (document.getElementById("embed-board"));
const statusLine = /** @type {HTMLElement} */ (document.getElementById("embed-status"));

const picture = new LivePicture(board, Number(root.dataset.game), Number(root.dataset.version), (state) => {
  root.dataset.status = state.status;
  statusLine.textContent = state.status === "active" ? gettext("live") : state.result_text || gettext("The game is over.");
});
window.__embed = { socket: picture.socket, version: () => picture.version };
