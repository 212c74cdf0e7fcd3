// Move-list lines for the platform's own events (the same on every game page).
import { fmt, gettext } from "./socket.js";

export function describePlatform(item, seatName) {
  const player = item.seat === undefined || item.seat === null ? "" : seatName(item.seat);
  switch (item.type) {
    case "start":
      return gettext("The game started.");
    case "resigned":
      return fmt(gettext("%(player)s resigned."), { player });
    case "flagged":
      return fmt(gettext("%(player)s ran out of time."), { player });
    case "timeout":
      return fmt(gettext("Time ran out for %(player)s."), { player });
    case "draw_offered":
      return fmt(gettext("%(player)s offered a draw."), { player });
    case "draw_declined":
      return fmt(gettext("%(player)s declined the draw."), { player });
    case "draw_accepted":
      return gettext("Draw agreed.");
    case "handover_agreed":
      return fmt(gettext("Agreed to let a bot play %(player)s (%(n)s so far)."), { player, n: (item.votes || []).length });
    case "handover_offered":
      return fmt(gettext("%(player)s left; the game waits for the others to hand the seat to a bot."), { player });
    case "handover_declined":
      return fmt(gettext("%(by)s declined to hand %(player)s's seat to a bot."), { player, by: seatName(item.by) });
    case "handover_expired":
      return fmt(gettext("Nobody handed %(player)s's seat to a bot in time."), { player });
    case "handed_to_bot":
      return fmt(gettext("A bot plays %(player)s from move %(move)s on."), { player, move: item.move });
    case "aborted":
      return fmt(gettext("%(player)s aborted the game."), { player });
    case "adjudicated":
      return gettext("The tournament round's deadline passed: the game was adjudicated by the time each seat used.");
    case "no_show":
      return fmt(gettext("%(player)s never moved: a bot plays the seat, and the player is out of the tournament."), { player });
    case "vacation":
      return fmt(gettext("%(player)s went on vacation; their clock is stopped."), { player });
    case "vacation_end":
      return fmt(gettext("%(player)s is back from vacation; their clock runs again."), { player });
    case "remis_requested":
    case "remis_approved":
    case "remis_rejected":
      return describeRemis(item, player);
    default:
      return undefined; // not a platform event: the board module describes it
  }
}

/** One line for any event item: the platform's, else the board module's. */
export function describeItem(item, boardModule, seatName, event) {
  const text = describePlatform(item, seatName);
  if (text !== undefined) return text;
  return boardModule.describe ? boardModule.describe(item, { seatName, event }) : null;
}

/** Move-list lines for a remis request (Brettspielnetz Halma): filed, then an
 * admin's decision; the reason is shown as text (never parsed as HTML). */
function describeRemis(item, player) {
  if (item.type === "remis_requested") {
    if (item.kind === "deadlock") {
      return fmt(gettext("%(player)s requested remis for deadlock; the game waits for an admin. Reason: “%(reason)s”"), { player, reason: item.reason });
    }
    const numbers = (item.move_numbers || []).join(", ");
    return fmt(gettext("%(player)s requested remis by repetition (moves %(numbers)s); the game waits for an admin."), { player, numbers });
  }
  if (item.type === "remis_approved") {
    return fmt(gettext("An admin approved the remis request of %(player)s: the game is drawn."), { player });
  }
  return fmt(gettext("An admin rejected the remis request of %(player)s; play resumes. Reason: “%(reason)s”"), { player, reason: item.reason });
}

/** What a player should be told at once of an admin's remis decision (it
 * replaces the "the game waits" notice); null for any other event. */
export function remisNotice(event, seatName) {
  for (const item of event?.events || []) {
    if (item.type === "remis_approved" || item.type === "remis_rejected") {
      return describeRemis(item, seatName(item.seat));
    }
  }
  return null;
}
