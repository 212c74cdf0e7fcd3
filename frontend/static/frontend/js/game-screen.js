// Play at one screen: between two named players' turns the whole page is
// covered ("Pass the device to Anna") until Anna says she has it. The seat's
// view (its hidden orders, its set-up) is drawn only after that tap; the
// server sends it only while that seat is to act (docs/protocol.md).
import { h } from "./dom.js";
import { fmt, gettext } from "./socket.js";

/** The seat whose player last took the device (null: nobody yet on this page). */
let revealed = null;
/** @type {HTMLElement | null} */
let cover = null;

/**
 * Whether the page waits for the next player: then the cover is up, the game
 * hidden, and ``onReveal`` draws it once they tap. False: draw as usual.
 * @param {{holdsScreen: boolean, seat: number | null, seats: any[], state: any}} model
 * @param {HTMLElement} root
 * @param {() => void} onReveal
 */
export function coverFor(model, root, onReveal) {
  const st = model.state;
  const seat = model.seat;
  const waiting = model.holdsScreen && st?.status === "active" && seat !== null && seat !== revealed;
  if (!waiting) {
    hide(root);
    return false;
  }
  show(model.seats[seat]?.player ?? String(seat + 1), root, () => {
    revealed = seat;
    hide(root);
    onReveal();
  });
  return true;
}

function show(name, root, onTap) {
  root.style.visibility = "hidden"; // nothing of the game shows through, not even to a screen reader
  root.inert = true;
  const tap = h("button", "button primary handover-tap", fmt(gettext("I am %(player)s"), { player: name }), { type: "button", "data-testid": "handover-tap" });
  tap.addEventListener("click", onTap);
  const box = h("div", "handover-box", [
    h("h2", "", fmt(gettext("Pass the device to %(player)s"), { player: name }), { id: "handover-title" }),
    h("p", "", gettext("The others look away: what comes next is for this player's eyes.")),
    tap,
  ]);
  const next = h("div", "handover-cover", box, { role: "dialog", "aria-modal": "true", "aria-labelledby": "handover-title", "data-testid": "handover-cover" });
  if (cover) cover.replaceWith(next);
  else document.body.append(next);
  cover = next;
  tap.focus();
}

function hide(root) {
  if (!cover) return;
  cover.remove();
  cover = null;
  root.style.visibility = "";
  root.inert = false;
}
