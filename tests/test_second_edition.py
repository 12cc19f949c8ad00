"""A second edition on the Horrified core, in a few lines: the proof that the original
Horrified can be an edition beside Ravenloft with no copying. This toy edition has no
d20 (a challenge is checked by the items' strength alone), a Hospital where defeated
heroes return, an Event monster that strikes only when frenzied, and two monster
plug-ins of its own, one with a mat; it is played by the core's rules, loaded by the
core's loader, and saved and restored through the core's state."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from companion.engine.effects import Effect, EffectSink
from companion.engine.errors import IllegalInput
from companion.engine.game import Flow, Game
from companion.engine.plain import to_plain
from companion.engine.registry import Registry
from companion.games.horrified_core.attack import Defence
from companion.games.horrified_core.challenge import away_from
from companion.games.horrified_core.context import Character, Figure, GameContext
from companion.games.horrified_core.edition import Action, Labeller, Strike
from companion.games.horrified_core.events import COMMON_EVENTS, EventStep
from companion.games.horrified_core.hero_phase import ActionKind
from companion.games.horrified_core.monsters import MonsterRegistry, MonsterRules, View
from companion.games.horrified_core.ownerdata import horrified_overlay
from companion.games.horrified_core.pack_types import BoardData, Connection, Hero, Location, MonsterCard
from companion.games.datafiles import Node, PackError, ids, unique
from companion.games.horrified_core.packdata import COMMON_PARAM_CHECKS, Known, Library, event_library, location, target
from companion.games.horrified_core.packfiles import Count, PackSpec, pack_from_files
from companion.games.horrified_core.perks import COMMON_PERKS, PerkKind
from companion.games.horrified_core.rules import HorrifiedRules
from companion.games.horrified_core.state import MATS, GameState, HeroState, Mat

TOY = MonsterRegistry("toy")


@dataclass(frozen=True)
class ShadeDetails:
    defeat_target: int


@MATS.member
@dataclass
class ShadeMat(Mat):
    kind: str = "toy-shade"
    chills: int = 0


def _shade_details(node: Node, known: Known) -> ShadeDetails:
    node.fields("defeat_target")
    return ShadeDetails(target(node, "defeat_target"))


@TOY.register
class ShadeRules(MonsterRules):
    """Defeated with red items at its location; its Power chills (a count on its mat)."""

    id = "shade"
    defeat_type = "red"
    parse_details = staticmethod(_shade_details)

    def new_mat(self) -> ShadeMat:
        return ShadeMat()

    def defeat_target(self) -> int:
        details = self.monster.details
        assert isinstance(details, ShadeDetails)
        return details.defeat_target

    def defeat_blocker(self, ctx: GameContext, hero_id: str) -> str | None:
        return away_from(ctx, hero_id, self.here(ctx), "face the Shade")

    def power(self, ctx: GameContext, figure: Figure, target: Character) -> Flow[None]:
        self.mat_of(ctx, ShadeMat).chills += 1
        return
        yield

    def mat_view(self, ctx: GameContext) -> View:
        return {"lines": [f"Chills: {self.mat_of(ctx, ShadeMat).chills}"]}


@TOY.register
class GhoulRules(MonsterRules):
    id = "ghoul"

    def power(self, ctx: GameContext, figure: Figure, target: Character) -> Flow[None]:
        return
        yield


def _board(root: Node, known: Known) -> BoardData:
    root.fields("terror_max", "locations", "connections")
    nodes = root.child("locations").elements()
    places = tuple(Location(n.child("id").ident(), n.child("name").text(), None, 0.5, 0.5) for n in nodes)
    known.areas = {p.id: p.area for p in places}
    unique(ids(nodes), (p.id for p in places), "location id")
    pairs = [[location(end, known) for end in n.elements()] for n in root.child("connections").elements()]
    return BoardData(places, tuple(Connection(a, b) for a, b in pairs), root.child("terror_max").integer(1, 30), False)


def _heroes(root: Node, known: Known) -> tuple[Hero, ...]:
    root.fields("heroes")
    return tuple(Hero(n.child("id").ident(), n.child("name").text(), n.child("actions").integer(1, 6),
                      location(n.child("start"), known)) for n in root.child("heroes").elements())


SPEC = PackSpec(name="a toy Horrified", board=_board, heroes=_heroes, monsters=TOY,
                counts={"villagers": Count(1, "one"), "items": Count(3, "three"), "perks": Count(1, "one"),
                        "cards": Count(1, "one")},
                symbols=("shade", "ghoul"), symbol_noun="monster symbol", item_types=("red", "blue"),
                area_names={"board": "the village"}, events=event_library({"none": frozenset()}, COMMON_PARAM_CHECKS),
                perks=Library({"extra_actions": frozenset({"amount"})}, COMMON_PARAM_CHECKS))

PLACES = ["hospital", "square", "docks", "museum"]


def toy_files() -> dict[str, Any]:
    item = lambda i, t, s: {"id": i, "name": i.title(), "type": t, "strength": s, "location": "square",  # noqa: E731
                            "verified": False}
    monster = lambda i, n, order, start, details: {"id": i, "name": n, "frenzy_order": order, "symbols": [i],  # noqa: E731
                                                   "start": start, "complexity": "Low", "power": "Chill",
                                                   "details": details, "verified": False}
    return {
        "board.json": {"terror_max": 5, "locations": [{"id": p, "name": p.title()} for p in PLACES],
                       "connections": [[a, b] for a, b in zip(PLACES, PLACES[1:])]},
        "villagers.json": {"villagers": [{"id": "maria", "name": "Maria", "safe_location": "hospital", "verified": False}]},
        "items.json": {"items": [item("axe", "red", 3), item("rope", "red", 4), item("lamp", "blue", 2)]},
        "monsters.json": {"monsters": [monster("shade", "The Shade", 1, "museum", {"defeat_target": 6}),
                                       monster("ghoul", "The Ghoul", 2, "docks", {})]},
        "heroes.json": {"heroes": [{"id": "mayor", "name": "Mayor", "actions": 5, "start": "square"}]},
        "perks.json": {"perks": [{"id": "hurry", "name": "Hurry", "effect": {"kind": "extra_actions",
                                                                          "params": {"amount": 2}, "text": "+2"}, "verified": False}]},
        "cards.json": {"cards": [{"id": "gaze", "name": "Cold Gaze", "items": 0,
                                  "event": {"kind": "none", "params": {"symbol": "shade"}, "text": "nothing"},
                                  "attack": {"symbols": ["shade", "ghoul"], "move": 1, "dice": 2}, "verified": False}]},
        "dice.json": {"monster_die": {"faces": ["hit", "hit", "pow", "blank", "blank", "blank"], "verified": False}},
    }


class ToyEdition:
    """Every hook, in the other edition's terms."""

    state_class = GameState
    item_bag = "the item bag"
    hero_marks: Collection[str] = ()
    hero_actions: Mapping[str, ActionKind] = {}
    labels: Mapping[str, Labeller] = {}
    monsters = TOY
    pack_spec = SPEC

    @property
    def events(self) -> Registry[EventStep]:
        return COMMON_EVENTS

    @property
    def perks(self) -> Registry[PerkKind]:
        return COMMON_PERKS

    def new_hero(self, hero_id: str, player: str, location: str | None = None, *, items: Collection[str] = (),
                 relics: Collection[str] = (), perks: Collection[str] = (),
                 marks: Mapping[str, object] | None = None) -> HeroState:
        return HeroState(hero_id, player, location, list(items), list(relics), list(perks))

    def action_menu(self, ctx: GameContext) -> list[Action]:
        return []

    def free_menu(self, ctx: GameContext) -> list[Action]:
        return []

    def first_player(self, ctx: GameContext) -> Flow[None]:
        ctx.state.active = 0
        return
        yield

    def turn_actions(self, ctx: GameContext, hero_id: str) -> int:
        return ctx.pack.hero(hero_id).actions

    def return_place(self, ctx: GameContext, hero_id: str) -> str:
        return "hospital"

    def strikes(self, ctx: GameContext, monster_id: str, symbol: str, card: MonsterCard | None) -> Strike:
        """The Event monster does not strike unless it is frenzied."""
        event_monster = card is not None and card.event.params.get("symbol") in ctx.monster(monster_id).symbols
        return "none" if event_monster and ctx.state.frenzy != monster_id else "move and attack"

    def heroes_first_when_moving(self, ctx: GameContext) -> bool:
        return True

    def monster_steps(self, ctx: GameContext, steps: int) -> int:
        return steps

    def absorb_hits(self, ctx: GameContext, hero_id: str, hits: int) -> int:
        return hits

    def defences(self, ctx: GameContext, hero_id: str, hits: int) -> list[Defence]:
        return []

    def defence_items_lost(self, ctx: GameContext, hero_id: str) -> str:
        return ""

    def hero_defeated(self, ctx: GameContext, hero_id: str) -> None:
        pass

    def villager_death_terror(self, ctx: GameContext) -> int:
        return 1

    def monster_defeat_terror(self, ctx: GameContext) -> int:
        return 1

    def challenge_check(self, ctx: GameContext, key: str, what: str, strength: int, target: int) -> Flow[bool]:
        return strength >= target
        yield


