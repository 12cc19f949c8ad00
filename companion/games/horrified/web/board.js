// The village as SVG: places at the pack's x, y (0..1), roads as lines, the water ways
// (the Creature's alone) dashed, the Hospital marked, and on each place its figures:
// heroes, monsters (the Bride apart from Frankenstein), villagers, Dracula's coffins and
// the items lying there. Places a question or a move can use glow and answer on a tap.

import { s } from "/js/dom.js";
import { bandDepth, ledLayer, ledsHidden } from "/js/leds.js";
import { fitTapTargets } from "/js/targets.js";
import { tapTargets } from "./family/taps.js";
import { escortTaps } from "./actions.js";
import { threatGlow } from "./family/forecast.js";

const W = 1000;
const HIT_R = 34; // a place's tap area on a tablet, in board units (larger on a phone: fitTapTargets)
const H = 700;
const M = 40;
const DISCS = { hero: "hero-disc", monster: "monster-disc", villager: "villager-disc" };
const FILLS = { hero: "#3d8bff", coffin: "#5b3a1e", bride: "#b05cc8" };

export function xy(loc) {
  return [M + loc.x * (W - 2 * M), M + loc.y * (H - 2 * M)];
}

function initials(name) {
  return String(name).replace(/^the /i, "").split(/\s+/).map((w) => w[0]).join("").slice(0, 2).toUpperCase();
}

/** {location: [token]} for every figure on the board. */
function tokensByPlace(app) {
  const { state } = app.view;
  const { names } = app;
  const out = {};
  const add = (where, token) => { if (where) (out[where] ||= []).push(token); };
  for (const [id, hero] of Object.entries(state.heroes)) add(hero.location, { kind: "hero", id, label: initials(names.hero(id)), title: `${hero.player} (${names.hero(id)})` });
  for (const [id, monster] of Object.entries(state.monsters)) {
    if (!monster.defeated) add(monster.location, { kind: "monster", id, label: initials(names.monster(id)), title: names.monster(id) });
  }
  for (const [id, villager] of Object.entries(state.villagers)) add(villager.location, { kind: "villager", id, label: initials(names.villager(id)), title: names.villager(id) });
  for (const figure of state.figures || []) add(figure.location, { kind: figure.kind, id: String(figure.id ?? figure.index ?? figure.kind), label: initials(figure.name), title: figure.name });
  return out;
}

function itemCounts(state) {
  const out = {};
  for (const where of Object.values(state.items_at || {})) out[where] = (out[where] || 0) + 1;
  return out;
}

/** A water space: every way that touches it is water (only the Creature goes there). */
function isWater(board, id) {
  const wet = new Set((board.water || []).map(([a, b]) => [a, b].sort().join("|")));
  const touching = board.connections.filter(([a, b]) => a === id || b === id);
  return touching.length > 0 && touching.every(([a, b]) => wet.has([a, b].sort().join("|")));
}

function token(t, where, x, y) {
  return s("g", { class: `token token-${t.kind}`, "data-testid": `token-${t.kind}`, "data-id": t.id, "data-location": where,
                  transform: `translate(${x.toFixed(1)} ${y.toFixed(1)})` },
    s("title", {}, t.title), s("circle", { r: 13, class: DISCS[t.kind] || "villager-disc", fill: FILLS[t.kind] || null }),
    s("text", { class: "token-text small", dy: "0.35em" }, t.label));
}

function ways(pack, pos) {
  const water = new Set((pack.board.water || []).map(([a, b]) => [a, b].sort().join("|")));
  return pack.board.connections.filter(([a, b]) => pos[a] && pos[b]).map(([a, b]) => {
    const wet = water.has([a, b].sort().join("|"));
    return s("line", { class: wet ? "road water" : "road", stroke: wet ? "#3aa0e0" : null, x1: pos[a][0], y1: pos[a][1], x2: pos[b][0], y2: pos[b][1],
                       "stroke-dasharray": wet ? "10 8" : null, "data-testid": wet ? "water-way" : "road" });
  });
}

