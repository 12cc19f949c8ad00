"""Durable storage of games: an append-only journal per game in SQLite."""

from .journal import JournalEntry, fold_journal
from .sqlite import GameRecord, Store, StoreError, UnknownGame

__all__ = ["GameRecord", "JournalEntry", "Store", "StoreError", "UnknownGame", "fold_journal"]
