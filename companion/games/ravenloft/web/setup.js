// The new-game wizard: 1. monsters (with the rulebook's difficulty advice),
// 2. heroes and their players in seat order, 3. name and start. The setup's
// draws (Perks, the twelve items, first player) are then asked on the game
// screen like every other prompt.

import { h } from "/js/dom.js";
import { symbolIcon } from "./icons.js";
import { GAME } from "./edition.js";
import { boxPack, guestBoxLinks, openingPage, wizardPage, wizardState } from "./family/wizard.js";

const PRESETS = [
  { id: "first", title: "First game", text: "Baba Lysaga and the Carrionette", monsters: ["baba-lysaga", "carrionette"] },
  { id: "experienced", title: "Experienced", text: "Strahd and a second monster of your choice", monsters: ["strahd"] },
  { id: "expert", title: "Experts", text: "All four monsters", monsters: ["carrionette", "baba-lysaga", "strahd", "gulthias-tree"] },
];

function fresh() {
  return { step: 1, monsters: [], seats: [], name: "", nameTouched: false, starting: false };
}

function defaultName(pack, setup) {
  const monsters = setup.monsters.map((id) => pack.monsters.find((m) => m.id === id)?.name || id);
  const players = setup.seats.map((seat, i) => seat.player.trim() || `Player ${i + 1}`);
  return `${monsters.join(" & ")} — ${players.join(", ")}`.slice(0, 80);
}

function monsterStep(app, pack, setup) {
  const rerender = () => app.render();
  const toggle = (id) => {
    setup.monsters = setup.monsters.includes(id) ? setup.monsters.filter((m) => m !== id) : [...setup.monsters, id];
    rerender();
  };
  const strahdHint = setup.monsters.length === 1 && setup.monsters[0] === "strahd"
    ? h("p", { class: "hint" }, "Now pick a second monster to face alongside Strahd.") : null;
  return [
    h("h2", { class: "wizard-title" }, "Which monsters haunt Barovia tonight?"),
    h("p", { class: "subtle" }, "Pick 1 to 4. The rulebook suggests:"),
    h("div", { class: "presets" }, PRESETS.map((preset) =>
      h("button", { class: "btn preset", type: "button", "data-testid": `preset-${preset.id}`,
                    onclick: () => { setup.monsters = [...preset.monsters]; rerender(); } },
        h("strong", {}, preset.title), h("span", {}, preset.text)))),
    strahdHint,
    h("div", { class: "choice-grid" }, pack.monsters.map((monster) => {
      const on = setup.monsters.includes(monster.id);
      return h("button", { class: "card-toggle", type: "button", "aria-pressed": on ? "true" : "false",
                           "data-testid": `monster-${monster.id}`, onclick: () => toggle(monster.id) },
        h("span", { class: "check", "aria-hidden": "true" }, on ? "✓" : ""),
        h("span", { class: "card-title" }, monster.name),
        h("span", { class: "card-line" }, `Complexity: ${monster.complexity} · Frenzy order ${monster.frenzy_order}`),
        h("span", { class: "card-line" }, `Power: ${monster.power}`),
        h("span", { class: "sym-list" }, monster.symbols.map((sym) =>
          h("span", { class: "sym-chip" }, symbolIcon(sym, pack.symbols, 26),
            `${sym} (${pack.symbols[sym]?.colour ?? ""})`))));
    })),
    guestBoxLinks(app, GAME),
  ];
}

