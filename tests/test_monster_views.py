"""What each Ravenloft monster plug-in tells a tablet: its mat in words (the lines the
tablet prints under the monster), its minions and tokens on the board, its look, and
its components in the pack view; and that the Horrified core names no edition."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from companion.games.horrified_core.views import board_figures, mat_views
from companion.games.ravenloft.monsters import REGISTRY, look_of
from companion.games.ravenloft.monsters.baba_lysaga_mat import HutMat
from companion.games.ravenloft.monsters.carrionette_mat import CarrionetteMat
from companion.games.ravenloft.monsters.gulthias_tree_mat import TreeMat
from companion.games.ravenloft.monsters.strahd_mat import StrahdMat
from companion.games.ravenloft.tablet import pack_view
from companion.games.ravenloft.rules import RavenloftRules

from ravenloft_fixtures import Table, make_pack, new_table

CORE = Path(__file__).resolve().parents[1] / "companion" / "games" / "horrified_core"


def lines(t: Table, monster: str) -> list[str]:
    view = t.rule(monster).mat_view(t.ctx)
    assert all(isinstance(line, str) for line in view["lines"])
    return list(view["lines"])


def test_the_carrionette_lists_its_spare_parts() -> None:
    t = new_table()
    assert lines(t, "carrionette") == ["Spare parts: 1: not swapped · 2: not swapped · 3: not swapped"]
    mat = t.mat("carrionette")
    assert isinstance(mat, CarrionetteMat)
    mat.parts[1] = "bow-4"
    assert lines(t, "carrionette") == ["Spare parts: 1: not swapped · 2: Bow · 3: not swapped"]
    assert t.rule("carrionette").mat_view(t.ctx)["parts"] == [None, "bow-4", None]


def test_the_tree_counts_its_roots_and_places_its_blights_on_the_board() -> None:
    t = new_table()
    mat = t.mat("gulthias-tree")
    assert isinstance(mat, TreeMat)
    mat.blights = ["village", None, "lake"]
    assert lines(t, "gulthias-tree") == ["Roots face down: eye 2, claw 3, thorn 4",
                                         "Twig Blights: 1 at Village of Barovia · 2 off the board · 3 at Lake Zarovich"]
    mat.roots = {}
    assert lines(t, "gulthias-tree")[0] == "Roots face down: none"
    assert t.rule("gulthias-tree").board_figures(t.ctx) == [
        {"kind": "twig-blight", "index": 0, "location": "village", "name": "Twig Blight 1"},
        {"kind": "twig-blight", "index": 2, "location": "lake", "name": "Twig Blight 3"}]


def test_baba_lysaga_shows_the_gem_and_her_tokens() -> None:
    t = new_table()
    assert lines(t, "baba-lysaga") == ["Gem on the top space · 5 tokens face down"]
    mat = t.mat("baba-lysaga")
    assert isinstance(mat, HutMat)
    mat.face_down = ["upper-left"]
    mat.revealed = {"lower-right": "raven-1"}
    mat.removed = ["scarecrow-2"]
    mat.gem = "upper-right"
    assert lines(t, "baba-lysaga") == ["Gem on the upper right space · 1 token face down",
                                       "Face up: Lower right: raven token (target 9)",
                                       "Beaten: scarecrow token (target 13)"]


def test_strahd_shows_his_cards_relics_and_heart_and_puts_relics_on_the_board() -> None:
    t = new_table()
    assert lines(t, "strahd") == ["No Tarokka card shown yet", "Heart of Sorrow: intact"]
    assert t.rule("strahd").board_figures(t.ctx) == []
    mat = t.mat("strahd")
    assert isinstance(mat, StrahdMat)
    mat.revealed = {"weapon": "seven-of-swords"}
    mat.relics_on_board = {"sunsword": "woods"}
    mat.relics_returned = ["tome"]
    mat.heart_destroyed = True
    assert lines(t, "strahd") == ["Tarokka cards shown: Weapon: Seven of Swords", "Relics on the board: Sunsword at Svalich Woods",
                                  "Relics returned: Tome of Strahd", "Heart of Sorrow: destroyed"]
    assert t.rule("strahd").board_figures(t.ctx) == [
        {"kind": "relic", "id": "sunsword", "location": "woods", "name": "Sunsword"}]


def test_a_game_gathers_every_mat_and_every_figure_of_the_monsters_in_play() -> None:
    t = new_table()
    tree, strahd = t.mat("gulthias-tree"), t.mat("strahd")
    assert isinstance(tree, TreeMat) and isinstance(strahd, StrahdMat)
    tree.blights[0], strahd.relics_on_board["tome"] = "tower", "chapel"
    assert set(mat_views(t.ctx)) == {"carrionette", "baba-lysaga", "strahd", "gulthias-tree"}
    assert [(f["kind"], f["location"]) for f in board_figures(t.ctx)] == [("relic", "chapel"), ("twig-blight", "tower")]
    t.state.monsters["gulthias-tree"].defeated = True
    assert [f["kind"] for f in board_figures(t.ctx)] == ["relic"]


def test_each_monster_brings_its_own_look() -> None:
    looks = {monster: look_of(monster) for monster in REGISTRY}
    assert all(looks.values())
    assert len({look.colour for look in looks.values() if look}) == len(looks)
    assert len({look.pattern for look in looks.values() if look}) == len(looks)
    assert look_of("dracula") is None


def test_strahds_relics_come_with_his_plug_in_into_the_pack_view() -> None:
    view = pack_view(RavenloftRules().pack)
    assert {r["id"] for r in view["relics"]} == {"sunsword", "holy-symbol", "tome"}
    without = pack_view(make_pack(monsters=[m for m in make_pack().monsters if m.id != "strahd"]))
    assert without["relics"] == []


def _shared_games_module(module: str) -> bool:
    """A module of companion/games itself (datafiles, overlay, ...) is a tool of every pack, not a pack."""
    return (CORE.parent / f"{module.rsplit('.', 1)[-1]}.py").is_file() and module.count(".") == 2


def test_the_core_names_no_edition_and_imports_none() -> None:
    """The core is a library for every edition: no pack's id, monsters or modules in it."""
    names = re.compile(r"ravenloft|strahd|carrionette|baba.lysaga|gulthias|twig|blight\b|barovia|tarokka"
                       r"|dracula|mummy|frankenstein|wolf.man|invisible.man|lagoon", re.IGNORECASE)
    for path in sorted(CORE.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        imports = [n.module or "" for n in ast.walk(ast.parse(text)) if isinstance(n, ast.ImportFrom)]
        packs = [m for m in imports if m.startswith("companion.games.") and not _shared_games_module(m)]
        assert not [m for m in packs if "horrified_core" not in m], path
        found = [line for line in text.splitlines() if names.search(line) and not re.search(r'blight=figure', line)
                 and '{"blight": figure.minion}' not in line]
        assert not found, f"{path.name} names an edition: {found}"
