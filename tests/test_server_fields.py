"""Every handler reads a message's fields one way: a wrong field is a ``bad-request`` that names
the field, what it must be and what came instead."""

from __future__ import annotations

import math

import pytest

from companion.server import fields
from companion.table import TableError


@pytest.mark.parametrize(("read", "data", "said"), [
    (lambda d: fields.text(d, "seat"), {}, "'seat' must be a non-empty text, got nothing"),
    (lambda d: fields.text(d, "seat"), {"seat": ""}, "'seat' must be a non-empty text, got ''"),
    (lambda d: fields.text(d, "seat"), {"seat": 3}, "'seat' must be a non-empty text, got 3"),
    (lambda d: fields.optional_text(d, "name", "x"), {"name": ["a"]}, "'name' must be a text, got ['a']"),
    (lambda d: fields.whole(d, "count", 1), {"count": 0}, "'count' must be a whole number of at least 1, got 0"),
    (lambda d: fields.whole(d, "count", 1), {"count": True}, "'count' must be a whole number of at least 1, got True"),
    (lambda d: fields.whole(d, "count", 1), {"count": 2.0}, "'count' must be a whole number of at least 1, got 2.0"),
    (lambda d: fields.number(d, "x"), {"x": math.nan}, "'x' must be a number, got nan"),
    (lambda d: fields.number(d, "x"), {"x": "0.5"}, "'x' must be a number, got '0.5'"),
    (lambda d: fields.one_of(d, "kind", ["d20", "d6"]), {"kind": "d8"}, "'kind' must be one of d20, d6, got 'd8'"),
    (lambda d: fields.one_of(d, "kind", ["d20", "d6"]), {}, "'kind' must be one of d20, d6, got nothing"),
    (lambda d: fields.text(d, "face", "the face that was up"), {"face": ""}, "'face' must be the face that was up, got ''"),
    (lambda d: fields.mapping(d, "setup"), {"setup": "x" * 500}, "'setup' must be an object, got a str of 502 characters"),
])
def test_a_wrong_field_is_refused_saying_which_what_and_what_came(read, data, said) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TableError) as refused:
        read(data)
    assert refused.value.code == "bad-request"
    assert str(refused.value) == said


def test_right_fields_are_read_as_they_came() -> None:
    data = {"seat": "a", "count": 3, "x": 0.25, "setup": {"k": 1}}
    assert fields.text(data, "seat") == "a" and fields.optional_text(data, "name", "New game") == "New game"
    assert fields.whole(data, "count", 1) == 3 and fields.number(data, "x") == 0.25
    assert fields.mapping(data, "setup") == {"k": 1}
    assert fields.one_of({"kind": "d6"}, "kind", ["d20", "d6"]) == "d6"
    assert fields.one_of({}, "style", ["pips"], optional=True) is None
