// Import an exported game: the server replays it and refuses anything tampered with.
import { api, gettext } from "./socket.js";

const form = document.getElementById("import-form");
form.addEventListener("submit", async (e) => {
  e.preventDefault();
  const err = document.getElementById("import-error");
  err.hidden = true;
  const file = document.getElementById("import-file").files[0];
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
