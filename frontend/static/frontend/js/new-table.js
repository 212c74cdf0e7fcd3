// A lobby form that opens a new table: post it, then go to the game's page.
import { api } from "./socket.js";

/**
 * On `form`'s submit, creates the table that `body()` describes and opens its
 * page; a refusal shows in `error` (the server's message says what to change).
 * @param {HTMLElement} form
 * @param {HTMLElement} error
 * @param {() => object} body
 */
export function opensTable(form, error, body) {
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.hidden = true;
    try {
      const table = await api("/api/tables/", body());
      location.href = `/g/${table.id}/`;
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
    }
  });
}
