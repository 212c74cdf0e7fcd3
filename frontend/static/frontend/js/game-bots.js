// The waiting table's "Invite a bot" control: the host seats a bot at a free seat.
import { button, h } from "./dom.js";
import { api, fmt, gettext, toast } from "./socket.js";

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

/**
 * The buttons that let a bot play a timed-out player's seat, one per open offer
 * this player still has to agree to, drawn in a box after the seat commands.
 * @param {any} state the snapshot (its `handover`: {"<seat>": {votes, move}})
 * @param {{seat: number | null, seats: any[]}} model
 * @param {(seat: number) => string} seatName
 */
export function renderHandover(state, model, gameId, seatName) {
  let box = document.getElementById("handover");
  if (!box) {
    box = h("div", "row", null, { id: "handover", "data-testid": "handover" });
    document.getElementById("actions")?.after(box);
  }
  const left = state.left || [];
  const mine = model.seat;
  const offers = Object.entries(state.handover || {}).filter(
    ([seat, offer]) => offer.move === null && state.status === "active" && mine !== null && !left.includes(mine) && Number(seat) !== mine && !offer.votes.includes(mine),
  );
  box.replaceChildren(
    ...offers.map(([seat]) =>
      button(fmt(gettext("Let a bot play %(player)s"), { player: seatName(Number(seat)) }), () => agree(gameId, Number(seat)), "button small", {
        "data-testid": `handover-${seat}`,
      }),
    ),
  );
  box.hidden = offers.length === 0;
}

async function agree(gameId, seat) {
  try {
    await api(`/api/games/${gameId}/handover/`, { seat });
  } catch (err) {
    toast(err.message, "error");
  }
}
