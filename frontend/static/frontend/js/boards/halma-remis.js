// Brettspielnetz Halma extras: move number, the house warning, remis requests.
import { fmt, gettext, toast } from "../socket.js";

function smallButton(testid, text, onclick) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "button small";
  button.dataset.testid = testid;
  button.textContent = text;
  button.onclick = onclick;
  return button;
}

export function createRemisPanel(container, ctx, api) {
  const box = document.createElement("div");
  box.className = "halma-info";
  container.append(box);
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
    const moveNo = document.createElement("span");
    moveNo.dataset.testid = "move-number";
    moveNo.textContent = fmt(gettext("Move %(n)s"), { n: view.move_number });
    parts.push(moveNo);
    if (seat !== null && view.house_warning?.[seat]) {
      const warn = document.createElement("span");
      warn.className = "warn";
      warn.dataset.testid = "house-warning";
      warn.textContent = fmt(
        gettext("%(n)s of your pieces are still in your house: empty it by move %(limit)s or lose."),
        { n: view.in_house[seat], limit: view.move_limit },
      );
      parts.push(warn);
    }
    if (state.paused && state.remis) {
      const note = document.createElement("p");
      note.className = "paused-note";
      note.dataset.testid = "remis-waiting";
      note.textContent = gettext("Remis requested — waiting for an admin. The clock is stopped.");
      parts.push(note);
    } else {
      loadCandidates(state);
      const deadlock = allowed(state, "deadlock");
      // The control only when a request is possible: a deadlock claim, or a move that repeats.
      if (info.myTurn && state.status === "active" && (deadlock || candidates.length)) {
        parts.push(
          smallButton("remis-open", gettext("Request remis…"), () => {
            open = !open;
            render(state, info);
          }),
        );
        if (open) parts.push(panel(deadlock));
      } else {
        open = false;
      }
    }
    box.replaceChildren(...parts);
  }

  function panel(deadlock) {
    const wrap = document.createElement("div");
    wrap.className = "remis-panel card";
    const intro = document.createElement("p");
    intro.textContent = gettext("Instead of moving, ask an admin to declare the game a remis. The game waits for the decision.");
    wrap.append(intro);
    for (const c of candidates) {
      const name = ([r, col]) => `${"abcdefghij"[col]}${10 - r}`;
      const text = fmt(gettext("Repetition: %(move)s repeats the position of moves %(numbers)s"), {
        move: c.action.path.map(name).join("–"),
        numbers: c.move_numbers.join(", "),
      });
      const b = smallButton("remis-repetition", text, () =>
        file({ kind: "repetition", action: c.action, move_numbers: c.move_numbers }),
      );
      b.classList.add("primary");
      wrap.append(b);
    }
    if (!candidates.length) {
      const none = document.createElement("p");
      none.className = "hint";
      none.textContent = gettext("No move of yours repeats a position for the third time (only positions after move 51 count).");
      wrap.append(none);
    }
    if (!deadlock) return wrap;
    const reason = document.createElement("textarea");
    reason.placeholder = gettext("Deadlock: why can neither side win?");
    reason.setAttribute("aria-label", gettext("Reason for a deadlock remis"));
    reason.maxLength = 1000;
    const send = smallButton("remis-deadlock", gettext("Request remis for deadlock"), () => {
      if (!reason.value.trim()) return toast(gettext("Say why neither side can win."), "error");
      file({ kind: "deadlock", reason: reason.value.trim() });
    });
    const limit = document.createElement("p");
    limit.className = "hint";
    limit.textContent = gettext("At most two deadlock requests per player and game, rejected ones included.");
    wrap.append(reason, send, limit);
    return wrap;
  }

  return { render, candidateFor, file };
}
