// Bots' names wherever names appear: the name and a small translated "bot" badge.
import { h } from "./dom.js";
import { fmt, gettext } from "./socket.js";

/** A name as nodes: the name, and the badge when a bot holds it. */
export function nameWithBadge(name, isBot) {
  return isBot ? [name, " ", h("span", "badge bot-badge", gettext("bot"))] : [name];
}

/** A name in running text (move list, status line). */
export function nameText(name, isBot) {
  return isBot ? `${name} · ${gettext("bot")}` : name;
}

/** A person's seat a bot plays for them now ("bot (medium), for bernd"). */
export function botFor(level, name) {
  const levels = { easy: gettext("easy"), medium: gettext("medium"), strong: gettext("strong") };
  return fmt(gettext("bot (%(level)s), for %(player)s"), { level: levels[level] ?? level, player: name });
}
