// The finished game's "Rematch" box: offer, accept, decline or withdraw over the
// game socket; when every player said yes, each player's page moves to the new game.
import { button, h } from "./dom.js";
import { fmt, gettext } from "./socket.js";

/**
 * Draw the box after the seat commands (built on first use).
 * @param {any} rematch the offer (`hello`/`sync`/`rematch` frames), or null
 * @param {{state: any, seat: number | null}} model
 * @param {(seat: number) => string} seatName
 * @param {(frame: object) => void} send a frame on the game socket
 */
export function renderRematch(rematch, model, seatName, send) {
  let box = document.getElementById("rematch");
  if (!box) {
    box = h("div", "rematch", null, { id: "rematch", "data-testid": "rematch", role: "status" });
    document.getElementById("actions")?.after(box);
  }
  const finished = model.state?.status === "finished";
  const seated = model.seat !== null;
  box.hidden = !finished || (!seated && !rematch);
  if (box.hidden) return;
  if (rematch?.new_game) {
    if (seated) location.assign(`/g/${rematch.new_game}/`);
    box.replaceChildren(h("a", "", fmt(gettext("Rematch: game #%(game)s"), { game: rematch.new_game }), { href: `/g/${rematch.new_game}/` }));
    return;
  }
  const offer = (label, testid, cls = "button small") => button(label, () => send({ type: "rematch" }), cls, { "data-testid": testid });
  const decline = (label) => button(label, () => send({ type: "decline_rematch" }), "button small", { "data-testid": "rematch-decline" });
  const names = (seats) => seats.map(seatName).join(", ");
  const pending = rematch?.status === "pending";
  let note = "";
  /** @type {HTMLElement[]} */
  let buttons;
  if (pending && rematch.accepted.includes(model.seat)) {
    note = gettext("You offered a rematch; waiting for the others.");
    buttons = [decline(gettext("Withdraw"))];
  } else if (pending) {
    note = fmt(gettext("Rematch offered by %(players)s."), { players: names(rematch.accepted) });
    buttons = [offer(gettext("Accept rematch"), "rematch-accept", "button small primary"), decline(gettext("Decline"))];
  } else {
    if (rematch?.status === "declined") note = fmt(gettext("%(player)s declined the rematch."), { player: seatName(rematch.declined_by) });
    buttons = [offer(gettext("Rematch"), "rematch-offer")];
  }
  box.replaceChildren(h("p", "rematch-note", note, { "data-testid": "rematch-note" }), h("div", "row", seated ? buttons : []));
}
