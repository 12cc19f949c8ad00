// The board as SVG: locations at the pack's x, y (0..1), roads as lines, the
// castle mat only when Strahd is in the game, every figure on it, item counts,
// the path of the last monster moves and, for a path question, the paths to
// choose from. Places you can tap (an adjacent move, a place the question
// asks for) glow; `#led-layer` shows the LEDs under the board (leds.js), with
// the Terror track, mats and seats in a band below the picture.

import { s } from "/js/dom.js";
import { bandDepth, ledLayer, ledsHidden } from "/js/leds.js";
import { fitTapTargets } from "/js/targets.js";
import { tapTargets } from "./family/taps.js";
import { threatGlow } from "./family/forecast.js";

const W = 1000;
const HIT_R = 46; // a place's tap area on a tablet, in board units (larger on a phone: fitTapTargets)
const H = 720;
const PATH_COLOURS = ["#4fc3ff", "#ff7ad9", "#b6ff4d", "#ffd24d", "#ff9a4d", "#c9a0ff"];

export function xy(loc) {
  return [30 + loc.x * 940, 12 + loc.y * 690];
}

/** The inverse of xy: a point of the SVG picture back to board units (0..1). */
function boardPoint(x, y) {
  return { x: (x - 30) / 940, y: (y - 12) / 690 };
}

/** The picture's height: taller by the LED band when the LEDs are shown with one. */
function pictureHeight(overlay) {
  const depth = overlay ? bandDepth(overlay) : 0;
  return depth ? Math.ceil(xy({ x: 0, y: 1 + depth })[1]) : H;
}

/**
 * The LED layer for the board picture: the LEDs of the places drawn (not those
 * of the castle mat when it is off the table); captions name band LEDs
 * (Terror step, monster, seat).
 */
function boardLeds(overlay, frame, names, drawn) {
  const caption = (p) => (p.role === "mat" ? initials(names.monster(p.name)) : p.role === "seat" ? String(Number(p.name) + 1) : p.name);
  const shown = (p) => (p.role === "location" ? drawn.has(p.name) : p.role === "connection" ? p.name.split("|").every((id) => drawn.has(id)) : true);
  return ledLayer(overlay, frame, xy, caption, shown);
}

/**
 * The owner's photo of their board behind the picture: stretched over the area
 * x, y 0..1 spans, so a location's x, y are fractions of the photo.
 */
export function photoBackdrop(url) {
  if (!url) return null;
  const [x0, y0] = xy({ x: 0, y: 0 });
  const [x1, y1] = xy({ x: 1, y: 1 });
  return s("image", { href: url, x: x0, y: y0, width: x1 - x0, height: y1 - y0, preserveAspectRatio: "none",
                      class: "board-photo", "data-testid": "board-photo" });
}

/** Strahd's castle mat: a framed area of its own around its locations. */
export function castleMat(locations, pos) {
  const castle = locations.filter((l) => l.area === "castle-mat");
  if (!castle.length) return null;
  const xs = castle.map((l) => pos[l.id][0]);
  const ys = castle.map((l) => pos[l.id][1]);
  const x0 = Math.min(...xs) - 62, y0 = Math.min(...ys) - 48, x1 = Math.max(...xs) + 62, y1 = Math.max(...ys) + 58;
  return s("g", { class: "castle-mat", "data-testid": "castle-mat" },
    s("rect", { x: x0, y: y0, width: x1 - x0, height: y1 - y0, rx: 18 }),
    s("text", { x: x0 + 12, y: y0 + 22, class: "castle-title" }, "Castle Ravenloft"));
}

function roadLines(pack, shown, pos) {
  const roads = s("g", { class: "roads" });
  for (const [a, b] of pack.board.connections) {
    if (!shown.has(a) || !shown.has(b)) continue;
    roads.append(s("line", { x1: pos[a][0], y1: pos[a][1], x2: pos[b][0], y2: pos[b][1], class: "road",
                             "data-testid": "road", "data-between": [a, b].sort().join(" ") }));
  }
  return roads;
}

function initials(name) {
  const words = name.split(/\s+/).filter((w) => /^[A-Z]/.test(w));
  if (words.length >= 2) return words[0][0] + words[1][0];
  return name.slice(0, 2);
}

/** Where the tokens around a location go: over the top half (the name is
 * below), left to right; a crowded place gets a second, wider arc. */
