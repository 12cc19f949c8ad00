"""Tests of the Ravenloft game pack (data/*.json) and of its loader.

Rule IDs refer to docs/rules.md, the project's rules index. The first half checks the
shipped pack: its counts, the shape of its map, and that exactly the facts the
rulebook states are marked verified. The second half breaks a copy of the pack
one thing at a time and checks that the loader refuses it, naming the file,
the field and the reason.
"""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from companion.games.ravenloft.pack import (
    DATA_DIR,
    EVENT_KINDS,
    GIFT_KINDS,
    PERK_KINDS,
    SPECIAL_KINDS,
    PackError,
    load_pack,
)
from companion.games.ravenloft.monsters.baba_lysaga_mat import BabaLysagaDetails
from companion.games.ravenloft.monsters.carrionette_mat import CarrionetteDetails
from companion.games.ravenloft.monsters.gulthias_tree_mat import GulthiasTreeDetails
from companion.games.ravenloft.monsters.strahd_mat import StrahdDetails
from companion.games.ravenloft.pack_types import (
    FRENZY,
    SYMBOL_COLOURS,
    D20Entry,
    Effect,
    Pack,
)

DOCS = Path(__file__).resolve().parents[1] / "docs" / "game-data.md"


@pytest.fixture(scope="module")
def pack() -> Pack:
    return load_pack()


def _neighbours(pack: Pack) -> dict[str, set[str]]:
    links: dict[str, set[str]] = {loc.id: set() for loc in pack.board.locations}
    for connection in pack.board.connections:
        links[connection.a].add(connection.b)
        links[connection.b].add(connection.a)
    return links


def _reach(links: dict[str, set[str]], start: str, allowed: set[str]) -> set[str]:
    seen, todo = {start}, [start]
    while todo:
        for nxt in links[todo.pop()] & allowed - seen:
            seen.add(nxt)
            todo.append(nxt)
    return seen


def _tables(pack: Pack) -> Iterable[tuple[str, tuple[D20Entry, ...]]]:
    for hero in pack.heroes:
        yield f"{hero.id}.special", hero.special
        yield f"{hero.id}.special_after_gift", hero.special_after_gift


def _row(table: tuple[D20Entry, ...], low: int, high: int) -> Effect:
    matches = [entry.effect for entry in table if (entry.low, entry.high) == (low, high)]
    assert len(matches) == 1, f"no single row {low}-{high}"
    return matches[0]


# --- The shipped pack ---------------------------------------------------------


def test_shipped_pack_loads(pack: Pack) -> None:
    assert pack.name.endswith("Ravenloft")
    assert pack.location("abbey-of-saint-markovia").number == 1


def test_rl_su_2_thirty_monster_cards(pack: Pack) -> None:
    """RL-SU-2."""
    assert len(pack.cards) == 30
    assert len({card.id for card in pack.cards}) == 30


def test_rl_it_1_sixty_items_each_with_name_type_strength_location(pack: Pack) -> None:
    """RL-IT-1."""
    assert len(pack.items) == 60
    assert len({item.id for item in pack.items}) == 60
    assert Counter(item.type for item in pack.items) == {"weapon": 20, "magical": 20, "mundane": 20}
    for item in pack.items:
        assert item.name and 1 <= item.strength <= 6
        assert pack.location(item.location).area == "board", "items are placed on the main board"


def test_component_counts_perks_villagers_heroes_monsters(pack: Pack) -> None:
    assert len(pack.perks) == 20
    assert len(pack.villagers) == 10
    assert [hero.id for hero in pack.heroes] == ["sorcerer", "druid", "paladin", "ranger", "warlock"]
    assert {monster.id for monster in pack.monsters} == {"carrionette", "baba-lysaga", "strahd", "gulthias-tree"}


