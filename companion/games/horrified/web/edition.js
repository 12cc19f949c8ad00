// What makes the family's data pages (family/datastatus.js, family/editor.js) this
// box's: the game, the values its owner confirms whole (the Terror track, POW before
// HIT, the Event monster's move, the solo changes, the Monster die), its board's own parts - the village
// drawn as on the game screen, with the Hospital as its one special place, and the
// words for its water ways (the Creature's alone, the one mover of its data) - and
// its items' three colours (library.js adds what its cards, Perks and heroes may do).

import { useEdition } from "./family/datastatus.js";
import { xy } from "./board.js";

export const GAME = "horrified";

useEdition({
  game: GAME,
  confirmable: ["board.terror_max", "board.pow_first", "board.event_monster_moves", "board.solo", "dice.monster_die"],
  kindWords: { pow_first: "POW before HIT", event_monster_moves: "The Event's monster moves", solo: "Solo game" },
  tabs: [["", "Status"], ["board", "Board"], ["cards", "Monster cards"], ["items", "Items"], ["perks", "Perks"], ["heroes", "Heroes"]],
  intro: "The sources we built this box from do not agree on everything (the village's roads, the Terror track, some cards), so each datum says how sure it is. Make it match your box here; the Monster Phase uses your data from then on.",
  library: { itemTypes: [["red", "Red"], ["blue", "Blue"], ["yellow", "Yellow"]], tabs: {} },
  board: {
    xy, size: [1000, 700], newLocation: {},
    roles: [{ key: "hospital", short: "Hospital", is: "The Hospital", make: "Make it the Hospital (defeated heroes return here)" }],
    ways: { creature: { name: "Water way", many: "Water ways", who: "the Creature", button: "Water way (the Creature's)" } },
  },
});
