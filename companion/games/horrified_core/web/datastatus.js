// The owner's game data (#/data): how much of it is from the rulebook, confirmed
// by the owner or still our guess, with a Confirm toggle per element; download
// and import of the data file. This module also keeps the data the editors share
// (app.data): the saved owner-data document, a working copy edited by the board
// editor and the card library until it is saved, the shipped pack files (to draw
// the working copy at once) and the live checks of the working copy.
//
// Server events (all for the edition's game): data_get, data_check (never saves),
// data_save (paired tablets), the push `data` after a save; HTTP
// /api/data/<game> (download, import) and its /photo.
//
// The pages are the same for every edition of the family; what differs (the game id,
// the values the owner confirms whole, the tabs, the words) is the edition's, handed
// in once by its pack.js through useEdition. Each pack imports this file under its
// own address (/packs/<game>/family/), so each pack has its own copy of this module
// and of the edition it holds.

import { h } from "/js/dom.js";
import { authHeaders, sentence } from "/js/connection.js";

export const FORMAT = "table-companion.owner-data";
const CHECK_DELAY_MS = 300;
const COLLECTIONS = { board: ["locations"], villagers: ["villagers"], monsters: ["monsters"], heroes: ["heroes"],
                      items: ["items"], perks: ["perks"], cards: ["cards"], dice: [] };

const KIND_WORDS = {
  location: "Locations", connection: "Roads between locations", villager: "Villagers", monster: "Monsters",
  hero: "Heroes", item: "Items", perk: "Perk cards", card: "Monster cards", terror_max: "Terror track", monster_die: "Monster die",
};
export const STATE_WORDS = { rulebook: "From the rulebook", confirmed: "Confirmed by you", guess: "Still our guess" };
const KIND_ORDER = ["location", "connection", "villager", "monster", "card", "item", "perk", "hero", "terror_max", "monster_die"];
const TABS = [["", "Status"], ["board", "Board"], ["cards", "Monster cards"], ["items", "Items"], ["perks", "Perks"], ["heroes", "Heroes"]];

/** The edition these pages are for; see useEdition. */
export const edition = {
  game: null, confirmable: ["board.terror_max", "dice.monster_die"], kindWords: KIND_WORDS, kindOrder: KIND_ORDER, tabs: TABS,
  intro: "Make the data match your box here; the Monster Phase uses your data from then on.",
};

/**
 * Name the edition: `game` (its pack id) and, where it differs from the family's, the
 * single values the owner confirms (`confirmable`, "file.key"), extra words for the
 * status page's kinds (`kindWords`), the data tabs (`tabs`, [page, label]) and the
 * status page's opening words (`intro`).
 */
export function useEdition(given) {
  Object.assign(edition, given, { kindWords: { ...KIND_WORDS, ...(given.kindWords || {}) } });
  edition.kindOrder = KIND_ORDER.concat(Object.keys(given.kindWords || {}).filter((k) => !edition.kindOrder.includes(k)));
  return edition;
}

// -- the document ------------------------------------------------------------------------------------------
export function clone(value) { return value === undefined ? undefined : JSON.parse(JSON.stringify(value)); }

export function emptyDoc() {
  return { format: FORMAT, version: 1, game: edition.game, changes: {}, confirmed: [] };
}

/** A document as the editors want it: every part present (no change is lost by a missing object). */
function normal(doc) {
  const out = { ...emptyDoc(), ...clone(doc || {}) };
  out.changes ||= {};
  out.confirmed = Array.isArray(out.confirmed) ? out.confirmed : [];
  return out;
}

/** Drop empty parts so that a document with nothing changed is {changes: {}}. */
export function tidy(doc) {
  const out = clone(doc);
  for (const [stem, change] of Object.entries(out.changes || {})) {
    for (const [key, value] of Object.entries(change)) {
      if (key === "connections") {
        for (const side of ["add", "remove"]) if (Array.isArray(value[side]) && !value[side].length) delete value[side];
        if (!Object.keys(value).length) delete change[key];
      } else if (value && typeof value === "object" && !Array.isArray(value) && !Object.keys(value).length) {
        delete change[key];
      }
    }
    if (!Object.keys(change).length) delete out.changes[stem];
  }
  return out;
}

export function pairKey(a, b) { return [a, b].sort().join("+"); }

