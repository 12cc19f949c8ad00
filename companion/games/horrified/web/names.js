// How this game names its things on screen: every id the tablet shows is looked up
// in the pack sent on join (people never see ids).

export { Names, humanize } from "./family/names.js";

export const PHASES = { setup: "Setup", hero: "Hero Phase", monster: "Monster Phase" };

export function outcomeWords(outcome) {
  if (outcome === "won") return { won: true, title: "The heroes win!", text: "Every monster is defeated: the village is saved." };
  if (outcome === "lost: terror") return { won: false, title: "The heroes lose", text: "The Terror marker reached the skull: the villagers flee." };
  if (outcome === "lost: out of time") return { won: false, title: "The heroes lose", text: "A Monster card had to be drawn and the deck was empty." };
  return { won: false, title: "The game is over", text: String(outcome) };
}
