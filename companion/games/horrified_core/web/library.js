// The family's library of printed components (#/data/cards, /items, /perks,
// /heroes): the page, saving an entry (into the working copy of datastatus.js,
// saved at once; what the owner typed from their own box counts as confirmed), the
// list of a tab's records with how sure each is, and the tabs every edition prints
// alike in shape: the items (name, colour, strength, where it is put), the Monster
// cards (name, items, Event, attack line, move, dice) and the Perk cards (name, what
// it does). What an edition's Events and Perks may do is its own, handed in as
// `edition.library` with `itemTypes` ([[id, words]]), `events` and `perks` (primitive
// libraries, see effects.js), optionally `symbolLook(symbols)` and `itemLook(item)` to
// draw them, `cardWords` (cardform.js) and `titles` ({page: title}) in its own words,
// and `tabs` ({page: (app, ctx) => parts}) for its own pages (heroes).

import { h } from "/js/dom.js";
import { sentence } from "/js/connection.js";
import { cardForm } from "./cardform.js";
import { checksPanel, clone, dataHead, edition, editWork, loadingPage, saveBar, saveDoc, stateBadge, statusOf, workFiles } from "./datastatus.js";
import { effectEditor, effectFields, symbolWord } from "./effects.js";

/** What a tab draws from: the working copy's files, the pack's symbols, villagers, monsters and the main board's places. */
export function libraryContext(app) {
  const files = workFiles(app);
  return {
    files,
    symbols: (app.packCache || app.pack || {}).symbols || {},
    villagers: files["villagers.json"].villagers,
    monsters: files["monsters.json"].monsters,
    places: files["board.json"].locations.filter((l) => (l.area ?? "board") === "board"),
  };
}

// -- saving an entry ---------------------------------------------------------------------------------------
/** Put the fields of one element (none: leave them as they are) into an owner-data document, and
 * confirm it if asked: the one way an entry goes in, from the library or from the table. */
export function putEntry(doc, stem, id, fields, confirm) {
  if (fields) ((doc.changes[stem] ||= {})[stem] ||= {})[id] = clone(fields);
  const key = `${stem}.${stem}.${id}`;
  if (confirm && !doc.confirmed.includes(key)) doc.confirmed.push(key);
}

/** Put the fields of one element into the working copy, confirm it if asked, and save. */
export async function enter(app, stem, id, fields, confirm) {
  editWork(app, (work) => putEntry(work, stem, id, fields, confirm), { render: false });
  const saved = await saveDoc(app);
  if (saved) app.data.form = null;
  else if (app.data.form) app.data.form.errors = refusedWhy(app.data);
  app.render();
}

/** What the companion named when it refused a save (it saved nothing), for the form that asked. */
export function refusedWhy(data) {
  const result = data.saveResult;
  if (!result || result.ok) return [];
  return result.problems.length ? result.problems.map((p) => sentence(p)) : [`Not saved: ${sentence(result.message)}`];
}

export function formButtons(app, testid, onSave, label = "Save this and use it") {
  return h("div", { class: "cal-buttons" },
    h("button", { class: "btn btn-primary btn-huge", type: "button", "data-testid": testid, disabled: app.data.saving, onclick: onSave },
      app.data.saving ? "Saving…" : label),
    h("button", { class: "btn btn-huge", type: "button", "data-testid": "lib-form-cancel", onclick: () => { app.data.form = null; app.render(); } }, "Cancel"));
}

export function formErrors(form) {
  return form.errors && form.errors.length
    ? h("ul", { class: "cal-problems", "data-testid": "lib-form-errors" }, form.errors.map((e) => h("li", {}, e))) : null;
}

/** How sure a record is: from the rulebook, confirmed by the owner or still our guess. */
export function stateOf(app, stem, record) {
  return statusOf(app, `${stem}.${stem}.${record.id}`)?.state || (record.verified ? "confirmed" : "guess");
}

