// The toy game's tablet module ("Secret words"): written against the shell's
// pieces only, to show that a game's screens need nothing else.

import { h } from "/js/dom.js";
import { promptPanel } from "/js/prompt.js";
import { effectsPanel, historyDrawer, loadingScreen } from "/js/gamescreen.js";

function scores(app) {
  const { state } = app.view;
  return h("section", { class: "panel", "data-testid": "toy-scores" }, h("h2", {}, `Round ${state.round}`),
    h("ul", {}, Object.entries(state.scores).map(([seat, n]) =>
      h("li", { "data-testid": "toy-score", "data-seat": seat }, `${app.pack.seats[seat]}: ${n}`))),
    Object.keys(state.revealed).length ? h("p", { "data-testid": "toy-revealed" },
      `Last round: ${Object.entries(state.revealed).map(([seat, word]) => `${app.pack.seats[seat]} wrote ${word}`).join(", ")}`) : null,
    state.winner ? h("p", { "data-testid": "toy-winner" }, `${app.pack.seats[state.winner]} wins!`) : null);
}

function mine(app) {
  const { view } = app;
  if (!view.seat) return h("p", { class: "subtle", "data-testid": "toy-watching" }, "This screen watches: the words stay secret until both are written.");
  const word = view.private && view.private.my_word;
  return h("p", { "data-testid": "toy-mine" }, word ? `Your word this round: ${word}` : "You have not written this round's word yet.");
}

export default {
  setupScreen(app) {
    const start = async () => {
      const reply = await app.conn.request("new_game", { game: "secret-words", name: "Secret words", setup: {} });
      if (reply.ok) app.go(`#/game/${encodeURIComponent(reply.game_id)}`);
      else app.showBanner("error", reply.error.message);
    };
    return h("div", { class: "page", "data-testid": "screen-setup" }, h("h1", {}, "Secret words"),
      h("button", { class: "btn btn-primary btn-huge", type: "button", "data-testid": "setup-start", onclick: start }, "Start the game"));
  },
  gameScreen(app) {
    const { view } = app;
    if (!view) return loadingScreen(app);
    return h("div", { class: "game", "data-testid": "screen-game", "data-game-id": view.game_id, "data-version": view.version },
      h("header", { class: "topbar" }, h("button", { class: "btn btn-bar", type: "button", onclick: () => app.go("#/") }, "◀ Games"),
        h("button", { class: "btn btn-bar", type: "button", "data-testid": "history-open",
                      onclick: () => { app.historyOpen = true; app.render(); } }, "↶ History"), app.connectionPill()),
      h("div", { class: "game-body" }, h("div", { class: "col-side" }, promptPanel(app), mine(app), effectsPanel(app)),
        h("div", { class: "col-board" }, scores(app))),
      app.historyOpen ? historyDrawer(app) : null);
  },
  actionBody(app, prompt) {
    if (prompt.key !== "secret-word") return null;
    const input = h("input", { class: "text-input", type: "text", "data-testid": "toy-word", "aria-label": "Your secret word",
                               autocomplete: "off" });
    return [input, h("button", { class: "btn btn-primary btn-huge", type: "button", "data-testid": "toy-write",
                                 onclick: () => app.answer({ action: "write", word: input.value.trim() }) }, "Write it, in secret")];
  },
};
