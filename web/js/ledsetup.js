// LED setup (#/leds): find out which LED sits under which part of the board.
// One LED lights at a time, on the strip and on the picture here; the owner
// taps where it shines on the board picture (a location or a point along a
// road), or a button for a Terror step, a monster mat or a seat, or skips it.
// The companion saves every answer as it goes, so leaving this screen (or a
// dropped connection) resumes at the same LED; Finish saves the layout and
// the LEDs use it at once. Export and restore keep a backup of the layout.
// The events are in docs/leds.md ("Calibration API").

import { h, s } from "./dom.js";
import { healthWords } from "./leds.js";

function fresh(reply) {
  return { view: reply.calibration, targets: reply.targets, answered: null, problems: [], busy: false, confirmFinish: false };
}

/**
 * The board as the owner's game data has it (their positions, roads and board
 * photo, as in the board editor), so LEDs and locations are seen in one picture.
 */
async function loadBoardData(app) {
  const game = app.leds.overlay && app.leds.overlay.board;
  if (!game) return;
  const reply = await app.conn.request("data_get", { game });
  if (app.route.name !== "leds" || !reply.ok || !reply.files || !reply.files["board.json"]) return;
  const board = reply.files["board.json"];
  app.ledBoard = {
    locations: board.locations.map(({ id, name, number, x, y, area }) => ({ id, name, number, x, y, area })),
    connections: board.connections.map((c) => [...c.between]),
    photo: reply.photo ? `/api/data/${encodeURIComponent(game)}/photo?v=${Date.now()}` : null,
  };
  app.render();
}

/** The pack to draw: the shipped one, with the owner's board when it has been read. */
function boardPack(app, pack) {
  if (!pack || !app.ledBoard) return pack;
  return { ...pack, board: { ...pack.board, locations: app.ledBoard.locations, connections: app.ledBoard.connections } };
}

/** Entering the screen (or back after a drop): start or resume the calibration. */
export async function startCalibration(app) {
  if (!app.conn.connected) return;
  loadBoardData(app);
  const reply = await app.conn.request("leds_calibration_start", {});
  if (app.route.name !== "leds") {
    if (reply.ok) app.conn.request("leds_calibration_cancel", {}); // left while it started: the LEDs go back to the game
    return;
  }
  if (!reply.ok) {
    app.ledRefused = reply.error.message;
    app.showBanner("error", reply.error.message);
    app.render();
    return;
  }
  app.ledRefused = null;
  app.leds.overlay = reply.leds; // the frame lighting this LED may have come first: it is kept
  if (!app.ledBoard) loadBoardData(app); // the owner's board of the game the LEDs lie under
  app.calibration = fresh(reply);
  if (reply.note) app.showBanner("info", reply.note);
  app.render();
}

/** Leaving the screen: this tablet stops; the progress stays saved. */
export function stopCalibration(app) {
  app.calibration = null;
  app.conn.request("leds_calibration_cancel", {});
}

/** One request at a time; a refusal is shown with every problem it lists. */
async function send(app, event, payload = {}) {
  const cal = app.calibration;
  if (!cal || cal.busy) return null;
  cal.busy = true;
  const reply = await app.conn.request(event, payload);
  cal.busy = false;
  if (app.calibration !== cal) return null;
  if (!reply.ok) {
    app.showBanner("error", reply.error.message);
    cal.problems = reply.error.problems || [];
    app.render();
    return null;
  }
  app.clearBanner("error");
  cal.problems = [];
  cal.confirmFinish = false;
  if (reply.calibration) cal.view = reply.calibration;
  cal.answered = reply.answered || null;
  app.render();
  return reply;
}

export function targetWords(names, target) {
  if (!target || target === "open") return "not answered yet";
  if (target.kind === "location") return names.place(target.name);
  if (target.kind === "connection") {
    return `the road ${names.place(target.name)} – ${names.place(target.to)}, ${Math.round(target.at * 100)} % of the way`;
  }
  if (target.kind === "terror") return `Terror step ${target.step}`;
  if (target.kind === "mat") return `${names.monster(target.name)}'s mat`;
  if (target.kind === "seat") return `seat ${target.step + 1}`;
  return target.kind;
}

async function finish(app) {
  const cal = app.calibration;
  if (!cal.view.done && !cal.confirmFinish) {
    cal.confirmFinish = true;
    app.render();
    return;
  }
  const reply = await send(app, "leds_calibration_finish");
  if (!reply) return;
  const placed = new Set(allLeds(reply.layout)).size;
  app.showBanner("info", `Saved: the LEDs now use your layout (${placed} LED${placed === 1 ? "" : "s"} placed).`, { keep: true });
  app.go("#/");
}

/** Every LED index a layout places. */
function allLeds(layout) {
  const groups = [...Object.values(layout.locations || {}), ...(layout.connections || []).map((c) => c.leds),
                  ...(layout.terror || []), ...Object.values(layout.mats || {}), ...(layout.seats || [])];
  return groups.flat();
}

