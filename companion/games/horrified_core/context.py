"""The running game as the rules see it: the edition, the pack, the board graph, the
state and the effects sink, with the names of things and where figures stand. Shared
access only: the rules themselves live in the rule modules (terror.py, items.py,
perk_deck.py, ...), which all take a context.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Collection, Iterator, Mapping

from companion.engine.effects import EffectSink
from companion.engine.game import Flow
from companion.engine.board import Mover, Way
from companion.engine.graph import Graph
from companion.engine.prompts import Option, Prompt

from .pack_types import MAIN_BOARD, Monster, Pack
from .state import GameState, HeroState, VillagerState

if TYPE_CHECKING:
    from .edition import Edition
    from .monsters import MonsterRules

Outcome = str


class GameEnded(Exception):
    """Raised inside the rules when the game is won or lost at once (RL-END-*)."""

    def __init__(self, outcome: Outcome, why: str) -> None:
        super().__init__(why)
        self.outcome = outcome
        self.why = why


@dataclass(frozen=True)
class Figure:
    """A monster figure on the board: the monster itself, or one of its minions (``minion``:
    the minion's index on the monster's mat; its plug-in says where it stands)."""

    monster: str
    minion: int | None = None


@dataclass(frozen=True)
class Character:
    """A hero or a villager: what monsters move toward and attack."""

    kind: str  # "hero" or "villager"
    id: str


@dataclass(frozen=True)
class GameData:
    """What a game plays with: the pack (shipped, or with the owner's data), its
    board graph and the rules of the monsters in play."""

    pack: Pack
    graph: Graph
    monster_rules: Mapping[str, MonsterRules]


class GameContext:
    """Shared access for the rules modules; holds no rules of its own.

    ``quiet``: nobody reads the words of this game (the forecast's walks): names are ids, questions
    carry no previews or descriptions of the figures, so no time goes into texts nothing shows.

    ``data``: how to get a game's data from its state. The owner may correct the
    game data in the middle of a game (an input of the game's log), so ``pack``,
    ``graph`` and ``monster_rules`` are looked up again whenever the state's
    ``data_id`` changes; without ``data`` they are the ones given."""

    def __init__(self, pack: Pack, state: GameState, sink: EffectSink,
                 monster_rules: Mapping[str, MonsterRules] | None = None, graph: Graph | None = None,
                 data: Callable[[GameState], GameData] | None = None, *, edition: Edition,
                 pack_view: Callable[[Pack], Pack] | None = None, quiet: bool = False) -> None:
        self.edition = edition
        self.quiet = quiet
        self.state = state
        self.sink = sink
        self.emit = sink.emit
        rules = monster_rules or {}
        self._view = pack_view
        self._given = GameData(self._viewed(pack), graph or board_graph(pack, areas_of(rules.values())), rules)
        self._data = data
        self._seen = ("", self._given)

    @property
    def pack(self) -> Pack:
        return self._current().pack if self.state.data_id else self._given.pack

    @property
    def graph(self) -> Graph:
        return self._current().graph if self.state.data_id else self._given.graph

    @property
    def monster_rules(self) -> Mapping[str, MonsterRules]:
        return self._current().monster_rules if self.state.data_id else self._given.monster_rules

    def _current(self) -> GameData:
        """(Asked often: the shipped data's case is answered by the properties themselves.)"""
        data_id = self.state.data_id
        if self._data is None or not data_id:
            return self._given
        if self._seen[0] != data_id:
            found = self._data(self.state)
            self._seen = (data_id, GameData(self._viewed(found.pack), found.graph, found.monster_rules))
        return self._seen[1]

    def _viewed(self, pack: Pack) -> Pack:
        """``pack_view``: the pack as the rules are to see it (the forecast's walk watches what they
        read of it); the pack itself without one."""
        return pack if self._view is None else self._view(pack)

    # -- names, for the plain words on the tablet -------------------------------------
    def place_name(self, location: str | None) -> str:
        if self.quiet or location is None:
            return location or "off the board"
        return self.pack.location(location).name

    def hero_name(self, hero_id: str) -> str:
        return hero_id if self.quiet else "the " + self.pack.hero(hero_id).name

    def figure_name(self, figure: Figure) -> str:
        if self.quiet:
            return figure.monster
        if figure.minion is not None:
            return self.monster_rules[figure.monster].minion_name(figure.minion)
        return self.monster_rules[figure.monster].figure_name()

    def character_name(self, who: Character) -> str:
        if who.kind == "hero" or self.quiet:
            return self.hero_name(who.id)
        return self.pack.villager(who.id).name

    def monster(self, monster_id: str) -> Monster:
        return self.pack.monster(monster_id)

    @property
    def active_player(self) -> str:
        return self.state.seats[self.state.active]

    # -- where things stand ----------------------------------------------------------
    def where(self, figure: Figure) -> str | None:
        if figure.minion is not None:
            return self.monster_rules[figure.monster].minion_location(self, figure.minion)
        return self.state.monsters[figure.monster].location

    def put(self, figure: Figure, location: str | None) -> None:
        """Put a figure down; its plug-in hears of it (two figures that must never meet)."""
        rules = self.monster_rules[figure.monster]
        if figure.minion is not None:
            rules.put_minion(self, figure.minion, location)
        else:
            self.state.monsters[figure.monster].location = location
        rules.placed(self, figure)

    def mover(self, figure: Figure) -> Mover:
        """Who the figure moves as on the board (its plug-in's ``mover``; None: an ordinary figure)."""
        return self.monster_rules[figure.monster].mover

    def walkable(self, location: str) -> bool:
        """Whether heroes and villagers may stand at ``location``: a place on the board with a way an
        ordinary figure may take (never water that only a swimmer crosses)."""
        return location in self.graph and bool(self.graph.neighbours.get(location))

    def monster_figures(self) -> Iterator[Figure]:
        """Every monster figure on the board, minions included."""
        rules = self.monster_rules
        for monster in self.state.monsters_in_play():
            yield Figure(monster.id)
            for index in rules[monster.id].minions_on_board(self):
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

    # -- asking -----------------------------------------------------------------------
    def about(self, figure: Figure) -> dict[str, object]:
        """What a question about one monster figure carries, so a tablet can name it, show its
        symbol and light it on the board (with several monsters and their minions, "the
        monster" says nothing). Nothing when quiet."""
        if self.quiet:
            return {}
        return {"monster": figure.monster, "minion": figure.minion, "figure": self.figure_name(figure),
                "symbols": list(self.monster(figure.monster).symbols), "location": self.where(figure)}

    def choose(self, key: str, text: str, options: list[Option],
               context: Mapping[str, object] | None = None) -> Flow[str]:
        """Ask the active player to choose, unless there is only one way (no prompt then).
        ``context``: what the question is about (``about(figure)`` for a monster's question)."""
        if len(options) == 1:
            return options[0].id
        answer = yield Prompt("choice", key, text, self.active_player, tuple(options), context=context or {})
        assert isinstance(answer, str)
        return answer

    def ask_draw(self, key: str, text: str, options: list[Option],
                 context: Mapping[str, object] | None = None, player: str | None = None) -> Flow[str]:
        """Ask which hidden token or card turned up; with one possibility there is nothing to ask.
        ``player``: whose draw it is when not the active player's (a Perk card for the rescuer)."""
        if len(options) == 1:
            return options[0].id
        answer = yield Prompt("draw", key, text, player or self.active_player, tuple(options), context=context or {})
        assert isinstance(answer, str)
        return answer

    def roll_monster_dice(self, key: str, text: str, count: int,
                          context: Mapping[str, object] | None = None) -> Flow[list[str]]:
        answer = yield Prompt("roll", key, text, self.active_player, die="monster", count=count,
                              context=context or {})
        assert isinstance(answer, tuple)
        return [str(face) for face in answer]


def areas_of(rules: Collection[MonsterRules]) -> frozenset[str]:
    """The areas on the table: the main board, and the extra mats the monsters in the game bring."""
    return frozenset([MAIN_BOARD, *(r.area for r in rules if r.area)])


def board_graph(pack: Pack, areas: Collection[str]) -> Graph:
    """The board of the areas on the table (an extra mat joins only with its monster, RL-SU-9): each
    connection a way, open to the movers it names (``only``) or to everyone. Built once per pack
    and set of areas: every game and position on that table shares it (it is never changed)."""
    memo = pack.memo("board-graph")
    key = "|".join(sorted(areas))
    found = memo.get(key)
    if not isinstance(found, Graph):
        found = memo[key] = _built_graph(pack, areas)
    return found


def _built_graph(pack: Pack, areas: Collection[str]) -> Graph:
    locations = list(dict.fromkeys(loc.id for loc in pack.board.locations if loc.area in areas))
    known = set(locations)
    ways = dict.fromkeys(Way(c.a, c.b, c.kind, only=c.only) for c in pack.board.connections
                         if c.a in known and c.b in known and c.a != c.b)
    return Graph(locations, ways)
