// Hexenhalma: the page's board module. Picks what the viewer needs: the game
// master's board editor, a team's order editor, the round's status, and the
// results with replays (a tab of their own, open to everyone).
import { button, h } from "../dom.js";
import { group } from "./toolkit.js";
import { fmt, gettext } from "../socket.js";
import { boardIndex, boardSvg, drawGrid, drawOrder, paramsText } from "./hexenhalma-board.js";
import { createEditor } from "./hexenhalma-editor.js";
import { createOrders } from "./hexenhalma-orders.js";
import { createResults } from "./hexenhalma-replay.js";
import { ordersText } from "./hexenhalma-typed.js";

export { moveHelp, parseMove } from "./hexenhalma-typed.js";

export function describe(item, { seatName }) {
  const team = (s) => seatName(s);
  switch (item.type) {
    case "round_opened":
      return fmt(gettext("Round %(n)s opened: a %(rows)s × %(cols)s board, %(witches)s witches per team, %(min)s–%(max)s steps."), {
        n: item.round, rows: item.board.rows, cols: item.board.cols, witches: item.params.witches, min: item.params.min_steps, max: item.params.max_steps,
      });
    case "orders":
      // Only the team itself is sent its orders: the line shows them as they are typed.
      if (!Array.isArray(item.orders)) return fmt(gettext("You submitted orders for round %(n)s."), { n: item.round });
      return fmt(gettext("You submitted orders for round %(n)s: %(orders)s."), { n: item.round, orders: ordersText(item.orders) });
    case "orders_submitted":
      return fmt(gettext("%(team)s submitted orders."), { team: team(item.seat) });
    case "locked":
      return fmt(gettext("%(team)s locked its orders."), { team: team(item.seat) });
    case "round_closed":
      return fmt(gettext("The game master closed round %(n)s."), { n: item.round });
    case "round_resolved":
      return fmt(gettext("Round %(n)s resolved: %(scores)s."), {
        n: item.round,
        scores: item.matches.map((m) => `${team(m.teams[0])} ${m.score[0]}:${m.score[1]} ${team(m.teams[1])}`).join("; "),
      });
    case "left":
      return fmt(gettext("%(team)s left: its witches starve from now on."), { team: team(item.seat) });
    case "finished":
      return gettext("The campaign is over.");
    default:
      return null;
  }
}

/** A seat's mark on its swatch: up to 20 teams outrun any set of colours, so each
 * carries its number, and the game master a star. */
export function seatMark(seat) {
  return seat === 0 ? "★" : String(seat);
}

/** The round's board as text: per row, its fields, start fields (S) and goals (G);
 * for a team, also the orders it has saved, in the typed notation. */
export function textView(state) {
  const view = state.view;
  if (!view.board) return [gettext("No board yet: the game master is drawing this round's board.")];
  const idx = boardIndex(view.board);
  const lines = [fmt(gettext("Round %(n)s, a %(rows)s × %(cols)s board. Fields per row as [row, column]; S start field, G goal."), { n: view.round, rows: idx.rows, cols: idx.cols })];
  for (let r = 0; r < idx.rows; r++) {
    const cells = [];
    for (let c = 0; c < idx.cols; c++) {
      const kind = idx.kindOf([r, c]);
      if (kind) cells.push(`${c}${["", "", " S", " G"][kind]}`);
    }
    lines.push(fmt(gettext("Row %(r)s: %(cells)s"), { r, cells: cells.join(", ") || "—" }));
  }
  if (view.my_orders && ["orders", "resolving"].includes(view.phase)) lines.push(fmt(gettext("Your saved orders: %(orders)s"), { orders: ordersText(view.my_orders) }));
  return lines;
}

/** What the round tab shows this viewer now (the replay page only looks). */
function roundKind(state, seat, info) {
  const view = state.view;
  if (state.status !== "active" || info.replay) return "status";
  if (seat === 0 && view.phase === "waiting") return "editor";
  // A team handed to a bot (services/handover.py): its person sees what spectators see.
  const handedOver = (state.handover || {})[String(seat)]?.move != null;
  if (seat > 0 && !handedOver && view.phase === "orders" && !view.my_locked && !view.gone.includes(seat)) return "orders";
  return "status";
}

export function createBoard(container, ctx) {
  container.classList.add("hh-board");
  const title = h("h2", "hh-title", null, { "data-testid": "hh-title" });
  const tabs = h("div", "hh-tabs", null, { role: "tablist" });
  const tabButtons = {
    round: button(gettext("Round"), () => showTab("round"), "hh-tab", { role: "tab", "data-testid": "hh-tab-round" }),
    results: button(gettext("Results and replays"), () => showTab("results"), "hh-tab", { role: "tab", "data-testid": "hh-tab-results" }),
  };
  tabs.append(...Object.values(tabButtons));
  const head = h("div", "hh-head");
  head.append(title, tabs);
  const panes = { round: h("section", "hh-pane", null, { "data-testid": "hh-round" }), results: h("section", "hh-pane", null, { "data-testid": "hh-results" }) };
  container.replaceChildren(head, panes.round, panes.results);
  const results = createResults(panes.results, ctx);
  let sub = null;
  let subKey = null;
  let tab = "round";
  let autoTab = null;

  function showTab(name) {
    tab = name;
    for (const [k, pane] of Object.entries(panes)) {
      pane.hidden = k !== name;
      tabButtons[k].setAttribute("aria-selected", String(k === name));
    }
  }

  function render(state, info) {
    const view = state.view;
    const seat = ctx.seat();
    const kind = roundKind(state, seat, info);
    const k = `${kind}:${view.round}:${view.phase}`;
    if (k !== subKey) {
      sub?.destroy?.();
      panes.round.replaceChildren();
      const make = { editor: createEditor, orders: createOrders, status: createStatus }[kind];
      sub = make(panes.round, ctx, view);
      subKey = k;
    }
    sub.update(state, info);
    results.update(state, info);
    title.textContent = headline(view);
    const want = kind !== "status" || !view.results.length || view.phase === "orders" ? "round" : "results";
    if (want !== autoTab) {
      autoTab = want;
      tab = want;
    }
    if (info.event?.events?.some((e) => e.type === "round_resolved")) tab = "results";
    showTab(tab);
  }

  return { render };
}

