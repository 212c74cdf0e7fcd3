// The moderators' queue of open reports, live over /ws/moderation/: a report
// filed anywhere appears without a reload; one settled drops out.
import { $, h } from "./dom.js";
import { LiveSocket, fmt, gettext, toast } from "./socket.js";

const socket = new LiveSocket(() => "/ws/moderation/", {
  onFrame(frame) {
    if (frame.type === "queue") {
      render(frame.items, frame.open);
    } else if (frame.type === "report") {
      socket.send({ type: "queue" });
      if (frame.report.status === "open") toast(fmt(gettext("New report about %(user)s."), { user: frame.report.username }));
    } else if (frame.type === "error") {
      toast(frame.message, "error");
    }
  },
  onStatus: (s) => ($("queue-live").dataset.state = s),
  ping: () => ({ type: "ping" }),
});

/** The nav link's count, kept current while the queue is open. */
function showOpen(n) {
  const count = document.getElementById("reports-count");
  if (!count) return;
  count.textContent = String(n);
  count.hidden = n === 0;
}

const REASONS = {
  cheating: gettext("cheating"),
  abuse: gettext("abuse"),
  stalling: gettext("stalling"),
  other: gettext("other"),
  boosting: gettext("boosting"),
  rating_jump: gettext("rating jump"),
  shared_device: gettext("shared device"),
  many_reports: gettext("many reports"),
};

function render(items, open) {
  showOpen(open);
  $("reports-total").textContent = fmt(gettext("%(n)s open"), { n: open });
  $("reports-empty").hidden = items.length > 0;
  $("reports").replaceChildren(...items.map(card));
}

function card(report) {
  const link = h("a", "", fmt(gettext("Report #%(id)s about %(user)s"), { id: report.id, user: report.username }), {
    href: `/moderation/reports/${report.id}/`,
  });
  const by = report.reporter ? fmt(gettext("by %(user)s"), { user: report.reporter }) : gettext("filed by the site");
  const li = h("li", "card", [h("h2", "", link), h("p", "row", [h("span", "badge", REASONS[report.reason] ?? report.reason), " ", by])], {
    "data-report": report.id,
  });
  if (report.text) li.append(h("p", "", report.text));
  return li;
}