def toy_rules() -> HorrifiedRules:
    overlay = horrified_overlay("toy", {}, {}, toy_files, lambda files: pack_from_files(SPEC, files))
    return HorrifiedRules(ToyEdition(), overlay, pack_from_files(SPEC, toy_files()))


@pytest.fixture
def rules() -> HorrifiedRules:
    return toy_rules()


def position(**fields: object) -> dict[str, object]:
    base: dict[str, object] = {"monsters": {"shade": "museum", "ghoul": "docks"}, "frenzy": "ghoul",
                               "heroes": [{"hero": "mayor", "player": "Ana", "at": "docks"}]}
    return {"position": {**base, **fields}}


def play(game: Game, answers: list[tuple[str, object]]) -> list[Effect]:
    """Answer in order (each must be the prompt asked); every effect, in order."""
    seen: list[Effect] = []
    for key, answer in answers:
        assert game.prompt is not None and game.prompt.key == key, (game.prompt, key)
        seen += game.apply({"key": key, "answer": answer}).effects
    return seen


def test_the_core_loader_asks_the_editions_plug_ins(rules: HorrifiedRules) -> None:
    assert rules.pack.monster("shade").details == ShadeDetails(6)
    files = toy_files()
    files["monsters.json"]["monsters"][1]["id"] = "wraith"
    with pytest.raises(PackError) as refused:
        pack_from_files(SPEC, files)
    assert any("unknown monster id 'wraith'" in p for p in refused.value.problems)
    assert any(p.startswith("monsters.json: monsters: no record for ghoul") for p in refused.value.problems)


