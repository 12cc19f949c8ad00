// The one Socket.IO connection to the companion, with its state shown in the
// app at all times. Requests are answered through acknowledgements; a request
// is never sent while disconnected and never re-sent by itself, so a tap is
// applied at most once (the server's version check makes sure of the rest).
//
// A paired tablet keeps its token in localStorage; it goes with every
// (re)connection and with HTTP requests that change things or reveal private
// data (authHeaders). A refusal with code `not-paired` is reported to
// onRefused listeners before the caller sees it (the app offers pairing).

const ANSWER_TIMEOUT_MS = 12000;
const TOKEN_KEY = "companion.token";

/** This tablet's pairing token, or "" if it has none. */
export function getToken() {
  try {
    return localStorage.getItem(TOKEN_KEY) || "";
  } catch {
    return ""; // storage blocked (private mode): the tablet can still watch
  }
}

export function setToken(token) {
  try {
    if (token) localStorage.setItem(TOKEN_KEY, token);
    else localStorage.removeItem(TOKEN_KEY);
  } catch {
    // nothing to do: without storage the pairing lasts until the page is closed
  }
}

/** A message from the companion (often in lower case, without a full stop) as a sentence. */
export function sentence(text) {
  const words = String(text || "").trim();
  if (!words) return "";
  const capital = words[0].toUpperCase() + words.slice(1);
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
}

/** Headers for an HTTP request that needs this tablet's pairing (none if it has no token). */
export function authHeaders(extra = {}) {
  const token = getToken();
  return token ? { ...extra, "X-Companion-Token": token } : { ...extra };
}

export class Connection {
  constructor() {
    this.state = "connecting"; // connecting | connected | reconnecting
    this.stateListeners = new Set();
    this.connectListeners = new Set();
    this.refusalListeners = new Set();
    /* global io */
    this.socket = io({
      transports: ["websocket", "polling"], // WebSocket first on the table's network; polling if it fails
      tryAllTransports: true,
      reconnection: true,
      reconnectionDelay: 400,
      reconnectionDelayMax: 3000,
      timeout: 8000,
      auth: (cb) => cb({ token: getToken() }), // read again on every reconnection
    });
    this.socket.on("connect", () => {
      this.setState("connected");
      for (const listener of this.connectListeners) listener();
    });
    this.socket.on("disconnect", () => this.setState("reconnecting"));
    this.socket.io.on("reconnect_attempt", () => this.setState("reconnecting"));
    this.socket.on("connect_error", () => {
      if (this.state !== "connected") this.setState(this.everConnected ? "reconnecting" : "connecting");
    });
  }

  setState(state) {
    if (state === "connected") this.everConnected = true;
    if (this.state === state) return;
    this.state = state;
    for (const listener of this.stateListeners) listener(state);
  }

  get connected() { return this.socket.connected; }

  onState(listener) { this.stateListeners.add(listener); return () => this.stateListeners.delete(listener); }

  /** Called on every (re)connection: re-join the game on screen. */
  onConnect(listener) { this.connectListeners.add(listener); return () => this.connectListeners.delete(listener); }

  /** Called with (error) whenever a request is refused as `not-paired`, before its caller sees the reply. */
  onRefused(listener) { this.refusalListeners.add(listener); return () => this.refusalListeners.delete(listener); }

  /** Listen to a pushed event (`view`, `games`); events nobody listens to are ignored. */
  on(event, listener) { this.socket.on(event, listener); return () => this.socket.off(event, listener); }

  /**
   * Send one request; resolves with the server's answer, or with
   * {ok: false, error: {code: "offline" | "timeout", ...}} when it could not be had.
   * ``timeoutMs``: longer for a request known to take a while (a what-if forecast); ``quiet``: a
   * `not-paired` refusal is the caller's to show (the games screen says it in its own words).
   */
  request(event, payload, { timeoutMs = ANSWER_TIMEOUT_MS, quiet = false } = {}) {
    if (!this.socket.connected) {
      return Promise.resolve({ ok: false, error: { code: "offline",
        message: "Not connected to the companion, so that tap was not sent. Wait for “Connected” and tap again." } });
    }
    return new Promise((resolve) => {
      this.socket.timeout(timeoutMs).emit(event, payload, (err, reply) => {
        if (err) {
          resolve({ ok: false, error: { code: "timeout",
            message: "The companion did not answer. Check the game on screen before tapping again." } });
        } else if (!reply || typeof reply !== "object") {
          resolve({ ok: false, error: { code: "bad-reply", message: "The companion sent an answer this app does not understand." } });
        } else {
          if (!quiet && reply.ok === false && reply.error && reply.error.code === "not-paired") {
            for (const listener of this.refusalListeners) listener(reply.error);
          }
          resolve(reply);
        }
      });
    });
  }
}
