// Clocks drawn from the server's numbers and ticking locally (docs/protocol.md,
// the snapshot's `clock`): the game page's and the live pictures' (TV, embed).
// A countdown runs from the server's deadline, corrected by how far this
// machine's clock is off the server's (`clock.now`).
import { bankText } from "./game-corr.js";
import { fmt, gettext } from "./socket.js";

/** @typedef {{offset: number, received: number}} Timing */

/** When a state arrived, and how far our clock is off the server's. @returns {Timing} */
export function clockTiming(/** @type {any} */ state) {
  return { offset: state?.clock ? Date.now() - Date.parse(state.clock.now) : 0, received: Date.now() };
}

/** Seconds until the server's ``iso`` time, on our clock. */
export function secondsLeft(/** @type {string} */ iso, /** @type {Timing} */ timing) {
  return (Date.parse(iso) + timing.offset - Date.now()) / 1000;
}

export function formatDuration(/** @type {number} */ sec) {
  sec = Math.max(0, sec);
  if (sec >= 86400) return fmt(gettext("%(d)s d %(h)s h"), { d: Math.floor(sec / 86400), h: Math.floor((sec % 86400) / 3600) });
  if (sec >= 3600) return fmt(gettext("%(h)s h %(m)s min"), { h: Math.floor(sec / 3600), m: Math.floor((sec % 3600) / 60) });
  const m = Math.floor(sec / 60);
  const s = Math.floor(sec % 60);
  return sec < 10 ? `${m}:${String(s).padStart(2, "0")}.${Math.floor((sec * 10) % 10)}` : `${m}:${String(s).padStart(2, "0")}`;
}

const NO_CLOCK = { text: "", running: false, low: false };

/**
 * One seat's clock now: its text ("" for none), whether it runs, whether it is low.
 * A seat that runs the game (``referee``, a game master) has no clock.
 * @param {any} state  the snapshot
 * @param {number} seat
 * @param {Timing} timing
 * @param {boolean} referee
 */
export function seatClock(state, seat, timing, referee = false) {
  const clock = state?.clock;
  if (!clock || state.status !== "active" || referee) return NO_CLOCK;
  const running = clock.paused ? [] : state.to_act;
  if (clock.kind === "realtime" && clock.remaining) {
    const runs = running.includes(seat);
    const left = clock.remaining[seat] - (runs ? (Date.now() - timing.received) / 1000 : 0);
    return { text: formatDuration(left), running: runs, low: left < 20 };
  }
  if (clock.kind === "correspondence" && clock.banks) {
    const mine = clock.timer === "move" && running.includes(seat) && running.length === 1;
    const untilDeadline = mine && clock.deadline ? secondsLeft(clock.deadline, timing) : null;
    return { text: bankText(clock, seat, untilDeadline, formatDuration), running: false, low: false };
  }
  return NO_CLOCK;
}

/**
 * The line under the players: the time left in a phase or for a move, or that
 * the clock is paused; null when there is nothing to say.
 * @param {any} state
 * @param {Timing} timing
 * @returns {{text: string, low: boolean} | null}
 */
export function timerLine(state, timing) {
  const clock = state?.clock;
  if (!clock || state.status !== "active") return null;
  if (clock.paused) return { text: gettext("The clock is paused."), low: false };
  if (!clock.deadline || clock.timer === "clock") return null;
  const left = secondsLeft(clock.deadline, timing);
  const t = formatDuration(left);
  const text =
    clock.timer === "phase"
      ? fmt(gettext("Time left in this phase: %(t)s"), { t })
      : clock.timer === "work"
        ? gettext("Resolving…")
        : clock.timer === "vacation"
          ? fmt(gettext("A vacation ends in %(t)s."), { t })
          : fmt(gettext("Time left for this move: %(t)s"), { t });
  return { text, low: left < 10 };
}
