// The parts of a game screen every game shares (a pack's web module lays them
// out with its own board): "What to do now", the history drawer with undo and
// redo, the screen shown while a game opens, and redrawing the prompt alone.

import { h } from "./dom.js";
import { promptPanel, seatName } from "./prompt.js";
import { openSeats, seatsPanel } from "./seats.js";
import { putBackPanel, tableDock } from "./tableguide.js";

export function loadingScreen(app) {
  return h("div", { class: "page", "data-testid": "screen-game-loading" },
    h("header", { class: "page-head" }, h("button", { class: "btn", type: "button", onclick: () => app.go("#/") }, "◀ Games"),
      h("h1", {}, "Opening the game…"), app.connectionPill()));
}

// -- what to do now -----------------------------------------------------------------------------------
export { putBackPanel };

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

/** "What to do now", in the dock of what the table does with its pieces (tableguide.js): the pieces
 * to put back after an undo, the setup checklist, the phase's steps or its summary; above it, a
 * request to go back past a reveal, while it waits for the players' agreement. */
export function effectsPanel(app) {
  const effects = app.view.effects;
  return tableDock(app, h("section", { class: "panel effects", "data-testid": "effects" },
    undoRequestPanel(app),
    h("h2", {}, "What to do now"),
    effects.length
      ? h("ol", { class: "effect-list" }, effects.map((e) =>
          h("li", { class: `effect effect-${e.kind} nature-${e.nature || "step"}`, "data-testid": "effect", "data-kind": e.kind,
                    "data-nature": e.nature || "step" }, e.text)))
      : h("p", { class: "subtle" }, "Nothing to change on the table.")));
}

// -- history drawer ---------------------------------------------------------------------------------------
/**
 * A drawer over the game screen, a modal dialog named by its heading: it takes the focus when it
 * opens and after every redraw, Escape (or a tap beside it) closes it with ``onClose``, and the
 * focus goes back to the button ``opener`` (a data-testid) that opened it.
 */
export function drawerDialog({ testid, title, closeTestid, opener, onClose }, ...parts) {
  const close = () => {
    onClose();
    const back = document.querySelector(`[data-testid=${opener}]`);
    if (back) back.focus({ preventScroll: true });
  };
  const shut = h("button", { class: "btn", type: "button", "data-testid": closeTestid, onclick: close }, "Close ✕");
  const drawer = h("div", { class: "drawer", "data-testid": testid, role: "dialog", "aria-modal": "true", "aria-labelledby": `${testid}-title`,
                            onkeydown: (e) => { if (e.key === "Escape") { e.preventDefault(); close(); } } },
    h("header", { class: "drawer-head" }, h("h2", { id: `${testid}-title` }, title), shut), ...parts);
  requestAnimationFrame(() => { if (drawer.isConnected && !drawer.contains(document.activeElement)) shut.focus({ preventScroll: true }); });
  return h("div", { class: "drawer-backdrop", onclick: (e) => { if (e.target === e.currentTarget) close(); } }, drawer);
}

export function historyDrawer(app) {
  return drawerDialog({ testid: "history", title: app.seatsOpen ? "Seats" : "History", closeTestid: "history-close", opener: "history-open",
                        onClose: () => { app.historyOpen = false; app.seatsOpen = false; app.render(); } },
    ...(app.seatsOpen ? [seatsPanel(app)] : historyParts(app)));
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
      h("button", { class: "btn", type: "button", "data-testid": "history-table-now",
                    onclick: () => { app.tableNowOpen = true; app.historyOpen = false; app.render(); } },
        "How the table should look now"),
      h("p", { class: "subtle" }, "Newest first. “Go back to here” undoes everything after that step (it lists the pieces to put back first); Redo brings it back until someone answers something new."),
      view.history.length ? h("ol", { class: "history-list" }, foldAsides(view.history).map(({ entry, asides }) =>
        h("li", { class: "history-entry", "data-testid": "history-entry", "data-undo-count": entry.undo_count },
          h("span", { class: "history-label" }, entry.label),
          (entry.moves || []).length ? h("ul", { class: "history-moves", "data-testid": "history-moves" },
            entry.moves.map((move) => h("li", { "data-testid": "history-move" }, move))) : null,
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
