// This box's tabs of the family's card library (family/library.js, which draws
// the page and the items): the 30 Monster cards with how sure each is, "Enter a
// card" (the in-game card builder's form, with the Event from the primitive
// library) replacing a guessed card, and simple forms for Perk cards and the
// heroes' d20 special-action tables.

import { h } from "/js/dom.js";
import { cardForm } from "./cardbuilder.js";
import { symbolRow } from "./icons.js";
import { clone, edition, stateBadge, statusOf } from "./family/datastatus.js";
import { enter, formButtons, formErrors, libraryContext } from "./family/library.js";

// -- the primitive library (docs/game-data.md) ----------------------------------------------------------------
export const EVENT_KINDS = {
  none: { label: "No Event", params: [] },
  manual: { label: "Done by hand (the players read it)", params: [] },
  place_villager: { label: "A villager enters", params: ["villager", "location"] },
  move_monsters: { label: "Monsters of a colour move toward the closest character", params: ["symbol", "steps"] },
  move_monsters_to: { label: "Monsters of a colour move toward a place", params: ["symbol", "location", "steps"] },
  pull_adjacent: { label: "Everything next to monsters of a colour is pulled in (Ambush!)", params: ["symbol"] },
  frenzy_next: { label: "The Frenzy marker passes on", params: [] },
  place_monster: { label: "Monsters of a colour are put at a place", params: ["symbol", "location"] },
};
const SPECIAL_KINDS = {
  nothing: { label: "Nothing", params: [] },
  place_item: { label: "Put items from the Haversack on the board", params: ["count"] },
  move_monster: { label: "Move one monster", params: ["steps"] },
  hero_draws: { label: "A hero draws items (and a Perk)", params: ["items", "perk"] },
  distanced_advance: { label: "Advance against a monster from anywhere", params: [] },
  roll_bonus: { label: "Add to Advance/Defeat rolls this Hero Phase", params: ["amount"] },
  slow_monsters: { label: "Monsters move fewer locations this turn", params: ["amount"] },
  ward: { label: "Hits on heroes ignored this turn", params: ["hits"] },
  place_hero: { label: "Put your hero up to some steps away", params: ["steps"] },
  gain_perk: { label: "Take a Perk card", params: [] },
};
const PERK_KINDS = {
  extra_actions: { label: "More actions this turn", params: ["amount"] },
  place_hero: { label: "Put your hero somewhere", params: ["anywhere"] },
  move_villager: { label: "Move one villager", params: ["steps"] },
  draw_items: { label: "Draw items and put them at their places", params: ["count", "hand"] },
  roll_bonus: { label: "Add to your next Advance or Defeat roll", params: ["amount", "lasting"] },
  adjust_roll: { label: "Change a d20 result, after the roll", params: ["amount", "either_way"] },
  move_monster: { label: "Move one monster", params: ["steps"] },
  terror: { label: "Change the terror level", params: ["amount"] },
  spare_hero: { label: "A hero no monster attacks this turn", params: [] },
  manual: { label: "Done by hand (the players read it)", params: [] },
};
const PARAM_WORDS = {
  villager: "Villager", location: "Where", symbol: "Colour symbol", steps: "Locations", count: "How many", items: "Items",
  hits: "Hits", amount: "By how much (negative lowers)", perk: "Also a Perk card", anywhere: "Anywhere (not only at another hero)",
  hand: "Into the holder's hand (not at their places)", lasting: "For every such roll this Hero Phase (not only the next)",
  either_way: "Up to that much, up or down (not exactly that much)",
};
const FLAGS = ["perk", "anywhere", "hand", "lasting", "either_way"];

function defaultParam(name, ctx) {
  if (name === "villager") return ctx.villagers[0]?.id ?? "";
  if (name === "location") return ctx.places[0]?.id ?? "";
  if (name === "symbol") return Object.keys(ctx.symbols)[0] ?? "";
  if (name === "either_way") return true;
  if (FLAGS.includes(name)) return false;
  return 1;
}


