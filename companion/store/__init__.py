"""Durable storage of games: an append-only journal per game in SQLite."""

from .journal import BrokenJournal, Folded, JournalEntry, fold, fold_journal
from .sqlite import GameRecord, Store, StoreError, UnknownGame

__all__ = ["BrokenJournal", "Folded", "GameRecord", "JournalEntry", "Store", "StoreError", "UnknownGame", "fold",
           "fold_journal"]
