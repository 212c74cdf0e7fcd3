// How a table is told apart in lists: its time control and its options in words.
import { fmt, gettext } from "./socket.js";

/** A time control in a few words ("5 min + 3 s", "3 days per move"). */
export function clockText(clock) {
  const kind = clock?.kind;
  if (kind === "realtime") return fmt(gettext("%(minutes)s min + %(increment)s s"), { minutes: clock.minutes, increment: clock.increment });
  if (kind === "correspondence") {
    return clock.days === 1 ? gettext("1 day per move") : fmt(gettext("%(days)s days per move"), { days: clock.days });
  }
  return gettext("No time limit");
}

/** The options that differ from the game's defaults, labelled ("Variant: Fast"). */
export function optionText(rs, options) {
  if (!rs) return "";
  return rs.options
    .filter((f) => JSON.stringify(options[f.name]) !== JSON.stringify(f.default))
    .map((f) => {
      const value = options[f.name];
      if (value === true) return f.label;
      if (value === false) return fmt(gettext("no %(option)s"), { option: f.label });
      const choice = (f.choices || []).find(([v]) => JSON.stringify(v) === JSON.stringify(value));
      return `${f.label}: ${choice ? choice[1] : value}`;
    })
    .join(", ");
}

/** Whether two seeks are for the very same game (quick play pairs only those). */
export function sameSeek(a, b) {
  return JSON.stringify(sorted(a.options)) === JSON.stringify(sorted(b.options)) && JSON.stringify(sorted(a.clock)) === JSON.stringify(sorted(b.clock));
}

function sorted(obj) {
  return Object.fromEntries(Object.entries(obj || {}).sort(([x], [y]) => x.localeCompare(y)));
}
