"""One table per running game: the engine, the store and (later) the hardware,
with every change going through one writer."""

from .table import Refused, Table, TableError
from .tables import Tables

__all__ = ["Refused", "Table", "TableError", "Tables"]
