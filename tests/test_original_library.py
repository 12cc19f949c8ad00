"""The original Horrified's card library through the real service: what its tablet forms save
(a Monster card's Event of this box's kinds, its strike line; a Perk card; a hero's actions,
start and special action) is checked by the box's own loader. Refused values come back named,
every one at once, and change nothing: neither the owner's data nor a game in play. A hero
corrected this way is the hero a new game deals."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from companion.games.horrified.ownerdata import FORMAT
from service_process import Service, call, connect, ok, play_socket_until, play_to_draw

GAME = "horrified"
SETUP = {"monsters": ["dracula", "creature"], "heroes": [{"hero": "mayor", "player": "Ana"}]}

#: Each refused value of a form (one record each), and the words the companion names it with.
REFUSED: list[tuple[str, dict[str, Any], str]] = [
    ("cards", {"sunrise": {"event": {"kind": "move_monsters_to", "params": {"symbol": "dracula", "location": "crypt", "steps": 1},
                                     "text": "Ravenloft's kind"}}},
     "Monster card 'sunrise'.event.kind: unknown kind 'move_monsters_to'"),
    ("cards", {"hypnotic-gaze": {"attack": {"symbols": ["hat", "frenzy"], "move": 1, "dice": 2}}},
     "Monster card 'hypnotic-gaze'.attack.symbols[0]: no monster symbol called 'hat'"),
    ("cards", {"form-of-the-bat": {"attack": {"symbols": ["dracula"], "move": 4, "dice": 2}}},
     "Monster card 'form-of-the-bat'.attack.move: 4 is outside 1..3"),
    ("cards", {"thief-1": {"items": 4}}, "Monster card 'thief-1'.items: 4 is outside 0..3"),
    ("cards", {"thief-2": {"event": {"kind": "sequence", "params": {"steps": []}, "text": "Nothing, twice."}}},
     "Monster card 'thief-2'.event.params.steps: a sequence needs at least one step"),
    ("cards", {"the-hunt-is-on-1": {"event": {"kind": "hunt", "params": {"symbol": "wolf-man"}, "text": "No steps."}}},
     "Monster card 'the-hunt-is-on-1'.event.params.steps: missing"),
    ("perks", {"show-of-force": {"effect": {"kind": "place_or_move_monster", "params": {"monster": "strahd", "steps": 2},
                                            "text": "Not this box's monster."}}},
     "perk 'show-of-force'.effect.params.monster: no monster called 'strahd'"),
    ("heroes", {"mayor": {"actions": 0}}, "hero 'mayor'.actions: 0 is outside 1..10"),
    ("heroes", {"courier": {"start": "nowhere"}}, "hero 'courier'.start: no location called 'nowhere'"),
    ("heroes", {"explorer": {"special": {"kind": "fly", "params": {}, "text": "Fly."}}},
     "hero 'explorer'.special.kind: unknown kind 'fly'"),
]


def doc(changes: dict[str, Any], confirmed: list[str] | None = None) -> dict[str, Any]:
    return {"format": FORMAT, "version": 1, "game": GAME, "changes": changes, "confirmed": confirmed or []}


def merged(refused: list[tuple[str, dict[str, Any], str]]) -> dict[str, Any]:
    """Every refused change in one document (later changes of one record joined to earlier ones)."""
    changes: dict[str, Any] = {}
    for stem, records, _ in refused:
        for record, fields in records.items():
            changes.setdefault(stem, {}).setdefault(stem, {}).setdefault(record, {}).update(fields)
    return changes


@pytest.fixture(scope="module")
def box(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    service = Service(Path(tmp_path_factory.mktemp("original-library")) / "box").start()
    yield service
    service.stop()


@pytest.mark.parametrize("stem, records, named", REFUSED, ids=[named.split(":")[0] for _, _, named in REFUSED])
def test_a_refused_value_is_named_and_changes_nothing(box: Service, stem: str, records: dict[str, Any], named: str) -> None:
    with connect(box.url) as tablet:
        before = ok(tablet, "data_get", {"game": GAME})["data"]
        bad = doc({stem: {stem: records}}, confirmed=[f"{stem}.{stem}.{next(iter(records))}"])
        checked = ok(tablet, "data_check", {"game": GAME, "data": bad})
        assert any(named in p for p in checked["problems"]), checked["problems"]
        refused = call(tablet, "data_save", {"game": GAME, "data": bad})
        assert refused["error"]["code"] == "illegal" and any(named in p for p in refused["error"]["problems"])
        assert ok(tablet, "data_get", {"game": GAME})["data"] == before


def test_every_refused_value_is_named_at_once_and_the_game_in_play_keeps_its_data(box: Service) -> None:
    view = play_to_draw(box.url, SETUP, GAME)
    with connect(box.url) as tablet:
        refused = call(tablet, "data_save", {"game": GAME, "data": doc(merged(REFUSED))})
        problems = refused["error"]["problems"]
        assert [named for _, _, named in REFUSED if not any(named in p for p in problems)] == [], problems
        again = ok(tablet, "join", {"game_id": view["game_id"]})
        assert again["view"]["version"] == view["version"]  # no data input reached the game
        assert ok(tablet, "data_get", {"game": GAME})["data"]["changes"] == {}


def test_a_hero_corrected_through_the_library_is_the_hero_a_new_game_deals(box: Service) -> None:
    mayor = {"actions": 3, "start": "inn", "special": {"kind": "move_to_monster", "params": {}, "text": "Move to a monster."}}
    with connect(box.url) as tablet:
        saved = ok(tablet, "data_save", {"game": GAME, "data": doc({"heroes": {"heroes": {"mayor": mayor}}}, ["heroes.heroes.mayor"])})
        assert {e["key"]: e["state"] for e in saved["status"]["elements"]}["heroes.heroes.mayor"] == "confirmed"
        try:
            game_id = ok(tablet, "new_game", {"game": GAME, "setup": SETUP})["game_id"]
            joined = ok(tablet, "join", {"game_id": game_id})
            view = play_socket_until(tablet, joined["view"], "hero-action")
            assert view["state"]["actions_left"] == 3 and view["state"]["heroes"]["mayor"]["location"] == "inn"
            assert next(h for h in joined["pack"]["heroes"] if h["id"] == "mayor")["special"] == "Move to a monster."
        finally:
            ok(tablet, "data_save", {"game": GAME, "data": doc({})})
