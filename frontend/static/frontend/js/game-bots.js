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
/** The level the host chose: the form is drawn again whenever the table changes. */
let chosenLevel = "";

export function botInvite(table, me, gameId, onTable) {
  if (!me || table.host !== me || table.status !== "open" || table.taken >= table.seat_count) return null;
  // Ratings are between people: the server refuses a bot at a rated table.
  if (table.bots_welcome === false) return h("span", "hint", gettext("Bots play at casual tables only."), { "data-testid": "invite-bot-rated" });
  const select = h("select", "", null, { "aria-label": gettext("Bot level"), "data-testid": "invite-bot-level" });
  for (const [value, label] of LEVELS()) select.append(new Option(label, value));
  if (chosenLevel) select.value = chosenLevel;
  select.addEventListener("change", () => (chosenLevel = select.value));
  // Drawn again while the host was choosing: they keep their place.
  if (document.activeElement instanceof HTMLElement && document.activeElement.dataset.testid === "invite-bot-level") {
    queueMicrotask(() => select.isConnected && select.focus());
  }
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
 * The offers to let a bot play a seat that this player still has to answer,
 * drawn in a box after the seat commands: a leaver's seat ("Anna left. Hand
 * the seat to a bot?" Agree / Decline) or a timed-out one (one button).
 * @param {any} state the snapshot (its `handover`: {"<seat>": {votes, move, leave?}})
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
  const mineLeft = mine !== null && Boolean((state.handover || {})[String(mine)]?.leave);
  const offers = Object.entries(state.handover || {}).filter(
    ([seat, offer]) =>
      offer.move === null && state.status === "active" && mine !== null && !mineLeft && !left.includes(mine) && Number(seat) !== mine && !offer.votes.includes(mine),
  );
  box.replaceChildren(...offers.map(([seat, offer]) => offerRow(gameId, Number(seat), offer, seatName)));
  box.hidden = offers.length === 0;
}

function offerRow(gameId, seat, offer, seatName) {
  const player = seatName(seat);
  if (!offer.leave) {
    return button(fmt(gettext("Let a bot play %(player)s"), { player }), () => answer(gameId, seat, true), "button small", {
      "data-testid": `handover-${seat}`,
    });
  }
  return h("div", "row", [
    h("span", "", fmt(gettext("%(player)s left. Hand the seat to a bot?"), { player })),
    button(gettext("Agree"), () => answer(gameId, seat, true), "button small", { "data-testid": `handover-${seat}` }),
    button(gettext("Decline"), () => answer(gameId, seat, false), "button small", { "data-testid": `handover-decline-${seat}` }),
  ]);
}

async function answer(gameId, seat, agree) {
  try {
    await api(`/api/games/${gameId}/handover/`, { seat, agree });
  } catch (err) {
    toast(err.message, "error");
  }
}
