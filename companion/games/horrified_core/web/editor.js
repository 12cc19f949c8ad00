// The board editor (#/data/board): the owner's photo of their board behind
// the picture; each location drawn at its x, y and dragged onto its place on
// the photo; roads as lines, added or removed in "Connect" mode by tapping two
// locations; a tapped location's name, its edition's own fields and the special
// places it may be; villagers' safe places and monsters' starts; new
// locations. Every change goes into the working copy (datastatus.js), is
// checked by the companion at once, and is kept until Save or Discard.
//
// What differs between editions comes from `edition.board` (see useEdition):
// `xy` (board units to the picture, as the game screen draws), `size` [width,
// height] of the picture, `roles` (the board's special places: {key, short,
// is, make}), `extras(locations, pos)` (more drawing under the places),
// `fields(app, loc, board, setLocation)` (more fields of a location),
// `newLocation` (the fields a new location starts with) and `ways` (the words
// for the ways only some movers take: {mover: {name, many, who, button}}).
//
// Ways only some movers take: which movers a board has is its shipped data's
// (the movers its ways are `only` for); a board with none has no such mode. In
// that mode two taps make the way between two places one the mover alone takes
// (added if there was none), or an ordinary road again.

import { h, s } from "/js/dom.js";
import { fitTapTargets } from "/js/targets.js";
import { cameraPhoto, sendPhoto } from "/js/photos.js";
import { addedPair, checksPanel, dataHead, edition, editWork, loadingPage, pairKey, quotedIds, saveBar, workFiles } from "./datastatus.js";

const DRAG_FROM_PX = 6; // a smaller movement is a tap
const HIT_R = 40; // a place's tap area on a tablet, in board units (larger on a phone: fitTapTargets)

export function photoUrl(app) {
  return app.data && app.data.photo ? `/api/data/${edition.game}/photo?v=${app.data.photoVersion}` : null;
}

