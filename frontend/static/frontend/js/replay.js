// Replay: step through a game's versions as a seat or a spectator saw them.
// The API serves pages: every event first (cheap, for the move list), then the
// views in pages of PAGE around the version on show, fetched when needed.
import { $, h } from "./dom.js";
import { describeItem } from "./events.js";
import { api, fmt, gettext, toast } from "./socket.js";
import { nameText } from "./bot-badge.js";

const PAGE = 20; // versions with their views per request
const EVENTS_PAGE = 500; // versions with their events alone per request

const root = document.getElementById("replay");
const gameId = Number(root.dataset.game);
const ruleset = root.dataset.ruleset;
const slider = $("slider", HTMLInputElement);
const eyeSelect = $("eye", HTMLSelectElement);
const boardModule = await import(`./boards/${ruleset}.js`);

let data = null; // the replay's header: seats, status, result
let frames = []; // frames[i] is version i + 1: {version, event, view?}
let moveItems = []; // [li, frame index] of the move list
let index = 0;
let timer = null;
let eye = null;
let eyeChanged = false;
let loads = 0; // answers for an earlier eye are dropped
let fetching = false;
const board = boardModule.createBoard($("board"), {
  act: () => false,
  seat: () => eye,
  seats: () => data?.seats ?? [],
});

function seatName(i) {
  const s = data?.seats[i];
  return s ? `${s.name}${s.user ? ` (${nameText(s.user, s.bot)})` : ""}` : String(i + 1);
}

/** One page of the replay; a replay the server is still preparing is asked for
 *  again (for about a minute at most). */
async function fetchPage(params) {
  const query = new URLSearchParams(params);
  if (eye !== null) query.set("seat", String(eye));
  for (let tries = 1; ; tries++) {
    try {
      return await api(`/api/games/${gameId}/replay/?${query}`);
    } catch (err) {
      if (err.data?.code !== "replay_pending" || tries >= 30) throw err;
      $("position").textContent = gettext("Preparing the replay…");
      await new Promise((resolve) => setTimeout(resolve, 1000 * (err.data.retry_after || 2)));
    }
  }
}

async function load() {
  stop();
  const mine = ++loads;
  const list = [];
  let header = null;
  let from = 1;
  try {
    while (from) {
      const page = await fetchPage({ from, limit: EVENTS_PAGE, views: 0 });
      if (mine !== loads) return;
      header = page;
      list.push(...page.frames);
      from = page.next && page.frames.length ? page.frames.at(-1).version + 1 : null;
    }
  } catch (err) {
    toast(err.message, "error");
    return;
  }
  if (!list.length) return;
  data = header;
  frames = list;
  if (eyeSelect.options.length === 1 && root.dataset.status !== "active") {
    for (const s of data.seats) eyeSelect.append(new Option(seatName(s.index), String(s.index)));
  }
  slider.max = String(frames.length - 1);
  buildMoves();
  index = eyeChanged ? Math.min(index, frames.length - 1) : frames.length - 1;
  show(index, true);
}

/** Fetch a page of views: ending at frame ``i`` ("back"), starting at it ("exact"),
 *  or from it as far as the end allows ("ahead"); false when that failed. A page
 *  the server cut short may miss ``i`` unless it starts there. */
async function fetchViews(i, where) {
  const mine = loads;
  const version = frames[i].version;
  const lastVersion = frames.at(-1).version;
  const from = {
    back: version - PAGE + 1,
    exact: version,
    ahead: Math.min(version, lastVersion - PAGE + 1),
  }[where];
  fetching = true;
  try {
    const page = await fetchPage({ from: Math.max(1, from), limit: PAGE });
    if (mine === loads) for (const f of page.frames) frames[f.version - 1] = f; // else: another eye's
    return true;
  } catch (err) {
    toast(err.message, "error");
    stop();
    return false;
  } finally {
    fetching = false;
  }
}

