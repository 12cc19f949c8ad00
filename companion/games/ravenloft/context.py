"""The running game as the rules see it: pack, board graph, state and the
effects sink, with the small shared moves every rule uses (draw an item, roll
the d20, raise terror, say where a figure stands).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator, Mapping, Protocol

from companion.engine.effects import EffectSink
from companion.engine.game import Flow
from companion.engine.graph import Graph
from companion.engine.prompts import Option, Prompt

from .pack_types import Monster, Pack
from .state import GameState, HeroState, Mat, VillagerState

Outcome = str


class GameEnded(Exception):
    """Raised inside the rules when the game is won or lost at once (RL-END-*)."""

    def __init__(self, outcome: Outcome, why: str) -> None:
        super().__init__(why)
        self.outcome = outcome
        self.why = why


@dataclass(frozen=True)
class Figure:
    """A monster figure on the board: the monster itself, or one of its Twig Blights."""

    monster: str
    blight: int | None = None


@dataclass(frozen=True)
class Character:
    """A hero or a villager: what monsters move toward and attack."""

    kind: str  # "hero" or "villager"
    id: str


class MonsterPowers(Protocol):
    """What the shared Monster Phase needs from a monster's own rules module."""

    def power(self, ctx: "GameContext", figure: Figure, target: Character) -> Flow[None]:
        ...


@dataclass(frozen=True)
class GameData:
    """What a game plays with: the pack (shipped, or with the owner's data), its
    board graph and the rules of the monsters in play."""

    pack: Pack
    graph: Graph
    monster_rules: Mapping[str, MonsterPowers]


