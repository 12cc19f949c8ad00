// The prompt panel: the question in big letters and the ways to answer it.
//   choice / draw  one big button per option (a filter box when there are many)
//   pick           toggle buttons and a confirm that says how many are chosen
//   roll           Monster dice: HIT / POW / blank per die; d20: a 1–20 grid per die
//   action         the action menu from view.actions, grouped by kind
// Selections live in app.ui, which is cleared whenever a new view arrives.

import { h, folded } from "./dom.js";
import { dieFaceIcon, d20SymbolIcon, itemIcon, itemTypeWord } from "./icons.js";
import { PHASES, playerAndHero, humanize } from "./names.js";
import { diceCard, rollHint } from "./dice.js";
import { cardBuilder } from "./cardbuilder.js";

const FILTER_FROM = 9; // options from which a filter box is offered

// -- choice and draw ------------------------------------------------------------------------------
function optionContent(app, prompt, option, i) {
  const { names } = app;
  if (prompt.key === "item" || (prompt.key === "defend-items" && names.items[option.id])) {
    const item = names.items[option.id];
    if (item) {
      return [itemIcon(item.type, item.strength, 34),
        h("span", { class: "opt-main" }, item.name, h("small", {}, `${itemTypeWord(item.type)} ${item.strength} · ${names.place(item.location)}`))];
    }
  }
  if (prompt.key === "perk" && names.perks[option.id]) {
    return h("span", { class: "opt-main" }, names.perks[option.id].name, h("small", {}, names.perks[option.id].text));
  }
  if (prompt.key === "monster-card" && names.cards[option.id]) {
    const card = names.cards[option.id];
    return h("span", { class: "opt-main" }, card.name, h("small", {}, `${card.items} item${card.items === 1 ? "" : "s"}`));
  }
  if (option.data && Array.isArray(option.data.path)) {
    return [h("span", { class: `path-no path-no-${i % 6}` }, String(i + 1)), h("span", { class: "opt-main" }, option.text)];
  }
  return h("span", { class: "opt-main" }, option.text);
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
  const item = app.names.items[option.id];
  return folded([option.text, option.id, item ? `${item.type} ${item.strength}` : ""].join(" "));
}

function choiceBody(app, prompt) {
  const list = h("div", { class: `options${prompt.options.length > 6 ? " options-grid" : ""}`, "data-testid": "options" },
    prompt.options.map((option, i) =>
      h("button", { class: "btn option", type: "button", "data-testid": "option", "data-id": option.id, "data-search": searchText(app, option),
                    onclick: () => app.answer(option.id) }, optionContent(app, prompt, option, i))));
  const many = prompt.options.length >= FILTER_FROM;
  const what = prompt.key === "item" ? "Type the item's name, type or strength…" : "Type to find it…";
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
  const players = prompt.context && prompt.context.players;
  if (Array.isArray(players) && players[i]) return playerAndHero(app.names, app.view.state, players[i]);
  return prompt.count > 1 ? `Die ${i + 1}` : prompt.die === "monster" ? "The Monster die" : "The d20";
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
          dieFaceIcon(face, 40), h("span", {}, FACE_WORDS[face]))));
    } else {
      const top = prompt.die === "d6" ? 6 : 20;
      buttons = h("div", { class: `numbers numbers-${top}` }, Array.from({ length: top }, (_, n) => n + 1).map((n) =>
        h("button", { class: `btn number${top === 20 && n === 20 ? " symbol-face" : ""}`, type: "button",
                      "aria-pressed": faces[i] === n ? "true" : "false", "data-testid": prompt.die === "d6" ? "d6" : "d20",
                      "data-die": i, "data-value": n, onclick: () => set(i, n),
                      "aria-label": top === 20 && n === 20 ? "20 (the symbol face)" : String(n) },
          top === 20 && n === 20 ? [d20SymbolIcon(22), h("span", {}, "20")] : String(n))));
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
    h("button", { class: "btn btn-primary btn-huge confirm", type: "button", "data-testid": "roll-confirm", disabled: !done,
                  onclick: () => app.answer([...faces]) }, done ? `Send the roll: ${said}` : `Tap ${prompt.count === 1 ? "the die" : "every die"} first`),
  ];
}

