// Names of things, from the pack sent on join (ids are never shown to people).

export function humanize(id) {
  const text = String(id ?? "").replace(/[-_]/g, " ").trim();
  return text ? text[0].toUpperCase() + text.slice(1) : "";
}

function indexBy(list) {
  const out = {};
  for (const entry of list || []) out[entry.id] = entry;
  return out;
}

/** Lookups built once per pack. */
export class Names {
  constructor(pack) {
    this.pack = pack;
    this.locations = indexBy(pack.board.locations);
    this.monsters = indexBy(pack.monsters);
    this.heroes = indexBy(pack.heroes);
    this.villagers = indexBy(pack.villagers);
    this.items = indexBy(pack.items);
    this.perks = indexBy(pack.perks);
    this.cards = indexBy(pack.cards);
    this.relics = indexBy(pack.relics || []);
    this.neighbours = {};
    for (const [a, b] of pack.board.connections) {
      (this.neighbours[a] ||= new Set()).add(b);
      (this.neighbours[b] ||= new Set()).add(a);
    }
  }

  place(id) { return id == null ? "off the board" : (this.locations[id]?.name ?? humanize(id)); }
  monster(id) { return this.monsters[id]?.name ?? humanize(id); }
  hero(id) { return this.heroes[id]?.name ?? humanize(id); }
  villager(id) { return this.villagers[id]?.name ?? humanize(id); }
  item(id) { return this.items[id]?.name ?? humanize(id); }
  perk(id) { return this.perks[id]?.name ?? humanize(id); }
  relic(id) { return this.relics[id]?.name ?? humanize(id); }
  card(id) { return this.cards[id]?.name ?? humanize(id); }
  adjacent(a, b) { return Boolean(this.neighbours[a]?.has(b)); }
}

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
