// The threat forecast of the coming Monster Phase on the game screen (docs/forecast.md), the
// same for every edition: a dim glow on the board under each threatened place, a panel with
// each hero's and villager's chance of being attacked or defeated, the expected Terror rise
// and the chance of losing, and "What if…?": the forecast after an action the player is
// thinking of, asked of the companion without playing it.
//
// The companion pushes the forecast of each version of the game during a Hero Phase
// (`forecast` events; the shell keeps the last in app.forecast and calls acceptForecast);
// one is shown only for the version on screen, and never once the Monster Phase has begun.
// A what-if lives in app.ui, which every new view clears: it is of one moment of the game.
// The edition's board calls threatGlow with where its places are drawn; its game screen
// shows forecastPanel (beside the question, not below the board); its takeAnswer asks takeWhatIf first.
// Each figure is the chance with the phase's choices made at random, large; the range the
// active player's choices can give it is the small line under it; a what-if shows before → after.

import { h, s } from "/js/dom.js";
import { humanize } from "./names.js";

const GLOW_MOST = 0.6; // the opacity of a place at 1.0: still dim, so the figures read through it
const ASKING = "hero-action"; // the question a what-if is asked at: the hero's next action
// With a full deck and several monsters a forecast can take tens of seconds on a busy box.
const WHAT_IF_TIMEOUT_MS = 180000;
let drawnAt = null; // where the last board drawn put each place (for a redraw in place)

/** The game's own forecast of the version shown (pushed), or null. */
function current(app) {
  const { view } = app;
  const pushed = app.forecast;
  return pushed && pushed.game_id === view.game_id && pushed.version === view.version && pushed.forecast ? pushed.forecast : null;
}

/** The forecast on screen: an open what-if's, else the game's for the version shown; none outside a Hero Phase. */
function shown(app) {
  const { view } = app;
  if (!view || !view.state || view.state.phase !== "hero") return null;
  const whatIf = app.ui.whatIf;
  if (whatIf) return whatIf.forecast && whatIf.version === view.version ? { forecast: whatIf.forecast, whatIf } : null;
  const fresh = current(app);
  return fresh ? { forecast: fresh, whatIf: null } : null;
}

// -- the board ---------------------------------------------------------------------------------------
/** The glow under each threatened place; ``pos``: {place id: [x, y]} as the board draws them. */
export function threatGlow(app, pos) {
  drawnAt = pos;
  const found = shown(app);
  const glow = (found && found.forecast.glow) || {};
  return s("g", { id: "threat-glow", class: `threat-glow${found && found.whatIf ? " what-if" : ""}`, "data-testid": "threat-glow",
                  "data-what-if": found && found.whatIf ? "yes" : "no", "aria-hidden": "true" },
    Object.entries(glow).filter(([place]) => pos[place]).map(([place, level]) => {
      const [x, y] = pos[place];
      return s("g", { class: "threat-place", "data-testid": "threat-mark", "data-id": place, "data-tier": tier(level) },
        s("circle", { cx: x, cy: y, r: 50, class: "threat-spot", "data-testid": "threat-spot",
                      "data-id": place, "data-glow": level, opacity: (Math.min(1, Math.max(0, level)) * GLOW_MOST).toFixed(3) }),
        s("circle", { cx: x, cy: y, r: 50, class: "threat-ring" }),
        s("text", { x: x + 38, y: y - 30, class: "threat-marks" }, TIERS[tier(level)].marks));
    }));
}

/** The glow's levels in marks and words besides its shade (docs/forecast.md, "On the board"). */
const TIERS = [{ marks: "!", words: "some chance (under 1 in 3)" }, { marks: "!!", words: "likely (1 in 3 to 2 in 3)" },
               { marks: "!!!", words: "very likely (over 2 in 3)" }];

function tier(level) {
  return level < 1 / 3 ? 0 : level < 2 / 3 ? 1 : 2;
}

