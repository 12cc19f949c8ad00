// The new-game wizard of the original Horrified: 1. monsters (the rules' difficulty
// presets: first game, novice, standard, challenging), 2. heroes and their players in
// seat order (the solo rule shown, the Courier left out alone), 3. name and start.
// The setup's draws (each player's Perk card, the twelve items) are then asked on the
// game screen like any other question.

import { h } from "/js/dom.js";
import { boxPack, openingPage, wizardPage, wizardState } from "./family/wizard.js";
import { boardGuessNote } from "./family/boardguess.js";

const GAME = "horrified";
const PRESETS = [
  { id: "first", title: "First game", text: "The Creature and Dracula", monsters: ["creature", "dracula"] },
  { id: "novice", title: "Novice", text: "Any two monsters", count: 2 },
  { id: "standard", title: "Standard", text: "Any three monsters", count: 3 },
  { id: "challenging", title: "Challenging", text: "Any four monsters", count: 4 },
];

function fresh() {
  return { step: 1, board: GAME, monsters: [], seats: [], places: {}, name: "", nameTouched: false, starting: false, preset: null };
}

function monsterName(pack, id) {
  const all = [...pack.monsters, ...(pack.boards || []).flatMap((b) => b.pack.monsters)];
  return all.find((m) => m.id === id)?.name || id;
}
function heroName(pack, id) {
  const all = [...pack.heroes, ...(pack.boards || []).flatMap((b) => b.pack.heroes)];
  return all.find((x) => x.id === id)?.name || id;
}
function placeName(pack, id) { return pack.board.locations.find((l) => l.id === id)?.name || id; }

/** Where a monster's figure starts on the board played: its own place, or for a guest of a mixed
 *  game the host place its start lands on (our default, changeable before the game starts). */
function startName(pack, setup, monster) {
  const host = hostOf(pack, setup);
  if (!host) return placeName(pack, monster.start);
  const landed = (host.places[monster.id] || {}).start;
  const chosen = (setup.places[monster.id] || {}).start;
  return placeName(host.pack, chosen || (landed ? landed.to : monster.start));
}

/** The board the game is played on: this box's, or another Horrified box's (a mixed game). */
function hostOf(pack, setup) {
  return setup.board === GAME ? null : (pack.boards || []).find((b) => b.id === setup.board) || null;
}

/** The monsters and heroes on offer: this box's, or the host's with this box's monsters as guests. */
function offer(pack, setup) {
  const host = hostOf(pack, setup);
  if (!host) return { monsters: pack.monsters, heroes: pack.heroes, places: pack.board.locations, guests: new Set() };
  return { monsters: [...host.pack.monsters, ...pack.monsters], heroes: host.pack.heroes,
           places: host.pack.board.locations.filter((l) => !l.area || l.area === "board"),
           guests: new Set(pack.monsters.map((m) => m.id)) };
}

function boardChoice(app, pack, setup) {
  if (!(pack.boards || []).length) return null;
  const pick = (id) => {
    if (setup.board === id) return;
    Object.assign(setup, { board: id, monsters: [], seats: [], places: {}, preset: null });
    app.render();
  };
  const button = (id, title, text) => h("button", { class: "btn preset", type: "button", "data-testid": `board-${id}`,
                                                   "aria-pressed": setup.board === id ? "true" : "false", onclick: () => pick(id) },
    h("strong", {}, title), h("span", {}, text));
  return [h("h3", {}, "The board"),
    h("div", { class: "presets", "data-testid": "boards" }, button(GAME, "The village", "This box's board and monsters"),
      pack.boards.map((b) => button(b.id, b.title, "A mixed game: this box's monsters as guests on that board")))];
}

function presetOf(setup) {
  return PRESETS.find((p) => p.id === setup.preset) || null;
}

function monsterProblem(setup) {
  const n = setup.monsters.length;
  if (n < 1) return "Pick at least one monster.";
  const preset = presetOf(setup);
  if (preset && preset.count && n !== preset.count) return `A ${preset.title.toLowerCase()} game has ${preset.count} monsters: pick ${preset.count}.`;
  return null;
}

function heroProblem(pack, setup) {
  if (setup.seats.length < 1) return "Pick at least one hero.";
  if (setup.seats.length > 5) return "At most five heroes.";
  if (hostOf(pack, setup)) return null;
  const solo = pack.solo || { no_heroes: [] };
  const left = setup.seats.length === 1 ? setup.seats.find((s) => solo.no_heroes.includes(s.hero)) : null;
  return left ? `The ${heroName(pack, left.hero)} is not played alone: choose another hero.` : null;
}

