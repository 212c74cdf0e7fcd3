// The tournament form: only the fields of the chosen time control (days per
// move for correspondence, minutes for realtime, none without a limit) and of
// the chosen system (rounds for a Swiss). A hidden field is also disabled, so
// the form never sends a value the player could not see.
const form = /** @type {HTMLFormElement | null} */ (document.querySelector("[data-testid=tournament-form]"));

/** Show the labels whose `data-<key>` is `value`; hide and disable the others. */
function showOnly(key, value) {
  if (!form) return;
  for (const label of form.querySelectorAll(`label[data-${key}]`)) {
    const shown = /** @type {HTMLElement} */ (label).dataset[key] === value;
    /** @type {HTMLElement} */ (label).hidden = !shown;
    for (const input of label.querySelectorAll("input, select")) {
      /** @type {HTMLInputElement} */ (input).disabled = !shown;
    }
  }
}

if (form) {
  const clock = /** @type {HTMLSelectElement} */ (form.elements.namedItem("clock"));
  const system = /** @type {HTMLSelectElement} */ (form.elements.namedItem("system"));
  const update = () => {
    showOnly("clock", clock.value);
    showOnly("system", system.value);
  };
  clock.addEventListener("change", update);
  system.addEventListener("change", update);
  update();
  form.dataset.ready = "true"; // tests wait for this
}
