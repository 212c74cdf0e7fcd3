// How a table is told apart in lists: its time control and its options in words.
import { fmt, gettext } from "./socket.js";

// The server's defaults for a field a time control leaves out (games/clocks.py LIMITS).
const CLOCK_DEFAULTS = { days: 3, bank: 0, minutes: 10, increment: 5 };
const CLOCK_FIELDS = { correspondence: ["days", "bank"], realtime: ["minutes", "increment"], none: [] };

/**
 * A time control as the server stores it (games/clocks.py clean_clock): its
 * kind's fields only, defaults filled in, numbers as numbers, and a time bank
 * of 0 left out. Both seeks compared pass through it, so a form's `bank: 0`
 * and a stored table without a bank are the same clock.
 * @param {any} clock
 */
export function normalClock(clock) {
  const kind = clock?.kind ?? "correspondence";
  /** @type {Record<string, any>} */
  const out = { kind };
  for (const name of CLOCK_FIELDS[kind] || []) out[name] = Number(clock?.[name] ?? CLOCK_DEFAULTS[name]);
  if (out.bank === 0) delete out.bank;
  return out;
}

/** A time control in a few words ("5 min + 3 s", "3 days per move + 5 days bank"). */
export function clockText(clock) {
  const kind = clock?.kind;
  if (kind === "realtime") return fmt(gettext("%(minutes)s min + %(increment)s s"), { minutes: clock.minutes, increment: clock.increment });
  if (kind === "correspondence") {
    const days = clock.days === 1 ? gettext("1 day per move") : fmt(gettext("%(days)s days per move"), { days: clock.days });
    if (!clock.bank) return days;
    return fmt(clock.bank === 1 ? gettext("%(days)s + 1 day bank") : gettext("%(days)s + %(bank)s days bank"), { days, bank: clock.bank });
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
  return JSON.stringify(sorted(a.options)) === JSON.stringify(sorted(b.options)) && JSON.stringify(sorted(normalClock(a.clock))) === JSON.stringify(sorted(normalClock(b.clock)));
}

function sorted(obj) {
  return Object.fromEntries(Object.entries(obj || {}).sort(([x], [y]) => x.localeCompare(y)));
}
