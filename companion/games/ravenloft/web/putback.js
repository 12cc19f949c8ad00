// What to put back on the real table after an undo: the public state now against the
// state the undo leads to (or led from), in the table's words: figures to move back,
// items to return, the Terror marker, the Frenzy marker, Monster cards back on the deck.

function moved(names, label, from, to) {
  if (from === to) return null;
  if (to == null) return `Take ${label} off the board (from ${names.place(from)}).`;
  if (from == null) return `Put ${label} back on the board at ${names.place(to)}.`;
  return `Move ${label} back from ${names.place(from)} to ${names.place(to)}.`;
}

function figureLines(names, now, then) {
  const lines = [];
  for (const [id, hero] of Object.entries(then.heroes)) {
    lines.push(moved(names, `the ${names.hero(id)}`, now.heroes[id]?.location ?? null, hero.location));
  }
  for (const [id, monster] of Object.entries(then.monsters)) {
    lines.push(moved(names, names.monster(id), now.monsters[id]?.location ?? null, monster.location));
  }
  for (const [id, villager] of Object.entries(then.villagers)) {
    lines.push(moved(names, names.villager(id), now.villagers[id]?.location ?? null, villager.location));
  }
  const key = (f) => `${f.kind}/${f.index ?? f.id ?? ""}`;
  const nowFigures = new Map((now.figures || []).map((f) => [key(f), f]));
  const thenFigures = new Map((then.figures || []).map((f) => [key(f), f]));
  for (const k of new Set([...nowFigures.keys(), ...thenFigures.keys()])) {
    const a = nowFigures.get(k), b = thenFigures.get(k);
    lines.push(moved(names, (b || a).name || k, a ? a.location : null, b ? b.location : null));
  }
  return lines;
}

function holderOf(state, item) {
  if (state.items_at[item]) return { at: state.items_at[item] };
  for (const [id, hero] of Object.entries(state.heroes)) if (hero.items.includes(item)) return { hero: id };
  return null; // in the Haversack, the discard pile or out of the game
}

function itemLines(names, now, then) {
  const lines = [];
  const all = new Set([...Object.keys(now.items_at), ...Object.keys(then.items_at),
    ...Object.values(now.heroes).flatMap((x) => x.items), ...Object.values(then.heroes).flatMap((x) => x.items)]);
  for (const item of [...all].sort()) {
    const a = holderOf(now, item), b = holderOf(then, item);
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    const name = `the ${names.item(item)}`;
    const to = !b ? "back into the Haversack (or the discard pile it came from)"
      : b.at ? `back at ${names.place(b.at)}` : `back to the ${names.hero(b.hero)}`;
    const from = !a ? "" : a.at ? ` from ${names.place(a.at)}` : ` from the ${names.hero(a.hero)}`;
    lines.push(`Put ${name}${from} ${to}.`);
  }
  return lines;
}

function markerLines(names, now, then) {
  const lines = [];
  if (now.terror !== then.terror) lines.push(`Set the Terror marker back to ${then.terror}.`);
  if (now.frenzy !== then.frenzy) lines.push(`Give the Frenzy marker back to ${then.frenzy ? names.monster(then.frenzy) : "no monster"}.`);
  const played = (now.played_cards || []).filter((c) => !(then.played_cards || []).includes(c));
  const drawn = (then.deck || []).filter((c) => !(now.deck || []).includes(c) && !played.includes(c));
  for (const card of [...played, ...drawn]) lines.push(`Put the Monster card ${names.card(card)} back on top of the deck.`);
  for (const [id, hero] of Object.entries(then.heroes)) {
    if (now.heroes[id] && now.heroes[id].gift && !hero.gift) lines.push(`Turn the ${names.hero(id)}'s hero tile back: the Dark Gift is not taken.`);
  }
  return lines;
}

/** The pieces to put back to go from ``now`` to ``then`` (two public states of one game). */
export function putBack(app, now, then) {
  if (!now || !then) return [];
  const { names } = app;
  return [...figureLines(names, now, then), ...itemLines(names, now, then), ...markerLines(names, now, then)].filter(Boolean);
}
