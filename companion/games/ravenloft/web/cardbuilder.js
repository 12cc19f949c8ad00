// The card builder: a Monster card the pack does not list, typed in once at
// the table: its name, how many items, the Event (nothing, done by hand, or a
// villager entering) and the attack line (symbols in order, moves, dice).
// The draft lives in app.ui.card until it is sent as the prompt's answer.
// The form's rows are the family's (family/cardform.js), with this builder's
// three kinds of Event.

import { h } from "/js/dom.js";
import { cardForm } from "./family/cardform.js";
import { symbolLook } from "./icons.js";

function draft(app) {
  return (app.ui.card ||= { name: "", items: 1, event: "manual", text: "", villager: "", location: "",
                            symbols: [], move: 1, dice: 1 });
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

function answerOf(card) {
  const event = card.event === "none" ? { kind: "none", params: {}, text: "No Event." }
    : card.event === "manual" ? { kind: "manual", params: {}, text: card.text }
    : { kind: "place_villager", params: { villager: card.villager, location: card.location }, text: card.text };
  return { action: "card", card: { name: card.name.trim(), items: card.items, event,
                                   attack: { symbols: card.symbols, move: card.move, dice: card.dice } } };
}

export function cardBuilder(app) {
  const card = draft(app);
  const refresh = () => app.refreshPrompt();
  return h("div", { class: "change-editor", "data-testid": "card-builder" },
    h("p", { class: "prompt-hint" }, "Copy the card you drew. It is kept in this game's log; the companion checks it before using it."),
    ...cardForm(card, { symbols: app.pack.symbols, refresh, events: (c) => eventPart(app.pack, refresh, c), icon: symbolLook(app.pack.symbols) }),
    h("div", { class: "finishers" },
      h("button", { class: "btn btn-primary btn-huge btn-finish", type: "button", "data-testid": "card-send",
                    onclick: () => app.answer(answerOf(card)) }, "Use this card")));
}
