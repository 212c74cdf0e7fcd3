// A game shown as the spectators' picture of its position (drawn by the
// server: /g/<id>/position.svg), swapped for the next one whenever the game's
// socket says the version moved. Nothing of a frame's content is shown, so
// whoever is logged in, the picture is what spectators see. Used by the
// framable /embed/<id>/ page and by TV.
import { LiveSocket } from "./socket.js";

export class LivePicture {
  /**
   * @param {HTMLImageElement} img
   * @param {number} gameId
   * @param {number} version
   * @param {(state: {status: string, result_text?: string}) => void} onState  each status the socket reports
   */
  constructor(img, gameId, version, onState) {
    this.img = img;
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
    this.draw(version);
    this.socket.dropNow(); // reconnects to the new game's socket
  }

  /** @param {any} frame */
  onFrame(frame) {
    if (frame.game !== undefined && frame.game !== this.gameId) return; // the game we left
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
    if (state?.status) this.onState(state);
  }

  /** @param {number} version */
  draw(version) {
    this.version = version;
    this.img.src = `/g/${this.gameId}/position.svg?v=${version}`;
    this.img.dataset.game = String(this.gameId);
    this.img.dataset.version = String(version);
  }
}