async function restoreFile(app, input) {
  const file = input.files && input.files[0];
  input.value = "";
  if (!file) return;
  let layout;
  try {
    layout = JSON.parse(await file.text());
  } catch {
    app.showBanner("error", `“${file.name}” is not a layout file (it is not JSON).`);
    return;
  }
  const reply = await send(app, "leds_layout_restore", { layout });
  if (reply) app.showBanner("info", `Restored “${file.name}”: the LEDs use it now.`);
}

// -- the screen --------------------------------------------------------------------------------------
function statusPanel(app, names) {
  const { view, answered } = app.calibration;
  const left = view.count - view.answered - view.skipped;
  return h("section", { class: "panel cal-status", "data-testid": "cal-status", "data-index": view.index ?? "", "data-done": view.done ? "yes" : "no",
                        "data-answered": view.answered, "data-skipped": view.skipped },
    h("h2", {}, view.index === null ? "Every LED has an answer" : `LED ${view.index} is lit`),
    h("p", { class: "subtle" }, view.index === null
      ? "Check the problems below, if any, then finish to save the layout. Go to an LED to change its answer."
      : "Find the lit LED under the board and tap where it shines on the picture. Not on the picture? Use the buttons below it. Hidden or spare? Skip it."),
    h("p", { "data-testid": "cal-progress" }, `${view.answered} placed · ${view.skipped} skipped · ${left} to go, of ${view.count}`),
    answered ? h("p", { class: "hint", "data-testid": "cal-answered", "data-index": answered.index },
      `LED ${answered.index}: ${answered.target ? targetWords(names, answered.target) : "skipped"}`) : null,
    view.index !== null && view.current !== "open" ? h("p", { "data-testid": "cal-current" },
      `LED ${view.index} was answered before: ${targetWords(names, view.current)}. Tap again to change it.`) : null,
    view.problems.length ? problemList(view.problems) : null);
}

function problemList(problems) {
  return h("ul", { class: "cal-problems", "data-testid": "cal-problems" },
    problems.map((problem) => h("li", { "data-testid": "cal-problem" }, problem)));
}

/** A ring where the LED being asked about was answered (when going back over answers). */
function currentMark(xy, pack, current) {
  if (!current || current === "open" || !xy) return null;
  const at = (id) => pack.board.locations.find((l) => l.id === id);
  let point = null;
  if (current.kind === "location" && at(current.name)) point = xy(at(current.name));
  if (current.kind === "connection" && at(current.name) && at(current.to)) {
    const [ax, ay] = xy(at(current.name));
    const [bx, by] = xy(at(current.to));
    point = [ax + (bx - ax) * current.at, ay + (by - ay) * current.at];
  }
  return point ? s("circle", { cx: point[0], cy: point[1], r: 30, class: "cal-mark", "data-testid": "cal-mark" }) : null;
}

function offBoard(app, names) {
  const { targets } = app.calibration;
  const answer = (target) => send(app, "leds_calibration_answer", { target });
  const steps = [];
  for (let step = 0; step <= targets.terror_max; step += 1) steps.push(step);
  const seats = [];
  for (let seat = 0; seat < targets.seats; seat += 1) seats.push(seat);
  return h("section", { class: "panel cal-off" },
    h("h3", {}, "Terror track"),
    h("div", { class: "cal-buttons" }, steps.map((step) =>
      h("button", { class: "btn", type: "button", "data-testid": "cal-terror", "data-step": step,
                    onclick: () => answer({ kind: "terror", step }) }, String(step)))),
    h("h3", {}, "Monster mats"),
    h("div", { class: "cal-buttons" }, targets.mats.map((name) =>
      h("button", { class: "btn", type: "button", "data-testid": "cal-mat", "data-name": name,
                    onclick: () => answer({ kind: "mat", name }) }, names.monster(name)))),
    h("h3", {}, "Seats (clockwise from the first player)"),
    h("div", { class: "cal-buttons" }, seats.map((step) =>
      h("button", { class: "btn", type: "button", "data-testid": "cal-seat", "data-step": step,
                    onclick: () => answer({ kind: "seat", step }) }, `Seat ${step + 1}`))));
}

