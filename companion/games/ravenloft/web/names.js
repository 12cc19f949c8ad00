// Names of things, from the pack sent on join (ids are never shown to people).

export { Names, humanize } from "./family/names.js";

/** "Sam (Sorcerer)" for a seat. */
export function playerAndHero(names, state, heroId) {
  const hero = state.heroes[heroId];
  if (!hero) return names.hero(heroId);
  return `${hero.player} (${names.hero(heroId)})`;
}

export function outcomeWords(outcome) {
  if (outcome === "won") return { title: "The heroes win!", text: "Every monster is defeated. Barovia can breathe again.", won: true };
  if (outcome === "lost: terror") return { title: "The heroes lose", text: "The Terror marker reached the end of its track.", won: false };
  if (outcome === "lost: out of time") return { title: "The heroes lose", text: "The Monster deck ran out before the monsters fell.", won: false };
  return { title: "The game is over", text: String(outcome), won: false };
}

export const PHASES = { setup: "Setup", hero: "Hero Phase", monster: "Monster Phase", over: "Game over" };
