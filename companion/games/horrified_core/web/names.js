// How an edition of the family names its things on screen: every id the tablet shows
// is looked up in the pack sent on join (people never see ids). The lookups are the
// same for every edition; an edition without relics simply has none to look up.

export function humanize(id) {
  const text = String(id ?? "").replace(/[-_]/g, " ").trim();
  return text ? text[0].toUpperCase() + text.slice(1) : "";
}

function indexBy(list) {
  return Object.fromEntries((list || []).map((entry) => [entry.id, entry]));
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
