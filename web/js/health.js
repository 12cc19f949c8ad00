// Box health (#/health): the box has no screen, so this is where it says
// which part is working and which is not, and why: the LED strip, the dice
// camera, the buttons, the network name, the storage, the start mode (safe
// mode), the versions installed and the recent warnings and errors. It also
// downloads a diagnostics file for a bug report, downloads a backup (games,
// calibrations, settings) and restores one. Refreshed every few seconds while
// shown. The data: the `health` event (or GET /api/health); the files: GET
// /api/diagnostics, GET /api/backup, POST /api/backup/restore.

import { h } from "./dom.js";
import { authHeaders, sentence } from "./connection.js";

const REFRESH_MS = 5000;
const PART_ORDER = ["storage", "leds", "camera", "buttons", "discovery", "disk", "board", "server", "events"];
const PART_TITLES = { leds: "LED strip", camera: "Dice camera", buttons: "Buttons on the box", discovery: "Network name (discovery)",
                      disk: "Free space on the card", pairing: "Pairing", storage: "Saving games",
                      board: "Game on the board", server: "Connections", events: "Requests from the tablets" };
const BAD = new Set(["failed", "disabled", "low", "lost", "error", "broken", "read-only", "damaged", "set-aside"]);
const GOOD = new Set(["ok", "running", "ready", "connected"]);
// Keys shown on their own (the state word, its reason) or not at all.
const SHOWN_APART = new Set(["state", "reason", "message"]);

function fresh() {
  return { view: null, shape: "", error: "", timer: null, busy: null, restore: null, loading: false };
}

/** Entering the screen: fetch the health now, then every few seconds. */
export function startHealth(app) {
  if (!app.health) app.health = fresh();
  const state = app.health;
  if (!state.timer) state.timer = setInterval(() => refresh(app, state), REFRESH_MS);
  refresh(app, state);
}

export function stopHealth(app) {
  if (app.health) clearInterval(app.health.timer);
  app.health = null;
}

/** The health view: over the connection if it is up, else over HTTP. */
async function fetchView(app) {
  if (app.conn.connected) {
    const reply = await app.conn.request("health", {});
    if (reply.ok) return reply;
  }
  const response = await fetch("/api/health", { headers: authHeaders(), cache: "no-store" });
  if (!response.ok) throw new Error(`the box answered ${response.status}`);
  return response.json();
}

async function refresh(app, state, { always = false } = {}) {
  if (state.loading) return;
  state.loading = true;
  let view = null;
  let error = "";
  try {
    view = await fetchView(app);
  } catch (problem) {
    error = `Could not read the box's health (${problem.message || problem}). It tries again in a few seconds.`;
  }
  state.loading = false;
  if (app.health !== state) return;
  if (view) {
    const shape = JSON.stringify({ ...view, at: null, ok: null }); // the same apart from the time: no redraw
    const changed = shape !== state.shape || state.error;
    state.view = view;
    state.shape = shape;
    state.error = "";
    if (changed || always) app.render();
    else paintCheckedAt(app, view);
  } else if (error !== state.error) {
    state.error = error;
    app.render();
  }
}

function paintCheckedAt(app, view) {
  const el = app.screen.querySelector("[data-testid=health-checked]");
  if (el) el.textContent = checkedText(view);
}

function checkedText(view) {
  return `Checked at ${time(view.at)}. This page checks again every ${REFRESH_MS / 1000} s.`;
}

