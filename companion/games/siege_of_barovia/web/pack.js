// Siege of Barovia's tablet module: the new-game screen (players, who plays the
// Dungeon Master, its level, the readings of the rules), the game screen (the
// village grid with every figure, barricade and destroyed house, the DM's last
// move drawn as a path and why the box chose it, the readings in play), and the
// end screen. The hero turn's buttons and the DM's whole turns come from the
// shell's action menu (view.actions); Fortify's moves are gathered into one
// form, since the rules move "any number of barricades" in one action. A person
// DM chooses on the grid: the creature, its square, then one of the few acts
// open after that move; Count Strahd's arrival is an edge square tapped.

import { h, keptDetails, packStylesheet, s } from "/js/dom.js";
import { promptPanel } from "/js/prompt.js";
import { effectsPanel, historyDrawer, loadingScreen } from "/js/gamescreen.js";
import { renderEditor, startData } from "./editor.js";

const GAME = "siege-of-barovia";

await packStylesheet(new URL("./pack.css", import.meta.url).href);
const CELL = 80;
const MARGIN = 26; // room for the grid's column and row numbers
const COLOURS = { zombie: "#009e73", ghoul: "#e69f00", strahd: "#cc79a7", hero: "#ffffff", militia: "#d0d0d0" };
const LETTERS = { zombie: "Z", ghoul: "G", strahd: "S", hero: "H", militia: "M" };
const PHASES = { hero: "Heroes", dm: "Dungeon Master", over: "Game over" };

// -- the new-game screen ----------------------------------------------------------------------------------
function setupState(app) {
  if (!app.siegeSetup) app.siegeSetup = { players: ["", "", ""], dm: "box", level: "normal", readings: {}, starting: false };
  return app.siegeSetup;
}

/** The readings the table changed from ours (the setup names only those). */
function changedReadings(pack, setup) {
  return Object.fromEntries(pack.readings.filter((r) => setup.readings[r.id] && setup.readings[r.id] !== r.default)
    .map((r) => [r.id, setup.readings[r.id]]));
}

async function start(app, pack) {
  const setup = setupState(app);
  if (setup.starting) return;
  setup.starting = true;
  const players = setup.players.map((name, i) => ({ name: name.trim() || `Player ${i + 1}` }));
  const reply = await app.conn.request("new_game", { game: GAME, name: "Siege of Barovia",
    setup: { players, dm: setup.dm, level: setup.level, seed: Math.floor(Math.random() * 1e9), readings: changedReadings(pack, setup) } });
  setup.starting = false;
  if (reply.ok) { app.siegeSetup = null; app.go(`#/game/${encodeURIComponent(reply.game_id)}`); }
  else app.showBanner("error", reply.error.message);
}

function choiceRow(app, label, key, values, words) {
  const setup = setupState(app);
  return h("div", { class: "panel" }, h("h2", {}, label), h("div", { class: "options" }, values.map((value) =>
    h("button", { class: `btn option${setup[key] === value ? " selected" : ""}`, type: "button", "aria-pressed": String(setup[key] === value),
                  "data-testid": `setup-${key}-${value}`, onclick: () => { setup[key] = value; app.render(); } }, words[value] || value))));
}

function playerRows(app) {
  const setup = setupState(app);
  const rows = setup.players.map((name, i) => h("input", { class: "text-input", type: "text", value: name, maxlength: "40",
    "data-testid": `setup-player-${i}`, "aria-label": `Player ${i + 1}'s name`, placeholder: `Player ${i + 1}`,
    oninput: (event) => { setup.players[i] = event.target.value; } }));
  const more = (delta) => () => { setup.players = delta > 0 ? [...setup.players, ""] : setup.players.slice(0, -1); app.render(); };
  return h("div", { class: "panel" }, h("h2", {}, `Heroes' players (${setup.players.length})`), rows,
    h("div", { class: "options" },
      h("button", { class: "btn", type: "button", "data-testid": "setup-fewer", disabled: setup.players.length <= 1, onclick: more(-1) }, "− One fewer"),
      h("button", { class: "btn", type: "button", "data-testid": "setup-more", disabled: setup.players.length >= 6, onclick: more(1) }, "+ One more")));
}

