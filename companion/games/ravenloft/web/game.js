// The game screen: top bar (terror, frenzy, deck tracker, turn, connection), the
// board, the prompt, "what to do now", heroes and monsters, the history
// drawer with undo/redo, and the end screen.

import { h } from "/js/dom.js";
import { askConfirm } from "/js/confirm.js";
import { boardView } from "./board.js";
import { outcomeParts } from "./family/outcome.js";
import { ledTools } from "/js/leds.js";
import { promptPanel } from "/js/prompt.js";
import { drawerDialog, effectsPanel, historyDrawer, loadingScreen } from "/js/gamescreen.js";
import { cardCheckSheet } from "./family/cardcheck.js";
import { forecastPanel } from "./family/forecast.js";
import { roadCheckPanel } from "./roads.js";
import { symbolIcon, symbolRow, itemIcon, itemTypeWord, frenzyIcon, skullIcon } from "./icons.js";
import { PHASES, outcomeWords } from "./names.js";

// -- top bar ------------------------------------------------------------------------------------------
function terrorTrack(app) {
  const { state } = app.view;
  const max = app.pack.board.terror_max;
  const cells = [];
  for (let level = 0; level <= max; level += 1) {
    cells.push(h("span", { class: `terror-cell${level === state.terror ? " now" : ""}${level < state.terror ? " past" : ""}${level === max ? " max" : ""}`,
                           "aria-hidden": "true" }, level === max ? skullIcon(18) : String(level)));
  }
  return h("div", { class: "terror", "data-testid": "terror", "data-level": state.terror, "data-max": max, role: "img",
                    "aria-label": `Terror ${state.terror} of ${max}; at ${max} the heroes lose` },
    h("span", { class: "bar-label" }, "Terror"), h("span", { class: "terror-cells" }, cells));
}

function topBar(app) {
  const { view, names, pack } = app;
  const { state } = view;
  const frenzy = state.frenzy ? pack.monsters.find((m) => m.id === state.frenzy) : null;
  const active = state.seats[state.active];
  const activeHero = state.heroes[active];
  const phase = PHASES[state.phase] || state.phase;
  const hero = state.phase === "hero";
  return h("header", { class: "topbar", "data-testid": "topbar" },
    h("button", { class: "btn btn-bar", type: "button", "data-testid": "back-to-games", onclick: () => app.go("#/") }, "◀ Games"),
    terrorTrack(app),
    h("div", { class: "bar-item frenzy", "data-testid": "frenzy", "data-monster": state.frenzy || "" },
      h("span", { class: "bar-label" }, "Frenzy"),
      h("span", { class: "frenzy-who" }, frenzyIcon(24), h("strong", {}, frenzy ? frenzy.name : "—"),
        frenzy ? h("span", { class: "sym-inline" }, symbolRow(frenzy.symbols, pack.symbols, 18)) : null)),
    h("button", { class: "bar-item bar-button", type: "button", "data-testid": "deck-count", "data-count": state.deck.length,
                  "aria-label": `Monster deck: ${state.deck.length} cards to come. Show them`,
                  onclick: () => { app.deckOpen = true; app.render(); } },
      h("span", { class: "bar-label" }, "Deck ▾"), h("strong", {}, String(state.deck.length))),
    h("div", { class: "bar-item turn", "data-testid": "turn", "data-hero": active, "data-phase": state.phase },
      h("span", { class: "bar-label" }, state.phase === "setup" ? phase : `${phase} · turn ${state.turn}`),
      h("strong", {}, state.phase === "setup" ? "Setting up" : `${activeHero.player} (${names.hero(active)})`)),
    h("div", { class: `bar-item actions${hero ? " live" : ""}`, "data-testid": "actions-left", "data-left": hero ? state.actions_left : "" },
      h("span", { class: "bar-label" }, "Actions"), h("strong", {}, hero ? `${state.actions_left} left` : "—")),
    h("button", { class: "btn btn-bar", type: "button", "data-testid": "history-open",
                  onclick: () => { app.historyOpen = true; app.render(); } }, "↶ History"),
    app.connectionPill());
}

