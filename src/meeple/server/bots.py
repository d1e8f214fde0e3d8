"""Bots at a hosted match: a bot's seat, and the fallback move of a person whose clock ran out.

A bot chooses from its seat's view and legal commands (fair bots, as
everywhere in meeple) in a thread of its own, so a slow bot never holds up
the event loop or the other matches; its move then goes through the
match's worker like anyone's command (in a group commit), and is dropped
if the match moved while the bot thought.

The pace (``bot_delay``, ``meeple serve --bot-pace``) holds a bot's move
back until that many seconds after the position it answers arose, so people
can follow a table with bots: the bot thinks meanwhile, and the wait is a
timer on the event loop, never a sleep on a worker or bot thread. A fallback
move for a player out of time is not held back (the time already ran out).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from ..engine.bot import RandomBot
from ..engine.game import Game
from .protocol import ErrorCode, ServerError
from .table import Table
from .workers import current

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("meeple.server")


def bot_factories(game: Game[Any, Any]) -> dict[str, Callable[[int], Any]]:
    """The bots a match of ``game`` may seat: the game's own, and ``random`` for every game."""
    bots: dict[str, Callable[[int], Any]] = {"random": lambda seed: RandomBot(seed)}
    bots.update(game.bots())
    return bots


def default_fallback(game: Game[Any, Any]) -> str:
    """The bot that moves for a player out of time, unless the match names one: ``heuristic`` where the game has it."""
    return "heuristic" if "heuristic" in bot_factories(game) else "random"


class Bots:
    """The bots of a hub's matches: one thread where they think, a move at most every ``pace`` seconds.

    ``clock`` (monotonic seconds) and ``wait`` (an awaitable pause on the
    event loop) are what the pace is measured and kept with.
    """

    def __init__(self, hub: Hub, pace: float, *, clock: Callable[[], float] = time.monotonic,
                 wait: Callable[[float], Awaitable[Any]] = asyncio.sleep) -> None:
        if not pace >= 0:
            raise ValueError(f"a bot pace is 0 or more seconds, not {pace!r}")
        self.hub = hub
        self.pace = pace
        self.clock = clock
        self.wait = wait
        self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="meeple-bots")

    def close(self) -> None:
        """Stop thinking (moves under way are dropped)."""
        self._pool.shutdown(wait=False, cancel_futures=True)

    def act(self, table: Table) -> None:
        """Set every bot seat that may act now to choose its move (worker thread)."""
        for seat in table.bots_to_act():
            name = table.bot_name(seat)
            assert name is not None
            self.think(table, seat, name, "bot")

    def think(self, table: Table, seat: int, bot_name: str, cause: str) -> None:
        """Set bot ``bot_name`` to choose ``seat``'s move at the current position, once per position (worker thread).

        ``cause`` is what the ``update`` will say: ``bot``, or ``clock`` for a fallback move.
        """
        if table.pending.get(seat) == table.version:
            return
        table.pending[seat] = table.version
        m = table.match
        bot = table.bot(seat, bot_name)
        view, legal = m.view(seat), tuple(m.legal(seat))
        if not legal:
            return
        due = self.clock() + self.pace if cause == "bot" and self.pace > 0 else None
        move = functools.partial(self._move, table.id, seat, table.version, bot, view, legal, cause, due)
        self.hub.soon(lambda: self.hub.spawn(move()))

    async def _move(self, match_id: str, seat: int, version: int, bot: Any, view: Any,
                    legal: tuple[Any, ...], cause: str, due: float | None) -> None:
        loop = asyncio.get_running_loop()
        try:
            command = await loop.run_in_executor(self._pool, bot.choose, view, legal, seat)
        except Exception:
            log.exception("the %s bot of match %s seat %d failed; it plays its first legal command", cause,
                          match_id, seat)
            command = legal[0]
        if command not in legal:
            log.error("the bot of match %s seat %d chose a command that is not legal: %r", match_id, seat, command)
            command = legal[0]
        if due is not None:  # the pace: no sooner than ``pace`` seconds after the position arose
            remaining = due - self.clock()
            if remaining > 0:
                await self.wait(remaining)
        play = functools.partial(self._play, match_id, seat, version, command, cause)
        await self.hub.submit(match_id, play, grouped=True)

    def _play(self, match_id: str, seat: int, version: int, command: Any, cause: str) -> None:
        table = current().tables.get(match_id)
        if table is None or table.version != version or seat not in table.match.to_act:
            return  # the match moved on while the bot thought; the move is chosen again if still due
        try:
            self.hub.moves.play(table, seat, command, cause)
        except ServerError as e:
            level = logging.INFO if e.code is ErrorCode.CONFLICT else logging.ERROR  # another process moved first
            log.log(level, "match %s: the %s move for seat %d was refused: %s", match_id, cause, seat, e.message)
