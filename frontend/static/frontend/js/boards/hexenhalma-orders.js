// Hexenhalma: a team's order editor. Per witch: a start field, then steps drawn
// by clicking fields (walks to N/E/S/W neighbours, Beelzebub flights anywhere),
// spells put on steps, ban targets picked on the board. Checked as it is drawn.
import { button, h, svgEl } from "../dom.js";
import { group, key } from "./toolkit.js";
import { fmt, gettext } from "../socket.js";
import {
  CELL, DIRS, GOAL, PLAIN, SPELLS, START, boardIndex, boardSvg, centre, drawGrid, drawOrder,
  fieldAt, fieldText, landings, paramsText, spellName, witchColour,
} from "./hexenhalma-board.js";
import { checkOrders, used } from "./hexenhalma-check.js";
import { gridCursor } from "./grid-cursor.js";

const ARROWS = { N: "↑", E: "→", S: "↓", W: "←" };

/** JSON with sorted keys: the server stores orders that way. */
export function canon(value) {
  if (Array.isArray(value)) return `[${value.map(canon).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canon(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

export function createOrders(pane, ctx, view) {
  const idx = boardIndex(view.board);
  const params = view.params;
  const stored = view.my_orders;
  let draft = Array.from({ length: params.witches }, (_, i) => clone(stored?.[i] ?? { start: null, steps: [] }));
  let active = 0;
  let sel = null; // selected step index; null: the last one
  let mode = "walk"; // "walk" | "fly" | "ban"
  let hint = "";
  let sent = null; // canonical JSON of orders sent, until the server answers
  let server = stored ? { kind: "ok", text: gettext("Your orders are saved on the server.") } : null;
  let last = { state: null, info: {} };
  let savedSeen = stored ? canon(stored) : null; // the server's orders the draft last took in

  const intro = h("p", "hh-intro");
  const witchList = h("div", "hh-witches", null, { "data-testid": "hh-witches" });
  const modes = h("div", "hh-segmented", null, { role: "radiogroup", "aria-label": gettext("What a click on the board does") });
  const modeButtons = {
    walk: button(gettext("Walk"), () => setMode("walk"), "hh-seg", { "data-testid": "hh-mode-walk" }),
    fly: button(gettext("Beelzebub (fly)"), () => setMode("fly"), "hh-seg", { "data-testid": "hh-mode-fly" }),
    ban: button(gettext("Ban target"), () => setMode("ban"), "hh-seg", { "data-testid": "hh-mode-ban" }),
  };
  modes.append(...Object.values(modeButtons));
  const wrap = h("div", "hh-svgwrap");
  const hintEl = h("p", "hint hh-hint", null, { "aria-live": "polite", "data-testid": "hh-hint" });
  const chips = h("ol", "hh-chips", null, { "data-testid": "hh-steps" });
  const spellBar = h("div", "hh-spellbar");
  const teamProblems = h("ul", "hh-problems", null, { "data-testid": "hh-team-problems" });
  const serverEl = h("p", "hh-server", null, { "aria-live": "polite", "data-testid": "hh-server-msg" });
  const undoBtn = button(gettext("Undo step"), undo, "button small", { "data-testid": "hh-undo" });
  const clearBtn = button(gettext("Clear witch"), clearWitch, "button small", { "data-testid": "hh-clear" });
  const submitBtn = button(gettext("Submit orders"), submit, "button primary", { "data-testid": "hh-submit" });
  const lockBtn = button(gettext("Lock orders"), lock, "button", { "data-testid": "hh-lock" });
  const actions = h("div", "row hh-actions");
  actions.append(undoBtn, clearBtn, submitBtn, lockBtn);
  pane.append(intro, witchList, modes, wrap, hintEl, chips, spellBar, teamProblems, actions, serverEl);

  const svg = boardSvg(wrap, idx.rows, idx.cols, gettext("Your orders"));
  gridCursor(svg, { rows: idx.rows, cols: idx.cols, size: CELL, label: cursorLabel });
  // The page shows the server's refusal as an error toast; repeat it here, next to the orders.
  const toastEl = document.getElementById("toast");
  const watcher = new MutationObserver(() => {
    if (sent === null || toastEl.hidden || toastEl.dataset.kind !== "error") return;
    server = { kind: "error", text: fmt(gettext("The server refused: %(message)s"), { message: toastEl.textContent }) };
    sent = null;
    redraw();
  });
  if (toastEl) watcher.observe(toastEl, { childList: true, characterData: true, subtree: true, attributes: true });
  svg.addEventListener("click", (e) => {
    const rc = fieldAt(svg, e, idx.rows, idx.cols);
    if (rc) clickField(rc);
  });

  /** The field under the keyboard cursor: where it is, what kind, whose witch starts there. */
  function cursorLabel(rc) {
    const kind = [gettext("no field"), gettext("field"), gettext("start field"), gettext("goal field")][idx.kindOf(rc)] ?? "";
    const who = owner(rc);
    const witch = who >= 0 ? fmt(gettext("witch %(n)s starts here"), { n: who + 1 }) : "";
    return [fieldText(rc), kind, witch].filter(Boolean).join(", ");
  }

  // -- editing ---------------------------------------------------------------
  function order() {
    return draft[active];
  }
  function selIndex() {
    const n = order().steps.length;
    return sel !== null && sel < n ? sel : n - 1;
  }
  function endOf(o) {
    return o.steps.length ? landings(o.start, o.steps).at(-1) : o.start;
  }
  function ended(o) {
    return o.start && o.steps.length > 0 && idx.kindOf(endOf(o)) === GOAL;
  }
  function owner(rc) {
    return draft.findIndex((o) => o.start && key(o.start) === key(rc));
  }

  function clickField(rc) {
    const o = order();
    const kind = idx.kindOf(rc);
    hint = "";
    const other = kind === START ? owner(rc) : -1;
    if (mode === "ban") {
      if (kind === PLAIN) {
        const step = o.steps[selIndex()];
        if (step?.spell === "B") step.ban_to = rc;
        mode = "walk";
      } else {
        hint = gettext("A ban target is a field that is neither a start nor a goal field.");
      }
    } else if (other >= 0 && other !== active) {
      selectWitch(other);
      return;
    } else if (!o.start || (kind === START && o.steps.length === 0)) {
      if (kind === START) o.start = rc;
      else hint = fmt(gettext("Click one of your start fields (dotted) to place witch %(n)s."), { n: active + 1 });
    } else if (ended(o)) {
      hint = gettext("Her path ends in the goal. Undo the last step to change it.");
    } else if (mode === "fly") {
      if (kind === PLAIN && key(rc) !== key(endOf(o))) {
        o.steps.push({ fly: rc });
        sel = null;
        mode = "walk";
      } else {
        hint = gettext("A Beelzebub flies to any field that is neither a start nor a goal field.");
      }
    } else {
      const here = endOf(o);
      const dir = Object.keys(DIRS).find((d) => here[0] + DIRS[d][0] === rc[0] && here[1] + DIRS[d][1] === rc[1]);
      if (!dir) hint = gettext("Walk one field north, east, south or west, or switch to Beelzebub to fly.");
      else if (kind === START) hint = gettext("Start fields are entered only to start.");
      else {
        o.steps.push({ walk: dir });
        sel = null;
      }
    }
    redraw();
  }

  function setSpell(letter) {
    const step = order().steps[selIndex()];
    if (!step) return;
    delete step.ban_to;
    if (!letter || step.spell === letter) {
      delete step.spell;
      if (mode === "ban") mode = "walk";
    } else {
      step.spell = letter;
      mode = letter === "B" ? "ban" : mode === "ban" ? "walk" : mode;
    }
    redraw();
  }

  function setMode(name) {
    if (name === "ban" && order().steps[selIndex()]?.spell !== "B") {
      hint = gettext("Put a Bannzauber (B) on a step first; then pick its target.");
    } else {
      mode = name;
      hint = "";
    }
    redraw();
  }

  function selectWitch(i) {
    active = i;
    sel = null;
    mode = "walk";
    hint = "";
    redraw();
  }

  function undo() {
    const o = order();
    if (o.steps.length) o.steps.pop();
    else o.start = null;
    sel = null;
    if (mode === "ban") mode = "walk";
    redraw();
  }

  function clearWitch() {
    draft[active] = { start: null, steps: [] };
    sel = null;
    mode = "walk";
    redraw();
  }

  function submit() {
    const orders = clone(draft);
    if (ctx.act({ type: "orders", orders })) {
      const mine = (sent = canon(orders));
      server = { kind: "info", text: gettext("Sending…") };
      redraw();
      setTimeout(() => {
        if (sent !== mine) return;
        sent = null;
        server = { kind: "warn", text: gettext("No answer from the server yet: submit again if your orders do not show as saved.") };
        redraw();
      }, 10000);
    }
  }

  function lock() {
    const warn = last.state.view.my_orders
      ? gettext("Lock your orders? You cannot change them again this round.")
      : gettext("You have submitted no orders: if you lock now, your witches starve this round. Lock anyway?");
    if (confirm(warn)) ctx.act({ type: "lock" });
  }

  // -- drawing ---------------------------------------------------------------
  function redraw() {
    const view = last.state?.view ?? { my_orders: stored };
    const check = checkOrders(idx, params, draft);
    const saved = view.my_orders ? canon(view.my_orders) : null;
    const dirty = saved !== canon(draft);
    drawWitches(check);
    drawBoard(check);
    drawChips();
    drawSpells();
    Object.entries(modeButtons).forEach(([name, b]) => b.setAttribute("aria-pressed", String(name === mode)));
    modeButtons.ban.hidden = order().steps[selIndex()]?.spell !== "B";
    hintEl.textContent = hint || modeHint();
    teamProblems.replaceChildren(...check.team.map((m) => h("li", "", m)));
    undoBtn.disabled = !order().start;
    clearBtn.disabled = !order().start;
    const pending = sent !== null;
    submitBtn.disabled = pending || !dirty;
    lockBtn.disabled = pending || (dirty && !!view.my_orders);
    lockBtn.title = dirty && view.my_orders ? gettext("Submit your changes first.") : "";
    let msg = server;
    if (!sent && dirty && view.my_orders) msg = { kind: "warn", text: gettext("You have unsaved changes: submit them, or the saved orders count.") };
    else if (!sent && dirty) msg = server?.kind === "error" ? server : { kind: "warn", text: gettext("Nothing is saved yet: submit your orders, then lock them.") };
    serverEl.textContent = msg?.text ?? "";
    serverEl.dataset.kind = msg?.kind ?? "";
  }

  function modeHint() {
    const o = order();
    if (!o.start) return fmt(gettext("Click one of your start fields (dotted) to place witch %(n)s."), { n: active + 1 });
    if (mode === "ban") return fmt(gettext("Click the field the Bannzauber of step %(n)s sends its victims to."), { n: selIndex() + 1 });
    if (ended(o)) return gettext("She reaches the goal with her last step.");
    if (mode === "fly") return gettext("Click any field (not a start or goal field) to fly there.");
    return gettext("Click a neighbouring field to walk there; choose a spell below for the selected step.");
  }

  function drawWitches(check) {
    witchList.replaceChildren(
      ...draft.map((o, i) => {
        const card = button("", () => selectWitch(i), `hh-witch${i === active ? " active" : ""}${check.witches[i] ? " bad" : " good"}`, { "data-testid": `hh-witch-${i + 1}`, "aria-pressed": String(i === active) });
        card.style.setProperty("--wc", witchColour(i));
        const n = used(o);
        const counts = ["K", "M", "B", "I", "Z"].map((s) => `${s} ${params.spells[s] - n[s]}`).join(" · ");
        const steps = fmt(gettext("%(n)s steps (%(min)s–%(max)s), %(left)s left"), {
          n: o.steps.length, min: params.min_steps, max: params.max_steps, left: Math.max(params.max_steps - o.steps.length, 0),
        });
        card.append(
          h("span", "hh-witch-head", fmt(gettext("Witch %(n)s"), { n: i + 1 })),
          h("span", "hh-witch-counts", `${steps} · ${gettext("spells left:")} ${counts}`),
          h("span", "hh-witch-msg", check.witches[i] ?? (check.goals[i] ? gettext("Ready: she ends in the goal.") : gettext("Ready (she does not reach the goal)."))),
        );
        return card;
      }),
    );
  }

  function drawBoard(check) {
    svg.replaceChildren();
    drawGrid(svg, idx);
    const targets = group(svg, "hh-targets");
    for (const rc of targetFields()) {
      const [x, y] = centre(rc);
      svgEl("rect", { x: x - CELL / 2 + 0.9, y: y - CELL / 2 + 0.9, width: CELL - 1.8, height: CELL - 1.8, rx: 1.4, class: `hh-target ${mode}`, "data-target": key(rc) }, targets);
    }
    const paths = group(svg, "hh-paths");
    draft.forEach((o, i) => i !== active && drawOrder(paths, o, i));
    drawOrder(paths, order(), active, { active: true, selected: order().steps.length ? selIndex() : -1 });
    check.goals.forEach((g, i) => {
      if (!g) return;
      const [x, y] = centre(g.split(",").map(Number));
      const ring = svgEl("circle", { cx: x, cy: y, r: 4.2, class: "hh-goal-reached" }, paths);
      ring.style.setProperty("--wc", witchColour(i));
    });
  }

  function targetFields() {
    const o = order();
    const all = [];
    for (let r = 0; r < idx.rows; r++) for (let c = 0; c < idx.cols; c++) all.push([r, c]);
    if (mode === "ban") return all.filter((rc) => idx.kindOf(rc) === PLAIN);
    if (!o.start || o.steps.length === 0) {
      const free = all.filter((rc) => idx.kindOf(rc) === START && (owner(rc) < 0 || owner(rc) === active));
      if (!o.start) return free;
      if (mode === "walk") return [...free, ...neighbours(o.start)];
    }
    if (ended(o)) return [];
    const here = endOf(o);
    if (mode === "fly") return all.filter((rc) => idx.kindOf(rc) === PLAIN && key(rc) !== key(here));
    return neighbours(here);
  }

  function neighbours(here) {
    return Object.values(DIRS)
      .map(([dr, dc]) => [here[0] + dr, here[1] + dc])
      .filter((rc) => [PLAIN, GOAL].includes(idx.kindOf(rc)));
  }

  function drawChips() {
    const o = order();
    const items = [];
    if (o.start) items.push(h("li", "hh-chip start", `${gettext("Start")} ${fieldText(o.start)}`));
    const lands = o.start ? landings(o.start, o.steps) : [];
    o.steps.forEach((s, n) => {
      const move = s.fly ? `✈ ${fieldText(s.fly)}` : ARROWS[s.walk];
      let label = `${n + 1}. ${move}`;
      if (s.spell) label += ` · ${s.spell}${s.ban_to ? ` → ${fieldText(s.ban_to)}` : ""}`;
      const li = h("li", `hh-chip${n === selIndex() ? " selected" : ""}${idx.kindOf(lands[n]) === GOAL ? " goal" : ""}`);
      const b = button(label, () => {
        sel = n === sel ? null : n;
        if (mode === "ban" && o.steps[selIndex()]?.spell !== "B") mode = "walk";
        redraw();
      }, "hh-chip-btn", { "data-testid": `hh-step-${n + 1}`, "aria-pressed": String(n === selIndex()) });
      li.append(b);
      items.push(li);
    });
    if (!items.length) items.push(h("li", "hh-chip empty", gettext("No steps yet.")));
    chips.replaceChildren(...items);
  }

  function drawSpells() {
    const o = order();
    const n = selIndex();
    const step = o.steps[n];
    spellBar.replaceChildren();
    if (!step) return;
    const lands = landings(o.start, o.steps);
    const onGoal = idx.kindOf(lands[n]) === GOAL;
    const u = used(o);
    spellBar.append(h("span", "hh-spellbar-label", fmt(gettext("Spell on step %(n)s:"), { n: n + 1 })));
    const none = button(gettext("none"), () => setSpell(null), "hh-spell-btn", { "data-testid": "hh-spell-none", "aria-pressed": String(!step.spell) });
    spellBar.append(none);
    for (const s of SPELLS) {
      const left = params.spells[s] - u[s] + (step.spell === s ? 1 : 0);
      const b = button(`${s} (${left})`, () => setSpell(s), `hh-spell-btn spell-${s}`, {
        "data-testid": `hh-spell-${s}`, "aria-pressed": String(step.spell === s), title: spellName(s),
      });
      b.disabled = onGoal || (left <= 0 && step.spell !== s);
      spellBar.append(b);
    }
    if (onGoal) spellBar.append(h("span", "hint", gettext("No spell is cast on a goal field.")));
  }

  return {
    update(state, info) {
      last = { state, info };
      const view = state.view;
      intro.textContent = `${fmt(gettext("Round %(n)s: write your orders as side A (from the dotted start fields to the starred goals)."), { n: view.round })} ${paramsText(params)}.`;
      if (view.deadline) intro.textContent += ` ${fmt(gettext("Deadline: %(when)s."), { when: new Date(view.deadline).toLocaleString() })}`;
      intro.textContent += ` ${gettext("If time runs out before you lock, the orders you saved last are locked for you; with none saved, your witches starve.")}`;
      const saved = view.my_orders ? canon(view.my_orders) : null;
      if (sent !== null && saved === sent) {
        server = { kind: "ok", text: gettext("Saved. You can still change them until you lock.") };
        sent = null;
      } else if (saved !== null && saved !== savedSeen && saved !== canon(draft)) {
        // Orders saved from elsewhere (typed in the move box, another tab): the editor shows them.
        draft = Array.from({ length: params.witches }, (_, i) => clone(view.my_orders[i] ?? { start: null, steps: [] }));
        sel = null;
        mode = "walk";
        hint = "";
        sent = null;
        server = { kind: "ok", text: gettext("Saved. You can still change them until you lock.") };
      }
      savedSeen = saved;
      redraw();
    },
    destroy() {
      watcher.disconnect();
    },
  };
}

function clone(v) {
  return JSON.parse(JSON.stringify(v));
}
