// The game page: one socket, versioned events, a board module per ruleset.
import { LiveSocket, api, fmt, gettext, toast } from "./socket.js";

const root = document.getElementById("game");
const gameId = Number(root.dataset.game);
const ruleset = root.dataset.ruleset;
const me = root.dataset.user || null;
const $ = (id) => document.getElementById(id);

const model = { version: 0, seat: null, seats: [], events: [], state: null, table: null, pending: null };
const boardModule = await import(`./boards/${ruleset}.js`);
const board = boardModule.createBoard($("board"), {
  act,
  seat: () => model.seat,
  seats: () => model.seats,
});

const socket = new LiveSocket(() => `/ws/game/${gameId}/?since=${model.version}`, {
  onFrame,
  onStatus: (s) => ($("conn").dataset.state = s),
  ping: () => ({ type: "ping", game: gameId, version: model.version }),
});
window.__game = { model, socket }; // for debugging and end-to-end tests

function onFrame(frame) {
  switch (frame.type) {
    case "hello":
      model.seat = frame.seat;
      model.seats = frame.seats;
      model.table = frame.table;
      if (frame.since === 0 || frame.state.version < model.version) model.events = [];
      mergeEvents(frame.events);
      setState(frame.state);
      $("watchers").textContent = frame.watchers;
      break;
    case "event":
      if (frame.version <= model.version) return; // a duplicate: already have it
      if (frame.version !== model.version + 1) return requestSync(); // a gap
      mergeEvents([frame.event]);
      setState(frame.state, frame.event);
      if (frame.event.kind === "start") requestSync();
      break;
    case "sync":
      model.seat = frame.seat;
      model.seats = frame.seats;
      model.table = frame.table;
      mergeEvents(frame.events);
      setState(frame.state);
      break;
    case "pong":
      if (frame.version > model.version) requestSync();
      break;
    case "ack":
      break;
    case "table":
      model.table = frame.table;
      frame.table.seats.forEach((user, i) => model.seats[i] && (model.seats[i].user = user));
      if (frame.table.status !== "open" && model.version === 0) requestSync();
      renderWaiting();
      break;
    case "watchers":
      $("watchers").textContent = frame.count;
      break;
    case "error":
      model.pending = null;
      toast(frame.message, "error");
      if (frame.code === "stale_version" || frame.version > model.version) requestSync();
      render();
      break;
  }
}

function mergeEvents(events) {
  for (const ev of events) {
    if (ev.version > (model.events.at(-1)?.version ?? 0)) model.events.push(ev);
  }
}

function setState(state, event = null) {
  model.version = state.version;
  model.state = state;
  model.pending = null;
  render(event);
}

function requestSync() {
  socket.send({ type: "sync", game: gameId, version: model.version });
}

function act(action) {
  if (model.pending) return false;
  const ref = Math.random().toString(36).slice(2);
  if (!socket.send({ type: "act", game: gameId, version: model.version, action, ref })) {
    toast(gettext("Not connected. Reconnecting; try again in a moment."), "error");
    return false;
  }
  model.pending = ref;
  return true;
}

function seatName(i) {
  const s = model.seats[i];
  return s ? `${s.name}${s.user ? ` (${s.user})` : ""}` : String(i + 1);
}

function render(event = null) {
  renderWaiting();
  const st = model.state;
  if (!st) return;
  const active = st.status === "active";
  const myTurn = active && st.to_act.includes(model.seat);
  $("players").replaceChildren(
    ...model.seats.map((s) => {
      const li = document.createElement("li");
      li.className = "player" + (st.to_act.includes(s.index) ? " to-move" : "");
      li.dataset.seat = s.index;
      li.innerHTML = `<span class="swatch seat-${s.index}"></span>`;
      li.append(`${s.name}: ${s.user ?? "—"}${s.index === model.seat ? ` (${gettext("you")})` : ""}`);
      return li;
    }),
  );
  let status;
  if (st.status === "open") status = gettext("Waiting for players…");
  else if (st.status === "active") {
    status = myTurn
      ? gettext("Your turn.")
      : fmt(gettext("%(player)s to move."), { player: st.to_act.map(seatName).join(", ") });
  } else if (st.status === "aborted") status = gettext("This table was closed.");
  else status = gettext("The game is over.");
  $("status").textContent = status;
  $("status").classList.toggle("your-turn", myTurn);
  $("resign-btn").hidden = !(active && model.seat !== null);
  renderBanner(st);
  renderMoves();
  if (st.view) board.render(st, { event, myTurn, pending: !!model.pending });
  document.title = `${myTurn ? "● " : ""}${document.title.replace(/^● /, "")}`;
}