function place(app, loc, pos, tokens, items, target) {
  const [x, y] = pos[loc.id];
  const here = tokens[loc.id] || [];
  const water = isWater(app.pack.board, loc.id);
  const attrs = { class: `loc${water ? " loc-water" : ""}${loc.id === app.pack.board.hospital ? " loc-hospital" : ""}${target ? ` target-${target.kind}` : ""}`,
                  "data-testid": "loc", "data-id": loc.id, "data-target": target ? target.kind : null,
                  role: target ? "button" : null, tabindex: target ? 0 : null, onclick: target ? target.run : null,
                  onkeydown: target ? (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); target.run(); } } : null,
                  "aria-label": target ? target.title : loc.name };
  return s("g", attrs,
    s("title", {}, target ? `${loc.name}: ${target.title}` : loc.name),
    target ? s("circle", { class: "target-ring", cx: x, cy: y, r: 32 }) : null,
    s("circle", { class: "loc-disc", cx: x, cy: y, r: 24, fill: water ? "#163a55" : null }),
    s("text", { class: "loc-name", x, y: y + 40, "text-anchor": "middle" }, loc.id === app.pack.board.hospital ? `✚ ${loc.name}` : loc.name),
    target ? s("circle", { class: "loc-hit", cx: x, cy: y, r: HIT_R }) : null,
    items[loc.id] ? s("g", { "data-testid": "token-items", "data-location": loc.id, "data-count": items[loc.id] },
      s("rect", { x: x + 16, y: y - 34, width: 26, height: 20, rx: 4, class: "items-bag" }),
      s("text", { class: "token-text dark small", x: x + 29, y: y - 19 }, String(items[loc.id]))) : null,
    here.map((t, i) => {
      const angle = (i / Math.max(here.length, 1)) * 2 * Math.PI - Math.PI / 2;
      return token(t, loc.id, x + (here.length > 1 ? 22 * Math.cos(angle) : 0), y + (here.length > 1 ? 22 * Math.sin(angle) : 0));
    }));
}

export function boardView(app) {
  const { pack, view } = app;
  const areas = new Set(view.state.areas || ["board"]); // an extra mat is on the table only with its monster
  const shown = pack.board.locations.filter((loc) => !loc.area || areas.has(loc.area));
  const pos = Object.fromEntries(shown.map((loc) => [loc.id, xy(loc)]));
  const tokens = tokensByPlace(app);
  const items = itemCounts(view.state);
  const targets = escortTaps(app, tapTargets(app));
  const overlay = ledsHidden() ? null : app.leds.overlay; // only when the LEDs lie under this board
  return fitTapTargets(s("svg", { class: "board board-horrified", viewBox: `0 0 ${W} ${pictureHeight(overlay)}`, "data-testid": "board",
                                  role: "group", "aria-label": "The village board" },
    s("g", { class: "roads" }, ways(pack, pos)),
    threatGlow(app, pos),
    shown.map((loc) => place(app, loc, pos, tokens, items, targets[loc.id])),
    boardLeds(app, overlay, new Set(shown.map((loc) => loc.id)))), HIT_R);
}

/** The picture's height: taller by the LED band (Terror, mats, seats) when the LEDs are shown. */
function pictureHeight(overlay) {
  const depth = overlay ? bandDepth(overlay) : 0;
  return depth ? Math.ceil(xy({ x: 0, y: 1 + depth })[1]) : H;
}

/** What the LEDs under the board show, over the places drawn (like light through the board). */
function boardLeds(app, overlay, drawn) {
  const caption = (p) => (p.role === "mat" ? initials(app.names.monster(p.name)) : p.role === "seat" ? String(Number(p.name) + 1) : p.name);
  const shown = (p) => (p.role === "location" ? drawn.has(p.name) : p.role === "connection" ? p.name.split("|").every((id) => drawn.has(id)) : true);
  return ledLayer(overlay, app.leds.frame, xy, caption, shown);
}