const SPOTS = [[-180, 58], [-135, 58], [-90, 58], [-45, 58], [0, 58],
               [-157, 100], [-112, 100], [-67, 100], [-22, 100], [22, 80], [-202, 80]];
function ringSpot(cx, cy, i) {
  const [degrees, radius] = SPOTS[i % SPOTS.length];
  const angle = (degrees * Math.PI) / 180;
  return [cx + Math.cos(angle) * radius, cy + Math.sin(angle) * radius];
}

function visibleLocations(app) {
  const strahd = "strahd" in app.view.state.monsters;
  return app.pack.board.locations.filter((l) => l.area !== "castle-mat" || strahd);
}

/** The figures standing at each location, in drawing order. */
function figuresByPlace(app) {
  const { state } = app.view;
  const names = app.names;
  const at = {};
  const add = (where, token) => { if (where) (at[where] ||= []).push(token); };
  for (const monster of Object.values(state.monsters)) {
    if (!monster.defeated) add(monster.location, { kind: "monster", id: monster.id, label: initials(names.monster(monster.id)),
                                                    title: names.monster(monster.id), frenzy: state.frenzy === monster.id });
  }
  const tree = state.mats["gulthias-tree"];
  if (tree && Array.isArray(tree.blights)) {
    tree.blights.forEach((where, i) => add(where, { kind: "blight", id: String(i), label: `B${i + 1}`, title: `Twig Blight ${i + 1}` }));
  }
  for (const heroId of state.seats) {
    const hero = state.heroes[heroId];
    add(hero.location, { kind: "hero", id: heroId, label: names.hero(heroId)[0], title: `${names.hero(heroId)} (${hero.player})`,
                         active: state.seats[state.active] === heroId });
  }
  for (const villager of Object.values(state.villagers)) {
    add(villager.location, { kind: "villager", id: villager.id, label: initials(names.villager(villager.id)), title: names.villager(villager.id) });
  }
  const strahd = state.mats.strahd;
  if (strahd && strahd.relics_on_board) {
    for (const [relic, where] of Object.entries(strahd.relics_on_board)) add(where, { kind: "relic", id: relic, label: "", title: names.relic(relic) });
  }
  const items = {};
  for (const where of Object.values(state.items_at || {})) items[where] = (items[where] || 0) + 1;
  for (const [where, count] of Object.entries(items)) add(where, { kind: "items", id: where, label: String(count), title: `${count} item${count === 1 ? "" : "s"}`, count });
  return at;
}

function token(t, where, x, y) {
  const g = s("g", { class: `token token-${t.kind}`, "data-testid": `token-${t.kind}`, "data-id": t.id, "data-location": where, transform: `translate(${x.toFixed(1)} ${y.toFixed(1)})` },
    s("title", {}, t.title));
  if (t.kind === "monster") {
    if (t.frenzy) g.append(s("circle", { r: 30, class: "frenzy-ring" }));
    g.append(s("circle", { r: 24, class: "monster-disc" }), s("text", { class: "token-text", y: 7 }, t.label));
  } else if (t.kind === "blight") {
    g.append(s("polygon", { points: "0,-20 18,11 -18,11", class: "blight-shape" }), s("text", { class: "token-text small", y: 7 }, t.label));
  } else if (t.kind === "hero") {
    g.append(s("circle", { r: 21, class: `hero-disc hero-${t.id}${t.active ? " active" : ""}` }), s("text", { class: "token-text dark", y: 7 }, t.label));
  } else if (t.kind === "villager") {
    g.append(s("circle", { r: 17, class: "villager-disc" }), s("text", { class: "token-text dark small", y: 5 }, t.label));
  } else if (t.kind === "relic") {
    g.append(s("polygon", { points: "0,-15 4,-5 15,-5 6,2 9,13 0,6 -9,13 -6,2 -15,-5 -4,-5", class: "relic-shape" }));
  } else {
    g.dataset.count = String(t.count);
    // A Haversack-style pouch with the count: not a square, so it is never read as a Mundane item.
    g.append(s("path", { d: "M-7,-15 L7,-15 L4,-9 C14,-5 17,3 17,8 C17,15 11,18 0,18 C-11,18 -17,15 -17,8 C-17,3 -14,-5 -4,-9 Z", class: "items-bag" }),
             s("text", { class: "token-text dark", y: 11 }, t.label));
  }
  return g;
}

function polyline(points, attrs) {
  return s("polyline", { points: points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" "), ...attrs });
}

