"""The item bag (RL-IT-*, RL-MP-2): identical tokens are one choice for the player; an
empty bag is refilled from the discard pile first; with both empty nothing is drawn."""

from __future__ import annotations

from companion.games.horrified_core.items import draw_item, haversack_options

from ravenloft_fixtures import ITEMS, item, make_pack, new_table, run


def test_identical_tokens_are_one_choice_and_the_other_stays_in_the_bag() -> None:
    twins = (item("club-a", "weapon", 3, name="Club"), item("club-b", "weapon", 3, name="Club"))
    t = new_table(make_pack(items=ITEMS + twins), haversack=["club-a", "club-b", "rope-1"])
    assert [o.id for o in haversack_options(t.ctx)] == ["club-a", "rope-1"]
    assert run(draw_item(t.ctx, "a test"), [("item", "club-a")]).value == "club-a"
    assert [o.id for o in haversack_options(t.ctx)] == ["club-b", "rope-1"]


def test_different_tokens_are_each_a_choice_in_label_order() -> None:
    t = new_table(haversack=["sword-5", "axe-6", "rope-1"])
    options = haversack_options(t.ctx)
    assert [o.id for o in options] == ["axe-6", "rope-1", "sword-5"]
    assert options[0].text == "Axe (weapon 6, Village of Barovia)"


def test_an_empty_bag_is_refilled_from_the_discard_pile_first() -> None:
    t = new_table(haversack=[])
    t.state.item_discard = ["lamp-2", "ring-1"]
    ran = run(draw_item(t.ctx, "a test"), [("item", "ring-1")])
    assert ran.value == "ring-1" and t.state.haversack == ["lamp-2"] and t.state.item_discard == []
    assert "haversack-refilled" in [e.kind for e in t.effects()]


def test_with_bag_and_discard_empty_nothing_is_drawn() -> None:
    t = new_table(haversack=[])
    assert run(draw_item(t.ctx, "a test")).value is None
    assert [e.text for e in t.effects()] == [
        "The Haversack and the item discard pile are both empty: no item is drawn."]
