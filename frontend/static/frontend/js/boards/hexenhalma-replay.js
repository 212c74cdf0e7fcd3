// Hexenhalma: standings, the rounds' matches, and a step-by-step replay of a match
// (witches moving, spells appearing and expiring, hits, bans, every witch's fate).
import { button, h, svgEl } from "../dom.js";
import { group, key } from "./toolkit.js";
import { api, fmt, gettext, toast } from "../socket.js";
import {
  boardIndex, boardSvg, centre, drawBan, drawGrid, fieldText, gameId, spellName, starPath, wavyPath,
} from "./hexenhalma-board.js";

const STEP_MS = 900;
const SIDES = ["A", "B"];

export function fateText(f) {
  if (!f) return gettext("on her way");
  return {
    goal: fmt(gettext("in goal (step %(step)s)"), f),
    burst: fmt(gettext("burst (step %(step)s)"), f),
    asleep: fmt(gettext("asleep (step %(step)s)"), f),
    out: fmt(gettext("out (step %(step)s)"), f),
    starved: f.step ? fmt(gettext("starved (step %(step)s)"), f) : gettext("starved: no orders"),
  }[f.fate] ?? f.fate;
}

function outReason(reason) {
  return {
    off_board: gettext("walked off the board"),
    no_field: gettext("went onto a non-field"),
    start_field: gettext("walked into a start field"),
    goal_locked: gettext("entered a goal too early"),
    goal_taken: gettext("entered a goal a teammate holds"),
    start_or_goal: gettext("flew onto a start or goal field"),
    banned_off: gettext("was banished off the board"),
  }[reason] ?? reason;
}

export function witchLabel(side, witch) {
  return `${SIDES[side]}${witch + 1}`;
}

/** One line per trace event, for the replay's step log. */
export function eventText(e) {
  const who = e.side !== undefined ? witchLabel(e.side, e.witch) : "";
  const by = e.by ? witchLabel(e.by[0], e.by[1]) : "";
  switch (e.type) {
    case "fly":
      return fmt(gettext("%(who)s flies (Beelzebub) to %(at)s."), { who, at: fieldText(e.to) });
    case "cast": {
      const text = fmt(gettext("%(who)s casts %(spell)s on %(at)s, live through step %(until)s."), { who, spell: spellName(e.spell), at: fieldText(e.at), until: e.until });
      return e.ban_to ? `${text} ${fmt(gettext("Its victims go to %(at)s."), { at: fieldText(e.ban_to) })}` : text;
    }
    case "hit": {
      const base = fmt(gettext("%(who)s is hit by %(spell)s at %(at)s (cast by %(by)s)."), { who, spell: spellName(e.spell), at: fieldText(e.at), by });
      if (e.spell === "B") return `${base} ${fmt(gettext("She is banished to %(at)s."), { at: fieldText(e.to) })}`;
      if (e.spell === "M") return `${base} ${fmt(gettext("Tiredness now %(n)s."), { n: e.tiredness })}`;
      return base;
    }
    case "immune":
      return fmt(gettext("%(who)s is immune: the %(spell)s at %(at)s does nothing."), { who, spell: spellName(e.spell), at: fieldText(e.at) });
    case "immunity":
      return fmt(gettext("%(who)s casts Immunzauber: immune through step %(until)s."), { who, until: e.until });
    case "lottery": {
      const [s, w, spell] = e.entrants[e.winner];
      return fmt(gettext("Several spells cast on %(at)s at once: the lottery picks %(who)s's %(spell)s."), { at: fieldText(e.at), who: witchLabel(s, w), spell: spellName(spell) });
    }
    case "expire":
      return fmt(gettext("The %(spell)s on %(at)s expires."), { spell: spellName(e.spell), at: fieldText(e.at) });
    case "fate":
      if (e.fate === "goal") return fmt(gettext("%(who)s reaches the goal %(at)s."), { who, at: fieldText(e.at) });
      if (e.fate === "burst") return fmt(gettext("%(who)s bursts."), { who });
      if (e.fate === "asleep") return fmt(gettext("%(who)s falls asleep (tiredness %(n)s)."), { who, n: e.tiredness });
      if (e.fate === "out") return fmt(gettext("%(who)s is out: she %(reason)s (%(at)s)."), { who, reason: outReason(e.reason), at: e.target ? fieldText(e.target) : "—" });
      if (e.reason === "no_orders") return fmt(gettext("%(who)s has no orders and starves."), { who });
      return fmt(gettext("%(who)s starves: her orders end."), { who });
    default:
      return null;
  }
}