/** The legend of the glow, and each glowing place in words (a screen reader's board). */
function glowLegend(app, forecast, whatIf) {
  const glowing = Object.entries(forecast.glow || {}).sort((a, b) => b[1] - a[1]);
  return h("div", { class: "threat-legend", "data-testid": "threat-legend" },
    h("p", { class: "subtle" }, "On the board, a threatened place glows vermillion and is marked ",
      TIERS.map((t, i) => [i ? (i === TIERS.length - 1 ? " or " : ", ") : "", h("strong", {}, t.marks), ` ${t.words}`]),
      whatIf ? "; the dashed rings are the forecast after the action asked about, not the game as it is." : "."),
    glowing.length ? h("p", { "data-testid": "threat-places" }, "Threatened: ",
      glowing.map(([place, level], i) => `${i ? ", " : ""}${app.names.place(place)} (${TIERS[tier(level)].marks} ${TIERS[tier(level)].words.split(" (")[0]})`).join(""))
      : h("p", { class: "subtle", "data-testid": "threat-places" }, "No place is threatened."));
}

// -- numbers in words ------------------------------------------------------------------------------------
function percent(x) {
  const p = Math.round(x * 100);
  return x <= 0 ? "0%" : x >= 1 ? "100%" : p === 0 ? "<1%" : p === 100 ? ">99%" : `${p}%`;
}

function amount(x) {
  return (Math.round(x * 10) / 10).toFixed(1);
}

/** The active player, in the table's words: the one whose choices in the phase (ties, orders) move a range. */
function chooser(app) {
  const { state } = app.view;
  const hero = state.heroes && state.heroes[state.seats[state.active]];
  return hero && hero.player ? hero.player : "the active player";
}

/**
 * One figure: the chance with the phase's choices made at random, first and large ("≈" for an
 * estimate); under it, smaller, how low and how high the active player's choices can make it, when
 * they change it. In a what-if, the figure before the action → after it.
 */
function figure(app, now, before, exact, words = percent) {
  const main = `${exact ? "" : "≈ "}${words(now.random)}`;
  const low = words(now.low), high = words(now.high);
  const range = low === high ? null
    : h("small", { class: "forecast-range", "data-testid": "forecast-range" }, `${chooser(app)} can make it ${low}–${high}`);
  const was = before ? h("span", { class: "forecast-before", "data-testid": "forecast-before" }, words(before.random)) : null;
  return [h("span", { class: "forecast-figure", "data-testid": "forecast-main", "data-random": now.random },
    was, was ? [h("span", { class: "forecast-arrow", "aria-hidden": "true" }, " → "), h("span", { class: "visually-hidden" }, " becomes ")] : null, h("strong", {}, main)), range];
}

function who(app, character) {
  const names = app.names;
  const name = character.kind === "hero" ? names.hero(character.id) : names.villager(character.id);
  return [h("strong", {}, name), h("small", {}, ` at ${names.place(character.at)}`)];
}

// -- the panel --------------------------------------------------------------------------------------------
function characterRow(app, character, before, exact) {
  const hero = character.kind === "hero";
  const keeping = character.defeated_keeping_items;
  return h("tr", { "data-testid": "forecast-row", "data-kind": character.kind, "data-id": character.id },
    h("th", { scope: "row" }, who(app, character)),
    h("td", { "data-testid": "forecast-attacked" }, figure(app, character.attacked, before && before.attacked, exact)),
    h("td", { "data-testid": "forecast-defeated" }, figure(app, character.defeated, before && before.defeated, exact),
      hero ? h("small", { class: "keeping", "data-testid": "forecast-keeping" },
        `If they never discard an item to stop a hit: ${before ? `${percent(before.defeated_keeping_items.random)} → ` : ""}`
        + `${exact ? "" : "≈ "}${percent(keeping.random)}`) : null));
}

