// Das Idiotenspiel (Robin Hood vs. the Sheriff): the terrain map with unit counters.
// Set-up: pick a unit type, then a lit field. Movement: pick a unit, then a lit field
// (shield walls then pick a facing). Combat: pick an attacker, then a marked enemy (or
// a fight from the list); retreats, advances and Maid Marian's moves are lit fields.
import { button, h, svgEl } from "../dom.js";
import { group, key, makeSvg } from "./toolkit.js";
import { gridCursor } from "./grid-cursor.js";
import { drawMarks, drawUnits } from "./idiotenspiel-draw.js";
import { CELL, MARGIN, TERRAIN, drawMap, legend, unitLegend } from "./idiotenspiel-map.js";
import { promptText } from "./idiotenspiel-prompt.js";
import { counter, fightIcon } from "./idiotenspiel-units.js";
import { cap, describe as describeItem, fieldName, learnUnits, terrainName, typeName, unitName } from "./idiotenspiel-text.js";
import { createFightCard, createGlass } from "./idiotenspiel-widgets.js";
import { nextPlacement } from "./idiotenspiel-formation.js";
import { placePop } from "./idiotenspiel-pop.js";
import { fmt, gettext } from "../socket.js";

export { textView } from "./idiotenspiel-text.js";
export { moveHelp, parseMove } from "./idiotenspiel-typed.js";

export function describe(item, ctx) {
  return describeItem(item, ctx);
}

const PHASES = () => ({
  choose: gettext("Choosing sides"),
  setup: gettext("Set-up"),
  move: gettext("Movement"),
  grace: gettext("Movement: grace time"),
  combat: gettext("Combat"),
  marian: gettext("Maid Marian"),
});
const SCREEN_DIRS = [["NW", "N", "NE"], ["W", null, "E"], ["SW", "S", "SE"]];
const ARROWS = { NW: "\u2196", N: "\u2191", NE: "\u2197", W: "\u2190", E: "\u2192", SW: "\u2199", S: "\u2193", SE: "\u2198" };
const TURNED = { N: "S", NE: "SW", E: "W", SE: "NW", S: "N", SW: "NE", W: "E", NW: "SE" };

/** A click handler for a control on the board: the click goes no further (a click
 * on the board itself closes the popover). */
function only(onClick) {
  return (/** @type {Event} */ e) => {
    e.stopPropagation();
    onClick();
  };
}

/** An attack's `data-attack`: attacker>target, and ">capture" for a try to capture. */
function attackKey(a) {
  return `${a.unit}>${a.target}${a.capture ? ">capture" : ""}`;
}

/** The server's legal actions, sorted by what the page offers for them. */
function sortLegal(legal) {
  const by = (map, k, a) => (map.has(k) ? map.get(k).push(a) : map.set(k, [a]));
  const out = { units: new Map(), place: new Map(), fields: new Map(), choose: [], buttons: {} };
  for (const a of legal) {
    switch (a.type) {
      case "choose_setup": out.choose.push(a); break;
      case "place": by(out.place, a.unit, a); break;
      case "move": case "attack": by(out.units, a.unit, a); break;
      case "retreat": case "move_marian": by(out.fields, key(a.to), a); break;
      case "advance": out.buttons[a.yes ? "advance" : "stay"] = a; break;
      case "capture": out.buttons[a.yes ? "capture" : "eliminate"] = a; break;
      default: out.buttons[a.type] = a;
    }
  }
  return out;
}