function renderBanner(st) {
  const el = $("banner");
  if (st.status !== "finished" || !st.result) {
    el.hidden = true;
    return;
  }
  const r = st.result;
  let head;
  if (r.draw) head = gettext("Draw");
  else if (r.winners.includes(model.seat)) head = gettext("You won!");
  else head = fmt(gettext("%(player)s won"), { player: r.winners.map(seatName).join(", ") });
  el.replaceChildren();
  const strong = document.createElement("strong");
  strong.textContent = head;
  el.append(strong, ` — ${st.result_text}`);
  el.hidden = false;
}

function renderMoves() {
  const ol = $("moves");
  const items = [];
  for (const ev of model.events) {
    for (const item of ev.events) {
      const text = describe(item, ev);
      if (!text) continue;
      const li = document.createElement("li");
      li.textContent = text;
      li.dataset.version = ev.version;
      items.push(li);
    }
  }
  ol.replaceChildren(...items);
  ol.scrollTop = ol.scrollHeight;
}

function describe(item, ev) {
  if (item.type === "resigned") return fmt(gettext("%(player)s resigned."), { player: seatName(item.seat) });
  if (item.type === "start") return gettext("The game started.");
  return boardModule.describe ? boardModule.describe(item, { seatName, event: ev }) : null;
}

function renderWaiting() {
  const table = model.table;
  const waiting = !!table && table.status === "open";
  $("waiting").hidden = !waiting;
  $("board").hidden = waiting;
  if (!waiting) return;
  $("waiting-seats").replaceChildren(
    ...table.seats.map((name, i) => {
      const li = document.createElement("li");
      li.textContent = `${model.seats[i]?.name ?? i + 1}: ${name ?? gettext("free seat")}`;
      li.className = name ? "taken" : "free";
      return li;
    }),
  );
  const seated = table.seats.includes(me);
  const buttons = [];
  const add = (label, path, cls = "button", testid = "") => {
    const b = document.createElement("button");
    b.className = cls;
    b.textContent = label;
    if (testid) b.dataset.testid = testid;
    b.onclick = () => tableAction(path);
    buttons.push(b);
  };
  if (me && !seated && table.taken < table.seat_count) add(gettext("Take a seat"), "join", "button primary", "join");
  if (me && table.host === me && table.taken === table.seat_count) add(gettext("Start the game"), "start", "button primary", "start");
  if (me && table.challenged === me && !seated) add(gettext("Decline"), "decline");
  if (seated) add(table.host === me ? gettext("Close the table") : gettext("Leave"), "leave");
  if (!me) {
    const a = document.createElement("a");
    a.href = `/accounts/login/?next=${encodeURIComponent(location.pathname)}`;
    a.className = "button primary";
    a.textContent = gettext("Log in to play");
    buttons.push(a);
  }
  $("waiting-actions").replaceChildren(...buttons);
}

async function tableAction(path) {
  try {
    const table = await api(`/api/tables/${gameId}/${path}/`, {});
    model.table = table;
    if (path === "leave" || path === "decline") location.href = "/";
    renderWaiting();
  } catch (err) {
    toast(err.message, "error");
  }
}

$("resign-btn").addEventListener("click", () => {
  if (!confirm(gettext("Really resign this game?"))) return;
  socket.send({ type: "resign", game: gameId });
});

const copy = $("copy-invite");
if (copy) {
  copy.addEventListener("click", async () => {
    const input = $("invite-link");
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
      toast(gettext("Link copied."));
    } catch {
      document.execCommand("copy");
    }
  });
}