function cardNames(app, ids) {
  return ids.map((id) => app.names.card(id)).join(", ");
}

function notes(app, forecast, whatIf) {
  const said = [h("li", { "data-testid": "forecast-legend" }, `Each chance is for the Monster Phase's choices (which of two equally near `
    + `targets, the order of things) falling any way. Where ${chooser(app)}'s choices change it, the small line says how low and `
    + `how high ${chooser(app)} can make it by choosing.`)];
  if (whatIf) said.push(h("li", { "data-testid": "forecast-before-after" }, "Before → after: the chance now, then after that action."));
  if (!forecast.exact) {
    const one = forecast.estimated.length === 1;
    const off = forecast.estimate_error > 0 ? ` A chance may be off by about ±${Math.max(1, Math.round(forecast.estimate_error * 100))} points.` : "";
    said.push(h("li", { "data-testid": "forecast-estimated" },
      `Estimates (≈), not exact: ${cardNames(app, forecast.estimated)} ${one ? "has" : "have"} too many ways to walk in the time, so ${one ? "it was" : "they were"} played out at random many times instead.${off}`));
  }
  if (forecast.by_hand.length) {
    said.push(h("li", { "data-testid": "forecast-by-hand" },
      `Not foreseen: what you do by hand for ${cardNames(app, forecast.by_hand)}.`));
  }
  return h("ul", { class: "forecast-notes subtle" }, said);
}

/** The figures; ``before``: the forecast of the table as it is, in a what-if (each figure before → after). */
function numbers(app, forecast, before) {
  const exact = forecast.exact;
  const was = (c) => (before ? before.characters.find((b) => b.kind === c.kind && b.id === c.id) || null : null);
  return [
    h("table", { class: "forecast-table", "data-testid": "forecast-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Who"), h("th", { scope: "col" }, "Attacked"), h("th", { scope: "col" }, "Defeated"))),
      h("tbody", {}, forecast.characters.map((c) => characterRow(app, c, was(c), exact)))),
    h("p", { class: "forecast-line", "data-testid": "forecast-terror" }, "Terror rises by ",
      figure(app, forecast.terror_rise, before && before.terror_rise, exact, amount), " on average"),
    h("p", { class: "forecast-line", "data-testid": "forecast-lose" }, "Chance of losing in this Monster Phase: ",
      figure(app, forecast.lose, before && before.lose, exact)),
    notes(app, forecast, Boolean(before)),
  ];
}

function whatIfHead(app, whatIf) {
  const dismiss = h("button", { class: "btn", type: "button", "data-testid": "what-if-dismiss",
                                onclick: () => { app.ui.whatIf = null; refresh(app); } }, "Dismiss ✕");
  if (whatIf.error) {
    return [h("p", { class: "forecast-what-if", "data-testid": "what-if-error", role: "alert" },
      `No what-if for “${whatIf.label}”: ${whatIf.error}`), dismiss];
  }
  const words = whatIf.forecast ? `What if: ${whatIf.label}. Nothing was played.` : `Working out what happens if: ${whatIf.label}…`;
  return [h("p", { class: "forecast-what-if", "data-testid": "what-if-label" }, words), dismiss];
}

function whatIfButton(app) {
  if (app.ui.whatIfMode) {
    return [h("p", { class: "prompt-hint", "data-testid": "what-if-hint" },
      "Tap an action (or a glowing place) to see the forecast after it. Nothing is played."),
      h("button", { class: "btn", type: "button", "data-testid": "what-if-cancel",
                    onclick: () => { app.ui.whatIfMode = false; refresh(app); } }, "Cancel")];
  }
  return h("button", { class: "btn", type: "button", "data-testid": "what-if",
                       onclick: () => { app.ui.whatIfMode = true; app.ui.whatIf = null; refresh(app); } }, "What if…?");
}

