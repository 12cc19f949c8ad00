// The parts of a game screen every game shares (a pack's web module lays them
// out with its own board): "What to do now", the history drawer with undo and
// redo, the screen shown while a game opens, and redrawing the prompt alone.

import { h } from "./dom.js";
import { promptPanel, seatName } from "./prompt.js";
import { openSeats, seatsPanel } from "./seats.js";

export function loadingScreen(app) {
  return h("div", { class: "page", "data-testid": "screen-game-loading" },
    h("header", { class: "page-head" }, h("button", { class: "btn", type: "button", onclick: () => app.go("#/") }, "◀ Games"),
      h("h1", {}, "Opening the game…"), app.connectionPill()));
}

// -- what to do now -----------------------------------------------------------------------------------
/** After an undo: the pieces to put back on the table, until the next change. */
export function putBackPanel(app) {
  const back = app.putBack;
  if (!back || back.version !== app.view.version) return null;
  return h("section", { class: "panel put-back", "data-testid": "put-back", role: "status" },
    h("h2", {}, "Undone: put the table back"),
    back.lines.length
      ? h("ol", { class: "effect-list" }, back.lines.map((line) => h("li", { "data-testid": "put-back-line" }, line)))
      : h("p", { class: "subtle" }, "Nothing on the table moves back."));
}

/** A request to go back past a reveal: each seat that answered in secret there agrees on its own device. */
export function undoRequestPanel(app) {
  const request = app.view.undo_request;
  if (!request || request.version !== app.view.version) return null;
  const names = (request.waiting || []).map((seat) => seatName(app, seat));
  const mine = app.view.seat !== null && (request.waiting || []).includes(app.view.seat);
  return h("section", { class: "panel put-back", "data-testid": "undo-request", role: "status" },
    h("h2", {}, `Go back ${request.count} step${request.count === 1 ? "" : "s"}, past what was revealed?`),
    h("p", {}, "What was revealed to everyone is final unless each player who answered in secret agrees. " +
      `Still to agree: ${names.join(", ")}.`),
    mine ? h("button", { class: "btn btn-primary btn-huge", type: "button", "data-testid": "undo-agree",
                         onclick: () => app.send("undo", { count: request.count }) }, "I agree: go back") : null);
}

export function effectsPanel(app) {
  const effects = app.view.effects;
  return h("section", { class: "panel effects", "data-testid": "effects" },
    undoRequestPanel(app),
    putBackPanel(app),
    h("h2", {}, "What to do now"),
    effects.length
      ? h("ol", { class: "effect-list" }, effects.map((e) =>
          h("li", { class: `effect effect-${e.kind}`, "data-testid": "effect", "data-kind": e.kind }, e.text)))
      : h("p", { class: "subtle" }, "Nothing to change on the table."));
}

// -- history drawer ---------------------------------------------------------------------------------------
export function historyDrawer(app) {
  const close = () => { app.historyOpen = false; app.seatsOpen = false; app.render(); };
  return h("div", { class: "drawer-backdrop", onclick: (e) => { if (e.target === e.currentTarget) close(); } },
    h("aside", { class: "drawer", "data-testid": "history", role: "dialog", "aria-label": "History" },
      h("header", { class: "drawer-head" }, h("h2", {}, app.seatsOpen ? "Seats" : "History"),
        h("button", { class: "btn", type: "button", "data-testid": "history-close", onclick: close }, "Close ✕")),
      ...(app.seatsOpen ? [seatsPanel(app)] : historyParts(app))));
}

function historyParts(app) {
  const { view } = app;
  return [
      h("div", { class: "drawer-buttons" },
        h("button", { class: "btn btn-huge", type: "button", "data-testid": "undo", disabled: !view.can_undo,
                      onclick: () => app.goBack(1) }, "↶ Undo"),
        h("button", { class: "btn btn-huge", type: "button", "data-testid": "redo", disabled: !view.can_redo,
                      onclick: () => app.send("redo", { count: 1 }) }, "↷ Redo"),
        (view.redo_count || 0) > 1
          ? h("button", { class: "btn btn-huge", type: "button", "data-testid": "redo-all", "data-count": view.redo_count,
                          onclick: () => app.send("redo", { count: view.redo_count }) }, `↷ Redo all ${view.redo_count} steps`)
          : null,
        h("button", { class: "btn btn-huge", type: "button", "data-testid": "open-seats", onclick: () => openSeats(app) },
          "Seats…")),
      putBackPanel(app),
      h("p", { class: "subtle" }, "Newest first. “Go back to here” undoes everything after that step (it lists the pieces to put back first); Redo brings it back until someone answers something new."),
      view.history.length ? h("ol", { class: "history-list" }, foldAsides(view.history).map(({ entry, asides }) =>
        h("li", { class: "history-entry", "data-testid": "history-entry", "data-undo-count": entry.undo_count },
          h("span", { class: "history-label" }, entry.label),
          goBackTo(app, entry),
          asides.length ? h("details", { class: "history-asides", "data-testid": "history-asides" },
            h("summary", {}, asides.length === 1 ? "Just before: your game data was taken in" : `Just before: your game data was taken in (${asides.length} times)`),
            h("ol", { class: "history-list" }, asides.map((aside) =>
              h("li", { class: "history-entry", "data-testid": "history-aside", "data-undo-count": aside.undo_count },
                h("span", { class: "history-label" }, aside.label), goBackTo(app, aside))))) : null)))
        : h("p", { class: "subtle" }, "Nothing has been answered yet.")];
}

function goBackTo(app, entry) {
  return entry.undo_count > 0
    ? h("button", { class: "btn", type: "button", "data-testid": "undo-to", "data-count": entry.undo_count,
                    onclick: () => app.goBack(entry.undo_count) }, "Go back to here")
    : h("span", { class: "badge" }, "Now");
}

/**
 * The history, newest first, with each input beside the play (``aside``: the owner's game data
 * taken in, as after every card confirmed at the table) folded under the move that came next:
 * nothing is lost (each keeps its own "Go back to here"), and the moves stay readable.
 */
function foldAsides(history) {
  const rows = [];
  for (const entry of history) {
    const newer = rows[rows.length - 1];
    if (entry.aside && newer) newer.asides.push(entry);
    else rows.push({ entry, asides: [] });
  }
  return rows;
}

/** Re-draw the prompt alone (a die tapped, an item toggled): the board and the filter box stay as they are. */
export function refreshPrompt(app) {
  const old = document.getElementById("prompt-panel");
  if (!old || !app.view) { app.render(); return; }
  old.replaceWith(promptPanel(app));
}