export function kebab(name) {
  return String(name).normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/['’]/g, "").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
}

function round(value) { return Math.round(Math.min(1, Math.max(0, value)) * 1000) / 1000; }

// -- changes to the working copy ----------------------------------------------------------------------------
function shippedLocation(app, id) {
  return ((app.data.shipped && app.data.shipped["board.json"].locations) || []).find((l) => l.id === id) || null;
}

/** Set fields of a location in the working copy; a value back to the shipped one is no change. */
function setLocation(app, id, fields, options) {
  const shipped = shippedLocation(app, id);
  editWork(app, (work) => {
    const board = (work.changes.board ||= {});
    const locations = (board.locations ||= {});
    const patch = locations[id] || {};
    for (const [field, value] of Object.entries(fields)) {
      patch[field] = value;
      if (shipped && shipped[field] === value) delete patch[field];
    }
    if (shipped && !Object.keys(patch).length) delete locations[id];
    else locations[id] = patch;
  }, options);
}

function setBoardValue(app, key, value) {
  const shipped = app.data.shipped["board.json"][key];
  editWork(app, (work) => {
    const board = (work.changes.board ||= {});
    const set = (board.set ||= {});
    if (JSON.stringify(shipped) === JSON.stringify(value)) delete set[key];
    else set[key] = value;
  });
}

/** Add the road a – b, or remove it if there is one. */
function toggleRoad(app, a, b) {
  const key = pairKey(a, b);
  const exists = workFiles(app)["board.json"].connections.some((c) => pairKey(...c.between) === key);
  const same = (entry) => pairKey(...addedPair(entry)) === key;
  editWork(app, (work) => {
    const board = (work.changes.board ||= {});
    const roads = (board.connections ||= {});
    roads.add ||= [];
    roads.remove ||= [];
    if (exists) {
      roads.add = roads.add.filter((p) => !same(p));
      if (!roads.remove.some(same) && shippedWay(app, key)) roads.remove.push([a, b]);
    } else if (roads.remove.some(same)) {
      roads.remove = roads.remove.filter((p) => !same(p));
    } else {
      roads.add.push([a, b]);
    }
  });
  return !exists;
}

// -- ways only some movers take ------------------------------------------------------------------------------
function shippedWay(app, key) {
  return (app.data.shipped["board.json"].connections || []).find((c) => pairKey(...c.between) === key) || null;
}

/** The movers the board's ways are `only` for, as its shipped data names them. */
export function wayMovers(app) {
  const movers = new Set();
  for (const c of app.data.shipped["board.json"].connections || []) for (const m of c.only || []) movers.add(m);
  return [...movers].sort();
}

/** The words for a mover's ways (the edition's), and their kind as the shipped data has it. */
function wayOf(app, mover) {
  const words = (edition.board.ways || {})[mover] || { name: `Way for ${mover} alone`, who: mover };
  const shipped = (app.data.shipped["board.json"].connections || []).find((c) => (c.only || []).includes(mover));
  return { button: words.name, ...words, kind: shipped && shipped.kind ? shipped.kind : null };
}

function onlyKey(only) { return [...(only || [])].sort().join("+"); }

/** Make a – b a way only `mover` takes (added if there is none), or with mover null an ordinary
 *  road; a way made as the shipped one again is no change. */
function setWay(app, a, b, mover) {
  const key = pairKey(a, b);
  const shipped = shippedWay(app, key);
  const kind = mover ? wayOf(app, mover).kind : null;
  const wanted = mover ? { between: [a, b], ...(kind ? { kind } : {}), only: [mover] } : [a, b];
  editWork(app, (work) => {
    const roads = ((work.changes.board ||= {}).connections ||= {});
    roads.add = (roads.add || []).filter((e) => pairKey(...addedPair(e)) !== key);
    roads.remove = (roads.remove || []).filter((p) => pairKey(...p) !== key);
    if (shipped && onlyKey(shipped.only) === onlyKey(mover ? [mover] : [])) return;
    if (shipped) roads.remove.push([a, b]);
    roads.add.push(wanted);
  });
}

/** Two taps in a mover's mode: the way between them becomes the mover's alone, or a road again. */
function tapWay(app, a, b) {
  const ui = app.data.ui;
  const way = wayOf(app, ui.wayMover);
  const current = workFiles(app)["board.json"].connections.find((c) => pairKey(...c.between) === pairKey(a, b));
  const marked = Boolean(current && (current.only || []).includes(ui.wayMover));
  setWay(app, a, b, marked ? null : ui.wayMover);
  const names = placeNames(workFiles(app));
  ui.lastRoad = marked ? `${way.name} unmarked: ${names[a]} – ${names[b]} is a road for everyone`
    : `${way.name} marked: ${names[a]} – ${names[b]} (${way.who} alone)`;
}

function setElement(app, stem, id, field, value) {
  const shipped = (app.data.shipped[`${stem}.json`][stem] || []).find((e) => e.id === id);
  editWork(app, (work) => {
    const change = (work.changes[stem] ||= {});
    const patches = (change[stem] ||= {});
    const patch = patches[id] || {};
    patch[field] = value;
    if (shipped && shipped[field] === value) delete patch[field];
    if (!Object.keys(patch).length) delete patches[id];
    else patches[id] = patch;
  });
}

function addLocation(app, name) {
  const files = workFiles(app);
  const taken = new Set(files["board.json"].locations.map((l) => l.id));
  let id = kebab(name);
  if (!id) { app.showBanner("error", "Give the new location a name first."); return; }
  for (let n = 2; taken.has(id); n += 1) id = `${kebab(name)}-${n}`;
  editWork(app, (work) => {
    const board = (work.changes.board ||= {});
    (board.locations ||= {})[id] = { name: name.trim(), ...(edition.board.newLocation || {}), x: 0.5, y: 0.5 };
  }, { render: false });
  app.data.ui.selected = id;
  app.render();
}

function removeLocation(app, id) {
  const shipped = shippedLocation(app, id);
  editWork(app, (work) => {
    const board = (work.changes.board ||= {});
    const locations = (board.locations ||= {});
    if (shipped) locations[id] = null;
    else delete locations[id];
    const roads = board.connections;
    if (roads && roads.add) roads.add = roads.add.filter((p) => !addedPair(p).includes(id));
  }, { render: false });
  app.data.ui.selected = null;
  app.render();
}

// -- the photo (the shell's photos.js sends it) ---------------------------------------------------------------
async function uploadPhoto(app, input) {
  if (!(await sendPhoto(app, edition.game, input))) return;
  app.data.photo = true;
  app.data.photoVersion = Date.now();
  app.showBanner("info", "Photo kept. Drag each location onto its place on the photo.");
  app.render();
}

async function snapPhoto(app) {
  app.data.ui.snapping = true;
  app.render();
  const kept = await cameraPhoto(app, edition.game);
  app.data.ui.snapping = false;
  if (kept) { app.data.photo = true; app.data.photoVersion = Date.now(); }
  app.render();
}

// -- the picture -------------------------------------------------------------------------------------------
function boardPoint(svg, event) {
  const matrix = svg.getScreenCTM();
  const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
  const [x0, y0] = edition.board.xy({ x: 0, y: 0 });
  const [x1, y1] = edition.board.xy({ x: 1, y: 1 });
  return { x: (point.x - x0) / (x1 - x0), y: (point.y - y0) / (y1 - y0) };
}

/** The owner's photo of their board, stretched over the area x, y 0..1 spans (a location's x, y are fractions of it). */
function photoBackdrop(url) {
  if (!url) return null;
  const [x0, y0] = edition.board.xy({ x: 0, y: 0 });
  const [x1, y1] = edition.board.xy({ x: 1, y: 1 });
  return s("image", { href: url, x: x0, y: y0, width: x1 - x0, height: y1 - y0, preserveAspectRatio: "none",
                      class: "board-photo", "data-testid": "board-photo" });
}

/** The main board's places (an edition without areas has only those). */
function onBoard(loc) { return (loc.area ?? "board") === "board"; }

/** The editor's picture of the working copy: drag a location, tap it (or two, in Connect mode). */
export function editorBoard(app, files) {
  const board = files["board.json"];
  const ui = app.data.ui;
  const marked = quotedIds(app.data.check.problems);
  const locations = board.locations;
  const pos = {};
  for (const l of locations) pos[l.id] = edition.board.xy(l);
  const [width, height] = edition.board.size;
  const svg = s("svg", { class: `board board-editor mode-${ui.mode || "move"}`, viewBox: `0 0 ${width} ${height}`, role: "group",
                         "aria-label": "The board: drag a location onto its place; tap one to edit it", "data-testid": "ed-board",
                         "data-mode": ui.mode || "move", preserveAspectRatio: "xMidYMid meet" });
  const backdrop = photoBackdrop(photoUrl(app));
  if (backdrop) svg.append(backdrop);
  const extras = edition.board.extras ? edition.board.extras(locations, pos) : null;
  if (extras) svg.append(extras);
  const roads = s("g", { class: "roads" });
  for (const c of board.connections) {
    const [a, b] = c.between;
    if (!pos[a] || !pos[b]) continue;
    const only = (c.only || []).join(" ");
    roads.append(s("line", { x1: pos[a][0], y1: pos[a][1], x2: pos[b][0], y2: pos[b][1], class: `road${c.verified ? " verified" : ""}${only ? " way-only" : ""}`,
                             "data-testid": "ed-road", "data-a": a, "data-b": b, "data-key": pairKey(a, b), "data-only": only || null }));
  }
  svg.append(roads);
  const places = s("g", { class: "places" });
  for (const loc of locations) {
    const [cx, cy] = pos[loc.id];
    const roles = (edition.board.roles || []).filter((role) => board[role.key] === loc.id);
    const g = s("g", { class: `ed-loc place area-${loc.area ?? "board"}${ui.selected === loc.id ? " selected" : ""}${ui.connectFrom === loc.id ? " connect-from" : ""}${marked.has(loc.id) ? " has-problem" : ""}`,
                       "data-testid": "ed-loc", "data-id": loc.id, "data-number": loc.number ?? "", "data-problem": marked.has(loc.id) ? "yes" : "no",
                       "data-x": loc.x, "data-y": loc.y, transform: `translate(${cx.toFixed(1)} ${cy.toFixed(1)})`, role: "button", tabindex: 0,
                       "aria-label": `${loc.name}${loc.number ? `, number ${loc.number}` : ""}` },
      s("title", {}, loc.name),
      s("circle", { r: 34, class: "ed-ring" }),
      s("circle", { r: loc.number ? 25 : 19, class: "loc-disc" }),
      loc.number ? s("text", { y: 7, class: "loc-number" }, String(loc.number)) : null,
      s("text", { y: 47, class: "loc-name", "data-testid": "ed-loc-name" }, loc.name),
      roles.length ? s("text", { y: -32, class: "ed-role" }, roles.map((r) => r.short).join(" ")) : null,
      s("circle", { r: HIT_R, class: "loc-hit" }));
    places.append(g);
  }
  svg.append(places);
  dragging(app, svg, pos);
  return fitTapTargets(svg, HIT_R);
}

/** The place a press on the board is for: where the tap areas overlap (on a phone, each is grown
 *  to TAP_PX across), the one whose centre is nearest the finger; none off every tap area. */
function pressedPlace(svg, pos, event) {
  if (!(event.target.closest && event.target.closest("[data-testid=ed-loc]"))) return null;
  const at = new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
  let nearest = null;
  let distance = Infinity;
  for (const [id, [x, y]] of Object.entries(pos)) {
    const d = Math.hypot(x - at.x, y - at.y);
    if (d < distance) { nearest = id; distance = d; }
  }
  return [...svg.querySelectorAll("[data-testid=ed-loc]")].find((g) => g.dataset.id === nearest) || null;
}

/** The main board's places in the order quick entry asks for them: by their printed number
 *  (the d20's, where the edition numbers them), then the others as the board lists them. */
export function entryOrder(locations) {
  const placed = locations.filter(onBoard);
  const numbered = placed.filter((l) => l.number).sort((a, b) => a.number - b.number);
  return [...numbered, ...placed.filter((l) => !l.number)];
}

/** Quick entry: a tap anywhere puts the next place in order there, then asks for the one after. */
function placeNext(app, svg, event) {
  const ui = app.data.ui;
  const order = entryOrder(workFiles(app)["board.json"].locations);
  const next = order[ui.orderIndex || 0];
  if (!next) return;
  const point = boardPoint(svg, event);
  ui.orderIndex = (ui.orderIndex || 0) + 1;
  if (ui.orderIndex >= order.length) { ui.mode = "connect"; ui.orderIndex = 0; ui.lastRoad = "Every place is on the photo: now tap two places to add each road."; }
  setLocation(app, next.id, { x: round(point.x), y: round(point.y) });
}

/** Pointer events: a press on a location that moves is a drag (saved as x, y on release), one that does not is a tap. */
function dragging(app, svg, pos) {
  let drag = null;
  svg.addEventListener("click", (event) => { if (app.data.ui.mode === "order") placeNext(app, svg, event); });
  svg.addEventListener("pointerdown", (event) => {
    if (app.data.ui.mode === "order") return; // quick entry: every tap places the next location (the click above)
    const g = pressedPlace(svg, pos, event);
    if (!g || event.button > 0) return;
    event.preventDefault();
    drag = { id: g.dataset.id, g, x0: event.clientX, y0: event.clientY, moved: false, pointer: event.pointerId };
    try { svg.setPointerCapture(event.pointerId); } catch { /* synthetic pointers cannot be captured */ }
  });
  svg.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.pointer) return;
    if (!drag.moved && Math.hypot(event.clientX - drag.x0, event.clientY - drag.y0) < DRAG_FROM_PX) return;
    if ((app.data.ui.mode || "move") !== "move") return; // Connect mode: taps only
    drag.moved = true;
    const point = boardPoint(svg, event);
    drag.point = { x: round(point.x), y: round(point.y) };
    const [cx, cy] = edition.board.xy(drag.point);
    drag.g.setAttribute("transform", `translate(${cx.toFixed(1)} ${cy.toFixed(1)})`);
    for (const line of svg.querySelectorAll(`[data-testid=ed-road][data-a='${drag.id}']`)) { line.setAttribute("x1", cx); line.setAttribute("y1", cy); }
    for (const line of svg.querySelectorAll(`[data-testid=ed-road][data-b='${drag.id}']`)) { line.setAttribute("x2", cx); line.setAttribute("y2", cy); }
  });
  const end = (event) => {
    if (!drag || event.pointerId !== drag.pointer) return;
    const done = drag;
    drag = null;
    if (event.type === "pointercancel") { app.render(); return; }
    if (done.moved && done.point) {
      app.data.ui.selected = done.id;
      setLocation(app, done.id, done.point);
    } else {
      tapLocation(app, done.id);
    }
  };
  svg.addEventListener("pointerup", end);
  svg.addEventListener("pointercancel", end);
  svg.addEventListener("keydown", (event) => {
    const g = event.target.closest && event.target.closest("[data-testid=ed-loc]");
    if (g && (event.key === "Enter" || event.key === " ")) { event.preventDefault(); tapLocation(app, g.dataset.id); }
  });
}

