"""Every game pack the box knows, by id: the one place outside the packs that names them.

A pack is made on demand (nothing is imported or wired at import time), once per
``Tables``. ``COMPANION_EXTRA_PACKS`` (``module:Class`` entries separated by
commas) adds packs from outside this tree, for writing a new pack before it
joins the box (docs/engine.md, "Writing a pack").
"""

from __future__ import annotations

import importlib
import os
from typing import Callable, Mapping

from companion.engine.errors import SetupError

from .gamepack import GamePack

#: Pack id -> where its ``GamePack`` class lives.
BUILT_IN: Mapping[str, str] = {
    "ravenloft": "companion.games.ravenloft.gamepack:RavenloftPack",
    "horrified": "companion.games.horrified.gamepack:HorrifiedPack",
    "siege-of-barovia": "companion.games.siege_of_barovia.gamepack:SiegePack",
    "straszydla": "companion.games.straszydla.gamepack:StraszydlaPack",
}
EXTRA_ENV = "COMPANION_EXTRA_PACKS"
#: The game a command means when it names none (``companion play`` without ``--game``).
DEFAULT_PACK = "ravenloft"

PackMaker = Callable[[], GamePack]


def pack_makers(extra: str | None = None) -> dict[str, PackMaker]:
    """Pack id -> a maker of that pack: the built-in ones, and any named in ``extra``
    (default: the ``COMPANION_EXTRA_PACKS`` environment variable)."""
    found = {pack_id: _maker(pack_id, where) for pack_id, where in BUILT_IN.items()}
    for where in _extra_entries(os.environ.get(EXTRA_ENV, "") if extra is None else extra):
        maker = _load(where)
        found[maker().id] = maker
    return found


def _extra_entries(text: str) -> list[str]:
    return [entry.strip() for entry in text.split(",") if entry.strip()]


def _maker(pack_id: str, where: str) -> PackMaker:
    def make() -> GamePack:
        pack = _load(where)()
        if pack.id != pack_id:
            raise SetupError(f"{where} says its id is {pack.id!r}, but it is registered as {pack_id!r}")
        return pack
    return make


def _load(where: str) -> PackMaker:
    module_name, _, name = where.partition(":")
    try:
        found = getattr(importlib.import_module(module_name), name)
    except (ImportError, AttributeError) as problem:
        raise SetupError(f"no game pack at {where!r} ({problem})") from None
    if not callable(found):
        raise SetupError(f"{where!r} is not a game pack class")
    return found  # type: ignore[no-any-return]


def pack_ids() -> list[str]:
    return sorted(pack_makers())
