// A Monster card's fields as form rows, the same in every edition of the family: its name,
// how many items it brings out, its Event (the caller's rows), the attack line (the symbols
// left to right, Frenzy among them), how far the monsters move and how many dice they roll.
// The in-game card builder and the card library both draw it.

import { h } from "/js/dom.js";
import { symbolWord } from "./effects.js";

function numberRow(refresh, card, key, label, low, high) {
  return h("div", { class: "change-row", "data-testid": `card-${key}` }, h("span", { class: "label" }, label),
    ...Array.from({ length: high - low + 1 }, (_, i) => low + i).map((n) =>
      h("button", { class: `btn btn-small${card[key] === n ? " btn-primary" : ""}`, type: "button", "aria-pressed": String(card[key] === n),
                    "data-value": String(n), onclick: () => { card[key] = n; refresh(); } }, String(n))));
}

/** The form's words for the card's foot, as Ravenloft's rulebook has them; an edition may say them its own way. */
const WORDS = { line: "Attack line:", move: "Locations moved:" };

function symbolPart(symbols, refresh, card, icon, words) {
  const look = (s) => (icon ? [icon(s, 22), " "] : []);
  return [
    h("div", { class: "change-row", "data-testid": "card-line" }, h("span", { class: "label" }, words.line),
      card.symbols.length ? card.symbols.map((s) => h("span", { class: "badge", "data-symbol": s }, ...look(s), symbolWord(symbols, s)))
        : h("span", { class: "subtle" }, "tap the symbols left to right"),
      card.symbols.length ? h("button", { class: "btn btn-small", type: "button", "data-testid": "card-line-undo",
        onclick: () => { card.symbols.pop(); refresh(); } }, "⌫") : null,
      card.symbols.length > 1 ? h("button", { class: "btn btn-small", type: "button", "data-testid": "card-line-clear",
        onclick: () => { card.symbols.length = 0; refresh(); } }, "Clear the line") : null),
    h("div", { class: "options" }, ["frenzy", ...Object.keys(symbols)].map((s) =>
      h("button", { class: "btn", type: "button", "data-testid": "card-symbol", "data-symbol": s, disabled: card.symbols.length >= 3,
                    onclick: () => { card.symbols.push(s); refresh(); } }, ...look(s), symbolWord(symbols, s)))),
  ];
}

/**
 * The card's fields as form rows: name, items, Event (`events(card)` gives its rows), attack
 * line, moves, dice. `card` holds name, items, symbols, move, dice; `symbols` are the pack's
 * ({id: {colour, shape, name?}}); `icon(symbol, size)`, if given, draws a symbol beside its word;
 * `words` ({line, move}) name the card's foot in the edition's own words.
 */
export function cardForm(card, { symbols, refresh, events, icon = null, words = {} }) {
  const said = { ...WORDS, ...words };
  return [
    h("input", { class: "text-input", type: "text", "data-testid": "card-name", placeholder: "Card name", value: card.name,
                 oninput: (e) => { card.name = e.target.value; } }),
    numberRow(refresh, card, "items", "Items:", 0, 3),
    ...events(card),
    ...symbolPart(symbols, refresh, card, icon, said),
    numberRow(refresh, card, "move", said.move, 1, 3),
    numberRow(refresh, card, "dice", "Monster dice:", 1, 3),
  ];
}
