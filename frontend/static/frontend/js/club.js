// A club page (docs/club-pages.md): the lobby socket with ?club=<id> says when the
// club changed (members, roles, its code: the live part is fetched again) and
// brings its chat's lines. Members' running games are not pushed one by one:
// when a table starts or ends anywhere (the lobby's "table" frames) the page
// fetches itself again, at most once in REFRESH_MS, so a busy lobby costs
// one page read per open club page every few seconds, never a storm.
import { pageChat, refreshPart } from "./page-chat.js";
import { LiveSocket } from "./socket.js";

const REFRESH_MS = 10000;
const live = document.getElementById("club-live");
const id = Number(live?.dataset.id);
let waiting = 0;
let last = 0;

/** Fetch the live part now, or once the last fetch is REFRESH_MS old. */
function refreshSoon(now) {
  if (waiting) return;
  const delay = now ? 0 : Math.max(0, last + REFRESH_MS - Date.now());
  waiting = window.setTimeout(async () => {
    waiting = 0;
    last = Date.now();
    await refreshPart("club-live");
  }, delay);
}

if (live) {
  const form = document.getElementById("chat-form");
  const addLine = pageChat(form?.dataset.post || `/api/clubs/${id}/chat/`);
  new LiveSocket(() => `/ws/lobby/?club=${id}`, {
    ping: () => ({ type: "ping" }),
    onFrame(frame) {
      // The first frame (the lobby's snapshot) comes once the socket joined the club's group.
      document.documentElement.dataset.clubSocket = "ready";
      if (frame.type === "club" && frame.club?.id === id) refreshSoon(true);
      if (frame.type === "club_chat") addLine(frame.message);
      if (frame.type === "table" && ["active", "finished", "aborted"].includes(frame.table?.status)) refreshSoon(false);
    },
  });
}
