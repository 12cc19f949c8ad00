// The one Socket.IO connection to the companion, with its state shown in the
// app at all times. Requests are answered through acknowledgements; a request
// is never sent while disconnected and never re-sent by itself, so a tap is
// applied at most once (the server's version check makes sure of the rest).

const ANSWER_TIMEOUT_MS = 12000;

export class Connection {
  constructor() {
    this.state = "connecting"; // connecting | connected | reconnecting
    this.stateListeners = new Set();
    this.connectListeners = new Set();
    /* global io */
    this.socket = io({
      transports: ["websocket", "polling"], // WebSocket first on the table's network; polling if it fails
      tryAllTransports: true,
      reconnection: true,
      reconnectionDelay: 400,
      reconnectionDelayMax: 3000,
      timeout: 8000,
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

  /** Listen to a pushed event (`view`, `games`); events nobody listens to are ignored. */
  on(event, listener) { this.socket.on(event, listener); return () => this.socket.off(event, listener); }

  /**
   * Send one request; resolves with the server's answer, or with
   * {ok: false, error: {code: "offline" | "timeout", ...}} when it could not be had.
   */
  request(event, payload) {
    if (!this.socket.connected) {
      return Promise.resolve({ ok: false, error: { code: "offline",
        message: "Not connected to the companion, so that tap was not sent. Wait for “Connected” and tap again." } });
    }
    return new Promise((resolve) => {
      this.socket.timeout(ANSWER_TIMEOUT_MS).emit(event, payload, (err, reply) => {
        if (err) {
          resolve({ ok: false, error: { code: "timeout",
            message: "The companion did not answer. Check the game on screen before tapping again." } });
        } else if (!reply || typeof reply !== "object") {
          resolve({ ok: false, error: { code: "bad-reply", message: "The companion sent an answer this app does not understand." } });
        } else {
          resolve(reply);
        }
      });
    });
  }
}