export function createBoard(container, ctx) {
  container.classList.add("ids-board");
  const hud = container.appendChild(h("div", "ids-hud"));
  const head = hud.appendChild(h("div", "ids-head"));
  const title = head.appendChild(h("strong", "ids-title"));
  const prompt = head.appendChild(h("p", "ids-prompt", null, { "data-testid": "ids-prompt" }));
  const glass = createGlass(hud);
  const controls = container.appendChild(h("div", "ids-controls"));
  const tray = controls.appendChild(h("div", "ids-tray"));
  const buttons = controls.appendChild(h("div", "ids-buttons"));
  const attacksBox = container.appendChild(h("div", "ids-attacks"));
  const fightCard = createFightCard(container);
  // Scrolls sideways on a phone: focusable, so a keyboard can scroll it too.
  const mapWrap = container
    .appendChild(h("div", "ids-mapwrap", null, { tabindex: 0, role: "region", "aria-label": gettext("Map") }))
    .appendChild(h("div", "ids-map"));
  const pop = h("div", "ids-pop");
  pop.hidden = true;
  pop.addEventListener("click", (e) => e.stopPropagation());
  const legendBox = container.appendChild(h("details", "ids-legend"));
  legendBox.open = window.matchMedia("(min-width: 801px)").matches;
  legendBox.appendChild(h("summary", "", gettext("Legend: terrain and units")));
  const legendBody = legendBox.appendChild(h("div"));
  legend(legendBody, "ids-leg");
  unitLegend(legendBody);

  let built = null; // {mapId, flip, svg, layers, W, H}
  let sel = null; // the selected unit id (movement, combat) or waiting unit id (set-up)
  let popFor = null; // {field, kind: "stack" | "facing" | "targets", ...}
  let last = null;
  const cursor = { at: [0, 0] }; // the keyboard cursor, kept across redraws
  let lastFight = null;
  let shownVersion = 0; // the latest event already animated
  let fightsOpen = true; // the "Possible fights" list, as the player last left it
  let filling = false; // placing the rest by the formation, one a turn
  let filledAt = -1; // the version the last placement by formation was sent at

  function seatLabel(seat) {
    if (ctx.seatName) return ctx.seatName(seat);
    const s = ctx.seats()[seat];
    return s ? `${s.name}${s.user ? ` (${s.user})` : ""}` : sideNameOf(seat);
  }
  function sideNameOf(seat) {
    return seat === 0 ? gettext("Robin Hood") : gettext("Sheriff of Nottingham");
  }

  function flipFor(view) {
    const seat = ctx.seat();
    return seat !== null && seat !== undefined && ["N", "E"].includes(view.home[seat]);
  }

  function build(view, flip) {
    const { width: W, height: H } = view.map;
    const svg = makeSvg(mapWrap, W * CELL, H * CELL, fmt(gettext("Map: %(name)s"), { name: view.map.name }), MARGIN);
    mapWrap.append(pop);
    drawMap(svg, view.map, flip, "ids-map");
    const layers = {
      marks: group(svg, "ids-marks"),
      units: group(svg, "ids-units"),
      targets: group(svg, "ids-targets"),
    };
    svg.addEventListener("click", (e) => {
      e.stopPropagation();
      const f = fieldAt(e);
      if (f) clickField(f);
    });
    built = { mapId: view.map_id, flip, svg, layers, W, H };
    gridCursor(svg, { rows: H, cols: W, size: CELL, label: cursorLabel }, cursor);
  }

  /** What is on the field at a screen [row, col]: its name, terrain and units. */
  function cursorLabel(rc) {
    const { W, H, flip } = built;
    const [r, c] = rc;
    const at = /** @type {[number, number]} */ (flip ? [W - 1 - c, H - 1 - r] : [c, r]);
    const view = last?.state.view;
    const letter = view?.map.rows[at[1]]?.[at[0]];
    const here = (view?.units ?? []).filter((u) => u.alive && u.at && key(u.at) === key(at)).map((u) => unitName(u));
    const terrain = TERRAIN[letter] ? terrainName(TERRAIN[letter][0]) : "";
    return [fieldName(at), terrain, ...here].filter(Boolean).join(", ");
  }

  function fieldAt(e) {
    const { svg, W, H, flip } = built;
    const pt = svg.createSVGPoint();
    pt.x = e.clientX;
    pt.y = e.clientY;
    const p = pt.matrixTransform(svg.getScreenCTM().inverse());
    const sx = Math.floor(p.x / CELL);
    const sy = Math.floor(p.y / CELL);
    if (sx < 0 || sy < 0 || sx >= W || sy >= H) return null;
    return flip ? [W - 1 - sx, H - 1 - sy] : [sx, sy];
  }

  /** Top-left corner of a field on screen. */
  function corner([x, y]) {
    const { W, H, flip } = built;
    return flip ? [(W - 1 - x) * CELL, (H - 1 - y) * CELL] : [x * CELL, y * CELL];
  }
  function centre(f) {
    const [x, y] = corner(f);
    return [x + CELL / 2, y + CELL / 2];
  }

  // -- rendering ----------------------------------------------------------------------
  function render(state, info) {
    const view = state.view;
    learnUnits(view);
    const flip = flipFor(view);
    if (!built || built.mapId !== view.map_id || built.flip !== flip) build(view, flip);
    const legal = info.myTurn && !state.paused ? state.legal : [];
    const acts = sortLegal(legal);
    if (last && last.state.version !== state.version) popFor = null;
    last = { state, info, acts };
    if (view.phase === "setup") {
      if (!acts.place.has(sel)) sel = acts.place.keys().next().value ?? null;
    } else if (sel && !acts.units.has(sel)) {
      sel = null;
    }
    if (!sel && view.phase === "combat" && acts.units.size === 1) sel = acts.units.keys().next().value;
    const fight = [...view.last].reverse().find((i) => i.type === "fight");
    if (fight) lastFight = fight;
    const news = !!info.event && info.event.version !== shownVersion;
    if (news) shownVersion = info.event.version;
    fightCard.show(lastFight, news && info.event.events.some((i) => i.type === "fight"));
    glass.sync(state);
    container.classList.toggle("my-turn", !!info.myTurn);
    container.dataset.phase = view.phase;
    const geometry = { centre, corner, flip, sel, acts, popFor };
    drawMarks(built.layers.marks, view, geometry);
    const targets = drawTargets(view, acts);
    drawUnits(built.layers.units, view, geometry);
    built.targets = targets;
    renderHud(state, view, acts);
    renderAttacks(view, acts);
    renderPop(view, acts);
    if (news || !revealed) reveal(view);
    fillStep(state, view, acts, info);
  }

  /** While filling by formation: this turn's placement, once per version. */
  function fillStep(state, view, acts, info) {
    if (view.phase !== "setup" || state.status !== "active") filling = false;
    if (!filling || !info.myTurn || info.pending || !acts.place.size || filledAt === state.version) return;
    const action = nextPlacement(view, ctx.seat(), acts.place);
    if (!action) return;
    filledAt = state.version;
    send(action);
  }

  /** On a narrow screen the map scrolls sideways: bring what just happened (or the
   * decision at hand) into view. */
  let revealed = false;
  function reveal(view) {
    const box = mapWrap.parentElement;
    if (box.scrollWidth <= box.clientWidth + 1) return;
    const p = view.combat && view.combat.pending;
    const spots = [];
    for (const item of view.last) {
      if (item.to) spots.push(item.to);
      else if (item.at) spots.push(item.at);
      else if (item.defender) spots.push(item.defender.at);
    }
    if (p) spots.push(...p.options, ...(p.field ? [p.field] : []));
    if (view.phase === "grace" && view.movement.field_worked_on) spots.push(view.movement.field_worked_on);
    if (!spots.length) return;
    revealed = true;
    const xs = spots.map((f) => centre(f)[0] + MARGIN);
    const mid = (Math.min(...xs) + Math.max(...xs)) / 2;
    const scale = mapWrap.clientWidth / (built.W * CELL + MARGIN);
    const left = mid * scale - box.clientWidth / 2;
    const shown = [box.scrollLeft, box.scrollLeft + box.clientWidth];
    if (mid * scale < shown[0] + 20 || mid * scale > shown[1] - 20) box.scrollTo({ left: Math.max(0, left), behavior: "smooth" });
  }

  function rerender() {
    if (last) render(last.state, last.info);
  }

  /** Lit fields for what the player can do now; returns field key -> handler. */
  function drawTargets(view, acts) {
    const g = built.layers.targets;
    g.replaceChildren();
    const handlers = new Map();
    const lit = (f, cls, handler) => {
      const [x, y] = corner(f);
      svgEl("rect", { x: x + 0.35, y: y + 0.35, width: CELL - 0.7, height: CELL - 0.7, rx: 1, class: `ids-target ${cls}`, "data-field": key(f) }, g);
      handlers.set(key(f), handler);
    };
    if (view.phase === "setup" && sel && acts.place.has(sel)) {
      for (const a of acts.place.get(sel)) {
        if (handlers.has(key(a.at))) continue;
        const all = acts.place.get(sel).filter((b) => key(b.at) === key(a.at));
        lit(a.at, "place", () => (a.facing ? askFacing(a.at, all) : send(a)));
      }
    }
    if (sel && acts.units.has(sel)) {
      const list = acts.units.get(sel);
      const groups = new Map();
      for (const a of list) {
        const at = a.type === "move" ? a.to : view.units.find((u) => u.id === a.target).at;
        const k = key(at);
        if (!groups.has(k)) groups.set(k, { at, actions: [] });
        groups.get(k).actions.push(a);
      }
      for (const [, { at, actions }] of groups) {
        if (actions[0].type === "move") {
          lit(at, "move", () => chooseMove(at, actions));
        } else {
          const ranged = actions[0].kind === "ranged";
          lit(at, ranged ? "attack ranged" : "attack melee", () => chooseAttack(at, actions));
          const [x, y] = corner(at);
          fightIcon(g, x + CELL - 2.4, y + 2.4, ranged, "ids-attack-icon");
        }
      }
    }
    for (const [a] of acts.fields.values()) lit(a.to, a.type === "retreat" ? "retreat" : "marian", () => send(a));
    if (acts.buttons.advance) {
      const p = view.combat.pending;
      lit(p.field, "advance", () => send(acts.buttons.advance));
    }
    return handlers;
  }

  // -- clicks -------------------------------------------------------------------------
  function clickField(f) {
    if (!last) return;
    const { state, acts } = last;
    const k = key(f);
    const handler = built.targets.get(k);
    if (handler) return handler();
    const here = state.view.units.filter((u) => u.alive && u.at && key(u.at) === k);
    const mine = here.filter((u) => acts.units.has(u.id));
    if (mine.length) {
      const i = mine.findIndex((u) => u.id === sel);
      sel = mine[(i + 1) % mine.length].id;
    } else {
      sel = state.view.phase === "setup" ? sel : null;
    }
    popFor = here.length > 1 || (here.length && !mine.length) ? { field: f, kind: "stack" } : null;
    rerender();
  }

  function chooseMove(at, actions) {
    const plain = actions.filter((a) => !a.with);
    const along = actions.filter((a) => a.with);
    if (plain.some((a) => a.facing)) return askFacing(at, plain, along);
    if (along.length) {
      popFor = { field: at, kind: "along", plain: plain[0], along: along[0] };
      return rerender();
    }
    send(plain[0]);
  }

  function chooseAttack(at, actions) {
    if (actions.length === 1) return send(actions[0]);
    popFor = { field: at, kind: "targets", actions };
    rerender();
  }

  function askFacing(at, actions, along = []) {
    popFor = { field: at, kind: "facing", actions, along };
    rerender();
  }

  function send(action) {
    if (ctx.act(action)) {
      popFor = null;
      if (action.type !== "place") sel = null;
    }
    rerender();
  }

  // -- the head-up display --------------------------------------------------------------
  function renderHud(state, view, acts) {
    const phases = PHASES();
    const phase = phases[view.phase] ?? view.phase;
    if (state.status !== "active") title.textContent = gettext("Game over");
    else title.textContent = view.turn ? fmt(gettext("Turn %(turn)s · %(phase)s"), { turn: view.turn, phase }) : phase;
    prompt.textContent = promptText(state, view, acts, seatLabel(state.to_act[0]), last.info.myTurn);
    tray.replaceChildren();
    buttons.replaceChildren();
    if (state.status !== "active") return;
    const offer = (label, action, cls, testid) =>
      buttons.appendChild(button(label, only(() => send(action)), cls, { "data-testid": testid }));
    for (const a of acts.choose) {
      const edge = { N: gettext("north"), S: gettext("south"), W: gettext("west"), E: gettext("east") };
      const side = a.side ?? view.home[ctx.seat()];
      const label = a.zone === "fortress"
        ? fmt(gettext("%(edge)s side, by the fortress"), { edge: cap(edge[side]) })
        : fmt(gettext("%(edge)s edge"), { edge: cap(edge[side]) });
      offer(label, a, "button small primary", `choose-${side}-${a.zone}`);
    }
    if (view.phase === "setup") renderTray(view, acts);
    const b = acts.buttons;
    if (b.end_movement) offer(gettext("End movement"), b.end_movement, "button primary", "end-movement");
    if (b.end_combat) offer(gettext("End combat"), b.end_combat, "button primary", "end-combat");
    if (b.roll) offer(gettext("Roll the die"), b.roll, "button primary", "roll");
    if (b.decline) offer(gettext("Decline"), b.decline, "button", "decline");
    if (b.advance) offer(gettext("Advance"), b.advance, "button primary", "advance");
    if (b.stay) offer(gettext("Stay"), b.stay, "button", "stay");
    if (b.capture) offer(gettext("Take prisoner"), b.capture, "button primary", "capture");
    if (b.eliminate) offer(gettext("Eliminate"), b.eliminate, "button", "eliminate");
    if (view.phase === "marian") {
      const m = view.units.find((u) => u.id === "m");
      const stay = m && acts.fields.get(key(m.at));
      if (stay) offer(gettext("Leave her here"), stay[0], "button", "marian-stay");
    }
  }

  function renderTray(view, acts) {
    // Maid Marian is the Sheriff's prisoner: he places her.
    const placer = (u) => (u.id === "m" && view.scenario === "marian" ? 1 : u.side);
    const waiting = (side) => view.units.filter((u) => u.alive && !u.at && placer(u) === side).length;
    tray.appendChild(h("p", "ids-left hint", fmt(gettext("Still to place: Robin %(robin)s · Sheriff %(sheriff)s"), { robin: waiting(0), sheriff: waiting(1) })));
    renderFormation(view, acts);
    if (!acts.place.size) return;
    const list = tray.appendChild(h("div", "ids-kinds"));
    for (const id of acts.place.keys()) {
      const u = view.units.find((v) => v.id === id);
      const same = view.units.filter((v) => v.alive && !v.at && v.side === u.side && v.type === u.type && v.leader === u.leader && v.name === u.name).length;
      const pick = only(() => {
        sel = id;
        popFor = null;
        rerender();
      });
      const b = list.appendChild(button("", pick, `ids-kind${id === sel ? " selected" : ""}`, {
        "data-testid": `kind-${u.type}${u.leader ? "-leader" : ""}`,
        "aria-pressed": id === sel ? "true" : "false",
      }));
      const icon = svgEl("svg", { viewBox: "-5.5 -5.5 11 11", class: "ids-kind-icon", "aria-hidden": "true" }, b);
      counter(icon, { ...u, at: null }, 0, 0, 10);
      b.appendChild(h("span", "", `${cap(u.name ? unitName(u) : typeName(u.type))} ×${same}`));
    }
  }

  /** The formation's controls: one placement, or all the rest (one a turn, as
   * placing alternates); the player may stop and place by hand at any time. */
  function renderFormation(view, acts) {
    const seat = ctx.seat();
    if (seat === null || seat === undefined || !view.units.some((u) => u.alive && !u.at && (u.id === "m" && view.scenario === "marian" ? 1 : u.side) === seat)) return;
    const row = tray.appendChild(h("div", "ids-formation"));
    if (filling) {
      row.append(
        h("span", "hint", gettext("Placing the rest by the default formation, one unit a turn…")),
        button(gettext("Stop, I place by hand"), only(() => { filling = false; rerender(); }), "button small", { "data-testid": "formation-stop" }),
      );
      return;
    }
    if (!acts.place.size) return;
    const one = only(() => {
      const action = nextPlacement(view, seat, acts.place);
      if (action) send(action);
    });
    const all = only(() => {
      filling = true;
      filledAt = -1;
      rerender();
    });
    row.append(
      button(gettext("Place one by formation"), one, "button small", { "data-testid": "formation-one" }),
      button(gettext("Fill the rest by formation"), all, "button small primary", { "data-testid": "formation-fill" }),
    );
  }

  /** Every fight the player may choose, as a list of buttons (twins in one field
   * against the same kind of target are offered once). */
  function renderAttacks(view, acts) {
    attacksBox.replaceChildren();
    const byId = new Map(view.units.map((u) => [u.id, u]));
    const seen = new Set();
    const all = [];
    for (const a of [...acts.units.values()].flat()) {
      if (a.type !== "attack") continue;
      const att = byId.get(a.unit);
      const tgt = byId.get(a.target);
      const twin = [att.type, att.leader, key(att.at), tgt.type, tgt.leader, key(tgt.at), a.kind, !!a.capture].join("|");
      if (seen.has(twin)) continue;
      seen.add(twin);
      all.push([a, att, tgt]);
    }
    if (!all.length) return;
    const box = attacksBox.appendChild(h("details", "", null, { "data-testid": "fights" }));
    box.open = fightsOpen;
    box.addEventListener("toggle", () => (fightsOpen = box.open));
    box.appendChild(h("summary", "", fmt(gettext("Possible fights (%(n)s)"), { n: all.length })));
    const list = box.appendChild(h("ul", "ids-attack-list"));
    for (const [a, att, tgt] of all) {
      const li = list.appendChild(h("li"));
      const label = fmt(a.kind === "ranged" ? gettext("%(a)s (%(af)s) shoots at %(d)s (%(df)s)") : gettext("%(a)s (%(af)s) attacks %(d)s (%(df)s)"), {
        a: cap(unitName(att)), af: fieldName(att.at), d: unitName(tgt), df: fieldName(tgt.at),
      });
      const text = a.capture ? fmt(gettext("%(fight)s, capturing on 6+"), { fight: label }) : label;
      li.appendChild(button(text, only(() => send(a)), `ids-attack-btn ${a.kind}`, { "data-attack": attackKey(a) }));
    }
  }

  // -- the popover beside a field ----------------------------------------------------------
  function renderPop(view, acts) {
    if (!popFor) {
      pop.hidden = true;
      return;
    }
    pop.replaceChildren();
    const { field, kind } = popFor;
    pop.appendChild(h("div", "ids-pop-title", fieldName(field)));
    if (kind === "stack") {
      const list = pop.appendChild(h("ul", "ids-pop-list"));
      for (const u of view.units.filter((v) => v.alive && v.at && key(v.at) === key(field))) {
        const li = list.appendChild(h("li"));
        let text = cap(unitName(u));
        if (u.leader && !u.name) text += ` (${gettext("leader")})`;
        if (u.type === "shieldwall" && u.facing) text += ` · ${u.facing}`;
        if (u.prisoner) text += ` · ${gettext("prisoner")}`;
        if (u.moved && (view.phase === "move" || view.phase === "grace")) text += ` · ${gettext("moved")}`;
        if (u.fights && view.phase === "combat") text += ` · ${gettext("fought")}`;
        if (acts.units.has(u.id)) {
          const pick = only(() => {
            sel = u.id;
            rerender();
          });
          li.appendChild(button(text, pick, `ids-pop-unit${u.id === sel ? " selected" : ""}`, { "data-unit": u.id }));
        } else {
          li.appendChild(h("span", `ids-pop-unit side-${u.side}`, text));
        }
      }
    } else if (kind === "facing") {
      pop.appendChild(h("p", "hint", gettext("Facing:")));
      const grid = pop.appendChild(h("div", "ids-facing-grid"));
      const flip = built.flip;
      for (const row of SCREEN_DIRS) {
        for (const dir of row) {
          if (!dir) {
            const cancel = only(() => {
              popFor = null;
              rerender();
            });
            grid.appendChild(button("\u00d7", cancel, "ids-facing-btn cancel", { title: gettext("Cancel") }));
            continue;
          }
          const facing = flip ? TURNED[dir] : dir;
          const a = popFor.actions.find((x) => x.facing === facing);
          const turn = only(() => {
            const withIt = popFor.along.find((x) => x.facing === facing);
            send(withIt ?? a);
          });
          const b = grid.appendChild(button(ARROWS[dir], turn, "ids-facing-btn", { "data-facing": facing, title: facing }));
          b.disabled = !a;
        }
      }
    } else if (kind === "targets") {
      for (const a of popFor.actions) {
        const t = view.units.find((u) => u.id === a.target);
        const label = a.kind === "ranged"
          ? fmt(a.capture ? gettext("Shoot at %(unit)s, capture on 6+") : gettext("Shoot at %(unit)s"), { unit: unitName(t) })
          : fmt(a.capture ? gettext("Attack %(unit)s, capture on 6+") : gettext("Attack %(unit)s"), { unit: unitName(t) });
        pop.appendChild(button(label, only(() => send(a)), "button small ids-pop-action", { "data-attack": attackKey(a) }));
      }
    } else if (kind === "along") {
      const m = popFor.along.with.map((id) => cap(unitName(id))).join(", ");
      const { along, plain } = popFor;
      pop.append(
        button(fmt(gettext("Move, taking %(units)s along"), { units: m }), only(() => send(along)), "button small primary ids-pop-action", { "data-testid": "move-with" }),
        button(gettext("Move alone"), only(() => send(plain)), "button small ids-pop-action", { "data-testid": "move-alone" }),
      );
    }
    pop.hidden = false;
    // Beside the field, never over the lit fields (the choices at hand).
    const avoid = [...built.targets.keys()].map((k) => k.split(",").map(Number));
    placePop(pop, { field, avoid, corner, cell: CELL, margin: MARGIN, totalW: built.W * CELL + MARGIN });
  }

  container.addEventListener("click", () => {
    if (popFor) {
      popFor = null;
      rerender();
    }
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && (popFor || sel)) {
      popFor = null;
      if (last && last.state.view.phase !== "setup") sel = null;
      rerender();
    }
  });

  return { render };
}
