// The bell: live notifications on every page (your turn, draw offers, challenges, results).
import { $, h } from "./dom.js";
import { LiveSocket, gettext, toast } from "./socket.js";

let items = [];
let newest = 0; // the newest notification this page has: the server answers a tiny pong

const socket = new LiveSocket(() => "/ws/notify/", {
  ping: () => ({ type: "ping", newest }),
  onFrame(frame) {
    if (frame.type === "pong") return;
    if (frame.type === "notifications") {
      newest = Math.max(newest, frame.newest || 0);
      items = frame.items;
    } else if (frame.type === "notify" && frame.kind === "sanction") {
      // A moderator suspended or closed this account: say so at once.
      toast(frame.code === "closed" ? gettext("Your account was closed.") : gettext("Your account is suspended: you cannot play for now."), "error", 15000);
      return;
    } else if (frame.type === "notify") {
      newest = Math.max(newest, frame.notification.id);
      items = [frame.notification, ...items.filter((n) => n.id !== frame.notification.id)];
      // The game page already shows what happens in its own game.
      if (location.pathname !== `/g/${frame.notification.game}/`) toast(frame.notification.text);
    }
    render();
  },
});

function render() {
  const unread = items.filter((n) => !n.read).length;
  $("bell-count").textContent = String(unread);
  $("bell-count").hidden = unread === 0;
  $("bell-empty").hidden = items.length > 0;
  $("bell-list").replaceChildren(
    ...items.map((n) => {
      const link = h("a", "", n.text, { href: n.game ? `/g/${n.game}/` : "#" });
      return h("li", n.read ? "read" : "unread", [link, h("small", "", new Date(n.created).toLocaleString())]);
    }),
  );
}

/** Open or close the panel; the button says which to screen readers. */
function setOpen(open) {
  $("bell-panel").hidden = !open;
  $("bell-btn").setAttribute("aria-expanded", String(open));
}

$("bell-btn").addEventListener("click", (e) => {
  e.stopPropagation();
  setOpen($("bell-panel").hidden);
});
$("bell-read").addEventListener("click", () => socket.send({ type: "read" }));
document.addEventListener("click", (e) => {
  if (!$("bell").contains(/** @type {Node} */ (e.target))) setOpen(false);
});
// Escape closes an open panel and gives the focus back to the bell.
document.addEventListener("keydown", (e) => {
  if (e.key !== "Escape" || $("bell-panel").hidden) return;
  setOpen(false);
  $("bell-btn").focus();
});
