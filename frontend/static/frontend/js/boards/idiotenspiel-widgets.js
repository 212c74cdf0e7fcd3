// Das Idiotenspiel: the sandglass countdown and the fight card with its dice.
import { h, svgEl } from "../dom.js";
import { bonusText, cap, fightResult, score, unitName } from "./idiotenspiel-text.js";
import { fmt, gettext } from "../socket.js";

function clockText(secs) {
  return `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;
}

const GLASS = "M4 3H16C16 10 11.2 12.4 11.2 15C11.2 17.6 16 20 16 27H4C4 20 8.8 17.6 8.8 15C8.8 12.4 4 10 4 3Z";

/**
 * The sandglass: counts down to the server's phase deadline. The time left is the
 * server's deadline minus the server's "now" in the same snapshot, counted from the
 * moment this page received it (never the page's own wall clock).
 */
export function createGlass(parent) {
  const el = parent.appendChild(h("div", "ids-glass"));
  el.dataset.testid = "sandglass";
  const svg = svgEl("svg", { viewBox: "0 0 20 30", class: "ids-glass-icon", "aria-hidden": "true" }, el);
  const clip = svgEl("clipPath", { id: "ids-glass-clip" }, svgEl("defs", {}, svg));
  svgEl("path", { d: GLASS }, clip);
  const sand = svgEl("g", { "clip-path": "url(#ids-glass-clip)" }, svg);
  const top = svgEl("rect", { x: 0, width: 20, class: "ids-sand" }, sand);
  const bottom = svgEl("rect", { x: 0, width: 20, class: "ids-sand" }, sand);
  const stream = svgEl("line", { x1: 10, x2: 10, y1: 14, y2: 27, class: "ids-stream" }, sand);
  svgEl("path", { d: GLASS, class: "ids-glass-outline" }, svg);
  svgEl("path", { d: "M2.5 2.5H17.5M2.5 27.5H17.5", class: "ids-glass-frame" }, svg);
  const text = el.appendChild(h("div", "ids-glass-text"));
  const time = text.appendChild(h("strong", "ids-glass-time"));
  const label = text.appendChild(h("span", "ids-glass-label"));

  let end = null; // performance.now() at which the deadline passes, or null
  let total = 0;
  let seen = null;

  function draw(fraction) {
    const f = Math.max(0, Math.min(1, fraction));
    top.setAttribute("y", String(3 + (1 - f) * 12));
    top.setAttribute("height", String(f * 12));
    bottom.setAttribute("y", String(27 - (1 - f) * 11));
    bottom.setAttribute("height", String((1 - f) * 11));
  }

  function tick() {
    if (end === null) return;
    const left = Math.max(0, (end - performance.now()) / 1000);
    const secs = Math.ceil(left);
    time.textContent = clockText(secs);
    el.dataset.remaining = String(secs);
    el.classList.toggle("low", left <= 5);
    el.classList.toggle("out", left <= 0);
    stream.style.display = left > 0 ? "" : "none";
    if (left <= 0) label.textContent = gettext("Time is up!");
    draw(total ? left / total : 0);
  }

  /** Called on every render; restarts the countdown only for a new snapshot. */
  function sync(state) {
    const view = state.view;
    const clock = state.clock || {};
    const stamp = `${state.version}|${clock.now}|${clock.deadline}`;
    if (stamp === seen) return;
    seen = stamp;
    const moving = view.phase === "move" || view.phase === "grace";
    const running = state.status === "active" && !state.paused && moving && clock.timer === "phase" && !!clock.deadline;
    total = view.sandglass.seconds || 0;
    el.dataset.running = running ? "1" : "0";
    el.classList.toggle("running", running);
    el.classList.toggle("grace", view.phase === "grace");
    el.classList.remove("low", "out");
    if (running) {
      end = performance.now() + (Date.parse(clock.deadline) - Date.parse(clock.now));
      label.textContent = view.phase === "grace" ? gettext("Grace time") : gettext("Sandglass");
      tick();
      return;
    }
    end = null;
    delete el.dataset.remaining;
    stream.style.display = "none";
    const setting = view.sandglass.setting;
    if (!setting) {
      time.textContent = "\u221e";
      label.textContent = gettext("No sandglass");
      draw(1);
    } else {
      time.textContent = clockText(setting);
      label.textContent = state.paused ? gettext("Paused") : gettext("Sandglass (stopped)");
      draw(1);
    }
  }

  setInterval(tick, 200);
  return { sync };
}

const PIPS = {
  1: [[5, 5]], 2: [[2.8, 2.8], [7.2, 7.2]], 3: [[2.8, 2.8], [5, 5], [7.2, 7.2]],
  4: [[2.8, 2.8], [7.2, 2.8], [2.8, 7.2], [7.2, 7.2]],
  5: [[2.8, 2.8], [7.2, 2.8], [5, 5], [2.8, 7.2], [7.2, 7.2]],
  6: [[2.8, 2.6], [7.2, 2.6], [2.8, 5], [7.2, 5], [2.8, 7.4], [7.2, 7.4]],
};

function die(parent, value, side) {
  const svg = svgEl("svg", { viewBox: "0 0 10 10", class: `ids-die side-${side}`, role: "img" }, parent);
  face(svg, value);
  return svg;
}

function face(svg, value) {
  svg.replaceChildren();
  svgEl("rect", { x: 0.4, y: 0.4, width: 9.2, height: 9.2, rx: 1.8, class: "ids-die-body" }, svg);
  if (!value) {
    svgEl("text", { x: 5, y: 6.6, class: "ids-die-none" }, svg).textContent = "\u2013";
    svg.setAttribute("aria-label", gettext("no roll"));
    return;
  }
  for (const [x, y] of PIPS[value]) svgEl("circle", { cx: x, cy: y, r: 0.95, class: "ids-pip" }, svg);
  svg.setAttribute("aria-label", String(value));
}

/** The latest fight: both dice, every bonus with its reason, totals and the result. */
export function createFightCard(parent) {
  const el = parent.appendChild(h("div", "ids-fight"));
  el.hidden = true;
  el.dataset.testid = "fight";
  let shown = null;
  let timer = null;

  function side(box, s, ranged, who) {
    const col = box.appendChild(h("div", `ids-fighter side-${s.side}`));
    const d = die(col, s.declined ? null : s.die, s.side);
    const text = col.appendChild(h("div", "ids-fighter-text"));
    const line = text.appendChild(h("div", "ids-fighter-line"));
    line.appendChild(h("strong", "ids-fighter-name", cap(unitName(s))));
    line.appendChild(h("span", "ids-fighter-total", score(s, ranged)));
    const notes = [who, ...s.bonuses.map(bonusText)];
    if (s.total !== null && s.total !== undefined && !s.declined) {
      notes.push(fmt(gettext("total %(total)s"), { total: ranged ? s.counted : s.total }));
    }
    text.appendChild(h("small", "ids-fighter-notes", notes.join(" \u00b7 ")));
    return { d, value: s.declined ? null : s.die };
  }

  function show(item, animate) {
    if (!item) {
      el.hidden = true;
      return;
    }
    const same = shown && JSON.stringify(shown) === JSON.stringify(item);
    if (same && !animate) return;
    shown = item;
    el.hidden = false;
    el.replaceChildren();
    const ranged = item.kind === "ranged";
    const box = el.appendChild(h("div", "ids-fight-sides"));
    const dice = [side(box, item.attacker, ranged, gettext("attacker"))];
    box.appendChild(h("span", "ids-versus", gettext("vs")));
    dice.push(side(box, item.defender, ranged, gettext("defender")));
    const foot = el.appendChild(h("p", "ids-fight-foot"));
    foot.appendChild(h("small", "ids-fight-head", ranged ? gettext("Last fight: a shot") : gettext("Last fight: melee")));
    foot.appendChild(h("strong", "ids-fight-result", cap(fightResult(item))));
    if (animate) roll(dice);
  }

  function roll(dice) {
    clearInterval(timer);
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    el.classList.add("rolling");
    let n = 0;
    timer = setInterval(() => {
      n++;
      for (const { d, value } of dice) if (value) face(d, n >= 9 ? value : 1 + Math.floor(Math.random() * 6));
      if (n >= 9) {
        clearInterval(timer);
        el.classList.remove("rolling");
      }
    }, 70);
  }

  return { show };
}