function heroStep(app, pack, setup) {
  const rerender = () => app.render();
  const toggle = (id) => {
    if (setup.seats.some((seat) => seat.hero === id)) setup.seats = setup.seats.filter((seat) => seat.hero !== id);
    else setup.seats = [...setup.seats, { hero: id, player: "" }];
    rerender();
  };
  const move = (i, by) => {
    const j = i + by;
    if (j < 0 || j >= setup.seats.length) return;
    const seats = [...setup.seats];
    [seats[i], seats[j]] = [seats[j], seats[i]];
    setup.seats = seats;
    rerender();
  };
  const heroName = (id) => pack.heroes.find((x) => x.id === id)?.name || id;
  const place = (id) => pack.board.locations.find((l) => l.id === id)?.name || id;
  return [
    h("h2", { class: "wizard-title" }, "Who plays which hero?"),
    h("p", { class: "subtle" }, "Tap 1 to 5 heroes, then write each player's name. Put the seats in order clockwise around the table."),
    h("div", { class: "choice-grid" }, pack.heroes.map((hero) => {
      const on = setup.seats.some((seat) => seat.hero === hero.id);
      return h("button", { class: "card-toggle", type: "button", "aria-pressed": on ? "true" : "false",
                           "data-testid": `hero-${hero.id}`, onclick: () => toggle(hero.id) },
        h("span", { class: "check", "aria-hidden": "true" }, on ? "✓" : ""),
        h("span", { class: "card-title" }, h("span", { class: `hero-dot hero-${hero.id}`, "aria-hidden": "true" }), hero.name),
        h("span", { class: "card-line" }, `${hero.actions} actions · starts at ${place(hero.start)}`),
        h("span", { class: "card-line" }, `Dark Gift: ${hero.gift}`));
    })),
    setup.seats.length ? h("section", { class: "seats", "data-testid": "seats" },
      h("h3", {}, "Seats, clockwise"),
      h("ol", { class: "seat-list" }, setup.seats.map((seat, i) =>
        h("li", { class: "seat", "data-testid": "seat", "data-hero": seat.hero },
          h("span", { class: "seat-no" }, `${i + 1}`),
          h("span", { class: "seat-hero" }, h("span", { class: `hero-dot hero-${seat.hero}`, "aria-hidden": "true" }), heroName(seat.hero)),
          h("input", { class: "text-input", type: "text", value: seat.player, placeholder: `Player ${i + 1}`, maxlength: 30,
                       "aria-label": `Name of the player of the ${heroName(seat.hero)}`, "data-testid": `player-${seat.hero}`,
                       oninput: (e) => { seat.player = e.target.value; } }),
          h("button", { class: "btn btn-square", type: "button", "aria-label": "Earlier seat", disabled: i === 0,
                        "data-testid": "seat-up", onclick: () => move(i, -1) }, "↑"),
          h("button", { class: "btn btn-square", type: "button", "aria-label": "Later seat", disabled: i === setup.seats.length - 1,
                        "data-testid": "seat-down", onclick: () => move(i, 1) }, "↓"))))) : null,
    setup.seats.length === 1 ? h("p", { class: "hint", "data-testid": "solo-note" },
      "Playing alone: the Terror marker starts at 3 instead of 0 (solo rule).") : null,
  ];
}

function startStep(app, pack, setup) {
  if (!setup.nameTouched) setup.name = defaultName(pack, setup);
  const monsterNames = setup.monsters.map((id) => pack.monsters.find((m) => m.id === id)?.name || id);
  return [
    h("h2", { class: "wizard-title" }, "Ready to start"),
    h("label", { class: "field" }, h("span", {}, "Name of this game"),
      h("input", { class: "text-input", type: "text", value: setup.name, maxlength: 80, "data-testid": "game-name",
                   oninput: (e) => { setup.name = e.target.value; setup.nameTouched = true; } })),
    h("dl", { class: "summary" },
      h("dt", {}, "Monsters"), h("dd", {}, monsterNames.join(", ")),
      h("dt", {}, "Seats"), h("dd", {}, setup.seats.map((seat, i) =>
        `${i + 1}. ${seat.player.trim() || `Player ${i + 1}`} (${pack.heroes.find((x) => x.id === seat.hero)?.name})`).join(" · ")),
      h("dt", {}, "Terror starts at"), h("dd", {}, setup.seats.length === 1 ? "3 (solo)" : "0")),
    h("p", { class: "subtle" }, "Next the companion walks you through the setup: each player's Perk card, the twelve items from the Haversack and who goes first."),
  ];
}

/** The wizard's step holds Next while too few or too many are picked. */
function stepProblem(setup) {
  if (setup.step === 1) return setup.monsters.length < 1 ? "Pick at least one monster." : setup.monsters.length > 4 ? "At most four monsters." : null;
  if (setup.step === 2) return setup.seats.length < 1 ? "Pick at least one hero." : setup.seats.length > 5 ? "At most five heroes." : null;
  return null;
}

function setupBody(setup) {
  return { monsters: setup.monsters, heroes: setup.seats.map((seat, i) => ({ hero: seat.hero, player: seat.player.trim() || `Player ${i + 1}` })) };
}

export function renderSetup(app) {
  const setup = wizardState(app, GAME, fresh);
  const pack = boxPack(app, GAME);
  if (!pack) return openingPage();
  const content = setup.step === 1 ? monsterStep(app, pack, setup) : setup.step === 2 ? heroStep(app, pack, setup) : startStep(app, pack, setup);
  return wizardPage(app, setup, { game: GAME, title: "New game", content, problem: stepProblem(setup), body: () => setupBody(setup) });
}
