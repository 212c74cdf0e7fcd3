// The game page: one socket, versioned events, a board module per ruleset.
import { $, button, h } from "./dom.js";
import { describeItem, remisNotice } from "./events.js";
import { LiveSocket, api, fmt, gettext, toast } from "./socket.js";
import { botFor, nameText, nameWithBadge } from "./bot-badge.js";
import { botInvite, renderHandover } from "./game-bots.js";
import { renderRematch } from "./game-rematch.js";
import { hideChatOf, loadRelations, mine, renderRelations } from "./relations.js";
import { renderVacation } from "./game-corr.js";
import { pendingItem, showCaughtUp, showConnection } from "./game-conn.js";
import { applyPatch } from "./patch.js";
import { clockText } from "./tables.js";
import { createPlanner } from "./game-plan.js";
import { coverFor } from "./game-screen.js";
import { clockTiming, seatClock, timerLine } from "./clock.js";

const root = document.getElementById("game");
const gameId = Number(root.dataset.game);
const ruleset = root.dataset.ruleset;
const me = root.dataset.user || null;

const model = { version: 0, seat: null, seats: [], events: [], state: null, table: null, pending: null, rematch: null, timing: clockTiming(null), holdsScreen: false };
const boardModule = await import(`./boards/${ruleset}.js`);
const board = boardModule.createBoard($("board"), {
  act,
  send: (frame) => socket.send({ ...frame, game: gameId }),
  seat: () => model.seat,
  seats: () => model.seats,
  seatName: (i) => seatName(i), // who plays a seat now, as the page names it
});

// Conditional moves: a planning board of its own that never sends a move.
const planner = createPlanner({
  gameId,
  ruleset,
  boardModule,
  model,
  seatName: (i) => seatName(i),
  ctx: { seat: () => model.seat, seats: () => model.seats, seatName: (i) => seatName(i) },
});

const socket = new LiveSocket(() => `/ws/game/${gameId}/?since=${model.version}`, {
  onFrame,
  onStatus: showConnection,
  onDead: requeueLost,
  ping: () => ({ type: "ping", game: gameId, version: model.version }),
});
window.__game = { model, socket }; // for debugging and end-to-end tests
if (me) loadRelations().then(() => model.state && render(), () => {});

function onFrame(frame) {
  switch (frame.type) {
    case "hello":
      model.seat = frame.seat;
      model.holdsScreen = !!frame.holds_screen;
      model.seats = frame.seats;
      model.table = frame.table;
      model.rematch = frame.rematch;
      if (frame.since === 0 || frame.state.version < model.version) model.events = [];
      mergeEvents(frame.events);
      $("chat-log").replaceChildren();
      frame.chat.forEach(addChat);
      setState(frame.state);
      sendQueued();
      $("watchers").textContent = frame.watchers;
      showCaughtUp();
      break;
    case "event": {
      if (frame.version <= model.version) return; // a duplicate: already have it
      if (frame.version !== model.version + 1) return requestSync(); // a gap
      const state = nextState(frame);
      if (!state) return requestSync(); // a change we cannot apply: the full state instead
      mergeEvents([frame.event]);
      setState(state, frame.event);
      noticeRemis(frame.event);
      if (frame.event.kind === "start") requestSync();
      break;
    }
    case "sync": {
      model.seat = frame.seat;
      model.holdsScreen = !!frame.holds_screen;
      model.seats = frame.seats;
      model.table = frame.table;
      const seen = model.version;
      model.rematch = frame.rematch;
      mergeEvents(frame.events);
      // A page that caught up shows what happened last, as if the event had come.
      const missed = frame.events.filter((e) => e.version > seen);
      setState(frame.state, missed.at(-1) ?? null);
      missed.forEach(noticeRemis);
      break;
    }
    case "rematch":
      model.rematch = frame.rematch;
      render();
      break;
    case "pong":
      // Behind, the server's sync follows the pong unasked; only a table that
      // moved without a version is ours to fetch.
      if (tableMoved(frame)) requestSync();
      break;
    case "ack":
      break;
    case "remis_filed":
      toast(gettext("Remis requested. An admin will decide; the game waits."));
      break;
    case "table":
      model.table = frame.table;
      frame.table.seats.forEach((user, i) => model.seats[i] && Object.assign(model.seats[i], { user, bot: (frame.table.bots || []).includes(i) }));
      if (frame.table.status !== "open" && model.version === 0) requestSync();
      renderWaiting();
      break;
    case "watchers":
      $("watchers").textContent = frame.count;
      break;
    case "chat":
      addChat(frame.message);
      chatEchoed(frame.message);
      break;
    case "error":
      if (chatSent && frame.ref === chatSent.ref) return chatRefused(frame);
      model.pending = null;
      toast(frame.message, "error");
      if (frame.code === "stale_version" || frame.version > model.version) requestSync();
      render();
      break;
  }
}

