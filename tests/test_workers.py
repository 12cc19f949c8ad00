"""The pool of worker processes (companion/workers.py), real processes: a task runs on the
worker it is sent to (which keeps what the job's earlier tasks left there), a job called off
has its tasks skipped, a task naming a module the worker cannot import fails alone, and a closed pool says so."""

from __future__ import annotations

import os
import pickle
from typing import Iterator

import pytest

from companion.workers import Cancelled, Closed, Workers


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