// -- action -----------------------------------------------------------------------------------------
const GROUPS = [
  ["move", "Move"], ["guide", "Guide a villager"], ["pick_up", "Pick up"], ["share", "Share"],
  ["advance", "Advance a monster's challenge"], ["defeat", "Defeat a monster"], ["special", "Special action"],
  ["perk", "Perk cards (free)"], ["gift", "Dark Gift (free)"],
];
const FINISHERS = ["end", "skip", "done"];

/** The menu as sent, plus the obvious variants a player wants (one item at a time, moving alone). */
function expandedMenu(app) {
  const { view, names } = app;
  const state = view.state;
  const out = [];
  const strip = (action) => { const { label, ...answer } = action; return answer; };
  for (const action of view.actions) {
    const answer = strip(action);
    if (action.action === "move") {
      out.push({ answer, label: action.label });
      if (Array.isArray(action.villagers) && action.villagers.length) {
        out.push({ answer: { ...answer, villagers: [] }, label: `Move to ${names.place(action.to)} alone` });
      }
    } else if (action.action === "pick_up") {
      const things = [...(action.items || []).map((i) => ["items", i]), ...(action.relics || []).map((r) => ["relics", r])];
      out.push({ answer, label: things.length > 1 ? `Pick up everything: ${things.map(([k, id]) => (k === "items" ? names.item(id) : names.relic(id))).join(", ")}` : action.label });
      if (things.length > 1) {
        for (const [kind, id] of things) {
          out.push({ answer: { action: "pick_up", items: kind === "items" ? [id] : [], relics: kind === "relics" ? [id] : [] },
                     label: `Pick up ${kind === "items" ? names.item(id) : names.relic(id)}` });
        }
      }
    } else if (action.action === "share" && Array.isArray(action.give)) {
      // One Share is one action for every hand-over (RL-HA-4): the editor composes them all.
      const heroes = [...new Set(action.give.flatMap((g) => [g.from, g.to]))].filter((id) => state.heroes[id]);
      out.push({ answer, label: `Share items: ${heroes.map((id) => names.hero(id)).join(", ")}…`, share: heroes });
    } else if (action.action === "advance") {
      out.push({ answer, label: advanceLabel(app, action) });
    } else if (action.action === "perk") {
      out.push({ answer, label: action.label, detail: names.perks[action.perk]?.text, manual: "changes" in action });
    } else {
      out.push({ answer, label: action.label });
    }
  }
  return out;
}

function advanceLabel(app, action) {
  const { names } = app;
  const extra = [];
  if (typeof action.part === "number") extra.push(`spare part ${action.part + 1}`);
  if (Array.isArray(action.spaces)) extra.push(`Hut spaces: ${action.spaces.map(humanize).join(", ")}`);
  if (typeof action.space === "string") extra.push(`Hut space: ${humanize(action.space)}`);
  if (typeof action.to === "string") extra.push(`Gem to: ${humanize(action.to)}`);
  if (typeof action.blight === "number") extra.push(`Twig Blight ${action.blight + 1}`);
  if (typeof action.relic === "string") extra.push(names.relic(action.relic));
  return extra.length ? `${action.label} (${extra.join("; ")})` : action.label;
}

function actionButton(app, entry, extraClass = "") {
  const a = entry.answer;
  const edits = entry.manual || entry.share;
  const onclick = edits ? () => { app.ui.editing = entry; app.refreshPrompt(); } : () => app.answer(a);
  return h("button", { class: `btn action ${extraClass}`, type: "button", "data-testid": "action", "data-action": a.action,
                       "data-to": a.action === "move" ? a.to : null, onclick },
    h("span", { class: "opt-main" }, entry.label, entry.detail ? h("small", {}, entry.detail) : null));
}