/** Each open case of the text, ours chosen until the table changes it (docs/siege-of-barovia.md, "Readings"). */
function readingsPart(app, pack) {
  const setup = setupState(app);
  return keptDetails({ class: "panel", "data-testid": "setup-readings" }, Boolean(setup.readingsOpen),
    (open) => { setup.readingsOpen = open; },
    `Readings of the rules (ours unless you change them; ${Object.keys(changedReadings(pack, setup)).length} changed)`,
    pack.readings.map((r) => h("div", { class: "siege-reading", "data-testid": "setup-reading", "data-reading": r.id },
      h("label", {}, h("strong", {}, r.question), " ",
        h("select", { class: "select", "data-testid": `setup-reading-${r.id}`, onchange: (e) => { setup.readings[r.id] = e.target.value; app.render(); } },
          r.choices.map((c) => h("option", { value: c.id, selected: (setup.readings[r.id] || r.default) === c.id },
            `${c.text}${c.id === r.default ? " (ours)" : ""}`)))),
      h("p", { class: "subtle" }, r.why))));
}

function setupScreen(app) {
  const setup = setupState(app);
  const pack = app.packCaches && app.packCaches[GAME];
  if (!pack) {
    app.loadPack(GAME).then(() => { if (app.route.name === "setup") app.render(); }, (e) => app.showBanner("error", String(e.message || e)));
    return h("div", { class: "page", "data-testid": "screen-setup" }, h("p", {}, "Opening the box…"));
  }
  return h("div", { class: "page", "data-testid": "screen-setup" },
    h("header", { class: "page-head" },
      h("button", { class: "btn", type: "button", onclick: () => app.go("#/") }, "◀ Games"), h("h1", {}, "Siege of Barovia")),
    playerRows(app),
    choiceRow(app, "Who plays the Dungeon Master?", "dm", ["box", "person"],
      { box: "The box", person: "A person, on their own phone" }),
    setup.dm === "box" ? choiceRow(app, "The box's level", "level", ["easy", "normal", "hard"], {}) : null,
    readingsPart(app, pack),
    h("button", { class: "btn btn-primary btn-huge", type: "button", "data-testid": "setup-start", disabled: setup.starting,
                  onclick: () => start(app, pack) }, "Start the siege"));
}

// -- the village grid ---------------------------------------------------------------------------------------
function cell(square) {
  const [c, r] = square.split(",").map(Number);
  return { x: c * CELL, y: r * CELL };
}

function middle(square) {
  const { x, y } = cell(square);
  return { x: x + CELL / 2, y: y + CELL / 2 };
}

function squares(map, state) {
  const off = new Set(map.off_board);
  const places = Object.fromEntries(map.places.map((p) => [p.square, p]));
  const found = [];
  for (let r = 0; r < map.rows; r += 1) {
    for (let c = 0; c < map.columns; c += 1) {
      const name = `${c},${r}`;
      if (off.has(name)) continue;
      const place = places[name];
      const gone = place && state.destroyed.includes(place.id);
      const threat = place && state.threatened.includes(place.id);
      found.push(s("rect", { x: c * CELL, y: r * CELL, width: CELL, height: CELL, "data-testid": "square", "data-square": name,
        "data-place": place ? place.id : null, "data-destroyed": gone ? "yes" : null,
        fill: gone ? "#3a1f1f" : place ? (threat ? "#5a2a1a" : "#1f3a4a") : "#222", stroke: "#555", "stroke-width": 1 }));
      if (place) found.push(s("text", { x: c * CELL + 4, y: r * CELL + 14, fill: "#ddd", "font-size": 11 },
        `${place.code} ${gone ? "(destroyed)" : ""}`), s("title", {}, place.name));
    }
  }
  found.push(s("rect", { ...cell(map.entrance), width: CELL, height: CELL, fill: "none", stroke: "#fff", "stroke-dasharray": "6 4",
    "stroke-width": 2, "data-testid": "entrance" }));
  return found;
}

