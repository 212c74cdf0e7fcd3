// One case: the moderator's action goes to POST /api/moderation/users/<name>/.
import { $ } from "./dom.js";
import { api, gettext, toast } from "./socket.js";

const form = $("moderate", HTMLFormElement);
const days = $("mod-days", HTMLInputElement);
const action = $("mod-action", HTMLSelectElement);

function showDays() {
  days.disabled = !["mute", "suspend"].includes(action.value);
}
action.addEventListener("change", showDays);
showDays();

form.addEventListener("submit", async (e) => {
  e.preventDefault();
  const body = { action: action.value, note: $("mod-note", HTMLInputElement).value };
  if (!days.disabled) body.days = Number(days.value);
  try {
    await api(`/api/moderation/users/${encodeURIComponent(form.dataset.username)}/`, body);
    $("mod-result").textContent = gettext("Done: the action is logged.");
    // The server's own words for the new status (the page names it as it does on load).
    $("case-status").textContent = (action.value === "clear" ? form.dataset.cleared : form.dataset.acted) || "";
  } catch (err) {
    $("mod-result").textContent = err.message;
    toast(err.message, "error");
  }
});