function tapLocation(app, id) {
  const ui = app.data.ui;
  if (ui.mode === "connect" || ui.mode === "way") {
    if (!ui.connectFrom || ui.connectFrom === id) {
      ui.connectFrom = ui.connectFrom === id ? null : id;
      app.render();
      return;
    }
    const from = ui.connectFrom;
    ui.connectFrom = null;
    if (ui.mode === "way") {
      tapWay(app, from, id);
    } else {
      const names = placeNames(workFiles(app));
      const added = toggleRoad(app, from, id);
      ui.lastRoad = `${added ? "Road added" : "Road removed"}: ${names[from]} – ${names[id]}`;
    }
    app.render();
    return;
  }
  ui.selected = ui.selected === id ? null : id;
  app.render();
}

function placeNames(files) {
  const names = {};
  for (const l of files["board.json"].locations) names[l.id] = l.name;
  return names;
}

// -- the side panels -------------------------------------------------------------------------------------------
function modePanel(app) {
  const ui = app.data.ui;
  const mode = ui.mode || "move";
  const set = (m, mover = null) => { ui.mode = m; ui.wayMover = mover; ui.connectFrom = null; ui.lastRoad = null; ui.orderIndex = 0; app.render(); };
  const names = placeNames(workFiles(app));
  const next = entryOrder(workFiles(app)["board.json"].locations)[ui.orderIndex || 0];
  return h("section", { class: "panel" },
    h("div", { class: "cal-buttons", role: "group", "aria-label": "What a tap does" },
      h("button", { class: "btn btn-huge", type: "button", "data-testid": "mode-move", "aria-pressed": mode === "move" ? "true" : "false",
                    onclick: () => set("move") }, "✥ Move and edit"),
      h("button", { class: "btn btn-huge", type: "button", "data-testid": "mode-connect", "aria-pressed": mode === "connect" ? "true" : "false",
                    onclick: () => set("connect") }, "⟷ Connect"),
      h("button", { class: "btn btn-huge", type: "button", "data-testid": "mode-order", "aria-pressed": mode === "order" ? "true" : "false",
                    onclick: () => set("order") }, "① Place in order"),
      wayMovers(app).map((mover) => h("button", { class: "btn btn-huge", type: "button", "data-testid": "mode-way", "data-mover": mover,
                                                  "aria-pressed": mode === "way" && ui.wayMover === mover ? "true" : "false",
                                                  onclick: () => set("way", mover) }, `≈ ${wayOf(app, mover).button}`))),
    h("p", { class: "subtle", "data-testid": "mode-hint", "data-next": mode === "order" && next ? next.id : null }, mode === "way"
      ? wayHint(app, names)
      : mode === "order"
      ? `Tap where ${next ? `${next.number ? `${next.number} ` : ""}${next.name}` : "the next place"} is on your photo (${(ui.orderIndex || 0) + 1} of ${entryOrder(workFiles(app)["board.json"].locations).length}); then the roads.`
      : mode === "connect"
      ? (ui.connectFrom ? `Now tap the location joined to ${names[ui.connectFrom] || ui.connectFrom} (tap it again to cancel). A road already there is removed.`
        : "Tap two locations one Move apart to add the road between them; tap two joined ones to remove their road.")
      : "Drag a location onto its place on the photo. Tap one to change its name and more."),
    ui.lastRoad ? h("p", { class: "hint", "data-testid": "road-done" }, ui.lastRoad) : null);
}

