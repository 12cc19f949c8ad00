// The grid editor: the owner draws their village map over a photo of it (the
// grid's size and where it lies on the photo, each keyed place's square, the
// heroes' entrance, the edge squares where Count Strahd may arrive, squares
// that are not part of the board, the starting barricades on the lines
// between squares). Every edit is checked live by the
// companion (data_check) and the problems are listed; Save keeps only what
// differs from the shipped map (data_save), as every pack's owner data does.

import { h, s } from "/js/dom.js";
import { cameraPhoto, sendPhoto } from "/js/photos.js";

const GAME = "siege-of-barovia";
const FORMAT = "table-companion.owner-data";
const CELL = 60;
const SETTABLE = ["grid", "frame", "entrance", "edge", "off_board", "barricades"];

const clone = (value) => JSON.parse(JSON.stringify(value));
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const emptyDoc = () => ({ format: FORMAT, version: 1, game: GAME, changes: {}, confirmed: [] });
const lineKey = (a, b) => (a <= b ? `${a}|${b}` : `${b}|${a}`);

/** Entering the editor: the saved document, the map it gives, the shipped map to compare with. */
export async function startData(app) {
  if (!app.conn.connected) return;
  const reply = await app.conn.request("data_get", { game: GAME });
  const empty = await app.conn.request("data_check", { game: GAME, data: emptyDoc() });
  if (!reply.ok || !empty.ok) {
    app.siegeData = { loaded: false, error: (reply.error || empty.error).message };
  } else {
    app.siegeData = { loaded: true, doc: reply.data, map: clone(reply.files["map.json"]), shipped: empty.files["map.json"],
      photo: Boolean(reply.photo), photoVersion: Date.now(), camera: Boolean(reply.camera), problems: reply.problems || [],
      pick: "church", mode: "place", dirty: false };
  }
  app.render();
}

/** The owner's document for the map being drawn: only the parts that differ from the shipped one. */
function documentOf(data) {
  const set = {};
  for (const key of SETTABLE) if (!same(data.map[key], data.shipped[key])) set[key] = data.map[key];
  const places = {};
  for (const place of data.map.places) {
    const shipped = data.shipped.places.find((p) => p.id === place.id);
    if (!shipped || shipped.square !== place.square) places[place.id] = { square: place.square };
  }
  const map = {};
  if (Object.keys(set).length) map.set = set;
  if (Object.keys(places).length) map.places = places;
  return { ...emptyDoc(), confirmed: data.doc.confirmed || [], changes: Object.keys(map).length ? { map } : {} };
}

async function check(app) {
  const data = app.siegeData;
  const sent = JSON.stringify(data.map);
  const reply = await app.conn.request("data_check", { game: GAME, data: documentOf(data) });
  if (app.siegeData !== data || JSON.stringify(data.map) !== sent) return;
  data.problems = reply.ok ? reply.problems || [] : reply.error.problems || [reply.error.message];
  data.checked = true;
  app.render();
}

function edit(app, change) {
  const data = app.siegeData;
  change(data.map);
  data.dirty = true;
  data.checked = false;
  data.saved = false;
  app.render();
  check(app);
}

async function save(app) {
  const data = app.siegeData;
  const reply = await app.conn.request("data_save", { game: GAME, data: documentOf(data) });
  if (!reply.ok) {
    data.problems = reply.error.problems || [reply.error.message];
    app.showBanner("error", `Not saved: ${reply.error.message}`);
  } else {
    data.doc = documentOf(data);
    data.dirty = false;
    data.saved = true;
    app.showBanner("info", "Saved: new games play on this map.");
  }
  app.render();
}

// -- drawing ------------------------------------------------------------------------------------------------
/** The squares on the grid's border that are on the board: what ``edge: null`` means. */
function borderSquares(map) {
  const { columns, rows } = map.grid;
  const off = new Set(map.off_board.squares || []);
  const found = [];
  for (let r = 0; r < rows; r += 1) {
    for (let c = 0; c < columns; c += 1) {
      const name = `${c},${r}`;
      if ((c === 0 || r === 0 || c === columns - 1 || r === rows - 1) && !off.has(name)) found.push(name);
    }
  }
  return found;
}

function edgeSquares(map) {
  return map.edge.squares === null ? borderSquares(map) : map.edge.squares;
}

function toggled(list, square) {
  return list.includes(square) ? list.filter((x) => x !== square) : [...list, square];
}

const SQUARE_TAPS = {
  place: (data, map, square) => {
    if (data.pick === "entrance") map.entrance.square = square;
    else map.places.find((p) => p.id === data.pick).square = square;
  },
  edge: (data, map, square) => { map.edge.squares = toggled(edgeSquares(map), square); },
  off: (data, map, square) => {
    map.off_board.squares = toggled(map.off_board.squares || [], square);
    if (map.edge.squares !== null) map.edge.squares = map.edge.squares.filter((x) => !map.off_board.squares.includes(x));
  },
};

