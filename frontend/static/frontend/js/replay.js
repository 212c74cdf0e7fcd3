// Replay: step through a game's versions as a seat or a spectator saw them.
import { describeItem } from "./events.js";
import { api, fmt, gettext, toast } from "./socket.js";

const root = document.getElementById("replay");
const gameId = Number(root.dataset.game);
const ruleset = root.dataset.ruleset;
const $ = (id) => document.getElementById(id);
const boardModule = await import(`./boards/${ruleset}.js`);

let data = null;
let index = 0;
let timer = null;
let eye = null;
const board = boardModule.createBoard($("board"), {
  act: () => false,
  seat: () => eye,
  seats: () => data?.seats ?? [],
});

function seatName(i) {
  const s = data?.seats[i];
  return s ? `${s.name}${s.user ? ` (${s.user})` : ""}` : String(i + 1);
}

async function load() {
  const query = eye === null ? "" : `?seat=${eye}`;
  try {
    data = await api(`/api/games/${gameId}/replay/${query}`);
  } catch (err) {
    toast(err.message, "error");
    return;
  }
  if ($("eye").options.length === 1 && root.dataset.status !== "active") {
    for (const s of data.seats) $("eye").append(new Option(seatName(s.index), String(s.index)));
  }
  $("slider").max = String(data.frames.length - 1);
  index = Math.min(index, data.frames.length - 1);
  if (!eyeChanged) index = data.frames.length - 1;
  show(index);
}
let eyeChanged = false;

function show(i) {
  index = Math.max(0, Math.min(i, data.frames.length - 1));
  const frame = data.frames[index];
  const last = index === data.frames.length - 1;
  board.render(
    { version: frame.version, status: last ? data.status : "active", to_act: [], legal: [], view: frame.view, result: null },
    { event: frame.event, myTurn: false, pending: false, replay: true },
  );
  $("slider").value = String(index);
  $("position").textContent = fmt(gettext("version %(v)s of %(n)s"), { v: frame.version, n: data.frames.length });
  const banner = $("banner");
  banner.hidden = !(last && data.result_text);
  banner.textContent = data.result_text || "";
  renderMoves();
}

function renderMoves() {
  const items = [];
  data.frames.forEach((frame, i) => {
    for (const item of frame.event.events) {
      const text = describe(item, frame);
      if (!text) continue;
      const li = document.createElement("li");
      li.textContent = text;
      li.className = i === index ? "current" : i > index ? "future" : "";
      li.onclick = () => show(i);
      items.push(li);
    }
  });
  $("moves").replaceChildren(...items);
  $("moves").querySelector(".current")?.scrollIntoView({ block: "nearest" });
}

function describe(item, frame) {
  return describeItem(item, boardModule, seatName, frame.event);
}

function play() {
  if (timer) return stop();
  if (index >= data.frames.length - 1) show(0);
  $("play").textContent = "❚❚";
  timer = setInterval(() => (index >= data.frames.length - 1 ? stop() : show(index + 1)), 900);
}

function stop() {
  clearInterval(timer);
  timer = null;
  $("play").textContent = "▶";
}

$("first").onclick = () => show(0);
$("prev").onclick = () => show(index - 1);
$("next").onclick = () => show(index + 1);
$("last").onclick = () => show(data.frames.length - 1);
$("play").onclick = play;
$("slider").oninput = (e) => show(Number(e.target.value));
$("eye").onchange = (e) => {
  eye = e.target.value === "" ? null : Number(e.target.value);
  eyeChanged = true;
  load();
};
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT" || !data) return;
  const moves = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: data.frames.length - 1 };
  if (e.key in moves) {
    e.preventDefault();
    show(moves[e.key]);
  } else if (e.key === " ") {
    e.preventDefault();
    play();
  }
});

load();
