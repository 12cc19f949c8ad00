"""Files written whole or not at all (``companion.server.files``): a refused write leaves the
old file and no temporary one, a swap of several files is undone or kept as one, and what a
power cut in the middle of either leaves is tidied at the next start."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from companion.server.files import Swap, recover, storage_refusal, write_atomic
from companion.table import TableError


def test_a_refused_write_keeps_the_old_file_and_leaves_no_temporary_one(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "data.json"
    write_atomic(path, b"old")

    def full(*args: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("companion.server.files.os.fsync", full)
    with pytest.raises(TableError) as refused:
        write_atomic(path, b"new", "the game data")
    assert refused.value.code == "storage" and "the game data could not be saved" in str(refused.value)
    assert "card is full" in str(refused.value) and "nothing changed" in str(refused.value)
    assert path.read_bytes() == b"old" and sorted(p.name for p in tmp_path.iterdir()) == ["data.json"]


def test_a_swap_is_undone_or_kept_whole(tmp_path: Path) -> None:
    one, two, previous = tmp_path / "one", tmp_path / "two", tmp_path / "one.previous"
    one.write_bytes(b"old one")
    swap = Swap()
    swap.put(one, b"new one")
    swap.put(two, b"new two")
    swap.undo()
    assert one.read_bytes() == b"old one" and not two.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["one"]
    swap = Swap()
    swap.put(one, b"new one")
    swap.finish({one: previous})
    assert one.read_bytes() == b"new one" and previous.read_bytes() == b"old one"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one", "one.previous"]


def test_a_start_puts_back_what_a_cut_restore_set_aside_and_removes_cut_writes(tmp_path: Path) -> None:
    (tmp_path / "owner").mkdir()
    target = tmp_path / "owner" / "ravenloft.json"
    target.write_text("the owner's data")
    Swap().put(target, b"half restored")  # then the power went: never finished nor undone
    (tmp_path / "owner" / ".ravenloft-board.png.tmp").write_bytes(b"half a photo")
    (tmp_path / "pairing.json.tmp").write_text("{")
    (tmp_path / ".dice.k3j2").mkdir()
    (tmp_path / "calibration").mkdir()
    (tmp_path / "calibration" / ".leds-ravenloft.json.new").write_text("{")
    done = recover(tmp_path)
    assert len(done) == 5 and target.read_text() == "the owner's data"
    assert sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*")) == ["calibration", "owner",
                                                                                 "owner/ravenloft.json"]


def test_the_refusal_says_what_to_do_for_a_read_only_card() -> None:
    refusal = storage_refusal(OSError(errno.EROFS, "Read-only file system"), "the pairing")
    assert refusal.code == "storage" and "read-only" in str(refusal)