class GameContext:
    """Shared access for the rules modules; holds no rules of its own.

    ``data``: how to get a game's data from its state. The owner may correct the
    game data in the middle of a game (an input of the game's log), so ``pack``,
    ``graph`` and ``monster_rules`` are looked up again whenever the state's
    ``data_id`` changes; without ``data`` they are the ones given."""

    def __init__(self, pack: Pack, state: GameState, sink: EffectSink,
                 monster_rules: Mapping[str, MonsterPowers] | None = None, graph: Graph | None = None,
                 data: Callable[[GameState], GameData] | None = None) -> None:
        self.state = state
        self.sink = sink
        self.emit = sink.emit
        self._given = GameData(pack, graph or board_graph(pack, strahd_in_play="strahd" in state.monsters),
                               monster_rules or {})
        self._data = data
        self._seen = ("", self._given)

    @property
    def pack(self) -> Pack:
        return self._current().pack

    @property
    def graph(self) -> Graph:
        return self._current().graph

    @property
    def monster_rules(self) -> Mapping[str, MonsterPowers]:
        return self._current().monster_rules

    def _current(self) -> GameData:
        data_id = self.state.data_id
        if self._data is None or not data_id:
            return self._given
        if self._seen[0] != data_id:
            self._seen = (data_id, self._data(self.state))
        return self._seen[1]

    # -- names, for the plain words on the tablet -------------------------------------
    def place_name(self, location: str | None) -> str:
        return "off the board" if location is None else self.pack.location(location).name

    def hero_name(self, hero_id: str) -> str:
        return "the " + self.pack.hero(hero_id).name

    def figure_name(self, figure: Figure) -> str:
        if figure.blight is not None:
            return f"Twig Blight {figure.blight + 1}"
        return self.pack.monster(figure.monster).name

    def character_name(self, who: Character) -> str:
        if who.kind == "hero":
            return self.hero_name(who.id)
        return self.pack.villager(who.id).name

    def monster(self, monster_id: str) -> Monster:
        return self.pack.monster(monster_id)

    @property
    def active_player(self) -> str:
        return self.state.seats[self.state.active]

    # -- where things stand ----------------------------------------------------------
    def where(self, figure: Figure) -> str | None:
        if figure.blight is not None:
            mat = self.state.mats[figure.monster]
            return getattr(mat, "blights")[figure.blight]  # type: ignore[no-any-return]
        return self.state.monsters[figure.monster].location

    def put(self, figure: Figure, location: str | None) -> None:
        if figure.blight is not None:
            getattr(self.state.mats[figure.monster], "blights")[figure.blight] = location
        else:
            self.state.monsters[figure.monster].location = location

    def monster_figures(self) -> Iterator[Figure]:
        """Every monster figure on the board, Twig Blights included."""
        for monster in self.state.monsters_in_play():
            yield Figure(monster.id)
            blights = getattr(self.state.mats.get(monster.id), "blights", [])
            for index, where in enumerate(blights):
                if where is not None:
                    yield Figure(monster.id, index)

    def characters_at(self, location: str) -> list[Character]:
        heroes = [Character("hero", h.id) for h in self.state.heroes_at(location)]
        return heroes + [Character("villager", v.id) for v in self.state.villagers_at(location)]

    def character_location(self, who: Character) -> str | None:
        if who.kind == "hero":
            return self.state.heroes[who.id].location
        return self.state.villagers[who.id].location

    def heroes_on_board(self) -> list[HeroState]:
        return [h for h in self.state.heroes.values() if h.location is not None]

    def villagers_on_board(self) -> list[VillagerState]:
        return [v for v in self.state.villagers.values() if v.location is not None]

    def mat(self, monster_id: str, cls: type[Mat]) -> Mat:
        mat = self.state.mats[monster_id]
        assert isinstance(mat, cls), f"{monster_id} has a {type(mat).__name__}, not a {cls.__name__}"
        return mat

    # -- terror (RL-END-2, RL-END-4) ----------------------------------------------------
    def raise_terror(self, why: str, times: int = 1) -> None:
        for _ in range(times):
            self.state.terror += 1
            self.emit("terror", f"Move the Terror marker up to {self.state.terror} ({why}).",
                      level=self.state.terror, change=1)
            if self.state.terror >= self.pack.board.terror_max:
                raise GameEnded("lost: terror", "the Terror Level reached its maximum")

    def change_terror(self, delta: int, why: str) -> None:
        """Up (which can lose the game) or down by ``delta`` steps, one at a time."""
        if delta > 0:
            self.raise_terror(why, times=delta)
        for _ in range(-delta):
            self.lower_terror(why)

    def lower_terror(self, why: str) -> None:
        if self.state.terror > 0:
            self.state.terror -= 1
            self.emit("terror", f"Move the Terror marker down to {self.state.terror} ({why}).",
                      level=self.state.terror, change=-1)

    # -- asking -----------------------------------------------------------------------
    def choose(self, key: str, text: str, options: list[Option]) -> Flow[str]:
        """Ask the active player to choose, unless there is only one way (no prompt then)."""
        if len(options) == 1:
            return options[0].id
        answer = yield Prompt("choice", key, text, self.active_player, tuple(options))
        assert isinstance(answer, str)
        return answer

    def roll_d20(self, key: str, text: str) -> Flow[int]:
        answer = yield Prompt("roll", key, text, self.active_player, die="d20", count=1)
        assert isinstance(answer, tuple)
        value = answer[0]
        assert isinstance(value, int)
        self.emit("d20", f"The d20 shows {value}.", value=value, why=key)
        return value

    def roll_monster_dice(self, key: str, text: str, count: int) -> Flow[list[str]]:
        answer = yield Prompt("roll", key, text, self.active_player, die="monster", count=count)
        assert isinstance(answer, tuple)
        return [str(face) for face in answer]

    # -- items (RL-IT-*) ------------------------------------------------------------------
    def draw_item(self, why: str) -> Flow[str | None]:
        """Ask which item came out of the Haversack; refill it from the discard first if empty."""
        if not self.state.haversack:
            self._refill_haversack()
        if not self.state.haversack:
            self.emit("note", "The Haversack and the item discard pile are both empty: no item is drawn.")
            return None
        options = self._haversack_options()
        answer = yield Prompt("draw", "item", f"Draw an item from the Haversack ({why}). Which item is it?",
                              self.active_player, tuple(options))
        assert isinstance(answer, str)
        self.state.haversack.remove(answer)
        return answer

    def _refill_haversack(self) -> None:
        if self.state.item_discard:
            self.state.haversack.extend(sorted(self.state.item_discard))
            self.state.item_discard.clear()
            self.emit("haversack-refilled", "The Haversack is empty: put every discarded item back in and shake it.")

    def _haversack_options(self) -> list[Option]:
        """One option per different token: identical tokens are one choice for the player.

        Asked at every item draw, so the labelled options come from a cache in
        label order and are only filtered here.
        """
        inside, shown, options = set(self.state.haversack), set(), []
        for option in self._item_options():
            if option.id in inside and option.text not in shown:
                shown.add(option.text)
                options.append(option)
        return options

    def _item_options(self) -> list[Option]:
        memo = self.pack.memo("item-options")
        if "all" not in memo:
            labelled = sorted((self.pack.item_label(i.id), i.id) for i in self.pack.items)
            memo["all"] = [Option(item_id, label) for label, item_id in labelled]
        options = memo["all"]
        assert isinstance(options, list)
        return options

    def place_item(self, item_id: str) -> None:
        item = self.pack.item(item_id)
        self.state.items_at[item_id] = item.location
        self.emit("item-placed", f"Put the {item.name} at {self.place_name(item.location)}.",
                  item=item_id, location=item.location)

    def discard_item(self, item_id: str, why: str) -> None:
        for hero in self.state.heroes.values():
            if item_id in hero.items:
                hero.items.remove(item_id)
        self.state.items_at.pop(item_id, None)
        self.state.item_discard.append(item_id)
        self.emit("item-discarded", f"Discard the {self.pack.item(item_id).name} ({why}).", item=item_id)

    def remove_item(self, item_id: str, why: str) -> None:
        """Out of the game for good: not to the discard pile, so it never goes back in the Haversack."""
        for hero in self.state.heroes.values():
            if item_id in hero.items:
                hero.items.remove(item_id)
        self.state.items_at.pop(item_id, None)
        self.state.removed_items.append(item_id)
        self.emit("item-removed", f"Put the {self.pack.item(item_id).name} back in the box ({why}).", item=item_id)

    # -- perks (RL-VI-2, RL-D20-2) ----------------------------------------------------------
    def gain_perk(self, hero_id: str, why: str) -> Flow[None]:
        hero = self.state.heroes[hero_id]
        if not self.state.perk_deck:
            self.emit("note", f"No Perk cards are left, so {hero.player} gets none ({why}).")
            return
        options = [Option(p, self.pack.perk(p).name) for p in sorted(self.state.perk_deck)]
        answer = yield Prompt("draw", "perk", f"{hero.player} draws a Perk card ({why}). Which is it?",
                              self.active_player, tuple(options))
        assert isinstance(answer, str)
        self.state.perk_deck.remove(answer)
        hero.perks.append(answer)
        self.emit("perk-gained", f"{hero.player} takes the Perk card {self.pack.perk(answer).name}.",
                  hero=hero_id, perk=answer)


def board_graph(pack: Pack, strahd_in_play: bool) -> Graph:
    """The board; Strahd's castle mat joins it only when he is in play (RL-SU-9, RL-ST-6)."""
    locations = [loc.id for loc in pack.board.locations if strahd_in_play or loc.area == "board"]
    edges = [(c.a, c.b) for c in pack.board.connections]
    return Graph.from_edges(locations, edges)
