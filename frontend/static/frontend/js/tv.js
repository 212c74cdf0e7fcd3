// TV (/tv/, /tv/<ruleset>/): the featured live game, live. The server picks
// it (games/selectors/tv.py); this page asks which it is when its game ends
// (the game's socket says so) and once a minute, and follows the answer.
import { LivePicture, LivePlayers } from "./live-picture.js";
import { fmt, gettext } from "./socket.js";

const ASK_EVERY_MS = 60000;
const ASK_AGAIN_MS = 5000; // after an end while nothing new is live yet

const root = /** @type {HTMLElement} */ (document.getElementById("tv"));
const board = /** @type {HTMLImageElement} */ (document.getElementById("tv-board"));
const link = /** @type {HTMLAnchorElement} */ (document.getElementById("tv-link"));
const players = /** @type {HTMLElement} */ (document.getElementById("tv-players"));
const statusLine = /** @type {HTMLElement} */ (document.getElementById("tv-status"));
const none = /** @type {HTMLElement} */ (document.getElementById("tv-none"));
const clocks = new LivePlayers(
  /** @type {HTMLElement} */ (document.getElementById("tv-clocks")),
  /** @type {HTMLElement} */ (document.getElementById("tv-turn")),
  players,
);

/** @type {LivePicture | null} */
let picture = null;
let asking = false;
let askTimer = 0;

async function ask() {
  if (asking) return;
  asking = true;
  clearTimeout(askTimer);
  let next = ASK_EVERY_MS;
  try {
    const res = await fetch(root.dataset.featuredUrl || "", { headers: { Accept: "application/json" } });
    const featured = res.ok ? (await res.json()).featured : undefined;
    if (featured === null) next = ASK_AGAIN_MS;
    if (featured !== undefined) show(featured);
  } catch {
    next = ASK_AGAIN_MS; // the network: try again soon
  } finally {
    asking = false;
    askTimer = window.setTimeout(ask, next);
  }
}

/** @param {{game: number, version: number, title: string, players: string[]} | null} featured */
function show(featured) {
  none.hidden = featured !== null;
  board.hidden = link.hidden = featured === null;
  if (!featured) return clocks.hide();
  link.href = `/g/${featured.game}/`;
  link.textContent = `${featured.title} #${featured.game}`;
  players.textContent = featured.players.join(", ");
  root.dataset.game = String(featured.game);
  if (!picture) picture = new LivePicture(board, featured.game, featured.version, onState);
  else if (picture.gameId !== featured.game) {
    statusLine.textContent = gettext("live");
    picture.follow(featured.game, featured.version);
  }
}

/** @param {{status: string, result_text?: string}} state @param {any[]} seats */
function onState(state, seats) {
  clocks.show(state, seats);
  if (state.status === "active") {
    statusLine.textContent = gettext("live");
    return;
  }
  statusLine.textContent = fmt(gettext("Over: %(result)s Looking for the next game…"), {
    result: state.result_text || gettext("The game is over."),
  });
  ask(); // its game ended: follow the next featured one
}

window.__tv = { game: () => picture?.gameId ?? null };
ask();
