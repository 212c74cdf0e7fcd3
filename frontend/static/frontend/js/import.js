// Import an exported game: the server replays it and refuses anything tampered with.
import { $ } from "./dom.js";
import { api, gettext } from "./socket.js";

const form = $("import-form");
form.addEventListener("submit", async (e) => {
  e.preventDefault();
  const err = $("import-error");
  err.hidden = true;
  const file = $("import-file", HTMLInputElement).files[0];
  if (!file) return;
  try {
    let data;
    try {
      data = JSON.parse(await file.text());
    } catch {
      throw new Error(gettext("That file is not JSON; choose a game exported from this site."));
    }
    const table = await api("/api/games/import/", data);
    location.href = `/g/${table.id}/replay/`;
  } catch (ex) {
    err.textContent = ex.message;
    err.hidden = false;
  }
});
