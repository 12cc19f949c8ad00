// This box's part of the family's card library (family/library.js draws the page, the
// items, the Monster cards and the Perk cards): what this box's Events and Perk cards
// may do (the primitives its loader accepts, pack.py's EVENT_KINDS and PERK_KINDS),
// and the heroes' form: actions, starting space, special action and ability.

import { h } from "/js/dom.js";
import { edition } from "./family/datastatus.js";
import { effectEditor, effectFields } from "./family/effects.js";
import { openForm, recordForm, recordList } from "./family/library.js";
import "./edition.js";

// -- the primitives (docs/horrified.md) -------------------------------------------------------------------
const EVENT_KINDS = {
  none: { label: "No Event", params: [] },
  manual: { label: "Done by hand (the players read it)", params: [] },
  place_villager: { label: "A villager enters", params: ["villager", "location"] },
  place_monster: { label: "A monster is put in a space", params: ["symbol", "location"] },
  monster_to_active_hero: { label: "A monster is put in the current hero's space", params: ["symbol"] },
  monster_to_most_items: { label: "A monster goes where the most items lie and takes them", params: ["symbol"] },
  pull_closest: { label: "The person closest to a monster moves toward it", params: ["symbol", "steps"] },
  hunt: { label: "The Wolf Man hunts a hero and moves toward them", params: ["symbol", "steps"] },
  soul: { label: "The Mummy's Soul token: its holder moves toward him", params: ["symbol", "steps"] },
  meeting: { label: "The Bride moves toward Frankenstein", params: ["symbol", "steps"] },
  villagers_to_safety: { label: "Every villager moves toward their safe place", params: ["steps"] },
  frenzy_next: { label: "The Frenzy marker passes on", params: [] },
  sequence: { label: "Several things, one after the other", params: ["steps"], nested: "steps" },
};
const PERK_KINDS = {
  extra_actions: { label: "More actions this turn", params: ["amount"] },
  items_per_player: { label: "Each player draws items and puts them at their places", params: ["count"] },
  place_or_move_monster: { label: "Put a monster in any space, or move any monster", params: ["monster", "steps"] },
  move_hero: { label: "Move a hero", params: ["steps"] },
  move_heroes: { label: "Move each hero", params: ["steps"] },
  place_any_hero: { label: "Put a hero in any space that is not water", params: [] },
  skip_monster_phase: { label: "No Monster Phase this turn; draw items", params: ["count"] },
  move_monsters: { label: "Move each monster", params: ["steps"] },
  give_items: { label: "A hero gives items to another hero, wherever they are", params: [] },
  gather_heroes: { label: "Heroes gather in a space where a hero is", params: [] },
  manual: { label: "Done by hand (the players read it)", params: [] },
};
const SPECIAL_KINDS = {
  none: { label: "No special action", params: [] },
  pick_up_adjacent: { label: "Pick up items from a space next to you", params: [] },
  move_to_hero: { label: "Move to a space where another hero is", params: [] },
  move_anywhere: { label: "Move to any space that is not water", params: [] },
  move_to_monster: { label: "Move to a space where a monster is", params: [] },
  move_other_hero: { label: "Move another hero to a space next to them", params: [] },
};
const ABILITY_KINDS = {
  none: { label: "No ability", params: [] },
  item_bonus: { label: "Each item used counts more strength", params: ["amount"] },
};
const WORDS = {
  villager: "Villager", location: "Where", symbol: "Which monster", monster: "Which monster", steps: "Spaces (up to)",
  count: "How many items", amount: "How many", optionalSymbol: "About which monster (optional)",
};
const LIBRARY = { words: WORDS, flags: [], negative: [] };
const SPECIALS = { ...LIBRARY, kinds: SPECIAL_KINDS };
const ABILITIES = { ...LIBRARY, kinds: ABILITY_KINDS };

// -- heroes ---------------------------------------------------------------------------------------------------
function heroDraft(hero) {
  const copy = (e) => ({ kind: e.kind, params: { ...e.params }, text: e.text });
  return { name: hero.name, actions: hero.actions, start: hero.start, special: copy(hero.special), ability: copy(hero.ability) };
}

/** A hero draft as the badge's fields, or what keeps it from being saved (`errors`). */
function heroFields(d) {
  const errors = [];
  if (!d.name.trim()) errors.push("Give the hero their name.");
  if (!(Number.isInteger(d.actions) && d.actions >= 1 && d.actions <= 10)) errors.push("Actions: a whole number from 1 to 10.");
  return { errors, fields: { name: d.name.trim(), actions: d.actions, start: d.start,
                             special: effectFields(SPECIALS, d.special), ability: effectFields(ABILITIES, d.ability) } };
}

function heroEditor(app, d, ctx) {
  return [
    h("label", { class: "field" }, "Name", h("input", { class: "text-input", type: "text", "data-testid": "hero-name", value: d.name,
                                                        oninput: (e) => { d.name = e.target.value; } })),
    h("label", { class: "field" }, "Actions each turn", h("input", { class: "text-input num-input", type: "number", min: 1, max: 10, step: 1,
      "data-testid": "hero-actions", value: String(d.actions), oninput: (e) => { d.actions = Math.trunc(Number(e.target.value)); } })),
    h("label", { class: "field" }, "Starts at", h("select", { class: "select", "data-testid": "hero-start", onchange: (e) => { d.start = e.target.value; } },
      ctx.places.map((l) => h("option", { value: l.id, selected: d.start === l.id }, l.name)))),
    h("div", { class: "field" }, "Special action", effectEditor(app, d.special, SPECIALS, ctx, "hero-special")),
    h("div", { class: "field" }, "Ability", effectEditor(app, d.ability, ABILITIES, ctx, "hero-ability")),
  ];
}

function heroesTab(app, ctx) {
  const heroes = ctx.files["heroes.json"].heroes;
  const places = Object.fromEntries(ctx.files["board.json"].locations.map((l) => [l.id, l.name]));
  const form = app.data.form;
  return [
    form && form.type === "hero" ? recordForm(app, { noun: "hero", stem: "heroes", title: `Hero: ${form.draft.name || form.target}`,
                                                     rows: heroEditor(app, form.draft, ctx), fields: heroFields }) : null,
    recordList(app, { stem: "heroes", noun: "hero", title: `Heroes (${heroes.length})`, records: heroes,
                      lines: (hero) => [h("small", {}, `${hero.actions} actions · starts at ${places[hero.start] || hero.start}`),
                                        h("small", {}, `Special action: ${hero.special.text}`), h("small", {}, `Ability: ${hero.ability.text}`)],
                      edit: (hero) => openForm(app, { type: "hero", target: hero.id, draft: heroDraft(hero) }) }),
  ];
}

// -- this box's part --------------------------------------------------------------------------------------------
Object.assign(edition.library, {
  events: { ...LIBRARY, kinds: EVENT_KINDS },
  perks: { ...LIBRARY, kinds: PERK_KINDS },
  tabs: { heroes: heroesTab },
  titles: { heroes: "Heroes" },
  cardWords: { line: "Monster Strike:", move: "Spaces moved:" },
});
