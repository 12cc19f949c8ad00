"""Fixtures shared by the tests of this folder."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from companion.games import pack_makers
from companion.store import Store
from companion.table import Tables


@pytest.fixture
def tables(tmp_path: Path) -> Iterator[Tables]:
    """Every game kind's tables over a real SQLite store in the test's folder."""
    store = Store(tmp_path / "companion.sqlite")
    yield Tables(store, pack_makers(""))
    store.close()