/** Kind, params and text of an Effect; `prefix` names its data-testids. */
function effectEditor(app, effect, kinds, ctx, prefix, { optionalSymbol = false } = {}) {
  const spec = kinds[effect.kind];
  const rerender = () => app.render();
  const kindSelect = h("select", { class: "select", "data-testid": `${prefix}-kind`, "aria-label": "What happens",
    onchange: (e) => {
      const kind = e.target.value;
      effect.kind = kind;
      effect.text = ""; // the words were the other kind's: a new kind is described anew
      effect.params = {};
      for (const name of kinds[kind].params) effect.params[name] = defaultParam(name, ctx);
      rerender();
    } },
    Object.entries(kinds).map(([kind, { label }]) => h("option", { value: kind, selected: effect.kind === kind }, label)),
    spec ? null : h("option", { value: effect.kind, selected: true }, `${effect.kind} (kept as it is)`));
  const params = spec ? [...spec.params] : [];
  if (spec && optionalSymbol && !params.includes("symbol")) params.push("symbol?");
  return h("div", { class: "effect-editor", "data-testid": `${prefix}-effect` },
    kindSelect,
    params.map((raw) => {
      const optional = raw.endsWith("?");
      const name = raw.replace("?", "");
      return h("label", { class: "ed-row" }, h("span", {}, optional ? "About which colour (optional)" : PARAM_WORDS[name] || name),
        paramInput(effect, name, ctx, `${prefix}-param`, optional));
    }),
    h("input", { class: "text-input", type: "text", "data-testid": `${prefix}-text`, placeholder: "What it says, in your words", value: effect.text || "",
                 oninput: (e) => { effect.text = e.target.value; } }));
}

function paramInput(effect, name, ctx, testid, optional) {
  const value = effect.params[name];
  const set = (v) => { if (optional && (v === "" || v == null)) delete effect.params[name]; else effect.params[name] = v; };
  const attrs = { "data-testid": testid, "data-param": name };
  if (name === "villager" || name === "location" || name === "symbol") {
    const options = name === "villager" ? ctx.villagers.map((v) => [v.id, v.name])
      : name === "location" ? ctx.places.map((l) => [l.id, l.name])
      : Object.entries(ctx.symbols).map(([id, sym]) => [id, `${id[0].toUpperCase()}${id.slice(1)} (${sym.colour})`]);
    return h("select", { class: "select", ...attrs, onchange: (e) => set(e.target.value) },
      optional ? h("option", { value: "", selected: value == null }, "— none —") : null,
      options.map(([id, label]) => h("option", { value: id, selected: value === id }, label)));
  }
  if (FLAGS.includes(name)) {
    return h("input", { type: "checkbox", class: "check-input", ...attrs, checked: Boolean(value), onchange: (e) => set(e.target.checked) });
  }
  return h("input", { class: "text-input num-input", type: "number", step: 1, min: name === "amount" ? -10 : 1, max: 10, ...attrs,
                      value: String(value ?? 1), oninput: (e) => { if (e.target.value !== "") set(Math.trunc(Number(e.target.value))); } });
}

// -- Monster cards --------------------------------------------------------------------------------------------
export function cardDraft(card) {
  return {
    name: card ? card.name : "", items: card ? card.items : 1,
    effect: card ? clone(card.event) : { kind: "manual", params: {}, text: "" },
    symbols: card ? [...card.attack.symbols] : [], move: card ? card.attack.move : 1, dice: card ? card.attack.dice : 1,
  };
}

function firstGuess(app, cards) {
  const guess = cards.find((c) => (statusOf(app, `cards.cards.${c.id}`)?.state ?? (c.verified ? "confirmed" : "guess")) === "guess");
  return (guess || cards[0]).id;
}

/** A card draft's form: the card builder's fields with the library's Event (every kind, its params). */
export function cardEditor(app, draft, ctx) {
  const pack = { symbols: ctx.symbols, villagers: ctx.villagers, board: { locations: ctx.places } };
  const events = () => [h("div", { class: "field" }, "Event", effectEditor(app, draft.effect, EVENT_KINDS, ctx, "card-event", { optionalSymbol: true }))];
  return cardForm(draft, { pack, refresh: () => app.render(), events });
}

