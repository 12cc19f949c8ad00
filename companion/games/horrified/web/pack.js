// The original Horrified's tablet module: what the shell (/js/main.js) asks of a game.
// The shell routes, connects, pairs and shows questions; this module draws the new-game
// wizard, the game screen (the village, the monsters' mats, the heroes, the scarab
// tablet) and names this box's things. The owner's data screens of this box are not on
// the tablet yet: its data page says so and leads back (the companion still reads,
// checks and plays the owner's data sent to it).

import { renderSetup } from "./setup.js";
import { renderGame } from "./game.js";
import { Names, PHASES } from "./names.js";
import { h } from "/js/dom.js";

function dataScreen(app) {
  return h("div", { class: "page", "data-testid": "screen-data", "data-game": "horrified" },
    h("header", { class: "page-head" },
      h("button", { class: "btn", type: "button", "data-testid": "back-to-games", onclick: () => app.go("#/") }, "◀ Games"),
      h("h1", {}, "Game data: Horrified"), app.connectionPill()),
    h("section", { class: "panel" },
      h("p", { "data-testid": "data-not-yet" }, "The screens to correct this box's data (board, cards, items, perks, heroes) are not on the tablet yet. "
        + "Every datum of the box carries how sure its sources are; the settings for what the rules leave open "
        + "(POW before HIT, the Frenzy Order, the Terror track, the die) are listed in the companion's documentation.")));
}

export default {
  names: (pack) => new Names(pack),
  setupScreen: renderSetup,
  gameScreen: renderGame,
  dataPages: ["status"],
  dataScreen,
  startData: () => {},
  phaseWord: (app) => PHASES[app.view.state.phase] || app.view.state.phase,
  filterHint: (app, prompt) => (prompt.key === "item" ? "Type the item's name…" : prompt.key === "monster-card" ? "Type the card's name…" : null),
  rowLabel: (app, prompt, i) => (prompt.count > 1 ? `Monster die ${i + 1}` : "The Monster die"),
};
