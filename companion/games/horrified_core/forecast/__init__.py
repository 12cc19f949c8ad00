"""The threat forecast of the coming Monster Phase: see ``forecast``."""

from .forecast import Forecast, forecast, monster_phase_start, what_if
from .report import report

__all__ = ["Forecast", "forecast", "monster_phase_start", "what_if", "report"]
