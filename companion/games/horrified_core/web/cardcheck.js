// Learning the data as it is played: when a Monster card, an item or a Perk card that
// is still our guess is tapped on its draw question, the draw waits while the tablet
// shows it as we have it and asks "Is this your card?". "Yes" confirms it in the
// owner's data; "No, correct it" opens the card library's own form for it on this one
// sheet and saves it as the owner's box prints it. Either way the save goes through the
// card library's path (library.js putEntry, datastatus.js saveDoc), so every game in
// play takes the data as an input of its log first, and only then is the draw sent:
// what is played now is already the owner's. "Not now" draws it as it is and does not
// ask about it again in this game.
//
// Every edition of the family draws it the same way on its game screen (cardCheckSheet),
// with the shell's hooks takeAnswer (takeCardAnswer) and promptBody (cardCheckBody); what
// its Events say and how its items look are the edition's library (edition.library).

import { h } from "/js/dom.js";
import { sentence } from "/js/connection.js";
import { clone, edition, saveDoc, startData, workFiles } from "./datastatus.js";
import { attackWords, cardDraft, cardEditor, cardFields, formErrors, itemDraft, itemEditor, itemFields, libraryContext as context, perkDraft,
         perkEditor, perkFields, putEntry, refusedWhy, stateOf } from "./library.js";

/** A tap on the sheet this soon after it came up is the rest of the tap on the draw, not an answer. */
const SETTLE_MS = 350;

// -- what each draw asks about ---------------------------------------------------------------------------
function cardGuess(app, card) {
  const kind = edition.library.events.kinds[card.event.kind];
  return [
    h("p", { "data-testid": "check-guess-items" }, `Items: ${card.items}`),
    h("p", { "data-testid": "check-guess-event" }, h("strong", {}, "Event: "), sentence(card.event.text || (kind ? kind.label : card.event.kind)),
      kind && card.event.kind !== "none" ? h("small", { class: "subtle" }, ` (${kind.label})`) : null),
    h("p", { "data-testid": "check-guess-attack" }, h("strong", {}, `${edition.library.cardWords?.line || "Attack line:"} `), attackWords(context(app), card.attack)),
  ];
}

function itemGuess(app, item) {
  const place = context(app).files["board.json"].locations.find((l) => l.id === item.location);
  const look = edition.library.itemLook ? edition.library.itemLook(item)
    : ` ${(edition.library.itemTypes.find(([id]) => id === item.type) || [item.type, item.type])[1]}`;
  return [h("p", { "data-testid": "check-guess-item" }, look, `, strength ${item.strength}`),
    h("p", {}, h("strong", {}, "Put at: "), place ? place.name : item.location)];
}

function perkGuess(app, perk) {
  return [h("p", { "data-testid": "check-guess-perk" }, sentence(perk.effect.text || perk.effect.kind))];
}

const KINDS = {
  "monster-card": { stem: "cards", noun: "card", guess: cardGuess, draft: cardDraft, fields: cardFields,
                    editor: (app, draft, ctx) => cardEditor(app, draft, ctx) },
  item: { stem: "items", noun: "item", guess: itemGuess, draft: itemDraft, fields: itemFields,
          editor: (app, draft, ctx) => itemEditor(draft, ctx) },
  perk: { stem: "perks", noun: "Perk card", guess: perkGuess, draft: perkDraft, fields: perkFields,
          editor: (app, draft, ctx) => perkEditor(app, draft, ctx) },
};

/** The card being checked, per app: kept across the views its own save brings (app.ui is not). */
const checks = new WeakMap();
/** When this tablet last read the owner's data for a check: a setup's twelve item draws read it once. */
const readAt = new WeakMap();
const FRESH_MS = 30_000;
/** What the players chose not to check, per game on this tablet. */
const skipped = new Map();

function recordOf(app, kind, id) {
  return (workFiles(app)[`${kind.stem}.json`][kind.stem] || []).find((e) => e.id === id) || null;
}

/** Still our guess: neither printed in the rulebook nor confirmed or entered by the owner. */
function isGuess(app, kind, record) {
  return stateOf(app, kind.stem, record) === "guess";
}

/** The records printed alike (the draw offers copies as one choice): what is said of one holds for all. */
function copiesOf(app, kind, record) {
  const facts = (e) => JSON.stringify({ ...e, id: null, verified: null, verified_fields: null, note: null });
  return (workFiles(app)[`${kind.stem}.json`][kind.stem] || []).filter((e) => facts(e) === facts(record) && isGuess(app, kind, e)).map((e) => e.id);
}