function wayHint(app, names) {
  const ui = app.data.ui;
  const way = wayOf(app, ui.wayMover);
  return ui.connectFrom ? `Now tap the place joined to ${names[ui.connectFrom] || ui.connectFrom} by a ${way.name.toLowerCase()} (tap it again to cancel).`
    : `Tap two places to make the way between them a ${way.name.toLowerCase()}, one ${way.who} alone takes; tap the two ends of one to make it a road for everyone again.`;
}

/** A location's ways in words: the roads, and each mover's ways apart. */
function waysOfPlace(app, board, loc) {
  const names = placeNames({ "board.json": board });
  const touching = board.connections.filter((c) => c.between.includes(loc.id));
  const other = (c) => names[c.between.find((x) => x !== loc.id)] || c.between.find((x) => x !== loc.id);
  const roads = touching.filter((c) => !(c.only || []).length).map(other);
  const parts = roads.length ? [`Roads to: ${roads.join(", ")}`] : [];
  for (const mover of wayMovers(app)) {
    const way = wayOf(app, mover);
    const theirs = touching.filter((c) => (c.only || []).includes(mover)).map(other);
    if (theirs.length) parts.push(`${way.many || `${way.name}s`} (${way.who} alone) to: ${theirs.join(", ")}`);
  }
  return parts.length ? parts.join(" · ") : "No roads yet: use Connect.";
}

