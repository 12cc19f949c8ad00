"""The box's card gone wrong, against the real service process: a full card (a
small tmpfs, filled), a read-only one (the tmpfs remounted read-only) and a
damaged database. The service always starts and says so (health, the games
list the tablet reads), refuses every change with ``storage`` and a clear
message, leaves no temporary file, loses nothing it had acknowledged, and
recovers by itself once the card can be written again; a damaged database is
named, set aside untouched and never written, while the games that can still
be read whole go on. Mounting needs root: those tests are skipped otherwise."""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
from pathlib import Path
from typing import Any, Iterator

import cv2
import numpy as np
import pytest
import requests
import socketio

from polling import wait_for
from service_process import SETUP, Service, TIMEOUT, call, connect, console_code, next_event, ok, simple_answer

CONFIG = "[discovery]\nenabled = false\n"
STRANGER = "127.0.0.3"  # not the box's own browser: pairing is asked of it


@pytest.fixture
def card(tmp_path: Path) -> Iterator[Path]:
    """A 12 MiB tmpfs: the box's card, small enough to fill."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    mount = tmp_path / "card"
    mount.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=12m", "tmpfs", str(mount)], check=True)
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=True)


def start(tmp_path: Path, state: Path, name: str) -> Service:
    config = tmp_path / "box.toml"
    config.write_text(CONFIG)
    return Service(state, log_path=tmp_path / f"{name}.log", args=["--config", str(config)]).start()


def played(service: Service, inputs: int, name: str = "Kept") -> tuple[str, dict[str, Any]]:
    """A new game with ``inputs`` answers; its id and its last view."""
    with connect(service.url) as tablet:
        game_id = ok(tablet, "new_game", {"setup": SETUP, "name": name})["game_id"]
        view = ok(tablet, "join", {"game_id": game_id})["view"]
        for _ in range(inputs):
            ok(tablet, "act", {"game_id": game_id, "version": view["version"], "answer": simple_answer(view["prompt"])})
            view = next_event(tablet, "view")
    return game_id, view


def fill(folder: Path) -> Path:
    filler = folder / "filler"
    with open(filler, "wb") as out:
        try:
            while True:
                out.write(bytes(64 * 1024))
                out.flush()
        except OSError:
            pass
    return filler


def stray_files(folder: Path) -> list[str]:
    return [str(p) for p in folder.rglob("*") if p.name.endswith((".tmp", ".restore-old", ".new"))]


def act(tablet: socketio.SimpleClient, game_id: str, view: dict[str, Any]) -> dict[str, Any]:
    answer = simple_answer(view["prompt"])
    return call(tablet, "act", {"game_id": game_id, "version": view["version"], "answer": answer})


def test_a_full_card_starts_refuses_every_write_with_storage_loses_nothing_and_recovers(tmp_path: Path,
                                                                                       card: Path) -> None:
    state = card / "state"
    first = start(tmp_path, state, "first")
    game_id, before = played(first, 5)
    exported = first.export(game_id)
    first.stop()
    filler = fill(card)

    service = start(tmp_path, state, "full")  # it starts on a full card
    try:
        with connect(service.url) as tablet:
            assert ok(tablet, "join", {"game_id": game_id})["view"]["version"] == 5
            refusals = {
                "act": act(tablet, game_id, before),
                "new_game": call(tablet, "new_game", {"setup": SETUP}),
                "data_save": call(tablet, "data_save", {"game": "ravenloft", "data": ok(
                    tablet, "data_get", {"game": "ravenloft"})["data"]}),
                "leds_layout_restore": call(tablet, "leds_layout_restore", {"layout": ok(
                    tablet, "leds_layout_export")["layout"]}),
            }
            with connect(service.url, source=STRANGER) as stranger:
                refusals["pair_code"] = call(stranger, "pair_code", {"name": "Den", "code": console_code(service)})
            for event, reply in refusals.items():
                assert reply["ok"] is False and reply["error"]["code"] == "storage", (event, reply)
                message = reply["error"]["message"]
                assert "nothing" in message and "card is full" in message, (event, reply)
            assert ok(tablet, "pair_devices")["devices"] == []  # no phantom device
            photo = bytes(cv2.imencode(".jpg", np.full((480, 640, 3), 90, np.uint8))[1].tobytes())
            upload = requests.post(f"{service.url}/api/data/ravenloft/photo", data=photo, timeout=TIMEOUT)
            assert upload.status_code == 507 and upload.json()["error"]["code"] == "storage"
            storage = ok(tablet, "games")["storage"]
            assert storage["state"] != "ok" and "card is full" in storage["reason"], storage  # the tablet is told
            assert service.health()["parts"]["storage"]["state"] != "ok"
            assert stray_files(card) == []

            filler.unlink()  # space comes back: the box writes again by itself
            assert wait_for(lambda: act(tablet, game_id, before)["ok"], timeout=15)
            with connect(service.url, source=STRANGER) as stranger:  # the code was not used up
                paired = ok(stranger, "pair_code", {"name": "Den", "code": console_code(service)})
                assert paired["device"]["name"] == "Den"
            assert service.health()["parts"]["storage"]["state"] == "ok"
        after = service.export(game_id)
        assert after["journal"][:5] == exported["journal"] and len(after["journal"]) == 6  # nothing lost
    finally:
        service.stop()


def test_a_read_only_card_starts_read_only_says_so_and_recovers(tmp_path: Path, card: Path) -> None:
    state = card / "state"
    first = start(tmp_path, state, "first")
    game_id, before = played(first, 3)
    first.stop()
    subprocess.run(["mount", "-o", "remount,ro", str(card)], check=True)

    service = start(tmp_path, state, "read-only")
    try:
        health = service.health()
        storage = health["parts"]["storage"]
        assert storage["state"] == "read-only" and "watched" in storage["reason"], storage
        assert "card is read-only" in storage["reason"], storage
        assert health["overall"] == "degraded" and "could not be written" in health["start"]["note"]
        with connect(service.url) as tablet:
            listed = ok(tablet, "games")
            assert listed["storage"]["state"] == "read-only" and [g["game_id"] for g in listed["games"]] == [game_id]
            assert ok(tablet, "join", {"game_id": game_id})["view"] == before  # watching works
            refused = act(tablet, game_id, before)
            assert refused["error"]["code"] == "storage" and "nothing can be saved" in refused["error"]["message"]
            subprocess.run(["mount", "-o", "remount,rw", str(card)], check=True)
            assert wait_for(lambda: act(tablet, game_id, before)["ok"], timeout=15)
        assert service.health()["parts"]["storage"]["state"] == "ok" and stray_files(card) == []
    finally:
        service.stop()


# -- a damaged database ----------------------------------------------------------------------------

def scribble_a_page_of(path: Path, game_id: str, others: list[str], page_size: int = 4096) -> int:
    """Overwrite one page holding ``game_id``'s rows and none of ``others``; its number."""
    data = bytearray(path.read_bytes())
    pages = [n for n in range(1, len(data) // page_size)
             if game_id.encode() in data[n * page_size:(n + 1) * page_size]
             and not any(o.encode() in data[n * page_size:(n + 1) * page_size] for o in others)]
    assert pages, "no page holds only the long game"
    page = pages[len(pages) // 2]
    data[page * page_size:(page + 1) * page_size] = b"\xab" * page_size
    path.write_bytes(bytes(data))
    return page


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_damaged_database_is_named_set_aside_never_written_and_the_other_games_go_on(tmp_path: Path) -> None:
    state = tmp_path / "state"
    first = start(tmp_path, state, "first")
    short = [played(first, 3, name)[0] for name in ("Short one", "Short two")]
    long_id, _ = played(first, 60, "Long")
    first.stop()
    database = state / "companion.sqlite"
    scribble_a_page_of(database, long_id, short)
    damaged = digest(database)

    service = start(tmp_path, state, "damaged")
    try:
        storage = service.health()["parts"]["storage"]
        assert storage["state"] == "set-aside", storage
        for words in (str(database), "failed its integrity check", "set aside", "untouched"):
            assert words in storage["reason"], (words, storage["reason"])
        aside = [p for p in state.iterdir() if re.fullmatch(r"companion\.sqlite\.damaged-\d{8}-\d{6}", p.name)]
        assert len(aside) == 1 and digest(aside[0]) == damaged
        listed = {g["game_id"]: g for g in requests.get(f"{service.url}/api/games", timeout=TIMEOUT).json()["games"]}
        assert set(short) <= set(listed) and all(listed[s]["version"] == 3 for s in short)
        assert long_id in listed or "'Long'" in storage["reason"]  # saved whole, or named as lost
        if long_id not in listed:
            assert "restore them from a backup" in storage["reason"]
        with connect(service.url) as tablet:  # the other games go on, in the new file
            view = ok(tablet, "join", {"game_id": short[0]})["view"]
            assert act(tablet, short[0], view)["version"] == 4
        assert digest(aside[0]) == damaged  # never written
    finally:
        service.stop()


def test_a_file_that_is_no_database_at_all_is_set_aside_and_the_box_starts_fresh(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / "companion.sqlite").write_bytes(b"this is not a database " * 300)
    service = start(tmp_path, state, "garbage")
    try:
        storage = service.health()["parts"]["storage"]
        assert storage["state"] == "set-aside" and "companion.sqlite" in storage["reason"], storage
        game_id, view = played(service, 2)
        assert view["version"] == 2
    finally:
        service.stop()


def test_a_card_that_fills_while_playing_refuses_the_change_and_a_restore_whole(tmp_path: Path, card: Path) -> None:
    """The card fills up under a running box: an input and a whole backup restore (its games in
    one transaction, its photo a file) are refused and change nothing; then both go through."""
    other = start(tmp_path, tmp_path / "other-box", "other")
    played(other, 4, "From the backup")
    photo = bytes(cv2.imencode(".png", np.random.default_rng(7).integers(0, 255, (700, 700, 3), np.uint8))[1])
    (other.state_dir / "owner").mkdir()
    (other.state_dir / "owner" / "ravenloft-board.png").write_bytes(photo)  # about 1.5 MB
    backup = requests.get(f"{other.url}/api/backup", timeout=TIMEOUT).content
    other.stop()

    service = start(tmp_path, card / "state", "filling")
    try:
        game_id, view = played(service, 2)
        filler = fill(card)
        with connect(service.url) as tablet:
            refused = act(tablet, game_id, view)
            assert refused["error"]["code"] == "storage" and "card is full" in refused["error"]["message"], refused
            with open(filler, "r+b") as out:  # room for the games now, not for the photo
                out.truncate(filler.stat().st_size - 600 * 1024)
            restore = requests.post(f"{service.url}/api/backup/restore", data=backup, timeout=TIMEOUT)
            assert restore.status_code == 507 and restore.json()["error"]["code"] == "storage", restore.text
            assert "owner/ravenloft-board.png could not be saved" in restore.json()["error"]["message"]  # mid-way
            games = ok(tablet, "games")
            assert [g["game_id"] for g in games["games"]] == [game_id] and games["storage"]["state"] == "failed"
            assert not (card / "state" / "owner" / "ravenloft-board.png").exists() and stray_files(card) == []
            filler.unlink()
            assert act(tablet, game_id, view)["version"] == 3
            restored = requests.post(f"{service.url}/api/backup/restore", data=backup, timeout=TIMEOUT).json()
            assert restored["ok"] and restored["restored"]["games"] == 1, restored
            assert (card / "state" / "owner" / "ravenloft-board.png").read_bytes() == photo
    finally:
        service.stop()