/** The state an event frame leads to: the seat's view whole, or patched
 * from the one we hold (the frame carries everything else); null if the
 * patch does not fit it. */
function nextState(frame) {
  if ("view" in frame.state) return frame.state;
  if (!model.state || !Array.isArray(frame.view_patch)) return null;
  try {
    return { ...frame.state, view: applyPatch(model.state.view, frame.view_patch) };
  } catch {
    return null;
  }
}

/** A first hello carries the latest events only; a sync, or the hello of a
 * reconnect, what this page missed (up to a bound). A list that would still
 * leave a gap starts afresh from them; earlier ones come from the replay pages. */
function mergeEvents(events) {
  const last = model.events.at(-1)?.version ?? 0;
  if (events.length && events[0].version > last + 1) model.events = [];
  for (const ev of events) {
    if (ev.version > (model.events.at(-1)?.version ?? 0)) model.events.push(ev);
  }
}

const EARLIER_PAGE = 50;
let loadingEarlier = false;

/** The move list's earlier events, a page at a time (the replay API, as this
 * seat may see them once the game is over, else as spectators do). */
async function loadEarlier() {
  const first = model.events[0]?.version ?? 1;
  if (loadingEarlier || first <= 1) return;
  loadingEarlier = true;
  const from = Math.max(1, first - EARLIER_PAGE);
  const seat = model.state?.status !== "active" && model.seat !== null ? `&seat=${model.seat}` : "";
  try {
    const page = await api(`/api/games/${gameId}/replay/?views=0&from=${from}&limit=${first - from}${seat}`);
    const older = page.frames.map((f) => f.event).filter((e) => e.version < (model.events[0]?.version ?? 1));
    if (older.length && older.at(-1).version === (model.events[0]?.version ?? 1) - 1) {
      const ol = $("moves");
      const below = ol.scrollHeight - ol.scrollTop;
      model.events = [...older, ...model.events];
      renderMoves(null, false);
      ol.scrollTop = ol.scrollHeight - below; // the lines in view stay in view
    }
  } catch (err) {
    toast(err.message, "error");
  } finally {
    loadingEarlier = false;
  }
}

const earlierBtn = button(gettext("Show earlier moves"), loadEarlier, "button small", { "data-testid": "earlier-moves" });
earlierBtn.hidden = true;
$("moves").before(earlierBtn);
$("moves").addEventListener("scroll", () => {
  if ($("moves").scrollTop === 0) loadEarlier();
});

function setState(state, event = null) {
  model.version = state.version;
  model.state = state;
  model.timing = clockTiming(state); // countdowns run from the server's deadlines
  model.pending = null;
  render(event);
}

/** A pong says the table filled up, emptied or started: a push was missed. */
/** An admin decided a remis request: say so at once (it also replaces a
 * "the game waits" notice still on screen). */
function noticeRemis(event) {
  const text = remisNotice(event, seatName);
  if (text) toast(text, "info", 12000);
}

/** What a running game waits for, when it is not simply a player's move. */
function waitingFor(st) {
  if (st.paused && st.remis) return gettext("Waiting for an admin to decide the remis request.");
  const leaver = Object.entries(st.handover || {}).find(([, offer]) => offer.leave && offer.move === null);
  if (st.paused && leaver) return fmt(gettext("Paused: the players decide whether a bot plays %(player)s's seat."), { player: seatName(Number(leaver[0])) });
  return null;
}

function tableMoved(pong) {
  const table = model.table;
  if (!table || table.status !== "open") return false;
  return pong.status !== "open" || (pong.taken !== undefined && pong.taken !== table.taken);
}

function requestSync() {
  socket.send({ type: "sync", game: gameId, version: model.version });
}

/** A move made while offline: sent after the reconnect, shown as pending till then. */
let queued = null;
/** The move last sent: while it waits for its answer, a dead socket may have lost it. */
let sent = null;

function act(action) {
  if (model.pending) return false;
  const ref = Math.random().toString(36).slice(2);
  const frame = { type: "act", game: gameId, version: model.version, action, ref };
  model.pending = ref;
  sent = frame;
  if (!socket.send(frame)) {
    queued = frame;
    queueMicrotask(() => renderMoves());
  }
  return true;
}

