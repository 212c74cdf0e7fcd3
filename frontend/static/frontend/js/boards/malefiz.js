// Malefiz board: fields and edges from the view, four houses, a die; roll, move, take and place barricades.
import { drawMark, COLOUR_SHAPE } from "./seat-marks.js";
import { button, h, svgEl } from "../dom.js";
import { activate, animateHops, dismissOn, group, key, makeSvg, trail } from "./toolkit.js";
import { fmt, gettext, toast } from "../socket.js";
import { createDie } from "./malefiz-die.js";
import { createForcedToggle } from "./malefiz-forced.js";

const CELL = 10;
const TOP = 15.4; // board units above row 1 the picture starts (room for the column letters)
const W = 18 * CELL;
const HOUSE_DY = 2.25 * CELL; // house centre below row 1
const HOUSE_W = 3.2 * CELL;
const HOUSE_H = 2.7 * CELL;
const H = (TOP - 1) * CELL + HOUSE_DY + HOUSE_H / 2 + 1;
const SLOTS = [[-8, -6.5], [8, -6.5], [0, 0], [-8, 6.5], [8, 6.5]]; // five pieces like a die's five
const HOP_MS = 170;
const FLY_MS = 520;
const LETTERS = "abcdefghijklmnopq";
const REASON_LAST_SEAT = "every other player left the game";

const P = ([x, y]) => [x * CELL, (TOP - y) * CELL];
const houseCentre = (entry) => [entry[0] * CELL, (TOP - 1) * CELL + HOUSE_DY];
const slotPoint = (entry, i) => {
  const [cx, cy] = houseCentre(entry);
  const [dx, dy] = SLOTS[Math.min(i, SLOTS.length - 1)];
  return [cx + dx, cy + dy];
};
const at = (el, [x, y]) => el.setAttribute("transform", `translate(${x} ${y})`);

export function fieldName([x, y]) {
  return `${LETTERS[x - 1]}${y}`;
}

function place(field, goal) {
  return key(field) === key(goal) ? gettext("the goal") : fieldName(field);
}

export function describe(item, { seatName }) {
  const player = typeof item.seat === "number" ? seatName(item.seat) : "";
  switch (item.type) {
    case "moved": {
      const fromHouse = item.from === "house";
      const params = {
        player,
        n: fromHouse ? item.path.length : item.path.length - 1,
        from: fromHouse ? gettext("house") : fieldName(item.from),
        to: place(item.to, [9, 14]),
      };
      if (typeof item.knocked === "number") {
        return fmt(gettext("%(player)s: %(n)s, %(from)s → %(to)s, sends %(victim)s home"), {
          ...params,
          victim: seatName(item.knocked),
        });
      }
      return fmt(gettext("%(player)s: %(n)s, %(from)s → %(to)s"), params);
    }
    case "passed":
      return fmt(gettext("%(player)s rolled %(n)s, cannot move and passes."), { player, n: item.roll });
    case "barricade_taken":
      return fmt(gettext("%(player)s takes the barricade on %(at)s."), { player, at: fieldName(item.at) });
    case "barricade_placed":
      return fmt(gettext("%(player)s places the barricade on %(at)s."), { player, at: fieldName(item.at) });
    case "left":
      if (item.barricade_returned) {
        return fmt(gettext("%(player)s left the game; the barricade goes back to %(at)s."), {
          player,
          at: fieldName(item.barricade_returned),
        });
      }
      return fmt(gettext("%(player)s left the game; their pieces leave the board."), { player });
    case "won":
      if (item.reason === REASON_LAST_SEAT) return fmt(gettext("%(player)s is the last player left and wins."), { player });
      return fmt(gettext("%(player)s reached the goal and wins!"), { player });
  }
  return null;
}