/** The two places of an added connection: a pair of ids, or a way's `between`. */
export function addedPair(entry) { return Array.isArray(entry) ? entry : entry.between; }

/** The connection an added entry makes: a road for everyone, or a way with its `kind` and `only` movers. */
function addedWay(entry) {
  if (Array.isArray(entry)) return { between: [...entry], verified: false };
  return { ...clone(entry), between: [...entry.between], verified: false };
}

/** The shipped files with a document applied, as the companion does it (ownerdata.py). */
export function applyDoc(shipped, doc) {
  const files = clone(shipped);
  for (const [stem, change] of Object.entries(doc.changes || {})) {
    const body = files[`${stem}.json`];
    if (!body || !change) continue;
    Object.assign(body, clone(change.set || {}));
    for (const collection of COLLECTIONS[stem] || []) {
      const list = body[collection] || (body[collection] = []);
      for (const [id, patch] of Object.entries(change[collection] || {})) {
        const at = list.findIndex((e) => e.id === id);
        if (patch === null) { if (at >= 0) list.splice(at, 1); }
        else if (at >= 0) Object.assign(list[at], clone(patch));
        else list.push({ id, verified: false, ...clone(patch) });
      }
    }
    if (stem === "board" && change.connections) {
      const removed = new Set((change.connections.remove || []).map(([a, b]) => pairKey(a, b)));
      body.connections = body.connections.filter((c) => !removed.has(pairKey(...c.between)));
      for (const entry of change.connections.add || []) body.connections.push(addedWay(entry));
    }
  }
  const index = elementIndex(files);
  for (const key of doc.confirmed || []) if (index[key]) index[key].verified = true;
  return files;
}

function elementIndex(files) {
  const index = {};
  for (const [stem, collections] of Object.entries(COLLECTIONS)) {
    const body = files[`${stem}.json`] || {};
    for (const collection of collections) for (const e of body[collection] || []) index[`${stem}.${collection}.${e.id}`] = e;
  }
  for (const c of (files["board.json"] || {}).connections || []) index[`board.connections.${pairKey(...c.between)}`] = c;
  for (const key of edition.confirmable) {
    const [stem, field] = key.split(".");
    const value = files[`${stem}.json`]?.[field];
    if (value && typeof value === "object") index[key] = value;
  }
  return index;
}

/** The ids quoted in problems ('krezk'): the board editor marks those places. */
export function quotedIds(problems) {
  const ids = new Set();
  for (const text of problems || []) for (const m of String(text).matchAll(/'([a-z0-9][a-z0-9-]*)'/g)) ids.add(m[1]);
  return ids;
}

// -- the shared store -----------------------------------------------------------------------------------------
/**
 * Another game's data pages were open: their unsaved working copy is put aside (and
 * comes back when that game's pages are opened again), and this game's is taken out.
 */
function switchGame(app) {
  if (!app.data || app.data.game === edition.game) return;
  const aside = (app.dataAside ||= {});
  if (app.data.game && app.data.dirty) aside[app.data.game] = app.data;
  app.data = aside[edition.game] || null;
  delete aside[edition.game];
}

/** The screens that read the owner's data: the data screens, LED setup, and a game (its draw check). */
const DATA_ROUTES = ["data", "leds", "game"];

/** Entering a data screen (or back after a drop), or a game about to ask about a drawn card: fetch
 * the data; an unsaved working copy is kept. */
export async function startData(app) {
  if (!app.conn.connected) return;
  switchGame(app);
  const keep = app.data && app.data.dirty ? app.data : null;
  if (!app.data) app.data = { loaded: false, game: edition.game };
  const reply = await app.conn.request("data_get", { game: edition.game });
  if (!DATA_ROUTES.includes(app.route.name)) return;
  if (!reply.ok) {
    app.data = { loaded: false, game: edition.game, error: reply.error.message };
    app.render();
    return;
  }
  let shipped = app.data.shipped;
  if (!shipped) {
    const empty = await app.conn.request("data_check", { game: edition.game, data: emptyDoc() });
    shipped = empty.ok && empty.files ? empty.files : null;
  }
  const saved = normal(reply.data);
  app.data = {
    loaded: true, game: edition.game, saved, work: keep ? keep.work : clone(saved), dirty: Boolean(keep), shipped: shipped || reply.files,
    files: reply.files, status: reply.status, problems: reply.problems || [], photo: Boolean(reply.photo), camera: Boolean(reply.camera),
    photoVersion: Date.now(), check: keep ? keep.check : { problems: reply.problems || [], status: reply.status, pending: false },
    saveResult: app.data.saveResult || null, importResult: app.data.importResult || null, ui: app.data.ui || {},
    form: keep ? keep.form : null,
  };
  app.data.cache = null;
  if (DATA_ROUTES.includes(app.route.name)) app.render();
  if (keep) checkSoon(app);
}