/** The spells lying on the board after each step: frames[t] = Map(field -> spell). */
function spellFrames(trace) {
  const frames = [];
  let now = new Map();
  for (const fr of trace) {
    now = new Map(now);
    for (const e of fr.events) {
      if (e.type === "cast") now.set(key(e.at), { spell: e.spell, at: e.at, by: [e.side, e.witch], until: e.until, cast: fr.step, ban_to: e.ban_to });
      if (e.type === "expire") {
        const s = now.get(key(e.at));
        if (s && s.spell === e.spell && key(s.by) === key(e.by)) now.delete(key(e.at));
      }
    }
    frames.push(now);
  }
  return frames;
}

export function createResults(pane, ctx) {
  const standings = h("div", "hh-standings");
  const rounds = h("div", "hh-rounds");
  const player = h("div", "hh-player");
  pane.append(standings, rounds, player);
  const summaries = new Map(); // round -> its matches' records (from /records/?round=)
  let selected = null; // {round, match}
  let replay = null;
  let lastView = null;
  let wantLive = false; // a round was just resolved: play its replay

  function seatName(i) {
    const s = ctx.seats()[i];
    return s ? `${s.name}${s.user ? ` (${s.user})` : ""}` : String(i);
  }

  /** The records of one resolved round (at most 190 matches: one page). */
  async function roundSummaries(round) {
    if (!summaries.has(round)) {
      const page = await api(`/api/games/${gameId()}/records/?round=${round}&page_size=200`);
      summaries.set(round, page.results);
    }
    return summaries.get(round);
  }

  function drawStandings(view) {
    const table = h("table", "list hh-table", null, { "data-testid": "hh-standings" });
    const head = h("tr");
    [gettext("Rank"), gettext("Team"), gettext("In goal"), gettext("Points"), gettext("Won"), gettext("Drawn"), gettext("Lost")].forEach((t) => head.append(h("th", "", t)));
    table.append(head);
    for (const row of view.standings) {
      const tr = h("tr", row.seat === ctx.seat() ? "for-me" : "", null, { "data-seat": row.seat });
      [row.rank, seatName(row.seat), row.goals, row.points, row.won, row.drawn, row.lost].forEach((v) => tr.append(h("td", "", String(v))));
      table.append(tr);
    }
    standings.replaceChildren(h("h3", "", gettext("Standings")), table);
  }

  function drawRounds() {
    const view = lastView;
    if (!view) return;
    /** @type {HTMLElement[]} */
    const out = [h("h3", "", gettext("Matches"))];
    if (!view.results.length) out.push(h("p", "empty", gettext("No round has been resolved yet.")));
    for (const r of [...view.results].reverse()) {
      const list = h("ul", "hh-matches");
      r.matches.forEach((m, i) => {
        const mine = m.teams.includes(ctx.seat());
        const on = selected && selected.round === r.round && selected.match === i;
        const label = `${seatName(m.teams[0])}  ${m.score[0]} : ${m.score[1]}  ${seatName(m.teams[1])}`;
        const b = button(label, () => select(r.round, i, false), `hh-match${on ? " selected" : ""}${mine ? " mine" : ""}`, { "data-testid": `hh-match-${r.round}-${i}` });
        list.append(h("li", "", b));
      });
      out.push(h("h4", "", fmt(gettext("Round %(n)s"), { n: r.round })), list);
    }
    rounds.replaceChildren(...out);
  }

  async function select(round, match, autoplay) {
    selected = { round, match };
    drawRounds();
    try {
      const sum = (await roundSummaries(round)).find((s) => s.match === match);
      if (!sum) return toast(gettext("No replay is stored for this match."), "error");
      const record = await api(`/api/games/${gameId()}/records/${sum.version}/${sum.index}/`);
      replay?.stop();
      replay = createPlayer(player, record, seatName);
      if (autoplay) replay.play();
    } catch (err) {
      toast(err.message, "error");
    }
  }

  function autoSelect() {
    const latest = lastView?.results.at(-1);
    if (!latest || (selected && !wantLive)) return;
    const live = wantLive;
    wantLive = false;
    const mine = latest.matches.findIndex((m) => m.teams.includes(ctx.seat()));
    select(latest.round, Math.max(mine, 0), live);
  }

  return {
    update(state, info) {
      const view = state.view;
      lastView = view;
      drawStandings(view);
      if (info.event?.events?.some((e) => e.type === "round_resolved")) wantLive = true;
      drawRounds();
      autoSelect();
    },
  };
}

