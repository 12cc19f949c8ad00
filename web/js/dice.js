// The dice camera on the tablet (docs/protocol.md, "The dice camera").
//   - the roll prompt says "Roll into the tray — the camera is watching" while a camera is on;
//   - a read that answered a roll is shown with each die's crop and value; one tap on a die
//     opens its faces, and a face sends the correction (App.correctDice: undo, then answer again);
//   - a refused read shows the crops and why, above the roll prompt's tap buttons (still ready);
//     a read the camera made but may not answer by itself (the die's self-test has not passed)
//     offers one tap to take it ("Use it: HIT, POW"), or the tap buttons as ever;
//   - "camera lost" is a banner until "camera back"; taps always work.
// The last report comes from `dice` events and from view.dice (a tablet that joins late).

import { h } from "./dom.js";
import { dieFaceIcon } from "./icons.js";

export const CAMERA_LOST = "Dice camera lost: type the dice";
const WORDS = { hit: "HIT", pow: "POW", blank: "blank" };

function word(value) {
  return WORDS[value] || String(value);
}

/** The faces a die of `kind` can show, for the correction buttons. */
function facesOf(kind) {
  if (kind === "monster") return ["hit", "pow", "blank"];
  return Array.from({ length: kind === "d6" ? 6 : 20 }, (_, n) => n + 1);
}

/** Take a `dice` event (or view.dice) for the game on screen; says whether the screen must redraw. */
export function acceptDice(app, report) {
  if (!report || report.game_id !== app.gameId) return false;
  if (report.status === "camera-lost") app.showBanner("camera", CAMERA_LOST);
  if (report.status === "camera-back") app.clearBanner("camera");
  if (report.status === "camera-lost" || report.status === "camera-back") {
    app.dice.lost = report.status === "camera-lost";
    return true;
  }
  app.dice.report = report;
  return true;
}

/** The roll prompt's hint: the camera's when one is watching (the tap buttons stay below), the taps' otherwise. */
export function rollHint(app, tapHint) {
  if (!app.dice.camera || app.dice.lost) return tapHint;
  return app.dice.hint || "Roll into the tray — the camera is watching";
}

/** The card over the prompt: the read that answered the last roll, or the refused read of this one. */
export function diceCard(app) {
  const report = app.dice.report;
  const view = app.view;
  if (!report || !view || !Array.isArray(report.dice)) return null;
  if (report.status === "answered" && view.version === report.version + 1) return answeredCard(app, report);
  const open = view.prompt && view.prompt.key === report.prompt_key && view.version === report.version;
  if (open && report.status !== "answered") return refusedCard(app, report);
  return null;
}

/** The values a read would answer with, if every die asked for was read (else null). */
function readValues(report) {
  const wanted = report.expect && report.expect.count;
  if (!report.off || report.moved || report.problem || !wanted || report.dice.length !== wanted) return null;
  if (!report.dice.every((die) => die.accepted)) return null;
  return report.dice.map((die) => die.value);
}

function answeredCard(app, report) {
  const values = report.dice.map((die) => die.value);
  const correcting = app.ui.correcting;
  return h("div", { class: "dice-read", "data-testid": "dice-read", "data-status": "answered" },
    h("p", { class: "dice-read-text" }, `Read: ${values.map(word).join(", ")} — tap a die to correct`),
    h("div", { class: "dice-crops" }, report.dice.map((die, i) =>
      h("button", { class: "btn dice-crop", type: "button", "data-testid": "dice-read-die", "data-die": i,
                    "data-value": die.value, "aria-pressed": correcting === i ? "true" : "false",
                    onclick: () => { app.ui.correcting = correcting === i ? null : i; app.refreshPrompt(); } },
        die.crop ? h("img", { src: die.crop, alt: `die ${i + 1}`, width: 56, height: 56 }) : null,
        h("span", {}, word(die.value))))),
    correcting == null ? null : correction(app, report, values, correcting));
}

function correction(app, report, values, i) {
  const kind = report.dice[i].kind || (report.expect && report.expect.kind);
  return h("div", { class: "faces dice-correct", "data-testid": "dice-correct" },
    facesOf(kind).filter((face) => face !== values[i]).map((face) =>
      h("button", { class: `btn face face-${face}`, type: "button", "data-testid": "dice-correct-face", "data-face": face,
                    onclick: () => { const fixed = [...values]; fixed[i] = face; app.correctDice(report, fixed); } },
        kind === "monster" ? dieFaceIcon(face, 32) : null, h("span", {}, word(face)))));
}

function refusedCard(app, report) {
  const why = report.problem || report.message || "the camera could not read these dice";
  const values = readValues(report);
  const text = values ? `The camera read ${values.map(word).join(", ")}, but ${report.off}. Is that right?`
    : `The camera could not read the roll: ${why}. Tap the dice below.`;
  return h("div", { class: "dice-read dice-refused", "data-testid": "dice-read", "data-status": report.status },
    h("p", { class: "dice-read-text" }, text),
    values ? h("button", { class: "btn btn-primary", type: "button", "data-testid": "dice-use-read",
                           onclick: () => app.send("act", { key: report.prompt_key, answer: values }) },
      `Use it: ${values.map(word).join(", ")}`) : null,
    h("div", { class: "dice-crops" }, report.dice.map((die, i) =>
      h("div", { class: "dice-crop", "data-testid": "dice-refused-die", "data-die": i },
        die.crop ? h("img", { src: die.crop, alt: `die ${i + 1}`, width: 56, height: 56 }) : null,
        h("span", {}, die.accepted ? word(die.value) : "?")))));
}