/** The files the working copy makes (drawn at once; the companion checks them meanwhile). */
export function workFiles(app) {
  const data = app.data;
  const text = JSON.stringify(data.work);
  if (data.cache && data.cache.text === text) return data.cache.files;
  const files = data.shipped ? applyDoc(data.shipped, data.work) : data.files;
  data.cache = { text, files };
  return files;
}

/** Change the working copy: `change(work)` edits it; the checks follow. */
export function editWork(app, change, { render = true } = {}) {
  const data = app.data;
  change(data.work);
  data.work = tidy(data.work);
  data.dirty = JSON.stringify(tidy(data.saved)) !== JSON.stringify(data.work);
  data.saveResult = null;
  data.check = { ...(data.check || {}), pending: true };
  checkSoon(app);
  if (render) app.render();
  else refreshChecks(app);
}

export function checkSoon(app) {
  clearTimeout(app.dataCheckTimer);
  app.dataCheckTimer = setTimeout(() => checkNow(app), CHECK_DELAY_MS);
}

async function checkNow(app) {
  const data = app.data;
  if (!data || !data.loaded) return;
  const sent = JSON.stringify(data.work);
  const reply = await app.conn.request("data_check", { game: edition.game, data: data.work });
  if (app.data !== data || JSON.stringify(data.work) !== sent) return; // edited meanwhile: a newer check follows
  if (!reply.ok) {
    data.check = { problems: reply.error.problems || [sentence(reply.error.message)], status: null, pending: false };
  } else {
    data.check = { problems: reply.problems || [], status: reply.status || null, pending: false };
  }
  refreshChecks(app);
}

/** Repaint the checks panel and the problem marks on the board, nothing else (a drag may be under way). */
export function refreshChecks(app) {
  const old = document.getElementById("data-checks");
  if (old) old.replaceWith(checksPanel(app));
  const bar = document.getElementById("data-savebar");
  if (bar) bar.replaceWith(saveBar(app));
  const marked = quotedIds(app.data.check.problems);
  for (const el of document.querySelectorAll("[data-testid=ed-loc]")) {
    el.classList.toggle("has-problem", marked.has(el.dataset.id));
    el.dataset.problem = marked.has(el.dataset.id) ? "yes" : "no";
  }
}

export function discardWork(app) {
  const data = app.data;
  data.work = clone(data.saved);
  data.dirty = false;
  data.form = null;
  data.ui.selected = null;
  data.check = { problems: data.problems, status: data.status, pending: false };
  app.render();
}

/** Save a document (the working copy unless given); returns true when saved. */
export async function saveDoc(app, doc = null) {
  const data = app.data;
  if (data.saving) return false;
  const body = tidy(doc || data.work);
  data.saving = true;
  refreshChecks(app);
  const reply = await app.conn.request("data_save", { game: edition.game, data: body });
  data.saving = false;
  if (app.data !== data) return false;
  if (!reply.ok) {
    const problems = reply.error.problems || [];
    data.check = { problems: problems.length ? problems : data.check.problems, status: data.check.status, pending: false };
    data.saveResult = { ok: false, message: reply.error.message, problems };
    app.showBanner("error", `Not saved: ${sentence(reply.error.message)}`);
    app.render();
    return false;
  }
  app.clearBanner("error");
  const games = reply.games || [];
  data.saved = normal(body);
  if (!doc) { data.work = clone(data.saved); data.dirty = false; }
  else if (!data.dirty) data.work = clone(data.saved);
  data.saveResult = { ok: true, games };
  data.status = reply.status || data.status;
  data.check = { problems: [], status: reply.status || data.status, pending: false };
  app.showBanner("info", `Saved. ${gamesWords(games)}`);
  await startData(app); // the files and status as the companion has them now
  return true;
}

