// A websocket that reconnects by itself and notices dead connections.
// The channel layer is at-most-once, so callers treat resync as normal.
//
// A link can die without a close (network gone, a proxy stalled): then only a
// missing answer tells. Every ping is answered, so a ping (every PING_MS) or
// a frame the page sends (followed by a tiny `hb` that every socket answers at
// once) that hears nothing back within ANSWER_MS means the socket is dead.

const PING_MS = 10000;
const ANSWER_MS = 3000;
const CONNECT_MS = 6000; // a handshake that hangs this long is tried afresh
const MAX_BACKOFF_MS = 5000;
// A short loss (a network switch, a server restart) is retried soon, so the
// page is back within a second of the link: each wait is drawn at random
// from half to all of a ceiling that doubles from RETRY_MS to QUICK_MAX_MS
// (0.1-0.2 s, 0.2-0.4 s, then 0.25-0.5 s), so the pages of a lost server do
// not all come back in one instant. Only a loss longer than
// QUICK_RETRIES_MS backs off further, up to MAX_BACKOFF_MS.
const RETRY_MS = 200;
const QUICK_MAX_MS = 500;
const QUICK_RETRIES_MS = 20000;
// A server that restarts (games/realtime/draining.py) sends a last frame
// {"type": "restart", "retry_ms"} and closes with this code (1012, "service
// restart", in the range a server may send): the page comes back after the
// hint, spread by the server, to another server.
const RESTART = 4012;
// The server's close when an address has too many sockets open: the error
// frame before it says so in the page's language; shown, and tried again
// much later.
const TOO_MANY_SOCKETS = 4429;
const FULL_BACKOFF_MS = 30000;