def test_rl_su_7_exactly_twenty_numbered_locations_numbered_once_each(pack: Pack) -> None:
    """RL-SU-7."""
    numbers = [loc.number for loc in pack.board.locations if loc.number is not None]
    assert sorted(numbers) == list(range(1, 21))


def test_board_names_every_location_the_rulebook_names(pack: Pack) -> None:
    names = {loc.name for loc in pack.board.locations}
    assert names >= {
        "Abbey of Saint Markovia", "Tser Falls", "Gates of Barovia", "Van Richten's Tower", "Mount Baratok",
        "Madam Eva's Tent", "Svalich Woods", "Ruins of Berez", "Dining Hall", "Ravenloft: Grand Stairway",
        "Chapel", "Study", "Tomb", "North Tower", "Stairs",
    }


def test_whole_board_is_connected(pack: Pack) -> None:
    links = _neighbours(pack)
    assert _reach(links, pack.board.gates, set(links)) == set(links)


def test_rl_su_9_main_board_is_connected_without_the_castle_mat(pack: Pack) -> None:
    """Without Strahd the mat is not on the table: the board must hold together alone. (RL-SU-9)"""
    links = _neighbours(pack)
    board = {loc.id for loc in pack.board.locations if loc.area == "board"}
    assert _reach(links, pack.board.gates, board) == board


def test_rl_su_9_rl_st_6_castle_mat_joins_the_board_only_through_castle_link(pack: Pack) -> None:
    """RL-SU-9, RL-ST-6."""
    area = {loc.id: loc.area for loc in pack.board.locations}
    crossing = [{c.a, c.b} for c in pack.board.connections if area[c.a] != area[c.b]]
    assert crossing == [set(pack.board.castle_link)]
    assert pack.board.castle_link == ("ravenloft-grand-stairway", "stairs")
    mat = {loc.id for loc in pack.board.locations if loc.area == "castle-mat"}
    assert mat == {"stairs", "study", "tomb", "north-tower", "heart-of-sorrow"}


def test_connections_average_a_road_network(pack: Pack) -> None:
    ratio = len(pack.board.connections) / len(pack.board.locations)
    assert 1.4 <= ratio <= 2.5
    assert all(0.0 <= loc.x <= 1.0 and 0.0 <= loc.y <= 1.0 for loc in pack.board.locations)


def test_rl_ex_1_rl_ex_2_board_fits_the_rulebook_examples(pack: Pack) -> None:
    """Hero Phase: Gates next to Tser Falls. Monster Phase: one place next to both
    the Gates and Van Richten's Tower, which are not next to each other. (RL-EX-1, RL-EX-2)"""
    links = _neighbours(pack)
    assert "tser-falls" in links["gates-of-barovia"]
    assert "van-richtens-tower" not in links["gates-of-barovia"]
    assert "village-of-barovia" in links["gates-of-barovia"] & links["van-richtens-tower"]


def test_rl_tu_3_gates_and_madam_evas_tent_are_main_board_places(pack: Pack) -> None:
    """RL-TU-3."""
    assert pack.location(pack.board.gates).name == "Gates of Barovia"
    assert pack.location(pack.board.madam_evas_tent).name == "Madam Eva's Tent"


def test_rl_ha_7_every_d20_table_covers_1_to_20_exactly_once(pack: Pack) -> None:
    """RL-HA-7."""
    for name, table in _tables(pack):
        results = Counter(n for entry in table for n in range(entry.low, entry.high + 1))
        assert sorted(results) == list(range(1, 21)) and set(results.values()) == {1}, name


def test_rl_d20_3_a_one_does_nothing_on_every_table(pack: Pack) -> None:
    """RL-D20-3."""
    for name, table in _tables(pack):
        assert [e.effect.kind for e in table if e.low == 1] == ["nothing"], name


