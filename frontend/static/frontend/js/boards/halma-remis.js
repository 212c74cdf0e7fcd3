// Brettspielnetz Halma extras: move number, the house warning, remis requests.
import { button, h } from "../dom.js";
import { fmt, gettext, toast } from "../socket.js";

export function createRemisPanel(container, ctx, api) {
  const box = container.appendChild(h("div", "halma-info"));
  let candidates = [];
  let fetchedFor = -1;
  let open = false;
  let last = null;

  // What the server says this seat may file now (RULES.md §1: the queue must not be a way to stall).
  const allowed = (state, kind) => (state.remis_allowed || []).includes(kind);

  async function loadCandidates(state) {
    if (fetchedFor === state.version) return;
    fetchedFor = state.version;
    candidates = [];
    if (!allowed(state, "repetition") || state.view.full_moves < 51) return;
    try {
      candidates = (await api(`/api/games/${gameId()}/remis/candidates/`)).candidates;
    } catch {
      candidates = [];
    }
    if (last) render(last.state, last.info);
  }

  function gameId() {
    return Number(document.getElementById("game")?.dataset.game);
  }

  function file(body) {
    if (!ctx.send || !ctx.send({ type: "remis", ...body })) {
      toast(gettext("Not connected. Reconnecting; try again in a moment."), "error");
      return false;
    }
    open = false;
    return true;
  }

  function candidateFor(path) {
    const k = (p) => `${p[0]},${p[1]}`;
    return candidates.find(
      (c) => k(c.action.path[0]) === k(path[0]) && k(c.action.path.at(-1)) === k(path.at(-1)),
    );
  }

  function render(state, info) {
    last = { state, info };
    const view = state.view;
    const seat = ctx.seat();
    const parts = [];
    parts.push(h("span", "", fmt(gettext("Move %(n)s"), { n: view.move_number }), { "data-testid": "move-number" }));
    if (seat !== null && view.house_warning?.[seat]) {
      const warning = fmt(
        gettext("%(n)s of your pieces are still in your house: empty it by move %(limit)s or lose."),
        { n: view.in_house[seat], limit: view.move_limit },
      );
      parts.push(h("span", "warn", warning, { "data-testid": "house-warning" }));
    }
    if (state.paused && state.remis) {
      const waiting = gettext("Remis requested — waiting for an admin. The clock is stopped.");
      parts.push(h("p", "paused-note", waiting, { "data-testid": "remis-waiting" }));
    } else {
      loadCandidates(state);
      const deadlock = allowed(state, "deadlock");
      // The control only when a request is possible: a deadlock claim, or a move that repeats.
      if (info.myTurn && state.status === "active" && (deadlock || candidates.length)) {
        const toggle = () => {
          open = !open;
          render(state, info);
        };
        parts.push(button(gettext("Request remis…"), toggle, "button small", { "data-testid": "remis-open" }));
        if (open) parts.push(panel(deadlock));
      } else {
        open = false;
      }
    }
    box.replaceChildren(...parts);
  }

  function panel(deadlock) {
    const wrap = h("div", "remis-panel card");
    wrap.append(h("p", "", gettext("Instead of moving, ask an admin to declare the game a remis. The game waits for the decision.")));
    for (const c of candidates) {
      const name = ([r, col]) => `${"abcdefghij"[col]}${10 - r}`;
      const text = fmt(gettext("Repetition: %(move)s repeats the position of moves %(numbers)s"), {
        move: c.action.path.map(name).join("–"),
        numbers: c.move_numbers.join(", "),
      });
      const repeat = () => file({ kind: "repetition", action: c.action, move_numbers: c.move_numbers });
      wrap.append(button(text, repeat, "button small primary", { "data-testid": "remis-repetition" }));
    }
    if (!candidates.length) {
      wrap.append(h("p", "hint", gettext("No move of yours repeats a position for the third time (only positions after move 51 count).")));
    }
    if (!deadlock) return wrap;
    const reason = h("textarea", "", null, {
      placeholder: gettext("Deadlock: why can neither side win?"),
      "aria-label": gettext("Reason for a deadlock remis"),
      maxlength: 1000,
    });
    const claim = () => {
      if (!reason.value.trim()) return toast(gettext("Say why neither side can win."), "error");
      file({ kind: "deadlock", reason: reason.value.trim() });
    };
    const send = button(gettext("Request remis for deadlock"), claim, "button small", { "data-testid": "remis-deadlock" });
    const limit = h("p", "hint", gettext("At most two deadlock requests per player and game, rejected ones included."));
    wrap.append(reason, send, limit);
    return wrap;
  }

  return { render, candidateFor, file };
}
