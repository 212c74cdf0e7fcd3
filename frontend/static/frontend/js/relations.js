// Following and blocking players: the API calls, the settings page's lists,
// and the game page's Follow/Block/Report buttons for the other players.
import { button, h } from "./dom.js";
import { reportButton } from "./game-report.js";
import { csrfToken, fmt, gettext, toast } from "./socket.js";

/** @type {{follows: Set<string>, blocks: Set<string>}} what the logged-in user has */
export const mine = { follows: new Set(), blocks: new Set() };

/**
 * POST (add) or DELETE (remove) one name in `/api/follows/` or `/api/blocks/`;
 * the answer is the new list.
 * @param {"follows" | "blocks"} kind
 * @param {string} name
 * @param {boolean} on
 */
export async function setRelation(kind, name, on) {
  const res = await fetch(`/api/${kind}/${encodeURIComponent(name)}/`, {
    method: on ? "POST" : "DELETE",
    headers: { "X-CSRFToken": csrfToken() },
    credentials: "same-origin",
  });
  const data = await res.json().catch(() => ({ message: gettext("The server did not answer properly. Try again.") }));
  if (!res.ok) throw new Error(data.message || res.statusText);
  mine[kind] = new Set(data.users);
  return data.users;
}

/** Read the user's lists once (the game page); nothing for visitors. */
export async function loadRelations() {
  for (const kind of /** @type {const} */ (["follows", "blocks"])) {
    const res = await fetch(`/api/${kind}/`, { credentials: "same-origin" });
    if (res.ok) mine[kind] = new Set((await res.json()).users);
  }
}

/**
 * The game page's box: Follow/Unfollow and Block/Unblock for each other player.
 * @param {{user: string | null, bot?: boolean}[]} seats
 * @param {string | null} me
 * @param {() => void} onChange redraw (a block hides that player's chat lines)
 */
export function renderRelations(seats, me, onChange) {
  let box = document.getElementById("relations");
  if (!box) {
    box = h("ul", "relations", null, { id: "relations", "data-testid": "relations", "aria-label": gettext("Players") });
    document.getElementById("players")?.after(box);
  }
  const others = me ? [...new Set(seats.filter((s) => s.user && s.user !== me && !s.bot).map((s) => s.user))] : [];
  box.hidden = others.length === 0;
  // A frame redraws this box: the focused button's successor takes the focus,
  // or a keyboard user's next key would land on the page body.
  const focused = box.contains(document.activeElement) && document.activeElement instanceof HTMLElement ? document.activeElement.dataset.testid : null;
  box.replaceChildren(
    ...others.map((name) => {
      const toggle = (kind, on, label) =>
        button(label, () => change(kind, name, on, onChange), "button small", { "data-testid": `${kind}-${name}` });
      const following = mine.follows.has(name);
      const blocked = mine.blocks.has(name);
      return h("li", "row", [
        h("span", "", name),
        toggle("follows", !following, following ? gettext("Unfollow") : gettext("Follow")),
        toggle("blocks", !blocked, blocked ? gettext("Unblock") : gettext("Block")),
        reportButton(name, /** @type {HTMLElement} */ (box)),
      ]);
    }),
  );
  const successor = focused ? box.querySelector(`[data-testid="${CSS.escape(focused)}"]`) : null;
  if (successor instanceof HTMLElement) successor.focus();
}

/** Take a blocked player's lines out of the chat shown now. */
export function hideChatOf(name) {
  for (const li of document.querySelectorAll("#chat-log li")) {
    if (li.querySelector("strong")?.textContent === name) li.remove();
  }
}

async function change(kind, name, on, onChange) {
  if (kind === "blocks" && on && !confirm(fmt(gettext("Block %(player)s? You will not be paired with them or see their chat."), { player: name }))) return;
  try {
    await setRelation(kind, name, on);
    onChange();
  } catch (err) {
    toast(/** @type {Error} */ (err).message, "error");
  }
}

// The settings page: each list's buttons remove one name.
for (const btn of document.querySelectorAll("button[data-relation]")) {
  btn.addEventListener("click", async () => {
    const el = /** @type {HTMLElement} */ (btn);
    try {
      await setRelation(/** @type {"follows" | "blocks"} */ (el.dataset.relation), el.dataset.name || "", false);
      el.closest("li")?.remove();
    } catch (err) {
      toast(/** @type {Error} */ (err).message, "error");
    }
  });
}