function barricade([a, b]) {
  const pa = middle(a), pb = middle(b);
  const mx = (pa.x + pb.x) / 2, my = (pa.y + pb.y) / 2;
  const across = pa.x === pb.x;  // one above the other: the line between them runs across
  const half = CELL / 2 - 6;
  return s("line", { x1: across ? mx - half : mx, y1: across ? my : my - half, x2: across ? mx + half : mx, y2: across ? my : my + half,
    stroke: "#f0e442", "stroke-width": 8, "stroke-linecap": "round", "data-testid": "barricade", "data-line": `${a}|${b}` });
}

function figures(state) {
  const bySquare = {};
  for (const figure of Object.values(state.figures)) {
    if (figure.square) (bySquare[figure.square] = bySquare[figure.square] || []).push(figure);
  }
  const drawn = [];
  for (const [square, here] of Object.entries(bySquare)) {
    const { x, y } = cell(square);
    here.forEach((figure, i) => {
      const cx = x + 16 + (i % 3) * 24, cy = y + 30 + Math.floor(i / 3) * 22;
      const mark = token(figure);
      drawn.push(s("g", { "data-testid": "figure", "data-figure": figure.id, "data-kind": figure.kind, "data-square": square,
                          "data-token": mark },
        s("circle", { cx, cy, r: 11, fill: COLOURS[figure.kind] || "#888", stroke: "#000" }),
        s("text", { x: cx, y: cy + 4, "text-anchor": "middle", "font-size": mark.length > 2 ? 8 : 10, "font-weight": 700, fill: "#000" }, mark),
        s("title", {}, `${figure.name}${figure.kind === "hero" || figure.kind === "militia" || figure.kind === "strahd" ? `, ${figure.hp} hp` : ""}`)));
    });
  }
  return drawn;
}

/** A figure's token as the table numbers them: Z2 is Zombie 2, H1 Player 1's hero (the words say
 * the same numbers); Count Strahd is the only one of his kind. */
function token(figure) {
  const number = /(\d+)$/.exec(figure.id);
  return `${LETTERS[figure.kind] || "?"}${number ? number[1] : ""}`;
}

/** Column numbers along the top and row numbers down the left, counted from 1 from the north-west
 * corner, as every sentence names a square ("the square in column 4, row 5"). */
function gridLabels(map) {
  const labels = [];
  for (let c = 0; c < map.columns; c += 1) {
    labels.push(s("text", { x: c * CELL + CELL / 2, y: -8, "text-anchor": "middle", "font-size": 14, fill: "#bbb",
      "data-testid": "grid-column", "data-column": c + 1 }, String(c + 1)));
  }
  for (let r = 0; r < map.rows; r += 1) {
    labels.push(s("text", { x: -MARGIN / 2, y: r * CELL + CELL / 2 + 5, "text-anchor": "middle", "font-size": 14, fill: "#bbb",
      "data-testid": "grid-row", "data-row": r + 1 }, String(r + 1)));
  }
  return labels;
}

function lastMove(state) {
  const did = state.last_dm;
  if (!did || did.path.length < 2) return null;
  const points = did.path.map(middle).map((p) => `${p.x},${p.y}`).join(" ");
  return s("polyline", { points, fill: "none", stroke: "#d55e00", "stroke-width": 5, "stroke-dasharray": "10 6",
    "marker-end": "url(#siege-arrow)", "data-testid": "dm-path", "data-path": did.path.join(" ") });
}

/** Squares to tap on top of the grid (``picks``: square -> {kind, label}, ``chosen``: the square picked):
 * the Dungeon Master chooses on the village itself, not in a list that grows with the board. */
function pickLayer(picks, chosen, onPick) {
  return Object.entries(picks).map(([square, pick]) => {
    const { x, y } = cell(square);
    const go = () => onPick(square);
    return s("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 8, class: `siege-pick siege-pick-${pick.kind}${square === chosen ? " chosen" : ""}`,
      "data-testid": "grid-pick", "data-square": square, "data-pick": pick.kind, role: "button", tabindex: "0", "aria-label": pick.label,
      "aria-pressed": square === chosen ? "true" : "false",
      onclick: go, onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } } });
  });
}