function actionBody(app, prompt) {
  if (prompt.key === "card-builder") return cardBuilder(app);
  if (app.ui.editing && app.ui.editing.share) return shareEditor(app, app.ui.editing);
  if (app.ui.editing) return changeEditor(app, app.ui.editing);
  const menu = expandedMenu(app);
  const left = typeof prompt.context?.actions_left === "number" ? prompt.context.actions_left : null;
  const parts = [];
  if (prompt.key === "hero-action" && left !== null) {
    const hero = app.pack.heroes.find((x) => x.id === prompt.context.hero);
    const total = Math.max(left, hero ? hero.actions : left);
    parts.push(h("div", { class: "pips", "data-testid": "prompt-actions-left", "data-left": left, "aria-label": `${left} actions left` },
      Array.from({ length: total }, (_, i) => h("span", { class: i < left ? "pip on" : "pip" })),
      h("span", { class: "pips-text" }, `${left} action${left === 1 ? "" : "s"} left`)));
    if (menu.some((e) => e.answer.action === "move")) parts.push(h("p", { class: "prompt-hint" }, "Tap a glowing place on the board to move there, or use the buttons."));
  }
  if (prompt.key === "manual-event") {
    const done = menu.find((e) => e.answer.action === "done") || { answer: { action: "done", changes: [] }, label: "Done" };
    return [...parts, changeEditor(app, done, true)];
  }
  const known = new Set([...GROUPS.map(([k]) => k), ...FINISHERS]);
  const groups = [...GROUPS, ...[...new Set(menu.map((e) => e.answer.action).filter((k) => !known.has(k)))].map((k) => [k, humanize(k)])];
  for (const [kind, title] of groups) {
    const entries = menu.filter((e) => e.answer.action === kind);
    if (!entries.length) continue;
    parts.push(h("section", { class: "action-group", "data-testid": "action-group", "data-kind": kind },
      h("h3", {}, title), h("div", { class: "options" }, entries.map((e) => actionButton(app, e)))));
  }
  const finishers = menu.filter((e) => FINISHERS.includes(e.answer.action));
  if (finishers.length) parts.push(h("div", { class: "finishers" }, finishers.map((e) => actionButton(app, e, "btn-finish"))));
  if (!menu.length) parts.push(h("p", { class: "subtle" }, "No actions are offered."));
  return parts;
}

// -- Share: every hand-over between the heroes at one location, sent as one action ---------------------
function shareEditor(app, entry) {
  const { names, view } = app;
  const heroes = entry.share;
  const picks = (app.ui.sharePicks ||= {});
  const things = heroes.flatMap((from) => [
    ...view.state.heroes[from].items.map((id) => ({ key: `items:${id}`, give: { item: id }, from, name: names.item(id) })),
    ...view.state.heroes[from].relics.map((id) => ({ key: `relics:${id}`, give: { relic: id }, from, name: names.relic(id) })),
  ]);
  const gives = () => things.filter((t) => picks[t.key]).map((t) => ({ ...t.give, from: t.from, to: picks[t.key] }));
  const count = gives().length;
  const rows = heroes.map((from) => h("section", { class: "share-hero", "data-testid": "share-hero", "data-id": from },
    h("h3", {}, `${names.hero(from)} gives`),
    things.filter((t) => t.from === from).length ? h("ul", { class: "share-list" }, things.filter((t) => t.from === from).map((t) =>
      h("li", {}, h("label", {}, h("span", {}, t.name),
        h("select", { class: "select", "data-testid": "share-select", "data-thing": t.key, "aria-label": `${t.name}: who gets it`,
                      onchange: (event) => { picks[t.key] = event.target.value; app.refreshPrompt(); } },
          [["", "keeps it"], ...heroes.filter((to) => to !== from).map((to) => [to, `to ${names.hero(to)}`])].map(([value, text]) =>
            h("option", { value, selected: (picks[t.key] || "") === value }, text))))))) : h("p", { class: "subtle" }, "Nothing to give.")));
  return h("div", { class: "share-editor", "data-testid": "share-editor" },
    h("p", { class: "prompt-hint" }, "Choose who gets each item; all the hand-overs together cost one action."),
    rows,
    h("div", { class: "finishers" },
      h("button", { class: "btn", type: "button", onclick: () => { app.ui.editing = null; app.ui.sharePicks = {}; app.refreshPrompt(); } }, "Cancel"),
      h("button", { class: "btn btn-primary btn-huge btn-finish", type: "button", "data-testid": "share-send", disabled: count === 0,
                    onclick: () => app.answer({ action: "share", give: gives() }) },
        count ? `Share: ${count} item${count === 1 ? "" : "s"} change hands (1 action)` : "Choose what changes hands")));
}

