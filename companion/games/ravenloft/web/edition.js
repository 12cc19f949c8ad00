// What makes the family's data pages (family/datastatus.js, family/editor.js) this
// box's: the game, the words of its status page, and its board's own parts - the d20
// number of each place, Strahd's castle mat, the Gates of Barovia and Madam Eva's Tent.

import { h } from "/js/dom.js";
import { useEdition } from "./family/datastatus.js";
import { castleMat, xy } from "./board.js";

export const GAME = "ravenloft";

/** A location's d20 number (each number once) and whether it is on the main board or the castle mat. */
function locationFields(app, loc, board, setLocation) {
  const usedBy = {};
  for (const l of board.locations) if (l.number) (usedBy[l.number] ||= []).push(l.name);
  const numberSelect = h("select", { class: "select", "data-testid": "loc-number", "aria-label": "d20 number",
    onchange: (e) => setLocation(app, loc.id, { number: e.target.value === "" ? null : Number(e.target.value) }) },
    h("option", { value: "", selected: loc.number == null }, "No number (no d20 roll names it)"),
    Array.from({ length: 20 }, (_, i) => i + 1).map((n) => {
      const others = (usedBy[n] || []).filter((name) => name !== loc.name);
      return h("option", { value: String(n), selected: loc.number === n }, others.length ? `${n} (now also ${others.join(", ")})` : String(n));
    }));
  const areaSelect = h("select", { class: "select", "data-testid": "loc-area", "aria-label": "Where it is",
    onchange: (e) => setLocation(app, loc.id, { area: e.target.value }) },
    h("option", { value: "board", selected: loc.area === "board" }, "On the main board"),
    h("option", { value: "castle-mat", selected: loc.area === "castle-mat" }, "On Strahd's castle mat"));
  return [h("label", { class: "field" }, "d20 number (1–20, each once)", numberSelect),
          h("label", { class: "field" }, "Where it is", areaSelect)];
}

useEdition({
  game: GAME,
  intro: "The rulebook does not print the board's roads, the Monster cards, the items or most hero tables, so the companion starts with our guesses. Make them match your box here; the Monster Phase uses your data from then on.",
  board: {
    xy, size: [1000, 720], extras: castleMat, fields: locationFields, newLocation: { number: null, area: "board" },
    roles: [{ key: "gates", short: "Gates", is: "The Gates of Barovia", make: "Make it the Gates of Barovia" },
            { key: "madam_evas_tent", short: "Tent", is: "Madam Eva's Tent", make: "Make it Madam Eva's Tent" }],
  },
});
