// The lobby: live list of open tables and running games, table form, quick play.
import { $, button, h } from "./dom.js";
import { LiveSocket, api, fmt, gettext, toast } from "./socket.js";
import { nameWithBadge } from "./bot-badge.js";
import { clockText, optionText, sameSeek } from "./tables.js";

const catalog = JSON.parse($("catalog").textContent);
const me = JSON.parse($("me").textContent) || null;
const tables = new Map();
/** @type {string | undefined} the lobby state this page has (the server's token) */
let lobbyToken;
/** @type {{open: number, live: number, open_capped?: boolean, live_capped?: boolean}} */
let counts = { open: 0, live: 0 };
const titles = Object.fromEntries(catalog.map((rs) => [rs.slug, rs.title]));

new LiveSocket(() => "/ws/lobby/", {
  // The token says what this page has: the server answers a tiny pong, or
  // the snapshot when the page is behind.
  ping: () => (lobbyToken ? { type: "ping", lobby: lobbyToken } : { type: "ping" }),
  onFrame(frame) {
    if (frame.lobby) lobbyToken = frame.lobby;
    if (frame.type === "pong") return;
    if (frame.type === "tables") {
      tables.clear();
      frame.tables.forEach((tb) => tables.set(tb.id, tb));
      if (frame.counts) counts = frame.counts;
    } else if (frame.type === "table") {
      tables.set(frame.table.id, frame.table);
      if (frame.counts) counts = frame.counts;
    } else if (frame.type === "notify") {
      notify(frame);
    }
    render();
  },
  onStatus: (s) => ($("lobby-live").dataset.state = s),
});

function notify(frame) {
  if (frame.kind === "challenge") toast(fmt(gettext("%(user)s challenges you! See the open tables."), { user: frame.from }));
  if (frame.kind === "declined") toast(fmt(gettext("%(user)s declined your challenge."), { user: frame.from }));
}

function age(iso) {
  const s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  if (s < 60) return fmt(gettext("%(n)s s"), { n: s });
  if (s < 3600) return fmt(gettext("%(n)s min"), { n: Math.floor(s / 60) });
  return fmt(gettext("%(n)s h"), { n: Math.floor(s / 3600) });
}

function optionSummary(tb) {
  return optionText(catalog.find((r) => r.slug === tb.ruleset), tb.options);
}

/** The game's name with what tells its tables apart: time control, options, kind. */
function tableLabel(tb) {
  const label = h("div", "", [h("span", "", titles[tb.ruleset] ?? tb.ruleset)]);
  if (tb.status === "open" && tb.quickplay) label.append(" ", badge(gettext("quick play")));
  label.append(" ", badge(tb.rated ? gettext("rated") : gettext("casual")));
  if (tb.status === "open" && tb.challenged) label.append(" ", badge(fmt(gettext("challenge for %(user)s"), { user: tb.challenged })));
  label.append(h("small", "clock-text", clockText(tb.clock), { "data-testid": "clock" }));
  const extra = optionSummary(tb);
  if (extra) label.append(h("small", "", extra));
  return label;
}

/** A table cell; `label` names the column when narrow screens show rows as cards. */
function cell(content, label = "", cls = "") {
  return h("td", cls, content, label ? { "data-label": label } : {});
}

/** A link that looks like a button. */
function link(label, href, cls = "button small") {
  return h("a", cls, label, { href });
}

function render() {
  const open = [...tables.values()].filter((tb) => tb.status === "open").sort((a, b) => a.created.localeCompare(b.created));
  const live = [...tables.values()].filter((tb) => tb.status === "active").sort((a, b) => b.started.localeCompare(a.started));
  for (const tb of tables.values()) if (tb.status !== "open" && tb.status !== "active") tables.delete(tb.id);

  $("open-tables").replaceChildren(
    ...open.map((tb) => {
      const tr = h("tr", tb.challenged && tb.challenged === me ? "for-me" : "", null, { "data-table": tb.id });
      tr.append(
        cell(tableLabel(tb), "", "what"),
        cell(tb.host, gettext("Host")),
        cell(`${tb.taken}/${tb.seat_count}`, gettext("Seats")),
        cell(age(tb.created), gettext("Waiting")),
        cell(actionsFor(tb), "", "actions"),
      );
      return tr;
    }),
  );
  $("open-empty").hidden = open.length > 0;
  $("live-games").replaceChildren(
    ...live.map((tb) => {
      const playing = tb.seats.includes(me);
      return h("tr", "", [
        cell(tableLabel(tb), "", "what"),
        cell(players(tb), gettext("Players")),
        cell(String(Math.max(0, tb.version - 1)), gettext("Moves")),
        cell(link(playing ? gettext("Play") : gettext("Watch"), `/g/${tb.id}/`, playing ? "button small primary" : "button small"), "", "actions"),
      ], { "data-game": tb.id });
    }),
  );
  $("live-empty").hidden = live.length > 0;
  // The lobby lists the most watched live games; the rest are counted.
  const more = counts.live - live.length;
  $("live-more").hidden = more <= 0;
  const n = counts.live_capped ? `${more}+` : more; // the server counts to a cap
  $("live-more").textContent = more > 0 ? fmt(gettext("and %(n)s more live games"), { n }) : "";
}

