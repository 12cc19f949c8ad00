// Learning the cards as they are played: when a Monster card that is still our
// guess is tapped on the draw question, the draw waits while the tablet shows
// the card as we have it and asks "Is this your card?". "Yes" confirms it in the
// owner's data; "No, correct it" opens the card library's own form on this one
// screen and saves the card as the owner's box prints it. Either way the save
// goes through the card library's path (library.js putEntry, datastatus.js
// saveDoc), so every game in play takes the data as an input of its log first,
// and only then is the draw sent: the card resolved now is the owner's card.
// "Not now" draws it as it is and does not ask again in this game.

import { h } from "/js/dom.js";
import { sentence } from "/js/connection.js";
import { clone, saveDoc, startData, statusOf, workFiles } from "./datastatus.js";
import { EVENT_KINDS, attackWords, cardDraft, cardEditor, cardFields, context, formErrors, putEntry } from "./library.js";

const DRAW = "monster-card";
/** The card being checked, per app: kept across the views its own save brings (app.ui is not). */
const checks = new WeakMap();
/** Cards the players chose not to check, per game on this tablet. */
const skipped = new Map();

function cardOf(app, id) {
  return (workFiles(app)["cards.json"].cards || []).find((c) => c.id === id) || null;
}

/** Still our guess: neither printed in the rulebook nor confirmed or entered by the owner. */
function isGuess(app, card) {
  const state = statusOf(app, `cards.cards.${card.id}`)?.state ?? (card.verified ? "confirmed" : "guess");
  return state === "guess";
}

/** The cards printed alike (the draw offers copies as one choice): what is said of one holds for all. */
function copiesOf(app, card) {
  const same = (c) => JSON.stringify([c.name, c.items, c.event, c.attack]) === JSON.stringify([card.name, card.items, card.event, card.attack]);
  return (workFiles(app)["cards.json"].cards || []).filter((c) => same(c) && isGuess(app, c)).map((c) => c.id);
}

function current(app) {
  const check = checks.get(app);
  const prompt = app.view && app.view.prompt;
  if (!check) return null;
  if (!prompt || prompt.key !== DRAW || check.gameId !== app.view.game_id) { checks.delete(app); return null; }
  return check;
}

/**
 * The shell's `takeAnswer` hook: a tap on a guessed card keeps the draw back and asks about the card.
 * Returns true when this module has taken the answer (it sends it itself).
 */
export function takeCardAnswer(app, prompt, answer) {
  if (prompt.key !== DRAW || typeof answer !== "string" || current(app)) return Boolean(current(app));
  if ((skipped.get(app.view.game_id) || new Set()).has(answer)) return false;
  const check = { gameId: app.view.game_id, id: answer, stage: "loading", draft: null, errors: [] };
  checks.set(app, check);
  app.render();
  startData(app).then(() => decide(app, check), () => decide(app, check));
  return true;
}

/** With the owner's data read fresh: ask about a guessed card, draw any other at once. */
function decide(app, check) {
  if (checks.get(app) !== check) return;
  const card = app.data && app.data.loaded ? cardOf(app, check.id) : null;
  if (!card || !isGuess(app, card)) { draw(app, check); return; }
  check.stage = "ask";
  // The sheet's buttons come up where the finger just was: guarded as a redraw the player did not
  // wait for (taps.js), so the second half of a double tap on the card never says "Yes" for them.
  app.remoteRender = true;
  app.render();
}

async function draw(app, check) {
  checks.delete(app);
  app.render();
  if (app.view && app.view.prompt && app.view.prompt.key === DRAW) await app.send("act", { key: DRAW, answer: check.id });
}

function skip(app, check) {
  if (!skipped.has(check.gameId)) skipped.set(check.gameId, new Set());
  skipped.get(check.gameId).add(check.id);
  draw(app, check);
}

/** Confirm (no fields) or correct (fields) the card and its copies, saved as the card library saves. */
async function save(app, check, fields) {
  check.stage = "saving";
  app.render();
  await startData(app); // the saved document as it is now: another tablet may have saved meanwhile
  const card = app.data && app.data.loaded ? cardOf(app, check.id) : null;
  const doc = app.data && app.data.loaded ? clone(app.data.saved) : null;
  if (!card || !doc) { check.stage = fields ? "fix" : "ask"; app.render(); return; }
  for (const id of copiesOf(app, card).concat(check.id)) putEntry(doc, "cards", id, fields, true);
  const saved = await saveDoc(app, doc);
  if (checks.get(app) !== check) return;
  if (!saved) { check.stage = fields ? "fix" : "ask"; app.render(); return; }
  await app.join(); // the game took the data as an input: draw on top of it
  app.showBanner("info", fields ? `Saved: ${fields.name} is now as your box prints it.` : `Noted: ${card.name} is your card.`, { closeAfterMs: 5000 });
  draw(app, check);
}

