// The end of a game of the family, the same for every edition: the result over the
// board (its words are the edition's: outcomeWords in its names.js), the way to see the
// board behind it, to undo the last step, or to go back to the games; once hidden, a
// ribbon brings it back.

import { h } from "/js/dom.js";

function overlay(app, words) {
  const { view } = app;
  return h("div", { class: `outcome ${words.won ? "outcome-won" : "outcome-lost"}`, "data-testid": "outcome", "data-outcome": view.outcome, role: "dialog",
                    "aria-modal": "true", "aria-labelledby": "outcome-title" },
    h("div", { class: "outcome-box" },
      h("h2", { class: "outcome-title", id: "outcome-title", "data-testid": "outcome-title" }, words.title),
      h("p", { class: "outcome-text" }, words.text),
      h("p", { class: "subtle" }, `Terror ${view.state.terror} of ${app.pack.board.terror_max} · turn ${view.state.turn} · ${view.state.deck.length} Monster cards left`),
      h("div", { class: "outcome-buttons" },
        h("button", { class: "btn btn-huge", type: "button", "data-testid": "outcome-board", onclick: () => { app.outcomeHidden = true; app.render(); } }, "See the board"),
        view.can_undo ? h("button", { class: "btn btn-huge", type: "button", "data-testid": "outcome-undo", onclick: () => app.goBack(1) }, "↶ Undo the last step") : null,
        h("button", { class: "btn btn-primary btn-huge", type: "button", "data-testid": "outcome-games", onclick: () => app.go("#/") }, "Back to the games"))));
}

/** What the game screen shows of a finished game: the result, or the ribbon that brings it back; nothing while it plays. */
export function outcomeParts(app, outcomeWords) {
  const { view } = app;
  if (!view.outcome) return [];
  if (!app.outcomeHidden) return [overlay(app, outcomeWords(view.outcome))];
  return [h("button", { class: "btn btn-primary over-ribbon", type: "button", "data-testid": "outcome-show",
                        onclick: () => { app.outcomeHidden = false; app.render(); } }, "Game over — show the result")];
}
