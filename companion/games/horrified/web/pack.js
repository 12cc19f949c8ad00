// The original Horrified's tablet module: what the shell (/js/main.js) asks of a game.
// The shell routes, connects, pairs and shows questions; this module draws the new-game
// wizard, the game screen (the village, the monsters' mats, the heroes, the scarab
// tablet), the hero actions' forms (who comes along on a Move, who gets what in a Share)
// and names this box's things. The owner's data pages (how sure each datum is,
// Confirm, the data file, the board editor, the card library) are the family's (family/), made this
// box's by edition.js and library.js; so is "Is this your card?" on a guessed draw (family/cardcheck.js).

import "./edition.js";
import "./library.js";
import { renderSetup } from "./setup.js";
import { renderGame } from "./game.js";
import { actionBody } from "./actions.js";
import { Names, PHASES } from "./names.js";
import { renderDataStatus, startData } from "./family/datastatus.js";
import { renderBoardEditor } from "./family/editor.js";
import { renderLibrary } from "./family/library.js";
import { cardCheckBody, takeCardAnswer } from "./family/cardcheck.js";
import { refresh as acceptForecast, takeWhatIf } from "./family/forecast.js";

/** A die row's label: the Monster dice numbered; a d20 (a mixed game's first-player roll) by the
 *  player and hero rolling it, else the shell's own words for that die. */
function rowLabel(app, prompt, i) {
  if (prompt.die === "monster") return prompt.count > 1 ? `Monster die ${i + 1}` : "The Monster die";
  const players = (prompt.context && prompt.context.players) || [];
  const hero = players[i] && app.view.state.heroes[players[i]];
  return hero ? `${hero.player} (${app.names.hero(players[i])}): the d20` : null;
}

export default {
  names: (pack) => new Names(pack),
  setupScreen: renderSetup,
  gameScreen: renderGame,
  dataPages: ["status", "board", "cards", "items", "perks", "heroes"],
  dataScreen: (app, page) => (page === "board" ? renderBoardEditor(app) : page === "status" ? renderDataStatus(app) : renderLibrary(app)),
  startData,
  phaseWord: (app) => PHASES[app.view.state.phase] || app.view.state.phase,
  filterHint: (app, prompt) => (prompt.key === "item" ? "Type the item's name…" : prompt.key === "monster-card" ? "Type the card's name…" : null),
  rowLabel,
  /** An action tapped in "What if…?" is asked about, not played (family/forecast.js). A guessed Monster
   * card, item or Perk tapped on its draw: "Is this your card?" first. Not in a mixed game: its cards,
   * items and Perks are the host box's, not this box's data. */
  takeAnswer: (app, prompt, answer) => takeWhatIf(app, prompt, answer) || (!app.pack.mixed && takeCardAnswer(app, prompt, answer)),
  /** The threat forecast of the coming Monster Phase arrived (family/forecast.js); "What if…?" asks it of an action. */
  acceptForecast,
  promptBody: (app, prompt) => (app.pack.mixed ? null : cardCheckBody(app, prompt)),
  /** The hero actions: a Move with villagers at hand and a Share are shaped by the players first (actions.js). */
  actionBody,
};
