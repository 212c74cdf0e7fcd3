// The Malefiz die: an SVG face that tumbles for a moment whenever someone rolls.
import { h, svgEl } from "../dom.js";
import { fmt, gettext } from "../socket.js";

const PIPS = {
  1: [[5, 5]],
  2: [[3, 3], [7, 7]],
  3: [[3, 3], [5, 5], [7, 7]],
  4: [[3, 3], [7, 3], [3, 7], [7, 7]],
  5: [[3, 3], [7, 3], [5, 5], [3, 7], [7, 7]],
  6: [[3, 2.8], [7, 2.8], [3, 5], [7, 5], [3, 7.2], [7, 7.2]],
};
const TUMBLE_MS = 700;
const FACE_MS = 80;

function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** A die in `parent`. `show` sets a face at once; `roll` tumbles, then shows the value. */
export function createDie(parent) {
  const el = h("div", "mz-die", null, { "data-testid": "die" });
  // Named from the start: a replay may tumble it before any face was shown.
  const svg = svgEl("svg", { viewBox: "0 0 10 10", role: "img", "aria-label": gettext("The die has not been rolled yet.") }, el);
  svgEl("rect", { x: 0.5, y: 0.5, width: 9, height: 9, rx: 1.8, class: "mz-die-face" }, svg);
  const pips = svgEl("g", { class: "mz-pips" }, svg);
  parent.append(el);
  let timer = null;
  let settle = null;

  function face(n) {
    pips.replaceChildren();
    for (const [cx, cy] of PIPS[n] || []) svgEl("circle", { cx, cy, r: 0.95 }, pips);
  }

  function show(n, colour = "", old = false) {
    if (timer) return; // a tumble in progress ends on its own value
    face(n);
    el.dataset.value = n ?? "";
    el.dataset.colour = colour;
    el.classList.toggle("old", !!old);
    svg.setAttribute("aria-label", n ? fmt(gettext("Die: %(n)s"), { n }) : gettext("The die has not been rolled yet."));
  }

  /** Tumble, then settle on `n`; resolves when the value shows. */
  function roll(n, colour) {
    if (timer) {
      clearInterval(timer);
      timer = null;
      settle?.();
    }
    el.dataset.colour = colour;
    el.classList.remove("old");
    if (reducedMotion()) {
      show(n, colour);
      return Promise.resolve();
    }
    el.dataset.value = "";
    el.classList.add("rolling");
    let last = 0;
    timer = setInterval(() => {
      let f = 1 + Math.floor(Math.random() * 6);
      if (f === last) f = (f % 6) + 1;
      last = f;
      face(f);
    }, FACE_MS);
    return /** @type {Promise<void>} */ (new Promise((resolve) => {
      const done = setTimeout(() => {
        clearInterval(timer);
        timer = null;
        settle = null;
        el.classList.remove("rolling");
        show(n, colour);
        resolve();
      }, TUMBLE_MS);
      settle = () => {
        clearTimeout(done);
        el.classList.remove("rolling");
        resolve();
      };
    }));
  }

  return { el, show, roll, busy: () => timer !== null };
}