def test_every_effect_uses_its_part_of_the_primitive_library(pack: Pack) -> None:
    for _, table in _tables(pack):
        assert all(entry.effect.kind in SPECIAL_KINDS for entry in table)
    assert all(effect.kind in GIFT_KINDS for hero in pack.heroes for effect in hero.gift.effects)
    assert all(perk.effect.kind in PERK_KINDS for perk in pack.perks)
    assert all(card.event.kind in EVENT_KINDS for card in pack.cards)


def test_cards_mix_villager_monster_frenzy_and_manual_events(pack: Pack) -> None:
    kinds = Counter(card.event.kind for card in pack.cards)
    assert kinds["place_villager"] >= 10 and kinds["frenzy_next"] >= 2 and kinds["manual"] >= 2
    coloured = {card.event.params.get("symbol") for card in pack.cards}
    assert coloured >= set(SYMBOL_COLOURS)
    for card in pack.cards:
        assert 1 <= len(card.attack.symbols) <= 3
        assert set(card.attack.symbols) <= set(SYMBOL_COLOURS) | {FRENZY}


# --- Rulebook facts: present and marked verified --------------------------------


def test_abbey_of_saint_markovia_is_location_one_but_its_place_is_our_drawing(pack: Pack) -> None:
    """The rulebook names it as location 1; where it lies on the board is our drawing, so the
    location as a whole is not marked verified, only its name and number (SHIPPED files)."""
    abbey = pack.location("abbey-of-saint-markovia")
    assert (abbey.number, abbey.verified) == (1, False)
    record = next(loc for loc in _shipped("board.json")["locations"] if loc["id"] == abbey.id)
    assert record["verified_fields"] == ["name", "number"] and "drawing" in record["note"]


def test_rl_ha_2_the_hero_phase_example_states_the_gates_tser_falls_road(pack: Pack) -> None:
    """RL-EX-1, RL-HA-2: the Druid at the Gates guides Bildrath one location to Tser Falls, and a
    Guide only reaches an adjacent location: that road is the rulebook's, so it is verified."""
    road = next(c for c in pack.board.connections if {c.a, c.b} == {"gates-of-barovia", "tser-falls"})
    assert road.verified


def test_rl_bl_baba_lysagas_spellbook_is_our_correction_not_print(pack: Pack) -> None:
    """The rulebook prints 'Shield (teal)'; the Spellbook is our reading from its own colour key, so
    her symbols are not listed as verified and the note says it is a correction."""
    record = next(m for m in _shipped("monsters.json")["monsters"] if m["id"] == "baba-lysaga")
    assert "spellbook" in pack.monster("baba-lysaga").symbols
    assert "symbols" not in record["verified_fields"]
    assert "Shield (teal)" in record["note"] and "correction" in record["note"]


def _shipped(name: str) -> dict[str, Any]:
    found = json.loads((Path(DATA_DIR) / name).read_text(encoding="utf-8"))
    assert isinstance(found, dict)
    return found


def test_rl_he_1_sorcerer_tile_is_verified_and_exact(pack: Pack) -> None:
    """RL-HE-1."""
    hero = pack.hero("sorcerer")
    assert (hero.actions, hero.start, hero.verified) == (4, "tser-falls", True)
    assert [(e.low, e.high, e.effect.kind) for e in hero.special] == [
        (1, 1, "nothing"), (2, 5, "place_item"), (6, 19, "move_monster"), (20, 20, "hero_draws")]
    assert _row(hero.special, 2, 5).params == {"count": 1}
    assert _row(hero.special, 6, 19).params == {"steps": 1}
    assert _row(hero.special, 20, 20).params == {"items": 2, "perk": True}
    assert [(e.low, e.high, e.effect.kind) for e in hero.special_after_gift] == [
        (1, 5, "nothing"), (6, 19, "move_monster"), (20, 20, "hero_draws")]


def test_rl_he_1_sorcerer_dark_gift_yog_the_invincible(pack: Pack) -> None:
    """RL-HE-1."""
    gift = pack.hero("sorcerer").gift
    assert gift.name == "Yog, the Invincible"
    assert [(e.kind, dict(e.params)) for e in gift.effects] == [
        ("ignore_first_hit", {}), ("villager_death_terror", {"amount": 2})]