function village(app, picking = null) {
  const { map } = app.pack;
  const state = app.view.state;
  const width = map.columns * CELL, height = map.rows * CELL;
  return h("section", { class: `panel${picking ? " siege-picking" : ""}`, "data-testid": picking ? "siege-pick-board" : "siege-board" },
    s("svg", { viewBox: `${-MARGIN} ${-MARGIN} ${width + MARGIN} ${height + MARGIN}`, width: "100%", class: "siege-grid",
               role: picking ? "group" : "img",
               "aria-label": picking ? "The village: tap a square (columns numbered along the top, rows down the left)"
                 : "The village of Barovia: columns numbered along the top, rows down the left" },
      gridLabels(map),
      s("defs", {}, s("marker", { id: "siege-arrow", viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto" },
        s("path", { d: "M0,0 L10,5 L0,10 z", fill: "#d55e00" }))),
      squares(map, state), state.barricades.map(barricade), figures(state), picking ? null : lastMove(state),
      picking ? pickLayer(picking.picks, picking.chosen, picking.onPick) : null));
}

// -- the Dungeon Master's turn, chosen on the grid -------------------------------------------------------------
/** What the DM has tapped so far (kept in app.ui: a new view starts the choice again). */
function dmChoice(app) {
  return (app.ui.siegeDm ||= { figure: null, to: null, noMove: false, square: null });
}

/** The act of a whole turn, in the menu's words: what follows the move ("..., then Zombie 3 attacks Ana"). */
function actWords(entry) {
  const label = entry.label || "";
  const at = label.indexOf(", then ");
  const act = entry.move ? (at >= 0 ? label.slice(at + 7) : label) : label;
  return act.charAt(0).toUpperCase() + act.slice(1);
}

function dmPicks(app, turns, choice) {
  const figures = app.view.state.figures;
  const picks = {};
  if (!choice.figure && !choice.noMove) {
    for (const turn of turns) {
      if (!turn.move) continue;
      const at = figures[turn.move.figure].square;
      const here = (picks[at] ||= { kind: "from", label: "", figures: [] });
      if (!here.figures.includes(turn.move.figure)) here.figures.push(turn.move.figure);
    }
    for (const [square, pick] of Object.entries(picks)) {
      pick.label = `Move from ${squareWords(app, square)}: ${pick.figures.map((id) => figures[id].name).join(", ")}`;
    }
  } else if (choice.figure && !choice.to) {
    for (const turn of turns) {
      if (turn.move && turn.move.figure === choice.figure) {
        picks[turn.move.to] = { kind: "to", label: `${figures[choice.figure].name} to ${squareWords(app, turn.move.to)}` };
      }
    }
  }
  return picks;
}

/** The kinds of creature at a tapped square that may move: one button per kind when there are several. */
function whichFigure(app, turns, choice) {
  const figures = app.view.state.figures;
  if (!choice.square || choice.figure) return null;
  const ids = [...new Set(turns.filter((t) => t.move && figures[t.move.figure].square === choice.square).map((t) => t.move.figure))];
  const byKind = {};
  for (const id of ids) byKind[figures[id].kind] ||= id;
  return h("div", { class: "options", "data-testid": "dm-which" }, Object.values(byKind).map((id) =>
    h("button", { class: "btn option", type: "button", "data-testid": "dm-figure", "data-figure": id,
                  onclick: () => { choice.figure = id; app.refreshPrompt(); } }, `Move ${figures[id].name}`)));
}

function pickSquare(app, turns, choice, square) {
  const figures = app.view.state.figures;
  if (!choice.figure && !choice.noMove) {
    const ids = [...new Set(turns.filter((t) => t.move && figures[t.move.figure].square === square).map((t) => t.move.figure))];
    const kinds = new Set(ids.map((id) => figures[id].kind));
    choice.square = square;
    choice.figure = kinds.size === 1 ? ids[0] : null;  // alike figures on one square: any of them is the same move
  } else if (choice.figure && !choice.to) {
    choice.to = square;
  }
  app.refreshPrompt();
}

function dmStepWords(app, choice) {
  const figures = app.view.state.figures;
  if (choice.noMove) return "No move this turn. Now choose what to do:";
  if (!choice.figure) return choice.square ? `Which one at ${squareWords(app, choice.square)}?` : "Tap the square of the zombie, ghoul or Count Strahd to move (marked), or act without moving.";
  if (!choice.to) return `${figures[choice.figure].name}: tap the square to move to (marked).`;
  return `${figures[choice.figure].name} to ${squareWords(app, choice.to)}. Now choose what to do:`;
}

/** "Move one zombie, ghoul or Count Strahd one square, then attack, summon or destroy a safe house": the
 * creature and its square tapped on the grid, then the acts open after that move as a few buttons. */
function dmTurnBody(app) {
  const turns = (app.view.actions || []).filter((a) => a.action === "dm");
  const choice = dmChoice(app);
  const ready = choice.noMove || (choice.figure && choice.to);
  const acts = ready ? turns.filter((t) => (choice.noMove ? !t.move : t.move && t.move.figure === choice.figure && t.move.to === choice.to)) : [];
  const picking = { picks: dmPicks(app, turns, choice), chosen: choice.to || choice.square, onPick: (sq) => pickSquare(app, turns, choice, sq) };
  const restart = () => { app.ui.siegeDm = null; app.refreshPrompt(); };
  return [h("p", { class: "prompt-hint", "data-testid": "dm-step" }, dmStepWords(app, choice)),
    ready ? null : village(app, picking),
    whichFigure(app, turns, choice),
    ready ? h("div", { class: "options", "data-testid": "dm-acts" }, acts.map((turn) => {
      const { label, ...answer } = turn;
      return h("button", { class: "btn action", type: "button", "data-testid": "dm-act", "data-act": (turn.act || {}).kind || "none",
                           onclick: () => app.answer(answer) }, h("span", { class: "opt-main" }, actWords(turn)));
    })) : null,
    h("div", { class: "finishers" },
      !choice.figure && !choice.noMove && turns.some((t) => !t.move)
        ? h("button", { class: "btn", type: "button", "data-testid": "dm-no-move", onclick: () => { choice.noMove = true; app.refreshPrompt(); } }, "Act without moving")
        : null,
      choice.figure || choice.noMove || choice.square
        ? h("button", { class: "btn", type: "button", "data-testid": "dm-restart", onclick: restart }, "◀ Start the turn again") : null)];
}

/** "Count Strahd arrives: on which edge square?": the edge squares marked on the grid; a tap picks, a button sends. */
function arrivalBody(app, prompt) {
  const chosen = app.ui.siegeArrival || null;
  const picks = Object.fromEntries(prompt.options.map((o) => [o.id, { kind: "edge", label: `Count Strahd arrives at ${o.text}` }]));
  const option = prompt.options.find((o) => o.id === chosen);
  return [h("p", { class: "prompt-hint" }, "Tap the edge square where he arrives (marked), then confirm."),
    village(app, { picks, chosen, onPick: (sq) => { app.ui.siegeArrival = sq; app.refreshPrompt(); } }),
    h("button", { class: "btn btn-primary btn-huge", type: "button", "data-testid": "arrival-send", disabled: !option,
                  onclick: () => app.answer(option.id) }, option ? `Count Strahd arrives at ${option.text}` : "Tap a square first")];
}

function promptBody(app, prompt) {
  return prompt.key === "strahd-arrives" && prompt.kind === "choice" ? arrivalBody(app, prompt) : null;
}

/** Whether the question is answered on a grid in the prompt itself (the board beside it is then left out). */
function picksOnGrid(prompt) {
  return Boolean(prompt) && ((prompt.key === "dm-turn" && prompt.kind === "action") || (prompt.key === "strahd-arrives" && prompt.kind === "choice"));
}

// -- the side panel -----------------------------------------------------------------------------------------
function books(app) {
  const state = app.view.state;
  const heroes = state.players.map((player) => {
    const figure = player.figure ? state.figures[player.figure] : null;
    return h("li", { "data-testid": "siege-player", "data-player": player.id, "data-active": player.id === state.active ? "yes" : "no" },
      `${player.id === state.active && state.phase === "hero" ? "▶ " : ""}${player.name}: `,
      figure ? `${figure.name}, ${figure.hp} of ${figure.max_hp} hp${figure.upgraded ? ", upgraded" : ""}` : "no figure (may raise a militia)");
  });
  const strahd = state.figures.strahd;
  const houses = app.pack.safe_houses.map((id) => app.pack.map.places.find((p) => p.id === id))
    .map((p) => `${p.name}${state.destroyed.includes(p.id) ? " ✗" : ""}`).join(" · ");
  const why = state.last_dm && state.last_dm.why;
  return h("section", { class: "panel", "data-testid": "siege-books" },
    h("h2", {}, `Round ${state.turn} · ${PHASES[state.phase] || state.phase}`),
    h("ul", {}, heroes),
    h("p", {}, `Count Strahd: ${strahd.square ? `on the board, ${strahd.hp} hp` : "off the board"}`),
    h("p", { "data-testid": "siege-houses" }, `Safe houses: ${houses}`),
    why ? h("p", { class: "subtle", "data-testid": "dm-why" }, h("strong", {}, "Why: "), why) : null);
}

/** The readings this game plays, each with the choice in play (ours marked): chosen before the game, fixed during it. */
function readingsInPlay(app) {
  const chosen = app.view.state.readings || {};
  const changed = app.pack.readings.filter((r) => chosen[r.id] !== r.default).length;
  return keptDetails({ class: "panel", "data-testid": "siege-readings" }, Boolean(app.siegeReadingsOpen),
    (open) => { app.siegeReadingsOpen = open; },
    `Readings of the rules in this game (${changed ? `${changed} not ours` : "all ours"})`,
    h("ul", {}, app.pack.readings.map((r) => {
      const choice = r.choices.find((c) => c.id === chosen[r.id]) || { id: chosen[r.id], text: String(chosen[r.id]) };
      return h("li", { "data-testid": "siege-reading", "data-reading": r.id, "data-choice": choice.id },
        h("strong", {}, r.question), " ", `${choice.text}${choice.id === r.default ? " (ours)" : ""}`);
    })),
    h("p", { class: "subtle" }, "Readings are chosen on the new-game screen; a game keeps its readings to the end."));
}

// -- the hero turn: the menu's buttons, with Fortify's moves gathered into one form ----------------------------
const FINISHERS = ["end"];
const SIDES = { N: "north", E: "east", S: "south", W: "west" };
const lineKey = (squares) => squares.join("|");

/** A square as the box's sentences say it: a keyed place by its name, any other by column and row from 1. */
function squareWords(app, square) {
  const place = app.pack.map.places.find((p) => p.square === square);
  if (place) return /^[A-Z][\w-]*'s /.test(place.name) ? place.name : `the ${place.name}`;
  const [c, r] = square.split(",").map(Number);
  return `the square in column ${c + 1}, row ${r + 1}`;
}

function actionButton(app, entry) {
  const { label, ...answer } = entry;
  return h("button", { class: `btn action${FINISHERS.includes(answer.action) ? " btn-finish" : ""}`, type: "button",
                       "data-testid": "action", "data-action": answer.action, onclick: () => app.answer(answer) },
    h("span", { class: "opt-main" }, label));
}

/** "Moves any number of barricades to lines in the space that hero is in": for each free side of the hero's
 * square, the barricade to bring there (each barricade once), then one Fortify with every move chosen. */
function fortifyMoves(app, moves) {
  const chosen = (app.ui.siegeMoves ||= {});  // side -> line key
  const sides = [...new Set(moves.map((m) => m.move[0].to))];
  const lines = {};
  for (const m of moves) lines[lineKey(m.move[0].from)] = m.move[0].from;
  const taken = new Set(Object.values(chosen));
  const picks = Object.entries(chosen).map(([to, key]) => ({ from: lines[key], to }));
  const rows = sides.map((side) => h("div", { class: "siege-fortify-side", "data-testid": "fortify-side", "data-side": side },
    h("span", {}, `The ${SIDES[side]} side: `),
    Object.entries(lines).map(([key, from]) => {
      const on = chosen[side] === key;
      return h("button", { class: `btn option${on ? " selected" : ""}`, type: "button", "aria-pressed": String(on),
        "data-testid": "fortify-pick", "data-side": side, "data-line": key, disabled: !on && taken.has(key),
        onclick: () => { if (on) delete chosen[side]; else chosen[side] = key; app.render(); } },
        `the barricade between ${squareWords(app, from[0])} and ${squareWords(app, from[1])}`);
    })));
  return keptDetails({ class: "panel siege-fortify", "data-testid": "fortify-moves" },
    picks.length > 0 || Boolean(app.ui.siegeFortifyOpen), (open) => { app.ui.siegeFortifyOpen = open; },
    "Fortify: move barricades to this square's lines (any number, one action)", rows,
    h("button", { class: "btn btn-primary", type: "button", "data-testid": "fortify-send", disabled: !picks.length,
                  onclick: () => app.answer({ action: "fortify", move: picks }) },
      picks.length ? `Move ${picks.length} barricade${picks.length > 1 ? "s" : ""}` : "Choose a barricade for a side first"));
}

function actionBody(app, prompt) {
  if (prompt.key === "dm-turn") return dmTurnBody(app);
  if (prompt.key !== "hero-turn") return null;
  const menu = app.view.actions || [];
  const moves = menu.filter((a) => a.action === "fortify" && a.move);
  if (!moves.length) return null;
  const rest = menu.filter((a) => !moves.includes(a));
  return [h("div", { class: "options" }, rest.filter((a) => !FINISHERS.includes(a.action)).map((a) => actionButton(app, a))),
    fortifyMoves(app, moves),
    h("div", { class: "finishers" }, rest.filter((a) => FINISHERS.includes(a.action)).map((a) => actionButton(app, a)))];
}

function outcomeOverlay(app) {
  const { view } = app;
  const won = view.outcome === "won";
  return h("div", { class: `outcome ${won ? "outcome-won" : "outcome-lost"}`, "data-testid": "outcome", "data-outcome": view.outcome, role: "dialog",
                    "aria-modal": "true", "aria-labelledby": "outcome-title" },
    h("div", { class: "outcome-box" },
      h("h2", { class: "outcome-title", id: "outcome-title", "data-testid": "outcome-title" }, won ? "The plague is stopped!" : "Barovia has fallen"),
      h("p", { class: "outcome-text" }, won ? "A hero sanctified the Church: the heroes win."
        : "Every safe house is destroyed: the Dungeon Master wins."),
      h("div", { class: "outcome-buttons" },
        h("button", { class: "btn btn-huge", type: "button", "data-testid": "outcome-board", onclick: () => { app.outcomeHidden = true; app.render(); } }, "See the board"),
        view.can_undo ? h("button", { class: "btn btn-huge", type: "button", "data-testid": "outcome-undo", onclick: () => app.send("undo", { count: 1 }) }, "↶ Undo the last step") : null,
        h("button", { class: "btn btn-primary btn-huge", type: "button", "data-testid": "outcome-games", onclick: () => app.go("#/") }, "Back to the games"))));
}

function gameScreen(app) {
  const { view } = app;
  if (!view || !app.pack || !app.pack.map) return loadingScreen(app);
  return h("div", { class: "game", "data-testid": "screen-game", "data-game-id": view.game_id, "data-version": view.version },
    h("header", { class: "topbar" }, h("button", { class: "btn btn-bar", type: "button", onclick: () => app.go("#/") }, "◀ Games"),
      h("button", { class: "btn btn-bar", type: "button", "data-testid": "history-open",
                    onclick: () => { app.historyOpen = true; app.render(); } }, "↶ History"), app.connectionPill()),
    h("div", { class: "game-body" }, h("div", { class: "col-side" }, promptPanel(app), books(app), readingsInPlay(app), effectsPanel(app)),
      picksOnGrid(view.prompt) ? null : h("div", { class: "col-board" }, village(app))),
    app.historyOpen ? historyDrawer(app) : null,
    view.outcome && !app.outcomeHidden ? outcomeOverlay(app) : null);
}

export default {
  setupScreen,
  gameScreen,
  actionBody,
  promptBody,
  dataPages: ["map"],
  dataScreen: (app) => renderEditor(app),
  startData,
  phaseWord: (app) => PHASES[app.view.state.phase] || app.view.state.phase,
};