// -- manual changes (a card the players carry out by hand, a manual Perk) ----------------------------
function describeChange(app, change) {
  const { names } = app;
  if ("place" in change) {
    const [kind, id] = change.place.split(":");
    const who = kind === "hero" ? names.hero(id) : kind === "villager" ? names.villager(id) : names.monster(id);
    return change.at === null ? `Take ${who} off the board` : `Put ${who} at ${names.place(change.at)}`;
  }
  if ("terror" in change) return `Terror ${change.terror > 0 ? "+" : ""}${change.terror}`;
  if ("frenzy" in change) return `Frenzy marker to ${names.monster(change.frenzy)}`;
  if ("discard" in change) return `Discard ${names.item(change.discard)}`;
  if ("give" in change) return `${names.item(change.give)} goes to ${names.hero(change.to)}`;
  if ("spare" in change) return `No monster attacks ${names.hero(change.spare)} this turn`;
  return JSON.stringify(change);
}

function select(testid, label, options) {
  return h("select", { class: "select", "data-testid": testid, "aria-label": label },
    options.map(([value, text]) => h("option", { value }, text)));
}

function changeEditor(app, base, isEvent = false) {
  const { names, view } = app;
  const state = view.state;
  const changes = (app.ui.changes ||= []);
  const add = (change) => { changes.push(change); app.refreshPrompt(); };
  const figures = [
    ...state.seats.map((id) => [`hero:${id}`, `${names.hero(id)} (${state.heroes[id].player})`]),
    ...Object.values(state.villagers).map((v) => [`villager:${v.id}`, names.villager(v.id)]),
    ...Object.values(state.monsters).filter((m) => !m.defeated && m.id !== "gulthias-tree").map((m) => [`monster:${m.id}`, names.monster(m.id)]),
  ];
  const strahd = "strahd" in state.monsters;
  const places = [["", "off the board"], ...app.pack.board.locations.filter((l) => l.area !== "castle-mat" || strahd).map((l) => [l.id, l.name])];
  const held = [...Object.values(state.heroes).flatMap((hero) => hero.items), ...Object.keys(state.items_at || {})];
  const figureSel = select("change-figure", "Figure", figures);
  const placeSel = select("change-place", "Where", places);
  const frenzySel = select("change-frenzy", "Monster", Object.values(state.monsters).filter((m) => !m.defeated).map((m) => [m.id, names.monster(m.id)]));
  const itemSel = select("change-item", "Item", held.map((id) => [id, names.item(id)]));
  const inHands = Object.values(state.heroes).flatMap((hero) => hero.items);
  const heroChoices = state.seats.map((id) => [id, `${names.hero(id)} (${state.heroes[id].player})`]);
  const giveSel = select("change-give-item", "Item handed over", inHands.map((id) => [id, names.item(id)]));
  const giveTo = select("change-give-to", "Hero who gets it", heroChoices);
  const spareSel = select("change-spare", "Hero no monster attacks", heroChoices);
  const send = () => app.answer({ ...base.answer, changes: [...changes] });
  return h("div", { class: "change-editor", "data-testid": "change-editor" },
    h("p", { class: "prompt-hint" }, isEvent ? "Do it on the table, then tell the companion what changed (or nothing)." :
      `${base.label}: tell the companion what the card changed on the table.`),
    changes.length ? h("ol", { class: "change-list", "data-testid": "change-list" }, changes.map((c, i) =>
      h("li", {}, describeChange(app, c), h("button", { class: "btn btn-small", type: "button", "aria-label": "Remove",
                                                        onclick: () => { changes.splice(i, 1); app.refreshPrompt(); } }, "✕")))) : null,
    h("div", { class: "change-row" }, figureSel, placeSel,
      h("button", { class: "btn", type: "button", "data-testid": "add-place",
                    onclick: () => add({ place: figureSel.value, at: placeSel.value || null }) }, "Add move")),
    h("div", { class: "change-row" },
      h("button", { class: "btn", type: "button", "data-testid": "terror-down", onclick: () => add({ terror: -1 }) }, "Terror −1"),
      h("button", { class: "btn", type: "button", "data-testid": "terror-up", onclick: () => add({ terror: 1 }) }, "Terror +1")),
    Object.keys(state.monsters).length > 1 ? h("div", { class: "change-row" }, frenzySel,
      h("button", { class: "btn", type: "button", onclick: () => add({ frenzy: frenzySel.value }) }, "Move Frenzy marker")) : null,
    held.length ? h("div", { class: "change-row" }, itemSel,
      h("button", { class: "btn", type: "button", onclick: () => add({ discard: itemSel.value }) }, "Discard item")) : null,
    inHands.length ? h("div", { class: "change-row" }, giveSel, giveTo,
      h("button", { class: "btn", type: "button", "data-testid": "add-give",
                    onclick: () => add({ give: giveSel.value, to: giveTo.value }) }, "Give item")) : null,
    h("div", { class: "change-row" }, spareSel,
      h("button", { class: "btn", type: "button", "data-testid": "add-spare", onclick: () => add({ spare: spareSel.value }) },
        "Not attacked this turn")),
    h("div", { class: "finishers" },
      isEvent ? null : h("button", { class: "btn", type: "button", onclick: () => { app.ui.editing = null; app.ui.changes = []; app.refreshPrompt(); } }, "Cancel"),
      h("button", { class: "btn btn-primary btn-huge btn-finish", type: "button", "data-testid": "action", "data-action": base.answer.action, onclick: send },
        changes.length ? `${isEvent ? "Done" : "Play it"}: ${changes.length} change${changes.length === 1 ? "" : "s"}` : isEvent ? "Done: nothing changed" : "Play it: nothing changed")));
}