export function boardView(app) {
  const { view, pack } = app;
  const locations = visibleLocations(app);
  const shown = new Set(locations.map((l) => l.id));
  const pos = {};
  for (const l of locations) pos[l.id] = xy(l);
  const overlay = ledsHidden() ? null : app.leds.overlay; // placed by the companion on the owner's board

  const svg = s("svg", { class: "board", viewBox: `0 0 ${W} ${pictureHeight(overlay)}`, role: "group", "aria-label": "The board",
                         "data-testid": "board", preserveAspectRatio: "xMidYMid meet" },
    s("defs", {},
      s("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 7, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" },
        s("path", { d: "M0,0 L10,5 L0,10 Z", fill: "#ff3b3b" }))));

  const castle = castleMat(locations, pos);
  if (castle) svg.append(castle);
  svg.append(roadLines(pack, shown, pos));
  const { lines, badges } = pathOptions(view.prompt, pos);
  const about = aboutFigure(view.prompt, pos);
  if (about) badges.append(about);
  const places = placeLayers(app, locations, pos);
  svg.append(places.discs, threatGlow(app, pos), lines, monsterMoves(view.effects, pos), places.labels, places.tokens,
             badges, places.hits);
  // Over the figures, like light through the board; taps go through to the places.
  svg.append(boardLeds(overlay, app.leds.frame, app.names, shown));
  return fitTapTargets(svg, HIT_R);
}

/** Paths to choose from (a `path` question): one colour and number each, the number where that
 * path parts from the others. */
function pathOptions(prompt, pos) {
  const lines = s("g", { class: "path-options" });
  const badges = s("g", { class: "path-badges" });
  if (!prompt || prompt.kind !== "choice") return { lines, badges };
  const paths = prompt.options.map((o) => (o.data && Array.isArray(o.data.path) && o.data.path.every((id) => pos[id]) ? o.data.path : null));
  paths.forEach((path, i) => {
    if (!path) return;
    const shift = (i - (paths.length - 1) / 2) * 8;
    const points = path.map((id) => [pos[id][0] + shift, pos[id][1] + shift]);
    const colour = PATH_COLOURS[i % PATH_COLOURS.length];
    let split = path.findIndex((id, k) => paths.some((other, j) => j !== i && other && other[k] !== id));
    if (split < 1) split = 1;
    const [ax, ay] = points[Math.min(split - 1, points.length - 1)];
    const [bx, by] = points[Math.min(split, points.length - 1)];
    const mx = (ax + bx) / 2, my = (ay + by) / 2;
    lines.append(s("g", { class: "path-option", "data-testid": "path-option", "data-id": prompt.options[i].id },
      polyline(points, { class: "path-option-halo" }), polyline(points, { class: "path-option-line", stroke: colour })));
    badges.append(s("g", { class: "path-badge-group" },
      s("circle", { cx: mx, cy: my, r: 17, fill: colour, class: "path-badge" }),
      s("text", { x: mx, y: my + 7, class: "path-badge-text" }, String(i + 1))));
  });
  return { lines, badges };
}

/** The monsters' moves in the last change (newest drawn last, on top); the arrow stops at the
 * edge of the place it reaches. */
function monsterMoves(effects, pos) {
  const moves = s("g", { class: "monster-paths" });
  for (const effect of effects) {
    if ((effect.kind !== "monster-moved" && effect.kind !== "figure-moved") || !Array.isArray(effect.data.path)) continue;
    const points = effect.data.path.filter((id) => pos[id]).map((id) => [...pos[id]]);
    if (points.length < 2) continue;
    const [px, py] = points[points.length - 2];
    const last = points[points.length - 1];
    const length = Math.hypot(last[0] - px, last[1] - py) || 1;
    points[points.length - 1] = [last[0] - ((last[0] - px) / length) * 32, last[1] - ((last[1] - py) / length) * 32];
    moves.append(s("g", { class: `monster-path${effect.kind === "figure-moved" ? " pulled" : ""}`, "data-testid": "monster-path",
                          "data-monster": effect.data.monster ?? "", "data-path": effect.data.path.join(" ") },
      s("title", {}, effect.text),
      polyline(points, { class: "monster-path-halo" }),
      polyline(points, { class: "monster-path-line", "marker-end": "url(#arrow)" })));
  }
  return moves;
}