// -- heroes ----------------------------------------------------------------------------------------------
function heroesPanel(app) {
  const { view, names, pack } = app;
  const { state } = view;
  return h("section", { class: "panel heroes", "data-testid": "heroes" },
    h("h2", {}, "Heroes"),
    h("div", { class: "hero-cards" }, state.seats.map((heroId, seat) => {
      const hero = state.heroes[heroId];
      const info = pack.heroes.find((x) => x.id === heroId);
      const isActive = state.seats[state.active] === heroId && state.phase !== "setup";
      return h("article", { class: `hero-card${isActive ? " active" : ""}`, "data-testid": "hero-card", "data-id": heroId },
        h("header", {},
          h("span", { class: `hero-dot hero-${heroId}`, "aria-hidden": "true" }),
          h("strong", {}, hero.player), h("span", {}, ` — ${names.hero(heroId)}`),
          h("span", { class: "seat-tag" }, `seat ${seat + 1}`), isActive ? h("span", { class: "badge badge-live" }, "Now playing") : null),
        h("p", { class: "hero-where" }, hero.location ? `At ${names.place(hero.location)}` : "Defeated: returns at the Gates of Barovia on their turn"),
        h("div", { class: "hero-things" },
          h("h3", { class: "sub" }, `Items (${hero.items.length})`),
          hero.items.length ? h("ul", { class: "chips" }, hero.items.map((id) => {
            const item = names.items[id];
            return h("li", { class: "chip", "data-testid": "hero-item", "data-id": id },
              item ? itemIcon(item.type, item.strength, 28) : null, h("span", {}, names.item(id)),
              item ? h("small", {}, itemTypeWord(item.type)) : null);
          })) : h("p", { class: "subtle" }, "No items."),
          hero.relics.length ? [h("h3", { class: "sub" }, "Relics"), h("ul", { class: "chips" }, hero.relics.map((id) =>
            h("li", { class: "chip chip-relic", "data-testid": "hero-relic" }, "✦ ", names.relic(id))))] : null,
          h("h3", { class: "sub" }, `Perk cards (${hero.perks.length})`),
          hero.perks.length ? h("ul", { class: "perks" }, hero.perks.map((id) =>
            h("li", { "data-testid": "hero-perk", "data-id": id }, h("strong", {}, names.perk(id)), h("span", {}, names.perks[id]?.text || "")))) : h("p", { class: "subtle" }, "No Perk cards."),
          h("p", { class: `gift${hero.gift ? " taken" : ""}`, "data-testid": "hero-gift", "data-taken": hero.gift ? "yes" : "no" },
            h("strong", {}, "Dark Gift: "), `${info ? info.gift : "?"} — ${hero.gift ? "ACCEPTED (tile flipped)" : "not accepted"}`),
          hero.gift || !view.prompt ? null : giftButton(app, heroId, info)));
    })));
}

/** RL-HA-8: a Gift may be accepted at any moment, even before an effect resolves. It is for good,
 * so it is confirmed first, saying what it gives and what it costs. */
function giftButton(app, heroId, info) {
  const gift = info ? info.gift : "the Dark Gift";
  return h("button", { class: "btn btn-small gift-accept", type: "button", "data-testid": "gift-accept", "data-id": heroId,
                       onclick: async () => {
                         const ok = await askConfirm({
                           title: `Accept ${gift}?`, key: "gift",
                           text: `A Dark Gift is for good: the ${app.names.hero(heroId)}'s tile is flipped and stays flipped for the rest of the game.`,
                           yes: `Accept ${gift} for good`, no: "No, not now" });
                         if (ok) app.anytime({ action: "gift", hero: heroId });
                       } },
    "Accept the Dark Gift now…");
}

// -- monsters -----------------------------------------------------------------------------------------------
/** The mat in words, as the monster's own plug-in tells it (the view's ``mats[id].lines``). */
function matLines(app, monsterId) {
  const mat = app.view.state.mats[monsterId];
  return mat && Array.isArray(mat.lines) ? mat.lines : [];
}