function gamesWords(games) {
  if (!games.length) return "No game is in play; new games use it.";
  const took = games.filter((g) => g.applied).length;
  return `${took} of ${games.length} game${games.length === 1 ? "" : "s"} in play ${took === 1 ? "uses" : "use"} it from now on.`;
}

// -- shared pieces of the data screens -----------------------------------------------------------------------------
export function dataHead(app, title) {
  const page = app.route.page || "";
  return [
    h("header", { class: "page-head" },
      h("button", { class: "btn", type: "button", "data-testid": "back-to-games", onclick: () => app.go("#/") }, "◀ Games"),
      h("h1", {}, title), app.connectionPill()),
    h("nav", { class: "data-tabs", "aria-label": "Game data" }, edition.tabs.map(([hash, label]) =>
      h("a", { class: `btn${page === (hash || "status") ? " btn-primary" : ""}`, href: `#/data${hash ? `/${hash}` : ""}`,
               "data-testid": `data-tab-${hash || "status"}`, "aria-current": page === (hash || "status") ? "page" : null }, label))),
  ];
}

/** The live checks of the working copy, each problem in words. */
export function checksPanel(app) {
  const { check } = app.data;
  const problems = check.problems || [];
  return h("section", { class: `panel data-checks${problems.length ? " has-problems" : ""}`, id: "data-checks", "data-testid": "data-checks",
                        "data-count": problems.length, "data-pending": check.pending ? "yes" : "no" },
    h("h2", {}, "Checks"),
    check.pending ? h("p", { class: "subtle" }, "Checking…") : null,
    problems.length
      ? [h("p", { class: "hint" }, `${problems.length} problem${problems.length === 1 ? "" : "s"}: these must be put right before it can be saved.`),
         h("ul", { class: "cal-problems", "data-testid": "data-problems" }, problems.map((p) => h("li", { "data-testid": "data-problem" }, sentence(p))))]
      : check.pending ? null : h("p", { class: "data-ok", "data-testid": "data-checks-ok" }, "✓ Everything fits together."));
}

/** Save and Discard, and after a save which games took it. */
export function saveBar(app) {
  const data = app.data;
  const result = data.saveResult;
  return h("section", { class: "panel data-savebar", id: "data-savebar", "data-testid": "data-savebar", "data-dirty": data.dirty ? "yes" : "no" },
    h("p", { "data-testid": "data-dirty" }, data.dirty ? "You have changes that are not saved yet." : "Nothing to save: this is the data in use."),
    h("div", { class: "cal-buttons" },
      h("button", { class: "btn btn-primary btn-huge", type: "button", "data-testid": "data-save", disabled: !data.dirty || data.saving,
                    onclick: () => saveDoc(app) }, data.saving ? "Saving…" : "Save"),
      h("button", { class: "btn btn-huge", type: "button", "data-testid": "data-discard", disabled: !data.dirty || data.saving,
                    onclick: () => discardWork(app) }, "Discard changes")),
    result ? resultPart(result) : null);
}

function resultPart(result) {
  if (!result.ok) {
    return h("div", { class: "note note-error", "data-testid": "save-result", "data-ok": "no" },
      h("p", {}, `Not saved: ${sentence(result.message)}`));
  }
  return h("div", { class: "note note-info", "data-testid": "save-result", "data-ok": "yes" },
    h("p", {}, `Saved. ${gamesWords(result.games)}`),
    result.games.length ? h("ul", { class: "save-games", "data-testid": "save-games" }, result.games.map((g) =>
      h("li", { "data-testid": "save-game", "data-game-id": g.game_id, "data-applied": g.applied ? "yes" : "no" },
        h("strong", {}, g.name || g.game_id), g.applied ? " — uses it now" : ` — not changed: ${sentence(g.why || "")}`))) : null);
}

export function loadingPage(app, title) {
  const words = app.data && app.data.error ? `The game data could not be read: ${sentence(app.data.error)}` : "Reading the game data…";
  return h("div", { class: "page", "data-testid": "screen-data-loading", "data-game": edition.game }, ...dataHead(app, title), h("p", {}, words));
}

export function stateBadge(state) {
  return h("span", { class: `badge state-${state}`, "data-testid": "state", "data-state": state },
    state === "rulebook" ? "★ " : state === "confirmed" ? "✓ " : "? ", STATE_WORDS[state] || state);
}

