// The lobby's "Play the computer" form: a table with you and a bot, started at once.
// Staff may seat two bots instead (bot against bot), offered only where two seats
// make a game (not Hexenhalma: a game master and two teams). Games of two playing seats:
// a seat that runs the game (Hexenhalma's game master) is a bot's too (the server seats it).
import { $ } from "./dom.js";
import { opensTable } from "./new-table.js";
import { fmt, gettext } from "./socket.js";

const form = $("bot-form");
/** @type {{slug: string, title: string, min_seats: number, referees: number[], seat_names: Record<string, string[]>}[]} */
const catalog = JSON.parse($("catalog").textContent).filter((rs) => playing(rs).length === 2);

/** The seats a person may take against the computer: every seat but those that run the game. */
function playing(rs) {
  return [...Array(rs.min_seats).keys()].filter((i) => !(rs.referees || []).includes(i));
}
/** Bot against bot seats two bots and nobody else: a game two seats can start. */
const MATCH_SEATS = 2;
function matchable(rs) {
  return !!rs && rs.min_seats <= MATCH_SEATS && MATCH_SEATS <= rs.max_seats;
}
const CLOCKS = {
  none: { kind: "none" },
  realtime: { kind: "realtime", minutes: 10, increment: 5 },
  correspondence: { kind: "correspondence", days: 3 },
};

if (form) {
  const games = $("bot-ruleset", HTMLSelectElement);
  for (const rs of catalog) games.append(new Option(rs.title, rs.slug));
  games.addEventListener("change", buildSeats);
  buildSeats();
  opensTable(form, $("bot-error"), body);
}

function buildSeats() {
  const rs = catalog.find((r) => r.slug === $("bot-ruleset", HTMLSelectElement).value);
  const select = $("bot-seat", HTMLSelectElement);
  select.replaceChildren(new Option(gettext("random"), "random"));
  showMatch(rs);
  if (!rs) return;
  const names = rs.seat_names[rs.min_seats] || [];
  const seats = playing(rs);
  for (const i of seats) select.append(new Option(names[i] || fmt(gettext("seat %(n)s"), { n: i + 1 }), String(i)));
  select.value = String(seats[0]);
}

/** The staff's bot-against-bot choice: there only for a game it can start. */
function showMatch(rs) {
  const box = document.getElementById("bot-match-box");
  const match = /** @type {HTMLInputElement | null} */ (document.getElementById("bot-match"));
  if (!box || !match) return;
  box.hidden = !matchable(rs);
  if (box.hidden) match.checked = false;
}

function body() {
  const seat = $("bot-seat", HTMLSelectElement).value;
  const level = $("bot-level", HTMLSelectElement).value;
  const match = /** @type {HTMLInputElement | null} */ (document.getElementById("bot-match"));
  const bot = match?.checked ? { levels: [level, $("bot-level-2", HTMLSelectElement).value] } : { level };
  const slug = $("bot-ruleset", HTMLSelectElement).value;
  return {
    ruleset: slug,
    seat_count: catalog.find((rs) => rs.slug === slug)?.min_seats ?? 2,
    host_seat: seat === "random" ? "random" : Number(seat),
    clock: CLOCKS[$("bot-clock", HTMLSelectElement).value],
    bot,
  };
}