async function show(i, force = false) {
  if (!frames.length) return;
  const target = Math.max(0, Math.min(i, frames.length - 1));
  const back = target < index;
  if (target === index && !force && frames[index].view !== undefined) return;
  index = target;
  showPosition();
  if (frames[index].view !== undefined) return paint();
  if (fetching) return; // the page on its way shows the latest wish when it lands
  if (!(await fetchViews(index, back ? "back" : "ahead"))) return;
  if (frames[index].view === undefined && !(await fetchViews(index, "exact"))) return;
  if (frames[index].view !== undefined) paint();
  else show(index, true); // the wish moved on (or the eye changed) meanwhile
}

function showPosition() {
  slider.value = String(index);
  // Players count moves, not versions (a start, draw offers or a resignation
  // are versions too): "move 6 of 6", and the start before the first.
  const moves = movesUpTo(frames.length - 1);
  const made = movesUpTo(index);
  const text = made === 0 ? fmt(gettext("start (%(n)s moves)"), { n: moves }) : fmt(gettext("move %(m)s of %(n)s"), { m: made, n: moves });
  $("position").textContent = text;
  slider.setAttribute("aria-valuetext", text);
  slider.style.setProperty("--fill", `${frames.length > 1 ? (100 * index) / (frames.length - 1) : 0}%`);
  markMoves();
  root.dispatchEvent(new CustomEvent("replay:shown", { detail: { version: frames[index].version } }));
}

/** The moves made up to frame ``i`` (the start and other versions are none). */
function movesUpTo(i) {
  let n = 0;
  for (let j = 1; j <= i; j++) if (frames[j].event?.kind === "act") n++;
  return n;
}

function paint() {
  const frame = frames[index];
  const last = index === frames.length - 1;
  board.render(
    { version: frame.version, status: last ? data.status : "active", to_act: [], legal: [], view: frame.view, result: null },
    { event: frame.event, myTurn: false, pending: false, replay: true },
  );
  const banner = $("banner");
  banner.hidden = !(last && data.result_text);
  banner.textContent = data.result_text || "";
  root.dispatchEvent(new CustomEvent("replay:painted", { detail: { version: frame.version } }));
}

function buildMoves() {
  moveItems = [];
  frames.forEach((frame, i) => {
    for (const item of frame.event.events) {
      const text = describeItem(item, boardModule, seatName, frame.event);
      if (!text) continue;
      const li = h("li", "", text, { "data-version": String(frame.version) });
      li.addEventListener("click", () => show(i));
      moveItems.push([li, i]);
    }
  });
  $("moves").replaceChildren(...moveItems.map(([li]) => li));
  root.dispatchEvent(new CustomEvent("replay:moves"));
}

function markMoves() {
  for (const [li, i] of moveItems) li.className = i === index ? "current" : i > index ? "future" : "";
  $("moves").querySelector(".current")?.scrollIntoView({ block: "nearest" });
}

function play() {
  if (timer) return stop();
  if (index >= frames.length - 1) show(0);
  $("play").textContent = "❚❚";
  timer = setInterval(() => (index >= frames.length - 1 ? stop() : show(index + 1)), 900);
}

function stop() {
  clearInterval(timer);
  timer = null;
  $("play").textContent = "▶";
}

// The analysis under the replay (analysis.js) asks for a version.
root.addEventListener("replay:jump", (e) => {
  const at = frames.findIndex((f) => f.version === /** @type {CustomEvent} */ (e).detail.version);
  if (at >= 0) show(at);
});
$("first").onclick = () => show(0);
$("prev").onclick = () => show(index - 1);
$("next").onclick = () => show(index + 1);
$("last").onclick = () => show(frames.length - 1);
$("play").onclick = play;
slider.oninput = () => show(Number(slider.value));
eyeSelect.onchange = () => {
  eye = eyeSelect.value === "" ? null : Number(eyeSelect.value);
  eyeChanged = true;
  load();
};
document.addEventListener("keydown", (e) => {
  const target = /** @type {Element} */ (e.target);
  if (target.tagName === "INPUT" || target.tagName === "SELECT" || !data) return;
  const moves = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: frames.length - 1 };
  if (e.key in moves) {
    e.preventDefault();
    show(moves[e.key]);
  } else if (e.key === " ") {
    e.preventDefault();
    play();
  }
});

load();