/** The seats' names, bots badged. */
function players(tb) {
  return tb.seats.flatMap((s, i) => [...(i ? [" – "] : []), ...nameWithBadge(s ?? "—", (tb.bots || []).includes(i))]);
}

function badge(text) {
  return h("span", "badge", text);
}

function actionsFor(tb) {
  const wrap = h("span", "row");
  const seated = tb.seats.includes(me);
  if (seated) wrap.append(link(gettext("Open"), `/g/${tb.id}/`));
  if (me && !seated && tb.taken < tb.seat_count && (!tb.challenged || tb.challenged === me)) {
    wrap.append(button(gettext("Join"), () => tableAction(tb.id, "join"), "button small primary"));
  }
  if (me && tb.challenged === me && !seated) wrap.append(button(gettext("Decline"), () => tableAction(tb.id, "decline")));
  if (!me) wrap.append(link(gettext("Log in to join"), `/accounts/login/?next=/`));
  return wrap;
}

async function tableAction(id, path) {
  try {
    const tb = await api(`/api/tables/${id}/${path}/`, {});
    tables.set(tb.id, tb);
    render();
    if (path === "join") location.href = `/g/${id}/`;
  } catch (err) {
    toast(err.message, "error");
  }
}

// --- the form: built from the ruleset's option fields -------------------------
const form = $("table-form");
if (form) {
  const select = $("ruleset-select", HTMLSelectElement);
  select.addEventListener("change", buildOptions);
  $("seat-count", HTMLSelectElement).addEventListener("change", buildSeats);
  buildOptions();
  $("clock-kind", HTMLSelectElement).addEventListener("change", () => {
    $("clock-correspondence").hidden = $("clock-kind", HTMLSelectElement).value !== "correspondence";
    $("clock-realtime").hidden = $("clock-kind", HTMLSelectElement).value !== "realtime";
    showPlayban();
  });
  showPlayban();

  form.addEventListener("change", () => ($("quickplay-offer").hidden = true));
  $("quickplay-btn").addEventListener("click", async () => {
    const seek = { ruleset: select.value, options: readOptions(), seat_count: seatCount(), clock: readClock() };
    if (!offerOthers(seek)) await submit("/api/quickplay/", seek);
  });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const hostSeat = $("host-seat", HTMLSelectElement).value;
    await submit("/api/tables/", {
      ruleset: select.value,
      options: readOptions(),
      seat_count: seatCount(),
      host_seat: hostSeat === "random" ? "random" : Number(hostSeat),
      challenge: $("challenge", HTMLInputElement).value.trim(),
      clock: readClock(),
      auto_start: $("auto-start", HTMLInputElement).checked,
      rated: $("rated", HTMLInputElement).checked,
    });
  });
}

/** A play-ban (told by the server in #playban-note) bars new realtime games:
 * the seek buttons are off while the realtime clock is chosen, and say why. */
function showPlayban() {
  const note = document.getElementById("playban-note");
  if (!note) return;
  const barred = $("clock-kind", HTMLSelectElement).value === "realtime";
  for (const id of ["quickplay-btn", "create-table"]) {
    const btn = /** @type {HTMLButtonElement | null} */ (document.getElementById(id));
    if (!btn) continue;
    btn.disabled = barred;
    if (barred) btn.setAttribute("aria-describedby", "playban-note");
    else btn.removeAttribute("aria-describedby");
  }
  note.classList.toggle("barring", barred);
}

/** Open seeks someone could join now: quick play tables not full, for anyone. */
function joinableSeeks(seek) {
  return [...tables.values()].filter(
    (tb) => tb.status === "open" && tb.quickplay && !tb.challenged && tb.ruleset === seek.ruleset && tb.seat_count === seek.seat_count && tb.taken < tb.seat_count && !tb.seats.includes(me),
  );
}

/**
 * Quick play would leave a second seeker waiting beside one who wants the
 * same game on another clock or options: offer theirs first. Returns whether
 * the offer is shown (the seek then waits for the player's choice).
 */
