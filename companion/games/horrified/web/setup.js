// The new-game wizard of the original Horrified: 1. monsters (the rules' difficulty
// presets: first game, novice, standard, challenging), 2. heroes and their players in
// seat order (the solo rule shown, the Courier left out alone), 3. name and start.
// The setup's draws (each player's Perk card, the twelve items) are then asked on the
// game screen like any other question.

import { h } from "/js/dom.js";

const GAME = "horrified";
const PRESETS = [
  { id: "first", title: "First game", text: "The Creature and Dracula", monsters: ["creature", "dracula"] },
  { id: "novice", title: "Novice", text: "Any two monsters", count: 2 },
  { id: "standard", title: "Standard", text: "Any three monsters", count: 3 },
  { id: "challenging", title: "Challenging", text: "Any four monsters", count: 4 },
];

function fresh() {
  return { step: 1, monsters: [], seats: [], name: "", nameTouched: false, starting: false, preset: null };
}

function monsterName(pack, id) { return pack.monsters.find((m) => m.id === id)?.name || id; }
function heroName(pack, id) { return pack.heroes.find((x) => x.id === id)?.name || id; }
function placeName(pack, id) { return pack.board.locations.find((l) => l.id === id)?.name || id; }

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
  return [
    h("h2", { class: "wizard-title" }, "Which monsters haunt the village tonight?"),
    h("p", { class: "subtle" }, "The rules suggest how many make a game how hard:"),
    h("div", { class: "presets" }, PRESETS.map((preset) =>
      h("button", { class: "btn preset", type: "button", "data-testid": `preset-${preset.id}`,
                    "aria-pressed": setup.preset === preset.id ? "true" : "false", onclick: () => choose(preset) },
        h("strong", {}, preset.title), h("span", {}, preset.text)))),
    h("div", { class: "choice-grid" }, pack.monsters.map((monster) => {
      const on = setup.monsters.includes(monster.id);
      return h("button", { class: "card-toggle", type: "button", "aria-pressed": on ? "true" : "false",
                           "data-testid": `monster-${monster.id}`, onclick: () => toggle(monster.id) },
        h("span", { class: "check", "aria-hidden": "true" }, on ? "✓" : ""),
        h("span", { class: "card-title" }, monster.name),
        h("span", { class: "card-line" }, `Frenzy order ${monster.frenzy_order} · starts at ${placeName(pack, monster.start)}`),
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
    h("div", { class: "choice-grid" }, pack.heroes.map((hero) => {
      const on = setup.seats.some((s) => s.hero === hero.id);
      return h("button", { class: "card-toggle", type: "button", "aria-pressed": on ? "true" : "false",
                           "data-testid": `hero-${hero.id}`, onclick: () => toggle(hero.id) },
        h("span", { class: "check", "aria-hidden": "true" }, on ? "✓" : ""),
        h("span", { class: "card-title" }, hero.name),
        h("span", { class: "card-line" }, `${hero.actions} actions · starts at ${placeName(pack, hero.start)}`),
        h("span", { class: "card-line" }, hero.special || hero.ability || "No special action."));
    })),
    setup.seats.length ? h("section", { class: "seats", "data-testid": "seats" }, h("h3", {}, "Seats, clockwise"),
      h("ol", { class: "seat-list" }, setup.seats.map((seat, i) => seatRow(app, pack, setup, seat, i)))) : null,
    setup.seats.length === 1 ? h("p", { class: "hint", "data-testid": "solo-note" },
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
      h("dt", {}, "Terror starts at"), h("dd", {}, solo ? `${(pack.solo || {}).terror} (solo)` : "0")),
    h("p", { class: "subtle" }, "Next the companion asks for each player's Perk card and the twelve items drawn from the bag."),
  ];
}

async function start(app, setup) {
  if (setup.starting) return;
  setup.starting = true;
  app.render();
  const heroes = setup.seats.map((seat, i) => ({ hero: seat.hero, player: seat.player.trim() || `Player ${i + 1}` }));
  const reply = await app.conn.request("new_game", { name: setup.name.trim() || "New game", game: GAME,
                                                      setup: { monsters: setup.monsters, heroes } });
  setup.starting = false;
  if (!reply.ok) {
    app.showBanner("error", reply.error.message);
    app.render();
    return;
  }
  app.setup = null;
  app.go(`#/game/${encodeURIComponent(reply.game_id)}`);
}

function footer(app, setup, problem) {
  const next = () => { if (!problem) { setup.step += 1; app.render(); window.scrollTo(0, 0); } };
  return h("footer", { class: "wizard-foot" },
    problem ? h("p", { class: "hint", "data-testid": "setup-problem" }, problem) : h("span"),
    setup.step < 3
      ? h("button", { class: "btn btn-primary btn-huge", type: "button", "data-testid": "setup-next", disabled: Boolean(problem), onclick: next }, "Next ▶")
      : h("button", { class: "btn btn-primary btn-huge", type: "button", "data-testid": "setup-start", disabled: setup.starting,
                      onclick: () => start(app, setup) }, setup.starting ? "Starting…" : "Start the game"));
}

export function renderSetup(app) {
  if (app.setup && app.setup.game !== GAME) app.setup = null; // another game's wizard
  const setup = (app.setup ||= { ...fresh(), game: GAME });
  const pack = app.packCaches[GAME]; // this box's, whichever game was on screen before
  if (!pack) {
    app.loadPack(GAME).then(() => { if (app.route.name === "setup") app.render(); },
                        (e) => app.showBanner("error", String(e.message || e)));
    return h("div", { class: "page", "data-testid": "screen-setup" }, h("p", {}, "Opening the box…"));
  }
  const problem = setup.step === 1 ? monsterProblem(setup) : setup.step === 2 ? heroProblem(pack, setup) : null;
  const body = setup.step === 1 ? monsterStep(app, pack, setup) : setup.step === 2 ? heroStep(app, pack, setup) : startStep(app, pack, setup);
  const back = () => { if (setup.step === 1) { app.setup = null; app.go("#/"); } else { setup.step -= 1; app.render(); } };
  return h("div", { class: "page setup-page", "data-testid": "screen-setup", "data-step": setup.step, "data-game": GAME },
    h("header", { class: "page-head" },
      h("button", { class: "btn", type: "button", "data-testid": "setup-back", onclick: back }, setup.step === 1 ? "◀ Games" : "◀ Back"),
      h("h1", {}, "New game of Horrified"), app.connectionPill()),
    h("ol", { class: "steps", "aria-label": "Steps" }, ["Monsters", "Heroes", "Start"].map((label, i) =>
      h("li", { class: setup.step === i + 1 ? "step current" : setup.step > i + 1 ? "step done" : "step" }, `${i + 1}. ${label}`))),
    h("section", { class: "panel wizard" }, body),
    footer(app, setup, problem));
}
