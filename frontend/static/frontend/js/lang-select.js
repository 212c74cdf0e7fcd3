// Every page: choosing a language switches at once (the form's button is for
// pages without scripts). A module, not an onchange attribute: the
// Content-Security-Policy runs no inline handlers.
const select = /** @type {HTMLSelectElement | null} */ (document.getElementById("lang-select"));
select?.addEventListener("change", () => select.form?.submit());
