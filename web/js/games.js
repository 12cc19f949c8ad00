// The games screen: saved games to resume, export or archive; import a game
// file; start a new game; the way to LED and dice setup, the game data
// (board, cards: datastatus.js), pairing and the box's health.

import { h } from "./dom.js";
import { authHeaders } from "./connection.js";

function when(seconds) {
  if (!seconds) return "";
  const date = new Date(seconds * 1000);
  return date.toLocaleString(undefined, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}

function outcomeBadge(game) {
  if (game.outcome === "won") return h("span", { class: "badge badge-won" }, "Won");
  if (game.outcome) return h("span", { class: "badge badge-lost" }, game.outcome.startsWith("lost") ? "Lost" : game.outcome);
  if (game.status === "archived") return h("span", { class: "badge" }, "Archived");
  return h("span", { class: "badge badge-live" }, "In play");
}

/** The box's game a saved game is of, by its title ("Siege of Barovia"), when it is not its name already. */
function boxTitle(app, game) {
  const pack = (app.packs || []).find((p) => p.id === game.game);
  return pack && pack.title !== game.name ? pack.title : "";
}

function gameRow(app, game) {
  const archived = game.status === "archived";
  const players = Array.isArray(game.players) ? game.players : [];
  const title = boxTitle(app, game);
  return h("li", { class: "game-row", "data-testid": "game-row", "data-game-id": game.game_id },
    h("div", { class: "game-row-info" },
      h("div", { class: "game-row-name" }, game.name || "Untitled game", " ", outcomeBadge(game)),
      title ? h("div", { class: "game-row-meta", "data-testid": "game-row-box" }, title) : null,
      players.length ? h("div", { class: "game-row-players", "data-testid": "game-row-players" }, players.join(", ")) : null,
      h("div", { class: "game-row-meta" }, `${game.version} step${game.version === 1 ? "" : "s"} · last played ${when(game.updated)}`)),
    h("div", { class: "game-row-actions" },
      h("button", { class: "btn btn-primary", type: "button", "data-testid": "resume",
                    onclick: () => app.go(`#/game/${encodeURIComponent(game.game_id)}`) }, game.outcome ? "Open" : "Resume"),
      h("button", { class: "btn", type: "button", "data-testid": "export", onclick: () => exportGame(app, game) }, "Export"),
      archived ? restoreButton(app, game) : archiveButton(app, game)));
}

/** The game's file, asked for with this tablet's token (a game's file is for paired tablets; a
 * player's tablet gets a game in play without the answers given in secret). */
async function exportGame(app, game) {
  let response;
  try {
    response = await fetch(`/api/games/${encodeURIComponent(game.game_id)}/export`, { headers: authHeaders(), cache: "no-store" });
  } catch {
    app.showBanner("error", "Could not reach the box to export the game. Check the connection and try again.");
    return;
  }
  if (!response.ok) {
    const body = await response.json().catch(() => null);
    const error = body && body.error;
    if (error && error.code === "not-paired") app.notPaired(error.message);
    else app.showBanner("error", error ? error.message : `The box refused (HTTP ${response.status}).`);
    return;
  }
  const blob = await response.blob();
  const href = URL.createObjectURL(blob);
  const link = h("a", { href, download: `game-${game.game_id}.json`, hidden: true, "data-testid": "export-link" });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}

/** An unpaired tablet sees no list: it is told to pair, and may watch the game the board shows. */
function notPairedPanel(app) {
  return h("section", { class: "panel", "data-testid": "games-not-paired" },
    h("h2", {}, "Saved games"),
    h("p", {}, "Pair this tablet to see the games."),
    h("p", { class: "subtle" }, "An unpaired tablet can watch the game on the board, but not list, open or export the box's games."),
    h("div", { class: "games-actions" },
      h("button", { class: "btn btn-primary", type: "button", "data-testid": "games-pair", onclick: () => app.go("#/pair") }, "Pair this tablet"),
      app.boardGame ? h("button", { class: "btn", type: "button", "data-testid": "watch-board",
                                    onclick: () => app.go(`#/game/${encodeURIComponent(app.boardGame)}`) }, "Watch the game on the board") : null));
}

function restoreButton(app, game) {
  return h("button", { class: "btn", type: "button", "data-testid": "restore", onclick: async () => {
    const reply = await app.conn.request("restore", { game_id: game.game_id });
    if (!reply.ok) app.showBanner("error", reply.error.message);
    app.loadGames();
  } }, "Restore");
}

function archiveButton(app, game) {
  // Two taps: the first asks, the second archives (no hover, no pop-up).
  const button = h("button", { class: "btn", type: "button", "data-testid": "archive" }, "Archive");
  button.addEventListener("click", async () => {
    if (button.dataset.confirm !== "yes") {
      button.dataset.confirm = "yes";
      button.textContent = "Tap again to archive";
      button.classList.add("btn-warn");
      return;
    }
    button.disabled = true;
    const reply = await app.conn.request("archive", { game_id: game.game_id });
    if (!reply.ok) app.showBanner("error", reply.error.message);
    app.loadGames();
  });
  return button;
}

async function importFile(app, input) {
  const file = input.files && input.files[0];
  input.value = "";
  if (!file) return;
  let text;
  try {
    text = await file.text();
    JSON.parse(text);
  } catch {
    app.showBanner("error", `“${file.name}” is not a game file (it is not JSON).`);
    return;
  }
  let reply;
  try {
    const response = await fetch("/api/games/import", { method: "POST", headers: authHeaders({ "Content-Type": "application/json" }), body: text });
    reply = await response.json();
  } catch {
    app.showBanner("error", "Could not reach the companion to import the file.");
    return;
  }
  if (reply.ok) {
    app.showBanner("info", `Imported “${file.name}”.`);
    app.loadGames();
  } else if (reply.error && reply.error.code === "not-paired") {
    app.notPaired(reply.error.message);
  } else {
    app.showBanner("error", `Could not import “${file.name}”: ${reply.error ? reply.error.message : "refused"}`);
  }
}

/** Whether this tablet may change games, as a button to the pairing screen. */
function pairButton(app) {
  const access = app.access;
  const state = !access ? "unknown"
    : access.paired ? "paired"
    : access.trusted ? "trusted"
    : !access.required ? "open"
    : "watching";
  const label = state === "paired" ? `Paired${access.device && access.device.name ? `: ${access.device.name}` : ""}`
    : state === "trusted" ? "Pair tablets"
    : state === "watching" ? "Watching only — Pair"
    : "Pair";
  return h("button", { class: `btn btn-huge pair-pill pair-${state}`, type: "button", "data-testid": "pair-open", "data-state": state,
                       onclick: () => app.go("#/pair") },
    h("span", { class: "pair-dot", "aria-hidden": "true" }), label);
}

/** Is this page on the box's own screen (its own browser, on this machine's loopback)? */
function onTheBox() {
  return ["127.0.0.1", "localhost", "[::1]", "::1"].includes(location.hostname);
}

/** On the box's own screen: the address a tablet opens, and its QR code for the tablet's camera. */
function tabletAddress(app) {
  if (!onTheBox()) return null;
  if (app.tabletAddress === undefined) {
    app.tabletAddress = null;
    fetch("/api/tablet-address", { cache: "no-store" }).then((r) => r.json())
      .then((reply) => { app.tabletAddress = reply; if (app.route.name === "games") app.render(); })
      .catch(() => { app.tabletAddress = undefined; });
  }
  const found = app.tabletAddress;
  if (!found) return null;
  if (!found.urls.length) {
    return h("section", { class: "panel tablet-address", "data-testid": "tablet-address", "data-urls": "" },
      h("h2", {}, "Open on a tablet"),
      h("p", { class: "subtle" }, "This box is on no network a tablet could reach yet: connect it to the Wi-Fi first."));
  }
  return h("section", { class: "panel tablet-address", "data-testid": "tablet-address", "data-urls": found.urls.join(" ") },
    h("h2", {}, "Open on a tablet"),
    h("div", { class: "tablet-address-row" },
      h("img", { class: "tablet-qr", src: found.qr, alt: `QR code of ${found.urls[0]}`, width: 180, height: 180, "data-testid": "tablet-qr" }),
      h("div", {},
        h("p", {}, "Point the tablet's camera at the code, or type this address in its browser:"),
        h("ul", { class: "tablet-urls" }, found.urls.map((url) => h("li", { "data-testid": "tablet-url" }, h("strong", {}, url)))),
        h("p", { class: "subtle" }, "The tablet must be on the same Wi-Fi as the box."))));
}

/** "A, B and C". */
function listWords(words) {
  return words.length > 1 ? `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}` : words.join("");
}

export function renderGames(app) {
  if (!app.packs && !app.packsAsked) {  // the games on this box, for the title and the saved games' rows
    app.packsAsked = true;
    app.loadPacks().then(() => { if (app.route.name === "games") app.render(); }, () => { app.packsAsked = false; });
  }
  const games = app.games;
  const active = (games || []).filter((g) => g.status !== "archived").sort((a, b) => b.updated - a.updated);
  const archived = (games || []).filter((g) => g.status === "archived").sort((a, b) => b.updated - a.updated);
  const fileInput = h("input", { type: "file", accept: ".json,application/json", class: "visually-hidden", id: "import-file",
                                 "data-testid": "import-file", onchange: (e) => importFile(app, e.target) });
  return h("div", { class: "page games-page", "data-testid": "screen-games" },
    h("header", { class: "page-head" },
      h("h1", { "data-testid": "home-title" }, "Table companion",
        app.packs && app.packs.length ? h("span", { class: "subtle home-games" }, ` for ${listWords(app.packs.map((p) => p.title))}`) : null),
      app.connectionPill()),
    h("div", { class: "games-actions" },
      h("button", { class: "btn btn-primary btn-huge", type: "button", "data-testid": "new-game", onclick: () => app.go("#/new") }, "+ New game"),
      h("label", { class: "btn btn-huge", for: "import-file", "data-testid": "import" }, "Import a game file"), fileInput,
      h("button", { class: "btn btn-huge", type: "button", "data-testid": "led-setup", onclick: () => app.go("#/leds") }, "LED setup"),
      h("button", { class: "btn btn-huge", type: "button", "data-testid": "dice-setup", onclick: () => app.go("#/dice") }, "Dice setup"),
      h("button", { class: "btn btn-huge", type: "button", "data-testid": "data-open", onclick: () => app.go("#/data") }, "Game data"),
      pairButton(app),
      h("button", { class: "btn btn-huge", type: "button", "data-testid": "health-open", onclick: () => app.go("#/health") }, "Box health"),
      h("button", { class: "btn btn-huge", type: "button", "data-testid": "fullscreen",
                    onclick: () => document.documentElement.requestFullscreen?.().catch(() => {}) }, "Full screen")),
    tabletAddress(app),
    app.gamesRefused ? notPairedPanel(app) : h("section", { class: "panel" },
      h("h2", {}, "Saved games"),
      games === null ? h("p", { class: "subtle" }, "Loading the saved games…")
        : active.length === 0 ? h("p", { class: "subtle", "data-testid": "no-games" }, "No games yet. Tap “New game” to set one up.")
        : h("ul", { class: "game-list", "data-testid": "game-list" }, active.map((g) => gameRow(app, g)))),
    archived.length ? h("details", { class: "panel archived" },
      h("summary", { class: "btn" }, `Archived games (${archived.length})`),
      h("ul", { class: "game-list" }, archived.map((g) => gameRow(app, g)))) : null);
}
