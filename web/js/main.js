// The tablet app's shell: its screens (games, new game, game, game data, LED
// and dice setup, pairing, box health) chosen by the address's #hash, one
// connection, and one path for every change sent to the companion (App.send),
// which carries the version the tablet last saw. A change refused because this
// tablet is not paired shows one banner offering to pair it.
//
// The shell knows no game: each game's own screens (its new-game wizard, its
// board, its data screens) come from its pack's web module, loaded from
// /packs/<game>/pack.js when first needed (docs/protocol.md, "Pack modules").

import { Connection, authHeaders, sentence, setToken } from "./connection.js";
import { h, clear } from "./dom.js";
import { renderGames } from "./games.js";
import { loadingScreen, refreshPrompt } from "./gamescreen.js";
import { noteFollowed } from "./tableguide.js";
import { decodeFrame, paintLeds, showCalibrating } from "./leds.js";
import { renderLedSetup, startCalibration, stopCalibration } from "./ledsetup.js";
import { renderDiceSetup, startDiceSetup, stopDiceSetup } from "./dicesetup.js";
import { CAMERA_LOST, acceptDice } from "./dice.js";
import { renderPairing, startPairing, stopPairing } from "./pairing.js";
import { renderHealth, startHealth, stopHealth } from "./health.js";
import { forgetSeat, heldSeat, seatChooser, secretSeats } from "./seats.js";
import { guardTaps, stampButtons } from "./taps.js";
import { askConfirm, dismissConfirm } from "./confirm.js";

const STALE_MESSAGE = "Another tablet moved first — here is the current game. Check it, then tap again if you still need to.";
const TAP_IGNORED = "That button had only just changed under your finger, so the tap was not used. Check the screen, then tap again.";
const NOT_PAIRED = "This tablet can watch but not change the game";

class App {
  constructor(root) {
    this.root = root;
    this.conn = new Connection();
    this.route = { name: "games" };
    this.gameId = null;
    this.view = null;
    this.pack = null;
    this.names = null;
    this.games = null;
    this.gamesRefused = null; // why this tablet may not see the games' list (not paired)
    this.boardGame = null; // the game the board shows (health), which an unpaired tablet may watch
    this.busy = false;
    this.sending = { ticket: 0, from: null }; // the change on its way: its number, and the version it was sent from
    this.ui = {};
    this.historyOpen = false;
    this.outcomeHidden = false;
    this.packCache = null; // the pack view of the game on screen (or of the pack set up)
    this.packCaches = {}; // pack views by game
    this.packModules = {}; // pack web modules by game
    this.packModule = null; // the module of the game on screen
    this.packs = null; // the games on this box (/api/packs)
    this.leds = { overlay: null, frame: null }; // where the LEDs sit (from join) and the last frame shown
    this.forecast = null; // the last forecast of the game on screen ({game_id, version, forecast}), from join or pushed
    this.calibration = null; // the LED setup under way on this tablet
    this.dice = { camera: false, hint: "", lost: false, report: null }; // the dice camera (from join, dice events)
    this.access = null; // pair_status: may this tablet change games (paired, trusted), and as what
    this.notPairedMessages = new Set(); // refusals already shown by the pairing banner
    this.pairing = null; // the pairing screen's state (pairing.js)
    this.pairReturn = null; // the new game's address to come back to once paired (pairing first)
    this.health = null; // the health screen's state (health.js)

    this.bannerArea = h("div", { class: "banners", "data-testid": "banners", role: "status", "aria-live": "polite" });
    this.screen = h("main", { class: "screen", id: "screen" });
    root.append(this.bannerArea, this.screen);
    this.remoteRender = false; // the next render shows what another device did (taps.js)
    guardTaps(document, () => this.showBanner("tap", TAP_IGNORED, { closeAfterMs: 5000 }));

    this.epoch = 0; // bumped when the connection drops: answers to requests sent before are ignored
    this.conn.onState((state) => {
      this.showConnection(state);
      if (state !== "connected" && this.busy) { this.epoch += 1; this.setBusy(false); }
    });
    this.conn.onConnect(() => this.onConnected());
    this.conn.onRefused((error) => this.notPaired(error.message));
    this.conn.on("paired", (grant) => this.acceptPairing(grant));
    this.conn.on("view", (view) => this.acceptView(view));
    this.conn.on("seat_lost", (lost) => this.seatLost(lost));
    this.conn.on("leds", (frame) => this.acceptLeds(frame));
    this.conn.on("forecast", (forecast) => this.acceptForecast(forecast));
    this.conn.on("dice", (report) => {
      if (acceptDice(this, report) && this.route.name === "game" && this.view) this.refreshPrompt();
    });
    this.conn.on("leds_overlay", (overlay) => {
      if (!overlay || !Array.isArray(overlay.positions)) return;
      this.leds.overlay = overlay;
      if (this.route.name === "game" || this.route.name === "leds") this.render();
    });
    this.conn.on("data", (event) => this.acceptData(event));
    this.conn.on("games", (reply) => {
      if (reply && Array.isArray(reply.games)) { this.games = reply.games; if (this.route.name === "games") this.render(); }
    });
    window.addEventListener("hashchange", () => this.navigate());
    this.navigate();
  }

