// The frame of the family's new-game wizard, the same for every edition: the box's pack
// fetched first, the three steps (monsters, heroes, start) with Back and Next, the
// problem that holds Next, and the start itself. What each step asks is the edition's
// (its setup.js hands in the step's body, its problem and the game's setup).

import { h } from "/js/dom.js";

const STEPS = ["Monsters", "Heroes", "Start"];

/** The wizard's state for `game` (another game's is dropped), made by `fresh` the first time. */
export function wizardState(app, game, fresh) {
  if (app.setup && app.setup.game && app.setup.game !== game) app.setup = null; // another game's wizard
  return (app.setup ||= { ...fresh(), game });
}

/** The box's pack, or null while it is fetched (the screen is drawn again when it is here). */
export function boxPack(app, game) {
  const pack = app.packCaches[game]; // this box's, whichever game was on screen before
  if (!pack) {
    app.loadPack(game).then(() => { if (app.route.name === "setup") app.render(); },
                        (e) => app.showBanner("error", String(e.message || e)));
  }
  return pack || null;
}

/**
 * The other boxes of this companion whose wizard plays their monsters on `game`'s board (a mixed
 * game is started as the guests' box, with this board chosen): [{ id, title }], empty while they
 * are fetched (the screen is drawn again when they are here). Read from each box's pack view
 * (its `boards`), so no box names another.
 */
export function guestBoxes(app, game) {
  const found = (app.guestBoxes ||= {});
  if (found[game]) return found[game];
  found[game] = [];
  (async () => {
    const packs = await app.loadPacks();
    const offers = [];
    for (const other of packs.filter((p) => p.id !== game)) {
      const response = await fetch(`/api/packs/${encodeURIComponent(other.id)}`, { cache: "no-store" });
      if (!response.ok) continue; // that box cannot be opened now: it offers nothing here
      const view = await response.json();
      if ((view.boards || []).some((b) => b.id === game)) offers.push({ id: other.id, title: other.title });
    }
    found[game] = offers;
    if (offers.length && app.route.name === "setup") app.render();
  })().catch(() => { delete found[game]; }); // asked again when the wizard is drawn next
  return found[game];
}

/** A link from this board's wizard to another box's, with this board chosen (a mixed game). */
export function guestBoxLinks(app, game) {
  const offers = guestBoxes(app, game);
  if (!offers.length) return null;
  return h("section", { class: "mixed-offer", "data-testid": "mixed-offer" },
    h("h3", {}, "A mixed game on this board"),
    h("p", { class: "subtle" }, "Another box's monsters can visit this board: our combination, not the publisher's. "
      + "It is set up in that box's wizard, with this board chosen."),
    h("div", { class: "presets" }, offers.map((offer) =>
      h("button", { class: "btn preset", type: "button", "data-testid": `mixed-from-${offer.id}`,
                    onclick: () => { app.setup = null; app.go(`#/new/${encodeURIComponent(offer.id)}/${encodeURIComponent(game)}`); } },
        h("strong", {}, `The monsters of ${offer.title}`), h("span", {}, "As guests on this board: start in that box's wizard")))));
}

export function openingPage() {
  return h("div", { class: "page", "data-testid": "screen-setup" }, h("p", {}, "Opening the box…"));
}

/** Ask the companion for the game; on success its screen opens. */
async function start(app, setup, game, body) {
  if (setup.starting) return;
  setup.starting = true;
  app.render();
  const reply = await app.conn.request("new_game", { name: setup.name.trim() || "New game", game, setup: body() });
  setup.starting = false;
  if (!reply.ok && reply.error && reply.error.code === "not-paired") {
    app.notPaired(reply.error.message); // unpaired meanwhile: pair, then back here with every answer kept
    app.pairFirst();
    return;
  }
  if (!reply.ok) {
    app.showBanner("error", reply.error.message);
    app.render();
    return;
  }
  app.setup = null;
  app.go(`#/game/${encodeURIComponent(reply.game_id)}`);
}

function footer(app, setup, problem, game, body) {
  const next = () => { if (!problem) { setup.step += 1; app.render(); window.scrollTo(0, 0); } };
  return h("footer", { class: "wizard-foot" },
    problem ? h("p", { class: "hint", "data-testid": "setup-problem" }, problem) : h("span"),
    setup.step < STEPS.length
      ? h("button", { class: "btn btn-primary btn-huge", type: "button", "data-testid": "setup-next", disabled: Boolean(problem), onclick: next }, "Next ▶")
      : h("button", { class: "btn btn-primary btn-huge", type: "button", "data-testid": "setup-start", disabled: setup.starting,
                      onclick: () => start(app, setup, game, body) }, setup.starting ? "Starting…" : "Start the game"));
}

/**
 * The wizard page: `title`, the step's `content`, the `problem` that holds Next (or
 * null), and `body()`, the setup sent when the game starts.
 */
export function wizardPage(app, setup, { game, title, content, problem, body }) {
  const back = () => { if (setup.step === 1) { app.setup = null; app.go("#/"); } else { setup.step -= 1; app.render(); } };
  return h("div", { class: "page setup-page", "data-testid": "screen-setup", "data-step": setup.step, "data-game": game },
    h("header", { class: "page-head" },
      h("button", { class: "btn", type: "button", "data-testid": "setup-back", onclick: back }, setup.step === 1 ? "◀ Games" : "◀ Back"),
      h("h1", {}, title), app.connectionPill()),
    h("ol", { class: "steps", "aria-label": "Steps" }, STEPS.map((label, i) =>
      h("li", { class: setup.step === i + 1 ? "step current" : setup.step > i + 1 ? "step done" : "step",
                "aria-current": setup.step === i + 1 ? "step" : null }, `${i + 1}. ${label}`))),
    h("section", { class: "panel wizard" }, content),
    footer(app, setup, problem, game, body));
}