export class LiveSocket {
  /**
   * @param {() => string} path  builds the path for each (re)connect
   * @param {{onFrame: Function, onStatus?: Function, ping?: () => object, onDead?: Function}} handlers
   *   `onDead`: the socket was found dead (no answer); what it sent may be lost
   */
  constructor(path, handlers) {
    this.path = path;
    this.handlers = handlers;
    this.backoff = RETRY_MS;
    this.lostAt = 0; // when the socket was lost (0: open)
    this.ws = null;
    this.lastHeard = 0;
    this.answerTimer = 0; // set while the page waits for any answer
    this.closedByUs = false;
    this.refusal = "";
    this.retryHint = 0; // ms: a restarting server's hint for the next try
    this.timer = setInterval(() => this.heartbeat(), PING_MS);
    window.addEventListener("online", () => this.reconnectNow());
    // The network is gone: an open socket may not notice for a long while.
    window.addEventListener("offline", () => this.dropNow());
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden) this.heartbeat();
    });
    this.connect();
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}${this.path()}`;
  }

  connect() {
    this.status("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    const hanging = setTimeout(() => ws.readyState === WebSocket.CONNECTING && ws.close(), CONNECT_MS);
    ws.onopen = () => {
      clearTimeout(hanging);
      this.backoff = RETRY_MS;
      this.lostAt = 0;
      this.lastHeard = Date.now();
      this.status("open");
    };
    ws.onmessage = (msg) => {
      this.lastHeard = Date.now();
      clearTimeout(this.answerTimer);
      this.answerTimer = 0;
      let frame;
      try {
        frame = JSON.parse(msg.data);
      } catch {
        return;
      }
      if (frame.type === "hb") return; // the heartbeat's answer: heard, nothing to do
      if (frame.type === "restart") {
        this.retryHint = Number(frame.retry_ms) || 0;
        return;
      }
      if (frame.type === "error" && frame.code === "too_many_sockets") {
        this.refusal = frame.message;
        return;
      }
      this.handlers.onFrame(frame);
    };
    ws.onclose = (ev) => {
      clearTimeout(hanging);
      if (this.ws !== ws) return;
      this.ws = null;
      this.stopWaiting();
      this.status("reconnecting");
      if (ev.code === TOO_MANY_SOCKETS) {
        toast(this.refusal || ev.reason, "error", FULL_BACKOFF_MS);
        this.backoff = FULL_BACKOFF_MS;
      }
      const hint = ev.code === RESTART ? this.retryHint : 0;
      this.retryHint = 0;
      setTimeout(() => this.connect(), hint || this.nextWait());
    };
  }

  /** How long to wait before the next try: short while the loss is, and
   * drawn at random (half the ceiling to all of it). */
  nextWait() {
    const now = Date.now();
    if (!this.lostAt) this.lostAt = now;
    const quick = now - this.lostAt < QUICK_RETRIES_MS && this.backoff < FULL_BACKOFF_MS;
    const ceiling = quick ? Math.min(this.backoff, QUICK_MAX_MS) : this.backoff;
    this.backoff = Math.min(this.backoff * 2, quick ? QUICK_MAX_MS : MAX_BACKOFF_MS);
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }

  reconnectNow() {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) return this.heartbeat();
    if (this.ws) this.ws.close();
  }

  /** Give up the socket at once (the browser says it is offline) and try again. */
  dropNow() {
    const ws = this.ws;
    if (!ws) return;
    this.ws = null;
    this.stopWaiting();
    ws.close();
    this.status("reconnecting");
    setTimeout(() => this.connect(), this.backoff);
  }

  heartbeat() {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    const ping = this.handlers.ping ? this.handlers.ping() : { type: "ping" };
    ws.send(JSON.stringify(ping));
    this.awaitAnswer(ws);
  }

  /** Something was sent that the server answers: no answer in time, the socket is dead. */
  awaitAnswer(ws) {
    if (this.answerTimer) return;
    this.answerTimer = setTimeout(() => {
      this.answerTimer = 0;
      if (this.ws !== ws) return;
      // Silent (network gone, lid closed): start afresh; onclose may come much later.
      this.ws = null;
      ws.close();
      this.status("reconnecting");
      if (this.handlers.onDead) this.handlers.onDead();
      setTimeout(() => this.connect(), this.backoff);
    }, ANSWER_MS);
  }

  stopWaiting() {
    clearTimeout(this.answerTimer);
    this.answerTimer = 0;
  }

  send(frame) {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify(frame));
    if (!this.answerTimer) {
      ws.send('{"type":"hb"}'); // answered at once, whatever the frame gets
      this.awaitAnswer(ws);
    }
    return true;
  }

  status(state) {
    if (this.handlers.onStatus) this.handlers.onStatus(state);
  }
}

/** Translate via Django's JavaScript catalog (makemessages finds these calls). */
export function gettext(text) {
  return typeof window.gettext === "function" ? window.gettext(text) : text;
}

/** Fill %(name)s placeholders of an already translated text. */
export function fmt(translated, params) {
  return typeof window.interpolate === "function"
    ? window.interpolate(translated, params, true)
    : translated.replace(/%\((\w+)\)s/g, (_, k) => params[k]);
}

let toastTimer = 0;

/**
 * @param {string} message
 * @param {"info" | "error"} [kind]
 * @param {number} [ms] how long it stays
 */
export function toast(message, kind = "info", ms = 5000) {
  const el = document.getElementById("toast");
  if (!el) return;
  el.textContent = message;
  el.dataset.kind = kind;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (el.hidden = true), ms);
}

export function csrfToken() {
  const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return m ? decodeURIComponent(m[1]) : "";
}

/** A refusal from the API: `data` is the answer's body ({code, message, ...}). */
export class ApiError extends Error {
  /**
   * @param {string} message
   * @param {Record<string, any>} data
   */
  constructor(message, data) {
    super(message);
    this.data = data;
  }
}

/**
 * GET `path`, or POST `body` to it as JSON; the answer's JSON, or an ApiError.
 * @param {string} path
 * @param {unknown} [body]
 */
export async function api(path, body) {
  const res = await fetch(path, {
    method: body === undefined ? "GET" : "POST",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data;
  try {
    data = await res.json();
  } catch {
    data = { message: gettext("The server did not answer properly. Try again.") };
  }
  if (!res.ok) {
    throw new ApiError(data.message || res.statusText, data);
  }
  return data;
}