/** A draft as the card's fields, or what keeps it from being saved (`errors`). */
export function cardFields(draft) {
  const errors = [];
  if (!draft.name.trim()) errors.push("Give the card its name.");
  if (!draft.symbols.length) errors.push("Tap the attack line's symbols, left to right (1 to 3).");
  if (draft.effect.kind !== "none" && draft.effect.kind !== "manual" && !String(draft.effect.text || "").trim()) draft.effect.text = EVENT_KINDS[draft.effect.kind]?.label || "";
  if (draft.effect.kind === "none" && !draft.effect.text) draft.effect.text = "No Event.";
  if (draft.effect.kind === "manual" && !String(draft.effect.text || "").trim()) errors.push("Type what the card's Event says: the players will do it by hand.");
  const event = { kind: draft.effect.kind, params: draft.effect.params || {}, text: draft.effect.text };
  return { errors, fields: { name: draft.name.trim(), items: draft.items, event,
                             attack: { symbols: [...draft.symbols], move: draft.move, dice: draft.dice } } };
}

function cardForms(app, ctx) {
  const form = app.data.form;
  const cards = ctx.files["cards.json"].cards;
  const draft = form.draft;
  const save = () => {
    const { errors, fields } = cardFields(draft);
    form.errors = errors;
    if (errors.length) { app.render(); return; }
    enter(app, "cards", form.target, fields, true);
  };
  return h("section", { class: "panel lib-form change-editor", "data-testid": "lib-card-form" },
    h("h2", {}, form.editing ? `Edit “${cards.find((c) => c.id === form.target)?.name}”` : "Enter a card from your box"),
    form.editing ? null : h("label", { class: "field" }, "Which of our cards does it replace?",
      h("select", { class: "select", "data-testid": "lib-card-target", onchange: (e) => { form.target = e.target.value; } },
        cards.map((c) => {
          const state = statusOf(app, `cards.cards.${c.id}`)?.state || (c.verified ? "confirmed" : "guess");
          return h("option", { value: c.id, selected: form.target === c.id }, `${c.name} — ${state === "guess" ? "still our guess" : state === "rulebook" ? "from the rulebook" : "confirmed by you"}`);
        }))),
    h("p", { class: "subtle" }, "Copy the card as printed. What you enter counts as confirmed by you."),
    cardEditor(app, draft, ctx),
    formErrors(form),
    formButtons(app, "lib-card-save", save));
}

export function attackWords(ctx, attack) {
  return h("span", { class: "lib-attack" }, symbolRow(attack.symbols.filter((s) => s !== "frenzy"), ctx.symbols, 18),
    ` ${attack.symbols.map((s) => (s === "frenzy" ? "Frenzy" : s)).join(" → ")} · move ${attack.move} · ${attack.dice} dice`);
}

function cardsTab(app, ctx) {
  const cards = ctx.files["cards.json"].cards;
  const open = (card) => {
    app.data.form = { type: "card", editing: Boolean(card), target: card ? card.id : firstGuess(app, cards), draft: cardDraft(card), errors: [] };
    app.render();
    window.scrollTo(0, 0);
  };
  return [
    h("div", { class: "games-actions" },
      h("button", { class: "btn btn-primary btn-huge", type: "button", "data-testid": "lib-enter-card", onclick: () => open(null) }, "+ Enter a card")),
    app.data.form && app.data.form.type === "card" ? cardForms(app, ctx) : null,
    h("section", { class: "panel" }, h("h2", {}, `Monster cards (${cards.length})`),
      h("ul", { class: "data-elements", "data-testid": "lib-cards" }, cards.map((card) => {
        const state = statusOf(app, `cards.cards.${card.id}`)?.state || (card.verified ? "confirmed" : "guess");
        return h("li", { class: `data-element state-row-${state}`, "data-testid": "lib-card", "data-id": card.id, "data-state": state },
          h("div", { class: "data-element-text" }, h("strong", {}, card.name),
            h("small", {}, `${card.items} item${card.items === 1 ? "" : "s"} · ${card.event.text || card.event.kind}`), attackWords(ctx, card.attack)),
          stateBadge(state),
          h("button", { class: "btn", type: "button", "data-testid": "lib-card-edit", "data-id": card.id, onclick: () => open(card) }, "Edit"));
      }))),
  ];
}