/** The socket died silently: a move still unanswered waits for the reconnect. */
function requeueLost() {
  if (!sent || model.pending !== sent.ref || queued) return;
  queued = sent;
  renderMoves();
}

/** After a reconnect's hello: the queued move goes out if the game has not moved on. */
function sendQueued() {
  const frame = queued;
  queued = null;
  if (!frame) return;
  const st = model.state;
  // It did arrive before the link died: the next event is this seat's own.
  if (st.version > frame.version && model.events.find((e) => e.version === frame.version + 1)?.seat === model.seat) return render();
  if (st.version === frame.version && st.status === "active" && st.to_act.includes(model.seat) && socket.send(frame)) {
    model.pending = frame.ref;
    return render();
  }
  toast(gettext("Your move was not sent: the game moved on while you were offline. Look and move again."), "error", 10000);
  render();
}

/** The level of the bot that plays a person's seat now (the seat list's, or the
 * snapshot's handover when it came with a move since), else null. */
function botLevel(i) {
  const handed = (model.state?.handover || {})[String(i)];
  return model.seats[i]?.bot_level || (handed?.move != null ? handed.level ?? null : null);
}

function seatName(i) {
  const s = model.seats[i];
  if (s?.player) return `${s.name} (${s.player})`; // at one screen: the name its holder gave
  if (s && botLevel(i)) return `${s.name} (${botFor(botLevel(i), s.user)})`;
  return s ? `${s.name}${s.user ? ` (${nameText(s.user, s.bot)})` : ""}` : String(i + 1);
}

/** Whether a bot took ``seat`` over (services/handover.py): its person acts no more. */
function handedToBot(st, seat) {
  return seat !== null && (st.handover || {})[String(seat)]?.move != null;
}

/** Whether ``seat`` resigned into a handover (the others decide, or a bot plays it). */
function leftSeat(st, seat) {
  return seat !== null && (handedToBot(st, seat) || !!(st.handover || {})[String(seat)]?.leave || (st.left || []).includes(seat));
}

/** How the players list names a seat: who plays it now, and whether it is yours. */
function seatLabel(s, st, handedOver) {
  const link = (name) => h("a", "player-link", name, { href: `/players/${encodeURIComponent(name)}/` });
  if (s.player) return [h("span", "player-name", s.player)]; // at one screen: a name, no account
  let who = !s.user ? ["—"] : nameWithBadge(link(s.user), s.bot);
  if (s.user && botLevel(s.index)) {
    const [before, after] = botFor(botLevel(s.index), "\u0000").split("\u0000"); // the name stays a link
    who = [before, link(s.user), after ?? ""];
  }
  if (s.index !== model.seat) return who;
  const left = (st.handover || {})[String(s.index)]?.leave || (st.left || []).includes(s.index);
  const you = left ? gettext("you left") : handedOver ? gettext("you; a bot plays for you now") : gettext("you");
  return [...who, h("span", "you-mark", ` (${you})`)];
}

/** "Green (bot) is thinking…" while only bots are to act (its whole turn reads as one). */
function botThinking(st) {
  const bots = st.to_act.filter((i) => model.seats[i]?.bot || handedToBot(st, i));
  if (!bots.length || bots.length !== st.to_act.length) return null;
  return fmt(gettext("%(player)s is thinking…"), { player: bots.map(seatName).join(", ") });
}

