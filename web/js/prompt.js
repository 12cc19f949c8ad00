// The prompt panel: the question in big letters and the ways to answer it.
//   choice / draw  one big button per option (a filter box when there are many)
//   pick           toggle buttons and a confirm that says how many are chosen
//   roll           Monster dice: HIT / POW / blank per die; d20 / d6: a grid of numbers per die
//   action         the game's own answer form (its pack module), else the menu from view.actions
//   waiting        a question for another seat's eyes: whom it waits for
// The game's pack module may show options, die rows and who answers in its own
// words (app.packModule: optionContent, searchText, rowLabel, promptWho,
// actionBody, phaseWord), or draw a question's whole body itself (promptBody:
// null to leave it to the shell). Selections live in app.ui, cleared with every new view.

import { h, folded } from "./dom.js";
import { dieFaceIcon, d20SymbolIcon } from "./icons.js";
import { diceCard, rollHint } from "./dice.js";

/** The pack module's answer to ``name``, or null when it has none. */
function hook(app, name, ...args) {
  const found = app.packModule && app.packModule[name];
  return typeof found === "function" ? found(app, ...args) : null;
}

export function humanize(id) {
  const text = String(id).replace(/[-_]/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const FILTER_FROM = 9; // options from which a filter box is offered

// -- choice and draw ------------------------------------------------------------------------------
function optionContent(app, prompt, option, i) {
  return hook(app, "optionContent", prompt, option, i) || h("span", { class: "opt-main" }, option.text);
}

function filterBox(listEl, placeholder) {
  const input = h("input", { class: "text-input filter", type: "search", placeholder, "data-testid": "filter",
                             "aria-label": placeholder, autocomplete: "off" });
  const empty = h("p", { class: "subtle filter-empty", hidden: true }, "Nothing matches. Clear the box to see everything.");
  input.addEventListener("input", () => {
    const words = folded(input.value).split(/\s+/).filter(Boolean);
    let shown = 0;
    for (const button of listEl.children) {
      const ok = words.every((w) => button.dataset.search.includes(w));
      button.hidden = !ok;
      if (ok) shown += 1;
    }
    empty.hidden = shown > 0;
  });
  return [h("div", { class: "filter-row" }, input,
    h("button", { class: "btn", type: "button", "data-testid": "filter-clear", onclick: () => { input.value = ""; input.dispatchEvent(new Event("input")); } }, "Clear")), empty];
}

function searchText(app, option) {
  return hook(app, "searchText", option) || folded([option.text, option.id].join(" "));
}

function choiceBody(app, prompt) {
  const list = h("div", { class: `options${prompt.options.length > 6 ? " options-grid" : ""}`, "data-testid": "options" },
    prompt.options.map((option, i) =>
      h("button", { class: "btn option", type: "button", "data-testid": "option", "data-id": option.id, "data-search": searchText(app, option),
                    onclick: () => app.answer(option.id) }, optionContent(app, prompt, option, i))));
  const many = prompt.options.length >= FILTER_FROM;
  const what = hook(app, "filterHint", prompt) || "Type to find it…";
  return [prompt.kind === "draw" ? h("p", { class: "prompt-hint" }, "Tap the one that came up.") : null,
    many ? filterBox(list, what) : null, list];
}

// -- pick -------------------------------------------------------------------------------------------
function pickBody(app, prompt) {
  const picked = (app.ui.picks ||= []);
  const min = prompt.min_picks, max = prompt.max_picks;
  const ok = picked.length >= min && picked.length <= max;
  const toggle = (id) => {
    if (picked.includes(id)) picked.splice(picked.indexOf(id), 1);
    else if (max === 1) picked.splice(0, picked.length, id);
    else if (picked.length < max) picked.push(id);
    app.refreshPrompt();
  };
  const need = min === max ? `${min}` : `${min} to ${max}`;
  return [
    h("p", { class: "prompt-hint" }, `Tap to choose ${need}, then confirm.`),
    h("div", { class: "options options-grid", "data-testid": "options" }, prompt.options.map((option, i) => {
      const on = picked.includes(option.id);
      return h("button", { class: "btn option toggle", type: "button", "aria-pressed": on ? "true" : "false", "data-testid": "pick-option",
                           "data-id": option.id, onclick: () => toggle(option.id) },
        h("span", { class: "check", "aria-hidden": "true" }, on ? "✓" : ""), optionContent(app, prompt, option, i));
    })),
    h("button", { class: "btn btn-primary btn-huge confirm", type: "button", "data-testid": "pick-confirm", disabled: !ok,
                  onclick: () => app.answer([...picked]) }, `Confirm: ${picked.length} of ${need} chosen`),
  ];
}

// -- roll -------------------------------------------------------------------------------------------
const FACE_WORDS = { hit: "HIT", pow: "POW", blank: "blank" };

function rowLabel(app, prompt, i) {
  return hook(app, "rowLabel", prompt, i) || (prompt.count > 1 ? `Die ${i + 1}` : prompt.die === "monster" ? "The Monster die"
    : prompt.die === "d6" ? "The d6" : "The d20");
}

/** A chosen face is marked by a tick as well as by its border and colour (its button says aria-pressed). */
function chosenMark(chosen) {
  return chosen ? h("span", { class: "chosen-mark", "data-testid": "chosen-mark", "aria-hidden": "true" }, "✓") : null;
}

function rollBody(app, prompt) {
  const faces = (app.ui.faces ||= Array(prompt.count).fill(null));
  const set = (i, value) => { faces[i] = faces[i] === value ? null : value; app.refreshPrompt(); };
  const rows = [];
  for (let i = 0; i < prompt.count; i += 1) {
    let buttons;
    if (prompt.die === "monster") {
      buttons = h("div", { class: "faces" }, ["hit", "pow", "blank"].map((face) =>
        h("button", { class: `btn face face-${face}`, type: "button", "aria-pressed": faces[i] === face ? "true" : "false",
                      "data-testid": "face", "data-die": i, "data-face": face, onclick: () => set(i, face) },
          dieFaceIcon(face, 40), h("span", {}, FACE_WORDS[face]), chosenMark(faces[i] === face))));
    } else {
      const top = prompt.die === "d6" ? 6 : 20;
      buttons = h("div", { class: `numbers numbers-${top}` }, Array.from({ length: top }, (_, n) => n + 1).map((n) =>
        h("button", { class: `btn number${top === 20 && n === 20 ? " symbol-face" : ""}`, type: "button",
                      "aria-pressed": faces[i] === n ? "true" : "false", "data-testid": prompt.die === "d6" ? "d6" : "d20",
                      "data-die": i, "data-value": n, onclick: () => set(i, n),
                      "aria-label": top === 20 && n === 20 ? "20 (the symbol face)" : String(n) },
          top === 20 && n === 20 ? [d20SymbolIcon(22), h("span", {}, "20")] : String(n), chosenMark(faces[i] === n))));
    }
    rows.push(h("div", { class: "die-row", "data-testid": "die-row", "data-die": i },
      h("div", { class: "die-row-label" }, rowLabel(app, prompt, i)), buttons));
  }
  const done = faces.every((f) => f !== null);
  const said = faces.map((f) => (f === null ? "?" : prompt.die === "monster" ? FACE_WORDS[f] : String(f))).join(", ");
  return [
    h("p", { class: "prompt-hint", "data-testid": "roll-hint" }, rollHint(app, prompt.die === "monster" ? "Roll the Monster dice and tap what each shows."
      : prompt.die === "d20" ? "Roll the d20 and tap the number (the symbol face counts as 20)." : "Roll and tap what it shows.")),
    rows,
    h("button", { class: "btn btn-primary btn-huge confirm roll-send", type: "button", "data-testid": "roll-confirm", disabled: !done,
                  onclick: () => app.answer([...faces]) }, done ? `Send the roll: ${said}` : `Tap ${prompt.count === 1 ? "the die" : "every die"} first`),
  ];
}

// -- action and waiting ---------------------------------------------------------------------------------
const FINISHERS = ["end", "skip", "done"];

/** The game's own form, else one button per labelled action of the menu (finishers last). */
function actionBody(app, prompt) {
  const own = hook(app, "actionBody", prompt);
  if (own) return own;
  const button = (action) => {
    const { label, ...answer } = action;
    return h("button", { class: `btn action${FINISHERS.includes(answer.action) ? " btn-finish" : ""}`, type: "button",
                         "data-testid": "action", "data-action": answer.action, onclick: () => app.answer(answer) },
      h("span", { class: "opt-main" }, label || humanize(answer.action)));
  };
  const menu = app.view.actions || [];
  if (!menu.length) return h("p", { class: "subtle" }, "No actions are offered.");
  return [h("div", { class: "options" }, menu.filter((a) => !FINISHERS.includes(a.action)).map(button)),
    h("div", { class: "finishers" }, menu.filter((a) => FINISHERS.includes(a.action)).map(button))];
}

/** Who a seat is, in the game's words (the view lists the seats). */
export function seatName(app, seat) {
  const found = (app.view.seats || []).find((s) => s.id === seat);
  return found ? found.name : humanize(seat);
}

/** Whom the header names as answering: the question's own seat when it is one of the game's seats
 * (a seat the game has no player for, as the box's own Dungeon Master, names nobody: the table answers). */
function answererName(app, prompt) {
  const seats = app.view.seats || [];
  return prompt.player && seats.some((s) => s.id === prompt.player) ? seatName(app, prompt.player) : null;
}

/** A question this device may not answer: whom it is for, and where they answer it. */
function waitingBody(app, prompt) {
  const seats = (prompt.answerers && prompt.answerers.length ? prompt.answerers : prompt.audience && prompt.audience.length
    ? prompt.audience : [prompt.player]).filter(Boolean);
  const names = seats.map((seat) => seatName(app, seat));
  const who = names.join(" and ") || "Another player";
  const many = names.length > 1;
  return h("p", { class: "prompt-hint", "data-testid": "waiting", "data-secret": String(prompt.secret !== false) },
    prompt.secret === false
      ? `${who} ${many ? "answer" : "answers"} this on ${many ? "their own devices" : "their own device"}; this device only shows it.`
      : `${who} ${many ? "are" : "is"} answering in secret, on their own device.`);
}

// -- what the question is about ------------------------------------------------------------------------
/** The figure a question is about (its context's ``figure``), drawn by the pack with its symbols when
 * it can: with several monsters and their minions on the board, "which one?" needs its name. */
function aboutChip(app, prompt) {
  const context = prompt.context || {};
  if (!context.figure) return null;
  return h("p", { class: "prompt-about", "data-testid": "prompt-about", "data-monster": context.monster || "",
                  "data-minion": context.minion ?? "", "data-location": context.location || "" },
    hook(app, "aboutContent", prompt) || h("strong", {}, String(context.figure)));
}

// -- the panel ---------------------------------------------------------------------------------------
export function promptPanel(app) {
  const { view } = app;
  const prompt = view.prompt;
  if (!prompt) {
    return h("section", { class: "panel prompt", "data-testid": "prompt", "data-kind": "none", "data-version": view.version },
      h("h2", { class: "prompt-text" }, view.outcome ? "The game is over." : "Waiting for the companion…"));
  }
  const who = hook(app, "promptWho", prompt) || answererName(app, prompt);
  const body = hook(app, "promptBody", prompt) || (prompt.kind === "choice" || prompt.kind === "draw" ? choiceBody(app, prompt)
    : prompt.kind === "pick" ? pickBody(app, prompt)
    : prompt.kind === "roll" ? rollBody(app, prompt)
    : prompt.kind === "action" ? actionBody(app, prompt)
    : prompt.kind === "waiting" ? waitingBody(app, prompt)
    : h("p", {}, `This app cannot answer a “${prompt.kind}” question yet.`));
  const phase = hook(app, "phaseWord");
  return h("section", { class: `panel prompt prompt-${prompt.kind}`, id: "prompt-panel", "data-testid": "prompt", "data-key": prompt.key,
                        "data-kind": prompt.kind, "data-version": view.version,
                        "data-answerers": (prompt.answerers || []).join(" ") },
    h("div", { class: "prompt-who" }, phase ? h("span", { class: "phase" }, phase) : null,
      who ? h("span", {}, `${phase ? " · " : ""}${who} ${prompt.kind === "waiting" ? "is answering" : "answers"}`) : null),
    prompt.kind === "waiting" ? null : aboutChip(app, prompt),
    prompt.kind === "waiting" && !prompt.text ? null : h("h2", { class: "prompt-text", "data-testid": "prompt-text" }, prompt.text),
    diceCard(app),
    body);
}
