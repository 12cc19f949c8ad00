// The Monster Phase guide: every physical step of the phase, from the card drawn to the
// last move, kept in view beside the prompt as a checklist. Steps of earlier answers are
// ticked (the table answered the next question, so it has done them); the steps of the
// last answer are "now", each tapped off when done. Nothing is replaced until the phase is
// over; then a summary of the whole phase stays until the table moves on to the next Hero
// Phase. The steps come from the view's recent_effects (the live inputs only, so an undo
// takes its steps away, and a tablet that joins mid-phase sees them all).

import { h } from "/js/dom.js";

/** An effect that says what happens (a note, a result) rather than asks a hand to move something:
 * the pack declares each kind's nature (docs/protocol.md, "Effects"). */
const isNote = (effect) => effect.nature !== "step";

/** The inputs since the Monster Phase began (the change that ended the Hero Phase), oldest first. */
export function phaseEntries(view) {
  const recent = view.recent_effects || [];
  for (let i = recent.length - 1; i >= 0; i -= 1) {
    if (recent[i].effects.some((e) => e.kind === "hero-phase-ended")) return recent.slice(i);
  }
  return null;
}

/** "guide" while a Monster Phase runs, "summary" right after one ended, else null. */
export function guideMode(app) {
  const { view } = app;
  const entries = phaseEntries(view);
  if (!entries) return null;
  if (view.state.phase === "monster") return "guide";
  const last = entries[entries.length - 1];
  const endedNow = last.version === view.version && last.effects.some((e) => e.kind === "turn");
  return endedNow && view.state.phase === "hero" && app.summaryDismissed !== view.version ? "summary" : null;
}

function stepItem(app, entry, effect, index, now) {
  const key = `${entry.version}:${index}`;
  const note = isNote(effect);
  const ticks = (app.guideTicks ||= new Set());
  const done = !note && (!now || ticks.has(key));
  const toggle = () => { if (ticks.has(key)) ticks.delete(key); else ticks.add(key); app.render(); };
  return h("li", { class: `guide-step${note ? " note" : ""}${done ? " done" : ""}${now && !note ? " now" : ""}`,
                   "data-testid": "guide-step", "data-version": entry.version, "data-kind": effect.kind,
                   "data-done": done ? "yes" : "no", "data-note": note ? "yes" : "no" },
    note ? h("span", { class: "guide-mark", "aria-hidden": "true" }, "·")
      : h("button", { class: "guide-tick", type: "button", "data-testid": "guide-tick", "aria-pressed": done ? "true" : "false",
                      "aria-label": done ? "Done" : "Tap when done", disabled: !now, onclick: now ? toggle : null }, done ? "✓" : ""),
    h("span", { class: "guide-text" }, effect.text));
}

function stepList(app, entries, live) {
  const last = entries[entries.length - 1];
  return h("ol", { class: "guide-steps", "data-testid": "guide-steps" },
    entries.flatMap((entry) => entry.effects.map((effect, i) => stepItem(app, entry, effect, i, live && entry === last))));
}

/** Beside the prompt while the phase runs: every step so far, the newest at the bottom, in view. */
export function phaseGuide(app) {
  const entries = phaseEntries(app.view);
  const count = entries.reduce((n, e) => n + e.effects.filter((x) => !isNote(x)).length, 0);
  return h("section", { class: "panel phase-guide", "data-testid": "phase-guide", "data-steps": count },
    h("h2", {}, `Monster Phase · turn ${app.view.state.turn}`),
    h("p", { class: "subtle" }, "Every step on the table, in order. Ticked: done. Tap the new ones off as you do them."),
    stepList(app, entries, true));
}

function summaryCounts(entries) {
  const kinds = entries.flatMap((entry) => entry.effects.map((e) => e.kind));
  const count = (kind) => kinds.filter((k) => k === kind).length;
  return [["moves", count("monster-moved")], ["attacks", count("target")],
    ["heroes defeated", count("hero-defeated")], ["villagers killed", count("villager-defeated")],
    ["Terror changes", count("terror")]].filter(([, n]) => n > 0).map(([what, n]) => `${n} ${what}`);
}

/** After the phase: what happened in it, until the table moves on to the next Hero Phase. */
export function phaseSummary(app) {
  const { view, names } = app;
  const entries = phaseEntries(view);
  const active = view.state.seats[view.state.active];
  const player = view.state.heroes[active]?.player || "the next player";
  const counts = summaryCounts(entries);
  return h("section", { class: "panel phase-guide phase-summary", "data-testid": "phase-summary" },
    h("h2", {}, "The Monster Phase is over"),
    h("p", { "data-testid": "summary-counts" }, counts.length ? counts.join(" · ") : "Nothing moved or attacked."),
    stepList(app, entries, false),
    h("button", { class: "btn btn-primary btn-huge", type: "button", "data-testid": "summary-continue",
                  onclick: () => { app.summaryDismissed = view.version; app.render(); } },
      `On to ${player}'s Hero Phase (${names.hero(active)})`));
}

/** Keep the newest step in view inside the guide's own column (after a render); the page itself
 * never scrolls for it. */
export function scrollGuide(root) {
  if (!window.matchMedia("(min-width: 1001px)").matches) return; // a phone keeps the prompt where the thumb is
  requestAnimationFrame(() => {
    const column = root.querySelector(".col-guide");
    if (column) column.scrollTop = column.scrollHeight;
  });
}
