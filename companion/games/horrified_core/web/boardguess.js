// "This board is our guess": where a board's places or roads were never checked against a real
// box (the pack's guessed_places and guessed_roads), the wizard and the game screen say so and
// lead the owner to the board editor and the data status. Once the owner has confirmed them all
// (or corrected them), nothing is shown: no nagging.

import { h } from "/js/dom.js";

/** How much of `board` is still our guess: { places, roads, allPlaces, allRoads } or null when none is. */
export function boardGuess(board) {
  const places = (board.guessed_places || []).length;
  const roads = (board.guessed_roads || []).length;
  if (!places && !roads) return null;
  return { places, roads, allPlaces: (board.locations || []).filter((l) => !l.area || l.area === "board").length,
           allRoads: (board.connections || []).length };
}

function counted(n, all, one, many) {
  const word = n === 1 ? one : many;
  return n === all ? `all ${all} ${word}` : `${n} of ${all} ${word}`;
}

/** What is unchecked, in words: "all 26 places and all 31 roads". */
function unchecked(guess) {
  return [guess.places ? counted(guess.places, guess.allPlaces, "place", "places") : null,
    guess.roads ? counted(guess.roads, guess.allRoads, "road", "roads") : null].filter(Boolean).join(" and ");
}

function links(app, game) {
  return h("span", { class: "board-guess-links" },
    h("button", { class: "btn btn-small", type: "button", "data-testid": "board-guess-editor",
                  onclick: () => app.go(`#/data/${encodeURIComponent(game)}/board`) }, "Check the board"),
    h("button", { class: "btn btn-small", type: "button", "data-testid": "board-guess-status",
                  onclick: () => app.go(`#/data/${encodeURIComponent(game)}/status`) }, "Data status"));
}

/**
 * The note for `board`, the board of `game` (whose data pages hold it), or null when the owner has
 * confirmed it all. `where` is what the board is called ("The village board"). `compact`: one line
 * for the game screen.
 */
export function boardGuessNote(app, game, board, where, compact = false) {
  const guess = boardGuess(board);
  if (!guess) return null;
  const said = `${where} is our guess: ${unchecked(guess)} have not been checked against a real box.`;
  const ask = " Before the first game, lay your board beside the board editor and confirm or correct each place and road"
    + " (once: every game after plays by it).";
  return h(compact ? "p" : "section", { class: `board-guess${compact ? " compact" : " hint"}`, "data-testid": "board-guess",
                                         "data-places": guess.places, "data-roads": guess.roads, role: "note" },
    h("strong", {}, "⚠ "), said, compact ? null : ask, " ", links(app, game));
}
