// Correspondence comforts on the game page: who is on vacation (their clock
// stands still) and each seat's time bank, from the snapshot's `vacation`
// and `clock.banks` (docs/protocol.md).
import { fmt, gettext } from "./socket.js";

/** "3 December, 14:00" in the reader's language and time zone. */
function when(iso) {
  const date = new Date(iso);
  const day = date.toLocaleDateString(document.documentElement.lang || undefined, { day: "numeric", month: "long" });
  const time = date.toLocaleTimeString(document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit" });
  return `${day}, ${time}`;
}

/** The vacation notice: one sentence per seat away. */
export function renderVacation(el, st, nameOf) {
  const away = st.status === "active" ? st.vacation || [] : [];
  el.hidden = away.length === 0;
  el.textContent = away
    .map((a) => fmt(gettext("%(name)s is on vacation until %(date)s; their clock is stopped."), { name: nameOf(a), date: when(a.until) }))
    .join(" ");
}

/** A seat's bank as the clock shows it ("bank 1 d 12 h"); "" without a bank.
 * A running seat's bank shrinks once its move's days are gone: then the
 * deadline is all that is left of it (`untilDeadline` in seconds, or null). */
export function bankText(clock, seat, untilDeadline, formatDuration) {
  if (clock?.kind !== "correspondence" || !clock.banks) return "";
  const left = untilDeadline === null ? clock.banks[seat] : Math.min(clock.banks[seat], untilDeadline);
  return fmt(gettext("bank %(t)s"), { t: formatDuration(left) });
}
