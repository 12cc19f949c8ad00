// How this game names its things on screen: every id the tablet shows is looked up
// in the pack sent on join (people never see ids).

export function humanize(id) {
  const text = String(id ?? "").replace(/[-_]/g, " ").trim();
  return text ? text[0].toUpperCase() + text.slice(1) : "";
}

function byId(list) {
  return Object.fromEntries((list || []).map((entry) => [entry.id, entry]));
}

export class Names {
  constructor(pack) {
    this.pack = pack;
    this.locations = byId(pack.board.locations);
    this.monsters = byId(pack.monsters);
    this.heroes = byId(pack.heroes);
    this.villagers = byId(pack.villagers);
    this.items = byId(pack.items);
    this.perks = byId(pack.perks);
    this.cards = byId(pack.cards);
  }

  place(id) { return id == null ? "off the board" : (this.locations[id]?.name ?? humanize(id)); }
  monster(id) { return this.monsters[id]?.name ?? humanize(id); }
  hero(id) { return this.heroes[id]?.name ?? humanize(id); }
  villager(id) { return this.villagers[id]?.name ?? humanize(id); }
  item(id) { return this.items[id]?.name ?? humanize(id); }
  perk(id) { return this.perks[id]?.name ?? humanize(id); }
  card(id) { return this.cards[id]?.name ?? humanize(id); }
}

export const PHASES = { setup: "Setup", hero: "Hero Phase", monster: "Monster Phase" };

export function outcomeWords(outcome) {
  if (outcome === "won") return { won: true, title: "The heroes win!", text: "Every monster is defeated: the village is saved." };
  if (outcome === "lost: terror") return { won: false, title: "The heroes lose", text: "The Terror marker reached the skull: the villagers flee." };
  if (outcome === "lost: out of time") return { won: false, title: "The heroes lose", text: "A Monster card had to be drawn and the deck was empty." };
  return { won: false, title: "The game is over", text: String(outcome) };
}