function locationPanel(app, files) {
  const board = files["board.json"];
  const ui = app.data.ui;
  const loc = board.locations.find((l) => l.id === ui.selected);
  if (!loc) return null;
  const nameInput = h("input", { class: "text-input", type: "text", "data-testid": "loc-name", value: loc.name, "aria-label": "Name",
    oninput: (e) => {
      const name = e.target.value;
      setLocation(app, loc.id, { name }, { render: false });
      const label = document.querySelector(`[data-testid=ed-loc][data-id='${loc.id}'] [data-testid=ed-loc-name]`);
      if (label) label.textContent = name;
    } });
  return h("section", { class: "panel ed-location", "data-testid": "loc-panel", "data-id": loc.id },
    h("div", { class: "data-list-head" }, h("h2", {}, loc.name),
      h("button", { class: "btn", type: "button", "data-testid": "loc-close", onclick: () => { ui.selected = null; app.render(); } }, "Close ✕")),
    h("label", { class: "field" }, "Name", nameInput),
    edition.board.fields ? edition.board.fields(app, loc, board, setLocation) : null,
    rolesPart(app, loc, board),
    h("p", { class: "subtle", "data-testid": "loc-roads" }, waysOfPlace(app, board, loc)),
    h("p", { class: "subtle" }, `Place on the picture: ${Math.round(loc.x * 100)} % across, ${Math.round(loc.y * 100)} % down.`),
    h("button", { class: "btn btn-warn", type: "button", "data-testid": "loc-remove", onclick: (e) => {
      if (e.currentTarget.dataset.confirm !== "yes") { e.currentTarget.dataset.confirm = "yes"; e.currentTarget.textContent = "Tap again to remove it"; return; }
      removeLocation(app, loc.id);
    } }, "Remove this location"));
}

