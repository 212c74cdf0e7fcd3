// A game shown as the spectators' picture of its position (drawn by the
// server: /g/<id>/position.svg), swapped for the next one whenever the game's
// socket says the version moved. Nothing of a frame's content is shown, so
// whoever is logged in, the picture is what spectators see. Used by the
// framable /embed/<id>/ page and by TV. Under it, the players with their
// clocks and whose turn it is (`LivePlayers`), from the same frames.
import { clockTiming, seatClock } from "./clock.js";
import { h } from "./dom.js";
import { LiveSocket, fmt, gettext } from "./socket.js";

export class LivePicture {
  /**
   * @param {HTMLImageElement} img
   * @param {number} gameId
   * @param {number} version
   * @param {(state: any, seats: any[]) => void} onState  each state the socket reports, with the seats
   */
  constructor(img, gameId, version, onState) {
    this.img = img;
    /** @type {any[]} the seats as the last hello or sync named them */
    this.seats = [];
    this.gameId = gameId;
    this.version = version;
    this.onState = onState;
    this.socket = new LiveSocket(() => `/ws/game/${this.gameId}/?since=${this.version}`, {
      onFrame: (/** @type {any} */ frame) => this.onFrame(frame),
      ping: () => ({ type: "ping", game: this.gameId, version: this.version }),
    });
    this.draw(version);
  }

  /** Follow another game from now on (TV's next featured game). */
  follow(/** @type {number} */ gameId, /** @type {number} */ version) {
    if (gameId === this.gameId) return;
    this.gameId = gameId;
    this.seats = [];
    this.draw(version);
    this.socket.dropNow(); // reconnects to the new game's socket
  }

  /** @param {any} frame */
  onFrame(frame) {
    if (frame.game !== undefined && frame.game !== this.gameId) return; // the game we left
    if (frame.seats) this.seats = frame.seats;
    if (frame.type === "hello" || frame.type === "sync") this.show(frame.state.version, frame.state);
    else if (frame.type === "event") this.show(frame.version, frame.state);
    // A pong ahead of us needs no answer: the server's sync follows it.
  }

  /**
   * @param {number} version
   * @param {any} state
   */
  show(version, state) {
    if (version !== this.version) this.draw(version);
    if (state?.status) this.onState(state, this.seats);
  }

  /** @param {number} version */
  draw(version) {
    this.version = version;
    this.img.src = `/g/${this.gameId}/position.svg?v=${version}`;
    this.img.dataset.game = String(this.gameId);
    this.img.dataset.version = String(version);
  }
}

/** The players of a live picture, each with its clock, and whose turn it is:
 * drawn on each state, the clocks ticking locally in between. */
export class LivePlayers {
  /**
   * @param {HTMLElement} list  a <ul>
   * @param {HTMLElement} turn  the "whose turn" line
   * @param {HTMLElement} plain  the players' plain names, shown while the list is not
   */
  constructor(list, turn, plain) {
    this.list = list;
    this.turn = turn;
    this.plain = plain;
    /** @type {any} */
    this.state = null;
    this.timing = clockTiming(null);
    window.setInterval(() => this.tick(), 250);
  }

  /** @param {any} state @param {any[]} seats */
  show(state, seats) {
    this.state = state;
    this.timing = clockTiming(state);
    const active = state.status === "active";
    const name = (/** @type {number} */ i) => {
      const s = seats.find((seat) => seat.index === i);
      return s ? (s.user ? `${s.name} (${s.user})` : s.name) : String(i + 1);
    };
    this.list.hidden = !active || !seats.length;
    this.plain.hidden = !this.list.hidden;
    this.list.replaceChildren(
      ...seats.map((s) =>
        h("li", active && state.to_act.includes(s.index) ? "to-move" : "", [
          name(s.index),
          h("span", "clock", null, { "data-seat": s.index, "data-referee": s.referee ? "1" : null }),
        ]),
      ),
    );
    this.turn.hidden = !active;
    this.turn.textContent = active && state.to_act.length
      ? fmt(gettext("%(player)s to move."), { player: state.to_act.map(name).join(", ") })
      : "";
    this.tick();
  }

  /** Nothing to show (TV between games). */
  hide() {
    this.state = null;
    this.list.hidden = this.turn.hidden = true;
    this.plain.hidden = false;
  }

  tick() {
    if (!this.state) return;
    for (const el of /** @type {NodeListOf<HTMLElement>} */ (this.list.querySelectorAll(".clock"))) {
      const clock = seatClock(this.state, Number(el.dataset.seat), this.timing, !!el.dataset.referee);
      el.textContent = clock.text;
      el.classList.toggle("running", clock.running);
      el.classList.toggle("low", clock.low);
    }
  }
}
