"""A match as one seat may see it, for publishing to players: the seat log, in JSON lines.

The referee's log holds every secret (hands, face-down discards, the seed);
a *seat log* holds what one seat may be shown of the same match and nothing
else: its records as :meth:`Match.records_for` gives them (commands redacted
with :meth:`Game.redact_command`, events with :meth:`Game.redact`), the
seat's view at the end, and the outcome once the match is over. No seed, salt,
commitment or RNG position is in it.

The format (``meeple-seat-log``, version 1) is JSON lines, UTF-8, one object
per line:

* first, the header: ``{"format": "meeple-seat-log", "version": 1, "game",
  "rules", "seats", "seat", "options", "records"}``; ``seat`` is null for a
  spectator;
* then one line per record: ``{"seq", "actor", "command", "events"}``, where
  ``actor`` is -1 for the engine's own steps and commands and events are in
  the readable form of :func:`meeple.engine.readable` (a ``"type"`` key with
  the message's tag, then its fields by name; hidden fields are null);
* last, ``{"view": ..., "outcome": ...}``: the seat's view at the end and the
  outcome (``{"winners", "scores", "reason"}``, null while the match goes on).

Byte strings are written as lowercase hex.

>>> import io, json, meeple
>>> m = meeple.Match.start("kings", seats=2, seed=1)
>>> lines = [json.loads(line) for line in seat_log_lines(m, 1)]
>>> lines[0]["format"], lines[0]["seat"], "seed" in lines[0]
('meeple-seat-log', 1, False)
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import IO, Any

from .engine import Match, readable

#: The ``format`` field of a seat log's first line.
FORMAT = "meeple-seat-log"
#: The version of the seat log format described in this module.
VERSION = 1


def seat_log(match: Match, seat: int | None) -> Iterator[dict[str, Any]]:
    """The seat log of ``match`` up to its cursor, as ``seat`` may see it (None: a spectator), line by line."""
    seen = match.records_for(seat)
    yield {
        "format": FORMAT,
        "version": VERSION,
        "game": match.game.info.id,
        "rules": match.rules,
        "seats": match.seats,
        "seat": seat,
        "options": readable(match.options),
        "records": len(seen),
    }
    for r in seen:
        yield {"seq": r.seq, "actor": r.actor, "command": readable(r.command),
               "events": [readable(e) for e in r.events]}
    out = match.outcome
    yield {
        "view": readable(match.view(seat)),
        "outcome": None if out is None else {"winners": list(out.winners), "scores": list(out.scores),
                                             "reason": out.reason},
    }


def seat_log_lines(match: Match, seat: int | None) -> Iterator[str]:
    """The lines of :func:`seat_log` as JSON text (no newline at their ends)."""
    for item in seat_log(match, seat):
        yield dumps(item)


def write_seat_log(match: Match, seat: int | None, out: IO[str]) -> int:
    """Write the seat log of ``match`` for ``seat`` to a text stream; return the number of lines."""
    n = 0
    for line in seat_log_lines(match, seat):
        out.write(line + "\n")
        n += 1
    return n


def dumps(value: Any) -> str:
    """One line of JSON as meeple writes it: UTF-8 text, byte strings as hex."""
    return json.dumps(value, ensure_ascii=False, default=_default)


def _default(value: Any) -> Any:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).hex()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")