/** Open a form at the top of the tab. */
export function openForm(app, form) {
  app.data.form = { errors: [], ...form };
  app.render();
  window.scrollTo(0, 0);
}

/**
 * A tab's records, each with what it says (`lines(record)`: nodes under its name), how sure it
 * is and its Edit button (`edit(record)`); `noun` names the data-testids (lib-<noun>, lib-<noun>s,
 * lib-<noun>-edit).
 */
export function recordList(app, { stem, noun, title, records, lines, edit, editLabel = "Edit" }) {
  return h("section", { class: "panel" }, h("h2", {}, title),
    h("ul", { class: "data-elements", "data-testid": `lib-${noun}s` }, records.map((record) => {
      const state = stateOf(app, stem, record);
      return h("li", { class: `data-element state-row-${state}`, "data-testid": `lib-${noun}`, "data-id": record.id, "data-state": state },
        h("div", { class: "data-element-text" }, h("strong", {}, record.name), lines(record)),
        stateBadge(state),
        h("button", { class: "btn", type: "button", "data-testid": `lib-${noun}-edit`, "data-id": record.id, onclick: () => edit(record) }, editLabel));
    })));
}

/** The form of one record: its rows, what kept it from being saved, Save and Cancel. `fields(draft)`
 * gives the record's fields or `errors`; a saved record counts as confirmed when `confirm`. */
export function recordForm(app, { noun, stem, title, rows, fields, confirm = true }) {
  const form = app.data.form;
  const save = () => {
    const made = fields(form.draft);
    form.errors = made.errors;
    if (form.errors.length) { app.render(); return; }
    enter(app, stem, form.target, made.fields, confirm);
  };
  return h("section", { class: "panel lib-form change-editor", "data-testid": `lib-${noun}-form`, "data-id": form.target },
    h("h2", {}, title), rows, formErrors(form), formButtons(app, `lib-${noun}-save`, save));
}

// -- items ----------------------------------------------------------------------------------------------------
export function itemDraft(item) {
  return { name: item.name, type: item.type, strength: item.strength, location: item.location };
}

/** An item draft as the item's fields, or what keeps it from being saved (`errors`). */
export function itemFields(d) {
  return { errors: d.name.trim() ? [] : ["Give the item its name."],
           fields: { name: d.name.trim(), type: d.type, strength: d.strength, location: d.location } };
}

/** An item's form rows: name, type, strength and where it is put. */
export function itemEditor(d, ctx) {
  return [
    h("label", { class: "field" }, "Name", h("input", { class: "text-input", type: "text", "data-testid": "item-name", value: d.name, oninput: (e) => { d.name = e.target.value; } })),
    h("label", { class: "field" }, "Type", h("select", { class: "select", "data-testid": "item-type", onchange: (e) => { d.type = e.target.value; } },
      edition.library.itemTypes.map(([id, label]) => h("option", { value: id, selected: d.type === id }, label)))),
    h("label", { class: "field" }, "Strength", h("select", { class: "select", "data-testid": "item-strength", onchange: (e) => { d.strength = Number(e.target.value); } },
      [1, 2, 3, 4, 5, 6].map((n) => h("option", { value: String(n), selected: d.strength === n }, String(n))))),
    h("label", { class: "field" }, "Where it is put", h("select", { class: "select", "data-testid": "item-location", onchange: (e) => { d.location = e.target.value; } },
      ctx.places.map((l) => h("option", { value: l.id, selected: d.location === l.id }, l.name)))),
  ];
}

export function itemsTab(app, ctx) {
  const items = ctx.files["items.json"].items;
  const places = Object.fromEntries(ctx.files["board.json"].locations.map((l) => [l.id, l.name]));
  const form = app.data.form;
  return [
    form && form.type === "item" ? recordForm(app, { noun: "item", stem: "items", title: `Item: ${form.draft.name || form.target}`,
                                                     rows: itemEditor(form.draft, ctx), fields: itemFields }) : null,
    recordList(app, { stem: "items", noun: "item", title: `Items (${items.length})`, records: items,
                      lines: (item) => h("small", {}, `${item.type} ${item.strength} · ${places[item.location] || item.location}`),
                      edit: (item) => openForm(app, { type: "item", target: item.id, draft: itemDraft(item) }) }),
  ];
}

