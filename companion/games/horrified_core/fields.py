"""Reading the fields of an action a tablet sent, or of an effect's params: each
refuses what does not fit, saying which field and why."""

from __future__ import annotations

from typing import Mapping

from companion.engine.errors import IllegalInput

Action = Mapping[str, object]
Params = Mapping[str, object]


def text_field(action: Action, key: str) -> str:
    value = action.get(key)
    if not isinstance(value, str) or not value:
        raise IllegalInput(f"this action needs '{key}' (a name), got {value!r}")
    return value


def list_field(action: Action, key: str) -> list[str]:
    value = action.get(key, [])
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise IllegalInput(f"'{key}' must be a list of names, got {value!r}")
    return list(value)


def amount(params: Params, key: str, default: int = 1) -> int:
    """A whole-number param (the loader checked it), or ``default`` when it is left out."""
    value = params.get(key, default)
    return value if isinstance(value, int) else default


def action_text(action: Action, key: str, what: str) -> str:
    value = action.get(key)
    if not isinstance(value, str) or not value:
        raise IllegalInput(f"name the {what} with '{key}', got {value!r}")
    return value


def action_names(action: Action, key: str, what: str) -> list[str]:
    value = action.get(key, [])
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise IllegalInput(f"'{key}' must be a list of {what}, got {value!r}")
    if len(set(value)) != len(value):
        raise IllegalInput(f"the same {what} was named twice in '{key}'")
    return list(value)


def action_index(action: Action, key: str, count: int, what: str) -> int:
    """A 0-based index into ``count`` things; the messages count from 1 like the players do."""
    value = action.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < count:
        raise IllegalInput(f"'{key}' must pick one of the {count} {what} (0 for the first, "
                           f"{count - 1} for the last), got {value!r}")
    return value


def ordinal(index: int) -> str:
    """'first', 'second' ... for a 0-based index (the table speaks in words)."""
    words = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
    return words[index] if index < len(words) else f"{index + 1}th"


def humanize(name: str) -> str:
    """An id in words, for things the data names by id alone: 'upper-left' -> 'Upper left'."""
    text = name.replace("-", " ").replace("_", " ").strip()
    return text[:1].upper() + text[1:]