function render(event = null) {
  renderWaiting();
  const st = model.state;
  if (!st) return;
  // At one screen: the next player takes the device before their seat's view shows.
  if (coverFor(model, root, () => render())) return;
  const active = st.status === "active";
  const waiting = active ? waitingFor(st) : null;
  const handedOver = active && handedToBot(st, model.seat);
  const myTurn = active && !waiting && !handedOver && st.to_act.includes(model.seat);
  $("players").replaceChildren(
    ...model.seats.map((s) => {
      const li = h("li", "player" + (st.to_act.includes(s.index) ? " to-move" : ""), null, { "data-seat": s.index });
      // A board may label its seats' swatches (a team's number): told apart without colour.
      const mark = boardModule.seatMark?.(s.index) ?? "";
      li.append(h("span", `swatch seat-${s.index}${mark ? " marked" : ""}`, mark, { "aria-hidden": "true" }));
      li.append(`${s.name}: `, ...seatLabel(s, st, handedOver));
      if ((st.left || []).includes(s.index)) li.append(` — ${gettext("left")}`);
      li.append(h("span", "clock", null, { "data-seat": s.index }));
      return li;
    }),
  );
  let status;
  if (st.status === "open") status = gettext("Waiting for players…");
  else if (waiting) status = waiting;
  else if (st.status === "active") {
    const turnText = model.holdsScreen ? fmt(gettext("%(player)s, your turn."), { player: model.seats[model.seat]?.player ?? "" }) : gettext("Your turn.");
    status = myTurn ? turnText : botThinking(st) || fmt(gettext("%(player)s to move."), { player: st.to_act.map(seatName).join(", ") });
  } else if (st.status === "aborted") status = st.result_text || gettext("This table was closed.");
  else status = gettext("The game is over.");
  $("status").textContent = status;
  $("status").classList.toggle("your-turn", myTurn);
  // A game master runs the game: no resigning, draw offers or aborting.
  const seated = active && model.seat !== null && !leftSeat(st, model.seat) && !isReferee(model.seat);
  const offers = st.draw_offers || [];
  const othersOffer = offers.some((s) => s !== model.seat);
  $("resign-btn").hidden = !seated;
  $("draw-offer-btn").hidden = !seated || offers.includes(model.seat) || othersOffer;
  $("draw-accept-btn").hidden = !seated || !othersOffer || offers.includes(model.seat);
  $("draw-decline-btn").hidden = !seated || !othersOffer;
  $("abort-btn").hidden = !seated || !abortable();
  $("draw-note").hidden = offers.length === 0 || !active;
  $("draw-note").textContent = fmt(gettext("Draw offered by %(players)s."), { players: offers.map(seatName).join(", ") });
  $("after-links").hidden = st.status === "open" || model.version === 0; // nothing to replay
  $("export-link").hidden = st.status !== "finished";
  renderHandover(st, model, gameId, seatName);
  renderRelations(model.seats, me, () => (mine.blocks.forEach(hideChatOf), render()));
  renderRematch(model.rematch, model, seatName, (frame) => socket.send({ ...frame, game: gameId }));
  renderClocks();
  renderVacation($("vacation-note"), st, (a) => seatName(a.seat));
  renderBanner(st);
  // The board first: its describe() may use what render() learnt from the view.
  if (st.view) board.render(st, { event, myTurn, pending: !!model.pending, thinking: active ? botThinking(st) : null });
  renderMoves(event);
  renderAccess(st);
  planner.update();
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
  el.replaceChildren(h("strong", "", head), ` — ${st.result_text}`);
  el.hidden = false;
}

function renderMoves(event = null, toEnd = true) {
  const ol = $("moves");
  earlierBtn.hidden = (model.events[0]?.version ?? 1) <= 1;
  const items = [];
  for (const ev of model.events) {
    for (const item of ev.events) {
      const text = describe(item, ev);
      if (!text) continue;
      items.push(h("li", "", text, { "data-version": ev.version }));
    }
  }
  if (queued) items.push(pendingItem());
  ol.replaceChildren(...items);
  if (toEnd) ol.scrollTop = ol.scrollHeight;
  // A screen reader hears what just happened (the move, the dice, the fight) once.
  if (event && items.length) $("announce").textContent = items.filter((li) => li.dataset.version === String(model.version)).map((li) => li.textContent).join(" ");
}

/** The text view of the position and the typed-move form, where the game has them. */
function renderAccess(st) {
  const textView = boardModule.textView && st.view ? boardModule.textView(st, { seatName, seat: model.seat }) : null;
  const typed = !!boardModule.parseMove && model.seat !== null && st.status === "active" && !handedToBot(st, model.seat);
  $("access").hidden = !textView && !typed;
  $("text-view-box").hidden = !textView;
  if (textView) $("text-view").replaceChildren(...textView.map((line) => h("li", "", line)));
  $("move-form").hidden = !typed;
  if (!typed) return;
  // Seated but not to act: the box stays, greyed, and says why.
  const myTurn = st.to_act.includes(model.seat) && !waitingFor(st);
  const input = $("move-input", HTMLInputElement);
  input.disabled = !myTurn;
  $("move-form").querySelector("button").disabled = !myTurn;
  // A board module's help is a text, or a function of the position and seat (a game whose seats type different things).
  const help = typeof boardModule.moveHelp === "function" ? boardModule.moveHelp(st, model.seat) : boardModule.moveHelp;
  $("move-help").textContent = myTurn ? (help ?? "") : gettext("Wait for your turn.");
}

