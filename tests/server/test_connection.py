"""Connections: what an engine worker sends reaches each socket's queue in order, with few wake-ups of the loop."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from meeple.server.connection import Client, Outbox


def test_what_a_worker_hands_over_before_the_loop_woke_joins_that_wake_up_in_order() -> None:
    loop = asyncio.new_event_loop()
    wakes: list[Any] = []
    real = loop.call_soon_threadsafe

    def counted(*args: Any) -> Any:
        wakes.append(args)
        return real(*args)

    loop.call_soon_threadsafe = counted  # type: ignore[method-assign]
    try:
        outbox = Outbox(loop)
        a, b = (Client(loop, 100, lambda c: None, outbox) for _ in range(2))
        settled: list[str] = []

        def worker() -> None:  # two operations of an engine worker, while the loop is busy elsewhere
            outbox.thread = threading.get_ident()
            a.send("a1")
            b.send("b1")
            outbox.flush()
            a.send("a2")
            outbox.flush(lambda: settled.append(f"after {a.queue.qsize()} for a"))

        thread = threading.Thread(target=worker)
        thread.start()
        thread.join()
        assert len(wakes) == 1  # the second hand-over joined the first
        loop.run_until_complete(asyncio.sleep(0))
        assert list(a.queue._items) == ["a1", "a2"] and list(b.queue._items) == ["b1"]
        assert settled == ["after 2 for a"]  # a callback runs after the messages handed over before it
        outbox.thread = threading.get_ident()
        a.send("a3")
        outbox.flush()  # the loop took the last hand-over: this one wakes it again
        assert len(wakes) == 2
        loop.run_until_complete(asyncio.sleep(0))
        assert list(a.queue._items) == ["a1", "a2", "a3"]
    finally:
        loop.close()
