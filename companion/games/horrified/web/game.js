// The game screen of the original Horrified: the top bar (Terror track, Frenzy, deck,
// turn, actions), the question and "what to do now", the scarab tablet while a tablet
// move is asked, the village board, the monsters with their mats in words, the heroes
// with their items and Perk cards, the history drawer, "Is this your card?" over a guessed
// draw and the end screen.

import { h } from "/js/dom.js";
import { ledTools } from "/js/leds.js";
import { promptPanel } from "/js/prompt.js";
import { effectsPanel, historyDrawer, loadingScreen } from "/js/gamescreen.js";
import { boardView } from "./board.js";
import { cardCheckSheet } from "./family/cardcheck.js";
import { forecastPanel } from "./family/forecast.js";
import { boardGuessNote } from "./family/boardguess.js";
import { GAME } from "./edition.js";
import { outcomeParts } from "./family/outcome.js";
import { tabletDrawing, tabletPrompt } from "./mummy.js";
import { PHASES, outcomeWords } from "./names.js";

function terrorTrack(app) {
  const { state } = app.view;
  const max = app.pack.board.terror_max;
  const cells = [];
  for (let level = 0; level <= max; level += 1) {
    cells.push(h("span", { class: `terror-cell${level === state.terror ? " now" : ""}${level < state.terror ? " past" : ""}${level === max ? " max" : ""}`,
                           "aria-hidden": "true" }, level === max ? "☠" : String(level)));
  }
  return h("div", { class: "terror", "data-testid": "terror", "data-level": state.terror, "data-max": max, role: "img",
                    "aria-label": `Terror ${state.terror} of ${max}; at ${max} the heroes lose` },
    h("span", { class: "bar-label" }, "Terror"), h("span", { class: "terror-cells" }, cells));
}

function topBar(app) {
  const { view, names } = app;
  const { state } = view;
  const active = state.seats[state.active];
  const hero = state.phase === "hero";
  return h("header", { class: "topbar", "data-testid": "topbar" },
    h("button", { class: "btn btn-bar", type: "button", "data-testid": "back-to-games", onclick: () => app.go("#/") }, "◀ Games"),
    terrorTrack(app),
    app.pack.mixed ? h("div", { class: "bar-item", "data-testid": "mixed", "data-board": app.pack.mixed.board },
      h("span", { class: "bar-label" }, "Mixed game (ours)"), h("strong", {}, app.pack.mixed.title)) : null,
    h("div", { class: "bar-item frenzy", "data-testid": "frenzy", "data-monster": state.frenzy || "" },
      h("span", { class: "bar-label" }, "Frenzy"), h("strong", {}, state.frenzy ? names.monster(state.frenzy) : "—")),
    h("div", { class: "bar-item", "data-testid": "deck-count", "data-count": state.deck.length },
      h("span", { class: "bar-label" }, "Monster cards"), h("strong", {}, String(state.deck.length))),
    h("div", { class: "bar-item turn", "data-testid": "turn", "data-hero": active, "data-phase": state.phase },
      h("span", { class: "bar-label" }, `${PHASES[state.phase] || state.phase} · turn ${state.turn}`),
      h("strong", {}, `${state.heroes[active].player} (${names.hero(active)})`)),
    h("div", { class: `bar-item actions${hero ? " live" : ""}`, "data-testid": "actions-left", "data-left": hero ? state.actions_left : "" },
      h("span", { class: "bar-label" }, "Actions"), h("strong", {}, hero ? `${state.actions_left} left` : "—")),
    h("button", { class: "btn btn-bar", type: "button", "data-testid": "history-open",
                  onclick: () => { app.historyOpen = true; app.render(); } }, "↶ History"),
    app.connectionPill());
}