def test_rl_he_2_other_heroes_are_unverified_druid_shows_known_numbers(pack: Pack) -> None:
    """RL-HE-2."""
    assert [hero.id for hero in pack.heroes if not hero.verified] == ["druid", "paladin", "ranger", "warlock"]
    druid = pack.hero("druid")
    assert druid.actions == 4
    assert _row(druid.special, 6, 19).kind == "distanced_advance"


def test_rl_ha_9_paladin_ranger_warlock_use_their_own_primitives(pack: Pack) -> None:
    """RL-HA-9."""
    assert {e.effect.kind for e in pack.hero("paladin").special} == {"nothing", "roll_bonus"}
    assert "slow_monsters" in {e.effect.kind for e in pack.hero("ranger").special}
    assert "ward" in {e.effect.kind for e in pack.hero("warlock").special}


def test_rl_vi_2_bildrath_and_the_mad_mage_are_verified(pack: Pack) -> None:
    """RL-VI-2."""
    assert pack.villager("bildrath").safe_location == "tser-falls"
    assert pack.villager("mad-mage-of-mount-baratok").safe_location == "mount-baratok"
    assert {v.id for v in pack.villagers if v.verified} == {"bildrath", "mad-mage-of-mount-baratok"}


def test_rl_su_3_frenzy_orders_and_colour_symbols(pack: Pack) -> None:
    """Baba Lysaga carries the Spellbook: the rulebook's 'Shield (teal)' is a misprint (RL-BL). (RL-SU-3)"""
    assert {m.id: (m.frenzy_order, m.symbols) for m in pack.monsters} == {
        "carrionette": (1, ("chest", "spellbook", "potion")),
        "baba-lysaga": (2, ("sword", "hat", "spellbook")),
        "strahd": (4, ("chest", "sword", "shield", "wand")),
        "gulthias-tree": (6, ("skull", "hat", "potion")),
    }
    assert {m.id: m.complexity for m in pack.monsters} == {
        "carrionette": "Low", "baba-lysaga": "High", "strahd": "High", "gulthias-tree": "High"}


def test_rl_su_10_monster_starts_are_guesses_on_the_main_board(pack: Pack) -> None:
    """RL-SU-10."""
    assert not any(monster.verified for monster in pack.monsters)
    for monster in pack.monsters:
        assert pack.location(monster.start).area == "board"


def test_rl_ca_2_rl_ca_3_carrionette_numbers(pack: Pack) -> None:
    """RL-CA-2, RL-CA-3."""
    details = pack.monster("carrionette").details
    assert isinstance(details, CarrionetteDetails)
    assert (details.swap_target, details.match_bonus, details.double_match_bonus, details.defeat_target) == (15, 5, 10, 15)
    assert len(details.spare_parts) == 3


def test_rl_su_7_rl_gt_5_rl_gt_7_gulthias_tree_numbers(pack: Pack) -> None:
    """RL-SU-7, RL-GT-5, RL-GT-7."""
    details = pack.monster("gulthias-tree").details
    assert isinstance(details, GulthiasTreeDetails)
    assert sum(root.count for root in details.roots) == 9
    assert (details.blights, details.prune_target, details.defeat_target) == (3, 8, 15)


def test_rl_su_8_rl_bl_3_baba_lysaga_hut(pack: Pack) -> None:
    """RL-SU-8, RL-BL-3."""
    details = pack.monster("baba-lysaga").details
    assert isinstance(details, BabaLysagaDetails)
    assert (details.gem_start, details.door, details.defeat_target) == ("top", "door", 15)
    assert len(details.tokens) == 5 and len(details.spaces) == 7
    assert [token.kind for token in details.tokens].count("witch") == 1