function controls(app) {
  const { view, confirmFinish } = app.calibration;
  const open = view.count - view.answered - view.skipped;
  const gotoField = h("input", { class: "text-input cal-goto-input", type: "number", min: 0, max: view.count - 1, inputmode: "numeric",
                                 "data-testid": "cal-goto-input", "aria-label": "LED number", placeholder: "LED no." });
  const go = () => {
    const index = Number(gotoField.value);
    if (gotoField.value !== "" && Number.isInteger(index)) send(app, "leds_calibration_goto", { index });
  };
  return h("section", { class: "panel cal-controls" },
    h("div", { class: "cal-buttons" },
      h("button", { class: "btn btn-huge", type: "button", "data-testid": "cal-skip", disabled: view.index === null,
                    onclick: () => send(app, "leds_calibration_skip") }, "Skip this LED"),
      h("button", { class: "btn btn-huge", type: "button", "data-testid": "cal-back",
                    onclick: () => send(app, "leds_calibration_back") }, "◀ Back one"),
      h("span", { class: "cal-goto" }, gotoField,
        h("button", { class: "btn", type: "button", "data-testid": "cal-goto", onclick: go }, "Go to LED"))),
    h("div", { class: "cal-buttons" },
      h("button", { class: `btn btn-huge${view.done ? " btn-primary" : confirmFinish ? " btn-warn" : ""}`, type: "button",
                    "data-testid": "cal-finish", "data-confirm": confirmFinish ? "yes" : "no", onclick: () => finish(app) },
        view.done ? "Finish and save the layout"
          : confirmFinish ? `${open} LED${open === 1 ? " has" : "s have"} no answer and will stay dark: tap again to save`
          : "Finish now"),
      h("button", { class: "btn btn-huge", type: "button", "data-testid": "cal-stop", onclick: () => {
        app.showBanner("info", "LED setup stopped for now: your answers are kept and it goes on from here next time.", { keep: true });
        app.go("#/");
      } }, "Stop for now")));
}

function layoutPanel(app) {
  const overlay = app.leds.overlay;
  const fileInput = h("input", { type: "file", accept: ".json,application/json", class: "visually-hidden", id: "leds-restore-file",
                                 "data-testid": "leds-restore-file", onchange: (e) => restoreFile(app, e.target) });
  const trouble = healthWords(overlay.health);
  return h("section", { class: "panel cal-layout" },
    h("h2", {}, "The layout in use"),
    h("p", { "data-testid": "leds-layout-summary", "data-placed": overlay.positions.length, "data-count": overlay.count },
      `${overlay.positions.length} of ${overlay.count} LEDs have a place on the board.`),
    h("p", { class: "subtle", "data-testid": "leds-health", "data-state": overlay.health.state },
      trouble || `LED strip: ${overlay.health.backend} (${overlay.health.state === "off" ? "none fitted" : "working"}).`),
    h("div", { class: "cal-buttons" },
      h("a", { class: "btn", "data-testid": "leds-export", href: "/api/leds/layout", download: `leds-${overlay.board}.json` }, "Export the layout"),
      h("label", { class: "btn", for: "leds-restore-file", "data-testid": "leds-restore" }, "Restore a layout file"), fileInput),
    app.calibration.problems.length ? [h("p", { class: "hint" }, "Refused, because:"), problemList(app.calibration.problems)] : null);
}

/** The board of the game the LEDs lie under: drawn by that game's pack module. */
function ledBoardModule(app) {
  const game = app.leds.overlay && app.leds.overlay.board;
  const module = game && app.packModules[game];
  if (game && !module) {
    app.loadPackModule(game).then(() => { if (app.route.name === "leds") app.render(); },
                                  (e) => app.showBanner("error", String(e.message || e)));
  }
  return module && module.ledBoard ? { game, ...module.ledBoard } : null;
}

export function renderLedSetup(app) {
  const head = h("header", { class: "page-head" },
    h("button", { class: "btn", type: "button", "data-testid": "back-to-games", onclick: () => app.go("#/") }, "◀ Games"),
    h("h1", {}, "LED setup"), app.connectionPill());
  const drawing = ledBoardModule(app);
  if (drawing && app.packCaches[drawing.game] && !app.ledBoard && app.ledBoard !== undefined && app.conn.connected) {
    app.ledBoard = undefined; // read again after a data save (main.js sets it to null)
    loadBoardData(app);
  }
  const pack = drawing ? boardPack(app, app.packCaches[drawing.game]) : null;
  if (!pack || !app.calibration) {
    if (drawing && !app.packCaches[drawing.game]) {
      app.loadPack(drawing.game).then(() => { if (app.route.name === "leds") app.render(); },
                                      (e) => app.showBanner("error", String(e.message || e)));
    }
    const words = app.ledRefused ? `LED setup cannot start: ${app.ledRefused}` : "Lighting the first LED…";
    return h("div", { class: "page", "data-testid": "screen-leds-loading" }, head, h("p", {}, words));
  }
  const names = drawing.names(pack);
  const { view } = app.calibration;
  // The companion places the LEDs and reads taps on the owner's board, as drawn here.
  const board = drawing.setupBoard(pack, names, app.leds.overlay, app.leds.frame,
                                   (point) => { if (view.index !== null) send(app, "leds_calibration_tap", point); },
                                   app.ledBoard ? app.ledBoard.photo : null);
  const mark = currentMark(drawing.xy, pack, view.current);
  if (mark) board.insertBefore(mark, board.querySelector("#led-layer"));
  return h("div", { class: "page cal-page", "data-testid": "screen-leds" },
    head,
    h("div", { class: "cal-body" },
      h("div", { class: "cal-side" }, statusPanel(app, names), controls(app), offBoard(app, names)),
      h("div", { class: "cal-main" },
        h("section", { class: "panel board-panel" }, h("div", { class: "board-scroll" }, board)),
        layoutPanel(app))));
}