function monsterStep(app, pack, setup) {
  const toggle = (id) => {
    setup.monsters = setup.monsters.includes(id) ? setup.monsters.filter((m) => m !== id) : [...setup.monsters, id];
    if (setup.preset === "first") setup.preset = null;
    app.render();
  };
  const choose = (preset) => {
    setup.preset = preset.id;
    if (preset.monsters) setup.monsters = [...preset.monsters];
    app.render();
  };
  const { monsters, guests } = offer(pack, setup);
  const mixed = hostOf(pack, setup);
  return [
    h("h2", { class: "wizard-title" }, "Which monsters haunt the village tonight?"),
    boardChoice(app, pack, setup),
    mixed ? boardGuessNote(app, mixed.id, mixed.pack.board, `The ${mixed.title} board`)
      : boardGuessNote(app, GAME, pack.board, "The village board"),
    mixed ? h("p", { class: "hint", "data-testid": "mixed-note" }, "A mixed game is our combination, not the publisher's: "
      + "it is played by that box's rules, and each guest's special places are put on its board (you can change them before you start).") : null,
    mixed ? null : h("p", { class: "subtle" }, "The rules suggest how many make a game how hard:"),
    mixed ? null : h("div", { class: "presets" }, PRESETS.map((preset) =>
      h("button", { class: "btn preset", type: "button", "data-testid": `preset-${preset.id}`,
                    "aria-pressed": setup.preset === preset.id ? "true" : "false", onclick: () => choose(preset) },
        h("strong", {}, preset.title), h("span", {}, preset.text)))),
    h("div", { class: "choice-grid" }, monsters.map((monster) => {
      const on = setup.monsters.includes(monster.id);
      return h("button", { class: "card-toggle", type: "button", "aria-pressed": on ? "true" : "false",
                           "data-testid": `monster-${monster.id}`, onclick: () => toggle(monster.id) },
        h("span", { class: "check", "aria-hidden": "true" }, on ? "✓" : ""),
        h("span", { class: "card-title" }, monster.name, guests.has(monster.id) ? h("span", { class: "badge" }, " guest") : null),
        h("span", { class: "card-line", "data-testid": `monster-start-${monster.id}` },
          `${guests.has(monster.id) ? "From the village box" : `Frenzy order ${monster.frenzy_order}`} · starts at ${startName(pack, setup, monster)}`),
        h("span", { class: "card-line" }, `Power: ${monster.power}`));
    })),
  ];
}

function seatRow(app, pack, setup, seat, i) {
  const move = (by) => {
    const j = i + by;
    const seats = [...setup.seats];
    [seats[i], seats[j]] = [seats[j], seats[i]];
    setup.seats = seats;
    app.render();
  };
  return h("li", { class: "seat", "data-testid": "seat", "data-hero": seat.hero },
    h("span", { class: "seat-no" }, `${i + 1}`),
    h("span", { class: "seat-hero" }, heroName(pack, seat.hero)),
    h("input", { class: "text-input", type: "text", value: seat.player, placeholder: `Player ${i + 1}`, maxlength: 30,
                 "aria-label": `Name of the player of the ${heroName(pack, seat.hero)}`, "data-testid": `player-${seat.hero}`,
                 oninput: (e) => { seat.player = e.target.value; } }),
    h("button", { class: "btn btn-square", type: "button", "aria-label": "Earlier seat", disabled: i === 0,
                  "data-testid": "seat-up", onclick: () => move(-1) }, "↑"),
    h("button", { class: "btn btn-square", type: "button", "aria-label": "Later seat", disabled: i === setup.seats.length - 1,
                  "data-testid": "seat-down", onclick: () => move(1) }, "↓"));
}

function heroStep(app, pack, setup) {
  const toggle = (id) => {
    setup.seats = setup.seats.some((s) => s.hero === id) ? setup.seats.filter((s) => s.hero !== id)
      : [...setup.seats, { hero: id, player: "" }];
    app.render();
  };
  const solo = pack.solo || { terror: 3 };
  return [
    h("h2", { class: "wizard-title" }, "Who plays which hero?"),
    h("p", { class: "subtle" }, "Tap 1 to 5 heroes, then write each player's name, in seat order clockwise."),
    h("div", { class: "choice-grid" }, offer(pack, setup).heroes.map((hero) => {
      const on = setup.seats.some((s) => s.hero === hero.id);
      return h("button", { class: "card-toggle", type: "button", "aria-pressed": on ? "true" : "false",
                           "data-testid": `hero-${hero.id}`, onclick: () => toggle(hero.id) },
        h("span", { class: "check", "aria-hidden": "true" }, on ? "✓" : ""),
        h("span", { class: "card-title" }, hero.name),
        h("span", { class: "card-line" }, `${hero.actions} actions · starts at ${placeName(hostOf(pack, setup)?.pack || pack, hero.start)}`),
        h("span", { class: "card-line" }, hero.special || hero.ability || hero.gift || "No special action."));
    })),
    setup.seats.length ? h("section", { class: "seats", "data-testid": "seats" }, h("h3", {}, "Seats, clockwise"),
      h("ol", { class: "seat-list" }, setup.seats.map((seat, i) => seatRow(app, pack, setup, seat, i)))) : null,
    setup.seats.length === 1 && !hostOf(pack, setup) ? h("p", { class: "hint", "data-testid": "solo-note" },
      `Playing alone: the Terror marker starts at ${solo.terror}, and two Perk cards stay in the box (solo rule).`) : null,
  ];
}