// -- perks ----------------------------------------------------------------------------------------------------
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

/** A Perk card's form rows: its name and what it does (a kind of the primitive library). */
export function perkEditor(app, d, ctx) {
  return [
    h("label", { class: "field" }, "Name", h("input", { class: "text-input", type: "text", "data-testid": "perk-name", value: d.name, oninput: (e) => { d.name = e.target.value; } })),
    h("div", { class: "field" }, "What it does", effectEditor(app, d.effect, PERK_KINDS, ctx, "perk")),
  ];
}

function perkForm(app, ctx) {
  const form = app.data.form;
  const d = form.draft;
  const save = () => {
    const { errors, fields } = perkFields(d);
    form.errors = errors;
    if (form.errors.length) { app.render(); return; }
    enter(app, "perks", form.target, fields, true);
  };
  return h("section", { class: "panel lib-form", "data-testid": "lib-perk-form", "data-id": form.target },
    h("h2", {}, `Perk card: ${d.name || form.target}`),
    perkEditor(app, d, ctx),
    formErrors(form), formButtons(app, "lib-perk-save", save));
}

function perksTab(app, ctx) {
  const perks = ctx.files["perks.json"].perks;
  return [
    app.data.form && app.data.form.type === "perk" ? perkForm(app, ctx) : null,
    h("section", { class: "panel" }, h("h2", {}, `Perk cards (${perks.length})`),
      h("ul", { class: "data-elements", "data-testid": "lib-perks" }, perks.map((perk) => {
        const state = statusOf(app, `perks.perks.${perk.id}`)?.state || (perk.verified ? "confirmed" : "guess");
        return h("li", { class: `data-element state-row-${state}`, "data-testid": "lib-perk", "data-id": perk.id, "data-state": state },
          h("div", { class: "data-element-text" }, h("strong", {}, perk.name), h("small", {}, perk.effect.text)),
          stateBadge(state),
          h("button", { class: "btn", type: "button", "data-testid": "lib-perk-edit", "data-id": perk.id, onclick: () => {
            app.data.form = { type: "perk", target: perk.id, draft: { name: perk.name, effect: clone(perk.effect) } };
            app.render();
            window.scrollTo(0, 0);
          } }, "Edit"));
      }))),
  ];
}

// -- hero tables ------------------------------------------------------------------------------------------------
const TABLES = [["special", "Special action (d20)"], ["special_after_gift", "After accepting the Dark Gift"]];

function tableProblems(rows) {
  const problems = [];
  const seen = new Array(21).fill(0);
  for (const row of rows) {
    if (!(row.low >= 1 && row.high <= 20 && row.low <= row.high)) { problems.push(`Row ${row.low}–${row.high}: from 1 to 20, low first.`); continue; }
    for (let n = row.low; n <= row.high; n += 1) seen[n] += 1;
  }
  const missing = [], twice = [];
  for (let n = 1; n <= 20; n += 1) { if (!seen[n]) missing.push(n); if (seen[n] > 1) twice.push(n); }
  if (missing.length) problems.push(`No row for ${missing.join(", ")}.`);
  if (twice.length) problems.push(`More than one row for ${twice.join(", ")}.`);
  const one = rows.find((r) => r.low <= 1 && r.high >= 1);
  if (one && one.effect.kind !== "nothing") problems.push("A roll of 1 always does nothing (rulebook): the row holding 1 must be “Nothing”.");
  return problems;
}

