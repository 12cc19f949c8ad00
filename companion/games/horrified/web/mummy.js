// The Mummy's scarab tablet, drawn as it lies: six slots round a centre, each scarab face
// up (its number), face down (?) or the empty slot. During a tablet move the slots the
// question offers glow, and tapping one sends that move ("flip:S" or "slide:S"); the
// companion checks each move against the scarabs and refuses one they do not allow.

import { s, h } from "/js/dom.js";

const R = 110;
const CX = 150;
const CY = 140;

function slotXY(slot) {
  if (slot === 0) return [CX, CY];
  const angle = ((slot - 1) / 6) * 2 * Math.PI - Math.PI / 2;
  return [CX + R * Math.cos(angle), CY + R * Math.sin(angle)];
}

/** {slot: move id} for the moves the question offers. */
function offered(prompt) {
  const out = {};
  if (!prompt || prompt.key !== "scarab") return out;
  for (const option of prompt.options) {
    const [kind, slot] = option.id.split(":");
    if (kind === "flip" || kind === "slide") out[Number(slot)] = { id: option.id, text: option.text, kind };
  }
  return out;
}

function slot(app, tablet, n, move) {
  const [x, y] = slotXY(n);
  const empty = tablet.empty === n;
  const up = tablet.up[n];
  const label = empty ? "" : up ? String(tablet.numbers[n]) : "?";
  const home = up && tablet.numbers[n] === n && n !== 0;
  return s("g", { class: `scarab${empty ? " empty" : up ? " up" : " down"}${home ? " home" : ""}${move ? ` target-${move.kind}` : ""}`,
                  "data-testid": "scarab-slot", "data-slot": n, "data-number": up ? tablet.numbers[n] : "", "data-up": up ? "yes" : "no",
                  "data-empty": empty ? "yes" : "no", "data-move": move ? move.id : null,
                  role: move ? "button" : null, tabindex: move ? 0 : null, onclick: move ? () => app.answer(move.id) : null },
    s("title", {}, move ? move.text : empty ? "The empty slot" : up ? `Scarab ${tablet.numbers[n]}` : "A face-down scarab"),
    move ? s("circle", { class: "target-ring", cx: x, cy: y, r: 36 }) : null,
    s("circle", { cx: x, cy: y, r: 30, "stroke-dasharray": empty ? "6 5" : null, stroke: home ? "#7be38f" : "#cfcbe0", "stroke-width": 3,
                  fill: empty ? "none" : up ? "#c9a227" : "#3b3548" }),
    n ? s("text", { class: "token-text small", x, y: y - 38 }, `slot ${n}`) : s("text", { class: "token-text small", x, y: y - 38 }, "centre"),
    s("text", { class: `token-text${up ? " dark" : ""}`, x, y, dy: "0.35em" }, label));
}

export function tabletDrawing(app, tablet, prompt = null) {
  const moves = offered(prompt);
  const lines = [];
  for (let n = 1; n <= 6; n += 1) {
    const [x, y] = slotXY(n);
    const [nx, ny] = slotXY((n % 6) + 1);
    const line = { stroke: "#6d6a7c", "stroke-width": 4 };
    lines.push(s("line", { x1: CX, y1: CY, x2: x, y2: y, ...line }), s("line", { x1: x, y1: y, x2: nx, y2: ny, ...line }));
  }
  return s("svg", { class: "scarab-tablet", viewBox: "-10 -30 320 340", style: "display:block;width:100%;max-width:280px", "data-testid": "scarab-tablet",
                    "data-solved": tablet.solved ? "yes" : "no", role: "img", "aria-label": "The scarab tablet" },
    s("g", { class: "tablet-lines" }, lines),
    [0, 1, 2, 3, 4, 5, 6].map((n) => slot(app, tablet, n, moves[n])));
}

/** The tablet above a tablet-move question: tap a glowing slot, or use the buttons. */
export function tabletPrompt(app, prompt) {
  const tablet = prompt.context && prompt.context.tablet;
  if (!tablet) return null;
  return h("div", { class: "tablet-prompt", "data-testid": "tablet-prompt" },
    h("p", { class: "prompt-hint" }, "Tap a glowing scarab: a face-down one turns up, a face-up one next to the empty slot slides into it. Goal: scarab n face up in slot n."),
    tabletDrawing(app, tablet, prompt));
}
