// The few DOM helpers every page and board module uses: the page's element by id,
// and builders for an HTML element, a button and an SVG element. Attributes that
// are null or undefined are left out.

export const SVG_NS = "http://www.w3.org/2000/svg";

/** @typedef {string | number | null | undefined} AttrValue */
/** @typedef {Record<string, AttrValue>} Attrs */
/** @typedef {string | number | Node | (string | Node)[] | null | undefined} Content */

/**
 * The page's element with this id, or null. `type` (HTMLInputElement, ...) names
 * what it is where more than an HTMLElement is needed; an element of another type
 * is an error.
 * @template {HTMLElement} [T=HTMLElement]
 * @param {string} id
 * @param {{ new (): T, prototype: T }} [type]
 * @returns {T}
 */
export function $(id, type) {
  const node = document.getElementById(id);
  if (type && node && !(node instanceof type)) throw new TypeError(`#${id} is not a ${type.name}`);
  return /** @type {T} */ (node);
}

/**
 * @param {Element} node
 * @param {Attrs} attrs
 */
function setAttrs(node, attrs) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null) node.setAttribute(name, String(value));
  }
}

/**
 * An HTML element: `cls` its class ("" for none); `content` its text (a string or
 * a number) or its children (a node, or a list of nodes and strings); `attrs` the
 * other attributes. Append it with `parent.appendChild(h(...))`, which returns it.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string} [cls]
 * @param {Content} [content]
 * @param {Attrs} [attrs]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, cls = "", content = null, attrs = {}) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (Array.isArray(content)) node.append(...content);
  else if (content instanceof Node) node.append(content);
  else if (content !== null && content !== undefined) node.textContent = String(content);
  setAttrs(node, attrs);
  return node;
}

/**
 * A button (type="button") that calls `onClick` when clicked; `label` as `h`'s content.
 * @param {Content} label
 * @param {(event: MouseEvent) => void} onClick
 * @param {string} [cls]
 * @param {Attrs} [attrs]
 * @returns {HTMLButtonElement}
 */
export function button(label, onClick, cls = "button small", attrs = {}) {
  const node = h("button", cls, label, { type: "button", ...attrs });
  node.addEventListener("click", onClick);
  return node;
}

/**
 * An SVG element with attributes, appended to `parent` when one is given.
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @param {Element | null} [parent]
 * @returns {SVGElementTagNameMap[K]}
 */
export function svgEl(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  if (parent) parent.appendChild(node);
  return node;
}

/** @typedef {HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement} Field */

/** A field's name for finding it again in a fresh copy of the page: its test id or id. */
function fieldKey(/** @type {Element} */ node) {
  return node instanceof HTMLElement ? node.dataset.testid || node.id || "" : "";
}

/** Whether the person changed `field` from what the server rendered (not sent yet). */
function changed(/** @type {Field} */ field) {
  if (field instanceof HTMLSelectElement) return [...field.options].some((o) => o.selected !== o.defaultSelected);
  if (field instanceof HTMLInputElement && ["checkbox", "radio"].includes(field.type)) return field.checked !== field.defaultChecked;
  return field.value !== field.defaultValue;
}

/**
 * Swap `current` (a live part of the page) for `fresh` (the same part, fetched
 * again), keeping what the person is in the middle of: each form field they
 * changed and have not sent keeps their value over the server's (fields they
 * did not touch show the server's), and the focus (with the caret) stays on
 * the same field. A push that re-reads the page (another club's lineup, a
 * table starting anywhere) must not empty a half-filled form.
 * @param {HTMLElement} current
 * @param {HTMLElement} fresh
 */
export function replaceKeepingInput(current, fresh) {
  /** @type {Map<string, Field>} */
  const typed = new Map();
  for (const field of current.querySelectorAll("input, textarea, select")) {
    const k = fieldKey(field);
    const f = /** @type {Field} */ (field);
    if (k && !(f instanceof HTMLInputElement && f.type === "hidden") && changed(f)) typed.set(k, f);
  }
  const active = document.activeElement;
  const focused = active && current.contains(active) ? fieldKey(active) : "";
  const caret = active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement ? caretOf(active) : null;
  current.replaceWith(fresh);
  const find = (/** @type {string} */ k) => fresh.querySelector(`[data-testid="${CSS.escape(k)}"], #${CSS.escape(k)}`);
  for (const [k, old] of typed) {
    const field = find(k);
    if (field instanceof HTMLInputElement && ["checkbox", "radio"].includes(field.type) && old instanceof HTMLInputElement) field.checked = old.checked;
    else if (field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement || field instanceof HTMLSelectElement) field.value = old.value;
  }
  const target = focused ? find(focused) : null;
  if (!(target instanceof HTMLElement)) return;
  target.focus({ preventScroll: true });
  if (caret && (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement)) {
    try {
      target.setSelectionRange(caret[0], caret[1]);
    } catch {
      // a field without a caret (a number field): the focus is enough
    }
  }
}

/** Where the caret (or selection) is in a text field; null where it has none. */
function caretOf(/** @type {HTMLInputElement | HTMLTextAreaElement} */ field) {
  try {
    return field.selectionStart === null ? null : [field.selectionStart, field.selectionEnd ?? field.selectionStart];
  } catch {
    return null;
  }
}