function fix(app, check) {
  check.draft = cardDraft(cardOf(app, check.id));
  check.stage = "fix";
  app.render();
}

function sendFix(app, check) {
  const { errors, fields } = cardFields(check.draft);
  check.errors = errors;
  if (errors.length) { app.render(); return; }
  save(app, check, fields);
}

// -- on screen -------------------------------------------------------------------------------------------
function guessOf(app, card) {
  const ctx = context(app);
  const kind = EVENT_KINDS[card.event.kind];
  return h("div", { class: "card-guess", "data-testid": "card-guess", "data-id": card.id },
    h("h3", { "data-testid": "card-guess-name" }, card.name),
    h("p", { "data-testid": "card-guess-items" }, `Items: ${card.items}`),
    h("p", { "data-testid": "card-guess-event" }, h("strong", {}, "Event: "), sentence(card.event.text || (kind ? kind.label : card.event.kind)),
      kind && card.event.kind !== "none" ? h("small", { class: "subtle" }, ` (${kind.label})`) : null),
    h("p", { "data-testid": "card-guess-attack" }, h("strong", {}, "Attack line: "), attackWords(ctx, card.attack)));
}

function askPart(app, check, card) {
  const busy = check.stage === "saving";
  return [
    h("p", { class: "prompt-hint" }, "This card is still our guess. Hold it beside the one you drew:"),
    guessOf(app, card),
    h("h3", { class: "card-check-question" }, "Is this your card?"),
    h("div", { class: "finishers" },
      h("button", { class: "btn btn-primary btn-huge", type: "button", "data-testid": "card-check-yes", disabled: busy,
                    onclick: () => save(app, check, null) }, busy ? "Saving…" : "Yes, this is my card"),
      h("button", { class: "btn btn-huge", type: "button", "data-testid": "card-check-fix", disabled: busy, onclick: () => fix(app, check) }, "No, correct it"),
      h("button", { class: "btn", type: "button", "data-testid": "card-check-skip", disabled: busy, onclick: () => skip(app, check) }, "Not now: draw it as it is")),
  ];
}

function fixPart(app, check) {
  const busy = check.stage === "saving";
  return [
    h("p", { class: "prompt-hint" }, "Change what your card shows differently; the rest stays. Saved as your own card, then drawn."),
    h("div", { class: "change-editor", "data-testid": "card-fix" }, cardEditor(app, check.draft, context(app))),
    formErrors(check),
    h("div", { class: "finishers" },
      h("button", { class: "btn btn-primary btn-huge", type: "button", "data-testid": "card-check-save", disabled: busy,
                    onclick: () => sendFix(app, check) }, busy ? "Saving…" : "Save my card and draw it"),
      h("button", { class: "btn", type: "button", "data-testid": "card-check-back", disabled: busy,
                    onclick: () => { check.stage = "ask"; check.errors = []; app.render(); } }, "Back")),
  ];
}

/** The shell's `promptBody` hook: while a card is being checked the draw question says so (the check
 * itself is the sheet over the game screen), else null: the shell draws the question. */
export function cardCheckBody(app, prompt) {
  const check = prompt.key === DRAW ? current(app) : null;
  if (!check) return null;
  const card = app.data && app.data.loaded ? cardOf(app, check.id) : null;
  return h("p", { class: "prompt-hint", "data-testid": "card-check-waiting" }, `Checking ${card ? card.name : "the card"} before it is drawn…`);
}

/** The check on one screen, over the game: our guess and the three answers, or the correction form. */
export function cardCheckSheet(app) {
  const check = app.view && app.view.prompt && app.view.prompt.key === DRAW ? current(app) : null;
  if (!check) return null;
  const card = check.stage === "loading" ? null : cardOf(app, check.id);
  const part = !card ? [h("p", { class: "subtle" }, "Reading your game data…")]
    : check.stage === "fix" || (check.stage === "saving" && check.draft) ? fixPart(app, check) : askPart(app, check, card);
  return h("div", { class: "sheet-backdrop" },
    h("section", { class: "sheet card-check", role: "dialog", "aria-label": "Is this your card?", "data-testid": "card-check",
                   "data-id": check.id, "data-stage": check.stage }, part));
}
