// Bots' names wherever names appear: the name and a small translated "bot" badge.
import { h } from "./dom.js";
import { gettext } from "./socket.js";

/** A name as nodes: the name, and the badge when a bot holds it. */
export function nameWithBadge(name, isBot) {
  return isBot ? [name, " ", h("span", "badge bot-badge", gettext("bot"))] : [name];
}

/** A name in running text (move list, status line). */
export function nameText(name, isBot) {
  return isBot ? `${name} · ${gettext("bot")}` : name;
}
