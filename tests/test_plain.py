"""Plain data: an open family of dataclasses is rebuilt by its members' ``kind``, with the
same plain shape a closed union has, and data that fits no member is refused with where and why."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Union

import pytest

from companion.engine.plain import OpenFamily, PlainDataError, from_plain, to_plain


@dataclass
class Token:
    kind: str = ""


TOKENS = OpenFamily(Token, "test token")


@TOKENS.member
@dataclass
class Coin(Token):
    kind: str = "coin"
    value: int = 1


@TOKENS.member
@dataclass
class Gem(Token):
    kind: str = "gem"
    colour: str = "red"
    cuts: list[int] = field(default_factory=list)


@dataclass
class Chest:
    tokens: dict[str, Token]
    labels: Mapping[str, str] = field(default_factory=dict)


@dataclass
class ClosedChest:
    tokens: dict[str, Union[Coin, Gem]]


def test_members_come_back_as_themselves() -> None:
    chest = Chest({"a": Coin(value=5), "b": Gem(colour="green", cuts=[1, 2])}, {"a": "gold"})
    back = from_plain(Chest, to_plain(chest))
    assert back == chest
    assert type(back.tokens["a"]) is Coin and type(back.tokens["b"]) is Gem


def test_an_open_family_has_the_plain_shape_of_a_closed_union() -> None:
    """Files written while the members were a union still load, and write the same."""
    closed = ClosedChest({"a": Coin(value=2), "b": Gem(cuts=[3])})
    opened = from_plain(Chest, to_plain(closed))
    assert to_plain(opened)["tokens"] == to_plain(closed)["tokens"]


def test_an_unknown_kind_is_refused_with_where_and_the_known_kinds() -> None:
    with pytest.raises(PlainDataError, match=r"\$\.tokens\.a: unknown test token kind 'pearl' \(known: coin, gem\)"):
        from_plain(Chest, {"tokens": {"a": {"kind": "pearl"}}})


def test_a_member_is_checked_like_any_dataclass() -> None:
    with pytest.raises(PlainDataError, match=r"\$\.tokens\.a\.value: expected int"):
        from_plain(Chest, {"tokens": {"a": {"kind": "coin", "value": "five"}}})
    with pytest.raises(PlainDataError, match=r"\$\.tokens\.a: expected an object"):
        from_plain(Chest, {"tokens": {"a": 3}})


def test_two_members_cannot_share_a_kind() -> None:
    @dataclass
    class Fake(Token):
        kind: str = "coin"

    with pytest.raises(ValueError, match="two test tokens are both called 'coin'"):
        TOKENS.member(Fake)


def test_a_member_needs_a_kind_and_the_base() -> None:
    @dataclass
    class Stray:
        kind: str = "stray"

    @dataclass
    class Nameless(Token):
        pass

    for cls in (Stray, Nameless):
        with pytest.raises(TypeError):
            TOKENS.member(cls)
