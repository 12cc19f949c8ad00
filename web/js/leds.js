// The LED overlay: what the LEDs under the board show, drawn over the board
// picture as one glowing dot per LED (docs/leds.md, "The tablet overlay"), so
// a laptop shows what the Pi's LEDs would and a tablet mirrors real LEDs a
// figure may hide. The Terror track, the mats and the seats are off the
// picture in reality: their LEDs sit in a band below it.
//
// The companion sends where each LED sits once (the `leds` of the join reply,
// or `leds_overlay` when the layout changes) and then frames (`leds` events,
// at most 15 a second, always ending on the still picture). A frame repaints
// only the dots whose colour changed; the board itself is never redrawn.

import { clear, h, keptDetails, s } from "./dom.js";

const HIDDEN_KEY = "companion.leds.hidden";
const BAND_LABELS = { terror: "Terror", mat: "Mats", seat: "Seats" };
const BAND_MARGIN = 0.06; // below the lowest band LED, in board heights

/** The R G B bytes of a frame (base64, LED 0 first). */
export function decodeFrame(text) {
  const raw = atob(text);
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** Hidden on this tablet? Kept in the browser, so each tablet chooses for itself. */
export function ledsHidden() {
  try { return localStorage.getItem(HIDDEN_KEY) === "yes"; } catch { return false; }
}

function setLedsHidden(hidden) {
  try { localStorage.setItem(HIDDEN_KEY, hidden ? "yes" : "no"); } catch { /* private mode: for this page only */ }
}

/** How far below the picture the band reaches (in board heights, as the LED positions); 0 without one. */
export function bandDepth(overlay) {
  const below = (overlay?.positions || []).map((p) => p.y).filter((y) => y > 1);
  return below.length ? Math.max(...below) - 1 + BAND_MARGIN : 0;
}

/**
 * The `#led-layer` group: an LED at `toXY(position)` for each position
 * `shown(position)` accepts, the band's labels (`caption(position)` under each
 * band LED), painted with `frame`. A location's LED is a ring round the place,
 * so its number and the figures on it stay readable; the others are dots.
 */
export function ledLayer(overlay, frame, toXY, caption, shown = () => true) {
  const layer = s("g", { id: "led-layer", "data-testid": "led-layer", "pointer-events": "none",
                         "data-count": overlay ? overlay.count : 0, "data-lit": 0 });
  if (!overlay) return layer;
  layer.overlay = overlay;
  const positions = overlay.positions.filter(shown).map((p) => ({ ...p, at: toXY(p) }));
  const band = positions.filter((p) => p.y > 1);
  if (band.length) layer.append(bandBackdrop(band, toXY, overlay), bandLabels(band, caption));
  layer.dots = positions.map((p) => {
    const [x, y] = p.at;
    const ring = p.role === "location";
    return s("g", { class: `led led-${p.role}`, "data-testid": "led", "data-index": p.index, "data-role": p.role,
                    "data-name": p.name, "data-lit": "no", "data-rgb": "0,0,0", transform: `translate(${x.toFixed(1)} ${y.toFixed(1)})`,
                    role: "img", "data-what": ledWhat(p, caption), "aria-label": `${ledWhat(p, caption)}: off` },
      s("circle", { class: "led-halo", r: ring ? 31 : 15, "data-paint": ring ? "stroke" : "fill" }),
      s("circle", { class: "led-core", r: ring ? 31 : 6, "data-paint": ring ? "stroke" : "fill" }));
  });
  layer.append(...layer.dots);
  paintLeds(layer, frame);
  return layer;
}

function bandBackdrop(band, toXY, overlay) {
  const [, top] = toXY({ x: 0, y: 1.01 });
  const [, bottom] = toXY({ x: 0, y: 1 + bandDepth(overlay) });
  return s("rect", { class: "led-band", x: 6, y: top, width: 988, height: bottom - top - 4, rx: 10 });
}

/** The group names left of each band row, and a caption under each LED (step, monster, seat). */
function bandLabels(band, caption) {
  const labels = s("g", { class: "led-band-labels" });
  for (const role of Object.keys(BAND_LABELS)) {
    const row = band.filter((p) => p.role === role);
    if (!row.length) continue;
    const first = row.reduce((a, b) => (b.at[0] < a.at[0] ? b : a));
    labels.append(s("text", { class: "led-band-label", x: first.at[0] - 18, y: first.at[1] + 6 }, BAND_LABELS[role]));
  }
  for (const p of band) {
    labels.append(s("text", { class: "led-caption", x: p.at[0], y: p.at[1] + 27 }, caption(p)));
  }
  return labels;
}

const ROLE_WORDS = { location: "LED under", connection: "LED on the road", terror: "Terror LED", mat: "Mat LED", seat: "Seat LED" };

// The game's names once a game screen is drawn (ledTools); until then the ids in plain words.
let placeName = (id) => String(id).replace(/-/g, " ");
let monsterName = (id) => String(id).replace(/-/g, " ");

/** An LED in words: what it lies under (its accessible name, with its colour in words once painted). */
function ledWhat(p, caption) {
  const named = p.role === "connection" ? String(p.name).split("|").map(placeName).join(" – ")
    : p.role === "location" ? placeName(p.name) : p.role === "mat" ? monsterName(p.name)
    : p.role === "seat" ? String(Number(p.name) + 1) : String(caption(p));
  return `${ROLE_WORDS[p.role] || "LED"} ${named}`;
}

/** A colour in words (the Okabe–Ito names of docs/leds.md where they fit): never colour alone. */
export function colourWords([r, g, b]) {
  const top = Math.max(r, g, b);
  if (!top) return "off";
  const low = Math.min(r, g, b);
  const strength = top < 90 ? "dim" : "bright";
  if ((top - low) / top < 0.2) return `${strength} white`;
  const d = top - low;
  let hue = top === r ? ((g - b) / d) % 6 : top === g ? (b - r) / d + 2 : (r - g) / d + 4;
  hue = (hue * 60 + 360) % 360;
  const name = hue < 15 ? "red" : hue < 30 ? "vermillion" : hue < 50 ? "orange" : hue < 70 ? "yellow" : hue < 170 ? "green"
    : hue < 215 ? "sky blue" : hue < 260 ? "blue" : hue < 330 ? "purple" : "red";
  return `${strength} ${name}`;
}

// -- the LEDs in words: the lit ones grouped by colour, under the board (opened on demand) ---------------------
let wordsOpen = false; // the list stays open across redraws until closed

/** "bright orange: LED under Vallaki, LED under Krezk" lines for the LEDs lit in `frame`. */
function ledWordLines(overlay, frame) {
  const byColour = new Map();
  for (const p of overlay.positions) {
    const at = 3 * p.index;
    const rgb = frame && at + 2 < frame.length ? [frame[at], frame[at + 1], frame[at + 2]] : [0, 0, 0];
    const colour = colourWords(rgb);
    if (colour === "off") continue;
    if (!byColour.has(colour)) byColour.set(colour, []);
    byColour.get(colour).push(ledWhat(p, (q) => q.name));
  }
  return [...byColour].map(([colour, leds]) => `${colour}: ${leds.join(", ")}`);
}

function fillWords(list, overlay, frame) {
  const lines = ledWordLines(overlay, frame);
  clear(list).append(...(lines.length ? lines.map((line) => h("li", { "data-testid": "led-words-line" }, line))
    : [h("li", { class: "subtle" }, "Every LED is off.")]));
}

/** The LEDs in words (for a screen reader, or anyone who cannot tell the colours apart). */
function ledWordsPanel(app) {
  const list = h("ul", { id: "led-words-list", class: "led-words-list" });
  if (wordsOpen) fillWords(list, app.leds.overlay, app.leds.frame);
  const told = (open) => { wordsOpen = open; if (open) fillWords(list, app.leds.overlay, app.leds.frame); };
  return keptDetails({ class: "led-words", "data-testid": "led-words" }, wordsOpen, told, "The LEDs in words", list);
}

/** Paint `frame` on a layer made by ledLayer; only the dots that changed are touched. */
export function paintLeds(layer, frame) {
  if (!layer || !layer.dots) return;
  const before = layer.painted;
  let lit = 0;
  for (const dot of layer.dots) {
    const at = 3 * Number(dot.dataset.index);
    const rgb = frame && at + 2 < frame.length ? [frame[at], frame[at + 1], frame[at + 2]] : [0, 0, 0];
    if (rgb[0] || rgb[1] || rgb[2]) lit += 1;
    const same = before && at + 2 < before.length && before[at] === rgb[0] && before[at + 1] === rgb[1] && before[at + 2] === rgb[2];
    if (!same) paintDot(dot, rgb);
  }
  layer.painted = frame;
  layer.dataset.lit = String(lit);
  const words = wordsOpen && layer.overlay ? document.getElementById("led-words-list") : null;
  if (words) fillWords(words, layer.overlay, frame);
}

/** The hue at full strength; the level (how bright the LED is) becomes opacity,
 *  so a 4 % glow, a 30 % trail and a full destination read apart on a dark board. */
function paintDot(dot, [r, g, b]) {
  const top = Math.max(r, g, b);
  dot.dataset.rgb = `${r},${g},${b}`;
  dot.dataset.lit = top ? "yes" : "no";
  dot.setAttribute("aria-label", `${dot.dataset.what}: ${colourWords([r, g, b])}`);
  if (!top) return;
  const hue = `rgb(${Math.round((r * 255) / top)},${Math.round((g * 255) / top)},${Math.round((b * 255) / top)})`;
  const level = Math.sqrt(top / 255);
  const [halo, core] = dot.children;
  halo.setAttribute(halo.dataset.paint, hue);
  halo.setAttribute("opacity", (0.1 + 0.45 * level).toFixed(2));
  core.setAttribute(core.dataset.paint, hue);
  core.setAttribute("opacity", (0.2 + 0.8 * level).toFixed(2));
}

/** The words for the LEDs' health ("" when all is well). */
export function healthWords(health) {
  if (!health) return "";
  if (health.state === "disabled") return `LED strip off: ${health.reason}`;
  if (health.state === "failed") return `LED strip stopped: ${health.reason}`;
  return "";
}

/** Above the board: show or hide the LEDs, and a word when the strip is not working. */
export function ledTools(app) {
  const overlay = app.leds.overlay;
  if (!overlay) return null;
  if (app.names && typeof app.names.place === "function") placeName = (id) => app.names.place(id);
  if (app.names && typeof app.names.monster === "function") monsterName = (id) => app.names.monster(id);
  const hidden = ledsHidden();
  const trouble = healthWords(overlay.health);
  return h("div", { class: "board-tools" },
    h("button", { class: "btn btn-small", type: "button", "data-testid": "leds-toggle", "aria-pressed": hidden ? "false" : "true",
                  title: "Show what the LEDs under the board show", onclick: () => { setLedsHidden(!hidden); app.render(); } },
      h("span", { class: "led-icon", "aria-hidden": "true" }), hidden ? "LEDs hidden" : "LEDs shown"),
    trouble ? h("span", { class: "subtle", "data-testid": "leds-health", "data-state": overlay.health.state }, trouble) : null,
    h("span", { class: "hint", id: "leds-calibrating", "data-testid": "leds-calibrating", hidden: !app.leds.calibrating },
      "LED setup is lighting one LED at a time; the LEDs show the game again when it stops."),
    hidden ? null : ledWordsPanel(app));
}

/** Say on the game screen when LED setup (on some tablet) holds the LEDs; updated in place with each frame. */
export function showCalibrating(calibrating) {
  const note = document.getElementById("leds-calibrating");
  if (note) note.hidden = !calibrating;
}
