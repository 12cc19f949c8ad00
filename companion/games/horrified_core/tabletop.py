"""The Horrified table as a tabletop (companion/engine/tabletop.py), for both editions.

Why here, once: both editions lay out the same kinds of pieces (heroes, monsters and their
minions, villagers, Item tokens, Perk and Monster cards, the Terror and Frenzy markers); each monster's plug-in adds what lies on its mat (``mat_tracks``), its
tokens on the board (``board_figures``) and the items on its mat (``mat_items``), and the
edition its heroes' own marks (a Dark Gift)."""

from __future__ import annotations

from companion.engine.plain import to_plain
from companion.engine.tabletop import OFF, Piece, Tabletop, Track

from .context import GameContext, Figure
from .state import GameState

HAND = "hero:"


class _Laying:
    """A tabletop being laid out: each place is named once, as a piece is put on it."""

    def __init__(self, ctx: GameContext) -> None:
        self.ctx = ctx
        self.places: dict[str, str] = {}
        self.pieces: dict[str, Piece] = {}

    def on_board(self, location: str | None) -> str:
        if location is None:
            return OFF
        self.places.setdefault(location, self.ctx.place_name(location))
        return location

    def with_hero(self, hero: str) -> str:
        key = HAND + hero
        self.places.setdefault(key, self.ctx.hero_name(hero))
        return key

    def pile(self, key: str, name: str) -> str:
        self.places.setdefault(key, name)
        return key

    def put(self, piece_id: str, name: str, at: str) -> None:
        self.pieces[piece_id] = Piece(name, at)


def tabletop(ctx: GameContext) -> Tabletop:
    """The whole table: figures, tokens, cards, markers and each monster's mat."""
    laying = _Laying(ctx)
    _figures(laying)
    _items(laying)
    _cards(laying)
    return Tabletop(laying.places, laying.pieces, {}, _tracks(ctx))


def _figures(laying: _Laying) -> None:
    ctx, state = laying.ctx, laying.ctx.state
    for hero in state.heroes.values():
        laying.put(f"hero:{hero.id}", ctx.hero_name(hero.id), laying.on_board(hero.location))
    for figure in ctx.monster_figures():
        laying.put(_figure_id(figure), ctx.figure_name(figure), laying.on_board(ctx.where(figure)))
    for villager in state.villagers.values():
        laying.put(f"villager:{villager.id}", ctx.pack.villager(villager.id).name, laying.on_board(villager.location))
    for monster in state.monsters_in_play():
        for token in ctx.monster_rules[monster.id].board_figures(ctx):
            if "id" in token:  # a minion (by its ``index``) is one of the monster figures above
                laying.put(f"{token['kind']}:{token['id']}", str(token["name"]), laying.on_board(_where(token)))
    for hero in state.heroes.values():
        for relic in hero.relics:
            laying.put(f"relic:{relic}", _relic_name(ctx, relic), laying.with_hero(hero.id))


def _figure_id(figure: Figure) -> str:
    return f"monster:{figure.monster}" if figure.minion is None else f"monster:{figure.monster}:{figure.minion + 1}"


def _where(token: dict[str, object]) -> str | None:
    location = token.get("location")
    return location if isinstance(location, str) else None


def _relic_name(ctx: GameContext, relic: str) -> str:
    for rules in ctx.monster_rules.values():
        for entry in rules.pack_view().get("relics", []):
            if entry.get("id") == relic:
                return str(entry.get("name", relic))
    return relic


def _items(laying: _Laying) -> None:
    ctx, state = laying.ctx, laying.ctx.state

    def name(item: str) -> str:
        return "the " + ctx.pack.item(item).name

    for item, location in state.items_at.items():
        laying.put(f"item:{item}", name(item), laying.on_board(location))
    for hero in state.heroes.values():
        for item in hero.items:
            laying.put(f"item:{item}", name(item), laying.with_hero(hero.id))
    bag = laying.pile("pile:item-bag", ctx.edition.item_bag)
    for item in state.haversack:
        laying.put(f"item:{item}", name(item), bag)
    discard = laying.pile("pile:item-discard", "the item discard pile")
    for item in state.item_discard:
        laying.put(f"item:{item}", name(item), discard)
    for monster, mat in state.mats.items():
        here = laying.pile(f"mat:{monster}", f"{ctx.monster(monster).name}'s mat")
        for item in ctx.monster_rules[monster].mat_items(mat):
            laying.put(f"item:{item}", name(item), here)


def _cards(laying: _Laying) -> None:
    ctx, state = laying.ctx, laying.ctx.state
    deck = laying.pile("pile:monster-deck", "the Monster deck")
    for card in state.deck:
        laying.put(f"card:{card}", f"the Monster card {ctx.pack.card(card).name}", deck)
    played = laying.pile("pile:monster-discard", "the Monster card discard pile")
    for card in state.played_cards:
        laying.put(f"card:{card}", f"the Monster card {_card_name(ctx, card)}", played)
    perk_piles = [(state.perk_deck, laying.pile("pile:perk-deck", "the Perk deck")),
                  (state.perk_discard, laying.pile("pile:perk-discard", "the Perk discard pile")),
                  *((hero.perks, laying.with_hero(hero.id)) for hero in state.heroes.values() if hero.perks)]
    for perks, where in perk_piles:
        for perk in perks:
            laying.put(f"perk:{perk}", f"the Perk card {ctx.pack.perk(perk).name}", where)


def _card_name(ctx: GameContext, card: str) -> str:
    typed = ctx.state.entered_cards.get(card)
    if typed is not None and isinstance(typed.get("name"), str):
        return str(typed["name"])
    return ctx.pack.card(card).name


def _tracks(ctx: GameContext) -> dict[str, Track]:
    state: GameState = ctx.state
    frenzy = ctx.monster(state.frenzy).name if state.frenzy else None
    tracks = {"terror": Track("The Terror marker", state.terror), "frenzy": Track("The Frenzy marker is on", frenzy)}
    for hero in state.heroes.values():
        plain = to_plain(hero)
        assert isinstance(plain, dict)
        for mark in ctx.edition.hero_marks:
            tracks[f"{mark}:{hero.id}"] = Track(f"{_sentence(ctx.hero_name(hero.id))}'s {mark.replace('_', ' ')}",
                                                 plain.get(mark))
    for monster in state.mats:
        for key, text in ctx.monster_rules[monster].mat_tracks(ctx).items():
            tracks[f"mat:{monster}:{key}"] = Track(f"{ctx.monster(monster).name}'s mat", text)
    return tracks


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]
