// Ravenloft's answers on the prompt panel (the shell's /js/prompt.js asks for
// them): how an item, Perk or card option looks, how a die row is labelled,
// and the action menu: the hero's actions grouped by kind, one Share editor
// for every hand-over, the change editor for what a card done by hand changed,
// and the card builder.

import { h, folded } from "/js/dom.js";
import { itemIcon, itemTypeWord, symbolRow } from "./icons.js";
import { playerAndHero, humanize } from "./names.js";
import { cardBuilder } from "./cardbuilder.js";

/** An option as a Ravenloft player knows it, or null for the plain words. */
export function optionContent(app, prompt, option, i) {
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
  return null;
}

export function searchText(app, option) {
  const item = app.names.items[option.id];
  return folded([option.text, option.id, item ? `${item.type} ${item.strength}` : ""].join(" "));
}

/** The filter box's hint over a long list of options. */
export function filterHint(app, prompt) {
  return prompt.key === "item" ? "Type the item's name, type or strength…" : null;
}

/** A die row's label: the player and hero rolling it (the first-player roll), else null. */
export function rowLabel(app, prompt, i) {
  const players = prompt.context && prompt.context.players;
  return Array.isArray(players) && players[i] ? playerAndHero(app.names, app.view.state, players[i]) : null;
}

/** Who answers the question, in the table's words. */
export function promptWho(app, prompt) {
  return prompt.player && app.view.state.heroes[prompt.player] ? playerAndHero(app.names, app.view.state, prompt.player) : null;
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

export function actionBody(app, prompt) {
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

/** The chip over a question about one figure: its monster's symbols, its name and where it stands. */
export function aboutContent(app, prompt) {
  const { names, pack } = app;
  const context = prompt.context || {};
  const monster = pack.monsters.find((m) => m.id === context.monster);
  return [monster ? h("span", { class: "sym-inline" }, symbolRow(monster.symbols, pack.symbols, 22)) : null,
    h("strong", {}, String(context.figure)),
    context.location ? h("span", { class: "subtle" }, ` at ${names.place(context.location)}`) : null];
}
