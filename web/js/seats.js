// Seats: in a game with secrets (a pact card, a planned move, a bid), each
// player's phone plays their own seat and sees that seat's secrets; a shared
// tablet shows what is public and plays the seats that keep no secrets (the
// heroes of a game whose Dungeon Master is a person on their phone). The seat's token, given when the seat is
// claimed, is kept on this device (and only here) to join as that seat again.

import { h } from "./dom.js";
import { askConfirm } from "./confirm.js";

const KEY = (gameId) => `table-companion.seat.${gameId}`;

/** {seat, token} this device plays in the game, or null. */
export function heldSeat(gameId) {
  try {
    const held = JSON.parse(localStorage.getItem(KEY(gameId)) || "null");
    return held && typeof held.seat === "string" && typeof held.token === "string" ? held : null;
  } catch {
    return null;
  }
}

export function forgetSeat(gameId) {
  localStorage.removeItem(KEY(gameId));
}

async function claim(app, seat) {
  const gameId = app.view.game_id;
  const reply = await app.conn.request("claim_seat", { game_id: gameId, seat });
  if (!reply.ok) {
    app.showBanner("error", reply.error.message);
    return;
  }
  localStorage.setItem(KEY(gameId), JSON.stringify({ seat, token: reply.token }));
  app.join();
}

/** The seats of this game a device is asked to claim: the ones its public view names as holding
 *  secrets (``state.secret_seats``: a game against the box has none), else every seat when the
 *  pack says its seats have secrets. */
export function secretSeats(app) {
  const named = app.view?.state?.secret_seats;
  const seats = app.view?.seats || [];
  if (Array.isArray(named)) return seats.filter((seat) => named.includes(seat.id));
  return app.pack && app.pack.secret_seats ? seats : [];
}

function names(list) {
  return list.length < 2 ? list.join("") : `${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}`;
}

/** What the seat screen says, from the game's seats: who plays on a phone of their own, and what the
 *  shared screen does (plays the seats without secrets, or only shows the open table). */
function seatWords(app, secret) {
  const all = app.view?.seats || [];
  const shared = all.filter((seat) => !secret.some((s) => s.id === seat.id)).map((seat) => seat.name);
  if (!shared.length) {
    return { hint: "Each player plays on their own phone: their secrets show there and nowhere else. The screen " +
                   "everyone can see shows only what lies open on the table.",
             watch: "This is the shared screen (no player's seat)" };
  }
  return { hint: `${names(secret.map((seat) => seat.name))} ${secret.length > 1 ? "play on their own phones" : "plays on their own phone"}` +
                 `: the secrets show there and nowhere else. The shared tablet plays ${names(shared)}.`,
           watch: `This is the shared tablet: it plays ${names(shared)}` };
}

/** "Which seat is this device?" before a game with secrets is shown. */
export function seatChooser(app) {
  const seats = secretSeats(app);
  const words = seatWords(app, seats);
  return h("div", { class: "page", "data-testid": "screen-seat" },
    h("header", { class: "page-head" },
      h("button", { class: "btn", type: "button", "data-testid": "back-to-games", onclick: () => app.go("#/") }, "◀ Games"),
      h("h1", {}, "Whose device is this?"), app.connectionPill()),
    h("p", { class: "prompt-hint", "data-testid": "seat-hint" }, words.hint),
    h("div", { class: "options" }, seats.map((seat) =>
      h("button", { class: "btn option btn-huge", type: "button", "data-testid": "seat-claim", "data-seat": seat.id,
                    onclick: () => claim(app, seat.id) }, h("span", { class: "opt-main" }, `I play ${seat.name}`)))),
    h("div", { class: "finishers" },
      h("button", { class: "btn btn-huge", type: "button", "data-testid": "seat-watch",
                    onclick: () => { app.watching = true; app.render(); } }, words.watch)),
    h("p", { class: "subtle" }, "Your seat is taken by a phone you no longer have? Watch, then open History → Seats: " +
      "the box's owner can free it there."));
}