/** A button per special place of the board: the one it is, or make it that one. */
function rolesPart(app, loc, board) {
  const roles = edition.board.roles || [];
  if (!roles.length) return null;
  return h("div", { class: "cal-buttons" }, roles.map((role) => {
    const is = board[role.key] === loc.id;
    return h("button", { class: "btn", type: "button", "data-testid": `loc-role-${role.key}`, "aria-pressed": is ? "true" : "false", disabled: is,
                         onclick: () => setBoardValue(app, role.key, loc.id) }, is ? `✓ ${role.is}` : role.make);
  }));
}

function addPanel(app) {
  const input = h("input", { class: "text-input", type: "text", "data-testid": "new-loc-name", placeholder: "Name of the new location", "aria-label": "New location's name" });
  return h("section", { class: "panel" },
    h("h2", {}, "A location we do not have"),
    h("div", { class: "filter-row" }, input,
      h("button", { class: "btn", type: "button", "data-testid": "new-loc-add", onclick: () => addLocation(app, input.value) }, "Add")),
    h("p", { class: "subtle" }, "It appears in the middle of the picture: drag it to its place, then connect it."));
}

function peoplePanel(app, files) {
  const places = files["board.json"].locations.filter(onBoard);
  const select = (testid, id, value, onchange) => h("select", { class: "select", "data-testid": testid, "data-id": id, onchange: (e) => onchange(e.target.value) },
    places.map((l) => h("option", { value: l.id, selected: l.id === value }, l.name)),
    places.some((l) => l.id === value) ? null : h("option", { value, selected: true }, `${value} (not on the board)`));
  return h("section", { class: "panel" },
    h("h2", {}, "Villagers' safe places"),
    h("div", { class: "ed-rows" }, files["villagers.json"].villagers.map((v) => h("label", { class: "ed-row" }, h("span", {}, v.name),
      select("villager-safe", v.id, v.safe_location, (value) => setElement(app, "villagers", v.id, "safe_location", value))))),
    h("h2", {}, "Where monsters start"),
    h("div", { class: "ed-rows" }, files["monsters.json"].monsters.map((m) => h("label", { class: "ed-row" }, h("span", {}, m.name),
      select("monster-start", m.id, m.start, (value) => setElement(app, "monsters", m.id, "start", value))))),
    h("h2", {}, "Terror track"),
    h("label", { class: "ed-row" }, h("span", {}, "Its last space (the heroes lose there)"),
      h("select", { class: "select", "data-testid": "terror-max", onchange: (e) => {
        const shipped = app.data.shipped["board.json"].terror_max;
        setBoardValue(app, "terror_max", { ...shipped, value: Number(e.target.value) });
      } }, Array.from({ length: 12 }, (_, i) => i + 4).map((n) => h("option", { value: String(n), selected: files["board.json"].terror_max.value === n }, String(n))))));
}

