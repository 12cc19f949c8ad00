// Ravenloft's tablet module: what the shell (/js/main.js) asks of a game.
// The shell routes, connects, pairs and shows prompts; this module draws the
// new-game wizard, the game screen (board, heroes, monsters, deck), the game
// data screens, the board under the LED setup, and Ravenloft's own answers
// on the prompt panel.

import { renderSetup } from "./setup.js";
import { renderGame } from "./game.js";
import "./edition.js";
import { renderDataStatus, startData } from "./family/datastatus.js";
import { renderBoardEditor } from "./family/editor.js";
import "./library.js";
import { renderLibrary } from "./family/library.js";
import { Names, PHASES } from "./names.js";
import { setupBoard, xy } from "./board.js";
import { cardCheckBody, takeCardAnswer } from "./family/cardcheck.js";
import { refresh as acceptForecast, takeWhatIf } from "./family/forecast.js";
import { aboutContent, actionBody, filterHint, optionContent, promptWho, rowLabel, searchText } from "./actions.js";

export default {
  /** How the pack names its things on screen (places, heroes, items ...). */
  names: (pack) => new Names(pack),
  setupScreen: renderSetup,
  gameScreen: renderGame,
  dataPages: ["status", "board", "cards", "items", "perks", "heroes"],
  dataScreen(app, page) {
    return page === "board" ? renderBoardEditor(app) : page === "status" ? renderDataStatus(app) : renderLibrary(app);
  },
  startData,
  /** The board drawn under the LED setup, and where a location sits on it. */
  ledBoard: { setupBoard, xy, names: (pack) => new Names(pack) },
  optionContent,
  searchText,
  filterHint,
  rowLabel,
  promptWho,
  actionBody,
  aboutContent,
  /** An action tapped in "What if…?" is asked about, not played (family/forecast.js); a guessed Monster
   * card tapped on the draw: "Is this your card?" first (family/cardcheck.js). */
  takeAnswer: (app, prompt, answer) => takeWhatIf(app, prompt, answer) || takeCardAnswer(app, prompt, answer),
  /** The threat forecast of the coming Monster Phase arrived (family/forecast.js). */
  acceptForecast,
  promptBody: cardCheckBody,
  phaseWord: (app) => PHASES[app.view.state.phase] || app.view.state.phase,
};