// -- the Seats panel: who plays where, giving a seat up, the owner freeing one ------------------------------
/** Load who holds each seat (``seat_list``) and show the Seats panel in the history drawer. */
export async function openSeats(app) {
  const gameId = app.view && app.view.game_id;
  if (!gameId) return;
  const held = heldSeat(gameId);
  const reply = await app.conn.request("seat_list", { game_id: gameId, ...(held ? { token: held.token } : {}) });
  if (!app.view || app.view.game_id !== gameId) return;
  app.seatList = reply.ok ? reply : { error: reply.error.message, seats: [] };
  app.historyOpen = true;
  app.seatsOpen = true;
  app.render();
}

async function release(app, seat, { owner }) {
  const gameId = app.view.game_id;
  const name = seatName(app, seat.id);
  const ok = await askConfirm(owner
    ? { title: `Free ${name}'s seat?`, key: "free-seat", yes: "Free the seat", no: "No, leave it",
        text: `The device that plays it (${seat.device}) stops seeing that seat's secrets at once and shows the shared ` +
              "screen. Then another phone can take the seat. Do this for a lost or broken phone." }
    : { title: "Give up your seat?", key: "free-seat", yes: "Give it up", no: "No, keep it",
        text: "This device stops playing it and shows the shared screen; another phone can take the seat." });
  if (!ok) return;
  const held = heldSeat(gameId);
  const reply = await app.conn.request("release_seat", { game_id: gameId, seat: seat.id,
                                                          ...(held && held.seat === seat.id ? { token: held.token } : {}) });
  if (!reply.ok) { app.showBanner("error", reply.error.message); return; }
  if (held && held.seat === seat.id) { forgetSeat(gameId); app.join(); }
  openSeats(app);
}

function seatName(app, id) {
  const found = (app.view.seats || []).find((s) => s.id === id);
  return found ? found.name : id;
}

function seatRow(app, seat, owner) {
  const mine = seat.yours;
  const button = mine
    ? h("button", { class: "btn", type: "button", "data-testid": "seat-give-up", "data-seat": seat.id,
                    onclick: () => release(app, seat, { owner: false }) }, "Give up my seat")
    : seat.held && owner
      ? h("button", { class: "btn", type: "button", "data-testid": "seat-free", "data-seat": seat.id,
                      onclick: () => release(app, seat, { owner: true }) }, "Free this seat")
      : null;
  const where = mine ? "Played on this device" : seat.held ? `Played on ${seat.device}` : "Free: no device plays it";
  return h("li", { class: "history-entry", "data-testid": "seat-row", "data-seat": seat.id, "data-held": String(seat.held) },
    h("span", { class: "history-label" }, h("strong", {}, seatName(app, seat.id)), ` — ${where}`), button);
}

/** The game's seats and who plays each; the owner (the box's own screen or a tablet marked the owner's)
 *  may free a seat a lost phone holds, and a player may give up their own. */
export function seatsPanel(app) {
  const list = app.seatList || { seats: [] };
  return h("section", { class: "seats-panel", "data-testid": "seats-panel" },
    h("h3", {}, "Seats"),
    list.error ? h("p", { class: "prompt-hint", role: "alert" }, list.error) : null,
    h("p", { class: "subtle" }, list.owner
      ? "You are the box's owner here: you can free a seat whose phone is lost, so another phone can take it."
      : "Each seat is played on one device. A lost phone's seat can be freed by the box's owner (the box's own " +
        "screen, or a tablet marked as the owner's)."),
    h("ol", { class: "history-list" }, list.seats.map((seat) => seatRow(app, seat, list.owner))),
    h("button", { class: "btn", type: "button", "data-testid": "seats-close",
                  onclick: () => { app.seatsOpen = false; app.render(); } }, "◀ Back to the history"));
}
