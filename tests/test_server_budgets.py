"""Budgets per client (docs/protocol.md, "Budgets"): one client floods the real service
process through the game's own protocol - idle Socket.IO connections from three addresses, a
hundred what-ifs at once from its paired tablet, an unpaired tablet checking a large owner-data
document again and again - while another paired tablet plays. Real Socket.IO clients, each from
a loopback address of its own, so the box tells them apart as it would tell phones apart.

What must hold: the playing tablet connects and every tap of it is answered and followed by its
view, and ``/api/health`` answers, all through the flood; the flooder's idle sockets stop at the
cap per address, and once all the WebSockets the box serves are taken, a newcomer from another
address takes the place of one of the busiest address's; its what-ifs beyond the cap are refused ``busy`` at once, without a thread each
(the worker's threads stay few); the unpaired checks, and the events of a connection with a
made-up token, are ``rate-limited``; the flooder's
what-ifs in flight are called off when it leaves.
"""

from __future__ import annotations

import math
import time
from pathlib import Path

import requests

from budget_flood import (FLOODER, STRANGER, OTHER_STRANGER, THIRD, WhatIfFlood, idle_sockets, import_full_deck,
                          large_document, pair_two, start, tap_to_view, worker_threads)
from polling import wait_for
from service_process import SETUP, TIMEOUT, Service, call, connect, ok

def in_flight(service: Service) -> int:
    return int(service.health()["parts"]["events"]["in_flight"])


FORGER = "127.0.0.7"
PER_ADDRESS = 4  # max_websockets_per_address in budget_flood.CONFIG
IDLE = 12  # idle sockets tried from each of the flooder's two addresses
WHAT_IFS = 100


def test_a_flood_from_one_client_leaves_another_tablet_playing(tmp_path: Path) -> None:
    service = start(tmp_path)
    opened = []
    try:
        flooder, flooder_token, tablet, _ = pair_two(service)
        opened += [flooder, tablet]
        slow_game = import_full_deck(service, flooder_token)
        ok(flooder, "join", {"game_id": slow_game})
        idle_here, refused_here = idle_sockets(service, FLOODER, IDLE)
        idle_there, refused_there = idle_sockets(service, STRANGER, IDLE)
        idle_third, refused_third = idle_sockets(service, THIRD, IDLE)  # now every WebSocket is taken ...
        opened += idle_here + idle_there + idle_third
        game_id = ok(tablet, "new_game", {"setup": SETUP, "name": "Played through a flood"})["game_id"]
        view = ok(tablet, "join", {"game_id": game_id})["view"]

        flood = WhatIfFlood(flooder, slow_game, rate=400, count=WHAT_IFS).start()
        threads = [worker_threads(service)]
        unpaired = connect(service.url, source=OTHER_STRANGER)  # ... and a newcomer still gets in
        opened.append(unpaired)
        checks = [call(unpaired, "data_check", {"game": "ravenloft", "data": large_document()}) for _ in range(6)]
        forger = connect(service.url, source=FORGER, auth={"token": "0123456789ab.made-up"})
        opened.append(forger)  # each event of a made-up token costs a slow hash: it is paid for
        started = time.monotonic()
        forged = [call(forger, "pair_status") for _ in range(12)]
        forged_seconds = time.monotonic() - started  # the budget refills a unit a second meanwhile
        for _ in range(10):
            _, view = tap_to_view(tablet, game_id, view)
            assert requests.get(f"{service.url}/api/health", timeout=TIMEOUT).status_code == 200
            threads.append(worker_threads(service))
        assert flood.done()
        assert wait_for(lambda: sum(flood.answers.values()) >= WHAT_IFS - 2, timeout=TIMEOUT), flood.answers
        events = service.health()["parts"]["events"]
        assert wait_for(lambda: in_flight(service) == 0, timeout=60)  # the two taken are worked out
        assert WhatIfFlood(flooder, slow_game, rate=1000, count=2).start().done()
        assert wait_for(lambda: service.health()["parts"]["events"]["what_ifs"] == 2, timeout=TIMEOUT)
        flooder.disconnect()  # the two just asked are in flight: they are called off
        assert wait_for(lambda: in_flight(service) == 0, timeout=TIMEOUT)
        after = service.health()["parts"]
    finally:
        for client in opened:
            client.disconnect()
        service.stop()
    print(f"\nidle sockets taken {len(idle_here)} + {len(idle_there)} + {len(idle_third)}, refused {refused_here} + "
          f"{refused_there} + {refused_third}; "
          f"what-ifs {dict(flood.answers)}; worker threads {min(threads)}..{max(threads)}; "
          f"unpaired checks {[c.get('error', {}).get('code', 'ok') for c in checks]}")
    assert view["version"] == 10
    # 12 WebSockets at most (16 threads, a quarter kept free): the flooder's tablet and the playing one, then
    # 3 more from the flooder's address, 4 from the next and 3 from the third, whose 4th takes nobody's place
    assert (len(idle_here), len(idle_there), len(idle_third)) == (PER_ADDRESS - 1, PER_ADDRESS, PER_ADDRESS - 1)
    assert (refused_here, refused_there, refused_third) == (IDLE - 3, IDLE - 4, IDLE - 3)
    assert events["limits"]["what_ifs"] == 4 and after["server"]["held_evicted"] >= 1, after["server"]
    assert flood.answers["busy"] >= WHAT_IFS - 2 - 2 and "internal" not in flood.answers, flood.answers
    assert events["refused"]["busy"] >= flood.answers["busy"] and events["limits"]["what_ifs_per_device"] == 2
    assert max(threads) < min(threads) + 20, threads  # no thread per what-if refused
    codes = [c["error"]["code"] for c in checks if not c["ok"]]
    assert "rate-limited" in codes and all(code == "rate-limited" for code in codes), checks
    assert all(c["error"]["retry_after"] > 0 for c in checks if not c["ok"])
    assert [f["ok"] for f in forged].count(True) <= 10 + math.ceil(forged_seconds), (forged_seconds, forged)
    assert any(not f["ok"] and f["error"]["code"] == "rate-limited" for f in forged), forged
    assert after["events"]["called_off"] >= 1, after["events"]
    assert after["server"]["held_refused"] >= refused_here + refused_there + refused_third
    assert "Traceback" not in service.log(), service.log()