def test_a_new_game_needs_no_d20(rules: HorrifiedRules) -> None:
    game = rules.new_game({"setup": {"monsters": ["ghoul", "shade"], "heroes": ["mayor"]}})
    asked = []
    while game.prompt is not None and game.prompt.key != "hero-action":
        asked.append(game.prompt)
        game.apply({"key": game.prompt.key, "answer": game.prompt.options[0].id})
    assert all(p.kind == "draw" for p in asked) and not any(p.die for p in asked)
    assert game.state.monsters["shade"].location == "museum" and game.state.mats == {"shade": ShadeMat()}
    assert game.state.heroes["mayor"].location == "square" and game.state.actions_left == 5


def test_the_event_monster_strikes_only_when_frenzied_and_the_defeated_return_to_the_hospital(
        rules: HorrifiedRules) -> None:
    game = rules.new_game(position(phase="monster"))
    seen = play(game, [("monster-card", "gaze"), ("monster-dice", ["hit", "blank"])])
    assert [e.data["monster"] for e in seen if e.kind == "monster-activated"] == ["ghoul"]
    assert [(e.data["symbol"], e.text) for e in seen if e.kind == "symbol-ignored"] == [
        ("shade", "The Shade does not strike on this card: skip it.")]
    kinds = [e.kind for e in seen]
    assert "hero-defeated" in kinds and "hero-returned" in kinds and game.state.heroes["mayor"].location == "hospital"
    assert game.prompt is not None and game.prompt.key == "hero-action"


def test_a_frenzied_event_monster_strikes(rules: HorrifiedRules) -> None:
    game = rules.new_game(position(phase="monster", frenzy="shade",
                                   heroes=[{"hero": "mayor", "player": "Ana", "at": "square"}]))
    step = game.apply({"key": "monster-card", "answer": "gaze"})
    moved = [e for e in step.effects if e.kind == "monster-moved"]
    assert [e.data["monster"] for e in moved] == ["shade", "ghoul"]


def test_a_challenge_is_checked_by_strength_alone(rules: HorrifiedRules) -> None:
    game = rules.new_game(position(heroes=[{"hero": "mayor", "player": "Ana", "at": "museum",
                                            "items": ["axe", "rope", "lamp"]}]))
    with pytest.raises(IllegalInput, match="only red items count here"):
        game.apply({"key": "hero-action", "answer": {"action": "defeat", "monster": "shade", "items": ["lamp"]}})
    step = game.apply({"key": "hero-action", "answer": {"action": "defeat", "monster": "shade", "items": ["axe", "rope"]}})
    assert "monster-defeated" in [e.kind for e in step.effects]
    assert game.prompt is not None and game.prompt.key == "hero-action" and game.state.frenzy == "ghoul"


def test_a_plug_ins_mat_is_saved_and_restored_by_its_kind(rules: HorrifiedRules) -> None:
    game = rules.new_game(position(phase="monster", frenzy="shade", mats={"shade": {"chills": 2}},
                                   heroes=[{"hero": "mayor", "player": "Ana", "at": "museum"}]))
    play(game, [("monster-card", "gaze"), ("monster-dice", ["pow", "blank"])])
    saved = to_plain(game.state)
    assert saved["mats"] == {"shade": {"kind": "toy-shade", "chills": 3}}
    again = rules.new_game({"state": saved})
    assert again.state.mats["shade"] == ShadeMat(chills=3)
    ctx = rules.context(again.state, EffectSink())
    assert ctx.monster_rules["shade"].mat_view(ctx) == {"lines": ["Chills: 3"]}
