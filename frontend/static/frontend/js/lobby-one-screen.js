// The lobby's "Play at one screen" form: one person holds every seat and names
// its players (a family at a tablet); the computer may take seats. The game
// starts at once, casual; the game page hands the device on between turns.
import { $, h } from "./dom.js";
import { opensTable } from "./new-table.js";
import { fmt, gettext } from "./socket.js";

const form = /** @type {HTMLFormElement | null} */ (document.getElementById("one-screen-form"));
/** @type {{slug: string, title: string, min_seats: number, max_seats: number, referees: number[], seat_names: Record<string, string[]>}[]} */
const catalog = JSON.parse($("catalog").textContent);
const LEVELS = [
  ["easy", gettext("computer (easy)")],
  ["medium", gettext("computer (medium)")],
  ["strong", gettext("computer (strong)")],
];

if (form) {
  const games = $("one-screen-ruleset", HTMLSelectElement);
  for (const rs of catalog) games.append(new Option(rs.title, rs.slug));
  games.addEventListener("change", buildCounts);
  $("one-screen-count", HTMLSelectElement).addEventListener("change", buildSeats);
  buildCounts();
  opensTable(form, $("one-screen-error"), body);
}

function chosen() {
  return catalog.find((r) => r.slug === $("one-screen-ruleset", HTMLSelectElement).value);
}

function buildCounts() {
  const rs = chosen();
  const select = $("one-screen-count", HTMLSelectElement);
  select.replaceChildren();
  if (!rs) return;
  for (let n = rs.min_seats; n <= rs.max_seats; n++) select.append(new Option(String(n), String(n)));
  buildSeats();
}

/** One row per seat: who plays it, a name or the computer. A seat that runs
 * the game (Hexenhalma's game master) is the computer's unless changed. */
function buildSeats() {
  const rs = chosen();
  const box = $("one-screen-seats");
  if (!rs) return box.replaceChildren();
  const count = Number($("one-screen-count", HTMLSelectElement).value);
  const names = rs.seat_names[count] || [];
  /** @type {HTMLElement[]} */
  const rows = [h("legend", "", gettext("Who plays which seat"))];
  for (let i = 0; i < count; i++) {
    const label = names[i] || fmt(gettext("seat %(n)s"), { n: i + 1 });
    const who = h("select", "", null, { "data-testid": `one-screen-who-${i}`, "aria-label": fmt(gettext("Who plays %(seat)s"), { seat: label }) });
    who.append(new Option(gettext("a player"), "person"));
    for (const [level, text] of LEVELS) who.append(new Option(text, level));
    const referee = (rs.referees || []).includes(i);
    /** @type {HTMLSelectElement} */ (who).value = referee ? "easy" : "person";
    const name = h("input", "", null, { type: "text", maxlength: "20", autocomplete: "off", "data-testid": `one-screen-name-${i}`, "aria-label": fmt(gettext("Name of the player of %(seat)s"), { seat: label }), placeholder: gettext("name") });
    name.hidden = referee;
    who.addEventListener("change", () => (name.hidden = /** @type {HTMLSelectElement} */ (who).value !== "person"));
    rows.push(h("div", "one-screen-seat row", [h("span", "", `${label}: `), who, name]));
  }
  box.replaceChildren(...rows);
}

function body() {
  const rows = [...$("one-screen-seats").querySelectorAll(".one-screen-seat")];
  const names = rows.map((row) => {
    const who = /** @type {HTMLSelectElement} */ (row.querySelector("select")).value;
    return who === "person" ? /** @type {HTMLInputElement} */ (row.querySelector("input")).value.trim() : { bot: who };
  });
  return { ruleset: $("one-screen-ruleset", HTMLSelectElement).value, one_screen: true, names };
}
