// This box's part of the family's card library (family/library.js, which draws
// the page, the items, the Monster cards and the Perk cards): what its Events,
// Perks and heroes' special actions may do (its primitive library, for the
// family's forms, effects.js) and the form of the heroes' d20 special-action tables.

import { h } from "/js/dom.js";
import { itemIcon, itemTypeWord, symbolLook } from "./icons.js";
import { clone, edition } from "./family/datastatus.js";
import { effectEditor } from "./family/effects.js";
import { enter, formButtons, formErrors, openForm, recordList } from "./family/library.js";

// -- the primitive library (docs/game-data.md) ----------------------------------------------------------------
const EVENT_KINDS = {
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

const LIBRARY = { words: { ...PARAM_WORDS, optionalSymbol: "About which colour (optional)" }, flags: FLAGS, negative: ["amount"],
                  defaults: { either_way: true } };
const EVENTS = { ...LIBRARY, kinds: EVENT_KINDS };
const PERKS = { ...LIBRARY, kinds: PERK_KINDS };
const SPECIALS = { ...LIBRARY, kinds: SPECIAL_KINDS };

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
        effectEditor(app, row.effect, SPECIALS, ctx, "row"),
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
  const rows = (hero, key) => (hero[key] || []).map((r) => `${r.low === r.high ? r.low : `${r.low}–${r.high}`} ${r.effect.text || r.effect.kind}`).join(" · ");
  return [
    app.data.form && app.data.form.type === "hero" ? heroForm(app, ctx) : null,
    recordList(app, { stem: "heroes", noun: "hero", title: "Heroes' special actions", records: heroes, editLabel: "Edit tables",
                      lines: (hero) => TABLES.map(([key, label]) => h("small", {}, `${label}: ${rows(hero, key)}`)),
                      edit: (hero) => openForm(app, { type: "hero", target: hero.id,
                                                      draft: { special: clone(hero.special || []), special_after_gift: clone(hero.special_after_gift || []) } }) }),
  ];
}

// -- this box's tabs --------------------------------------------------------------------------------------------
edition.library = {
  itemTypes: [["weapon", "Weapon (red)"], ["magical", "Magical (blue)"], ["mundane", "Mundane (yellow)"]],
  events: EVENTS, perks: PERKS, symbolLook,
  itemLook: (item) => [itemIcon(item.type, item.strength, 28), ` ${itemTypeWord(item.type)}`],
  tabs: { heroes: heroesTab },
};