// Phones: the board's picture zoomed into a box of its own that scrolls, the lit fields in view.
$("zoom-btn").addEventListener("click", () => {
  const on = $("game").dataset.zoom !== "on";
  $("game").dataset.zoom = on ? "on" : "off";
  $("zoom-btn").setAttribute("aria-pressed", String(on));
  if (on) document.querySelector("#board .target")?.scrollIntoView({ block: "center", inline: "center" });
});

$("move-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const input = $("move-input", HTMLInputElement);
  const st = model.state;
  const text = input.value.trim();
  if (!text || !st) return;
  const myTurn = st.status === "active" && st.to_act.includes(model.seat);
  const parsed = myTurn ? boardModule.parseMove(text, st, model.seat) : { error: gettext("It is not your turn.") };
  $("move-error").textContent = parsed.error ?? "";
  if (parsed.error) return;
  if (act(parsed.action)) input.value = "";
});

function describe(item, ev) {
  return describeItem(item, boardModule, (i) => seatNameAt(i, ev?.version), ev);
}

/** A seat as it was named at ``version``: its person up to the bot's taking it over. */
function seatNameAt(i, version) {
  const s = model.seats[i];
  const taken = model.events.find((e) => e.events.some((it) => it.type === "handed_to_bot" && it.seat === i));
  if (!s?.user || !taken || version === undefined || version > taken.version) return seatName(i);
  return `${s.name} (${nameText(s.user, s.bot)})`;
}

function renderWaiting() {
  const table = model.table;
  // A table closed before it started (a challenge declined) keeps its card: no board to show.
  const closed = !!table && table.status === "aborted" && model.version === 0;
  const waiting = !!table && (table.status === "open" || closed);
  $("waiting").hidden = !waiting;
  $("waiting").classList.toggle("closed", closed);
  $("board").hidden = waiting;
  if (!waiting) return;
  $("waiting-clock").textContent = clockText(table.clock); // with its time bank, as the lobby names it
  $("waiting-seats").replaceChildren(
    ...table.seats.map((name, i) =>
      h("li", name ? "taken" : "free", [`${model.seats[i]?.name ?? i + 1}: `, ...nameWithBadge(name ?? gettext("free seat"), (table.bots || []).includes(i))]),
    ),
  );
  if (closed) return renderClosed(table);
  const seated = table.seats.includes(me);
  const buttons = [];
  const add = (label, path, cls = "button", testid = "") => {
    buttons.push(button(label, () => tableAction(path), cls, { "data-testid": testid || null }));
  };
  if (me && !seated && table.taken < table.seat_count) add(gettext("Take a seat"), "join", "button primary", "join");
  if (me && table.host === me && table.taken === table.seat_count) add(gettext("Start the game"), "start", "button primary", "start");
  if (me && table.challenged === me && !seated) add(gettext("Decline"), "decline");
  if (seated) add(table.host === me ? gettext("Close the table") : gettext("Leave"), "leave");
  if (!me) {
    buttons.push(h("a", "button primary", gettext("Log in to play"), { href: `/accounts/login/?next=${encodeURIComponent(location.pathname)}` }));
  }
  const invite = botInvite(table, me, gameId, (answer) => {
    model.table = answer;
    if (answer.status !== "open") requestSync();
    renderWaiting();
  });
  if (invite) buttons.push(invite);
  $("waiting-actions").replaceChildren(...buttons);
}