/** The status element of a key (from the saved status). */
export function statusOf(app, key) {
  const elements = (app.data.status && app.data.status.elements) || [];
  return elements.find((e) => e.key === key) || null;
}

// -- the status page -------------------------------------------------------------------------------------------
async function toggleConfirm(app, key) {
  const doc = clone(app.data.saved);
  const at = doc.confirmed.indexOf(key);
  if (at >= 0) doc.confirmed.splice(at, 1);
  else doc.confirmed.push(key);
  const ok = await saveDoc(app, doc);
  if (ok && app.data.dirty) {
    // keep the working copy's confirmations in step with what was saved
    const work = app.data.work;
    const i = work.confirmed.indexOf(key);
    if (at >= 0 && i >= 0) work.confirmed.splice(i, 1);
    if (at < 0 && i < 0) work.confirmed.push(key);
    app.render();
  }
}

async function importFile(app, input) {
  const file = input.files && input.files[0];
  input.value = "";
  if (!file) return;
  // The result goes on the data as it is when the answer comes: a screen still loading its data
  // when the file was chosen has a new working copy by then, which would lose a result put on the old one.
  let text;
  try {
    text = await file.text();
    JSON.parse(text);
  } catch {
    app.data.importResult = { ok: false, name: file.name, message: "it is not a data file (it is not JSON)", problems: [] };
    app.render();
    return;
  }
  let reply;
  try {
    const response = await fetch(`/api/data/${edition.game}`, { method: "POST", headers: authHeaders({ "Content-Type": "application/json" }), body: text });
    reply = await response.json();
  } catch {
    app.data.importResult = { ok: false, name: file.name, message: "the companion could not be reached", problems: [] };
    app.render();
    return;
  }
  if (reply.ok) {
    app.data.importResult = { ok: true, name: file.name, games: reply.games || [] };
    app.showBanner("info", `Imported “${file.name}”. ${gamesWords(reply.games || [])}`);
    app.data.dirty = false;
    await startData(app);
  } else {
    if (reply.error && reply.error.code === "not-paired") app.notPaired(reply.error.message);
    app.data.importResult = { ok: false, name: file.name, message: reply.error ? reply.error.message : "refused", problems: (reply.error && reply.error.problems) || [] };
    app.showBanner("error", `“${file.name}” was not imported: the problems are listed under “The data file”.`);
    app.render();
  }
}

function importPart(app) {
  const result = app.data.importResult;
  const input = h("input", { type: "file", accept: ".json,application/json", class: "visually-hidden", id: "data-import-file",
                             "data-testid": "data-import-file", onchange: (e) => importFile(app, e.target) });
  return h("section", { class: "panel" },
    h("h2", {}, "The data file"),
    h("p", { class: "subtle" }, "Keep a copy of your corrections, or bring them to another companion. Importing replaces the data in use, but only when it all fits together."),
    h("div", { class: "cal-buttons" },
      h("a", { class: "btn btn-huge", href: `/api/data/${edition.game}`, download: `owner-data-${edition.game}.json`, "data-testid": "data-download" }, "Download the data file"),
      h("label", { class: "btn btn-huge", for: "data-import-file", "data-testid": "data-import" }, "Import a data file"), input),
    result ? (result.ok
      ? h("div", { class: "note note-info", "data-testid": "import-result", "data-ok": "yes" }, `Imported “${result.name}”.`)
      : h("div", { class: "note note-error", "data-testid": "import-result", "data-ok": "no" },
          h("p", {}, `“${result.name}” was not imported, and the data in use is unchanged: ${sentence(result.message)}`),
          result.problems.length ? h("ul", { class: "cal-problems", "data-testid": "import-problems" },
            result.problems.map((p) => h("li", { "data-testid": "import-problem" }, sentence(p)))) : null)) : null);
}

function summaryPart(app) {
  const summary = (app.data.status && app.data.status.summary) || {};
  const kinds = edition.kindOrder.filter((k) => summary[k]).concat(Object.keys(summary).filter((k) => !edition.kindOrder.includes(k)));
  return h("section", { class: "panel" },
    h("h2", {}, "How sure is the data?"),
    h("table", { class: "data-summary", "data-testid": "data-summary" },
      h("thead", {}, h("tr", {}, h("th", {}, "What"), h("th", {}, "★ From the rulebook"), h("th", {}, "✓ Confirmed by you"), h("th", {}, "? Still our guess"))),
      h("tbody", {}, kinds.map((kind) => {
        const row = summary[kind];
        return h("tr", { "data-testid": "summary-row", "data-kind": kind, "data-rulebook": row.rulebook, "data-confirmed": row.confirmed, "data-guess": row.guess },
          h("th", { scope: "row" }, edition.kindWords[kind] || kind), h("td", {}, String(row.rulebook)), h("td", {}, String(row.confirmed)),
          h("td", { class: row.guess ? "guess-count" : "" }, String(row.guess)));
      }))));
}

