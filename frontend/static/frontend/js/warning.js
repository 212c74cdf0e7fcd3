// The warning banner's "Understood" (moderation/warning_banner.html): sent
// without leaving the page (POST /api/moderation/warnings/<id>/acknowledge/);
// the banner goes and the keyboard moves on to the page's content.
import { api } from "./socket.js";

const banner = document.getElementById("warning-banner");
const form = /** @type {HTMLFormElement | null} */ (document.getElementById("warning-ack"));
const error = /** @type {HTMLElement | null} */ (document.getElementById("warning-error"));

form?.addEventListener("submit", async (e) => {
  e.preventDefault();
  try {
    await api(new URL(form.action).pathname, {});
  } catch (err) {
    if (error) {
      error.textContent = err instanceof Error ? err.message : String(err);
      error.hidden = false;
    }
    return;
  }
  banner?.remove();
  document.getElementById("main")?.focus();
});