/** Who closed the table and why; its host may open a new one like it. */
function renderClosed(table) {
  const why = model.state?.result_text || gettext("This table was closed.");
  /** @type {HTMLElement[]} */
  const items = [h("p", "closed-note", why, { "data-testid": "closed-note" })];
  if (me && table.host === me) items.push(button(gettext("Open a new table"), reopen, "button primary", { "data-testid": "reopen" }));
  items.push(h("a", "button", gettext("Back to the lobby"), { href: "/" }));
  $("waiting-actions").replaceChildren(...items);
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

/** A seat that runs the game (a game master): no clock, no resigning. */
function isReferee(seat) {
  return !!model.seats[seat]?.referee;
}

/** Open a new table like the closed one: same game, seats, options and clock, for anyone. */
async function reopen() {
  const t = model.table;
  try {
    const table = await api("/api/tables/", {
      ruleset: t.ruleset,
      options: t.options,
      seat_count: t.seat_count,
      host_seat: model.seat ?? 0,
      clock: t.clock,
      auto_start: t.auto_start,
    });
    location.href = `/g/${table.id}/`;
  } catch (err) {
    toast(err.message, "error");
  }
}

function command(type, question = null) {
  if (question && !confirm(question)) return;
  if (!socket.send({ type, game: gameId })) toast(gettext("Not connected. Reconnecting; try again in a moment."), "error");
}
$("resign-btn").addEventListener("click", () => command("resign", gettext("Really resign this game?")));
$("draw-offer-btn").addEventListener("click", () => command("offer_draw"));
$("draw-accept-btn").addEventListener("click", () => command("accept_draw"));
$("draw-decline-btn").addEventListener("click", () => command("decline_draw"));
$("abort-btn").addEventListener("click", () => command("abort", gettext("Abort this game? It will not count.")));

function abortable() {
  const acted = new Set(model.events.filter((e) => e.kind === "act").map((e) => e.seat));
  // Only the latest events at hand: a game that long has all but surely seen
  // every seat move (and the server decides: cannot_abort).
  if ((model.events[0]?.version ?? 1) > 1) return false;
  return acted.size < model.seats.length;
}

// --- clocks: drawn from the server's numbers, ticking locally (clock.js) ----------
function renderClocks() {
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#players .clock"))) {
    const seat = Number(el.dataset.seat);
    const clock = seatClock(model.state, seat, model.timing, isReferee(seat));
    el.textContent = clock.text;
    el.classList.toggle("running", clock.running);
    el.classList.toggle("low", clock.low);
  }
  const line = model.state ? timerLine(model.state, model.timing) : null;
  const phase = $("phase-timer");
  phase.hidden = line === null;
  phase.textContent = line?.text ?? "";
  phase.classList.toggle("low", !!line?.low);
}
setInterval(renderClocks, 200);

// --- chat ---------------------------------------------------------------------
function addChat(message) {
  if (mine.blocks.has(message.user)) return; // the server hides them too, from the next connection
  const li = h("li", "", [h("strong", "", message.user ?? "?")], { "data-chat": message.id });
  if (message.spectator) li.append(" ", h("span", "badge", gettext("spectator")));
  li.append(`: ${message.text}`); // text node: never parsed as HTML
  const log = $("chat-log");
  log.append(li);
  while (log.children.length > 200) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

const chatForm = $("chat-form");
/** @type {{ref: string, text: string} | null} the line sent and not yet seen back */
let chatSent = null;
let chatWait = 0;
if (chatForm) {
  chatForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("chat-input", HTMLInputElement).value.trim();
    if (!text) return;
    const ref = `chat-${Math.random().toString(36).slice(2)}`;
    // The line stays in the input until it comes back: a refused one is not lost.
    if (socket.send({ type: "chat", game: gameId, text, ref })) chatSent = { ref, text };
    else chatNote(gettext("Not connected. Reconnecting; try again in a moment."));
  });
}

/** Our own line came back: it was sent, the input can be cleared. */
function chatEchoed(message) {
  if (!chatSent || message.user !== me || message.text !== chatSent.text) return;
  const input = $("chat-input", HTMLInputElement);
  if (input.value.trim() === chatSent.text) input.value = "";
  chatSent = null;
  chatNote("");
}

/** A refused line stays in the input; the note says when it can go. */
function chatRefused(frame) {
  chatSent = null;
  clearInterval(chatWait);
  if (frame.code === "muted") chatForm?.querySelectorAll("input, button").forEach((el) => el.setAttribute("disabled", "")); // muted while here
  if (frame.code !== "rate_limited" || !frame.retry_after) return chatNote(frame.message);
  const until = Date.now() + frame.retry_after * 1000;
  const tick = () => {
    const left = Math.ceil((until - Date.now()) / 1000);
    if (left > 0) return chatNote(fmt(gettext("Not sent yet: you can send it in %(n)s s."), { n: left }));
    clearInterval(chatWait);
    chatNote(gettext("You can send it now."));
  };
  tick();
  chatWait = setInterval(tick, 500);
}

function chatNote(text) {
  const note = document.getElementById("chat-note");
  if (!note) return;
  note.textContent = text;
  note.hidden = !text;
}

const copy = $("copy-invite");
if (copy) {
  copy.addEventListener("click", async () => {
    const input = $("invite-link", HTMLInputElement);
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
      toast(gettext("Link copied."));
    } catch {
      document.execCommand("copy");
    }
  });
}
