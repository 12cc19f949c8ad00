"""The budgets' bookkeeping and their threads without a server (companion/server/budgets.py,
companion/server/connections.py): caps refuse at once and count nothing; an unpaired client's
budget refills with time; the threads take the client addresses in turn; a connection that
closes has its queued events dropped and the one under way called off; WebSockets are capped
per address and leave threads in reserve, the box's own address counted in the total."""

from __future__ import annotations

import threading

from companion.server.budgets import Budgets, Dispatcher, EventLimits, Job, Rate
from companion.server.connections import ConnectionGuard, Limits
from polling import wait_for


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def job(connection: str = "c1", address: str = "10.0.0.2", event: str = "act", device: str = "d1",
        work: object = None) -> Job:
    return Job(connection, address, device, event, work if callable(work) else (lambda: None))


def test_what_ifs_are_capped_per_device_and_in_all_and_a_refusal_counts_nothing() -> None:
    budgets = Budgets(EventLimits(what_ifs_per_device=2, what_ifs=3))
    mine = [job(f"c{n}", event="forecast_what_if") for n in range(3)]
    assert [budgets.admit(j, 100, False) for j in mine[:2]] == [None, None]
    refused = budgets.admit(mine[2], 100, False)  # another connection of the same tablet
    assert refused is not None and refused.code == "busy" and "2 what-ifs" in refused.message
    assert budgets.admit(job("c9", event="forecast_what_if", device="d2"), 100, False) is None
    everyone = budgets.admit(job("c10", event="forecast_what_if", device="d3"), 100, False)
    assert everyone is not None and everyone.code == "busy" and "3 what-ifs" in everyone.message
    assert budgets.admit(job("c10", event="act", device="d3"), 100, False) is None  # a tap is not a what-if
    budgets.done(mine[0])
    assert budgets.admit(mine[2], 100, False) is None
    assert budgets.to_plain()["refused"] == {"busy": 2, "rate-limited": 0}


def test_events_in_flight_are_capped_per_connection() -> None:
    budgets = Budgets(EventLimits(per_connection=3))
    taken = [job() for _ in range(3)]
    assert all(budgets.admit(j, 10, False) is None for j in taken)
    refused = budgets.admit(job(), 10, False)
    assert refused is not None and refused.reply()["error"]["code"] == "busy"
    assert budgets.admit(job("c2"), 10, False) is None  # another connection is not held up


def test_an_unpaired_client_pays_by_size_and_its_budget_refills() -> None:
    clock = Clock()
    budgets = Budgets(EventLimits(unit_bytes=1000, per_address=Rate(4, 1.0), unpaired=Rate(100, 50.0)), clock)
    large = 2500  # 3 units
    assert budgets.admit(job(event="data_check"), large, True) is None
    refused = budgets.admit(job("c2", event="data_check"), large, True)
    assert refused is not None and refused.code == "rate-limited" and refused.retry_after == 2.0
    assert budgets.admit(job("c3", event="join"), large, False) is None  # what is not charged is not refused
    assert budgets.admit(job("c4", event="data_check", address="10.0.0.3"), large, True) is None
    assert budgets.admit(job("c5", event="data_check"), large, False) is None
    clock.now += 2.0
    assert budgets.admit(job("c2", event="data_check"), large, True) is None


def test_everyone_unpaired_shares_one_budget_too() -> None:
    budgets = Budgets(EventLimits(unit_bytes=1000, per_address=Rate(10, 1.0), unpaired=Rate(3, 0.5)), Clock())
    assert budgets.admit(job(event="health", address="10.0.0.2"), 10, True) is None
    assert budgets.admit(job(event="health", address="10.0.0.3"), 1500, True) is None
    refused = budgets.admit(job(event="health", address="10.0.0.4"), 10, True)
    assert refused is not None and refused.code == "rate-limited"


def test_the_threads_take_the_addresses_in_turn() -> None:
    budgets = Budgets(EventLimits(workers=1, per_connection=50))
    dispatcher = Dispatcher(budgets)
    gate, held, order = threading.Event(), threading.Event(), []
    try:
        first = job("hold", "10.0.0.9", work=lambda: (held.set(), gate.wait(10)))
        assert budgets.admit(first, 1, False) is None
        dispatcher.submit(first)
        assert held.wait(10)
        for n in range(5):
            flood = job("flood", "10.0.0.2", work=lambda n=n: order.append(f"flood{n}"))
            assert budgets.admit(flood, 1, False) is None
            dispatcher.submit(flood)
        tap = job("tablet", "10.0.0.3", work=lambda: order.append("tap"))
        assert budgets.admit(tap, 1, False) is None
        dispatcher.submit(tap)
        gate.set()
        assert wait_for(lambda: len(order) == 6)
        assert order[:2] == ["flood0", "tap"], order  # the tablet waited for one of the flood's, not five
    finally:
        gate.set()
        dispatcher.close()


def test_a_connection_that_closes_has_its_events_dropped_and_the_running_one_called_off() -> None:
    budgets = Budgets(EventLimits(workers=1))
    dispatcher = Dispatcher(budgets)
    seen: list[bool] = []
    started, ran = threading.Event(), []

    def long_one() -> None:
        started.set()
        wait_for(dispatcher.called_off, timeout=10)
        seen.append(dispatcher.called_off())

    try:
        for work in (long_one, lambda: ran.append("queued")):
            queued = job("leaving", work=work)
            assert budgets.admit(queued, 1, False) is None
            dispatcher.submit(queued)
        assert started.wait(10)
        assert dispatcher.left("leaving") == 1
        assert wait_for(lambda: budgets.to_plain()["in_flight"] == 0)
        assert seen == [True] and ran == [] and dispatcher.called_off_total == 2
    finally:
        dispatcher.close()


def test_websockets_are_capped_per_address_and_leave_threads_in_reserve() -> None:
    guard = ConnectionGuard(Limits(threads=16, held_per_address=3))
    assert guard.limits.held_total == 12  # a quarter of the threads kept for the rest
    assert [guard.hold(("a", n), "10.0.0.2")[0] for n in range(4)] == [True, True, True, False]
    assert all(guard.hold(("box", n), "127.0.0.1")[0] for n in range(6))  # the box's own: no cap of its own ...
    assert [guard.hold(("b", n), "10.0.0.3")[0] for n in range(4)] == [True, True, True, False]  # ... but counted
    assert guard.to_plain()["held"] == 12 and guard.to_plain()["held_refused"] == 2
    assert guard.hold("c", "10.0.0.4") == (True, ("box", 5))  # the busiest address's newest makes room
    assert guard.hold("d", "10.0.0.5") == (True, ("box", 4))
    assert guard.hold(("b", 9), "10.0.0.3") == (False, None)  # 3 held there: it takes nobody's place
    assert guard.to_plain()["held"] == 12 and guard.to_plain()["held_evicted"] == 2
    guard.unhold(("a", 0))
    assert guard.hold(("b", 9), "10.0.0.3") == (False, None)  # still its cap of 3
    assert guard.hold("e", "10.0.0.6") == (True, None)
