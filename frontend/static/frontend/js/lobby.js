// The lobby: live list of open tables and running games, table form, quick play.
import { LiveSocket, api, fmt, gettext, toast } from "./socket.js";

const $ = (id) => document.getElementById(id);
const catalog = JSON.parse($("catalog").textContent);
const me = JSON.parse($("me").textContent) || null;
const tables = new Map();
const titles = Object.fromEntries(catalog.map((rs) => [rs.slug, rs.title]));

new LiveSocket(() => "/ws/lobby/", {
  onFrame(frame) {
    if (frame.type === "tables") {
      tables.clear();
      frame.tables.forEach((tb) => tables.set(tb.id, tb));
    } else if (frame.type === "table") {
      tables.set(frame.table.id, frame.table);
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
  const rs = catalog.find((r) => r.slug === tb.ruleset);
  if (!rs) return "";
  return rs.options
    .filter((f) => tb.options[f.name] !== f.default)
    .map((f) => `${f.label}: ${tb.options[f.name] === true ? "✓" : tb.options[f.name]}`)
    .join(", ");
}

function cell(text, cls) {
  const td = document.createElement("td");
  if (cls) td.className = cls;
  if (text instanceof Node) td.append(text);
  else td.textContent = text;
  return td;
}

function button(label, onClick, cls = "button small") {
  const b = document.createElement("button");
  b.className = cls;
  b.textContent = label;
  b.onclick = onClick;
  return b;
}

function link(label, href, cls = "button small") {
  const a = document.createElement("a");
  a.className = cls;
  a.href = href;
  a.textContent = label;
  return a;
}

function render() {
  const open = [...tables.values()].filter((tb) => tb.status === "open").sort((a, b) => a.created.localeCompare(b.created));
  const live = [...tables.values()].filter((tb) => tb.status === "active").sort((a, b) => b.started.localeCompare(a.started));
  for (const tb of tables.values()) if (tb.status !== "open" && tb.status !== "active") tables.delete(tb.id);

  $("open-tables").replaceChildren(
    ...open.map((tb) => {
      const tr = document.createElement("tr");
      tr.dataset.table = tb.id;
      if (tb.challenged && tb.challenged === me) tr.className = "for-me";
      const name = document.createElement("span");
      name.textContent = titles[tb.ruleset] ?? tb.ruleset;
      const extra = optionSummary(tb);
      const label = document.createElement("div");
      label.append(name);
      if (tb.quickplay) label.append(" ", badge(gettext("quick play")));
      if (tb.challenged) label.append(" ", badge(fmt(gettext("challenge for %(user)s"), { user: tb.challenged })));
      if (extra) {
        const small = document.createElement("small");
        small.textContent = extra;
        label.append(small);
      }
      tr.append(cell(label), cell(tb.host), cell(`${tb.taken}/${tb.seat_count}`), cell(age(tb.created)), cell(actionsFor(tb)));
      return tr;
    }),
  );
  $("open-empty").hidden = open.length > 0;
  $("live-games").replaceChildren(
    ...live.map((tb) => {
      const tr = document.createElement("tr");
      tr.dataset.game = tb.id;
      const playing = tb.seats.includes(me);
      tr.append(
        cell(titles[tb.ruleset] ?? tb.ruleset),
        cell(tb.seats.map((s) => s ?? "—").join(" – ")),
        cell(String(Math.max(0, tb.version - 1))),
        cell(link(playing ? gettext("Play") : gettext("Watch"), `/g/${tb.id}/`, playing ? "button small primary" : "button small")),
      );
      return tr;
    }),
  );
  $("live-empty").hidden = live.length > 0;
}

function badge(text) {
  const b = document.createElement("span");
  b.className = "badge";
  b.textContent = text;
  return b;
}

function actionsFor(tb) {
  const wrap = document.createElement("span");
  wrap.className = "row";
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
  const select = $("ruleset-select");
  select.addEventListener("change", buildOptions);
  $("seat-count").addEventListener("change", buildSeats);
  buildOptions();
  $("clock-kind").addEventListener("change", () => {
    $("clock-correspondence").hidden = $("clock-kind").value !== "correspondence";
    $("clock-realtime").hidden = $("clock-kind").value !== "realtime";
  });

  $("quickplay-btn").addEventListener("click", async () => {
    await submit("/api/quickplay/", { ruleset: select.value, options: readOptions(), seat_count: seatCount(), clock: readClock() });
  });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const hostSeat = $("host-seat").value;
    await submit("/api/tables/", {
      ruleset: select.value,
      options: readOptions(),
      seat_count: seatCount(),
      host_seat: hostSeat === "random" ? "random" : Number(hostSeat),
      challenge: $("challenge").value.trim(),
      clock: readClock(),
      auto_start: $("auto-start").checked,
    });
  });
}

function readClock() {
  const kind = $("clock-kind").value;
  if (kind === "correspondence") return { kind, days: Number($("clock-days").value) };
  if (kind === "realtime") {
    return { kind, minutes: Number($("clock-minutes").value), increment: Number($("clock-increment").value) };
  }
  return { kind };
}

function current() {
  return catalog.find((r) => r.slug === $("ruleset-select").value);
}

function seatCount() {
  return Number($("seat-count").value);
}

function buildOptions() {
  const rs = current();
  const seats = $("seat-count");
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
  const sel = $("host-seat");
  sel.replaceChildren(new Option(gettext("random"), "random"));
  const names = current().seat_names[seatCount()] || [];
  for (let i = 0; i < seatCount(); i++) {
    sel.append(new Option(names[i] || fmt(gettext("seat %(n)s"), { n: i + 1 }), String(i)));
  }
  sel.value = "0";
}

function optionInput(f) {
  const label = document.createElement("label");
  label.className = `option option-${f.kind}`;
  let input;
  if (f.kind === "bool") {
    input = document.createElement("input");
    input.type = "checkbox";
    input.checked = !!f.default;
    label.append(input, ` ${f.label}`);
  } else if (f.kind === "choice") {
    input = document.createElement("select");
    for (const [value, text] of f.choices) input.append(new Option(text, JSON.stringify(value)));
    input.value = JSON.stringify(f.default);
    label.append(f.label, input);
  } else {
    input = document.createElement("input");
    input.type = f.kind === "int" ? "number" : "text";
    if (f.min !== undefined) input.min = f.min;
    if (f.max !== undefined) input.max = f.max;
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
  for (const input of $("options-fields").querySelectorAll("[data-kind]")) {
    const kind = input.dataset.kind;
    if (kind === "bool") out[input.name] = input.checked;
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
