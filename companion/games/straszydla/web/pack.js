// Straszydła's tablet and phone module: the new-game screen (players, the tiles as the owner
// laid them, who starts, the readings), and the game screen. The shared tablet shows what
// lies open on the table; a phone plays its own seat, shows its pact card, its plan and its
// bid while they are sealed, and turns the board so the player's own side is at the bottom.

import { h, packStylesheet } from "/js/dom.js";
import { promptPanel, seatName } from "/js/prompt.js";
import { effectsPanel, historyDrawer, loadingScreen } from "/js/gamescreen.js";
import { setupScreen } from "./setup.js";
import { boardPanel, facingArrow, guessMark, GUESS_WORDS } from "./board.js";
import { dataScreen, startData } from "./data.js";

const PHASES = { pacts: "Pacts", planning: "Planning", moving: "Moving", duel: "Duel", actions: "Actions",
                 blockades: "Blockades", feeding: "Feeding", summoning: "Summoning", over: "The end" };

await packStylesheet(new URL("./pack.css", import.meta.url).href);

function named(list, id) {
  const found = (list || []).find((x) => x.id === id);
  return found ? found.name : id;
}

function elementWords(pack, ids) {
  return ids.map((e) => named(pack.elements, e)).join(", ");
}

/** The element symbols printed on a pact card, as chips in their cubes' colours with their names. */
function pactSymbols(pack, ids) {
  return h("span", { class: "sz-symbols", "data-testid": "sz-pact-symbols" }, ids.map((e) => {
    const element = (pack.elements || []).find((x) => x.id === e) || { id: e, name: e, colour: "" };
    return h("span", { class: `sz-symbol sz-cube-${element.colour}`, "data-testid": "sz-symbol", "data-element": e }, element.name);
  }));
}

/**
 * The pact card on review before it counts (the pact is this phone's secret, so the review is
 * too): kept here rather than in app.ui, which every new view clears, since another player
 * naming their card meanwhile must not take this player's review away.
 */
const reviewing = { game: null, seat: null, pact: null };

function reviewed(app) {
  const { view } = app;
  return reviewing.game === view.game_id && reviewing.seat === view.seat ? reviewing.pact : null;
}

function review(app, pact) {
  Object.assign(reviewing, { game: app.view.game_id, seat: app.view.seat, pact });
  app.refreshPrompt();
}

/** "Which pact card were you dealt?": each card with its symbols; a tap shows it big, and it counts on "Yes". */
function pactBody(app, prompt) {
  if (prompt.key !== "pact" || prompt.kind !== "choice") return null;
  const chosen = prompt.options.find((o) => o.id === reviewed(app));
  if (chosen) {
    return h("div", { class: "sz-pact-review", "data-testid": "sz-pact-review", "data-pact": chosen.id },
      h("p", { class: "prompt-hint" }, "Check it against the card in your hand: the name and the five symbols."),
      h("div", { class: "sz-pact-card" }, h("strong", {}, chosen.text), pactSymbols(app.pack, (chosen.data || {}).elements || [])),
      h("div", { class: "options" },
        h("button", { class: "btn btn-primary btn-huge", type: "button", "data-testid": "sz-pact-yes",
                      onclick: () => { review(app, null); app.answer(chosen.id); } }, "Yes, this is my pact card"),
        h("button", { class: "btn", type: "button", "data-testid": "sz-pact-back", onclick: () => review(app, null) },
          "No, choose another")));
  }
  return [h("p", { class: "prompt-hint" }, "Tap the card you were dealt; you check it before it counts."),
    h("div", { class: "options", "data-testid": "options" }, prompt.options.map((option) =>
      h("button", { class: "btn option", type: "button", "data-testid": "option", "data-id": option.id,
                    onclick: () => review(app, option.id) },
        h("span", { class: "opt-main" }, option.text), pactSymbols(app.pack, (option.data || {}).elements || []))))];
}

