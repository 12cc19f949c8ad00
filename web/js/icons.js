// Small SVG pictures of the dice the box reads: the Monster die's faces and
// the d20's symbol face. A pack's own pictures live in its web module.

import { s } from "./dom.js";

const STAR = "12,1.5 14.9,8.6 22.5,9 16.6,13.8 18.6,21.2 12,17 5.4,21.2 7.4,13.8 1.5,9 9.1,8.6";

/** The Monster die faces. */
export function dieFaceIcon(face, size = 34) {
  const box = { x: 1.5, y: 1.5, width: 21, height: 21, rx: 4, fill: "#f4f1ea", stroke: "#000", "stroke-width": 1 };
  let mark = null;
  if (face === "hit") {
    mark = s("polygon", { points: "12,3 14,9 20,6 16,11.5 21,15 14.5,15 15,21 12,16.5 9,21 9.5,15 3,15 8,11.5 4,6 10,9",
                          fill: "#d61f1f" });
  } else if (face === "pow") {
    mark = s("polygon", { points: "13.5,2.5 5.5,13.5 11,13.5 9.5,21.5 18.5,9.5 12.8,9.5", fill: "#7a2bd6" });
  }
  return s("svg", { class: "die-face", viewBox: "0 0 24 24", width: size, height: size, "aria-hidden": "true" },
    s("rect", box), mark);
}

/** The d20's symbol face (it counts as 20). */
export function d20SymbolIcon(size = 22) {
  return s("svg", { class: "d20-symbol", viewBox: "0 0 24 24", width: size, height: size, "aria-hidden": "true" },
    s("polygon", { points: "12,1.5 21.5,7 21.5,17 12,22.5 2.5,17 2.5,7", fill: "none", stroke: "currentColor", "stroke-width": 1.8 }),
    s("polygon", { points: STAR, transform: "translate(5.4 5.4) scale(0.55)", fill: "currentColor" }));
}