function headline(view) {
  const phase = {
    waiting: view.round ? gettext("waiting for the next round") : gettext("waiting for the first round"),
    orders: gettext("orders are being written"),
    resolving: gettext("resolving"),
    finished: gettext("campaign over"),
  }[view.phase];
  const rounds = view.rounds ? fmt(gettext("Round %(n)s of %(of)s"), { n: Math.max(view.round, 1), of: view.rounds }) : fmt(gettext("Round %(n)s"), { n: Math.max(view.round, 1) });
  return `${rounds} · ${phase}`;
}

/** The round as everyone may see it: board, limits, who has submitted and locked. */
function createStatus(pane, ctx) {
  const intro = h("p", "hh-intro", null, { "data-testid": "hh-status" });
  const params = h("p", "hint");
  const wrap = h("div", "hh-svgwrap");
  const teams = h("div", "hh-teams");
  const actions = h("div", "row hh-actions");
  pane.append(intro, params, teams, wrap, actions);

  function seatName(i) {
    if (ctx.seatName) return ctx.seatName(i);
    const s = ctx.seats()[i];
    return s ? `${s.name}${s.user ? ` (${s.user})` : ""}` : String(i);
  }

  return {
    update(state, info) {
      const view = state.view;
      const seat = ctx.seat();
      intro.textContent = statusText(view, seat, state.status);
      params.textContent = view.params && view.phase !== "finished" ? `${paramsText(view.params)}.` : "";
      if (view.deadline && view.phase === "orders") params.textContent += ` ${fmt(gettext("Deadline: %(when)s."), { when: new Date(view.deadline).toLocaleString() })}`;
      wrap.hidden = !view.board;
      if (view.board) {
        const idx = boardIndex(view.board);
        const svg = boardSvg(wrap, idx.rows, idx.cols, gettext("This round's board"));
        drawGrid(svg, idx);
        const mine = view.phase !== "waiting" ? view.my_orders : null;
        if (mine) {
          const g = group(svg, "hh-paths");
          mine.forEach((o, i) => drawOrder(g, o, i, { active: true }));
        }
      }
      teams.replaceChildren();
      if (view.phase === "orders" || view.phase === "resolving") teams.append(teamTable(view, seatName));
      actions.replaceChildren();
      if (seat === 0 && view.phase === "waiting" && !view.rounds && view.round > 0 && state.status === "active" && !info.replay) {
        actions.append(button(gettext("End the campaign"), () => confirm(gettext("End the campaign now? The standings become final.")) && ctx.act({ type: "finish" }), "button danger", { "data-testid": "hh-finish" }));
      }
      if (seat === 0 && view.phase === "orders" && state.status === "active" && !info.replay) {
        const close = () => confirm(gettext("Close the round now? Teams that have not locked play the orders they submitted, or starve.")) && ctx.act({ type: "close" });
        actions.append(button(gettext("Close the round now"), close, "button", { "data-testid": "hh-close" }));
      }
    },
  };
}

function statusText(view, seat, status) {
  if (status === "finished" || view.phase === "finished") return gettext("The campaign is over: see the standings and replays.");
  if (status !== "active") return gettext("This table is not running.");
  if (view.phase === "resolving") return gettext("Every team has locked its orders: the round is being resolved…");
  if (view.phase === "waiting") {
    return view.round
      ? fmt(gettext("Round %(n)s is resolved. The game master prepares the next board."), { n: view.round })
      : gettext("The game master is drawing the first board.");
  }
  if (seat > 0 && view.gone.includes(seat)) return gettext("You left the campaign; your witches starve.");
  if (seat > 0) return gettext("Your orders are locked. The round is resolved as soon as every team has locked.");
  if (seat === 0) return fmt(gettext("Round %(n)s: the teams write their orders. You see who has submitted and locked, never what."), { n: view.round });
  return fmt(gettext("Round %(n)s: the teams write their orders in secret."), { n: view.round });
}

function teamTable(view, seatName) {
  const table = h("table", "list hh-table", null, { "data-testid": "hh-teams" });
  const head = h("tr");
  const gm = Array.isArray(view.submitted);
  [gettext("Team"), ...(gm ? [gettext("Orders")] : []), gettext("Locked")].forEach((t) => head.append(h("th", "", t)));
  table.append(head);
  for (const s of view.teams) {
    const tr = h("tr", "", null, { "data-seat": s });
    tr.append(h("td", "", seatName(s)));
    if (gm) tr.append(h("td", view.submitted.includes(s) ? "yes" : "no", view.submitted.includes(s) ? gettext("submitted") : "—"));
    const locked = view.locked.includes(s);
    tr.append(h("td", locked ? "yes" : "no", view.gone.includes(s) ? gettext("left") : locked ? gettext("locked") : gettext("not yet")));
    table.append(tr);
  }
  return table;
}
