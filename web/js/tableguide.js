// What to do with the real pieces, for every game alike: the box works it out from the tabletop a
// pack declares (docs/protocol.md, "The tabletop"), so no pack draws any of this itself.
//
// - after an undo: the pieces to put back (view.put_back);
// - a new game: the setup checklist (view.setup: the changes from an empty table);
// - a phase the pack marks (the Monster Phase, the Dungeon Master's turn, a day or night): every
//   physical step so far, in order, earlier ones ticked, the newest tapped off by hand, kept in
//   view until the phase is over; then its summary (view.phase.changes: the table at its end
//   against the table at its start) until the table moves on;
// - a game opened on a tablet that has not followed it: how the table should look now.
// All of it sits in one dock at the bottom of the side column, pinned in view while the prompt
// above it scrolls (a DM's turn with 35 buttons, a phone).

import { h } from "./dom.js";

const sentence = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// -- after an undo -------------------------------------------------------------------------------------
/** After an undo (from any tablet, before a restart too): the pieces to put back on the table, until
 * the next change. It says nothing moves only when the two tables are the same. */
export function putBackPanel(app) {
  const back = app.view.put_back;
  if (!Array.isArray(back)) return null;
  return h("section", { class: "panel put-back", "data-testid": "put-back", role: "status" },
    h("h2", {}, "Undone: put the table back"),
    back.length
      ? h("ol", { class: "effect-list" }, back.map((change) =>
          h("li", { "data-testid": "put-back-line", "data-what": change.what, "data-id": change.id }, change.text)))
      : h("p", { class: "subtle" }, "Nothing on the table moves back: the table is as it was."));
}

// -- ticks -----------------------------------------------------------------------------------------------
function tickItem(app, key, text, { now = true, done = false, note = false, testid = "guide-step", version = "" } = {}) {
  const ticks = (app.guideTicks ||= new Set());
  const isDone = !note && (done || ticks.has(key));
  const toggle = () => { if (ticks.has(key)) ticks.delete(key); else ticks.add(key); app.render(); };
  return h("li", { class: `guide-step${note ? " note" : ""}${isDone ? " done" : ""}${now && !note ? " now" : ""}`,
                   "data-testid": testid, "data-version": version, "data-done": isDone ? "yes" : "no",
                   "data-note": note ? "yes" : "no" },
    note ? h("span", { class: "guide-mark", "aria-hidden": "true" }, "·")
      : h("button", { class: "guide-tick", type: "button", "data-testid": "guide-tick", "aria-pressed": isDone ? "true" : "false",
                      "aria-label": isDone ? "Done" : "Tap when done", disabled: !now || done, onclick: now && !done ? toggle : null },
        isDone ? "✓" : ""),
    h("span", { class: "guide-text" }, text));
}

// -- a new game --------------------------------------------------------------------------------------------
/** A new game (nothing answered yet): lay out the table, one tick per piece. */
export function setupPanel(app) {
  const setup = app.view.setup;
  if (!Array.isArray(setup) || !setup.length) return null;
  return h("section", { class: "panel phase-guide setup-guide", "data-testid": "setup-guide", "data-steps": setup.length },
    h("h2", {}, "Set up the table"),
    h("p", { class: "subtle" }, "Everything that goes on the table, from an empty one. Tap each off as you do it."),
    h("ol", { class: "guide-steps" }, setup.map((change, i) =>
      tickItem(app, `setup:${app.view.game_id}:${i}`, change.text, { testid: "setup-step" }))));
}

// -- a phase -----------------------------------------------------------------------------------------------
/** The view's entries (an input's effects each) of the newest phase, up to its end. */
function phaseEntries(view) {
  const phase = view.phase;
  if (!phase) return [];
  return (view.recent_effects || []).filter((entry) => entry.version >= phase.begun
    && (phase.ended == null || entry.version <= phase.ended));
}

/** "guide" while a phase runs, "summary" once it is over (until dismissed or the next one), else null. */
export function phaseMode(app) {
  const phase = app.view.phase;
  if (!phase || app.view.outcome) return null;
  if (phase.ended == null) return "guide";
  return app.summaryDismissed === phase.begun ? null : "summary";
}

function stepList(app, entries, live) {
  const last = entries[entries.length - 1];
  return h("ol", { class: "guide-steps", "data-testid": "guide-steps" },
    entries.flatMap((entry) => entry.effects.map((effect, i) => tickItem(app, `${entry.version}:${i}`, effect.text, {
      now: live && entry === last, done: !(live && entry === last), note: effect.nature !== "step",
      version: entry.version }))));
}

