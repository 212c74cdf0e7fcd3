// The admins' remis queue: live, realtime games first (their players sit
// waiting), then oldest first, with the evidence the site computed. A request
// whose game ends meanwhile is closed and drops out on the next refresh.
import { LiveSocket, api, fmt, gettext, toast } from "./socket.js";
import { miniHalma } from "./boards/halma-mini.js";

const $ = (id) => document.getElementById(id);
let page = 1;
let total = 0;
const PER_PAGE = 25;
const details = new Map();

const socket = new LiveSocket(() => "/ws/remis/", {
  onFrame(frame) {
    if (frame.type === "queue") {
      total = frame.total;
      render(frame.items);
    } else if (frame.type === "request") {
      refresh();
      if (frame.request.status === "pending") toast(fmt(gettext("New remis request in game #%(game)s."), { game: frame.request.game }));
    } else if (frame.type === "error") {
      toast(frame.message, "error");
    }
  },
  onStatus: (s) => ($("queue-live").dataset.state = s),
  ping: () => ({ type: "ping", page, older_than_hours: Number($("older").value) }),
});

function refresh() {
  socket.send({ type: "queue", page, older_than_hours: Number($("older").value) });
}

function waited(sec) {
  if (sec < 3600) return fmt(gettext("%(n)s min"), { n: Math.floor(sec / 60) });
  if (sec < 86400) return fmt(gettext("%(n)s h"), { n: Math.floor(sec / 3600) });
  return fmt(gettext("%(n)s days"), { n: Math.floor(sec / 86400) });
}

function yesNo(value) {
  const span = document.createElement("span");
  span.className = value ? "yes" : "no";
  span.textContent = value ? gettext("yes") : gettext("no");
  return span;
}

function render(items) {
  $("queue-total").textContent = fmt(gettext("%(n)s waiting"), { n: total });
  $("page-label").textContent = fmt(gettext("page %(p)s of %(n)s"), { p: page, n: Math.max(1, Math.ceil(total / PER_PAGE)) });
  $("queue-empty").hidden = items.length > 0;
  $("queue").replaceChildren(...items.map(card));
}

function card(req) {
  const li = document.createElement("li");
  li.className = "card remis-card";
  li.dataset.request = req.id;
  const head = document.createElement("div");
  head.className = "title-row";
  const title = document.createElement("h2");
  const link = document.createElement("a");
  link.href = `/g/${req.game}/`;
  link.textContent = fmt(gettext("Game #%(game)s"), { game: req.game });
  title.append(link, " · ", req.kind === "repetition" ? gettext("repetition") : gettext("deadlock"));
  if (req.realtime) {
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.dataset.testid = "realtime";
    badge.textContent = gettext("realtime");
    title.append(" ", badge);
  }
  const wait = document.createElement("span");
  wait.className = "hint";
  wait.textContent = fmt(gettext("by %(user)s, waiting %(t)s"), { user: req.requested_by, t: waited(req.waited) });
  head.append(title, wait);
  li.append(head);
  if (req.kind === "repetition") li.append(evidence(req));
  else {
    const p = document.createElement("blockquote");
    p.textContent = req.reason;
    li.append(p);
  }
  const moves = document.createElement("details");
  const summary = document.createElement("summary");
  summary.textContent = gettext("Move list");
  moves.append(summary);
  moves.addEventListener("toggle", () => moves.open && loadMoves(req.id, moves));
  li.append(moves, decisionForm(req));
  return li;
}

function evidence(req) {
  const wrap = document.createElement("div");
  const facts = document.createElement("p");
  facts.className = "row";
  facts.append(gettext("Positions identical:"), " ", yesNo(req.evidence.identical), " · ",
    gettext("all after move 51:"), " ", yesNo(req.evidence.past_51), " · ",
    gettext("proposed move legal:"), " ", yesNo(req.evidence.move_legal));
  const boards = document.createElement("div");
  boards.className = "mini-boards";
  for (const pos of req.evidence.positions) {
    const fig = document.createElement("figure");
    fig.append(miniHalma(pos.pieces, pos.proposed ? req.path : null));
    const cap = document.createElement("figcaption");
    cap.textContent = pos.proposed
      ? fmt(gettext("after the proposed move %(n)s"), { n: pos.move })
      : fmt(gettext("after move %(n)s"), { n: pos.move });
    fig.append(cap);
    boards.append(fig);
  }
  wrap.append(facts, boards);
  return wrap;
}

async function loadMoves(id, box) {
  if (details.has(id)) return;
  try {
    const data = await api(`/api/remis/${id}/`);
    details.set(id, data);
    const ol = document.createElement("ol");
    ol.className = "moves";
    for (const m of data.moves) {
      for (const item of m.events) {
        if (item.type !== "moved") continue;
        const li = document.createElement("li");
        li.textContent = `${item.move_number}. ${data.seats[item.seat].name}: ${item.path.map(([r, c]) => "abcdefghij"[c] + (10 - r)).join("–")}`;
        ol.append(li);
      }
    }
    box.append(ol);
  } catch (err) {
    toast(err.message, "error");
  }
}

function decisionForm(req) {
  const form = document.createElement("form");
  form.className = "row decision";
  const reason = document.createElement("input");
  reason.placeholder = gettext("Reason (required to reject)");
  reason.setAttribute("aria-label", gettext("Reason"));
  const approve = document.createElement("button");
  approve.type = "button";
  approve.className = "button small primary";
  approve.textContent = gettext("Approve remis");
  approve.dataset.testid = "approve";
  const reject = document.createElement("button");
  reject.type = "button";
  reject.className = "button small danger";
  reject.textContent = gettext("Reject");
  reject.dataset.testid = "reject";
  approve.onclick = () => socket.send({ type: "decide", id: req.id, approve: true, reason: reason.value });
  reject.onclick = () => {
    if (!reason.value.trim()) return toast(gettext("A rejection needs a reason for the players."), "error");
    socket.send({ type: "decide", id: req.id, approve: false, reason: reason.value });
  };
  form.append(reason, approve, reject);
  return form;
}

$("older").onchange = () => {
  page = 1;
  refresh();
};
$("prev-page").onclick = () => {
  if (page > 1) page -= 1;
  refresh();
};
$("next-page").onclick = () => {
  if (page * PER_PAGE < total) page += 1;
  refresh();
};