// -- Monster cards --------------------------------------------------------------------------------------------
export function cardDraft(card) {
  return {
    name: card ? card.name : "", items: card ? card.items : 1,
    effect: card ? clone(card.event) : { kind: "manual", params: {}, text: "" },
    symbols: card ? [...card.attack.symbols] : [], move: card ? card.attack.move : 1, dice: card ? card.attack.dice : 1,
  };
}

/** A card draft's form: the family's card rows with the edition's Event (every kind, its params). */
export function cardEditor(app, draft, ctx) {
  const lib = edition.library;
  const events = () => [h("div", { class: "field" }, "Event", effectEditor(app, draft.effect, lib.events, ctx, "card-event", { optionalSymbol: true }))];
  return cardForm(draft, { symbols: ctx.symbols, refresh: () => app.render(), events, icon: lib.symbolLook ? lib.symbolLook(ctx.symbols) : null,
                           words: lib.cardWords });
}

/** A draft as the card's fields, or what keeps it from being saved (`errors`). */
export function cardFields(draft) {
  const errors = [];
  const effect = draft.effect;
  if (!draft.name.trim()) errors.push("Give the card its name.");
  if (!draft.symbols.length) errors.push("Tap the symbols at the card's foot, left to right (1 to 3).");
  if (effect.kind === "none" && !effect.text) effect.text = "No Event.";
  if (effect.kind === "manual" && !String(effect.text || "").trim()) errors.push("Type what the card's Event says: the players will do it by hand.");
  const event = effectFields(edition.library.events, effect);
  return { errors, fields: { name: draft.name.trim(), items: draft.items, event,
                             attack: { symbols: [...draft.symbols], move: draft.move, dice: draft.dice } } };
}

/** An attack line in words (and pictures, where the edition draws its symbols). */
export function attackWords(ctx, attack) {
  const look = edition.library.symbolLook ? edition.library.symbolLook(ctx.symbols) : null;
  return h("span", { class: "lib-attack" }, look ? attack.symbols.filter((s) => s !== "frenzy").map((s) => look(s, 18)) : null,
    ` ${attack.symbols.map((s) => symbolWord(ctx.symbols, s)).join(" → ")} · move ${attack.move} · ${attack.dice} dice`);
}

const STATE_CHOICE = { guess: "still our guess", rulebook: "from the rulebook", confirmed: "confirmed by you" };

function cardTarget(app, form, cards) {
  return h("label", { class: "field" }, "Which of our cards does it replace?",
    h("select", { class: "select", "data-testid": "lib-card-target", onchange: (e) => { form.target = e.target.value; } },
      cards.map((c) => h("option", { value: c.id, selected: form.target === c.id }, `${c.name} — ${STATE_CHOICE[stateOf(app, "cards", c)]}`))));
}

function cardsForm(app, ctx, cards) {
  const form = app.data.form;
  const title = form.editing ? `Edit “${cards.find((c) => c.id === form.target)?.name}”` : "Enter a card from your box";
  const rows = [form.editing ? null : cardTarget(app, form, cards),
    h("p", { class: "subtle" }, "Copy the card as printed. What you enter counts as confirmed by you."),
    cardEditor(app, form.draft, ctx)];
  return recordForm(app, { noun: "card", stem: "cards", title, rows, fields: cardFields });
}

