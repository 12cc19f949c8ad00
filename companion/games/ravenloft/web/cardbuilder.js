// The card builder: a Monster card the pack does not list, typed in once at
// the table: its name, how many items, the Event (nothing, done by hand, or a
// villager entering) and the attack line (symbols in order, moves, dice).
// The draft lives in app.ui.card until it is sent as the prompt's answer.
// `cardForm` is the form alone, for the card library (library.js) too: it
// takes the draft, the pack (for the symbols and places), a `refresh` to redraw
// it after a tap, and optionally its own Event part.

import { h } from "/js/dom.js";
import { symbolIcon, frenzyIcon } from "./icons.js";

function draft(app) {
  return (app.ui.card ||= { name: "", items: 1, event: "manual", text: "", villager: "", location: "",
                            symbols: [], move: 1, dice: 1 });
}

function numberRow(refresh, card, key, label, low, high) {
  return h("div", { class: "change-row", "data-testid": `card-${key}` }, h("span", { class: "label" }, label),
    ...Array.from({ length: high - low + 1 }, (_, i) => low + i).map((n) =>
      h("button", { class: `btn btn-small${card[key] === n ? " btn-primary" : ""}`, type: "button", "aria-pressed": String(card[key] === n),
                    "data-value": String(n), onclick: () => { card[key] = n; refresh(); } }, String(n))));
}

function eventPart(pack, refresh, card) {
  const kinds = [["none", "No Event"], ["manual", "Done by hand (type it)"], ["place_villager", "A villager enters"]];
  const rows = [h("div", { class: "change-row", "data-testid": "card-event" },
    kinds.map(([kind, label]) => h("button", { class: `btn btn-small${card.event === kind ? " btn-primary" : ""}`, type: "button",
      "data-value": kind, onclick: () => { card.event = kind; refresh(); } }, label)))];
  if (card.event !== "none") {
    rows.push(h("input", { class: "text-input", type: "text", "data-testid": "card-event-text", placeholder: "What the card says",
                           value: card.text, oninput: (e) => { card.text = e.target.value; } }));
  }
  if (card.event === "place_villager") rows.push(villagerRow(pack, card));
  return rows;
}

function villagerRow(pack, card) {
  const pick = (key) => (e) => { card[key] = e.target.value; };
  const places = pack.board.locations.filter((l) => l.area === "board");
  return h("div", { class: "change-row" },
    h("select", { class: "select", "data-testid": "card-villager", "aria-label": "Villager", onchange: pick("villager") },
      h("option", { value: "" }, "Which villager?"),
      pack.villagers.map((v) => h("option", { value: v.id, selected: card.villager === v.id }, v.name))),
    h("select", { class: "select", "data-testid": "card-location", "aria-label": "Where", onchange: pick("location") },
      h("option", { value: "" }, "Where?"),
      places.map((l) => h("option", { value: l.id, selected: card.location === l.id }, l.name))));
}

function symbolPart(pack, refresh, card) {
  const symbols = pack.symbols;
  const icon = (s) => (s === "frenzy" ? frenzyIcon(22) : symbolIcon(s, symbols, 22));
  const word = (s) => (s === "frenzy" ? "Frenzy" : `${s[0].toUpperCase()}${s.slice(1)} (${symbols[s].colour})`);
  return [
    h("div", { class: "change-row", "data-testid": "card-line" }, h("span", { class: "label" }, "Attack line:"),
      card.symbols.length ? card.symbols.map((s) => h("span", { class: "badge" }, icon(s), " ", word(s))) : h("span", { class: "subtle" }, "tap the symbols left to right"),
      card.symbols.length ? h("button", { class: "btn btn-small", type: "button", "data-testid": "card-line-undo",
        onclick: () => { card.symbols.pop(); refresh(); } }, "⌫") : null,
      card.symbols.length > 1 ? h("button", { class: "btn btn-small", type: "button", "data-testid": "card-line-clear",
        onclick: () => { card.symbols.length = 0; refresh(); } }, "Clear the line") : null),
    h("div", { class: "options" }, ["frenzy", ...Object.keys(symbols)].map((s) =>
      h("button", { class: "btn", type: "button", "data-testid": "card-symbol", "data-symbol": s, disabled: card.symbols.length >= 3,
                    onclick: () => { card.symbols.push(s); refresh(); } }, icon(s), " ", word(s)))),
  ];
}

function answerOf(card) {
  const event = card.event === "none" ? { kind: "none", params: {}, text: "No Event." }
    : card.event === "manual" ? { kind: "manual", params: {}, text: card.text }
    : { kind: "place_villager", params: { villager: card.villager, location: card.location }, text: card.text };
  return { action: "card", card: { name: card.name.trim(), items: card.items, event,
                                   attack: { symbols: card.symbols, move: card.move, dice: card.dice } } };
}

/**
 * The card's fields as form rows: name, items, Event (`events(card)` gives the
 * Event rows instead of the builder's three kinds), attack line, moves, dice.
 * `card` holds name, items, symbols, move, dice (and the builder's event fields).
 */
export function cardForm(card, { pack, refresh, events = null }) {
  return [
    h("input", { class: "text-input", type: "text", "data-testid": "card-name", placeholder: "Card name", value: card.name,
                 oninput: (e) => { card.name = e.target.value; } }),
    numberRow(refresh, card, "items", "Items:", 0, 3),
    ...(events ? events(card) : eventPart(pack, refresh, card)),
    ...symbolPart(pack, refresh, card),
    numberRow(refresh, card, "move", "Locations moved:", 1, 3),
    numberRow(refresh, card, "dice", "Monster dice:", 1, 3),
  ];
}

export function cardBuilder(app) {
  const card = draft(app);
  return h("div", { class: "change-editor", "data-testid": "card-builder" },
    h("p", { class: "prompt-hint" }, "Copy the card you drew. It is kept in this game's log; the companion checks it before using it."),
    ...cardForm(card, { pack: app.pack, refresh: () => app.refreshPrompt() }),
    h("div", { class: "finishers" },
      h("button", { class: "btn btn-primary btn-huge btn-finish", type: "button", "data-testid": "card-send",
                    onclick: () => app.answer(answerOf(card)) }, "Use this card")));
}