function photoPanel(app) {
  const input = h("input", { type: "file", accept: "image/*", capture: "environment", class: "visually-hidden", id: "board-photo-file",
                             "data-testid": "photo-file", onchange: (e) => uploadPhoto(app, e.target) });
  return h("section", { class: "panel" },
    h("h2", {}, "Photo of your board"),
    h("p", { class: "subtle" }, app.data.photo ? "Your photo is behind the picture." : "Take a photo of your board from straight above, then drag each location onto it."),
    h("div", { class: "cal-buttons" },
      h("label", { class: "btn", for: "board-photo-file", "data-testid": "photo-upload" }, app.data.photo ? "Take a new photo" : "Take or choose a photo"), input,
      app.data.camera ? h("button", { class: "btn", type: "button", "data-testid": "photo-camera", disabled: app.data.ui.snapping,
                                      onclick: () => snapPhoto(app) }, app.data.ui.snapping ? "Taking the photo…" : "Take with the dice camera") : null));
}

export function renderBoardEditor(app) {
  const title = "Board editor";
  if (!app.data || !app.data.loaded) return loadingPage(app, title);
  const files = workFiles(app);
  return h("div", { class: "page cal-page data-page", "data-testid": "screen-board-editor", "data-game": edition.game },
    ...dataHead(app, title),
    h("div", { class: "cal-body" },
      h("div", { class: "cal-side" }, modePanel(app), locationPanel(app, files), saveBar(app), checksPanel(app), addPanel(app), photoPanel(app)),
      h("div", { class: "cal-main" },
        h("section", { class: "panel board-panel" }, h("div", { class: "board-scroll" }, editorBoard(app, files))),
        peoplePanel(app, files))));
}