/** The card in front of the starting player, and the duel when one is on. */
function timePanel(app) {
  const { state } = app.view;
  const duel = state.duel;
  const starting = state.players[state.starting];
  return h("section", { class: "panel sz-time", "data-testid": "sz-time", "data-time": state.time },
    h("h2", {}, `${state.time === "day" ? "Day" : "Night"} · round ${state.round_in_time} of 4`),
    h("p", {}, `${starting ? starting.name : ""} holds the day/night card: ${state.card} horror cube${state.card === 1 ? "" : "s"} on it.`),
    duel ? h("p", { class: "sz-duel", "data-testid": "sz-duel" },
      `Duel at ${named(app.pack.tiles, duel.place)}: ${state.players[duel.holder].name} against ${state.players[duel.challenger].name}` +
      (Object.keys(duel.dice).length ? ` · dice ${Object.entries(duel.dice).map(([s, d]) => `${state.players[s].name} ${d.join(", ")}`).join("; ")}` : "") +
      (Object.keys(duel.bids).length ? ` · bids ${Object.entries(duel.bids).map(([s, n]) => `${state.players[s].name} ${n}`).join(", ")}`
        : duel.bids_in.length ? ` · sealed: ${duel.bids_in.map((s) => state.players[s].name).join(", ")}` : "")) : null,
    state.outcome ? h("p", { class: "sz-outcome", "data-testid": "sz-outcome" }, state.outcome) : null);
}

/** A creature as the players panel shows it: its name, its day/night strengths, and the mark on a guess. */
function creatureWords(pack, id) {
  const record = (pack.creatures || []).find((c) => c.id === id);
  if (!record) return [h("span", {}, id)];
  return [h("span", { "data-testid": "sz-creature", "data-creature": id }, `${record.name} ${record.day}/${record.night}`, guessMark(record))];
}

function playersPanel(app) {
  const { state } = app.view;
  const pack = app.pack;
  const guessed = state.order.some((seat) => state.players[seat].creatures.some((c) => ((pack.creatures || []).find((x) => x.id === c) || {}).guess));
  return h("section", { class: "panel sz-players", "data-testid": "sz-players" }, h("h2", {}, "Players"),
    guessed ? h("p", { class: "subtle", "data-testid": "sz-guess-legend" }, h("span", { class: "sz-guess" }, "?"),
      ` Strengths (day/night) marked so are ${GUESS_WORDS}.`) : null,
    h("ul", {}, state.order.map((seat) => {
      const p = state.players[seat];
      const cubes = Object.entries(p.cubes).map(([e, n]) => `${n} ${(pack.elements.find((x) => x.id === e) || {}).colour || e}`);
      const waiting = state.phase === "pacts" ? state.pacts_in : state.phase === "planning" ? state.planned : null;
      return h("li", { class: "sz-player", "data-testid": "sz-player", "data-seat": seat },
        h("strong", {}, p.name), waiting ? h("span", { class: "badge" }, waiting.includes(seat) ? "ready" : "thinking") : null,
        h("div", { class: "subtle" }, p.creatures.length ? p.creatures.flatMap((c, n) => [n ? ", " : null, ...creatureWords(pack, c)]) : "no creatures"),
        h("div", {}, `${p.energy} white · ${p.horror} black${cubes.length ? " · " + cubes.join(", ") : ""}` +
          (p.imps.length ? ` · imps: ${p.imps.map((i) => named(pack.imps, i)).join(", ")}` : "")));
    })));
}

/** A phone's own secrets (the shared tablet says it keeps none). */
function minePanel(app) {
  const { view } = app;
  if (!view.seat) {
    return h("p", { class: "subtle", "data-testid": "sz-watching" }, "This screen shows only what lies open on the table: pacts, plans and bids stay on the players' phones.");
  }
  const mine = view.private || {};
  const side = mine.side || "S";
  return h("section", { class: "panel sz-mine", "data-testid": "sz-mine" }, h("h2", {}, "Only on your phone"),
    h("p", { "data-testid": "sz-pact", "aria-label": mine.pact ? `Your pact: ${mine.pact.name} (${elementWords(app.pack, mine.pact.elements)})` : null },
      mine.pact ? [`Your pact: ${mine.pact.name} `, pactSymbols(app.pack, mine.pact.elements)] : "Name your pact card when asked."),
    mine.plan ? h("p", { "data-testid": "sz-plan" }, `Your plan, sealed: ${mine.plan.map((t) => facingArrow(side, t)).join(" ")}`) : null,
    mine.bid !== null && mine.bid !== undefined ? h("p", { "data-testid": "sz-bid" }, `Your sealed bid: ${mine.bid}`) : null,
    anytimePanel(app, mine));
}