function tapSquare(app, square) {
  const data = app.siegeData;
  const change = SQUARE_TAPS[data.mode];  // in barricade mode only the lines answer a tap
  if (change) edit(app, (map) => change(data, map, square));
}

function toggleLine(app, a, b) {
  edit(app, (map) => {
    const lines = map.barricades.lines;
    const at = lines.findIndex(([x, y]) => lineKey(x, y) === lineKey(a, b));
    if (at >= 0) lines.splice(at, 1);
    else lines.push([a, b]);
  });
}

function gridSvg(app) {
  const data = app.siegeData;
  const { columns, rows } = data.map.grid;
  const places = Object.fromEntries(data.map.places.map((p) => [p.square, p]));
  const barred = new Set(data.map.barricades.lines.map(([a, b]) => lineKey(a, b)));
  const edge = new Set(edgeSquares(data.map)), off = new Set(data.map.off_board.squares || []);
  const cells = [], lines = [];
  for (let r = 0; r < rows; r += 1) {
    for (let c = 0; c < columns; c += 1) {
      const name = `${c},${r}`;
      const place = places[name];
      cells.push(squareRect(app, name, c, r, { place, edge: edge.has(name), off: off.has(name) }));
      if (place) cells.push(s("text", { x: c * CELL + 4, y: r * CELL + 16, fill: "#fff", "font-size": 12 }, place.code));
      if (edge.has(name)) cells.push(s("text", { x: c * CELL + CELL - 16, y: r * CELL + CELL - 6, fill: "#e69f00", "font-size": 14 }, "⇲"));
      for (const [dc, dr] of [[1, 0], [0, 1]]) {
        if (c + dc >= columns || r + dr >= rows) continue;
        const other = `${c + dc},${r + dr}`;
        const x = (c + 1) * CELL, y = (r + 1) * CELL;
        const box = dc ? { x: x - 5, y: r * CELL + 6, width: 10, height: CELL - 12 } : { x: c * CELL + 6, y: y - 5, width: CELL - 12, height: 10 };
        const on = barred.has(lineKey(name, other));
        lines.push(s("rect", { ...box, rx: 4, fill: on ? "#f0e442" : "#0000", stroke: data.mode === "barricades" && !on ? "#f0e44255" : "none",
          "data-testid": "ed-line", "data-line": lineKey(name, other), "data-barricade": on ? "yes" : "no",
          onclick: () => data.mode === "barricades" && toggleLine(app, name, other) }));
      }
    }
  }
  const photo = data.photo ? photoUnder(data) : null;
  return s("svg", { viewBox: `0 0 ${columns * CELL} ${rows * CELL}`, width: "100%", "data-testid": "ed-grid",
    "data-columns": columns, "data-rows": rows, class: data.mode === "barricades" ? "mode-lines" : "mode-squares" },
    photo, cells, data.mode === "barricades" ? lines : lines.filter((l) => l.dataset.barricade === "yes"));
}

function squareRect(app, name, c, r, { place, edge, off }) {
  const entrance = name === app.siegeData.map.entrance.square;
  return s("rect", { x: c * CELL, y: r * CELL, width: CELL, height: CELL, fill: off ? "#000d" : place ? "#1f3a4acc" : "#2228",
    stroke: entrance ? "#fff" : edge ? "#e69f00" : "#777", "stroke-width": entrance ? 3 : edge ? 2 : 1,
    "stroke-dasharray": edge && !entrance ? "6 4" : null, "data-testid": "ed-square", "data-square": name,
    "data-place": place ? place.id : null, "data-edge": edge ? "yes" : "no", "data-off": off ? "yes" : "no",
    onclick: () => tapSquare(app, name) });
}

/** The owner's photo placed so that the grid's outer corners lie where ``frame`` says (fractions of the photo). */
function photoUnder(data) {
  const { columns, rows } = data.map.grid;
  const { left, top, right, bottom } = data.map.frame;
  const width = (columns * CELL) / (right - left), height = (rows * CELL) / (bottom - top);
  return s("image", { href: `/api/data/${GAME}/photo?v=${data.photoVersion}`, x: -left * width, y: -top * height, width, height,
    preserveAspectRatio: "none", opacity: 0.6, "data-testid": "ed-photo" });
}

const FRAME_STEP = 0.01;

/** Nudge one side of the grid over the photo (a side never crosses the other one). */
function nudge(app, side, delta) {
  edit(app, (map) => {
    const frame = map.frame;
    const low = side === "left" || side === "top";
    const other = frame[{ left: "right", right: "left", top: "bottom", bottom: "top" }[side]];
    const moved = Math.round((frame[side] + delta) * 1000) / 1000;
    frame[side] = low ? Math.max(0, Math.min(other - 0.1, moved)) : Math.min(1, Math.max(other + 0.1, moved));
  });
}