def test_rl_su_9_rl_st_3_strahd_tarokka_relics_and_targets(pack: Pack) -> None:
    """RL-SU-9, RL-ST-3."""
    details = pack.monster("strahd").details
    assert isinstance(details, StrahdDetails)
    assert len(details.tarokka) == 6
    assert {r.id: r.return_to for r in details.relics} == {"sunsword": "tomb", "holy-symbol": "chapel", "tome": "study"}
    assert (details.heart_target, details.defeat_target, details.showdown_items) == (15, 15, 3)
    assert {(card.type, card.relic) for card in details.tarokka} == {
        ("weapon", "sunsword"), ("magical", "holy-symbol"), ("mundane", "tome")}
    assert all(pack.location(card.location).area == "board" for card in details.tarokka)
    assert pack.location(details.heart_location).area == "castle-mat"


def test_tatyana_perk_gives_two_more_actions_and_is_verified(pack: Pack) -> None:
    tatyana = pack.perk("tatyana")
    assert (tatyana.effect.kind, dict(tatyana.effect.params), tatyana.verified) == ("extra_actions", {"amount": 2}, True)


def test_rl_it_1_items_the_rulebook_shows(pack: Pack) -> None:
    """RL-IT-1."""
    shown = {item.name: (item.strength, item.location) for item in pack.items}
    assert shown["Thighbone"] == (6, "abbey-of-saint-markovia")
    assert shown["Whip"] == (2, "dining-hall")
    assert shown["Rod"] == (3, "svalich-woods")
    assert shown["Broom"] == (1, "ruins-of-berez")
    assert shown["Mask"][1] == "van-richtens-tower"
    assert shown["Club"][0] == 5
    assert {(i.name, i.type) for i in pack.items} >= {("Whip", "weapon"), ("Rod", "magical"), ("Broom", "mundane"), ("Club", "weapon")}


def test_rl_ex_2_monster_cards_the_rulebook_shows(pack: Pack) -> None:
    """RL-EX-2."""
    ambush = pack.card("ambush")
    assert (ambush.items, ambush.event.kind, ambush.event.params.get("symbol")) == (2, "pull_adjacent", "skull")
    assert ambush.attack.symbols[:2] == (FRENZY, "sword")
    worse = pack.card("far-worse-things-than-death")
    assert (worse.items, worse.event.params.get("symbol")) == (1, "wand")
    assert (worse.attack.symbols, worse.attack.move, worse.attack.dice) == (("wand", "spellbook"), 1, 2)


def test_guesses_are_marked_unverified(pack: Pack) -> None:
    """The honesty rule: only what the rulebook states in full is verified."""
    assert {loc.id for loc in pack.board.locations if loc.verified} == set()  # the Abbey's place is our drawing
    assert sorted(sorted((c.a, c.b)) for c in pack.board.connections if c.verified) == [
        ["gates-of-barovia", "tser-falls"], ["ravenloft-grand-stairway", "stairs"]]
    assert not any(item.verified for item in pack.items)
    assert not any(card.verified for card in pack.cards)
    assert {perk.id for perk in pack.perks if perk.verified} == {"tatyana"}
    assert (pack.board.terror_max, pack.board.terror_max_verified) == (7, False)
    assert (sorted(pack.monster_die), pack.monster_die_verified) == (
        ["blank", "blank", "hit", "hit", "hit", "pow"], False)


def test_every_library_param_has_a_check() -> None:
    """A kind whose param the loader cannot check would let typos through."""
    from companion.games.ravenloft import pack as module

    names = {name for library in (EVENT_KINDS, SPECIAL_KINDS, GIFT_KINDS, PERK_KINDS)
             for params in library.values() for name in params}
    assert names <= set(module._PARAM_CHECKS)


def test_docs_describe_every_primitive_kind() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for library in (EVENT_KINDS, SPECIAL_KINDS, GIFT_KINDS, PERK_KINDS):
        for kind in library:
            assert f"`{kind}`" in text, kind