function heroForm(app, ctx) {
  const form = app.data.form;
  const tables = form.draft;
  const save = () => {
    form.errors = TABLES.flatMap(([key, label]) => tableProblems(tables[key]).map((p) => `${label}: ${p}`));
    if (form.errors.length) { app.render(); return; }
    const fields = {};
    for (const [key] of TABLES) {
      fields[key] = [...tables[key]].sort((a, b) => a.low - b.low)
        .map((r) => ({ low: r.low, high: r.high, effect: { kind: r.effect.kind, params: r.effect.params || {}, text: r.effect.text || SPECIAL_KINDS[r.effect.kind]?.label || "" } }));
    }
    enter(app, "heroes", form.target, fields, false);
  };
  const number = (row, key, testid) => h("input", { class: "text-input num-input", type: "number", min: 1, max: 20, "data-testid": testid, value: String(row[key]),
                                                    oninput: (e) => { row[key] = Math.trunc(Number(e.target.value)); } });
  return h("section", { class: "panel lib-form", "data-testid": "lib-hero-form", "data-id": form.target },
    h("h2", {}, `${ctx.files["heroes.json"].heroes.find((x) => x.id === form.target)?.name}: special-action tables`),
    h("p", { class: "subtle" }, "One row per range of the d20, as printed on the hero tile. Together the rows cover 1 to 20 once; a 1 does nothing."),
    TABLES.map(([key, label]) => h("div", { class: "hero-table", "data-testid": "hero-table", "data-table": key },
      h("h3", {}, label),
      tables[key].map((row, i) => h("div", { class: "hero-row", "data-testid": "hero-row", "data-index": i },
        h("span", { class: "ed-range" }, number(row, "low", "row-low"), " – ", number(row, "high", "row-high")),
        effectEditor(app, row.effect, SPECIAL_KINDS, ctx, "row"),
        h("button", { class: "btn btn-small", type: "button", "data-testid": "row-remove", "aria-label": "Remove this row",
                      onclick: () => { tables[key].splice(i, 1); app.render(); } }, "✕"))),
      h("button", { class: "btn", type: "button", "data-testid": "row-add", onclick: () => {
        const top = Math.max(0, ...tables[key].map((r) => r.high));
        tables[key].push({ low: Math.min(20, top + 1), high: 20, effect: { kind: "nothing", params: {}, text: "Nothing happens." } });
        app.render();
      } }, "+ Add a row"))),
    formErrors(form), formButtons(app, "lib-hero-save", save));
}

function heroesTab(app, ctx) {
  const heroes = ctx.files["heroes.json"].heroes;
  return [
    app.data.form && app.data.form.type === "hero" ? heroForm(app, ctx) : null,
    h("section", { class: "panel" }, h("h2", {}, "Heroes' special actions"),
      h("ul", { class: "data-elements", "data-testid": "lib-heroes" }, heroes.map((hero) => {
        const state = statusOf(app, `heroes.heroes.${hero.id}`)?.state || (hero.verified ? "confirmed" : "guess");
        return h("li", { class: `data-element state-row-${state}`, "data-testid": "lib-hero", "data-id": hero.id, "data-state": state },
          h("div", { class: "data-element-text" }, h("strong", {}, hero.name),
            TABLES.map(([key, label]) => h("small", {}, `${label}: ${(hero[key] || []).map((r) => `${r.low === r.high ? r.low : `${r.low}–${r.high}`} ${r.effect.text || r.effect.kind}`).join(" · ")}`))),
          stateBadge(state),
          h("button", { class: "btn", type: "button", "data-testid": "lib-hero-edit", "data-id": hero.id, onclick: () => {
            app.data.form = { type: "hero", target: hero.id, draft: { special: clone(hero.special || []), special_after_gift: clone(hero.special_after_gift || []) } };
            app.render();
            window.scrollTo(0, 0);
          } }, "Edit tables"));
      }))),
  ];
}

// -- this box's tabs --------------------------------------------------------------------------------------------
edition.library = {
  itemTypes: [["weapon", "Weapon (red)"], ["magical", "Magical (blue)"], ["mundane", "Mundane (yellow)"]],
  tabs: { cards: cardsTab, perks: perksTab, heroes: heroesTab },
};
