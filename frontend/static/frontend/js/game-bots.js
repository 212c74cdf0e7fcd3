// The waiting table's "Invite a bot" control: the host seats a bot at a free seat.
import { button, h } from "./dom.js";
import { api, gettext, toast } from "./socket.js";

const LEVELS = () => [
  ["easy", gettext("easy")],
  ["medium", gettext("medium")],
  ["strong", gettext("strong")],
];

/**
 * The control for the host of an open table with a free seat, else null.
 * `onTable` receives the table the server answers.
 */
export function botInvite(table, me, gameId, onTable) {
  if (!me || table.host !== me || table.status !== "open" || table.taken >= table.seat_count) return null;
  const select = h("select", "", null, { "aria-label": gettext("Bot level"), "data-testid": "invite-bot-level" });
  for (const [value, label] of LEVELS()) select.append(new Option(label, value));
  const invite = async () => {
    try {
      onTable(await api(`/api/tables/${gameId}/bot/`, { level: select.value }));
    } catch (err) {
      toast(err.message, "error");
    }
  };
  return h("span", "row", [select, button(gettext("Invite a bot"), invite, "button", { "data-testid": "invite-bot" })]);
}
