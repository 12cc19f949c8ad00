// Seats: in a game with secrets (a pact card, a planned move, a bid), each
// player's phone plays their own seat and sees that seat's secrets; a shared
// tablet only watches what is public. The seat's token, given when the seat is
// claimed, is kept on this device (and only here) to join as that seat again.

import { h } from "./dom.js";

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

/** "Which seat is this device?" before a game with secrets is shown. */
export function seatChooser(app) {
  const seats = secretSeats(app);
  return h("div", { class: "page", "data-testid": "screen-seat" },
    h("header", { class: "page-head" },
      h("button", { class: "btn", type: "button", "data-testid": "back-to-games", onclick: () => app.go("#/") }, "◀ Games"),
      h("h1", {}, "Whose device is this?"), app.connectionPill()),
    h("p", { class: "prompt-hint" }, "Each player plays on their own phone: their secrets show there and nowhere else. " +
      "A tablet everyone can see only watches."),
    h("div", { class: "options" }, seats.map((seat) =>
      h("button", { class: "btn option btn-huge", type: "button", "data-testid": "seat-claim", "data-seat": seat.id,
                    onclick: () => claim(app, seat.id) }, h("span", { class: "opt-main" }, `I play ${seat.name}`)))),
    h("div", { class: "finishers" },
      h("button", { class: "btn btn-huge", type: "button", "data-testid": "seat-watch",
                    onclick: () => { app.watching = true; app.render(); } }, "Watch: this is the shared screen")));
}