/**
 * "At any moment of the game you may exchange your cubes": the trades, horror-cube actions and imps this phone's
 * player may make whatever is asked (a duel's bid too), folded away; hidden while their own actions or feeding
 * are asked, where the same buttons stand in the question.
 */
function anytimePanel(app, mine) {
  const moves = mine.anytime || [];
  const prompt = app.view.prompt;
  const ownTurn = prompt && ["actions", "feed"].includes(prompt.key) && prompt.player === app.view.seat;
  if (!moves.length || ownTurn) return null;
  return h("details", { class: "sz-anytime", "data-testid": "sz-anytime" },
    h("summary", {}, "Trade at the bank now (at any moment)"),
    h("div", { class: "options" }, moves.map((move) => {
      const { label, ...sent } = move;
      return h("button", { class: "btn action", type: "button", "data-testid": "sz-anytime-move", "data-action": move.action,
                           onclick: () => app.anytime(sent) }, label);
    })));
}

/**
 * Plans as the player sees them: one button per district the pawn can end on, its arrows turned to their side.
 * Once laid, the plan shows on top, and another may be laid instead until everyone has planned (the rulebook:
 * "When you are ready, reveal your tokens. From that moment you may not change your plan").
 */
function planBody(app, prompt) {
  if (prompt.key !== "plan") return null;
  const mine = app.view.private || {};
  const side = mine.side || "S";
  const laid = (prompt.answered || []).includes(app.view.seat) && mine.plan ? mine.plan.join(" ") : null;
  const plans = (app.view.actions || []).filter((a) => a.action === "plan");
  const waiting = (prompt.audience || []).filter((s) => !(prompt.answered || []).includes(s)).map((s) => seatName(app, s));
  return [laid ? h("div", { class: "sz-plan-laid", "data-testid": "sz-plan-laid" },
      h("p", {}, h("strong", {}, `Your plan is laid: ${mine.plan.map((t) => facingArrow(side, t)).join(" ")}`)),
      h("p", { class: "prompt-hint" }, `Still planning: ${waiting.join(", ")}. Until they have planned you may lay another plan below.`))
    : null,
    h("div", { class: "options sz-plans" }, plans.map((entry) => {
      const end = entry.label.split("→").pop().trim();
      const current = laid === entry.moves.join(" ");
      return h("button", { class: `btn action${current ? " sz-current" : ""}`, type: "button", "data-testid": "sz-plan-to",
                           "data-end": end, "aria-pressed": current ? "true" : "false", disabled: current,
                           onclick: () => app.answer({ action: "plan", moves: entry.moves }) },
        h("span", { class: "opt-main" }, `${current ? "Your plan: " : laid ? "Change to " : "To "}${end}`),
        h("span", { class: "opt-sub" }, entry.moves.map((t) => facingArrow(side, t)).join(" ")));
    }))];
}

export default {
  names: (pack) => ({ place: (id) => named(pack.tiles, id) }),
  setupScreen,
  gameScreen(app) {
    const { view } = app;
    if (!view || !app.pack) return loadingScreen(app);
    return h("div", { class: "game sz-game", "data-testid": "screen-game", "data-game-id": view.game_id, "data-version": view.version },
      h("header", { class: "topbar" }, h("button", { class: "btn btn-bar", type: "button", onclick: () => app.go("#/") }, "◀ Games"),
        h("button", { class: "btn btn-bar", type: "button", "data-testid": "history-open",
                      onclick: () => { app.historyOpen = true; app.render(); } }, "↶ History"), app.connectionPill()),
      h("div", { class: "game-body" },
        h("div", { class: "col-side" }, promptPanel(app), minePanel(app), effectsPanel(app)),
        h("div", { class: "col-board" }, timePanel(app), boardPanel(app), playersPanel(app))),
      app.historyOpen ? historyDrawer(app) : null);
  },
  actionBody: planBody,
  promptBody: pactBody,
  dataPages: ["status"],
  dataScreen,
  startData,
  phaseWord: (app) => PHASES[app.view.state.phase] || app.view.state.phase,
};