/** An action in the typed notation (house–c3, c3–e5, e5–the goal; a barricade's field). */
export function actionText(action) {
  if (action.type === "roll") return gettext("roll");
  if (action.type === "move") {
    const from = action.from === "house" ? gettext("house") : fieldName(action.from);
    return `${from}–${place(action.to, [9, 14])}`;
  }
  if (action.type === "barricade") return fmt(gettext("barricade on %(at)s"), { at: fieldName(action.to) });
  return action.type;
}

export const moveHelp = gettext("roll; then from–to, e.g. house–c3, c3–e5 or e5–goal; a barricade: its field, e.g. g7.");

function parseField(text) {
  if (text === "goal") return [9, 14];
  const m = /^([a-z])(\d{1,2})$/.exec(text);
  return m && LETTERS.indexOf(m[1]) >= 0 ? [LETTERS.indexOf(m[1]) + 1, Number(m[2])] : null;
}

/** A typed move (see docs/rules/malefiz.md) as a legal action, or {error}. */
export function parseMove(text, state) {
  const t = text.trim().toLowerCase();
  const legal = state.legal || [];
  const bad = { error: fmt(gettext("%(move)s is not a legal move now."), { move: text.trim() }) };
  if (t === "roll" || t === "r") return legal.some((a) => a.type === "roll") ? { action: { type: "roll" } } : bad;
  const parts = t.split(/\s*(?:[–\-→>]|\s)\s*/).filter(Boolean);
  const fields = parts.map((p) => (p === "house" || p === "h" ? "house" : parseField(p)));
  if (!parts.length || parts.length > 2 || fields.some((f) => !f)) {
    return { error: gettext("Write roll, a move as from–to (house–c3, c3–e5, e5–goal), or a barricade's field (g7).") };
  }
  const same = (a, b) => (a === "house" || b === "house" ? a === b : key(a) === key(b));
  const found = parts.length === 1
    ? legal.find((a) => a.type === "barricade" && same(a.to, fields[0]))
    : legal.find((a) => a.type === "move" && same(a.from, fields[0]) && same(a.to, fields[1]));
  return found ? { action: found } : bad;
}

/** The position as text: the die, each side's pieces, the barricades. */
export function textView(state, { seatName }) {
  const v = state.view;
  const lines = v.pieces.map((p) =>
    fmt(gettext("%(player)s (%(colour)s): %(home)s in the house; on the board: %(fields)s"), {
      player: seatName(p.seat), colour: v.houses[p.seat]?.colour ?? "", home: p.home, fields: p.fields.map(fieldName).join(", ") || "—",
    }),
  );
  lines.push(fmt(gettext("Barricades: %(fields)s"), { fields: v.barricades.map(fieldName).join(", ") }));
  if (v.roll) lines.push(fmt(gettext("Die: %(n)s"), { n: v.roll }));
  return lines;
}

