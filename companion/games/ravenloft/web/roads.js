// The roads we guessed on a monster's path, each with one tap for "that road isn't on my
// board". The board data marks each road checked against a real board or not; a path
// over an unchecked one may be wrong, and the table sees it at once when the figure
// must walk where their board has no road. The tap takes the road out of the owner's
// board data and the companion works the step out again without it (the question of
// the paths is asked again on the new board, or the move changes), so the phase goes
// on as their own board says.

import { h } from "/js/dom.js";

const roadKey = (a, b) => [a, b].sort().join("+");

/** The paths on screen: a path question's choices, or else the moves of the last change. */
function pathsOnScreen(view) {
  const prompt = view.prompt;
  const offered = prompt && prompt.kind === "choice"
    ? prompt.options.map((o) => (o.data && Array.isArray(o.data.path) ? o.data.path : null)).filter(Boolean) : [];
  if (offered.length) return offered;
  return (view.effects || []).filter((e) => (e.kind === "monster-moved" || e.kind === "figure-moved") && Array.isArray(e.data.path))
    .map((e) => e.data.path);
}

/** The guessed roads the paths on screen walk, once each, in the order they are walked. */
export function guessedRoadsOnPaths(pack, view) {
  const guessed = new Set((pack.board.guessed_roads || []).map(([a, b]) => roadKey(a, b)));
  const found = new Map();
  for (const path of pathsOnScreen(view)) {
    for (let i = 1; i < path.length; i += 1) {
      const key = roadKey(path[i - 1], path[i]);
      if (guessed.has(key) && !found.has(key)) found.set(key, [path[i - 1], path[i]]);
    }
  }
  return [...found.values()];
}

/** Beside the question: the guessed roads of the path shown, for the table to check on their board. */
export function roadCheckPanel(app) {
  const { view } = app;
  if (!view || view.outcome || !app.pack) return null;
  const roads = guessedRoadsOnPaths(app.pack, view);
  if (!roads.length) return null;
  return h("section", { class: "panel road-check", "data-testid": "road-check" },
    h("h2", {}, roads.length === 1 ? "A road we guessed" : "Roads we guessed"),
    h("p", { class: "subtle" }, "This path uses a road we are not sure of. Look at your board: if the road is not there, "
      + "tap it, and the companion works this step out again without it (and remembers it for every game)."),
    h("ul", { class: "road-check-list" }, roads.map(([a, b]) => h("li", {},
      h("button", { class: "btn road-missing", type: "button", "data-testid": "road-missing", "data-between": [a, b].sort().join(" "),
                    onclick: () => app.send("data_road_missing", { between: [a, b] }) },
        `That road isn't on my board: ${app.names.place(a)} – ${app.names.place(b)}`)))));
}
