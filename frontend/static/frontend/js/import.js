// Import an exported game: the server queues it and replays it in the background
// (refusing anything tampered with); the page follows the import until it is done.
import { $ } from "./dom.js";
import { api, gettext } from "./socket.js";

const form = $("import-form");
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Ask for the import until the server has decided it; its last answer. Gives up
 * after the form's `data-deadline-seconds` (3 minutes): a server that never
 * decides (its import worker down) is told, not waited on for ever.
 * @param {number} id
 */
async function decided(id) {
  const deadline = Date.now() + Number(form.dataset.deadlineSeconds || 180) * 1000;
  let pause = 500;
  for (;;) {
    const job = await api(`/api/games/import/${id}/`);
    if (job.status !== "pending") return job;
    if (Date.now() + pause > deadline) {
      throw new Error(
        gettext("The server has not finished checking the game; try the import again later."),
      );
    }
    await wait(pause);
    pause = Math.min(pause * 2, 4000); // a long campaign takes a minute or so
  }
}

form.addEventListener("submit", async (e) => {
  e.preventDefault();
  const err = $("import-error");
  const status = $("import-status");
  err.hidden = true;
  const file = $("import-file", HTMLInputElement).files[0];
  if (!file) return;
  const button = form.querySelector("button");
  if (button) button.disabled = true;
  try {
    let data;
    try {
      data = JSON.parse(await file.text());
    } catch {
      throw new Error(gettext("That file is not JSON; choose a game exported from this site."));
    }
    status.textContent = gettext("Checking the game: every move is replayed…");
    status.hidden = false;
    const job = await decided((await api("/api/games/import/", data)).id);
    if (job.status === "failed") throw new Error(job.error.message);
    location.href = `/g/${job.game}/replay/`;
  } catch (ex) {
    err.textContent = ex.message;
    err.hidden = false;
    status.hidden = true;
  } finally {
    if (button) button.disabled = false;
  }
});
