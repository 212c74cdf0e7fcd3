// A club match's page: when the lobby socket says this match changed (a
// board's result, the start, a lineup), the live part is fetched again
// (?club_match=<id> joins the match's group), keeping what the person typed
// into a lineup and not saved yet.
import { refreshPart } from "./page-chat.js";
import { LiveSocket } from "./socket.js";

const live = document.getElementById("club-match-live");
const id = Number(live?.dataset.id);

let fetching = null; // the fetch under way
let again = false; // a change came while it ran: fetch once more after it

/** One fetch at a time, the last change always fetched after it: answers
 * arriving out of order never put an older page over a newer one. */
async function refresh() {
  if (fetching) {
    again = true;
    return fetching;
  }
  fetching = (async () => {
    do {
      again = false;
      await fetchPage();
    } while (again);
  })();
  try {
    await fetching;
  } finally {
    fetching = null;
  }
}

/** The live part fetched again; a lineup half typed (and the caret) stays. */
function fetchPage() {
  return refreshPart("club-match-live");
}

if (live) {
  // The socket joins the match's group before its first frame: a change
  // between this page's rendering and that frame is caught by one fetch then
  // (and after each reconnect).
  let joined = false;
  new LiveSocket(() => `/ws/lobby/?club_match=${id}`, {
    ping: () => ({ type: "ping" }),
    onStatus(status) {
      if (status !== "open") joined = false;
    },
    async onFrame(frame) {
      if (!joined) {
        joined = true;
        await refresh();
        document.body.dataset.clubMatchSocket = "joined";
      } else if (frame.type === "club_match" && frame.match?.id === id) refresh();
    },
  });
}