/** The forecast's panel: only while the hero is choosing an action (its section stays, empty, to be filled in place). */
export function forecastPanel(app) {
  const { view } = app;
  const asking = view.prompt && view.prompt.key === ASKING && view.state.phase === "hero";
  if (!asking) return h("section", { id: "forecast-panel", hidden: true });
  const found = shown(app);
  const whatIf = app.ui.whatIf;
  return h("section", { class: `panel forecast${whatIf ? " what-if" : ""}`, id: "forecast-panel", "data-testid": "forecast",
                        "data-version": view.version, "data-ready": found ? "yes" : "no",
                        "data-exact": found ? String(found.forecast.exact) : "", "data-what-if": whatIf ? "yes" : "no" },
    h("h2", {}, "The coming Monster Phase",
      found && !found.forecast.exact ? h("span", { class: "badge", "data-testid": "forecast-estimate" }, "Estimate") : null),
    whatIf ? whatIfHead(app, whatIf) : whatIfButton(app),
    found ? [h("p", { class: "subtle", "data-testid": "forecast-cards" },
      `Over the ${found.forecast.cards_left} Monster card${found.forecast.cards_left === 1 ? "" : "s"} left, the dice and the bag.`),
      numbers(app, found.forecast, found.whatIf && found.whatIf.forecast !== current(app) ? current(app) : null),
      glowLegend(app, found.forecast, whatIf)]
      : whatIf && !whatIf.error ? null : h("p", { class: "subtle", "data-testid": "forecast-pending" }, "Working out the coming Monster Phase… (with many cards left in the deck this can take a while)"));
}

// -- what if ---------------------------------------------------------------------------------------------
/** How the menu words ``action`` (its label), else plain words of its own. */
function actionWords(app, action) {
  const same = (app.view.actions || []).find(({ label, ...answer }) => JSON.stringify(answer) === JSON.stringify(action));
  if (same && same.label) return same.label;
  return `${humanize(action.action)}${typeof action.to === "string" ? ` to ${app.names.place(action.to)}` : ""}`;
}

/** The shell's takeAnswer, first: in "What if…?" an action tapped is asked about, never sent. */
export function takeWhatIf(app, prompt, answer) {
  if (!app.ui.whatIfMode || prompt.key !== ASKING || !answer || typeof answer !== "object") return false;
  app.ui.whatIfMode = false;
  if (answer.action === "end") {  // ending the Hero Phase now: the forecast as it stands
    const now = shown(app);
    app.ui.whatIf = { version: app.view.version, label: actionWords(app, answer), forecast: now ? now.forecast : null,
                      error: now ? null : "the forecast of the game as it stands is still being worked out" };
    refresh(app);
    return true;
  }
  askWhatIf(app, answer);
  return true;
}

async function askWhatIf(app, action) {
  const { view, ui } = app;
  ui.whatIf = { version: view.version, action, label: actionWords(app, action), forecast: null, error: null };
  refresh(app);
  const reply = await app.conn.request("forecast_what_if", { game_id: view.game_id, version: view.version, action },
                                       { timeoutMs: WHAT_IF_TIMEOUT_MS });
  if (app.ui !== ui || ui.whatIf === null || ui.whatIf.action !== action) return; // the game moved on, or it was dismissed
  if (reply.ok) ui.whatIf.forecast = reply.forecast;
  else ui.whatIf.error = reply.error.message;
  refresh(app);
  const panel = document.getElementById("forecast-panel"); // the answer in view, beside the question asked
  if (panel) panel.scrollIntoView({ block: "nearest" });
}

/** A forecast arrived or a what-if changed: the panel and the glow are redrawn in place (the rest stays as it is). */
export function refresh(app) {
  if (!app.view) return;
  const panel = document.getElementById("forecast-panel");
  if (panel) panel.replaceWith(forecastPanel(app));
  const glow = document.getElementById("threat-glow");
  if (glow && drawnAt) glow.replaceWith(threatGlow(app, drawnAt));
}
