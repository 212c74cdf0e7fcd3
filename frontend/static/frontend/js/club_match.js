// A club match's page: when the lobby socket says this match changed (a
// board's result, the start, a lineup), the live part is fetched again
// (?club_match=<id> joins the match's group).
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

async function fetchPage() {
  const answer = await fetch(location.pathname + location.search, { credentials: "same-origin" });
  if (!answer.ok) return;
  const page = new DOMParser().parseFromString(await answer.text(), "text/html");
  const fresh = page.getElementById("club-match-live");
  const current = document.getElementById("club-match-live");
  if (!fresh || !current) return;
  keepEditedLineups(current, fresh);
  current.replaceWith(fresh);
}

/** A lineup form someone is filling in stays as they left it (a change of
 * the match while they type must not empty their fields). */
function keepEditedLineups(current, fresh) {
  for (const form of current.querySelectorAll("form.lineup-form")) {
    if (!(form instanceof HTMLFormElement)) continue;
    const twin = fresh.querySelector(`form.lineup-form[data-testid="${form.dataset.testid}"]`);
    const edited = form.dataset.edited === "1" || form.contains(document.activeElement);
    if (twin && edited) twin.replaceWith(form);
  }
}

document.addEventListener("input", (event) => {
  const form = event.target instanceof Element ? event.target.closest("form.lineup-form") : null;
  if (form instanceof HTMLFormElement) form.dataset.edited = "1";
});

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