/** The figure the question is about: a ring around where it stands, named in its title. */
function aboutFigure(prompt, pos) {
  const about = prompt && prompt.context && prompt.context.figure ? prompt.context : null;
  if (!about || !pos[about.location]) return null;
  const [ax, ay] = pos[about.location];
  return s("g", { class: "about-figure", "data-testid": "about-figure", "data-location": about.location,
                  "data-monster": about.monster || "" },
    s("title", {}, `${about.figure}: the question is about this figure`),
    s("circle", { cx: ax, cy: ay, r: 42, class: "about-ring" }));
}

/** Each place as layers drawn apart (discs under the paths; numbers, names, figures and the tap
 * areas over them), the places a tap does something ringed. */
function placeLayers(app, locations, pos) {
  const targets = tapTargets(app);
  const figures = figuresByPlace(app);
  const layers = { discs: s("g", { class: "places" }), labels: s("g", { class: "labels" }),
                   tokens: s("g", { class: "tokens" }), hits: s("g", { class: "hits" }) };
  for (const loc of locations) {
    const [cx, cy] = pos[loc.id];
    const target = targets[loc.id];
    layers.discs.append(s("g", { class: `place area-${loc.area}${target ? ` target target-${target.kind}` : ""}` },
      target ? s("circle", { cx, cy, r: 36, class: "target-ring" }) : null,
      s("circle", { cx, cy, r: loc.number ? 25 : 19, class: "loc-disc" })));
    // Numbers and names above the paths, so a path never hides which place is which.
    if (loc.number) layers.labels.append(s("text", { x: cx, y: cy + 7, class: "loc-number" }, String(loc.number)));
    layers.labels.append(s("text", { x: cx, y: cy + 47, class: "loc-name" }, loc.name));
    (figures[loc.id] || []).forEach((t, i) => { const [x, y] = ringSpot(cx, cy, i); layers.tokens.append(token(t, loc.id, x, y)); });
    layers.hits.append(placeHit(loc, cx, cy, target));
  }
  return layers;
}

/** The tap area of a place: a button when a tap there does something (Enter and Space too). */
function placeHit(loc, cx, cy, target) {
  const hit = s("g", { class: `loc${target ? ` target target-${target.kind}` : ""}`, "data-testid": "loc", "data-id": loc.id,
                       "data-target": target ? target.kind : null, role: target ? "button" : null, tabindex: target ? 0 : null,
                       "aria-label": target ? target.title : loc.name },
    s("title", {}, target ? target.title : loc.name),
    s("circle", { cx, cy, r: HIT_R, class: "loc-hit" }));
  if (target) {
    hit.addEventListener("click", () => target.run());
    hit.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); target.run(); } });
  }
  return hit;
}

/**
 * The board for LED setup: every location (the castle mat too), roads and
 * names, the LEDs, and `onTap({x, y})` in board units for a tap anywhere on it;
 * the owner's board photo behind it when there is one (as in the board editor).
 */
export function setupBoard(pack, names, overlay, frame, onTap, photo = null) {
  const locations = pack.board.locations;
  const all = new Set(locations.map((l) => l.id));
  const pos = {};
  for (const l of locations) pos[l.id] = xy(l);
  const svg = s("svg", { class: "board board-setup", viewBox: `0 0 ${W} ${pictureHeight(overlay)}`, role: "group",
                         "aria-label": "The board: tap where the lit LED shines", "data-testid": "cal-board",
                         preserveAspectRatio: "xMidYMid meet" });
  const backdrop = photoBackdrop(photo);
  if (backdrop) svg.append(backdrop);
  const castle = castleMat(locations, pos);
  if (castle) svg.append(castle);
  svg.append(roadLines(pack, all, pos));
  for (const loc of locations) {
    const [cx, cy] = pos[loc.id];
    svg.append(s("g", { class: `place area-${loc.area}`, "data-testid": "cal-loc", "data-id": loc.id },
      s("title", {}, loc.name), s("circle", { cx, cy, r: loc.number ? 25 : 19, class: "loc-disc" })));
  }
  for (const loc of locations) svg.append(s("text", { x: pos[loc.id][0], y: pos[loc.id][1] + 47, class: "loc-name" }, loc.name));
  svg.append(boardLeds(overlay, frame, names, all));
  svg.addEventListener("click", (event) => {
    const matrix = svg.getScreenCTM();
    if (!matrix) return;
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    onTap(boardPoint(point.x, point.y));
  });
  return svg;
}

