// A tournament page: when the lobby socket says this tournament changed (a
// result, a new round, someone joined), the live part is fetched again. The
// socket also carries this tournament's chat (?tournament=<id>).
import { pageChat, refreshPart } from "./page-chat.js";
import { LiveSocket } from "./socket.js";

const live = document.getElementById("tournament-live");
const id = Number(live?.dataset.id);

if (live) {
  const addLine = pageChat(`/api/tournaments/${id}/chat/`);
  new LiveSocket(() => `/ws/lobby/?tournament=${id}`, {
    ping: () => ({ type: "ping" }),
    onFrame(frame) {
      if (frame.type === "tournament" && frame.tournament?.id === id) refreshPart("tournament-live");
      if (frame.type === "tournament_chat") addLine(frame.message);
    },
  });
}
