"""A tiny hand-made Ravenloft pack and table for tests, plus a driver that plays
a rules generator with scripted answers.

The pack is small on purpose (15 locations, 16 items, 3 villagers, the four
monsters) so that a test can see every distance at a glance, and it does not
depend on the shipped data files, which may change. Build variants with
``make_pack(...)`` keyword arguments or ``dataclasses.replace``.

Test board (numbers in brackets are the d20 numbers)::

    gates[1] - village[2] - tser-falls[3] - tent[4] - tower[6] - woods[7] - lake[8] - stairway
                      \\- church[5] ---------/                                          |   \\
                                                                                  chapel   stairs (castle mat)
                                                                                   study - stairs - tomb
                                                                                     heart - stairs; heart - north-tower
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Generic, Iterable, Mapping, Sequence, TypeVar

from companion.engine.effects import Effect as Shown
from companion.engine.effects import EffectSink
from companion.engine.game import Flow
from companion.engine.plain import to_plain
from companion.engine.prompts import Prompt, check_answer
from companion.games.horrified_core.context import GameContext
from companion.games.ravenloft.edition import RavenloftEdition
from companion.games.ravenloft.monsters import MonsterRules, rules_for
from companion.games.ravenloft.monsters.baba_lysaga_mat import BabaLysagaDetails, HutSpace, HutToken
from companion.games.ravenloft.monsters.carrionette_mat import CarrionetteDetails, SparePart
from companion.games.ravenloft.monsters.gulthias_tree_mat import GulthiasTreeDetails, RootGroup
from companion.games.ravenloft.monsters.strahd_mat import Relic, StrahdDetails, TarokkaCard
from companion.games.ravenloft.pack_types import (
    Area, AttackLine, BoardData, Connection, D20Entry, DarkGift, Effect, Hero, Item, ItemType, Location, Monster,
    MonsterCard, Pack, Perk, Villager,
)
from companion.games.ravenloft.state import GameState, HeroState, Mat, MonsterState, Phase, VillagerState

T = TypeVar("T")

# -- the pack --------------------------------------------------------------------------------------

LocationRow = tuple[str, str, int | None, Area]

LOCATIONS: tuple[LocationRow, ...] = (
    ("gates", "Gates of Barovia", 1, "board"),
    ("village", "Village of Barovia", 2, "board"),
    ("tser-falls", "Tser Falls", 3, "board"),
    ("tent", "Madam Eva's Tent", 4, "board"),
    ("church", "Church", 5, "board"),
    ("tower", "Van Richten's Tower", 6, "board"),
    ("woods", "Svalich Woods", 7, "board"),
    ("lake", "Lake Zarovich", 8, "board"),
    ("stairway", "Ravenloft: Grand Stairway", None, "board"),
    ("chapel", "Chapel", None, "board"),
    ("stairs", "Stairs", None, "castle-mat"),
    ("study", "Study", None, "castle-mat"),
    ("tomb", "Tomb", None, "castle-mat"),
    ("heart", "Heart of Sorrow", None, "castle-mat"),
    ("north-tower", "North Tower", None, "castle-mat"),
)

EDGES: tuple[tuple[str, str], ...] = (
    ("gates", "village"), ("village", "tser-falls"), ("village", "church"), ("tser-falls", "tent"),
    ("church", "tent"), ("tent", "tower"), ("tower", "woods"), ("woods", "lake"), ("lake", "stairway"),
    ("stairway", "chapel"), ("stairway", "stairs"), ("stairs", "study"), ("stairs", "tomb"),
    ("stairs", "heart"), ("heart", "north-tower"),
)


def item(item_id: str, kind: ItemType, strength: int, location: str = "village", name: str | None = None) -> Item:
    return Item(item_id, name or item_id.rsplit("-", 1)[0].title(), kind, strength, location)


ITEMS: tuple[Item, ...] = (
    item("dagger-1", "weapon", 1), item("club-3", "weapon", 3), item("bow-4", "weapon", 4),
    item("sword-5", "weapon", 5), item("axe-6", "weapon", 6),
    item("ring-1", "magical", 1), item("wand-2", "magical", 2), item("orb-4", "magical", 4),
    item("tome-5", "magical", 5), item("staff-6", "magical", 6),
    item("rope-1", "mundane", 1), item("lamp-2", "mundane", 2), item("lockpicks-3", "mundane", 3),
    item("shovel-4", "mundane", 4), item("mirror-5", "mundane", 5), item("crowbar-6", "mundane", 6),
)

VILLAGERS: tuple[Villager, ...] = (
    Villager("bildrath", "Bildrath", "tser-falls"),
    Villager("mad-mage", "The Mad Mage", "lake"),
    Villager("ireena", "Ireena", "church"),
)

_NOTHING = (D20Entry(1, 20, Effect("nothing")),)


def hero(hero_id: str, start: str, actions: int = 4) -> Hero:
    gift = DarkGift(f"{hero_id.title()}'s Gift", "A test gift that does nothing.", ())
    return Hero(hero_id, hero_id.title(), actions, start, _NOTHING, gift, _NOTHING)


HEROES: tuple[Hero, ...] = (hero("druid", "woods"), hero("sorcerer", "tower"), hero("paladin", "gates"))

PERKS: tuple[Perk, ...] = (
    Perk("tatyana", "Tatyana's Blessing", Effect("extra_actions", {"amount": 2})),
    Perk("second-wind", "Second Wind", Effect("extra_actions", {"amount": 1})),
)

CARDS: tuple[MonsterCard, ...] = (
    MonsterCard("ambush", "Ambush!", 1, Effect("none"), AttackLine(("frenzy", "sword"), 2, 2)),
    MonsterCard("quiet", "A Quiet Night", 2, Effect("none"), AttackLine(("hat",), 1, 1)),
)

CARRIONETTE = CarrionetteDetails(
    spare_parts=(SparePart("weapon", 4), SparePart("magical", 2), SparePart("mundane", 5)),
    swap_target=15, match_bonus=5, double_match_bonus=10, defeat_target=15,
)

TREE = GulthiasTreeDetails(
    roots=(RootGroup("eye", 2), RootGroup("claw", 3), RootGroup("thorn", 4)),
    blights=3, prune_target=8, defeat_target=15,
)

HUT = BabaLysagaDetails(
    spaces=(
        HutSpace("top", ("upper-left", "upper-right")),
        HutSpace("upper-left", ("top", "centre", "lower-left")),
        HutSpace("upper-right", ("top", "centre", "lower-right")),
        HutSpace("centre", ("upper-left", "upper-right", "lower-left", "lower-right")),
        HutSpace("lower-left", ("upper-left", "centre", "door")),
        HutSpace("lower-right", ("upper-right", "centre", "door")),
        HutSpace("door", ("lower-left", "lower-right")),
    ),
    gem_start="top",
    door="door",
    tokens=(
        HutToken("scarecrow-1", "scarecrow", 10), HutToken("scarecrow-2", "scarecrow", 13),
        HutToken("raven-1", "raven", 9), HutToken("raven-2", "raven", 12), HutToken("witch", "witch", None),
    ),
    defeat_target=15,
)

STRAHD = StrahdDetails(
    tarokka=(
        TarokkaCard("seven-of-swords", "Seven of Swords", "weapon", "woods", "sunsword"),
        TarokkaCard("master-of-swords", "Master of Swords", "weapon", "gates", "sunsword"),
        TarokkaCard("master-of-stars", "Master of Stars", "magical", "tower", "holy-symbol"),
        TarokkaCard("three-of-glyphs", "Three of Glyphs", "magical", "village", "holy-symbol"),
        TarokkaCard("seven-of-coins", "Seven of Coins", "mundane", "lake", "tome"),
        TarokkaCard("nine-of-coins", "Nine of Coins", "mundane", "tser-falls", "tome"),
    ),
    relics=(
        Relic("sunsword", "Sunsword", "tomb"),
        Relic("holy-symbol", "Holy Symbol of Ravenkind", "chapel"),
        Relic("tome", "Tome of Strahd", "study"),
    ),
    heart_location="heart", north_tower="north-tower", heart_target=15, defeat_target=15, showdown_items=3,
)

MONSTERS: tuple[Monster, ...] = (
    Monster("carrionette", "Carrionette", 1, ("chest", "spellbook", "potion"), "village", "Low", "Silver Needle",
            CARRIONETTE),
    Monster("baba-lysaga", "Baba Lysaga", 2, ("sword", "hat", "spellbook"), "church", "High", "Carried Off", HUT),
    Monster("strahd", "Strahd von Zarovich", 4, ("chest", "sword", "shield", "wand"), "stairway", "High",
            "Strahd's Fury", STRAHD),
    Monster("gulthias-tree", "Gulthias Tree", 6, ("skull", "hat", "potion"), "lake", "High", "Necrosynthesis", TREE),
)


def make_pack(*, locations: Iterable[LocationRow] = LOCATIONS, edges: Iterable[tuple[str, str]] = EDGES,
              items: Iterable[Item] = ITEMS, villagers: Iterable[Villager] = VILLAGERS,
              heroes: Iterable[Hero] = HEROES, perks: Iterable[Perk] = PERKS, cards: Iterable[MonsterCard] = CARDS,
              monsters: Iterable[Monster] = MONSTERS, terror_max: int = 10) -> Pack:
    """A small complete pack; every argument can be swapped for a variant."""
    rows = tuple(locations)
    places = tuple(Location(i, name, number, (n + 1) / (len(rows) + 1), 0.5, area)
                   for n, (i, name, number, area) in enumerate(rows))
    board = BoardData(places, tuple(Connection(a, b) for a, b in edges), terror_max, False,
                      gates=rows[0][0], madam_evas_tent="tent", castle_link=("stairway", "stairs"))
    return Pack("test pack", board, tuple(items), tuple(villagers), tuple(heroes), tuple(perks), tuple(cards),
                tuple(monsters), ("hit", "hit", "hit", "pow", "blank", "blank"))


# -- the table -------------------------------------------------------------------------------------

PLAYERS = ("Beau", "Joel", "Sam", "Ana")


@dataclass
class Table:
    """A pack, a state built by hand and the context the rules run in."""

    pack: Pack
    state: GameState
    sink: EffectSink
    ctx: GameContext
    rules: dict[str, MonsterRules]

    def rule(self, monster_id: str) -> MonsterRules:
        return self.rules[monster_id]

    def mat(self, monster_id: str) -> Mat:
        return self.state.mats[monster_id]

    def effects(self) -> list[Shown]:
        """The effects emitted since the last call."""
        return list(self.sink.take())

    def texts(self) -> list[str]:
        return [e.text for e in self.effects()]

    def snapshot(self) -> object:
        """The whole state as plain data, to show a refused action changed nothing."""
        return to_plain(self.state)


def new_table(pack: Pack | None = None, *, heroes: Mapping[str, str | None] | None = None,
              held: Mapping[str, Sequence[str]] | None = None, villagers: Mapping[str, str | None] | None = None,
              monsters: Mapping[str, str | None] | None = None, haversack: Sequence[str] | None = None,
              phase: Phase = "hero", terror: int = 0) -> Table:
    """A table mid-game: heroes (id -> location, the first is active), the items they hold,
    villagers on the board, monsters in play (id -> location; default: every pack
    monster at its start) with fresh mats, the rest of the items in the Haversack."""
    pack = pack or make_pack()
    heroes = {"druid": "village"} if heroes is None else heroes
    held = held or {}
    monster_places = {m.id: m.start for m in pack.monsters} if monsters is None else monsters
    rules = rules_for(pack)
    state = GameState(
        seats=list(heroes), active=0, turn=1, phase=phase, terror=terror, frenzy=None,
        heroes={h: HeroState(h, PLAYERS[n], where, list(held.get(h, ())))
                for n, (h, where) in enumerate(heroes.items())},
        monsters={m: MonsterState(m, where) for m, where in monster_places.items()},
        mats=_mats(rules, monster_places),
        villagers={v.id: VillagerState(v.id, (villagers or {}).get(v.id)) for v in pack.villagers},
        deck=[c.id for c in pack.cards],
        haversack=list(haversack) if haversack is not None else _unheld(pack, held),
        perk_deck=[p.id for p in pack.perks],
    )
    state.frenzy = min(state.monsters, key=lambda m: pack.monster(m).frenzy_order) if state.monsters else None
    sink = EffectSink()
    ctx = GameContext(pack, state, sink, {m: rules[m] for m in state.monsters}, edition=RavenloftEdition())
    return Table(pack, state, sink, ctx, rules)


def _mats(rules: Mapping[str, MonsterRules], monsters: Iterable[str]) -> dict[str, Mat]:
    mats = {m: rules[m].new_mat() for m in monsters}
    return {m: mat for m, mat in mats.items() if mat is not None}


def _unheld(pack: Pack, held: Mapping[str, Sequence[str]]) -> list[str]:
    taken = {i for items in held.values() for i in items}
    return [i.id for i in pack.items if i.id not in taken]


# -- the driver ----------------------------------------------------------------------------------------


class Many(tuple[object, ...]):
    """Several answers for one prompt key, used one after another (``{"swap": Many([3], [12])}``)."""

    def __new__(cls, *answers: object) -> "Many":
        return super().__new__(cls, answers)


@dataclass
class Ran(Generic[T]):
    """What a flow returned and every prompt it asked, in order."""

    value: T
    prompts: list[Prompt] = field(default_factory=list)

    @property
    def keys(self) -> list[str]:
        return [p.key for p in self.prompts]


Policy = Callable[[Prompt], object]


def run(flow: Flow[T], answers: Sequence[tuple[str, object]] | Mapping[str, object] = (),
        fallback: Policy | None = None) -> Ran[T]:
    """Play ``flow`` to its end, answering each prompt from the script.

    ``answers`` is either a list of ``(key, answer)`` pairs, which must be asked
    in exactly that order, or a mapping from prompt key to an answer (reused
    every time that key is asked) or to ``Many(...)`` answers (used in turn).
    A prompt the script has no answer for fails the test, unless a ``fallback``
    policy (e.g. ``first_choice``) answers it. Answers are checked and
    normalised exactly as the game runner does.
    """
    script = _Script(answers)
    prompts: list[Prompt] = []
    try:
        prompt = next(flow)
        while True:
            prompts.append(prompt)
            answer = fallback(prompt) if fallback and not script.has(prompt) else script.answer(prompt)
            prompt = flow.send(check_answer(prompt, answer))
    except StopIteration as done:
        script.finished()
        return Ran(done.value, prompts)


class _Script:
    def __init__(self, answers: Sequence[tuple[str, object]] | Mapping[str, object]) -> None:
        self.ordered = list(answers) if not isinstance(answers, Mapping) else None
        self.keyed = {k: (list(v) if isinstance(v, Many) else v) for k, v in answers.items()} \
            if isinstance(answers, Mapping) else {}
        self.many = {k for k, v in answers.items() if isinstance(v, Many)} if isinstance(answers, Mapping) else set()

    def has(self, prompt: Prompt) -> bool:
        if self.ordered is not None:
            return bool(self.ordered)
        queue = self.keyed.get(prompt.key)
        return prompt.key in self.keyed and (prompt.key not in self.many or bool(queue))

    def answer(self, prompt: Prompt) -> object:
        if self.ordered is not None:
            assert self.ordered, f"no answer scripted for {_describe(prompt)}"
            key, answer = self.ordered.pop(0)
            assert key == prompt.key, f"expected to be asked {key!r}, but was asked {_describe(prompt)}"
            return answer
        assert prompt.key in self.keyed, f"no answer scripted for {_describe(prompt)}"
        if prompt.key not in self.many:
            return self.keyed[prompt.key]
        queue = self.keyed[prompt.key]
        assert isinstance(queue, list) and queue, f"all scripted answers for {prompt.key!r} are used up"
        return queue.pop(0)

    def finished(self) -> None:
        assert not self.ordered, f"the flow ended but these answers were never asked for: {self.ordered}"
        unused = {k: v for k, v in self.keyed.items() if k in self.many and v}
        assert not unused, f"the flow ended but these answers were never asked for: {unused}"


def _describe(prompt: Prompt) -> str:
    options = f" options={prompt.option_ids()}" if prompt.options else ""
    return f"{prompt.kind} prompt {prompt.key!r} ({prompt.text}){options}"


def first_choice(prompt: Prompt, d20: int = 19) -> object:
    """A plain policy: the first option(s) offered, a 19 on every d20, blanks on Monster dice."""
    if prompt.kind == "roll":
        return [d20 if prompt.die == "d20" else ("blank" if prompt.die == "monster" else 1)] * prompt.count
    if prompt.kind == "pick":
        return prompt.option_ids()[: prompt.min_picks]
    if prompt.kind == "action":
        raise AssertionError(f"first_choice cannot answer the action prompt {prompt.key!r}")
    return prompt.option_ids()[0]
