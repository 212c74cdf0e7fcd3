// A tournament page: when the lobby socket says this tournament changed (a
// result, a new round, someone joined), the live part is fetched again.
import { LiveSocket } from "./socket.js";

const live = document.getElementById("tournament-live");
const id = Number(live?.dataset.id);

async function refresh() {
  const answer = await fetch(location.pathname, { credentials: "same-origin" });
  if (!answer.ok) return;
  const page = new DOMParser().parseFromString(await answer.text(), "text/html");
  const fresh = page.getElementById("tournament-live");
  const current = document.getElementById("tournament-live");
  if (fresh && current) current.replaceWith(fresh);
}

if (live) {
  new LiveSocket(() => "/ws/lobby/", {
    ping: () => ({ type: "ping" }),
    onFrame(frame) {
      if (frame.type === "tournament" && frame.tournament?.id === id) refresh();
    },
  });
}
