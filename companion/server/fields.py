"""The fields of a message from a tablet, each checked one way: present, of its type, in range;
otherwise a ``bad-request`` that names the field, what it must be and what came.

Every handler reads its message through these, so a malformed message from any client is refused
the same way before anything changes."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, Mapping

from companion.table import TableError


def refused(key: str, must: str, value: object) -> TableError:
    """The one refusal of a field: ``'x' must be a number, got 'abc'``."""
    return TableError("bad-request", f"'{key}' must be {must}, got {_shown(value)}")


def _shown(value: object) -> str:
    if value is None:
        return "nothing"
    text = repr(value)
    return text if len(text) <= 40 else f"a {type(value).__name__} of {len(text)} characters"


def text(data: Mapping[str, Any], key: str, must: str = "a non-empty text") -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value:
        raise refused(key, must, value)
    return value


def optional_text(data: Mapping[str, Any], key: str, default: str) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise refused(key, "a text", value)
    return value


def one_of(data: Mapping[str, Any], key: str, allowed: Iterable[str], optional: bool = False) -> str | None:
    """A text among ``allowed`` (or, if ``optional``, nothing at all)."""
    value, names = data.get(key), list(allowed)
    if (value is None and optional) or (isinstance(value, str) and value in names):
        return value
    raise refused(key, f"one of {', '.join(names)}", value)


def whole(data: Mapping[str, Any], key: str, least: int = 0, must: str = "") -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise refused(key, must or f"a whole number of at least {least}", value)
    return value


def number(data: Mapping[str, Any], key: str, must: str = "a number") -> float:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise refused(key, must, value)
    return float(value)


def mapping(data: Mapping[str, Any], key: str, must: str = "an object") -> Mapping[str, Any]:
    value = data.get(key)
    if not isinstance(value, Mapping):
        raise refused(key, must, value)
    return value
