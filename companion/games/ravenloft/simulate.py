"""Playing Ravenloft by policy: the seeded random table (simulation, property tests, a
fully digital game) and the "first option" policy for scripts (horrified_core.simulate)."""

from __future__ import annotations

from companion.games.horrified_core.simulate import (FirstOption, Policy, RandomTable, context_for, first_policy,
                                                     play_out, random_policy)

__all__ = ["FirstOption", "Policy", "RandomTable", "context_for", "first_policy", "play_out", "random_policy"]
