// The board as it lies on the table: the tiles on their squares, their cubes, the pawns, the
// blockade and STOP markers. A phone turns it so its player's side of the table is at the
// bottom (a seat at the north edge sees the board upside down, as across the table).

import { h } from "/js/dom.js";

const DIRECTIONS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
const ARROWS = ["↑", "↗", "→", "↘", "↓", "↙", "←", "↖"];
/** Eighths of a turn that bring each side of the table to the bottom (geometry.py, TURNS). */
const TURNS = { S: 0, W: 2, N: 4, E: 6 };

/** A board direction as the player at ``side`` sees it, as an arrow; jumps and suburb arrows in words. */
export function facingArrow(side, token) {
  const at = DIRECTIONS.indexOf(token);
  if (at < 0) return token.startsWith("jump:") ? "⤳" : token === "stay" ? "·" : "⇢";
  return ARROWS[(at - (TURNS[side] || 0) + 8) % 8];
}

/** Where square (column, row) shows for a viewer at ``side``: [display column, display row]. */
export function shown(side, column, row, columns, rows) {
  if (side === "N") return [columns - 1 - column, rows - 1 - row];
  if (side === "W") return [row, columns - 1 - column];
  if (side === "E") return [rows - 1 - row, column];
  return [column, row];
}

/** The mark on a value that is still our guess (neither in the rulebook nor confirmed by the owner). */
export const GUESS_WORDS = "our guess: not in the rulebook and not confirmed by you (correct it on the game-data page)";

export function guessMark(record) {
  return record && record.guess ? h("span", { class: "sz-guess", "data-testid": "sz-guess", title: GUESS_WORDS }, "?") : null;
}

function colourOf(pack, element) {
  return (pack.elements.find((e) => e.id === element) || {}).colour || element;
}

function square(app, key, tileId) {
  const { state } = app.view;
  const pack = app.pack;
  const tile = pack.tiles.find((t) => t.id === tileId) || { id: tileId, name: tileId, kind: "district", produces: {} };
  const cubes = state.board.cubes[tileId] || {};
  const pawns = state.order.filter((seat) => state.players[seat].at === tileId);
  const stops = state.board.stops[tileId] || [];
  const blocked = state.board.blockades.includes(tileId);
  const icons = [tile.scare ? "scare" : null, tile.summon ? "imp" : null].filter(Boolean);
  return h("div", { class: `sz-square sz-${tile.kind} sz-${tile.time}${blocked ? " sz-blocked" : ""}`, "data-testid": "sz-square",
                    "data-tile": tileId, "data-square": key },
    h("div", { class: "sz-name" }, tile.name),
    h("div", { class: "sz-meta subtle" }, `${tile.time} · ${Object.entries(tile.produces).map(([e, n]) => `${n} ${colourOf(pack, e)}`).join(", ")}` +
      (icons.length ? ` · ${icons.join(", ")}` : ""), guessMark(tile)),
    Object.keys(cubes).length ? h("div", { class: "sz-cubes", "data-testid": "sz-cubes" },
      Object.entries(cubes).map(([e, n]) => h("span", { class: `sz-cube sz-cube-${colourOf(pack, e)}` }, `${n} ${colourOf(pack, e)}`))) : null,
    pawns.length ? h("div", { class: "sz-pawns" }, pawns.map((seat) =>
      h("span", { class: "sz-pawn", "data-testid": "sz-pawn", "data-seat": seat }, state.players[seat].name))) : null,
    blocked ? h("div", { class: "sz-marker", "data-testid": "sz-blockade" }, "✖ blockade") : null,
    stops.length ? h("div", { class: "sz-marker", "data-testid": "sz-stop" }, `STOP: ${stops.map((s) => state.players[s].name).join(", ")}`) : null);
}

export function boardPanel(app) {
  const { state } = app.view;
  const { columns, rows, layout } = state.board;
  const side = app.view.seat ? ((app.view.private || {}).side || "S") : "S";
  const across = side === "W" || side === "E" ? rows : columns;
  const cells = Object.entries(layout).map(([key, tileId]) => {
    const [column, row] = key.split(",").map(Number);
    const [x, y] = shown(side, column, row, columns, rows);
    return { order: y * across + x, el: square(app, key, tileId) };
  }).sort((a, b) => a.order - b.order).map((c) => c.el);
  const guessed = Object.values(layout).some((id) => (app.pack.tiles.find((t) => t.id === id) || {}).guess);
  return h("section", { class: "panel sz-board-panel" },
    h("h2", {}, app.view.seat ? `The board from your side (${side})` : "The board (north at the top)"),
    h("div", { class: `sz-board sz-across-${across}`, "data-testid": "sz-board", "data-side": side }, cells),
    guessed ? h("p", { class: "subtle", "data-testid": "sz-guess-legend" }, h("span", { class: "sz-guess" }, "?"),
      ` A district's cubes and icons marked so are ${GUESS_WORDS}.`) : null);
}