# --- Broken packs: each refused, naming file, field and why ---------------------

Json = Any  # parsed JSON, edited in place by the tests below


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    copy = tmp_path / "data"
    shutil.copytree(DATA_DIR, copy)
    return copy


def _edit(folder: Path, name: str, change: Callable[[Json], object]) -> None:
    path = folder / name
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")


def _refused(folder: Path) -> PackError:
    with pytest.raises(PackError) as caught:
        load_pack(folder)
    return caught.value


def _problem(folder: Path, start: str, why: str) -> PackError:
    """The one problem line that begins '<file>: <field path>:' must say ``why``."""
    error = _refused(folder)
    lines = [p for p in error.problems if p.startswith(start)]
    assert lines, f"no problem starts with {start!r}: {error.problems}"
    assert any(why in line for line in lines), lines
    assert all(line in str(error) for line in error.problems)
    return error


def _index(folder: Path, name: str, key: str, wanted: str) -> int:
    records = json.loads((folder / name).read_text(encoding="utf-8"))[key]
    return next(i for i, record in enumerate(records) if record["id"] == wanted)


def test_unknown_location_in_a_connection_is_refused(folder: Path) -> None:
    _edit(folder, "board.json", lambda b: b["connections"][0]["between"].__setitem__(1, "nowhere"))
    _problem(folder, "board.json: connections[0].between[1]:", "no location called 'nowhere'")


def test_rl_su_7_duplicate_d20_number_is_refused(folder: Path) -> None:
    """RL-SU-7."""
    krezk = _index(folder, "board.json", "locations", "krezk")
    _edit(folder, "board.json", lambda b: b["locations"][krezk].__setitem__("number", 1))
    error = _problem(folder, f"board.json: locations[{krezk}].number:", "number 1 is also used by 'abbey-of-saint-markovia'")
    assert any("board.json: locations: no location has number 2" in p for p in error.problems)


def test_unreachable_location_is_refused(folder: Path) -> None:
    temple = _index(folder, "board.json", "locations", "amber-temple")

    def cut(board: Json) -> None:
        board["connections"] = [c for c in board["connections"] if "amber-temple" not in c["between"]]

    _edit(folder, "board.json", cut)
    _problem(folder, f"board.json: locations[{temple}].id:", "'amber-temple' cannot be reached")


def test_rl_st_6_castle_mat_joined_elsewhere_is_refused(folder: Path) -> None:
    """RL-ST-6."""
    _edit(folder, "board.json", lambda b: b["connections"].append({"between": ["chapel", "study"], "verified": False}))
    _problem(folder, "board.json: connections[", "only castle_link may (RL-ST-6)")


def test_rl_st_6_castle_link_missing_from_connections_is_refused(folder: Path) -> None:
    """RL-ST-6."""
    def drop(board: Json) -> None:
        board["connections"] = [c for c in board["connections"] if set(c["between"]) != {"ravenloft-grand-stairway", "stairs"}]

    _edit(folder, "board.json", drop)
    _problem(folder, "board.json: castle_link:", "is not among the connections")


def test_unknown_effect_kind_is_refused(folder: Path) -> None:
    _edit(folder, "cards.json", lambda c: c["cards"][2]["event"].__setitem__("kind", "teleport"))
    _problem(folder, "cards.json: cards[2].event.kind:", "unknown kind 'teleport'")


def test_unknown_villager_in_an_event_is_refused(folder: Path) -> None:
    card = next(i for i, c in enumerate(json.loads((folder / "cards.json").read_text())["cards"])
                if c["event"]["kind"] == "place_villager")
    _edit(folder, "cards.json", lambda c: c["cards"][card]["event"]["params"].__setitem__("villager", "ireena"))
    _problem(folder, f"cards.json: cards[{card}].event.params.villager:", "no villager called 'ireena'")


