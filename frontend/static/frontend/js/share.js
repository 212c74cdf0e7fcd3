// The game page's "Embed" box: copies the <iframe> code to the clipboard.
import { gettext } from "./socket.js";

const code = /** @type {HTMLTextAreaElement} */ (document.getElementById("embed-code"));
const note = /** @type {HTMLElement} */ (document.getElementById("copy-embed-note"));

document.getElementById("copy-embed")?.addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText(code.value);
    note.textContent = gettext("Copied.");
  } catch {
    // No clipboard (an insecure origin, a refusal): leave it selected to copy by hand.
    code.select();
    note.textContent = gettext("Press Ctrl+C to copy.");
  }
});