function phaseGuide(app) {
  const { phase } = app.view;
  const entries = phaseEntries(app.view);
  const count = entries.reduce((n, e) => n + e.effects.filter((x) => x.nature === "step").length, 0);
  return h("section", { class: "panel phase-guide", "data-testid": "phase-guide", "data-steps": count },
    h("h2", {}, sentence(phase.name)),
    h("p", { class: "subtle" }, "Every step on the table, in order. Ticked: done. Tap the new ones off as you do them."),
    stepList(app, entries, true));
}

function phaseSummary(app) {
  const { phase } = app.view;
  const changes = phase.changes || [];
  return h("section", { class: "panel phase-guide phase-summary", "data-testid": "phase-summary" },
    h("h2", {}, `${sentence(phase.name)} is over`),
    h("h3", {}, "What changed on the table"),
    changes.length
      ? h("ol", { class: "effect-list", "data-testid": "summary-changes" }, changes.map((change) =>
          h("li", { "data-testid": "summary-change", "data-what": change.what, "data-id": change.id }, change.text)))
      : h("p", { class: "subtle", "data-testid": "summary-changes" }, "Nothing on the table changed."),
    h("details", { class: "summary-steps" }, h("summary", {}, "Every step, in order"), stepList(app, phaseEntries(app.view), false)),
    h("button", { class: "btn btn-primary btn-huge", type: "button", "data-testid": "summary-continue",
                  onclick: () => { app.summaryDismissed = phase.begun; app.render(); } }, "Done: on with the game"));
}

// -- how the table should look now ---------------------------------------------------------------------------
function tableLines(tabletop) {
  const where = (key) => (key === "" ? "off the board" : tabletop.places[key] || key);
  const byPlace = new Map();
  const add = (key, text) => { if (key === "") return; if (!byPlace.has(key)) byPlace.set(key, []); byPlace.get(key).push(text); };
  for (const piece of Object.values(tabletop.pieces)) add(piece.at, piece.name);
  for (const count of Object.values(tabletop.counts)) {
    if (count.value > 0) add(count.at, `${count.value} ${count.value === 1 ? count.noun : count.plural}`);
  }
  const places = [...byPlace.entries()].map(([key, things]) => `${sentence(where(key))}: ${things.join(", ")}.`);
  const tracks = Object.values(tabletop.tracks).filter((t) => t.value !== null && t.value !== false)
    .map((t) => `${t.name}: ${t.value === true ? "yes" : t.value}.`);
  return [...tracks, ...places];
}

/** The whole table as it should be now, place by place (a tablet that did not follow the game: a
 * restart, a reload, a new tablet). */
export function tableNowPanel(app) {
  if (!app.tableNowOpen || !app.view.tabletop) return null;
  const close = () => { app.tableNowOpen = false; app.render(); };
  return h("section", { class: "panel table-now", "data-testid": "table-now" },
    h("h2", {}, "How the table should look now"),
    h("ul", { class: "effect-list" }, tableLines(app.view.tabletop).map((line) => h("li", { "data-testid": "table-now-line" }, line))),
    h("button", { class: "btn", type: "button", "data-testid": "table-now-close", onclick: close }, "Close"));
}

/** A game this tablet did not see from its start: offer to check the whole table. */
function resumedNote(app) {
  if (app.view.version === 0 || app.tableNowOpen || app.tableChecked === app.view.game_id) return null;
  return h("section", { class: "panel resumed", "data-testid": "resumed" },
    h("p", {}, "This game was going on before this screen opened it. Is the table as the game is?"),
    h("div", { class: "row" },
      h("button", { class: "btn btn-primary", type: "button", "data-testid": "table-now-open",
                    onclick: () => { app.tableNowOpen = true; app.tableChecked = app.view.game_id; app.render(); } },
        "Show how the table should look"),
      h("button", { class: "btn", type: "button", "data-testid": "resumed-ok",
                    onclick: () => { app.tableChecked = app.view.game_id; app.render(); } }, "It is")));
}

// -- the dock ------------------------------------------------------------------------------------------------
/** Everything the table has to do with its pieces now, pinned in view at the bottom of the side column:
 * ``rest`` (the pack's "What to do now") shows when no phase's steps list it already. */
export function tableDock(app, rest) {
  const mode = phaseMode(app);
  const dock = h("div", { class: "table-dock", "data-testid": "table-dock", "data-mode": mode || "" },
    putBackPanel(app), tableNowPanel(app), resumedNote(app), setupPanel(app),
    mode === "guide" ? phaseGuide(app) : mode === "summary" ? phaseSummary(app) : null,
    mode === "guide" ? null : rest);
  // The newest step in view; after an undo the pieces to put back come first, at the top.
  if (mode === "guide" && !Array.isArray(app.view.put_back)) requestAnimationFrame(() => { dock.scrollTop = dock.scrollHeight; });
  return dock;
}

/** Whether this tablet followed the game from a view before (a new game, or one seen at its start). */
export function noteFollowed(app, view) {
  if (view && view.version === 0) app.tableChecked = view.game_id;
}
