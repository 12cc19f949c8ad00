"""One-file backup and restore, through the real service's HTTP API: games (archived
ones too), the LED layout and the owner's files come back on a fresh box; a broken
file changes nothing; restoring twice adds nothing."""

from __future__ import annotations

import io
import json
import sqlite3
import zipfile
from pathlib import Path
from typing import Any, Iterator

import pytest
import requests

from service_process import SETUP, TIMEOUT, Service, connect, ok, play_socket_until


MY_DATA = {"format": "table-companion.owner-data", "version": 1, "game": "ravenloft",
           "changes": {"board": {"locations": {"krezk": {"x": 0.5}}}}, "confirmed": ["board.locations.krezk"]}


@pytest.fixture
def box(tmp_path: Path) -> Iterator[Service]:
    service = Service(tmp_path / "old-box").start()
    yield service
    service.stop()


def games_of(service: Service) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = requests.get(f"{service.url}/api/games", timeout=TIMEOUT).json()["games"]
    return found


def restore(service: Service, data: bytes) -> requests.Response:
    return requests.post(f"{service.url}/api/backup/restore", data=data,
                         headers={"Content-Type": "application/zip"}, timeout=TIMEOUT)


def fill(service: Service) -> None:
    """Two games, one played into its Monster Phase and one archived."""
    with connect(service.url) as tablet:
        played = ok(tablet, "new_game", {"setup": SETUP, "name": "Played"})["game_id"]
        view = ok(tablet, "join", {"game_id": played})["view"]
        play_socket_until(tablet, view, "monster-card")
        archived = ok(tablet, "new_game", {"setup": SETUP, "name": "Shelved"})["game_id"]
        ok(tablet, "archive", {"game_id": archived})


def test_a_backup_brings_games_and_calibration_back_on_a_fresh_box(box: Service, tmp_path: Path) -> None:
    fill(box)
    (box.state_dir / "owner").mkdir()
    (box.state_dir / "owner" / "ravenloft.json").write_text(json.dumps(MY_DATA))
    backup = requests.get(f"{box.url}/api/backup", timeout=TIMEOUT)
    assert backup.status_code == 200 and backup.headers["Content-Type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(backup.content)) as archive:
        names = set(archive.namelist())
        assert {"backup.json", "leds/layout.json", "config.toml", "owner/ravenloft.json"} <= names
        assert not any("pairing" in name for name in names)
    fresh = Service(tmp_path / "new-box").start()
    try:
        reply = restore(fresh, backup.content).json()
        assert reply["ok"] and reply["restored"]["games"] == 2 and reply["restored"]["skipped"] == 0
        assert "leds" in reply["restored"]["calibration"] and "owner/ravenloft.json" in reply["restored"]["calibration"]
        assert json.loads((fresh.state_dir / "owner" / "ravenloft.json").read_text()) == MY_DATA
        old, new = games_of(box), games_of(fresh)
        assert sorted((g["name"], g["status"], g["version"]) for g in old) == \
            sorted((g["name"], g["status"], g["version"]) for g in new)
        again = restore(fresh, backup.content).json()
        assert again["restored"]["games"] == 0 and again["restored"]["skipped"] == 2
        assert len(games_of(fresh)) == 2
    finally:
        fresh.stop()


def test_a_broken_backup_changes_nothing_and_says_what_is_wrong(box: Service) -> None:
    fill(box)
    backup = requests.get(f"{box.url}/api/backup", timeout=TIMEOUT).content
    source = zipfile.ZipFile(io.BytesIO(backup))
    broken = io.BytesIO()
    with zipfile.ZipFile(broken, "w") as archive:
        for name in source.namelist():
            data = source.read(name)
            if name == "games/0001.json" or name == "games/0002.json":
                game = json.loads(data)
                game["journal"].append({"kind": "input", "entry": {"key": "no-such-prompt", "answer": 99}})
                data = json.dumps(game).encode()
            if name == "leds/layout.json":
                data = b'{"board": "ravenloft", "count": -3}'
            if name == "config.toml":
                archive.writestr("owner/ravenloft.json", json.dumps({**MY_DATA, "changes": {"board": {
                    "connections": {"add": [["krezk", "nowhere"]]}}}}))
            archive.writestr(name, data)
    before = games_of(box)
    refused = restore(box, broken.getvalue())
    error = refused.json()["error"]
    assert refused.status_code == 400 and "nothing was changed" in error["message"]
    assert any(p.startswith("game 1") for p in error["problems"]) and any(p.startswith("LED layout") for p in error["problems"])
    assert any(p.startswith("owner/ravenloft.json") and "'nowhere'" in p for p in error["problems"])
    assert games_of(box) == before
    not_zip = restore(box, b"hello").json()["error"]
    assert "not a zip" in not_zip["message"] and games_of(box) == before


def cache_rows(service: Service) -> list[tuple[str, bytes]]:
    """The reopen cache's rows in the box's games file (docs/engine.md, "Reopening after a restart")."""
    db = sqlite3.connect(f"{(service.state_dir / 'companion.sqlite').resolve().as_uri()}?mode=ro", uri=True)
    try:
        return [(str(game_id), bytes(body)) for game_id, body in db.execute("SELECT game_id, body FROM reopen_cache")]
    finally:
        db.close()


def test_the_reopen_cache_stays_in_the_box_and_a_restore_makes_it_again(box: Service, tmp_path: Path) -> None:
    """The cache holds the game's secrets (the decks' order): no part of it is in the backup; a
    restored game has none until it is opened, which makes it again from the journal."""
    fill(box)
    rows = cache_rows(box)
    assert any(len(body) > 1000 for _, body in rows), "a snapshot of the played game is in the cache"
    backup = requests.get(f"{box.url}/api/backup", timeout=TIMEOUT).content
    with zipfile.ZipFile(io.BytesIO(backup)) as archive:
        members = [archive.read(name) for name in archive.namelist()]
    for _, body in rows:
        pieces = [body[i:i + 24] for i in range(0, len(body) - 24, 97)]
        assert not any(piece in member or piece.hex().encode() in member for piece in pieces for member in members)
    fresh = Service(tmp_path / "new-box").start()
    try:
        assert restore(fresh, backup).json()["ok"]
        assert cache_rows(fresh) == []
        played = next(g for g in games_of(fresh) if g["name"] == "Played")
        with connect(fresh.url) as tablet:
            ok(tablet, "join", {"game_id": played["game_id"]})
        assert {game_id for game_id, _ in cache_rows(fresh)} == {played["game_id"]}
        assert "opens by replaying its whole journal: no reopen cache is saved" in fresh.log()
    finally:
        fresh.stop()
