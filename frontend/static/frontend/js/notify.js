// The bell: live notifications on every page (your turn, draw offers, challenges, results).
import { LiveSocket, toast } from "./socket.js";

const $ = (id) => document.getElementById(id);
let items = [];

const socket = new LiveSocket(() => "/ws/notify/", {
  onFrame(frame) {
    if (frame.type === "notifications") {
      items = frame.items;
    } else if (frame.type === "notify") {
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
      const li = document.createElement("li");
      li.className = n.read ? "read" : "unread";
      const a = document.createElement("a");
      a.textContent = n.text;
      a.href = n.game ? `/g/${n.game}/` : "#";
      const time = document.createElement("small");
      time.textContent = new Date(n.created).toLocaleString();
      li.append(a, time);
      return li;
    }),
  );
}

$("bell-btn").addEventListener("click", (e) => {
  e.stopPropagation();
  const panel = $("bell-panel");
  panel.hidden = !panel.hidden;
  $("bell-btn").setAttribute("aria-expanded", String(!panel.hidden));
});
$("bell-read").addEventListener("click", () => socket.send({ type: "read" }));
document.addEventListener("click", (e) => {
  if (!$("bell").contains(e.target)) $("bell-panel").hidden = true;
});
