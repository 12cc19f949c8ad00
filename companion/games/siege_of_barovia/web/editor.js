// The grid editor: the owner draws their village map over a photo of it (the
// grid's size, each keyed place's square, the heroes' entrance, the starting
// barricades on the lines between squares). Every edit is checked live by the
// companion (data_check) and the problems are listed; Save keeps only what
// differs from the shipped map (data_save), as every pack's owner data does.

import { h, s } from "/js/dom.js";

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
      photo: Boolean(reply.photo), problems: reply.problems || [], pick: "church", mode: "place", dirty: false };
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
function tapSquare(app, square) {
  const data = app.siegeData;
  if (data.mode !== "place") return;  // in barricade mode only the lines answer a tap
  edit(app, (map) => {
    if (data.pick === "entrance") map.entrance.square = square;
    else map.places.find((p) => p.id === data.pick).square = square;
  });
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
  const cells = [], lines = [];
  for (let r = 0; r < rows; r += 1) {
    for (let c = 0; c < columns; c += 1) {
      const name = `${c},${r}`;
      const place = places[name];
      cells.push(s("rect", { x: c * CELL, y: r * CELL, width: CELL, height: CELL, fill: place ? "#1f3a4acc" : "#2228",
        stroke: name === data.map.entrance.square ? "#fff" : "#777", "stroke-width": name === data.map.entrance.square ? 3 : 1,
        "data-testid": "ed-square", "data-square": name, "data-place": place ? place.id : null, onclick: () => tapSquare(app, name) }));
      if (place) cells.push(s("text", { x: c * CELL + 4, y: r * CELL + 16, fill: "#fff", "font-size": 12 }, place.code));
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
  const photo = data.photo ? s("image", { href: `/api/data/${GAME}/photo`, x: 0, y: 0, width: columns * CELL, height: rows * CELL,
    preserveAspectRatio: "none", opacity: 0.6 }) : null;
  return s("svg", { viewBox: `0 0 ${columns * CELL} ${rows * CELL}`, width: "100%", "data-testid": "ed-grid",
    "data-columns": columns, "data-rows": rows, class: data.mode === "barricades" ? "mode-lines" : "mode-squares" },
    photo, cells, data.mode === "barricades" ? lines : lines.filter((l) => l.dataset.barricade === "yes"));
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
    h("button", { class: `btn option${data.mode === "barricades" ? " selected" : ""}`, type: "button", "data-testid": "mode-barricades",
                  onclick: () => { data.mode = "barricades"; app.render(); } }, "Barricades: tap a line"));
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
      + "in barricade mode tap the line between two squares. A photo of your map, when the box has one, lies under the grid."),
    sizeButtons(app), pickButtons(app),
    h("section", { class: "panel" }, gridSvg(app)),
    h("section", { class: "panel", "data-testid": "data-checks", "data-pending": data.dirty && !data.checked ? "yes" : "no",
                   "data-problems": String(problems.length) },
      problems.length ? h("ul", {}, problems.map((p) => h("li", { "data-testid": "data-problem" }, p)))
        : h("p", {}, data.dirty ? "No problems: this map can be played." : "The map as saved.")),
    h("button", { class: "btn btn-primary btn-huge", type: "button", "data-testid": "data-save", disabled: !data.dirty || problems.length > 0,
                  onclick: () => save(app) }, data.saved ? "Saved" : "Save the map"));
}