function monsterCard(app, monster) {
  const { names, view } = app;
  const mat = view.state.mats[monster.id] || {};
  const frenzied = view.state.frenzy === monster.id;
  return h("article", { class: `monster-card${monster.defeated ? " defeated" : ""}`, "data-testid": "monster-card", "data-id": monster.id },
    h("header", {}, h("strong", {}, names.monster(monster.id)),
      frenzied ? h("span", { class: "badge badge-frenzy" }, "Frenzy") : null,
      monster.defeated ? h("span", { class: "badge badge-won" }, "Defeated") : null),
    h("p", {}, monster.defeated ? "Off the board." : `At ${names.place(monster.location)}`),
    (Array.isArray(mat.lines) ? mat.lines : []).map((line) => h("p", { class: "mat-line", "data-testid": "mat-line" }, line)),
    mat.tablet && !monster.defeated ? tabletDrawing(app, mat.tablet) : null);
}

function heroCard(app, heroId, seat) {
  const { names, view } = app;
  const { state } = view;
  const hero = state.heroes[heroId];
  const now = state.seats[state.active] === heroId;
  const items = (hero.items || []).map((id) => {
    const item = names.items[id];
    return h("li", { class: `chip item-${item ? item.type : ""}`, "data-testid": "hero-item", "data-id": id },
      h("span", {}, names.item(id)), item ? h("small", {}, ` ${item.type} ${item.strength}`) : null);
  });
  return h("article", { class: `hero-card${now ? " active" : ""}`, "data-testid": "hero-card", "data-id": heroId },
    h("header", {}, h("strong", {}, hero.player), h("span", {}, ` — ${names.hero(heroId)}`), h("span", { class: "seat-tag" }, `seat ${seat + 1}`),
      now ? h("span", { class: "badge badge-live" }, "Now playing") : null),
    h("p", { class: "hero-where" }, hero.location ? `At ${names.place(hero.location)}`
      : state.phase === "setup" ? "Not on the board yet"
      : app.pack.board.hospital ? `Defeated: back at the ${names.place(app.pack.board.hospital)} at the start of their turn`
      : "Defeated: back on the board at the start of their turn, where that box's rules say"),
    h("h3", { class: "sub" }, `Items (${items.length})`), items.length ? h("ul", { class: "chips" }, items) : h("p", { class: "subtle" }, "No items."),
    h("h3", { class: "sub" }, `Perk cards (${hero.perks.length})`),
    hero.perks.length ? h("ul", { class: "perks" }, hero.perks.map((id) =>
      h("li", { "data-testid": "hero-perk", "data-id": id }, h("strong", {}, names.perk(id)), h("span", {}, ` ${names.perks[id]?.text || ""}`))))
      : h("p", { class: "subtle" }, "No Perk cards."));
}

export function renderGame(app) {
  const { view } = app;
  if (!view || !app.names) return loadingScreen(app);
  const prompt = view.prompt;
  return h("div", { class: "game", "data-testid": "screen-game", "data-game-id": view.game_id, "data-version": view.version },
    topBar(app),
    h("div", { class: "game-body" },
      h("div", { class: "col-side" }, promptPanel(app), prompt && prompt.key === "scarab" ? tabletPrompt(app, prompt) : null,
        forecastPanel(app), effectsPanel(app)),
      h("div", { class: "col-board" },
        h("section", { class: "panel board-panel" }, h("h2", { class: "visually-hidden" }, "Board"),
          ledTools(app),
          app.pack.mixed ? boardGuessNote(app, app.pack.mixed.board, app.pack.board, `The ${app.pack.mixed.title} board`, true)
            : boardGuessNote(app, GAME, app.pack.board, "This village board", true),
          h("div", { class: "board-scroll" }, boardView(app))),
        h("section", { class: "panel monsters", "data-testid": "monsters" }, h("h2", {}, "Monsters"),
          h("div", { class: "monster-cards" }, Object.values(view.state.monsters).map((m) => monsterCard(app, m)))),
        h("section", { class: "panel heroes", "data-testid": "heroes" }, h("h2", {}, "Heroes"),
          h("div", { class: "hero-cards" }, view.state.seats.map((id, seat) => heroCard(app, id, seat)))))),
    app.historyOpen ? historyDrawer(app) : null,
    cardCheckSheet(app),
    ...outcomeParts(app, outcomeWords));
}
