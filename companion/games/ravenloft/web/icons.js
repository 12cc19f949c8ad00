// Ravenloft's small SVG pictures: the monsters' colour symbols (always colour
// AND shape), item types (Weapon red hexagon, Magical blue circle, Mundane
// yellow square, as printed on the tokens) and a few markers. The dice's
// pictures are the shell's (/js/icons.js).

import { s } from "/js/dom.js";

/** Screen colours for the pack's colour names: bright enough on the dark theme. */
export const COLOURS = {
  yellow: "#ffd400", orange: "#ff8a1f", purple: "#b07cff", blue: "#3d8bff", brown: "#b5773f",
  teal: "#19c3b1", green: "#3ccf5a", red: "#ff4d4d",
};

const STAR = "12,1.5 14.9,8.6 22.5,9 16.6,13.8 18.6,21.2 12,17 5.4,21.2 7.4,13.8 1.5,9 9.1,8.6";

/** One shape in a 24×24 box, filled with `fill`. */
function shape(name, fill) {
  const common = { fill, stroke: "#fff", "stroke-width": 1.4, "stroke-linejoin": "round" };
  switch (name) {
    case "square": return s("rect", { x: 4, y: 4, width: 16, height: 16, ...common });
    case "diamond": return s("polygon", { points: "12,1.5 22.5,12 12,22.5 1.5,12", ...common });
    case "star": return s("polygon", { points: STAR, ...common });
    case "circle": return s("circle", { cx: 12, cy: 12, r: 9.5, ...common });
    case "triangle": return s("polygon", { points: "12,2 22.5,21 1.5,21", ...common });
    case "book": return s("g", {},
      s("path", { d: "M1.5 5.5 Q6.5 3 12 6 Q17.5 3 22.5 5.5 V20.5 Q17.5 18 12 21 Q6.5 18 1.5 20.5 Z", ...common }),
      s("path", { d: "M12 6 V21", stroke: "#fff", "stroke-width": 1.4 }));
    case "drop": return s("path", { d: "M12 1.5 C12 1.5 4 10.5 4 15 A8 8 0 0 0 20 15 C20 10.5 12 1.5 12 1.5 Z", ...common });
    case "shield": return s("path", { d: "M12 1.5 L21.5 5 V11 C21.5 17 17.5 21 12 23 C6.5 21 2.5 17 2.5 11 V5 Z", ...common });
    case "hexagon": return s("polygon", { points: "12,1.5 21.5,6.8 21.5,17.2 12,22.5 2.5,17.2 2.5,6.8", ...common });
    default: return s("circle", { cx: 12, cy: 12, r: 9, ...common });
  }
}

/** A monster colour symbol, e.g. symbolIcon("chest", pack.symbols) → a yellow square. */
export function symbolIcon(symbol, symbols, size = 22) {
  const info = (symbols && symbols[symbol]) || { colour: "grey", shape: "circle" };
  const label = `${symbol} (${info.colour} ${info.shape})`;
  return s("svg", { class: "sym", viewBox: "0 0 24 24", width: size, height: size, role: "img",
                    "aria-label": label, "data-symbol": symbol, "data-shape": info.shape, "data-colour": info.colour },
    s("title", {}, label), shape(info.shape, COLOURS[info.colour] || "#999"));
}

/** The row of a monster's symbols. */
export function symbolRow(symbolsOfMonster, symbols, size = 22) {
  return symbolsOfMonster.map((sym) => symbolIcon(sym, symbols, size));
}

const ITEM_TYPES = {
  weapon: { shape: "hexagon", colour: "#ff4d4d", word: "Weapon" },
  magical: { shape: "circle", colour: "#3d8bff", word: "Magical" },
  mundane: { shape: "square", colour: "#ffd400", word: "Mundane" },
};

export function itemTypeWord(type) {
  return (ITEM_TYPES[type] || { word: type }).word;
}

/** An item's type shape and colour with its strength inside, as on the token. */
export function itemIcon(type, strength, size = 30) {
  const t = ITEM_TYPES[type] || { shape: "circle", colour: "#999", word: type };
  const label = `${t.word}${strength != null ? `, strength ${strength}` : ""}`;
  return s("svg", { class: "item-icon", viewBox: "0 0 24 24", width: size, height: size, role: "img",
                    "aria-label": label, "data-type": type },
    s("title", {}, label), shape(t.shape, t.colour),
    strength != null ? s("text", { x: 12, y: 16.5, "text-anchor": "middle", "font-size": 12, "font-weight": 800,
                                   fill: type === "mundane" ? "#000" : "#fff" }, String(strength)) : null);
}

/** The Frenzy marker. */
export function frenzyIcon(size = 24) {
  return s("svg", { class: "frenzy-icon", viewBox: "0 0 24 24", width: size, height: size, "aria-hidden": "true" },
    s("path", { d: "M12 2 C14 7 20 8 18 14 C17 18 14 21 12 22 C10 21 7 18 6 14 C4 8 10 7 12 2 Z",
                fill: "#ff5a1f", stroke: "#fff", "stroke-width": 1.2 }),
    s("path", { d: "M12 9 C13 12 16 13 14.5 16.5 C13.5 18.5 10.5 18.5 9.5 16.5 C8.5 14 11 12 12 9 Z", fill: "#ffd400" }));
}

/** A small skull, for the last space of the Terror track. */
export function skullIcon(size = 20) {
  return s("svg", { class: "skull", viewBox: "0 0 24 24", width: size, height: size, "aria-hidden": "true" },
    s("path", { d: "M12 2 C6.5 2 3 5.8 3 10.5 C3 13.5 4.6 15.6 6.5 16.6 V20 C6.5 21 7.3 22 8.5 22 H15.5 C16.7 22 17.5 21 17.5 20 V16.6 C19.4 15.6 21 13.5 21 10.5 C21 5.8 17.5 2 12 2 Z",
                fill: "currentColor" }),
    s("circle", { cx: 8.5, cy: 11, r: 2.6, fill: "#000" }), s("circle", { cx: 15.5, cy: 11, r: 2.6, fill: "#000" }),
    s("path", { d: "M12 14 L10.6 16.6 H13.4 Z", fill: "#000" }));
}

/** How a card form draws a symbol of the attack line (Frenzy among them): `look(symbol, size)`. */
export function symbolLook(symbols) {
  return (symbol, size) => (symbol === "frenzy" ? frenzyIcon(size) : symbolIcon(symbol, symbols, size));
}
