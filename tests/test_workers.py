"""The pool of worker processes (companion/workers.py), real processes: a task runs on the
worker it is sent to (which keeps what the job's earlier tasks left there), a job called off
has its tasks skipped, a task naming a module the worker cannot import fails alone, and a closed pool says so."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import pytest

from companion.workers import Cancelled, Closed, Workers

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def pool() -> Iterator[Workers]:
    workers = Workers(2)
    yield workers
    workers.close()


def test_a_task_runs_on_the_worker_it_is_sent_to(pool: Workers) -> None:
    ticket = pool.ticket()
    ran = [pool.submit(ticket, os.getpid, on=n).result(timeout=30) for n in (0, 1, 0)]
    assert ran[0] == ran[2] != ran[1]
    assert sorted(set(ran)) == pool.pids()


def test_the_tasks_of_a_job_called_off_are_skipped(pool: Workers) -> None:
    ticket = pool.ticket()
    ticket.cancel()
    with pytest.raises(Cancelled):
        pool.submit(ticket, os.getpid).result(timeout=30)
    assert pool.submit(pool.ticket(), os.getpid).result(timeout=30) in pool.pids()  # others go on


def test_a_class_the_worker_cannot_import_fails_that_task_alone(pool: Workers) -> None:
    """As a plug-in pack whose module is not on the worker's path: the task's error, not the pool's."""
    before = pool.pids()
    missing = b"cno_such_plug_in_module\nPack\n."  # a pickle naming a class of a module nowhere
    with pytest.raises(ModuleNotFoundError, match="no_such_plug_in_module"):
        pool.submit(pool.ticket(), pickle.loads, missing).result(timeout=30)
    assert pool.pids() == before  # no worker died of it
    assert pool.submit(pool.ticket(), os.getpid).result(timeout=30) in before


def test_a_closed_pool_refuses_new_jobs_and_closes_twice() -> None:
    workers = Workers(1)
    workers.close()
    with pytest.raises(Closed):
        workers.ticket()
    workers.close()


#: A service that starts its workers, says their ids, and waits to be killed.
SERVICE = """
import os, sys, time
from companion.workers import Workers
workers = Workers(2)
ticket = workers.ticket()
pids = sorted({workers.submit(ticket, os.getpid, on=n).result(timeout=60) for n in (0, 1)})
print(" ".join(map(str, pids)), flush=True)
time.sleep(600)
"""


def test_the_workers_end_when_their_service_is_killed_outright(tmp_path: Path) -> None:
    """A power cut ends everything; a service killed alone (SIGKILL, a crash) cannot close its
    pool, and its workers (children of the fork server) must not wait for tasks for ever."""
    script = tmp_path / "service.py"
    script.write_text("if __name__ == '__main__':\n" + "\n".join(f"    {line}" for line in SERVICE.strip().splitlines()))
    service = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert service.stdout is not None
        pids = [int(pid) for pid in service.stdout.readline().split()]
        assert len(pids) == 2 and all(_running(pid) for pid in pids)
    finally:
        service.kill()
        service.wait()
        if service.stdout is not None:
            service.stdout.close()
    deadline = time.monotonic() + 30
    while any(_running(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(_running(pid) for pid in pids), f"workers {pids} outlived their service"


def _running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie waiting for its parent counts as ended)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except FileNotFoundError:
        return False
