// "Play forced moves for me": a seated player's choice per game (games/services/forced.py).
// The server plays a roll's only move after a short pause; this box only says so.
import { h } from "../dom.js";
import { api, gettext, toast } from "../socket.js";

/** The box under the board; ``update(state)`` shows it to a seated player of a running game. */
export function createForcedToggle(container, ctx) {
  const gameId = Number(container.closest("[data-game]")?.getAttribute("data-game"));
  const box = /** @type {HTMLInputElement} */ (h("input", "", null, { type: "checkbox", "data-testid": "forced-turns" }));
  const label = container.appendChild(h("label", "mz-forced", [box, " ", gettext("Play forced moves for me")]));
  label.hidden = true;
  let loaded = false;

  box.addEventListener("change", async () => {
    const want = box.checked;
    try {
      box.checked = (await api(`/api/games/${gameId}/forced/`, { on: want })).on;
    } catch (err) {
      box.checked = !want;
      toast(err.message, "error");
    }
  });

  function update(state) {
    const seated = ctx.seat() !== null && state.status === "active" && !!gameId;
    label.hidden = !seated;
    if (!seated || loaded) return;
    loaded = true;
    api(`/api/games/${gameId}/forced/`).then((answer) => (box.checked = answer.on), () => (loaded = false));
  }
  return { update };
}