export function createBoard(container, ctx) {
  container.classList.add("mz");
  const gameRoot = container.closest(".game");
  const bar = container.appendChild(h("div", "mz-bar"));
  const die = createDie(bar);
  const text = bar.appendChild(h("div", "mz-text"));
  const turnLine = text.appendChild(h("p", "mz-turn", null, { "data-testid": "mz-turn" }));
  const news = text.appendChild(h("p", "mz-news", null, { "aria-live": "polite", "data-testid": "mz-news" }));
  const roll = () => ctx.act({ type: "roll" });
  const rollBtn = bar.appendChild(button(gettext("Roll"), roll, "button primary mz-roll", { "data-testid": "roll" }));
  const stage = container.appendChild(h("div", "mz-stage"));
  const rolloffLine = container.appendChild(h("p", "mz-rolloff", null, { "data-testid": "rolloff" }));
  const leftLine = container.appendChild(h("p", "mz-left", null, { "data-testid": "left-seats" }));
  const forced = createForcedToggle(container, ctx);

  let last = null;
  let selected = null; // "house" or "x,y" of the picked piece
  let seenVersion = 0; // the newest event already animated

  const name = (seat) => {
    if (ctx.seatName) return ctx.seatName(seat);
    const s = ctx.seats()[seat];
    return s ? `${s.name}${s.user ? ` (${s.user})` : ""}` : String(seat + 1);
  };
  const colourOf = (view, seat) => view.houses[seat]?.colour ?? "";

  function render(state, info) {
    last = { state, info };
    const view = state.view;
    if (gameRoot) gameRoot.dataset.seatCount = view.seats;
    const event = info.event && info.event.version > seenVersion ? info.event : null;
    if (info.event) seenVersion = Math.max(seenVersion, info.event.version);
    const items = event ? event.events : [];
    const rolled = items.find((i) => i.type === "rolled");
    if (rolled) die.roll(rolled.value, colourOf(view, rolled.seat)).then(rerender);
    else showDie(view);
    if (event) announce(view, items);

    const svg = makeSvg(stage, W, H, gettext("Malefiz board"));
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    drawBoard(svg, view);
    if (view.last_move) trail(svg, view.last_move.path.map(P), `last-move mz-trail ${colourOf(view, view.last_move.seat)}`);
    const marks = group(svg, "mz-marks");
    const bars = drawBarricades(svg, view);
    const pieces = drawPieces(svg, view);
    const canAct = info.myTurn && !info.pending && !die.busy() && state.status === "active";
    const legal = canAct ? state.legal : [];
    if (view.phase === "move") offerMoves(svg, view, pieces, legal);
    if (view.phase === "barricade") offerPlaces(svg, view, legal);
    drawMarks(marks, view);
    if (event) animate(svg, view, items, pieces, bars);

    rollBtn.hidden = ctx.seat() === null || state.status !== "active" || view.left.includes(ctx.seat());
    rollBtn.disabled = !legal.some((a) => a.type === "roll");
    turnLine.textContent = turnText(state, view, info);
    rolloffLine.replaceChildren(...rolloffParts(view));
    leftLine.hidden = view.left.length === 0;
    leftLine.textContent = fmt(gettext("Left the game: %(players)s"), { players: view.left.map(name).join(", ") });
    container.classList.toggle("my-turn", !!info.myTurn);
    container.dataset.phase = view.phase;
    forced.update(state);
  }

  function rerender() {
    if (last) render(last.state, { ...last.info, event: null });
  }

  function showDie(view) {
    if (view.roll) die.show(view.roll, colourOf(view, view.turn));
    else if (view.last_roll) die.show(view.last_roll.value, colourOf(view, view.last_roll.seat), true);
    else die.show(null);
  }

  function turnText(state, view, info) {
    if (state.status !== "active") {
      if (view.outcome) return fmt(gettext("%(player)s won."), { player: name(view.outcome.winners[0]) });
      return state.status === "aborted" ? gettext("This table was closed.") : gettext("The game is over.");
    }
    const mine = info.myTurn;
    const who = name(view.turn);
    if (view.phase === "roll" && info.thinking) return info.thinking; // a bot's turn, as the status says
    if (view.phase === "roll") return mine ? gettext("Your turn: roll the die.") : fmt(gettext("%(player)s to roll."), { player: who });
    if (view.phase === "move") {
      if (mine) return fmt(gettext("You rolled %(n)s: pick a lit piece, then a lit field."), { n: view.roll });
      return fmt(gettext("%(player)s rolled %(n)s and moves."), { player: who, n: view.roll });
    }
    if (mine) return gettext("You took a barricade: place it on a lit field.");
    return fmt(gettext("%(player)s places the barricade."), { player: who });
  }

  function announce(view, items) {
    const lines = items.map((i) => describe(i, { seatName: name })).filter(Boolean);
    if (lines.length) news.textContent = lines.join(" · ");
    const passed = items.find((i) => i.type === "passed");
    if (passed) {
      const msg = passed.seat === ctx.seat()
        ? fmt(gettext("You rolled %(n)s and cannot move: your turn passes."), { n: passed.roll })
        : fmt(gettext("%(player)s rolled %(n)s and cannot move: the turn passes."), { player: name(passed.seat), n: passed.roll });
      toast(msg);
    }
  }

  function rolloffParts(view) {
    if (!view.rolloff.length) return [];
    /** @type {(string | Node)[]} */
    const parts = [gettext("Roll-off:") + " "];
    view.rolloff.forEach((round, r) => {
      if (r > 0) parts.push(` ${gettext("tie, again:")} `);
      for (const { seat, value } of round) {
        const label = `${ctx.seats()[seat]?.name ?? seat + 1} ${value}`;
        parts.push(h("span", `mz-pill ${colourOf(view, seat)}`, label, { title: name(seat) }));
      }
    });
    parts.push(h("strong", "", ` → ${fmt(gettext("%(player)s starts."), { player: name(view.starter) })}`));
    return parts;
  }

  function drawBoard(svg, view) {
    const b = view.board;
    const g = group(svg, "mz-board");
    for (const [a, c] of b.edges) {
      const [x1, y1] = P(a);
      const [x2, y2] = P(c);
      svgEl("line", { x1, y1, x2, y2, class: "mz-edge" }, g);
    }
    for (const h of b.houses) {
      const [x, y] = P(h.entry);
      svgEl("line", { x1: x, y1: y, x2: x, y2: houseCentre(h.entry)[1] - HOUSE_H / 2, class: `mz-edge mz-entry ${h.colour}` }, g);
    }
    for (const f of b.fields) {
      const [cx, cy] = P(f);
      const cls = f[1] === b.no_barricade_row ? "mz-field base" : "mz-field";
      svgEl("circle", { cx, cy, r: 3.4, class: cls, "data-field": key(f) }, g);
    }
    const [gx, gy] = P(b.goal);
    svgEl("circle", { cx: gx, cy: gy, r: 5.2, class: "mz-goal", "data-field": key(b.goal) }, g);
    const star = [];
    for (let i = 0; i < 10; i++) {
      const r = i % 2 ? 1.6 : 3.6;
      const a = (Math.PI / 5) * i - Math.PI / 2;
      star.push(`${gx + r * Math.cos(a)},${gy + r * Math.sin(a)}`);
    }
    svgEl("polygon", { points: star.join(" "), class: "mz-star" }, g);
    drawHouses(g, view);
    drawLabels(svg);
  }

  function drawHouses(g, view) {
    for (const h of view.board.houses) {
      const seat = view.houses.find((s) => s.colour === h.colour)?.seat;
      const [cx, cy] = houseCentre(h.entry);
      const used = seat !== undefined;
      const gone = used && view.left.includes(seat);
      const cls = `mz-house ${h.colour}${used ? "" : " unused"}${gone ? " left" : ""}${used && seat === view.turn ? " to-act" : ""}`;
      const box = group(g, cls);
      box.dataset.colour = h.colour;
      if (used) box.dataset.seat = seat;
      svgEl("rect", { x: cx - HOUSE_W / 2, y: cy - HOUSE_H / 2, width: HOUSE_W, height: HOUSE_H, rx: 4 }, box);
      SLOTS.forEach((_, i) => {
        const [sx, sy] = slotPoint(h.entry, i);
        svgEl("circle", { cx: sx, cy: sy, r: 2.2, class: "mz-slot" }, box);
      });
      drawMark(box, COLOUR_SHAPE[h.colour], cx, cy - HOUSE_H / 2 + 3.4, 1.9, "mz-mark mz-house-mark");
      if (gone) svgEl("text", { x: cx, y: cy + 1.4, class: "mz-gone" }, box).textContent = gettext("left");
    }
  }

  function drawLabels(svg) {
    const g = group(svg, "labels");
    for (let x = 1; x <= 17; x++) svgEl("text", { x: x * CELL, y: 3.6, class: "label" }, g).textContent = LETTERS[x - 1];
    for (let y = 1; y <= 14; y++) svgEl("text", { x: 3, y: (TOP - y) * CELL + 0.9, class: "label" }, g).textContent = String(y);
  }

  function drawBarricades(svg, view) {
    const g = group(svg, "mz-barricades");
    const out = new Map();
    for (const f of view.barricades) out.set(key(f), barricade(g, P(f), key(f)));
    return out;
  }

  function barricade(parent, point, field, extra = "") {
    const b = svgEl("g", { class: `mz-barricade${extra}`, "data-field": field }, parent);
    at(b, point);
    svgEl("rect", { x: -3.3, y: -3.3, width: 6.6, height: 6.6, rx: 1.5, class: "mz-bar-body" }, b);
    svgEl("path", { d: "M-2.1 -1.1H2.1M-2.1 1.1H2.1", class: "mz-bar-lines" }, b);
    return b;
  }

  function drawPieces(svg, view) {
    const g = group(svg, "pieces");
    const out = { board: new Map(), home: new Map() }; // "x,y" -> el; seat -> [els]
    for (const p of view.pieces) {
      const colour = colourOf(view, p.seat);
      const entry = view.houses[p.seat].entry;
      const homes = [];
      for (let i = 0; i < p.home; i++) homes.push(piece(g, p.seat, colour, slotPoint(entry, i), "house"));
      out.home.set(p.seat, homes);
      for (const f of p.fields) out.board.set(key(f), piece(g, p.seat, colour, P(f), key(f)));
    }
    return out;
  }

  function piece(parent, seat, colour, point, field) {
    const el = svgEl("g", { class: `piece seat-${seat} mz-piece ${colour}`, "data-field": field }, parent);
    at(el, point);
    svgEl("circle", { r: 3.1, class: "mz-body" }, el);
    // The colour's mark in place of the shine: the seats differ in shape too.
    drawMark(el, COLOUR_SHAPE[colour], 0, 0.1, 1.5, "mz-mark");
    return el;
  }

  function offerMoves(svg, view, pieces, legal) {
    const bySource = new Map();
    for (const a of legal) {
      if (a.type !== "move") continue;
      const src = a.from === "house" ? "house" : key(a.from);
      if (!bySource.has(src)) bySource.set(src, []);
      bySource.get(src).push(a);
    }
    if (selected && !bySource.has(selected)) selected = null;
    if (!selected && bySource.size === 1) selected = [...bySource.keys()][0];
    const seat = ctx.seat();
    for (const src of bySource.keys()) {
      const els = src === "house" ? pieces.home.get(seat) ?? [] : [pieces.board.get(src)];
      els.forEach((el, i) => {
        if (!el) return;
        el.classList.add("movable");
        if (src === selected && (src !== "house" || i === els.length - 1)) el.classList.add("selected");
        activate(el, () => {
          if (selected === src) return;
          selected = src;
          rerender();
        }, src === "house" ? gettext("a piece in your house") : fmt(gettext("your piece on %(field)s"), { field: fieldName(JSON.parse(`[${src}]`)) }));
      });
    }
    const g = group(svg, "targets");
    const reach = new Map(); // target -> sources
    for (const acts of bySource.values()) {
      for (const a of acts) {
        const k = key(a.to);
        if (!reach.has(k)) reach.set(k, []);
        reach.get(k).push(a);
      }
    }
    for (const [k, acts] of reach) {
      const mine = selected ? acts.find((a) => (a.from === "house" ? "house" : key(a.from)) === selected) : null;
      if (selected && !mine) continue;
      const target = mine ?? (acts.length === 1 ? acts[0] : null);
      const [cx, cy] = P(acts[0].to);
      hitArea(g, cx, cy, k);
      const dot = svgEl("circle", { cx, cy, r: 4.6, class: `target mz-target${selected ? "" : " reach"}`, "data-target": k }, g);
      activate(dot, () => {
        if (target) send({ type: "move", from: target.from, to: target.to });
        else toast(gettext("Several pieces can reach this field: pick the piece first."));
      }, fmt(gettext("move to %(field)s"), { field: fieldName(acts[0].to) }));
    }
  }

  /** An invisible circle as wide as a field's spacing under a lit field: a finger that
   * misses the small ring still hits it, and never a neighbour's (they only touch). */
  function hitArea(g, cx, cy, k) {
    const hit = svgEl("circle", { cx, cy, r: CELL / 2, class: "mz-hit", "data-hit": k }, g);
    hit.addEventListener("click", () => g.querySelector(`[data-target="${k}"]`)?.dispatchEvent(new MouseEvent("click", { bubbles: true })));
  }

  function offerPlaces(svg, view, legal) {
    const g = group(svg, "targets");
    for (const a of legal) {
      if (a.type !== "barricade") continue;
      const [cx, cy] = P(a.to);
      hitArea(g, cx, cy, key(a.to));
      const dot = svgEl("circle", { cx, cy, r: 4.4, class: "target mz-place", "data-target": key(a.to) }, g);
      activate(dot, () => send({ type: "barricade", to: a.to }), fmt(gettext("place the barricade on %(field)s"), { field: fieldName(a.to) }));
    }
  }

  function drawMarks(g, view) {
    const lm = view.last_move;
    if (lm?.barricade_placed) {
      const [cx, cy] = P(lm.barricade_placed);
      svgEl("circle", { cx, cy, r: 5, class: "mz-placed-mark" }, g);
    }
    if (view.barricade_in_hand) {
      const [x, y] = P(view.barricade_in_hand);
      barricade(g.parentNode, [x + 3.6, y - 3.6], "hand", " in-hand").dataset.testid = "barricade-in-hand";
    }
  }

  function send(action) {
    selected = null;
    if (!ctx.act(action)) rerender();
  }

  /** Replays the latest event: the walk, a knocked piece flying home, a barricade set down. */
  function animate(svg, view, items, pieces, bars) {
    const moved = items.find((i) => i.type === "moved");
    if (moved) {
      const el = pieces.board.get(key(moved.to));
      const points = moved.path.map(P);
      const homeNow = view.pieces[moved.seat]?.home ?? 0;
      if (moved.from === "house") points.unshift(slotPoint(view.houses[moved.seat].entry, homeNow));
      if (el) {
        el.parentNode.append(el); // above a piece it knocks out
        animateHops(el, points, { ms: HOP_MS });
      }
      const delay = HOP_MS * (points.length - 1);
      if (typeof moved.knocked === "number") {
        const homes = pieces.home.get(moved.knocked) ?? [];
        const flier = homes[homes.length - 1];
        if (flier) animateHops(flier, [P(moved.to), slotPoint(view.houses[moved.knocked].entry, homes.length - 1)], { ms: FLY_MS, delay, easing: "cubic-bezier(.3,0,.2,1)" });
      }
      if (items.some((i) => i.type === "barricade_taken")) {
        const ghost = barricade(svg.querySelector(".mz-barricades"), P(moved.to), "taken", " ghost");
        ghost.animate([{ opacity: 1 }, { opacity: 1, offset: 0.85 }, { opacity: 0 }], { duration: delay + 200, fill: "forwards" });
        svg.querySelector(".in-hand")?.animate([{ opacity: 0 }, { opacity: 0, offset: 0.8 }, { opacity: 1 }], { duration: delay + 250 });
      }
    }
    const placed = items.find((i) => i.type === "barricade_placed");
    if (placed && view.last_move) {
      const el = bars.get(key(placed.at));
      const from = P(view.last_move.to);
      animateHops(el, [[from[0] + 3.6, from[1] - 3.6], P(placed.at)], { ms: FLY_MS, easing: "cubic-bezier(.3,0,.2,1)" });
    }
  }

  dismissOn(stage, () => {
    if (selected) {
      selected = null;
      rerender();
    }
  });

  return { render };
}
