// The admins' remis queue: live, realtime games first (their players sit
// waiting), then oldest first, with the evidence the site computed. A request
// whose game ends meanwhile is closed and drops out on the next refresh.
import { $, button, h } from "./dom.js";
import { LiveSocket, api, fmt, gettext, toast } from "./socket.js";
import { miniHalma } from "./boards/halma-mini.js";

// Keyset pages: the request id each page shown so far starts after (null:
// the first page); the server names where the next page starts.
let starts = [null];
let next = null;
let total = 0;
let capped = false;
const PER_PAGE = 25;
const current = () => ({ page: starts.length, after: starts[starts.length - 1], older_than_hours: Number($("older", HTMLSelectElement).value) });
const details = new Map();

const socket = new LiveSocket(() => "/ws/remis/", {
  onFrame(frame) {
    if (frame.type === "queue") {
      total = frame.total;
      capped = frame.total_capped;
      next = frame.next;
      if (Number($("older", HTMLSelectElement).value) === 0) showWaiting(total);
      render(frame.items);
    } else if (frame.type === "request") {
      refresh();
      if (frame.request.status === "pending") toast(fmt(gettext("New remis request in game #%(game)s."), { game: frame.request.game }));
    } else if (frame.type === "error") {
      toast(frame.message, "error");
    }
  },
  onStatus: (s) => ($("queue-live").dataset.state = s),
  ping: () => ({ type: "ping", ...current() }),
});

/** The nav link's count, kept current while the queue is open. */
function showWaiting(n) {
  const count = document.getElementById("remis-count");
  if (!count) return;
  count.textContent = capped ? `${n}+` : String(n);
  count.hidden = n === 0;
}

function refresh() {
  socket.send({ type: "queue", ...current() });
}

function waited(sec) {
  if (sec < 3600) return fmt(gettext("%(n)s min"), { n: Math.floor(sec / 60) });
  if (sec < 86400) return fmt(gettext("%(n)s h"), { n: Math.floor(sec / 3600) });
  return fmt(gettext("%(n)s days"), { n: Math.floor(sec / 86400) });
}

function yesNo(value) {
  return h("span", value ? "yes" : "no", value ? gettext("yes") : gettext("no"));
}

function render(items) {
  const more = capped ? "+" : "";
  $("queue-total").textContent = fmt(gettext("%(n)s waiting"), { n: `${total}${more}` });
  const pages = Math.max(starts.length, Math.ceil(total / PER_PAGE));
  $("page-label").textContent = fmt(gettext("page %(p)s of %(n)s"), { p: starts.length, n: `${pages}${more}` });
  $("prev-page", HTMLButtonElement).disabled = starts.length === 1;
  $("next-page", HTMLButtonElement).disabled = next === null;
  $("queue-empty").hidden = items.length > 0;
  $("queue").replaceChildren(...items.map(card));
}

function card(req) {
  const li = h("li", "card remis-card", null, { "data-request": req.id });
  const link = h("a", "", fmt(gettext("Game #%(game)s"), { game: req.game }), { href: `/g/${req.game}/` });
  const title = h("h2", "", [link, " · ", req.kind === "repetition" ? gettext("repetition") : gettext("deadlock")]);
  if (req.realtime) title.append(" ", h("span", "badge", gettext("realtime"), { "data-testid": "realtime" }));
  const wait = h("span", "hint", fmt(gettext("by %(user)s, waiting %(t)s"), { user: req.requested_by, t: waited(req.waited) }));
  li.append(h("div", "title-row", [title, wait]));
  li.append(req.kind === "repetition" ? evidence(req) : deadlock(req));
  const moves = h("details", "", [h("summary", "", gettext("Move list"))]);
  moves.addEventListener("toggle", () => moves.open && loadMoves(req.id, moves));
  li.append(moves, decisionForm(req));
  return li;
}

function evidence(req) {
  const facts = h("p", "row", [gettext("Positions identical:"), " ", yesNo(req.evidence.identical), " · ",
    gettext("all after move 51:"), " ", yesNo(req.evidence.past_51), " · ",
    gettext("proposed move legal:"), " ", yesNo(req.evidence.move_legal)]);
  const boards = h("div", "mini-boards");
  for (const pos of req.evidence.positions) {
    const caption = pos.proposed
      ? fmt(gettext("after the proposed move %(n)s"), { n: pos.move })
      : fmt(gettext("after move %(n)s"), { n: pos.move });
    boards.append(h("figure", "", [miniHalma(pos.pieces, pos.proposed ? req.path : null), h("figcaption", "", caption)]));
  }
  return h("div", "", [facts, boards]);
}

/** A deadlock claim: the player's reason beside the position it is about. */
function deadlock(req) {
  const reason = h("blockquote", "", req.reason);
  if (!req.position) return reason;
  const board = h("figure", "", [miniHalma(req.position.pieces), h("figcaption", "", gettext("the position now"))]);
  return h("div", "deadlock", [h("div", "mini-boards", board), reason], { "data-testid": "deadlock-board" });
}

async function loadMoves(id, box) {
  if (details.has(id)) return;
  try {
    const data = await api(`/api/remis/${id}/`);
    details.set(id, data);
    const ol = h("ol", "moves");
    for (const m of data.moves) {
      for (const item of m.events) {
        if (item.type !== "moved") continue;
        ol.append(h("li", "", `${item.move_number}. ${data.seats[item.seat].name}: ${item.path.map(([r, c]) => "abcdefghij"[c] + (10 - r)).join("–")}`));
      }
    }
    box.append(ol);
  } catch (err) {
    toast(err.message, "error");
  }
}

function decisionForm(req) {
  const reason = h("input", "", null, { placeholder: gettext("Reason (required to reject)"), "aria-label": gettext("Reason") });
  const approve = () => {
    // Approving ends the game as a draw: not on a slip of the finger.
    if (!confirm(fmt(gettext("Approve the remis? Game #%(game)s ends in a draw."), { game: req.game }))) return;
    socket.send({ type: "decide", id: req.id, approve: true, reason: reason.value });
  };
  const reject = () => {
    if (!reason.value.trim()) return toast(gettext("A rejection needs a reason for the players."), "error");
    socket.send({ type: "decide", id: req.id, approve: false, reason: reason.value });
  };
  return h("form", "row decision", [
    reason,
    button(gettext("Approve remis"), approve, "button small primary", { "data-testid": "approve" }),
    button(gettext("Reject"), reject, "button small danger", { "data-testid": "reject" }),
  ]);
}

$("older").onchange = () => {
  starts = [null];
  refresh();
};
$("prev-page").onclick = () => {
  if (starts.length > 1) starts.pop();
  refresh();
};
$("next-page").onclick = () => {
  if (next !== null) starts.push(next);
  refresh();
};