def test_missing_and_unknown_effect_params_are_refused(folder: Path) -> None:
    tatyana = _index(folder, "perks.json", "perks", "tatyana")
    _edit(folder, "perks.json", lambda p: p["perks"][tatyana]["effect"].__setitem__("params", {"amout": 2}))
    error = _problem(folder, f"perks.json: perks[{tatyana}].effect.params.amount:", "missing")
    assert any(p.startswith(f"perks.json: perks[{tatyana}].effect.params.amout: unknown param") for p in error.problems)


def test_unknown_symbol_in_an_event_is_refused(folder: Path) -> None:
    _edit(folder, "cards.json", lambda c: c["cards"][0]["event"]["params"].__setitem__("symbol", "teapot"))
    _problem(folder, "cards.json: cards[0].event.params.symbol:", "no colour symbol called 'teapot'")


def test_missing_file_is_refused(folder: Path) -> None:
    (folder / "perks.json").unlink()
    _problem(folder, "perks.json:", "missing")


def test_invalid_json_is_refused_with_line_and_column(folder: Path) -> None:
    (folder / "items.json").write_text('{\n  "items": [ oops ]\n}\n', encoding="utf-8")
    _problem(folder, "items.json: line 2, column 14:", "invalid JSON")


def test_rl_it_1_item_at_an_unknown_location_is_refused(folder: Path) -> None:
    """RL-IT-1."""
    _edit(folder, "items.json", lambda i: i["items"][5].__setitem__("location", "atlantis"))
    _problem(folder, "items.json: items[5].location:", "no location called 'atlantis'")


def test_rl_it_1_item_on_the_castle_mat_is_refused(folder: Path) -> None:
    """RL-IT-1."""
    _edit(folder, "items.json", lambda i: i["items"][5].__setitem__("location", "study"))
    _problem(folder, "items.json: items[5].location:", "must be on the main board")


def test_rl_it_1_item_count_and_strength_are_checked(folder: Path) -> None:
    """RL-IT-1."""
    def spoil(items: Json) -> None:
        items["items"][0]["strength"] = "six"
        items["items"].pop()

    _edit(folder, "items.json", spoil)
    error = _problem(folder, "items.json: items[0].strength:", "expected a whole number, got text")
    assert any(p.startswith("items.json: items: expected 60 items, found 59") for p in error.problems)


def test_rl_ha_7_d20_table_with_a_gap_is_refused(folder: Path) -> None:
    """RL-HA-7."""
    _edit(folder, "heroes.json", lambda h: h["heroes"][0]["special"].pop(1))
    _problem(folder, "heroes.json: heroes[0].special:", "d20 results 2–5 are not covered")


def test_rl_ha_7_d20_table_with_an_overlap_is_refused(folder: Path) -> None:
    """RL-HA-7."""
    _edit(folder, "heroes.json", lambda h: h["heroes"][1]["special_after_gift"][1].__setitem__("low", 3))
    _problem(folder, "heroes.json: heroes[1].special_after_gift:", "d20 results 3–5 are covered by more than one row")


def test_rl_d20_3_a_one_that_does_something_is_refused(folder: Path) -> None:
    """RL-D20-3."""
    _edit(folder, "heroes.json", lambda h: h["heroes"][0]["special"][0]["effect"].update(kind="gain_perk"))
    _problem(folder, "heroes.json: heroes[0].special[0].effect.kind:", "a roll of 1 must do nothing")


def test_rl_su_2_card_count_is_checked(folder: Path) -> None:
    """RL-SU-2."""
    _edit(folder, "cards.json", lambda c: c["cards"].pop())
    _problem(folder, "cards.json: cards:", "expected 30 Monster cards, found 29 (RL-SU-2)")