function elementsPart(app) {
  const ui = app.data.ui;
  const elements = ((app.data.status && app.data.status.elements) || []).filter((e) => !ui.onlyGuesses || e.state === "guess");
  const kinds = edition.kindOrder.filter((k) => elements.some((e) => e.kind === k)).concat([...new Set(elements.map((e) => e.kind))].filter((k) => !edition.kindOrder.includes(k)));
  const confirmed = new Set(app.data.saved.confirmed);
  return h("section", { class: "panel" },
    h("div", { class: "data-list-head" },
      h("h2", {}, "Everything, one by one"),
      h("button", { class: "btn", type: "button", "data-testid": "only-guesses", "aria-pressed": ui.onlyGuesses ? "true" : "false",
                    onclick: () => { ui.onlyGuesses = !ui.onlyGuesses; app.render(); } }, "Only guesses")),
    h("p", { class: "subtle" }, "Check each against your box. “Confirm” marks it as checked by you; change it first in the editors if it is not what your box shows."),
    kinds.map((kind) => h("details", { class: "data-kind", "data-testid": "data-kind", "data-kind": kind, open: ui.openKind === kind || ui.onlyGuesses },
      h("summary", { class: "btn", onclick: () => { ui.openKind = ui.openKind === kind ? null : kind; } }, `${edition.kindWords[kind] || kind} (${elements.filter((e) => e.kind === kind).length})`),
      h("ul", { class: "data-elements" }, elements.filter((e) => e.kind === kind).map((e) =>
        h("li", { class: `data-element state-row-${e.state}`, "data-testid": "data-element", "data-key": e.key, "data-state": e.state },
          h("div", { class: "data-element-text" },
            h("strong", {}, e.name), e.changed ? h("span", { class: "badge", "data-testid": "changed" }, "changed by you") : null,
            e.note ? h("small", { class: "subtle" }, e.note) : null),
          stateBadge(e.state),
          e.state === "rulebook" ? null
            : h("button", { class: "btn", type: "button", "data-testid": "confirm", "data-key": e.key, "aria-pressed": confirmed.has(e.key) ? "true" : "false",
                            disabled: app.data.saving, onclick: () => toggleConfirm(app, e.key) },
                confirmed.has(e.key) ? "✓ Confirmed" : "Confirm")))))));
}

/** The status page's ways into the editors (only those of the edition's tabs). */
const OPENERS = [["board", "Edit the board"], ["cards", "Monster cards"], ["items", "Items"], ["perks", "Perks"], ["heroes", "Hero tables"]];
const OPENER_IDS = { board: "open-board-editor", cards: "open-card-library" };

export function renderDataStatus(app) {
  const title = "Game data";
  if (!app.data || !app.data.loaded) return loadingPage(app, title);
  const data = app.data;
  return h("div", { class: "page data-page", "data-testid": "screen-data", "data-game": edition.game },
    ...dataHead(app, title),
    h("p", { class: "subtle" }, edition.intro),
    data.problems.length ? h("div", { class: "note note-error", "data-testid": "saved-problems" },
      h("p", {}, "Your saved data no longer fits the game data shipped with this companion (after an update?). Put these right in the editors:"),
      h("ul", { class: "cal-problems" }, data.problems.map((p) => h("li", {}, sentence(p))))) : null,
    data.dirty ? h("p", { class: "note note-warn", "data-testid": "data-unsaved" }, "You have unsaved changes in the editors.") : null,
    h("div", { class: "games-actions" }, OPENERS.filter(([page]) => edition.tabs.some(([tab]) => tab === page)).map(([page, label]) =>
      h("a", { class: "btn btn-huge", href: `#/data/${page}`, "data-testid": OPENER_IDS[page] || `open-${page}` }, label))),
    importPart(app), summaryPart(app), elementsPart(app));
}