function offerOthers(seek) {
  const seeks = joinableSeeks(seek);
  const box = $("quickplay-offer");
  if (seeks.length === 0 || seeks.some((tb) => sameSeek(tb, seek))) {
    box.hidden = true;
    return false;
  }
  const rs = catalog.find((r) => r.slug === seek.ruleset);
  const offers = seeks.slice(0, 3).map((tb) => {
    const what = [clockText(tb.clock), optionText(rs, tb.options)].filter(Boolean).join(", ");
    const text = fmt(gettext("Join %(user)s's game instead (%(what)s)?"), { user: tb.host, what });
    return h("li", "", [h("span", "", text), button(gettext("Join"), () => tableAction(tb.id, "join"), "button small primary", { "data-testid": "join-offer" })]);
  });
  const mine = fmt(gettext("Seek %(what)s instead"), { what: clockText(seek.clock) });
  box.replaceChildren(
    h("p", "", gettext("Someone is waiting for this game with another time control or options.")),
    h("ul", "offers", offers),
    h("div", "row", [
      button(mine, () => ((box.hidden = true), submit("/api/quickplay/", seek)), "button small", { "data-testid": "seek-anyway" }),
      button(gettext("Cancel"), () => (box.hidden = true), "button small"),
    ]),
  );
  box.hidden = false;
  box.querySelector("button")?.focus();
  return true;
}

function readClock() {
  const kind = $("clock-kind", HTMLSelectElement).value;
  if (kind === "correspondence") {
    return { kind, days: Number($("clock-days", HTMLInputElement).value), bank: Number($("clock-bank", HTMLInputElement).value) };
  }
  if (kind === "realtime") {
    return { kind, minutes: Number($("clock-minutes", HTMLInputElement).value), increment: Number($("clock-increment", HTMLInputElement).value) };
  }
  return { kind };
}

function current() {
  return catalog.find((r) => r.slug === $("ruleset-select", HTMLSelectElement).value);
}

function seatCount() {
  return Number($("seat-count", HTMLSelectElement).value);
}

function buildOptions() {
  const rs = current();
  const seats = $("seat-count", HTMLSelectElement);
  seats.replaceChildren();
  for (let n = rs.min_seats; n <= rs.max_seats; n++) seats.append(new Option(String(n), String(n)));
  $("seat-count-label").hidden = rs.min_seats === rs.max_seats;
  const box = $("options-fields");
  box.replaceChildren();
  for (const f of rs.options) box.append(optionInput(f));
  box.hidden = rs.options.length === 0;
  buildSeats();
}

function buildSeats() {
  const sel = $("host-seat", HTMLSelectElement);
  sel.replaceChildren(new Option(gettext("random"), "random"));
  const names = current().seat_names[seatCount()] || [];
  for (let i = 0; i < seatCount(); i++) {
    sel.append(new Option(names[i] || fmt(gettext("seat %(n)s"), { n: i + 1 }), String(i)));
  }
  sel.value = "0";
}

function optionInput(f) {
  const label = h("label", `option option-${f.kind}`);
  let input;
  if (f.kind === "bool") {
    input = h("input", "", null, { type: "checkbox" });
    input.checked = !!f.default;
    label.append(input, ` ${f.label}`);
  } else if (f.kind === "choice") {
    input = h("select");
    for (const [value, text] of f.choices) input.append(new Option(text, JSON.stringify(value)));
    input.value = JSON.stringify(f.default);
    label.append(f.label, input);
  } else {
    input = h("input", "", null, { type: f.kind === "int" ? "number" : "text", min: f.min, max: f.max });
    input.value = f.default ?? "";
    label.append(f.label, input);
  }
  input.name = f.name;
  input.dataset.kind = f.kind;
  if (f.help) label.title = f.help;
  return label;
}

function readOptions() {
  const out = {};
  const inputs = /** @type {NodeListOf<HTMLInputElement | HTMLSelectElement>} */ ($("options-fields").querySelectorAll("[data-kind]"));
  for (const input of inputs) {
    const kind = input.dataset.kind;
    if (kind === "bool") out[input.name] = /** @type {HTMLInputElement} */ (input).checked;
    else if (kind === "int") out[input.name] = Number(input.value);
    else if (kind === "choice") out[input.name] = JSON.parse(input.value);
    else out[input.name] = input.value;
  }
  return out;
}

async function submit(path, body) {
  const err = $("form-error");
  err.hidden = true;
  try {
    const tb = await api(path, body);
    location.href = `/g/${tb.id}/`;
  } catch (e) {
    err.textContent = e.message;
    err.hidden = false;
  }
}