  // -- routing -----------------------------------------------------------------------------
  parseRoute() {
    const hash = location.hash.replace(/^#\/?/, "");
    const parts = hash.split("/").filter(Boolean).map(decodeURIComponent);
    if (parts[0] === "new") return { name: "setup", game: parts[1] || null, board: parts[2] || null }; // #/new/<game>/<board>: a mixed game's board chosen
    if (parts[0] === "leds") return { name: "leds" };
    if (parts[0] === "dice") return { name: "dice", pack: parts[1] || null };
    if (parts[0] === "pair") return { name: "pair" };
    if (parts[0] === "health") return { name: "health" };
    if (parts[0] === "data") {  // #/data/<page> (the game chosen last), or #/data/<game>/<page>
      return parts.length >= 3 ? { name: "data", game: parts[1], page: parts[2] } : { name: "data", game: null, page: parts[1] || "status" };
    }
    if (parts[0] === "game" && parts[1]) return { name: "game", gameId: decodeURIComponent(parts[1]) };
    return { name: "games" };
  }

  /**
   * Open ``hash``. ``replace``: in place of the address on screen, so the browser's Back skips it.
   * The new-game wizard's steps (its game chooser, pairing first) and the game it starts replace
   * each other: Back from a new game is the games screen, not the wizard that made it.
   */
  go(hash, { replace = false } = {}) {
    const fromWizard = this.route.name === "setup" && /^#\/(game|pair|new)\b/.test(hash);
    if (location.hash === hash) this.navigate();
    else if (replace || fromWizard) location.replace(hash);
    else location.hash = hash;
  }

  navigate() {
    const was = { ...this.route };
    this.route = this.parseRoute();
    this.historyOpen = false;
    this.deckOpen = false;
    this.leaveScreen(was.name);
    if (was.name !== this.route.name || was.gameId !== this.route.gameId) this.clearScreenBanners();
    if (this.route.name !== "games") { this.clearBanner("safe"); this.clearBanner("storage"); }
    if (this.route.name === "pair") this.clearBanner("pair"); // this screen is where it leads
    if (this.route.name === "game") this.openGame();
    else this.openScreen(was);
    window.scrollTo(0, 0);
  }

  /** Stop what the screen left behind was running (a calibration, a dice setup, pairing, health polls). */
  leaveScreen(left) {
    const stays = this.route.name === left;
    if (stays) return;
    if (left === "leds") stopCalibration(this);
    if (left === "dice") stopDiceSetup(this);
    if (left === "pair") stopPairing(this);
    if (left === "health") stopHealth(this);
  }

  /** A game's screen: another game than the one on screen starts from nothing of the last one's. */
  openGame() {
    if (this.gameId !== this.route.gameId) {
      this.gameId = this.route.gameId;
      this.view = null;
      this.packDataId = undefined;
      this.ui = {};
      this.outcomeHidden = false;
      this.tableNowOpen = false;
      this.watching = false;
      this.leds = { overlay: null, frame: null };
      this.dice = { camera: false, hint: "", lost: false, report: null };
      this.forecast = null;
      this.clearBanner("camera");
    }
    this.render();
    this.join();
    this.loadAccess(); // an unpaired tablet says "Watching" up front, not after a refused tap
  }

  /** Any other screen: fresh state for a screen newly opened, then what it loads or starts. */
  openScreen(was) {
    const name = this.route.name;
    const fresh = name !== was.name;
    this.gameId = null;
    this.view = null;
    this.clearBanner("camera");
    if (name === "games") this.games = null; // never show an old list: it is fetched afresh
    if (name === "leds" && fresh) { this.calibration = null; this.leds = { overlay: null, frame: null }; }
    const newDice = name === "dice" && (fresh || this.route.pack !== was.pack); // another game's dice
    if (newDice) this.diceSetup = null;
    if (name === "pair" && fresh) this.pairing = null;
    if (name === "health" && fresh) this.health = null;
    this.render();
    if (name === "games") { this.loadGames(); this.loadAccess(); this.checkSafeMode(); }
    if (name === "leds" && fresh) startCalibration(this);
    if (newDice) startDiceSetup(this);
    if (name === "pair" && fresh) startPairing(this);
    if (name === "health" && fresh) startHealth(this);
    this.openSetupOrData(fresh);
  }

  /** The setup wizard asks for pairing first; a game's data screens keep one working copy between their pages. */
  openSetupOrData(fresh) {
    const otherData = this.route.name === "data" && (fresh || (this.route.game && this.route.game !== this.screenPack));
    if (this.route.name === "setup") { this.pairFirst(); if (this.route.name === "setup") this.loadAccess(); }
    if (this.route.name !== "pair" && this.route.name !== "setup") this.pairReturn = null; // pairing was given up
    if (this.route.name === "setup" || otherData) {
      this.screenPack = undefined;
      this.openPackScreen();
    }
  }

  // -- games and their modules --------------------------------------------------------------
  /** The games on this box: id, title, what the tablet needs to offer them. */
  async loadPacks() {
    if (this.packs) return this.packs;
    const response = await fetch("/api/packs", { cache: "no-store" });
    if (!response.ok) throw new Error(`could not list the games (${response.status})`);
    this.packs = (await response.json()).packs;
    return this.packs;
  }

  /** A game's web module (its screens), imported once. */
  async loadPackModule(game) {
    if (!this.packModules[game]) {
      const found = await import(`/packs/${encodeURIComponent(game)}/pack.js`);
      this.packModules[game] = found.default;
    }
    return this.packModules[game];
  }

  /** The game the new-game and game-data screens are for: named in the address, else the only one. */
  async screenGame() {
    if (this.route.game) return this.route.game;
    if (this.route.name === "data" && this.screenPack && this.route.page !== "status") return this.screenPack;
    const packs = await this.loadPacks();
    const wanted = this.route.name === "data" ? packs.filter((p) => p.owner_data) : packs;
    return wanted.length === 1 ? wanted[0].id : null;
  }

  /** Open the module of the new-game or game-data screen's game, then draw it. */
  async openPackScreen() {
    const route = this.route;
    let game;
    try {
      game = await this.screenGame();
      if (game) this.packModule = await this.loadPackModule(game);
    } catch (problem) {
      this.showBanner("error", sentence(String(problem.message || problem)));
      return;
    }
    if (route !== this.route) return;
    this.screenPack = game;
    if (this.route.name === "data" && game && this.packModule.startData) this.packModule.startData(this);
    this.render();
  }

  onConnected() {
    // Back after a drop: take the game as it is now (another tablet may have moved).
    for (const el of this.bannerArea.querySelectorAll("[data-code=offline]")) el.remove(); // "not connected" no longer holds
    if (this.route.name === "game") { this.join(); this.loadAccess(); }
    else if (this.route.name === "games") { this.loadGames(); this.loadAccess(); }
    else if (this.route.name === "setup") this.loadAccess(); // pairing first, if this tablet needs it
    else if (this.route.name === "leds") startCalibration(this);
    else if (this.route.name === "dice") startDiceSetup(this);
    else if (this.route.name === "pair") startPairing(this);
    else if (this.route.name === "data" && this.packModule && this.screenPack) this.packModule.startData(this);
  }

  /**
   * The owner's game data was saved (here or on another tablet): a game on
   * screen re-joins for the pack built from it; the data screens read it again
   * (unsaved changes here are kept); LED setup and the new-game wizard redraw.
   */
  acceptData(event) {
    const shown = this.route.name === "game" ? this.view && this.view.game : this.screenPack;
    if (event && event.game && shown && event.game !== shown) return;
    if (event && event.game) delete this.packCaches[event.game];
    this.packCache = null;
    if (this.route.name === "game") this.join();
    else if (this.route.name === "data" && this.packModule) {
      if (this.data && this.data.dirty && !this.data.saving) {
        this.showBanner("info", "The game data was just saved (maybe from another tablet). Your unsaved changes here are kept.");
      }
      if (!this.data || !this.data.saving) this.packModule.startData(this);
    } else if (this.route.name === "leds") {
      this.ledBoard = null;
      this.render();
    } else if (this.route.name === "setup") {
      this.render(); // the wizard offers what the new data holds (its pack fetched again)
    }
  }

  // -- pairing -------------------------------------------------------------------------------
  /** Ask whether this tablet may change games (for the games screen's pairing button). */
  async loadAccess() {
    const reply = await this.conn.request("pair_status", {});
    if (!reply.ok) return;
    const was = this.watchingOnly();
    this.access = reply;
    if (this.mayChange()) this.clearPairBanner();
    if (this.route.name === "games" || this.route.name === "pair" || (this.route.name === "game" && was !== this.watchingOnly())) this.render();
    else this.showConnection(this.conn.state);
    if (this.route.name === "setup") this.pairFirst();
  }

  /**
   * A new game on a tablet that may not change games: pairing comes first, before any question
   * of the wizard; once paired the tablet comes back to it. Its answers live in the app (the
   * pack's wizard keeps them), so nothing chosen is lost on the way.
   */
  pairFirst() {
    if (this.route.name !== "setup" || !this.access || this.mayChange()) return;
    this.pairReturn = location.hash || "#/new";
    this.go("#/pair");
  }

  /** Known to be a tablet that may only watch (not paired, where pairing is required). */
  watchingOnly() {
    return Boolean(this.access) && !this.mayChange();
  }

  /** Paired, trusted (the box's own browser), or pairing not required: changes are allowed. */
  mayChange() {
    const access = this.access;
    return Boolean(access && (access.paired || access.trusted || !access.required));
  }

  /** A change was refused because this tablet is not paired (or its pairing was removed). */
  notPaired(message) {
    if (message) this.notPairedMessages.add(message);
    if (this.access) this.access = { ...this.access, paired: false, trusted: false, device: null };
    if (this.route.name === "games" || this.route.name === "game") this.render(); // “Watching only” now
    if (this.route.name === "pair") { this.render(); return; } // this screen says so itself
    this.clearBanner("pair");
    const link = h("a", { class: "btn btn-primary", href: "#/pair", "data-testid": "banner-pair-link",
                          onclick: () => this.clearBanner("pair") }, "Pair this tablet");
    const banner = h("div", { class: "banner banner-pair", "data-testid": "banner", "data-kind": "pair", role: "alert" },
      h("div", { class: "banner-text" },
        h("p", { class: "banner-title", "data-testid": "banner-pair-title" }, `${NOT_PAIRED}.`),
        message && !/watch but not change/i.test(message) ? h("p", { class: "banner-detail" }, sentence(message)) : null),
      link,
      h("button", { class: "banner-close", type: "button", "data-testid": "banner-close", "aria-label": "Dismiss",
                    onclick: () => banner.remove() }, "✕"));
    this.bannerArea.append(banner);
  }

  /** Paired now: the pairing banner and every refusal for want of pairing no longer hold. */
  clearPairBanner() {
    this.clearBanner("pair");
    for (const el of this.bannerArea.querySelectorAll("[data-not-paired]")) el.remove();
    this.notPairedMessages.clear();
  }

  /** This tablet was paired (the PAIR button on the box, or a code): keep the token and use it. */
  acceptPairing(grant) {
    if (!grant || typeof grant.token !== "string" || !grant.token) return;
    setToken(grant.token);
    this.access = { ...(this.access || {}), paired: true, device: grant.device || null };
    this.clearPairBanner();
    const name = grant.device && grant.device.name ? grant.device.name : "a tablet";
    this.showBanner("info", `Paired as “${name}”. This tablet can now change the game.`, { closeAfterMs: 8000, keep: true });
    if (this.pairing && this.pairing.asking) {
      this.pairing.asking = null;
      this.conn.request("pair_cancel", {}); // paired with a code meanwhile: PAIR must not pair it a second time
    }
    // The box pairs this connection at once; the token goes with every later (re)connection.
    const back = this.pairReturn;
    this.pairReturn = null;
    if (back && this.route.name === "pair") { this.go(back, { replace: true }); return; } // to the new game (or game) it came for
    if (this.route.name === "pair") startPairing(this);
    else this.loadAccess();
    this.render();
  }

  /** Forget this tablet's token (after removing its own pairing). */
  forgetPairing() {
    setToken("");
    this.access = this.access ? { ...this.access, paired: false, device: null } : null;
  }

  /** The games screen says so, and keeps saying so, when the box started in safe mode or cannot
   * save games (a full or read-only card, a damaged database set aside). */
  async checkSafeMode() {
    let view;
    try {
      const response = await fetch("/api/health", { headers: authHeaders(), cache: "no-store" });
      view = await response.json();
    } catch {
      return; // not reachable now: the connection pill says so
    }
    if (this.route.name !== "games") return;
    const board = view && view.parts && view.parts.board;
    const onBoard = board && board.game_id ? board.game_id : null;
    if (onBoard !== this.boardGame) { this.boardGame = onBoard; this.render(); }
    const start = view && view.start;
    if (start && start.safe) {
      this.clearBanner("safe");
      this.bannerArea.prepend(h("div", { class: "banner banner-safe", "data-testid": "banner", "data-kind": "safe", role: "alert" },
        h("div", { class: "banner-text" },
          h("p", { class: "banner-title" }, "The box started in safe mode"),
          h("p", { class: "banner-detail", "data-testid": "safe-reason" }, sentence(start.reason || "no reason was given"))),
        h("a", { class: "btn", href: "#/health", "data-testid": "banner-health-link" }, "Box health")));
    } else {
      this.clearBanner("safe");
    }
    this.showStorage(view && view.parts && view.parts.storage);
  }

  /** A banner while the box cannot save (or set a damaged file aside): what and why. */
  showStorage(storage) {
    this.clearBanner("storage");
    if (!storage || storage.state === "ok") return;
    const title = storage.state === "set-aside" ? "The box found its games file damaged and set it aside"
      : storage.state === "failed" ? "The box could not save the last change" : "The box cannot save games now";
    this.bannerArea.prepend(h("div", { class: "banner banner-safe", "data-testid": "banner", "data-kind": "storage",
                                       "data-state": storage.state, role: "alert" },
      h("div", { class: "banner-text" },
        h("p", { class: "banner-title" }, title),
        h("p", { class: "banner-detail", "data-testid": "storage-reason" }, sentence(storage.reason || ""))),
      h("a", { class: "btn", href: "#/health", "data-testid": "banner-health-link" }, "Box health")));
  }

  /** The games' list: a paired tablet's (or the box's own screen's); an unpaired one is told to pair
   * and offered the game on the board to watch. */
  async loadGames() {
    const reply = await this.conn.request("games", {}, { quiet: true });
    if (reply.ok) {
      this.games = reply.games;
      this.gamesRefused = null;
      if (this.route.name === "games") this.showStorage(reply.storage);
      if (this.route.name === "games") this.render();
    } else if (reply.error && reply.error.code === "not-paired") {
      this.games = [];
      this.gamesRefused = reply.error.message;
      if (this.route.name === "games") this.render();
    }
  }

  /** A game's pack view (its board and components), as new games start with it. */
  async loadPack(game) {
    if (!this.packCaches[game]) {
      const response = await fetch(`/api/packs/${encodeURIComponent(game)}`);
      if (!response.ok) throw new Error(`could not load the game box (${response.status})`);
      this.packCaches[game] = await response.json();
    }
    this.packCache = this.packCaches[game];
    return this.packCache;
  }

  async join() {
    const gameId = this.gameId;
    if (!gameId || !this.conn.connected) return;
    const seat = heldSeat(gameId);
    let reply = await this.conn.request("join", { game_id: gameId, ...(seat || {}) });
    if (gameId !== this.gameId) return;
    if (!reply.ok && seat && reply.error.code === "not-your-seat") {
      forgetSeat(gameId); // the seat was freed or taken meanwhile: watch, and choose again
      reply = await this.conn.request("join", { game_id: gameId });
      if (gameId !== this.gameId) return;
    }
    if (!reply.ok) {
      if (reply.error.code === "unknown-game") {
        this.showBanner("error", `There is no game with id “${gameId}” on this companion.`, { keep: true });
        this.go("#/");
      } else if (reply.error.code !== "offline") {
        this.showBanner("error", reply.error.message);
      }
      return;
    }
    try {
      this.packModule = await this.loadPackModule(reply.view.game);
    } catch (problem) {
      this.showBanner("error", `This tablet cannot show the game ${reply.view.game}: ${problem.message || problem}`);
      return;
    }
    if (gameId !== this.gameId) return;
    this.pack = reply.pack;
    this.packCache = reply.pack;
    this.packDataId = reply.view && reply.view.state ? reply.view.state.data_id ?? null : null;
    this.names = this.packModule.names ? this.packModule.names(reply.pack) : {};
    this.leds.overlay = reply.leds || null;
    if (reply.forecast) this.forecast = reply.forecast;
    this.acceptCamera(reply.dice);
    this.acceptView(reply.view, { force: true });
  }

  /**
   * A frame of the LEDs: kept, and painted in place on the board on screen.
   * A game screen takes the frames of its own game only (the LEDs follow the
   * game joined last); LED setup takes every frame.
   */
  acceptLeds(payload) {
    if (!payload || typeof payload.frame !== "string") return;
    const setup = this.route.name === "leds";
    if (!setup && (this.route.name !== "game" || payload.game_id !== this.gameId)) return;
    this.leds.frame = decodeFrame(payload.frame);
    this.leds.calibrating = payload.calibrating === true;
    paintLeds(document.getElementById("led-layer"), this.leds.frame);
    if (!setup) showCalibrating(this.leds.calibrating);
  }

  /**
   * A forecast of the game's coming automatic phase (docs/protocol.md, "Forecast"): kept, and
   * shown by the pack module (its ``acceptForecast``) if it is of the version on screen.
   */
  acceptForecast(payload) {
    if (!payload || payload.game_id !== this.gameId || typeof payload.version !== "number") return;
    if (this.forecast && this.forecast.version > payload.version) return; // a late one
    this.forecast = payload;
    const hook = this.packModule && this.packModule.acceptForecast;
    if (this.route.name === "game" && this.view && typeof hook === "function") hook(this);
  }

  /** This device no longer plays a seat (the owner freed it): forget its token and show the shared screen. */
  seatLost(lost) {
    if (!lost || lost.game_id !== this.gameId) return;
    forgetSeat(lost.game_id);
    this.watching = true;
    this.showBanner("info", lost.message || "This device no longer plays its seat.");
    if (lost.view) this.acceptView(lost.view, { force: true });
  }

  // -- views ---------------------------------------------------------------------------------
  /** Show a view of the game on screen; older ones (late pushes) are dropped. */
  acceptView(view, { force = false } = {}) {
    if (!view || view.game_id !== this.gameId || !this.names) return;
    const current = this.view;
    if (current && view.version < current.version) return;
    if (current && view.version === current.version && !force && !newsAtVersion(current, view)) return;
    const changed = !current || current.version !== view.version;
    // The game now plays with other data (saved meanwhile): its pack comes with a fresh join.
    const dataId = view.state ? view.state.data_id ?? null : null;
    if (!force && this.packDataId !== undefined && dataId !== this.packDataId && !this.rejoining) {
      this.rejoining = true;
      this.join().finally(() => { this.rejoining = false; });
    }
    this.view = view;
    noteFollowed(this, view);
    if (view.dice && view.dice.status !== "camera-lost" && view.dice.status !== "camera-back") acceptDice(this, view.dice);
    if (changed) { this.ui = {}; dismissConfirm(); }
    // A change this tablet has on its way (its view may come before the reply) is its own doing.
    const ours = this.busy;
    if (this.waitingFor != null && view.version >= this.waitingFor) this.setBusy(false);
    // A view past the version our change was sent from: the box has dealt with it (applied it, or
    // will refuse it as stale), so the next tap counts at once, not only once the reply is in.
    if (this.busy && this.sending.from != null && view.version > this.sending.from) this.setBusy(false);
    this.remoteRender = changed && !ours && !force;
    if (!view.outcome) this.outcomeHidden = false;
    if (this.route.name === "game") this.render();
  }

  /** The join reply's camera: is one watching (the roll hint), or lost (the banner until it is back). */
  acceptCamera(camera) {
    this.dice.camera = Boolean(camera && camera.camera);
    this.dice.hint = (camera && camera.hint) || "";
    this.dice.lost = Boolean(camera && camera.state === "lost");
    if (this.dice.lost) this.showBanner("camera", CAMERA_LOST);
    else this.clearBanner("camera");
  }

  // -- sending ---------------------------------------------------------------------------------
  /** Answer the prompt on screen; an answer that is hard to take back is confirmed first. */
  async answer(given) {
    const prompt = this.view && this.view.prompt;
    if (!prompt || this.busy) return;
    const answer = bare(given);
    const version = this.view.version;
    const take = this.packModule && this.packModule.takeAnswer;
    // The pack may ask something of its own first (is this card as we have it?); it sends the answer itself.
    if (typeof take === "function" && take(this, prompt, answer)) return;
    const ask = this.confirmationFor(prompt, answer);
    if (ask && !(await askConfirm(ask))) return;
    if (!this.view || this.view.version !== version) return; // the game moved on while the question stood
    await this.send("act", { key: prompt.key, answer });
  }

  /** What to ask before ``answer``, as the pack's rules declare it on the answer (docs/protocol.md,
   * "Confirmations"): an option marked ``confirm`` (a choice that is for good), or an action menu
   * entry with a ``confirm`` (ending a phase with actions left, feeding done with creatures unfed);
   * null when nothing. No pack draws or words it on the tablet. */
  confirmationFor(prompt, answer) {
    const option = typeof answer === "string" ? (prompt.options || []).find((o) => o.id === answer) : null;
    if (option && option.data && typeof option.data.confirm === "string") {
      return { title: `${option.text}?`, text: option.data.confirm, yes: option.text, no: "No, choose again", key: prompt.key };
    }
    if (!answer || typeof answer !== "object" || Array.isArray(answer)) return null;
    const said = stableJson(answer);
    const entry = (this.view.actions || []).find((a) => a.confirm && stableJson(bare(a)) === said);
    return entry ? { ...entry.confirm, key: prompt.key } : null;
  }

  /** Undo ``count`` steps. More than one is confirmed first, with the pieces to put back. */
  async goBack(count) {
    if (this.busy || !this.view) return;
    const view = this.view;
    if (count > 1) {
      const peek = await this.conn.request("peek", { game_id: view.game_id, version: view.version, count });
      if (!peek.ok) { this.settle(peek, this.epoch); return; }
      const lines = (peek.put_back || []).map((change) => change.text);
      const ok = await askConfirm({
        title: `Go back ${count} steps?`, key: "undo",
        text: lines.length ? "Everything answered after that step is undone. Then put these back on the table:"
          : "Everything answered after that step is undone; nothing on the table moves.",
        lines, yes: `Go back ${count} steps`, no: "No, stay here" });
      if (!ok || this.view !== view) return;
    }
    await this.send("undo", { count });
  }

  /** A move the game allows whatever is being asked (a Dark Gift accepted mid-phase, RL-HA-8). */
  anytime(move) {
    if (!this.view || !this.view.prompt) return Promise.resolve();
    return this.send("act", { anytime: move });
  }

  /**
   * Send one change (act, undo, redo) with the version on screen. While one is
   * on its way every other tap is ignored, so a tap is never applied twice.
   */
  async send(event, extra) {
    if (this.busy || !this.view) return;
    const view = this.view;
    const epoch = this.epoch;
    const ticket = this.startSending(view.version);
    const reply = await this.conn.request(event, { game_id: view.game_id, version: view.version, ...extra });
    if (ticket === this.sending.ticket) this.settle(reply, epoch);
  }

  /** Busy with a new change sent from ``version`` (null: a flow of several requests, released by their replies). */
  startSending(version) {
    this.sending = { ticket: this.sending.ticket + 1, from: version };
    this.setBusy(true);
    return this.sending.ticket;
  }

  /**
   * Correct the camera's read (docs/protocol.md, "Correcting a read"): one flow of two
   * requests, `undo` (count 1) of the camera's input, then `act` with the corrected values
   * for the same prompt at the version the undo gave. Only while the read is the last input.
   */
  async correctDice(report, values) {
    if (this.busy || !this.view || this.view.version !== report.version + 1) return;
    const view = this.view;
    const epoch = this.epoch;
    this.startSending(null);
    const undone = await this.conn.request("undo", { game_id: view.game_id, version: view.version, count: 1 });
    if (epoch !== this.epoch) return;
    if (!undone.ok) { this.settle(undone, epoch); return; }
    const reply = await this.conn.request("act", { game_id: view.game_id, version: undone.version, key: report.prompt_key, answer: values });
    this.settle(reply, epoch);
  }

  /** What a change's reply means on screen: wait for its view, or show why it was refused. */
  settle(reply, epoch) {
    if (epoch !== this.epoch) return; // the line dropped meanwhile: the re-join shows how things stand
    if (reply.ok) {
      this.clearBanner("stale");
      this.clearBanner("error");
      if (this.view.version >= reply.version) {
        this.setBusy(false);
      } else {
        // The new view is pushed to every tablet; wait for it (and fetch it if it is late).
        this.waitingFor = reply.version;
        clearTimeout(this.lateTimer);
        this.lateTimer = setTimeout(() => { if (this.busy) { this.setBusy(false); this.join(); } }, 2500);
      }
      return;
    }
    this.setBusy(false);
    const error = reply.error || { code: "error", message: "Something went wrong." };
    if (error.code === "stale") {
      if (reply.view) this.acceptView(reply.view, { force: true });
      else this.join();
      this.showBanner("stale", STALE_MESSAGE, { closeAfterMs: 8000 });
    } else {
      this.showBanner("error", error.message, { code: error.code });
      if (error.code === "timeout") this.join();
    }
  }

  setBusy(busy) {
    this.busy = busy;
    if (!busy) { this.waitingFor = null; clearTimeout(this.lateTimer); }
    this.root.classList.toggle("busy", busy);
    this.root.setAttribute("aria-busy", busy ? "true" : "false");
  }

  // -- banners ----------------------------------------------------------------------------------
  /**
   * A message in the page, under the screen's top bar (it pushes the page down, never covers a
   * button). It goes when it no longer holds: on another screen or game (``keep``: it was said
   * just before leaving, so it stays for the next screen only), once paired (a refusal for want
   * of pairing), once connected again ("offline"), after ``closeAfterMs``, or with its ✕.
   */
  showBanner(kind, text, { closeAfterMs = 0, keep = false, code = null } = {}) {
    const notPaired = kind === "error" && this.aboutPairing(text);
    // A refusal for want of pairing is already on screen as the pairing banner.
    if (notPaired && this.bannerArea.querySelector("[data-kind=pair]")) return;
    this.clearBanner(kind);
    const alert = kind === "error";
    const banner = h("div", { class: `banner banner-${kind}`, "data-testid": "banner", "data-kind": kind, "data-code": code,
                              role: alert ? "alert" : "status", "data-not-paired": notPaired ? "yes" : null, "data-keep": keep ? "yes" : null },
      h("p", { class: "banner-text" }, alert ? sentence(text) : text), // the box's words begin in lower case
      h("button", { class: "banner-close", type: "button", "data-testid": "banner-close", "aria-label": "Dismiss",
                    onclick: () => banner.remove() }, "✕"));
    this.bannerArea.append(banner);
    if (closeAfterMs > 0) setTimeout(() => expire(banner), closeAfterMs);
  }

  /** Does ``text`` repeat a refusal for want of pairing (the box's words, maybe with words before them)? */
  aboutPairing(text) {
    const plain = (words) => String(words || "").toLowerCase().replace(/[.!\s]+$/, "");
    const said = plain(text);
    return [...this.notPairedMessages].some((message) => plain(message) && said.includes(plain(message)));
  }

  clearBanner(kind) {
    for (const el of this.bannerArea.querySelectorAll(`[data-kind="${kind}"]`)) el.remove();
  }

  /** Another screen or game: the last one's messages no longer hold, but for those said on leaving it. */
  clearScreenBanners() {
    for (const el of this.bannerArea.querySelectorAll("[data-kind]")) {
      if (el.dataset.keep === "yes") delete el.dataset.keep;
      else if (["error", "stale", "tap", "info"].includes(el.dataset.kind)) el.remove();
    }
  }

  /** The banners sit in the page just under its header (the sticky top bar or the page's head);
   * those that went by themselves since the last drawing give their room back now. */
  placeBanners() {
    for (const el of this.bannerArea.querySelectorAll("[data-expired]")) el.remove();
    const head = this.screen.querySelector(".topbar, .page-head");
    if (head) head.after(this.bannerArea);
    else this.screen.prepend(this.bannerArea);
  }

  showConnection(state) {
    for (const el of document.querySelectorAll("[data-testid=connection]")) paintConnection(el, state, this.watchingOnly());
  }

  connectionPill() {
    const el = h("div", { class: "conn", "data-testid": "connection" });
    paintConnection(el, this.conn.state, this.watchingOnly());
    return el;
  }

  // -- screens -----------------------------------------------------------------------------------
  render() {
    const screen = this.route.name === "setup" ? this.packScreen((module) => module.setupScreen(this))
      : this.route.name === "leds" ? renderLedSetup(this)
      : this.route.name === "dice" ? renderDiceSetup(this)
      : this.route.name === "pair" ? renderPairing(this)
      : this.route.name === "health" ? renderHealth(this)
      : this.route.name === "game" ? this.gameScreen()
      : this.route.name === "data" ? this.packScreen((module) => module.dataScreen(this, this.route.page))
      : renderGames(this);
    clear(this.screen).append(screen);
    this.placeBanners();
    if (this.route.name === "game") this.markWatching();
    stampButtons(this.screen, this.remoteRender);
    this.remoteRender = false;
    this.watchTopBar();
  }

  /** Keep --topbar-h equal to the sticky top bar's height (it wraps on narrow screens), and --dock-h
   *  to the table's dock pinned at the bottom of the side column: what scrolls into view (a die's
   *  number, a button) stops above the dock, never under it. */
  watchTopBar() {
    this.topBarObserver = watchHeight(this.topBarObserver, this.screen.querySelector(".topbar"), "--topbar-h");
    this.dockObserver = watchHeight(this.dockObserver, this.screen.querySelector(".table-dock"), "--dock-h");
  }

  /** The game on screen, drawn by its pack module; first, a seat if the game has secrets and none is chosen. */
  gameScreen() {
    if (!this.view || !this.packModule || this.packModule !== this.packModules[this.view.game]) return loadingScreen(this);
    if (secretSeats(this).length && this.view.seat === null && !this.watching) return seatChooser(this);
    return withTitle(this.packModule.gameScreen(this), this.view.name);
  }

  /** A new-game or game-data screen: its game's module, or the choice of game when the box has several. */
  packScreen(draw) {
    if (this.screenPack === null) return gameChooser(this);
    if (this.screenPack === undefined || this.packModule !== this.packModules[this.screenPack]) {
      return h("div", { class: "page", "data-testid": "screen-loading" }, h("p", {}, "Opening the box…"));
    }
    return draw(this.packModule);
  }

  refreshPrompt() {
    if (this.packModule && this.packModule.refreshPrompt) this.packModule.refreshPrompt(this);
    else refreshPrompt(this);
    if (this.route.name === "game") this.markWatching();
  }

  /**
   * A tablet that may only watch says so on the game screen, under its top bar, with the way to
   * pair; the question's answers are shown but cannot be tapped (they would only be refused).
   */
  markWatching() {
    const watching = this.watchingOnly() && Boolean(this.view);
    this.root.classList.toggle("watching-only", watching);
    for (const old of this.screen.querySelectorAll("[data-testid=watching-note]")) old.remove();
    if (!watching) return;
    for (const button of this.screen.querySelectorAll("[data-testid=prompt] button, [data-testid=prompt] input, [data-testid=prompt] select")) {
      button.disabled = true;
    }
    const note = h("div", { class: "watching-note", "data-testid": "watching-note", role: "status" },
      h("p", {}, h("strong", {}, "Watching: "), "this tablet is not paired, so it shows the game but cannot answer or change it."),
      h("a", { class: "btn btn-primary", href: "#/pair", "data-testid": "watching-pair",
               onclick: () => { this.pairReturn = location.hash; } }, "Pair this tablet"));
    const head = this.screen.querySelector(".topbar, .page-head");
    if (head) this.bannerArea.after(note);
    else this.screen.prepend(note);
  }
}

/** A game screen's one h1 (a screen reader's first landmark; the top bar shows the rest), first in it. */
function withTitle(screen, name) {
  if (screen && !screen.querySelector("h1")) screen.prepend(h("h1", { class: "visually-hidden", "data-testid": "game-title" }, name || "The game"));
  return screen;
}

/** "Which game?" for a new game or the game data, when the box has several. */
function gameChooser(app) {
  const packs = (app.packs || []).filter((p) => app.route.name !== "data" || p.owner_data);
  const where = app.route.name === "data" ? "#/data" : "#/new";
  return h("div", { class: "page", "data-testid": "screen-choose-game" },
    h("header", { class: "page-head" },
      h("button", { class: "btn", type: "button", "data-testid": "back-to-games", onclick: () => app.go("#/") }, "◀ Games"),
      h("h1", {}, app.route.name === "data" ? "Whose game data?" : "Which game?"), app.connectionPill()),
    h("div", { class: "options" }, packs.map((pack) =>
      h("button", { class: "btn option btn-huge", type: "button", "data-testid": `pack-${pack.id}`,
                    onclick: () => app.go(`${where}/${app.route.name === "data" ? `${encodeURIComponent(pack.id)}/status` : encodeURIComponent(pack.id)}`) },
        h("span", { class: "opt-main" }, pack.title)))));
}

/**
 * A banner that goes by itself is hidden but keeps its room until the screen is next drawn: the
 * page under it does not jump up beneath a finger on its way to a button.
 */
function expire(banner) {
  banner.dataset.expired = "yes";
  banner.setAttribute("aria-hidden", "true");
}

const CONNECTION_WORDS = { connected: "Connected", reconnecting: "Reconnecting…", connecting: "Connecting…" };

/** The connection, and on a tablet that may only watch (not paired) "Watching" in place of a green "Connected". */
function paintConnection(el, state, watching = false) {
  const watchingNow = watching && state === "connected";
  el.dataset.state = state;
  el.dataset.access = watchingNow ? "watching" : "";
  el.className = `conn conn-${watchingNow ? "watching" : state}`;
  clear(el).append(h("span", { class: "conn-dot", "aria-hidden": "true" }),
    h("span", { class: "conn-text" }, watchingNow ? "Watching" : CONNECTION_WORDS[state] || state));
}

window.companion = new App(document.getElementById("app"));

/** Keep the CSS variable ``name`` equal to ``el``'s height (0 without it); returns the observer to reuse. */
function watchHeight(observer, el, name) {
  const found = observer || new ResizeObserver((entries) => {
    const height = Math.ceil(entries[0].target.getBoundingClientRect().height);
    document.documentElement.style.setProperty(name, `${height}px`);
  });
  found.disconnect();
  if (el) found.observe(el);
  else document.documentElement.style.setProperty(name, "0px");
  return found;
}

/** What may change without a new version: who may answer here (a seat claimed or freed elsewhere)
 *  and a request to go back past a reveal (agreed seat by seat). */
function newsAtVersion(current, view) {
  return stableJson(current.prompt ?? null) !== stableJson(view.prompt ?? null)
    || stableJson(current.undo_request ?? null) !== stableJson(view.undo_request ?? null)
    || stableJson(current.actions ?? []) !== stableJson(view.actions ?? []);
}

/** An answer as the rules take it: an action menu entry without its words (``label``, ``confirm``). */
function bare(answer) {
  if (!answer || typeof answer !== "object" || Array.isArray(answer)) return answer;
  const { label, confirm, ...rest } = answer;
  return rest;
}

/** JSON with the keys of every object in order: two answers alike whatever order they were built in. */
function stableJson(value) {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${stableJson(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
