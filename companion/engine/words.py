"""Small helpers for the words a table reads: a count with its noun in the right number
("1 item", "2 hits", never "item(s)"), and a sentence that starts with a capital even when
it starts with a name like "the Druid"."""

from __future__ import annotations


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` and ``noun``, plural unless the count is one (``plural``: an irregular plural)."""
    if count == 1:
        return f"1 {noun}"
    return f"{count} {plural or noun + 's'}"


def capitalised(text: str) -> str:
    """``text`` with its first letter upper-case and the rest untouched (names keep their case)."""
    return text[:1].upper() + text[1:]


def ended(text: str) -> str:
    """``text`` closed with a full stop, unless it already ends a sentence ("Ambush!", not "Ambush!.")."""
    return text if text.endswith((".", "!", "?", "…")) else text + "."
