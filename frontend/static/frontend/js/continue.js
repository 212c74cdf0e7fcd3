// "Continue from here against the computer" under a finished game's replay:
// a casual game from the position on show (the replay's "replay:shown"
// event names its version), the person in the seat chosen (by default the
// side to move there) and the computer in the others; then to that game.
import { $ } from "./dom.js";
import { api, gettext } from "./socket.js";

const root = document.getElementById("replay");
const gameId = Number(root.dataset.game);
const go = $("continue-go", HTMLButtonElement);
const status = $("continue-status");
let shown = 0; // the version on show; 0 until the replay has shown one

root.addEventListener("replay:shown", (e) => {
  shown = /** @type {CustomEvent} */ (e).detail.version;
  status.textContent = "";
});

go.addEventListener("click", async () => {
  if (!shown) return;
  const seat = $("continue-seat", HTMLSelectElement).value;
  const body = { version: shown, level: $("continue-level", HTMLSelectElement).value };
  if (seat !== "") body.seat = Number(seat);
  go.disabled = true;
  status.textContent = gettext("Starting the game…");
  try {
    const game = await api(`/api/games/${gameId}/continue/`, body);
    window.location.assign(`/g/${game.id}/`);
  } catch (err) {
    status.textContent = err.message;
    go.disabled = false;
  }
});