def test_rl_su_7_root_counts_must_add_up_to_nine(folder: Path) -> None:
    """RL-SU-7."""
    tree = _index(folder, "monsters.json", "monsters", "gulthias-tree")
    _edit(folder, "monsters.json", lambda m: m["monsters"][tree]["details"]["roots"][0].__setitem__("count", 3))
    _problem(folder, f"monsters.json: monsters[{tree}].details.roots:", "root counts add up to 10")


def test_rl_bl_4_hut_needs_a_way_round_every_space(folder: Path) -> None:
    """A straight corridor: her token on any middle space would block the Gem for good. (RL-BL-4)"""
    baba = _index(folder, "monsters.json", "monsters", "baba-lysaga")
    names = ["top", "s1", "s2", "s3", "s4", "s5", "door"]
    corridor = [{"id": n, "links": [m for m in (names[i - 1] if i else None, names[i + 1] if i < 6 else None) if m]}
                for i, n in enumerate(names)]
    _edit(folder, "monsters.json", lambda m: m["monsters"][baba]["details"].__setitem__("spaces", corridor))
    _problem(folder, f"monsters.json: monsters[{baba}].details.spaces:", "a token on 's3' would cut every path")


def test_hut_links_must_go_both_ways(folder: Path) -> None:
    baba = _index(folder, "monsters.json", "monsters", "baba-lysaga")
    _edit(folder, "monsters.json", lambda m: m["monsters"][baba]["details"]["spaces"][0]["links"].append("door"))
    _problem(folder, f"monsters.json: monsters[{baba}].details.spaces[0].links[2]:", "'door' does not link back to 'top'")


def test_unknown_monster_id_is_refused_by_the_details_registry(folder: Path) -> None:
    _edit(folder, "monsters.json", lambda m: m["monsters"][0].__setitem__("id", "dracula"))
    error = _problem(folder, "monsters.json: monsters[0].id:", "unknown monster id 'dracula'")
    assert any(p.startswith("monsters.json: monsters: no record for carrionette") for p in error.problems)


def test_tarokka_card_on_the_castle_mat_is_refused(folder: Path) -> None:
    strahd = _index(folder, "monsters.json", "monsters", "strahd")
    _edit(folder, "monsters.json", lambda m: m["monsters"][strahd]["details"]["tarokka"][0].__setitem__("location", "tomb"))
    _problem(folder, f"monsters.json: monsters[{strahd}].details.tarokka[0].location:", "must be on the main board")


def test_misspelt_field_is_refused(folder: Path) -> None:
    _edit(folder, "villagers.json", lambda v: v["villagers"][3].__setitem__("verfied", True))
    _problem(folder, "villagers.json: villagers[3].verfied:", "unknown field")


def test_every_problem_is_reported_at_once(folder: Path) -> None:
    _edit(folder, "items.json", lambda i: i["items"][0].__setitem__("type", "edible"))
    _edit(folder, "dice.json", lambda d: d["monster_die"]["faces"].append("hit"))
    _edit(folder, "perks.json", lambda p: p["perks"][1].__setitem__("id", "Not Kebab"))
    problems = _refused(folder).problems
    assert any(p.startswith("items.json: items[0].type: unknown item type 'edible'") for p in problems)
    assert any(p.startswith("dice.json: monster_die.faces: a die has 6 faces, found 7") for p in problems)
    assert any(p.startswith("perks.json: perks[1].id: 'Not Kebab' is not kebab-case") for p in problems)
    assert len(problems) == 3


def test_every_problem_line_names_file_field_and_why(folder: Path) -> None:
    _edit(folder, "board.json", lambda b: b["locations"][2].update(x=3, area="moon"))
    (folder / "heroes.json").unlink()
    for problem in _refused(folder).problems:
        assert re.fullmatch(r"[a-z]+\.json: [^:]+: .+", problem), problem


def test_pack_error_is_a_value_error() -> None:
    assert issubclass(PackError, ValueError)
    assert "2 problems" in str(PackError(["a.json: x: one", "a.json: y: two"]))
