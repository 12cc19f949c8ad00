"""Durable storage of games: an append-only journal per game in SQLite."""

from .journal import BrokenJournal, Folded, JournalEntry, fold, fold_journal
from .sqlite import CacheRow, GameRecord, Store, StoreError, UnknownGame

__all__ = ["BrokenJournal", "CacheRow", "Folded", "GameRecord", "JournalEntry", "Store", "StoreError", "UnknownGame",
           "fold",
           "fold_journal"]