function framePanel(app) {
  const data = app.siegeData;
  const stepper = (side, words) => h("div", { class: "stepper" },
    h("button", { class: "btn", type: "button", "data-testid": `frame-${side}-less`, onclick: () => nudge(app, side, -FRAME_STEP) }, "−"),
    h("span", { "data-testid": `frame-${side}` }, ` ${words} ${Math.round(data.map.frame[side] * 100)} % `),
    h("button", { class: "btn", type: "button", "data-testid": `frame-${side}-more`, onclick: () => nudge(app, side, FRAME_STEP) }, "+"));
  const input = h("input", { type: "file", accept: "image/*", capture: "environment", class: "visually-hidden", id: "siege-photo-file",
    "data-testid": "photo-file", onchange: async (e) => { if (await sendPhoto(app, GAME, e.target)) shown(app); } });
  return h("section", { class: "panel", "data-testid": "photo-panel" },
    h("h2", {}, "Your map's photo"),
    h("p", { class: "subtle" }, data.photo ? "Move each side of the grid until it sits on the squares of your photo."
      : "Take a photo of your map from straight above: the grid is drawn over it."),
    h("div", { class: "options" },
      h("label", { class: "btn", for: "siege-photo-file", "data-testid": "photo-upload" }, data.photo ? "Take a new photo" : "Take or choose a photo"),
      input,
      data.camera ? h("button", { class: "btn", type: "button", "data-testid": "photo-camera",
                                  onclick: async () => { if (await cameraPhoto(app, GAME)) shown(app); } }, "Take with the dice camera") : null),
    data.photo ? h("div", { class: "options" }, stepper("left", "left side at"), stepper("right", "right side at"),
      stepper("top", "top at"), stepper("bottom", "bottom at")) : null);
}

function shown(app) {
  app.siegeData.photo = true;
  app.siegeData.photoVersion = Date.now();
  app.showBanner("info", "Photo kept: move the grid's sides onto your map's squares.");
  app.render();
}

function sizeButtons(app) {
  const grid = app.siegeData.map.grid;
  const step = (key, delta) => () => edit(app, (map) => { map.grid[key] = Math.max(2, Math.min(32, map.grid[key] + delta)); });
  return h("div", { class: "options" }, ["columns", "rows"].map((key) => [
    h("button", { class: "btn", type: "button", "data-testid": `grid-${key}-less`, onclick: step(key, -1) }, `− ${key}`),
    h("span", { "data-testid": `grid-${key}` }, ` ${grid[key]} ${key} `),
    h("button", { class: "btn", type: "button", "data-testid": `grid-${key}-more`, onclick: step(key, 1) }, `+ ${key}`)]));
}

function pickButtons(app) {
  const data = app.siegeData;
  const pick = (id) => () => { data.pick = id; data.mode = "place"; app.render(); };
  const button = (id, text) => h("button", { class: `btn option${data.mode === "place" && data.pick === id ? " selected" : ""}`, type: "button",
    "data-testid": `place-pick-${id}`, onclick: pick(id) }, text);
  return h("div", { class: "options" }, data.map.places.map((p) => button(p.id, `${p.code} ${p.name}`)),
    button("entrance", "Heroes' entrance"),
    modeButton(app, "edge", "Strahd's edge: tap squares"),
    modeButton(app, "off", "Not on the board: tap squares"),
    modeButton(app, "barricades", "Barricades: tap a line"));
}

function modeButton(app, mode, text) {
  const data = app.siegeData;
  return h("button", { class: `btn option${data.mode === mode ? " selected" : ""}`, type: "button", "data-testid": `mode-${mode}`,
                       onclick: () => { data.mode = mode; app.render(); } }, text);
}

export function renderEditor(app) {
  const data = app.siegeData;
  const head = h("header", { class: "page-head" },
    h("button", { class: "btn", type: "button", "data-testid": "back-to-games", onclick: () => app.go("#/") }, "◀ Games"),
    h("h1", {}, "The village map"), app.connectionPill());
  if (!data || !data.loaded) {
    return h("div", { class: "page", "data-testid": "screen-data" }, head, h("p", {}, data && data.error ? data.error : "Loading the map…"));
  }
  const problems = data.problems || [];
  return h("div", { class: "page", "data-testid": "screen-grid-editor" }, head,
    h("p", { class: "subtle" }, "Our map is a guess (the rules' map is lost): draw yours. Tap a place, then its square; "
      + "in the edge and off-board modes tap squares to mark them or not; in barricade mode tap the line between two squares."),
    sizeButtons(app), pickButtons(app),
    h("section", { class: "panel" }, gridSvg(app)),
    framePanel(app),
    h("section", { class: "panel", "data-testid": "data-checks", "data-pending": data.dirty && !data.checked ? "yes" : "no",
                   "data-problems": String(problems.length) },
      problems.length ? h("ul", {}, problems.map((p) => h("li", { "data-testid": "data-problem" }, p)))
        : h("p", {}, data.dirty ? "No problems: this map can be played." : "The map as saved.")),
    h("button", { class: "btn btn-primary btn-huge", type: "button", "data-testid": "data-save", disabled: !data.dirty || problems.length > 0,
                  onclick: () => save(app) }, data.saved ? "Saved" : "Save the map"));
}
