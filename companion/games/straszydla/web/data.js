// Straszydła's game data page: every tile, creature, imp, pact card, help-card row and cube
// colour of the box with where it comes from (the rulebook, the owner's check, or our guess),
// and a tap to confirm a guess against the owner's own box (the shared owner-data desk keeps it).

import { h } from "/js/dom.js";

const STATE_WORDS = { rulebook: "in the rulebook", confirmed: "you confirmed it", guess: "our guess" };

function game(app) {
  return app.route.game || app.screenPack || "straszydla";
}

export async function startData(app) {
  const reply = await app.conn.request("data_get", { game: game(app) });
  if (!reply.ok) { app.showBanner("error", reply.error.message); return; }
  app.szData = reply;
  app.render();
}

async function confirm(app, key) {
  const saved = app.szData.data || {};
  const data = { ...saved, confirmed: [...new Set([...(saved.confirmed || []), key])] };
  const reply = await app.conn.request("data_save", { game: game(app), data });
  if (!reply.ok) { app.showBanner("error", reply.error.message); return; }
  await startData(app);
}

export function dataScreen(app) {
  const loaded = app.szData;
  const head = h("header", { class: "page-head" }, h("button", { class: "btn", type: "button", onclick: () => app.go("#/") }, "◀ Games"),
    h("h1", {}, "Straszydła: the game data"), app.connectionPill());
  if (!loaded) return h("div", { class: "page", "data-testid": "screen-data" }, head, h("p", {}, "Opening the box…"));
  const byKind = {};
  for (const element of loaded.status.elements) (byKind[element.kind] ||= []).push(element);
  return h("div", { class: "page", "data-testid": "screen-data" }, head,
    h("p", { class: "subtle" }, "Most of this box's card data is not printed in the rulebook: what is marked “our guess” may be wrong. Check it against your box and confirm it, or correct it in the owner's data file (docs/straszydla.md, Data)."),
    (loaded.problems || []).map((p) => h("p", { class: "hint" }, p)),
    Object.entries(byKind).map(([kind, elements]) => h("section", { class: "panel" }, h("h2", {}, kind),
      h("ul", {}, elements.map((e) => h("li", { "data-testid": "sz-data-element", "data-key": e.key, "data-state": e.state },
        h("strong", {}, e.name), ` — ${STATE_WORDS[e.state] || e.state}`, e.note ? h("span", { class: "subtle" }, ` (${e.note})`) : null, " ",
        e.state === "guess" ? h("button", { class: "btn", type: "button", "data-testid": "sz-data-confirm", onclick: () => confirm(app, e.key) },
          "It is right on my box") : null))))));
}