function defaultName(pack, setup) {
  const players = setup.seats.map((seat, i) => seat.player.trim() || `Player ${i + 1}`);
  return `${setup.monsters.map((id) => monsterName(pack, id)).join(" & ")} — ${players.join(", ")}`.slice(0, 80);
}

function startStep(app, pack, setup) {
  if (!setup.nameTouched) setup.name = defaultName(pack, setup);
  const solo = setup.seats.length === 1;
  return [
    h("h2", { class: "wizard-title" }, "Ready to start"),
    h("label", { class: "field" }, h("span", {}, "Name of this game"),
      h("input", { class: "text-input", type: "text", value: setup.name, maxlength: 80, "data-testid": "game-name",
                   oninput: (e) => { setup.name = e.target.value; setup.nameTouched = true; } })),
    h("dl", { class: "summary" },
      h("dt", {}, "Monsters"), h("dd", {}, setup.monsters.map((id) => monsterName(pack, id)).join(", ")),
      h("dt", {}, "Seats"), h("dd", {}, setup.seats.map((seat, i) =>
        `${i + 1}. ${seat.player.trim() || `Player ${i + 1}`} (${heroName(pack, seat.hero)})`).join(" · ")),
      h("dt", {}, "Terror starts at"), h("dd", {}, !solo ? "0" : hostOf(pack, setup) ? "as that box's solo rule says" : `${(pack.solo || {}).terror} (solo)`)),
    guestPlaces(pack, setup),
    h("p", { class: "subtle" }, "Next the companion asks for each player's Perk card and the items drawn from the bag."),
  ];
}

/** A mixed game: where each guest's special places lie on the host's board (our default, changeable). */
function guestPlaces(pack, setup) {
  const host = hostOf(pack, setup);
  if (!host) return null;
  const { places } = offer(pack, setup);
  const guests = setup.monsters.filter((m) => host.places[m]);
  return h("section", { class: "panel", "data-testid": "guest-places" }, h("h3", {}, "The guests' places on this board (our default)"),
    guests.map((m) => h("div", { class: "field" }, h("strong", {}, monsterName(pack, m)),
      Object.entries(host.places[m]).map(([role, spot]) => h("label", { class: "field" },
        h("span", {}, `${humanizeRole(role)} (${spot.from_name} in the village)`),
        h("select", { class: "text-input", "data-testid": `place-${m}-${role}`,
                      onchange: (e) => { ((setup.places[m] ||= {}))[role] = e.target.value; } },
          places.map((l) => h("option", { value: l.id, selected: ((setup.places[m] || {})[role] || spot.to) === l.id }, l.name))))))));
}

function humanizeRole(role) {
  const text = role.replace(/-/g, " ");
  return text[0].toUpperCase() + text.slice(1);
}

/** The setup the companion starts: the monsters, the heroes in seat order, and a guest board's mix. */
function setupBody(setup) {
  const heroes = setup.seats.map((seat, i) => ({ hero: seat.hero, player: seat.player.trim() || `Player ${i + 1}` }));
  const body = { monsters: setup.monsters, heroes };
  if (setup.board !== GAME) {
    body.board = setup.board;
    const guests = Object.fromEntries(Object.entries(setup.places).map(([m, places]) => [m, { places }]));
    if (Object.keys(guests).length) body.mix = { guests };
  }
  return body;
}

export function renderSetup(app) {
  const setup = wizardState(app, GAME, () => ({ ...fresh(), board: app.route.board || GAME }));
  const pack = boxPack(app, GAME);
  if (!pack) return openingPage();
  if (setup.board !== GAME && !hostOf(pack, setup)) setup.board = GAME; // a board this companion does not have
  const problem = setup.step === 1 ? monsterProblem(setup) : setup.step === 2 ? heroProblem(pack, setup) : null;
  const content = setup.step === 1 ? monsterStep(app, pack, setup) : setup.step === 2 ? heroStep(app, pack, setup) : startStep(app, pack, setup);
  return wizardPage(app, setup, { game: GAME, title: "New game of Horrified", content, problem, body: () => setupBody(setup) });
}