function current(app) {
  const check = checks.get(app);
  const prompt = app.view && app.view.prompt;
  if (!check) return null;
  if (!prompt || prompt.key !== check.key || check.gameId !== app.view.game_id) { checks.delete(app); return null; }
  return check;
}

/**
 * The shell's `takeAnswer` hook: a tap on a guessed card, item or Perk holds the draw back and asks about it.
 * Returns true when this module has taken the answer (it sends it itself).
 */
export function takeCardAnswer(app, prompt, answer) {
  if (current(app)) return true;
  if (!KINDS[prompt.key] || prompt.kind !== "draw" || typeof answer !== "string") return false;
  if ((skipped.get(app.view.game_id) || new Set()).has(`${prompt.key}:${answer}`)) return false;
  const known = app.data && app.data.loaded;
  const kind = KINDS[prompt.key];
  // What the owner already confirmed stays confirmed: the data read before answers that at once.
  if (known && !guessed(app, kind, answer)) return false;
  const check = { gameId: app.view.game_id, key: prompt.key, id: answer, stage: "loading", draft: null, errors: [], shownAt: 0 };
  checks.set(app, check);
  if (known) ask(app, check);
  else app.render();
  // Read again, unless just read: another tablet may have confirmed it meanwhile (then it is drawn without asking).
  if (known && performance.now() - (readAt.get(app) ?? -Infinity) < FRESH_MS) return true;
  readAt.set(app, performance.now());
  startData(app).then(() => decide(app, check), () => decide(app, check));
  return true;
}

function guessed(app, kind, id) {
  const record = recordOf(app, kind, id);
  return Boolean(record && isGuess(app, kind, record));
}

function ask(app, check) {
  check.stage = "ask";
  check.shownAt = performance.now();
  app.render();
}

/** With the owner's data read fresh: ask about a guess (unless already asking), draw anything else at once. */
function decide(app, check) {
  if (checks.get(app) !== check || (check.stage !== "loading" && check.stage !== "ask")) return;
  const known = app.data && app.data.loaded;
  if (!known || !guessed(app, KINDS[check.key], check.id)) { draw(app, check); return; }
  if (check.stage === "loading") ask(app, check);
}

async function draw(app, check) {
  checks.delete(app);
  app.render();
  if (app.view && app.view.prompt && app.view.prompt.key === check.key) await app.send("act", { key: check.key, answer: check.id });
}

function skip(app, check) {
  if (!skipped.has(check.gameId)) skipped.set(check.gameId, new Set());
  skipped.get(check.gameId).add(`${check.key}:${check.id}`);
  draw(app, check);
}

/** Confirm (no fields) or correct (fields) the record and its copies, saved as the card library saves. */
async function save(app, check, fields) {
  const kind = KINDS[check.key];
  check.stage = "saving";
  app.render();
  await startData(app); // the saved document as it is now: another tablet may have saved meanwhile
  const record = app.data && app.data.loaded ? recordOf(app, kind, check.id) : null;
  const doc = app.data && app.data.loaded ? clone(app.data.saved) : null;
  if (!record || !doc) { check.stage = fields ? "fix" : "ask"; app.render(); return; }
  for (const id of copiesOf(app, kind, record).concat(check.id)) putEntry(doc, kind.stem, id, fields, true);
  const saved = await saveDoc(app, doc);
  if (checks.get(app) !== check) return;
  if (!saved) { check.stage = fields ? "fix" : "ask"; check.errors = refusedWhy(app.data); app.render(); return; }
  await app.join(); // the game took the data as an input: draw on top of it
  app.showBanner("info", fields ? `Saved: ${fields.name} is now as your box prints it.` : `Noted: ${record.name} is your ${kind.noun}.`, { closeAfterMs: 5000 });
  draw(app, check);
}

/**
 * The sheet's answers that save or go back (Yes, correct it, wrong card) wait for the tap that
 * opened it to be over: a tap this soon is not used, and the sheet says so (the page's last tap
 * too, as the shell's tap guard marks it). "Not now" draws the card the player tapped either way.
 */
function settled(app, check) {
  if (performance.now() - check.shownAt >= SETTLE_MS) { check.early = false; return true; }
  document.documentElement.dataset.lastTap = "ignored:fresh";
  check.early = true;
  app.render();
  return false;
}