// -- the panel ---------------------------------------------------------------------------------------
export function promptPanel(app) {
  const { view } = app;
  const prompt = view.prompt;
  if (!prompt) {
    return h("section", { class: "panel prompt", "data-testid": "prompt", "data-kind": "none", "data-version": view.version },
      h("h2", { class: "prompt-text" }, view.outcome ? "The game is over." : "Waiting for the companion…"));
  }
  const who = prompt.player && view.state.heroes[prompt.player] ? playerAndHero(app.names, view.state, prompt.player) : null;
  const body = prompt.kind === "choice" || prompt.kind === "draw" ? choiceBody(app, prompt)
    : prompt.kind === "pick" ? pickBody(app, prompt)
    : prompt.kind === "roll" ? rollBody(app, prompt)
    : prompt.kind === "action" ? actionBody(app, prompt)
    : h("p", {}, `This app cannot answer a “${prompt.kind}” question yet.`);
  return h("section", { class: `panel prompt prompt-${prompt.kind}`, id: "prompt-panel", "data-testid": "prompt", "data-key": prompt.key,
                        "data-kind": prompt.kind, "data-version": view.version },
    h("div", { class: "prompt-who" }, h("span", { class: "phase" }, PHASES[view.state.phase] || view.state.phase),
      who ? h("span", {}, ` · ${who} answers`) : null),
    h("h2", { class: "prompt-text", "data-testid": "prompt-text" }, prompt.text),
    diceCard(app),
    body);
}