function time(seconds) {
  if (typeof seconds !== "number") return "";
  const date = new Date(seconds * 1000);
  const today = new Date().toDateString() === date.toDateString();
  return today ? date.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" })
    : date.toLocaleString(undefined, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

// -- words -----------------------------------------------------------------------------------------
function title(key) {
  return PART_TITLES[key] || humanKey(key);
}

function humanKey(key) {
  const words = String(key).replace(/_/g, " ").trim();
  return words ? words[0].toUpperCase() + words.slice(1) : String(key);
}

function tone(stateWord) {
  if (BAD.has(stateWord)) return "bad";
  if (GOOD.has(stateWord)) return "good";
  return "neutral";
}

function value(key, raw) {
  if (raw === null || raw === undefined || raw === "") return "—";
  if (typeof raw === "boolean") return raw ? "yes" : "no";
  if (typeof raw === "number" && /_mb$/.test(key)) return `${raw.toLocaleString()} MB`;
  if (typeof raw === "number" && /(^at$|_at$|since|^when$|time$|^last)/.test(key) && raw > 1e9 && raw < 1e11) return time(raw);
  if (Array.isArray(raw)) return raw.length ? raw.map((item) => (typeof item === "object" ? JSON.stringify(item) : String(item))).join(", ") : "none";
  if (typeof raw === "object") {
    const entries = Object.entries(raw);
    return entries.length ? entries.map(([k, v]) => `${humanKey(k)}: ${value(k, v)}`).join("; ") : "none";
  }
  return String(raw);
}

function label(key) {
  if (key === "free_mb") return "Free space";
  if (key === "total_mb") return "Size";
  return humanKey(key.replace(/_mb$/, ""));
}

/** Every other key of a part, as label and value. */
function details(part, skip = SHOWN_APART) {
  const entries = Object.entries(part || {}).filter(([key]) => !skip.has(key));
  if (!entries.length) return null;
  return h("dl", { class: "facts" }, entries.map(([key, raw]) => [h("dt", {}, label(key)), h("dd", { "data-key": key }, value(key, raw))]));
}

// -- the parts ------------------------------------------------------------------------------------
function overallPanel(view) {
  const start = view.start || {};
  const parts = view.parts || {};
  const troubled = Object.entries(parts).filter(([, part]) => part && BAD.has(part.state));
  let headline;
  let text;
  if (view.overall === "ok") {
    headline = "Everything is working";
    text = "No part of the box needs attention.";
  } else if (view.overall === "safe-mode") {
    headline = "Safe mode";
    text = `The box started without its LEDs, camera and buttons, because: ${sentence(start.reason || "no reason was given")} `
      + "It tries them again at its next start.";
  } else if (view.overall === "degraded") {
    headline = "Something needs attention";
    text = troubled.length ? `Check: ${troubled.map(([key, part]) => `${title(key)} (${part.state})`).join(", ")}.`
      : "One part of the box is not working as it should.";
  } else {
    headline = humanKey(view.overall || "unknown");
    text = "";
  }
  const startExtra = details(start, new Set(["safe", "reason"]));
  return h("section", { class: `panel health-overall health-${view.overall}`, "data-testid": "health-overall", "data-overall": view.overall || "" },
    h("h2", { class: "overall-word" }, headline),
    text ? h("p", { "data-testid": "health-overall-text" }, text) : null,
    view.overall !== "safe-mode" ? h("p", { class: "subtle", "data-testid": "health-start", "data-safe": start.safe ? "yes" : "no" },
      start.safe ? `Started in safe mode: ${sentence(start.reason)}` : "The box started normally.") : null,
    startExtra,
    h("p", { class: "subtle", "data-testid": "health-checked" }, checkedText(view)));
}

function partCard(key, part) {
  const stateWord = String(part && part.state !== undefined ? part.state : "unknown");
  const why = part && (part.reason || part.message);
  return h("article", { class: `health-card tone-${tone(stateWord)}`, "data-testid": "health-part", "data-part": key, "data-state": stateWord },
    h("header", { class: "health-card-head" },
      h("h3", {}, title(key)),
      h("span", { class: `state-word tone-${tone(stateWord)}`, "data-testid": "part-state" }, stateWord === "ok" ? "OK" : humanKey(stateWord))),
    why ? h("p", { class: "health-reason", "data-testid": "part-reason" }, sentence(why)) : null,
    part && part.reason && part.message && part.message !== part.reason ? h("p", { class: "subtle" }, sentence(part.message)) : null,
    details(part));
}

function partsPanel(view) {
  const parts = view.parts || {};
  const keys = [...PART_ORDER.filter((key) => key in parts), ...Object.keys(parts).filter((key) => !PART_ORDER.includes(key)).sort()];
  return h("section", { class: "panel" },
    h("h2", {}, "The parts of the box"),
    h("div", { class: "health-cards", "data-testid": "health-parts" }, keys.map((key) => partCard(key, parts[key]))));
}

function versionsPanel(view) {
  const versions = view.versions || {};
  return h("section", { class: "panel" },
    h("h2", {}, "Versions"),
    Object.keys(versions).length
      ? h("dl", { class: "facts", "data-testid": "health-versions" },
          Object.entries(versions).map(([name, version]) => [h("dt", {}, name), h("dd", { "data-testid": "version", "data-package": name }, String(version))]))
      : h("p", { class: "subtle" }, "The box did not list any versions."));
}

function errorsPanel(view) {
  const errors = [...(view.errors || [])].sort((a, b) => (b.at || 0) - (a.at || 0));
  return h("section", { class: "panel" },
    h("h2", {}, "Recent warnings and errors"),
    errors.length
      ? h("ol", { class: "health-errors", "data-testid": "health-errors", "data-count": errors.length },
          errors.map((error) => h("li", { class: `health-error level-${String(error.level || "").toLowerCase()}`, "data-testid": "health-error",
                                          "data-level": error.level || "" },
            h("span", { class: "error-when" }, time(error.at)),
            h("span", { class: "error-level" }, error.level || ""),
            error.where ? h("span", { class: "error-where" }, error.where) : null,
            h("span", { class: "error-message" }, error.message || ""),
            error.error ? h("span", { class: "error-cause", "data-testid": "health-error-cause" }, error.error) : null,
            error.repeated > 1 ? h("span", { class: "error-repeated" }, `×${error.repeated}`) : null)))
      : h("p", { class: "subtle", "data-testid": "health-errors", "data-count": 0 }, "None since the box started."));
}

// -- files: diagnostics, backup, restore ----------------------------------------------------------
function fileName(response, fallback) {
  const disposition = response.headers.get("Content-Disposition") || "";
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
  return match ? decodeURIComponent(match[1]) : fallback;
}

/** A refusal from an HTTP request, in words (and the pairing banner if that is why). */
async function refusal(app, response) {
  let error = null;
  try {
    const body = await response.json();
    error = body && body.error;
  } catch {
    error = null;
  }
  if (error && error.code === "not-paired") {
    app.notPaired(error.message); // the pairing banner says it all
    return { message: "", problems: [] };
  }
  return { message: error ? sentence(error.message) : `The box refused (HTTP ${response.status}).`, problems: (error && error.problems) || [] };
}

async function download(app, what, url, fallbackName) {
  const state = app.health;
  if (state.busy) return;
  state.busy = what;
  app.render();
  try {
    const response = await fetch(url, { headers: authHeaders(), cache: "no-store" });
    if (!response.ok) {
      const { message } = await refusal(app, response);
      if (message) app.showBanner("error", message);
      return;
    }
    const blob = await response.blob();
    const href = URL.createObjectURL(blob);
    const link = h("a", { href, download: fileName(response, fallbackName), hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(href), 60_000);
  } catch {
    app.showBanner("error", "Could not reach the box to download the file. Check the connection and try again.");
  } finally {
    if (app.health === state) { state.busy = null; app.render(); }
  }
}

async function restoreBackup(app, input) {
  const state = app.health;
  const file = input.files && input.files[0];
  input.value = "";
  if (!file || state.busy) return;
  state.busy = "restore";
  state.restore = null;
  app.render();
  let result;
  try {
    const response = await fetch("/api/backup/restore", { method: "POST", headers: authHeaders({ "Content-Type": "application/zip" }), body: file });
    let reply = null;
    try {
      reply = await response.clone().json();
    } catch {
      reply = null;
    }
    if (reply && reply.ok) {
      result = { ok: true, file: file.name, restored: reply.restored || {}, notes: reply.notes || [] };
    } else if (reply && reply.error) {
      if (reply.error.code === "not-paired") app.notPaired(reply.error.message);
      result = { ok: false, file: file.name, message: sentence(reply.error.message), problems: reply.error.problems || [] };
    } else {
      result = { ok: false, file: file.name, message: `The box refused the file (HTTP ${response.status}).`, problems: [] };
    }
  } catch {
    result = { ok: false, file: file.name, message: "Could not reach the box to send the backup. Check the connection and try again.", problems: [] };
  }
  if (app.health !== state) return;
  state.busy = null;
  state.restore = result;
  app.render();
  if (result.ok) app.games = null; // the games screen fetches the list afresh
}

function plural(count, one, many) {
  return `${count} ${count === 1 ? one : many}`;
}

function restoreResult(result) {
  if (!result) return null;
  if (!result.ok) {
    return h("div", { class: "restore-result note note-error", "data-testid": "restore-result", "data-ok": "no", role: "alert" },
      h("p", {}, `“${result.file}” was not restored. ${result.message}`),
      result.problems.length ? h("ul", { class: "cal-problems" }, result.problems.map((problem) => h("li", { "data-testid": "restore-problem" }, problem))) : null);
  }
  const restored = result.restored;
  const games = Number(restored.games || 0);
  const skipped = Number(restored.skipped || 0);
  const calibration = restored.calibration || [];
  const lines = [`${plural(games, "game", "games")} added.`];
  if (skipped) lines.push(`${plural(skipped, "game was", "games were")} already on the box and kept as they are.`);
  lines.push(calibration.length ? `Calibration put back: ${calibration.join(", ")}.` : "No calibration in the backup.");
  const others = Object.entries(restored).filter(([key]) => !["games", "skipped", "calibration"].includes(key));
  for (const [key, raw] of others) lines.push(`${humanKey(key)}: ${value(key, raw)}.`);
  return h("div", { class: "restore-result note note-info", "data-testid": "restore-result", "data-ok": "yes",
                    "data-games": games, "data-skipped": skipped, role: "status" },
    h("p", {}, h("strong", {}, `Restored from “${result.file}”.`)),
    lines.map((line) => h("p", {}, line)),
    result.notes.length ? h("ul", {}, result.notes.map((text) => h("li", { "data-testid": "restore-note" }, text))) : null);
}

function toolsPanel(app) {
  const state = app.health;
  const busy = state.busy;
  const input = h("input", { type: "file", accept: ".zip,application/zip", class: "visually-hidden", id: "backup-restore-input",
                             "data-testid": "backup-restore-input", onchange: (e) => restoreBackup(app, e.target) });
  return h("section", { class: "panel" },
    h("h2", {}, "Files"),
    h("div", { class: "tool-rows" },
      h("div", { class: "tool-row" },
        h("button", { class: "btn btn-huge", type: "button", "data-testid": "diagnostics-download", disabled: Boolean(busy),
                      onclick: () => download(app, "diagnostics", "/api/diagnostics", "companion-diagnostics.zip") },
          busy === "diagnostics" ? "Preparing…" : "Download diagnostics"),
        h("p", { class: "subtle" }, "A file to attach to a bug report: this page, the recent errors and the settings. It holds no games and no pairings.")),
      h("div", { class: "tool-row" },
        h("button", { class: "btn btn-huge", type: "button", "data-testid": "backup-download", disabled: Boolean(busy),
                      onclick: () => download(app, "backup", "/api/backup", "companion-backup.zip") },
          busy === "backup" ? "Preparing…" : "Download backup"),
        h("p", { class: "subtle" }, "Every game, the LED and dice calibration and the settings, in one file to keep somewhere safe.")),
      h("div", { class: "tool-row" },
        h("label", { class: `btn btn-huge${busy ? " is-disabled" : ""}`, for: "backup-restore-input", "data-testid": "backup-restore",
                     "aria-disabled": busy ? "true" : "false", onclick: (e) => { if (app.health && app.health.busy) e.preventDefault(); } }, busy === "restore" ? "Restoring…" : "Restore from a backup"), input,
        h("p", { class: "subtle" }, "Pick a backup file. Games the box does not have are added; games it already has are kept as they are."))),
    restoreResult(state.restore));
}

export function renderHealth(app) {
  if (!app.health) app.health = fresh();
  const state = app.health;
  const head = h("header", { class: "page-head" },
    h("button", { class: "btn", type: "button", "data-testid": "back-to-games", onclick: () => app.go("#/") }, "◀ Games"),
    h("h1", {}, "Box health"),
    h("button", { class: "btn", type: "button", "data-testid": "health-refresh", onclick: () => refresh(app, state, { always: true }) }, "Refresh"),
    app.connectionPill());
  const view = state.view;
  return h("div", { class: "page health-page", "data-testid": "screen-health" },
    head,
    state.error ? h("p", { class: "note note-error", "data-testid": "health-error-note", role: "alert" }, state.error) : null,
    view ? [overallPanel(view), partsPanel(view)] : h("p", { "data-testid": "health-loading" }, "Asking the box how it is…"),
    toolsPanel(app),
    view ? [errorsPanel(view), versionsPanel(view)] : null);
}