/** "Not this card": the name tapped was not the card drawn. Nothing is drawn or saved; the draw asks again. */
function wrongCard(app, check) {
  if (!settled(app, check)) return;
  checks.delete(app);
  app.render();
}

function fix(app, check) {
  if (!settled(app, check)) return;
  check.draft = KINDS[check.key].draft(recordOf(app, KINDS[check.key], check.id));
  check.stage = "fix";
  app.render();
}

function sendFix(app, check) {
  const { errors, fields } = KINDS[check.key].fields(check.draft);
  check.errors = errors;
  if (errors.length) { app.render(); return; }
  save(app, check, fields);
}

// -- on screen -------------------------------------------------------------------------------------------
function askPart(app, check, record) {
  const kind = KINDS[check.key];
  const busy = check.stage === "saving";
  return [
    h("p", { class: "prompt-hint" }, `This ${kind.noun} is still our guess. Hold it beside the one you drew:`),
    h("div", { class: "card-guess", "data-testid": "check-guess", "data-id": record.id },
      h("h3", { "data-testid": "check-guess-name" }, record.name), kind.guess(app, record)),
    h("h3", { class: "card-check-question" }, `Is this your ${kind.noun}?`),
    h("div", { class: "finishers" },
      h("button", { class: "btn btn-primary btn-huge", type: "button", "data-testid": "card-check-yes", disabled: busy,
                    onclick: () => { if (settled(app, check)) save(app, check, null); } }, busy ? "Saving…" : `Yes, this is my ${kind.noun}`),
      h("button", { class: "btn btn-huge", type: "button", "data-testid": "card-check-fix", disabled: busy, onclick: () => fix(app, check) }, "No, correct it"),
      h("button", { class: "btn btn-huge", type: "button", "data-testid": "card-check-wrong", disabled: busy, onclick: () => wrongCard(app, check) },
        `I tapped the wrong ${kind.noun}: choose again`),
      h("button", { class: "btn", type: "button", "data-testid": "card-check-skip", disabled: busy,
                    onclick: () => skip(app, check) }, "Not now: draw it as it is")),
    check.early ? h("p", { class: "prompt-hint card-check-early", "data-testid": "card-check-early", role: "status" },
      "That tap came as this question appeared, so it was not used. Check the card, then tap again.") : null,
    formErrors(check),
  ];
}

function fixPart(app, check) {
  const busy = check.stage === "saving";
  return [
    h("p", { class: "prompt-hint" }, "Change what yours shows differently; the rest stays. Saved as your own, then drawn."),
    h("div", { class: "change-editor", "data-testid": "card-fix" }, KINDS[check.key].editor(app, check.draft, context(app))),
    formErrors(check),
    h("div", { class: "finishers" },
      h("button", { class: "btn btn-primary btn-huge", type: "button", "data-testid": "card-check-save", disabled: busy,
                    onclick: () => sendFix(app, check) }, busy ? "Saving…" : "Save mine and draw it"),
      h("button", { class: "btn", type: "button", "data-testid": "card-check-back", disabled: busy,
                    onclick: () => { check.stage = "ask"; check.errors = []; app.render(); } }, "Back")),
  ];
}

/** The shell's `promptBody` hook: while a draw is being checked the question says so (the check
 * itself is the sheet over the game screen), else null: the shell draws the question. */
export function cardCheckBody(app, prompt) {
  const check = KINDS[prompt.key] ? current(app) : null;
  if (!check) return null;
  const record = app.data && app.data.loaded ? recordOf(app, KINDS[check.key], check.id) : null;
  return h("p", { class: "prompt-hint", "data-testid": "card-check-waiting" }, `Checking ${record ? record.name : "it"} before it is drawn…`);
}

/** The check on one screen, over the game: our guess and the three answers, or the correction form. */
export function cardCheckSheet(app) {
  const check = app.view && app.view.prompt ? current(app) : null;
  if (!check) return null;
  const kind = KINDS[check.key];
  const record = check.stage === "loading" ? null : recordOf(app, kind, check.id);
  const part = !record ? [h("p", { class: "subtle" }, "Reading your game data…")]
    : check.stage === "fix" || (check.stage === "saving" && check.draft) ? fixPart(app, check) : askPart(app, check, record);
  return h("div", { class: "sheet-backdrop" },
    h("section", { class: "sheet card-check", role: "dialog", "aria-label": `Is this your ${kind.noun}?`, "data-testid": "card-check",
                   "data-kind": check.key, "data-id": check.id, "data-stage": check.stage }, part));
}
