"""Where the family's shared tablet code lives: every edition's ``PackWeb`` names this folder
as its ``family``, so the screens the editions have in common (the owner-data pages, the names
of things) are written once and no edition's module imports another's."""

from __future__ import annotations

from pathlib import Path

FAMILY_WEB = Path(__file__).resolve().with_name("web")

__all__ = ["FAMILY_WEB"]