function monstersPanel(app) {
  const { view, names, pack } = app;
  const { state } = view;
  return h("section", { class: "panel monsters", "data-testid": "monsters" },
    h("h2", {}, "Monsters"),
    h("div", { class: "monster-cards" }, Object.values(state.monsters).map((monster) => {
      const info = pack.monsters.find((m) => m.id === monster.id);
      return h("article", { class: `monster-card${monster.defeated ? " defeated" : ""}`, "data-testid": "monster-card", "data-id": monster.id },
        h("header", {}, h("strong", {}, names.monster(monster.id)),
          state.frenzy === monster.id ? h("span", { class: "badge badge-frenzy" }, frenzyIcon(18), "Frenzy") : null,
          monster.defeated ? h("span", { class: "badge badge-won" }, "Defeated") : null),
        h("div", { class: "sym-list" }, (info ? info.symbols : []).map((sym) =>
          h("span", { class: "sym-chip" }, symbolIcon(sym, pack.symbols, 24), `${sym} (${pack.symbols[sym]?.colour ?? ""})`))),
        h("p", {}, monster.defeated ? "Off the board." : `At ${names.place(monster.location)}`),
        matLines(app, monster.id).map((line) => h("p", { class: "mat-line" }, line)));
    })));
}

// -- deck tracker -------------------------------------------------------------------------------------------
/** The Monster cards still to come and those played, by name. */
function deckDrawer(app) {
  const { view, names } = app;
  const { state } = view;
  const played = state.played_cards || [];
  const close = () => { app.deckOpen = false; app.render(); };
  const sorted = [...state.deck].sort((a, b) => names.card(a).localeCompare(names.card(b)));
  // Drawn but not yet on the discard pile: the card being resolved in this Monster Phase.
  const gone = new Set([...state.deck, ...played]);
  const now = state.phase === "monster" ? (app.pack.cards || []).map((c) => c.id).filter((id) => !gone.has(id)) : [];
  return drawerDialog({ testid: "deck", title: "Monster deck", closeTestid: "deck-close", opener: "deck-count", onClose: close },
      now.length ? [h("h3", {}, "Being played now"), h("ul", { class: "deck-list", "data-testid": "now-list" }, now.map((id) =>
        h("li", { "data-testid": "now-card", "data-id": id }, names.card(id))))] : null,
      h("h3", {}, `Played (${played.length})`),
      played.length ? h("ol", { class: "deck-list played", "data-testid": "played-list" }, played.map((id) =>
        h("li", { "data-testid": "played-card", "data-id": id }, names.card(id)))) : h("p", { class: "subtle" }, "No Monster card has been played yet."),
      h("h3", {}, `Still to come (${state.deck.length})`),
      h("p", { class: "subtle" }, "In no particular order: the deck is shuffled."),
      sorted.length ? h("ul", { class: "deck-list", "data-testid": "deck-list" }, sorted.map((id) =>
        h("li", { "data-testid": "deck-card", "data-id": id }, names.card(id)))) : h("p", { class: "subtle" }, "The deck is empty."));
}

// -- the screen -------------------------------------------------------------------------------------------
export function renderGame(app) {
  const { view } = app;
  if (!view || !app.names) return loadingScreen(app);
  return h("div", { class: "game", "data-testid": "screen-game", "data-game-id": view.game_id, "data-version": view.version },
    topBar(app),
    h("div", { class: "game-body" },
      h("div", { class: "col-side" }, promptPanel(app), roadCheckPanel(app), effectsPanel(app)),
      h("div", { class: "col-board" },
        h("section", { class: "panel board-panel" }, h("h2", { class: "visually-hidden" }, "Board"),
          h("p", { class: "board-swipe subtle" }, "Swipe sideways to see the whole board."),
          ledTools(app),
          h("div", { class: "board-scroll" }, boardView(app))),
        forecastPanel(app), monstersPanel(app), heroesPanel(app))),
    app.historyOpen ? historyDrawer(app) : null,
    app.deckOpen ? deckDrawer(app) : null,
    cardCheckSheet(app),
    ...outcomeParts(app, outcomeWords));
}
