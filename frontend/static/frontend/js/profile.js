// A player's page: follow or block them, and challenge them to a game.
import { setRelation } from "./relations.js";
import { api, gettext } from "./socket.js";

const box = /** @type {HTMLElement} */ (document.getElementById("profile-actions"));
const name = box.dataset.player || "";
const follow = /** @type {HTMLButtonElement} */ (document.getElementById("follow-toggle"));
const block = /** @type {HTMLButtonElement} */ (document.getElementById("block-toggle"));
const form = /** @type {HTMLFormElement | null} */ (document.getElementById("challenge-form")); // none for guests
const error = /** @type {HTMLElement} */ (document.getElementById("profile-error"));
let following = Boolean(box.dataset.following);
let blocked = Boolean(box.dataset.blocked);

function draw() {
  follow.textContent = following ? gettext("Unfollow") : gettext("Follow");
  block.textContent = blocked ? gettext("Unblock") : gettext("Block");
  follow.setAttribute("aria-pressed", String(following));
  block.setAttribute("aria-pressed", String(blocked));
  if (form) form.hidden = blocked; // a block stops every pairing either way
}

/** @param {unknown} err */
function say(err) {
  error.textContent = err instanceof Error ? err.message : String(err);
  error.hidden = false;
}

/** @param {() => Promise<void>} work */
async function run(work) {
  error.hidden = true;
  try {
    await work();
  } catch (err) {
    say(err);
  }
  draw();
}

follow.addEventListener("click", () =>
  run(async () => {
    following = (await setRelation("follows", name, !following)).includes(name);
  }),
);
block.addEventListener("click", () =>
  run(async () => {
    blocked = (await setRelation("blocks", name, !blocked)).includes(name);
    if (blocked) following = false; // blocking also stops following
  }),
);
form?.addEventListener("submit", (event) => {
  event.preventDefault();
  const ruleset = /** @type {HTMLSelectElement} */ (document.getElementById("challenge-ruleset")).value;
  run(async () => {
    const table = await api("/api/tables/", { ruleset, challenge: name });
    location.assign(`/g/${table.id}/`);
  });
});
draw();