export function cardsTab(app, ctx) {
  const cards = ctx.files["cards.json"].cards;
  const open = (card) => {
    const target = card ? card.id : (cards.find((c) => stateOf(app, "cards", c) === "guess") || cards[0]).id;
    openForm(app, { type: "card", editing: Boolean(card), target, draft: cardDraft(card) });
  };
  return [
    h("div", { class: "games-actions" },
      h("button", { class: "btn btn-primary btn-huge", type: "button", "data-testid": "lib-enter-card", onclick: () => open(null) }, "+ Enter a card")),
    app.data.form && app.data.form.type === "card" ? cardsForm(app, ctx, cards) : null,
    recordList(app, { stem: "cards", noun: "card", title: `Monster cards (${cards.length})`, records: cards, edit: open,
                      lines: (card) => [h("small", {}, `${card.items} item${card.items === 1 ? "" : "s"} · ${card.event.text || card.event.kind}`),
                                        attackWords(ctx, card.attack)] }),
  ];
}

// -- Perk cards -------------------------------------------------------------------------------------------------
export function perkDraft(perk) {
  return { name: perk.name, effect: clone(perk.effect) };
}

/** A Perk draft as the card's fields, or what keeps it from being saved (`errors`). */
export function perkFields(d) {
  const errors = [];
  if (!d.name.trim()) errors.push("Give the Perk card its name.");
  if (!String(d.effect.text || "").trim()) errors.push("Type what the card says.");
  return { errors, fields: { name: d.name.trim(), effect: { kind: d.effect.kind, params: d.effect.params || {}, text: d.effect.text } } };
}

/** A Perk card's form rows: its name and what it does (a kind of the edition's Perk library). */
export function perkEditor(app, d, ctx) {
  return [
    h("label", { class: "field" }, "Name", h("input", { class: "text-input", type: "text", "data-testid": "perk-name", value: d.name, oninput: (e) => { d.name = e.target.value; } })),
    h("div", { class: "field" }, "What it does", effectEditor(app, d.effect, edition.library.perks, ctx, "perk")),
  ];
}

export function perksTab(app, ctx) {
  const perks = ctx.files["perks.json"].perks;
  const form = app.data.form;
  return [
    form && form.type === "perk" ? recordForm(app, { noun: "perk", stem: "perks", title: `Perk card: ${form.draft.name || form.target}`,
                                                     rows: perkEditor(app, form.draft, ctx), fields: perkFields }) : null,
    recordList(app, { stem: "perks", noun: "perk", title: `Perk cards (${perks.length})`, records: perks,
                      lines: (perk) => h("small", {}, perk.effect.text),
                      edit: (perk) => openForm(app, { type: "perk", target: perk.id, draft: perkDraft(perk) }) }),
  ];
}

// -- the screen -----------------------------------------------------------------------------------------------------
const SHARED_TABS = { items: itemsTab, cards: cardsTab, perks: perksTab };
const TITLES = { cards: "Monster cards", items: "Items", perks: "Perk cards", heroes: "Hero tables" };

export function renderLibrary(app) {
  const page = app.route.page;
  const title = (edition.library.titles || {})[page] || TITLES[page] || "Card library";
  if (!app.data || !app.data.loaded) return loadingPage(app, title);
  if (!app.packCache) {
    app.loadPack(edition.game).then(() => { if (app.route.name === "data") app.render(); }, (e) => app.showBanner("error", sentence(String(e.message || e))));
  }
  if (app.data.form && app.data.form.page !== page) {
    if (app.data.form.page) app.data.form = null; // a form of another tab is dropped on switching tabs
  }
  if (app.data.form && !app.data.form.page) app.data.form.page = page;
  const ctx = libraryContext(app);
  const tab = (edition.library.tabs || {})[page] || SHARED_TABS[page];
  const body = tab ? tab(app, ctx) : h("p", { "data-testid": "lib-no-page" }, "This box has no such page.");
  return h("div", { class: "page data-page", "data-testid": `screen-library-${page}` },
    ...dataHead(app, title),
    h("div", { class: "lib-body" }, h("div", { class: "lib-main" }, body), h("div", { class: "lib-side" }, saveBar(app), checksPanel(app))));
}
