"""Per-move clocks: a person's seat that runs out of time is played by the match's fallback bot.

A match created with ``clock`` gives each joined person's seat that many
seconds per move (docs/protocol.md, "Clock"). The deadlines live in the
table (:attr:`Table.deadlines <meeple.server.table.Table.deadlines>`, read by
the messages); the timers on the event loop. A timer that fires checks, in
the match's worker, that its deadline is still the seat's (each has a key),
and sets the fallback bot to move.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import time
from typing import TYPE_CHECKING

from .table import Table
from .workers import current

if TYPE_CHECKING:
    from .hub import Hub


class Clocks:
    """The clocks of a hub's matches."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._keys = itertools.count(1)
        self._timers: set[asyncio.TimerHandle] = set()

    def close(self) -> None:
        """Stop every timer (event loop)."""
        for timer in self._timers:
            timer.cancel()
        self._timers.clear()

    def set(self, table: Table, by: int | None, reset: bool) -> None:
        """Start the clock of each person to act that has none, or whose clock restarts (worker thread).

        A seat's clock restarts after its own command (``by``), or for every seat with ``reset``.
        """
        clock = table.row.clock
        if clock is None:
            return
        acting = set(table.humans_to_act()) if not table.match.is_over else set()
        for seat in [s for s in table.deadlines if s not in acting]:
            del table.deadlines[seat]
        for seat in acting:
            if reset or seat == by or seat not in table.deadlines:
                key = next(self._keys)
                table.deadlines[seat] = (time.monotonic() + clock, key)
                self.hub.soon(functools.partial(self._arm, table.id, seat, key, clock))

    def _arm(self, match_id: str, seat: int, key: int, delay: float) -> None:
        if self.hub.closing:
            return
        timer: asyncio.TimerHandle

        def fire() -> None:
            self._timers.discard(timer)
            self.hub.spawn(self.hub.submit(match_id, functools.partial(self._expire, match_id, seat, key)))

        timer = asyncio.get_running_loop().call_later(delay, fire)
        self._timers.add(timer)

    def _expire(self, match_id: str, seat: int, key: int) -> None:
        table = current().tables.get(match_id)
        if table is None:
            return
        deadline = table.deadlines.get(seat)
        if deadline is None or deadline[1] != key or seat not in table.match.to_act:
            return
        self.hub.bots.think(table, seat, table.row.fallback, "clock")