/** The replay of one match record: board, controls, fates, the step's events. */
function createPlayer(root, record, seatName) {
  const trace = record.trace;
  const last = trace.length - 1;
  const spells = spellFrames(trace);
  const idx = boardIndex(record.board);
  let t = 0;
  let timer = null;

  const title = h("h3", "hh-replay-title", fmt(gettext("Round %(round)s, match %(n)s: %(a)s %(ga)s : %(gb)s %(b)s"), {
    round: record.round, n: record.match + 1, a: seatName(record.teams[0]), b: seatName(record.teams[1]), ga: record.score[0], gb: record.score[1],
  }));
  const wrap = h("div", "hh-svgwrap hh-replay");
  const first = iconButton("first", gettext("To the start"), () => go(0), "hh-first");
  const prev = iconButton("prev", gettext("Step back"), () => go(t - 1), "hh-prev");
  const playBtn = iconButton("play", gettext("Play"), () => (timer ? stop() : play()), "hh-play", "primary");
  const next = iconButton("next", gettext("Next step"), () => go(t + 1), "hh-next");
  const slider = h("input", "hh-slider", null, { type: "range", min: 0, max: last, value: 0, step: 1, "data-testid": "hh-slider", "aria-label": gettext("Step") });
  slider.addEventListener("input", () => {
    stop();
    go(Number(slider.value));
  });
  const stepLabel = h("span", "hh-step-label", null, { "data-testid": "hh-step-label" });
  const controls = h("div", "hh-controls");
  controls.append(first, prev, playBtn, next, slider, stepLabel);
  const fates = h("div", "hh-fates", null, { "data-testid": "hh-fates" });
  const log = h("ul", "hh-log", null, { "data-testid": "hh-log", "aria-live": "polite", tabindex: 0 });
  root.replaceChildren(title, wrap, controls, fates, log);

  const svg = boardSvg(wrap, idx.rows, idx.cols, gettext("Replay"));
  drawGrid(svg, idx, { marks: false });
  const layer = group(svg, "hh-frame-layer");
  const pieces = group(svg, "hh-pieces");
  const witches = trace[0].positions.map((list, side) =>
    list.map((_, w) => {
      const g = group(pieces, `hh-rwitch side-${side}`);
      g.dataset.witch = witchLabel(side, w);
      svgEl("circle", { r: 3.1, class: "hh-rwitch-body" }, g);
      svgEl("text", { y: 1.3, class: "hh-rwitch-no" }, g).textContent = w + 1;
      return g;
    }),
  );
  // Fates, immunities and last known fields, per frame.
  const fateAt = trace[0].positions.map((l) => l.map(() => null));
  const fates0 = [];
  for (const fr of trace) {
    for (const e of fr.events) if (e.type === "fate") fateAt[e.side][e.witch] = { ...e };
    fates0.push(fateAt.map((l) => l.map((f) => f && { ...f })));
  }

  function go(n) {
    t = Math.max(0, Math.min(last, n));
    draw();
  }

  function play() {
    if (t >= last) t = 0;
    setIcon(playBtn, "pause", gettext("Pause"));
    draw();
    timer = setInterval(() => {
      if (t >= last) return stop();
      go(t + 1);
    }, STEP_MS);
  }

  function stop() {
    clearInterval(timer);
    timer = null;
    setIcon(playBtn, "play", gettext("Play"));
  }

  function draw() {
    const fr = trace[t];
    slider.value = String(t);
    stepLabel.textContent = fmt(gettext("Step %(t)s of %(n)s"), { t, n: last });
    prev.disabled = t === 0;
    first.disabled = t === 0;
    next.disabled = t === last;
    layer.replaceChildren();
    // Spells lying on the board, fading towards their end.
    for (const s of spells[t].values()) {
      const [x, y] = centre(s.at);
      const g = group(layer, `hh-rspell spell-${s.spell}${s.cast === t ? " new" : ""}`);
      g.style.opacity = String(0.45 + 0.55 * ((s.until - t) / 5));
      svgEl("rect", { x: x - 4.2, y: y - 4.2, width: 8.4, height: 8.4, rx: 1.6 }, g);
      svgEl("text", { x, y: y + 2 }, g).textContent = s.spell;
      if (s.ban_to) drawBan(g, s.at, s.ban_to).classList.add("faint");
    }
    // What happened in this step: walks and flights, bans, hits.
    const before = t > 0 ? trace[t - 1].positions : null;
    const flights = new Set(fr.events.filter((e) => e.type === "fly").map((e) => `${e.side}-${e.witch}`));
    fr.positions.forEach((list, side) =>
      list.forEach((p, w) => {
        const from = before?.[side][w];
        const to = p ?? fr.events.find((e) => e.type === "fate" && e.side === side && e.witch === w && e.target)?.target;
        if (!from || !to || key(from) === key(to)) return;
        const hitBan = fr.events.find((e) => e.type === "hit" && e.spell === "B" && e.side === side && e.witch === w);
        const reached = hitBan ? hitBan.at : to;
        const [a, b] = [centre(from), centre(reached)];
        if (flights.has(`${side}-${w}`)) {
          svgEl("path", { d: wavyPath(a, b), class: `hh-rmove flight side-${side}` }, layer);
        } else {
          svgEl("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: `hh-rmove side-${side}` }, layer);
        }
      }),
    );
    for (const e of fr.events) {
      if (e.type === "hit" || e.type === "immune") {
        const [x, y] = centre(e.at);
        svgEl("circle", { cx: x, cy: y, r: 4.6, class: `hh-hit spell-${e.spell}${e.type === "immune" ? " bounced" : ""}` }, layer);
        if (e.type === "hit" && e.spell === "B") drawBan(layer, e.at, e.to).classList.add("live");
      }
      if (e.type === "fate" && e.fate === "out" && e.target) {
        const [x, y] = centre(e.target);
        svgEl("path", { d: `M${x - 3},${y - 3}L${x + 3},${y + 3}M${x + 3},${y - 3}L${x - 3},${y + 3}`, class: "hh-out-mark" }, layer);
      }
    }
    // The witches, spread out a little where several share a field.
    const crowd = new Map();
    fr.positions.forEach((list, side) => list.forEach((p, w) => p && crowd.set(key(p), [...(crowd.get(key(p)) ?? []), [side, w]])));
    fr.positions.forEach((list, side) =>
      list.forEach((p, w) => {
        const g = witches[side][w];
        const f = fates0[t][side][w];
        g.setAttribute("class", `hh-rwitch side-${side}${f ? ` fate-${f.fate}` : ""}${immune(side, w) ? " immune" : ""}`);
        if (!p) {
          g.style.opacity = "0";
          return;
        }
        g.style.opacity = "";
        const here = crowd.get(key(p));
        let [x, y] = centre(p);
        if (here.length > 1) {
          const i = here.findIndex(([s, ww]) => s === side && ww === w);
          const a = (2 * Math.PI * i) / here.length;
          x += 2.3 * Math.cos(a);
          y += 2.3 * Math.sin(a);
        }
        g.style.transform = `translate(${x}px, ${y}px)`;
        g.querySelector(".hh-mark")?.remove();
        if (f && f.fate === "goal") svgEl("path", { d: starPath([0, -4.6], 1.8), class: "hh-mark goal" }, g);
        if (f && f.fate === "asleep") svgEl("text", { x: 3.4, y: -2.6, class: "hh-mark asleep" }, g).textContent = "z";
        if (f && f.fate === "burst") svgEl("path", { d: starPath([0, 0], 4.4), class: "hh-mark burst" }, g);
      }),
    );
    drawFates();
    log.replaceChildren(...(fr.events.map(eventText).filter(Boolean).map((text) => h("li", "", text))));
    if (!log.children.length) log.append(h("li", "empty", t === 0 ? gettext("The witches stand on their start fields.") : gettext("Nothing special happens in this step.")));
  }

  function immune(side, w) {
    let until = 0;
    for (let s = 0; s <= t; s++) {
      for (const e of trace[s].events) if (e.type === "immunity" && e.side === side && e.witch === w) until = Math.max(until, e.until);
    }
    return until > t;
  }

  function tiredness(side, w) {
    let tired = 0;
    for (let s = 0; s <= t; s++) {
      for (const e of trace[s].events) if (e.type === "hit" && e.spell === "M" && e.side === side && e.witch === w) tired = e.tiredness;
    }
    return tired;
  }

  function drawFates() {
    const cols = record.teams.map((seat, side) => {
      const col = h("div", `hh-fate-col side-${side}`);
      col.append(h("h4", "", fmt(gettext("Side %(side)s: %(team)s"), { side: SIDES[side], team: seatName(seat) })));
      const ul = h("ul");
      fates0[t][side].forEach((f, w) => {
        const li = h("li", f ? `fate-${f.fate}` : "", null, { "data-witch": witchLabel(side, w) });
        let text = fateText(f);
        const tired = tiredness(side, w);
        if (!f && tired) text += ` · ${fmt(gettext("tiredness %(n)s"), { n: tired })}`;
        li.append(h("span", `hh-dot side-${side}`, String(w + 1)), text);
        ul.append(li);
      });
      col.append(ul);
      return col;
    });
    fates.replaceChildren(...cols);
  }

  draw();
  return { play, stop };
}

// Media-control icons as SVG (the fonts on many systems lack ⏮ and ⏸).
const ICONS = {
  first: "M3 2.5h2v11H3zM13 2.5 6 8l7 5.5z",
  prev: "M12 2.5 4 8l8 5.5z",
  play: "M4.5 2.5 13 8l-8.5 5.5z",
  pause: "M4 2.5h3v11H4zM9 2.5h3v11H9z",
  next: "M3 2.5 10 8l-7 5.5zM11 2.5h2v11h-2z",
};

function iconButton(name, label, onClick, testid, extra = "") {
  const b = button("", onClick, `button small hh-icon-btn ${extra}`.trim(), { "data-testid": testid });
  setIcon(b, name, label);
  return b;
}

function setIcon(b, name, label) {
  const svg = svgEl("svg", { viewBox: "0 0 16 16", class: "hh-icon", "aria-hidden": "true" });
  svgEl("path", { d: ICONS[name] }, svg);
  b.replaceChildren(svg);
  b.dataset.icon = name;
  b.title = label;
  b.setAttribute("aria-label", label);
}
