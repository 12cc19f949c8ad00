// The new-game screen: who plays (2 to 4, clockwise, each at a side of the table), the tiles as
// the owner lays them out on the board (dealt to a legal layout, then swapped by tapping two
// squares until the screen matches the table), who starts and in which time of day, each player's
// 3/3 creature and starting suburb (chosen in turn from the starting player, the box's default
// preselected), and the readings (our default for each, changed here). The box checks it all again
// on start.

import { h } from "/js/dom.js";

const SIDES = ["S", "W", "N", "E"];
const NAMES = ["Przemo", "Syla", "Witek", "Ola"];

function onEdge(pack, key) {
  const [c, r] = key.split(",").map(Number);
  return c === 0 || r === 0 || c === pack.size.columns - 1 || r === pack.size.rows - 1;
}

function squares(pack) {
  const found = [];
  for (let r = 0; r < pack.size.rows; r += 1) for (let c = 0; c < pack.size.columns; c += 1) found.push(`${c},${r}`);
  return found;
}

function shuffled(list) {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

/** A legal layout dealt at random: the Centre off the edges, the suburbs on them, the rest anywhere. */
export function dealt(pack) {
  const edge = shuffled(squares(pack).filter((k) => onEdge(pack, k)));
  const inner = shuffled(squares(pack).filter((k) => !onEdge(pack, k)));
  const layout = {};
  const kind = (k) => pack.tiles.filter((t) => t.kind === k).map((t) => t.id);
  for (const centre of kind("centre")) layout[inner.pop()] = centre;
  for (const suburb of kind("suburb")) layout[edge.pop()] = suburb;
  const rest = [...edge, ...inner];
  for (const tile of shuffled(kind("district"))) layout[rest.pop()] = tile;
  return layout;
}

function problems(pack, layout) {
  const found = [];
  for (const [key, id] of Object.entries(layout)) {
    const tile = pack.tiles.find((t) => t.id === id);
    if (tile && tile.kind === "centre" && onEdge(pack, key)) found.push(`${tile.name} must be surrounded by districts, not on the edge.`);
    if (tile && tile.kind === "suburb" && !onEdge(pack, key)) found.push(`${tile.name} is a suburb: suburbs lie on the edges.`);
  }
  return found;
}

function fresh(pack) {
  return { players: NAMES.slice(0, 3), layout: dealt(pack), picked: null, starting: "p1", time: "day", readings: {},
           starters: {}, at: {} };
}

/** The seats in the order they choose: "starting with the starting player, each player takes one 3/3 creature". */
function fromStarting(setup) {
  const seats = setup.players.map((_, i) => `p${i + 1}`);
  const first = Math.max(0, seats.indexOf(setup.starting));
  return [...seats.slice(first), ...seats.slice(0, first)];
}

/** Each player's creature and suburb: their wish while nobody before them took it, else the first one
 * left (the box's own default). A suburb is shared only once every suburb has a pawn. */
function chosen(pack, setup) {
  const starters = pack.creatures.filter((c) => c.starter).map((c) => c.id);
  const suburbs = Object.values(setup.layout).filter((id) => (pack.tiles.find((t) => t.id === id) || {}).kind === "suburb");
  const found = { creatures: {}, at: {}, left: {} };
  for (const seat of fromStarting(setup)) {
    const creatures = starters.filter((c) => !Object.values(found.creatures).includes(c));
    const free = suburbs.filter((s) => !Object.values(found.at).includes(s));
    const places = free.length ? free : suburbs;
    found.left[seat] = { creatures, places };
    found.creatures[seat] = creatures.includes(setup.starters[seat]) ? setup.starters[seat] : creatures[0];
    found.at[seat] = places.includes(setup.at[seat]) ? setup.at[seat] : places[0];
  }
  return found;
}

function choicePart(app, pack, setup) {
  const picks = chosen(pack, setup);
  const named = (list, id) => (list.find((x) => x.id === id) || { name: id }).name;
  const choose = (field, seat) => (e) => { setup[field][seat] = e.target.value; app.render(); };
  return h("section", { class: "panel" }, h("h2", {}, "Starting creatures and suburbs"),
    h("p", { class: "subtle" }, "In turn from the starting player, each player takes a 3/3 creature and puts their pawn on a suburb."),
    fromStarting(setup).map((seat) => {
      const player = setup.players[Number(seat.slice(1)) - 1] || seat;
      return h("div", { class: "sz-setup-choice", "data-testid": "sz-start-choice", "data-seat": seat },
        h("strong", {}, player), " ",
        h("select", { class: "select", "data-testid": "sz-starter", "data-seat": seat, "aria-label": `${player}'s starting creature`,
                      onchange: choose("starters", seat) },
          picks.left[seat].creatures.map((c) => h("option", { value: c, selected: picks.creatures[seat] === c }, named(pack.creatures, c)))),
        " on ",
        h("select", { class: "select", "data-testid": "sz-suburb", "data-seat": seat, "aria-label": `${player}'s starting suburb`,
                      onchange: choose("at", seat) },
          picks.left[seat].places.map((t) => h("option", { value: t, selected: picks.at[seat] === t }, named(pack.tiles, t)))));
    }));
}

function playersPart(app, setup) {
  const count = (n) => { setup.players = NAMES.slice(0, n).map((name, i) => setup.players[i] ?? name); app.render(); };
  return h("section", { class: "panel" }, h("h2", {}, "Who plays (clockwise)"),
    h("div", { class: "presets" }, [2, 3, 4].map((n) => h("button", { class: "btn", type: "button", "data-testid": `sz-players-${n}`,
      "aria-pressed": setup.players.length === n ? "true" : "false", onclick: () => count(n) }, `${n} players`))),
    setup.players.map((name, i) => h("label", { class: "sz-setup-player" },
      `Seat ${i + 1} (side ${setup.players.length === 2 ? ["S", "N"][i] : SIDES[i]}) `,
      h("input", { class: "text-input", type: "text", value: name, "data-testid": "sz-player-name", "data-seat": `p${i + 1}`,
                   maxlength: 40, oninput: (e) => { setup.players[i] = e.target.value; } }))));
}

function layoutPart(app, pack, setup) {
  const tap = (key) => {
    if (setup.picked === null) setup.picked = key;
    else {
      [setup.layout[setup.picked], setup.layout[key]] = [setup.layout[key], setup.layout[setup.picked]];
      setup.picked = null;
    }
    app.render();
  };
  return h("section", { class: "panel" }, h("h2", {}, "The tiles as they lie on the table"),
    h("p", { class: "subtle" }, "Tap a square, then another, to swap their tiles until this matches your board (north at the top)."),
    h("button", { class: "btn", type: "button", "data-testid": "sz-deal", onclick: () => { setup.layout = dealt(pack); app.render(); } }, "Deal again"),
    h("div", { class: `sz-board sz-across-${pack.size.columns}`, "data-testid": "sz-setup-board" }, squares(pack).map((key) => {
      const tile = pack.tiles.find((t) => t.id === setup.layout[key]) || { name: "?", kind: "", time: "" };
      return h("button", { class: `sz-square sz-${tile.kind} sz-${tile.time}${setup.picked === key ? " sz-picked" : ""}`, type: "button",
                           "data-testid": "sz-setup-square", "data-square": key, "data-tile": setup.layout[key], onclick: () => tap(key) },
        h("span", { class: "sz-name" }, tile.name), h("span", { class: "sz-meta subtle" }, `${tile.kind} · ${tile.time}`));
    })),
    problems(pack, setup.layout).map((p) => h("p", { class: "hint", "data-testid": "sz-layout-problem" }, p)));
}

function startPart(app, pack, setup) {
  return h("section", { class: "panel" }, h("h2", {}, "Who starts"),
    h("label", { class: "field" }, "Starting player", h("select", { class: "select", "data-testid": "sz-starting", onchange: (e) => { setup.starting = e.target.value; app.render(); } },
      setup.players.map((name, i) => h("option", { value: `p${i + 1}`, selected: setup.starting === `p${i + 1}` }, name || `Seat ${i + 1}`)))),
    h("label", { class: "field" }, "Time of day", h("select", { class: "select", "data-testid": "sz-time-choice", onchange: (e) => { setup.time = e.target.value; } },
      ["day", "night"].map((t) => h("option", { value: t, selected: setup.time === t }, t)))));
}

function readingsPart(pack, setup) {
  return h("details", { class: "panel", "data-testid": "sz-readings" }, h("summary", {}, "Readings of the rules (ours unless you change them)"),
    pack.readings.map((r) => h("label", { class: "sz-reading" }, h("span", {}, r.question), " ",
      h("select", { class: "select", "data-reading": r.id, onchange: (e) => { setup.readings[r.id] = e.target.value; } },
        r.answers.map((a) => h("option", { value: a.value, selected: (setup.readings[r.id] || r.default) === a.value },
          `${a.words}${a.value === r.default ? " (ours)" : ""}`))))));
}

export function setupScreen(app) {
  const game = app.screenPack || "straszydla";
  const pack = app.packCaches && app.packCaches[game];
  if (!pack) {
    app.loadPack(game).then(() => { if (app.route.name === "setup") app.render(); }, (e) => app.showBanner("error", String(e.message || e)));
    return h("div", { class: "page", "data-testid": "screen-setup" }, h("p", {}, "Opening the box…"));
  }
  const setup = (app.straszydlaSetup ||= fresh(pack));
  const start = async () => {
    const names = setup.players.map((name, i) => name.trim() || `Player ${i + 1}`);
    const picks = chosen(pack, setup);
    const reply = await app.conn.request("new_game", { game, name: `Straszydła — ${names.join(", ")}`.slice(0, 80), setup: {
      players: names.map((name) => ({ name })), layout: setup.layout, starting: setup.starting, time: setup.time,
      starters: picks.creatures, at: picks.at, readings: setup.readings } });
    if (reply.ok) { app.straszydlaSetup = null; app.go(`#/game/${encodeURIComponent(reply.game_id)}`); }
    else app.showBanner("error", reply.error.message);
  };
  return h("div", { class: "page setup-page", "data-testid": "screen-setup" },
    h("header", { class: "page-head" }, h("button", { class: "btn", type: "button", "data-testid": "setup-back",
      onclick: () => { app.straszydlaSetup = null; app.go("#/"); } }, "◀ Games"), h("h1", {}, "New game of Straszydła"), app.connectionPill()),
    playersPart(app, setup), layoutPart(app, pack, setup), startPart(app, pack, setup), choicePart(app, pack, setup), readingsPart(pack, setup),
    h("footer", { class: "wizard-foot" }, h("button", { class: "btn btn-primary btn-huge", type: "button", "data-testid": "setup-start",
      disabled: problems(pack, setup.layout).length > 0, onclick: start }, "Start the game")));
}
