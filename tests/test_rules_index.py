"""The rules index (docs/rules.md) and the tests: every rule ID the index gives is held by at
least one test (named in a test's name, docstring or comment), and no test names an ID the
index does not have (a typo, or a rule that was renumbered)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULE_ID = re.compile(r"\bRL-[A-Z0-9]+-\d+\b")


def index_ids() -> list[str]:
    """The ID each entry of the index opens with (``- **RL-MP-8** ...``)."""
    text = (ROOT / "docs" / "rules.md").read_text("utf-8")
    return re.findall(r"^- \*\*(RL-[A-Z0-9]+-\d+)\*\*", text, flags=re.MULTILINE)


def test_the_index_gives_each_rule_once() -> None:
    ids = index_ids()
    assert len(ids) == len(set(ids)) == 85, "each rule has one entry"


def test_every_rule_of_the_index_is_held_by_a_test_and_every_test_names_a_rule_of_it() -> None:
    tests = [p for p in (ROOT / "tests").rglob("*.py") if p.name != Path(__file__).name]
    named = {rule for path in tests for rule in RULE_ID.findall(path.read_text("utf-8"))}
    ids = set(index_ids())
    assert sorted(ids - named) == [], "rules no test names"
    assert sorted(named - ids) == [], "tests name rules the index does not have"
