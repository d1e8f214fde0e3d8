"""What the stores share: match ids, record size limits, search filters, rebuilding a Match from stored records."""

from __future__ import annotations

import datetime as dt
import operator
import re
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine.errors import CorruptLog, MeepleError
from ..engine.log import HASH_SIZE, MAX_FRAME, Header, state_checkpoint
from ..engine.match import Match
from ..engine.reader import LoadedLog, _fold, read_rows_after
from ..engine.records import TypeTable
from .base import Status
from .errors import StoreError

#: What a match id may look like: safe in a file name, a URL fragment and SQL.
ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,127}")


def new_id() -> str:
    """A fresh random match id (32 hex digits)."""
    return uuid.uuid4().hex


def check_id(match_id: str) -> str:
    """Return ``match_id`` if it is a valid id, else raise :class:`StoreError`."""
    if not isinstance(match_id, str) or not ID_PATTERN.fullmatch(match_id):
        raise StoreError(
            f"a match id is 1-128 letters, digits, '_', '-' or '.', starting with a letter or digit; not {match_id!r}"
        )
    return match_id


def utc(value: dt.datetime | dt.date | str) -> dt.datetime:
    """An aware UTC datetime from a datetime (naive means UTC), a date (its midnight, UTC) or an ISO 8601 string."""
    if isinstance(value, str):
        try:
            value = dt.datetime.fromisoformat(value)
        except ValueError:
            raise StoreError(f"a date is ISO 8601 (e.g. 2026-01-31T12:00:00+00:00), not {value!r}") from None
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        value = dt.datetime(value.year, value.month, value.day, tzinfo=dt.UTC)
    if not isinstance(value, dt.datetime):
        raise StoreError(f"a date is a datetime, a date or an ISO 8601 string, not {value!r}")
    if value.tzinfo is None:
        value = value.replace(tzinfo=dt.UTC)
    return value.astimezone(dt.UTC)


def check_status(status: Status | str) -> Status:
    """The :class:`Status` named by ``status``, or :class:`StoreError`."""
    try:
        return Status(status)
    except ValueError:
        raise StoreError(f"status is 'in_progress' or 'over', not {status!r}") from None


def check_limit(limit: Any) -> int:
    """A ``find`` limit (a non-negative integer), or :class:`StoreError`."""
    try:
        value = operator.index(limit)
    except TypeError:
        raise StoreError(f"limit is an integer, not {limit!r}") from None
    if value < 0:
        raise StoreError(f"limit is a non-negative integer, not {limit!r}")
    return value


def check_body_size(body: bytes) -> None:
    """Refuse a record a reader would reject as too large (the log would become unreadable)."""
    if len(body) + HASH_SIZE > MAX_FRAME:
        raise StoreError(f"a record of {len(body)} bytes is larger than the log format allows ({MAX_FRAME} bytes)")


def build_match(
    log: LoadedLog,
    bodies: Sequence[bytes],
    snapshots: Mapping[int, Any] | None = None,
) -> Match:
    """Rebuild the match of a decoded ``log`` positioned at its end.

    ``bodies`` are the stored record bodies (kept, so the chain continues from
    the bytes actually stored). ``snapshots`` maps record counts (multiples of
    the log's checkpoint interval) to states; each must match the checkpoint
    hash written in the log, and folding starts from the last of them instead
    of the first record. Without snapshots every record is folded.
    """
    if not snapshots:
        initial, state, every = log.folded()
        return log.rebuilt(initial, state, every, bodies=list(bodies), hashes=list(log.hashes))
    k = log.header.checkpoint_every
    n = len(log.records)
    wanted = list(range(k, n + 1, k))
    if sorted(snapshots) != wanted:
        raise CorruptLog(f"snapshots are stored for records {sorted(snapshots)[:5]}..., expected every {k}")
    for at, state in snapshots.items():
        ck = log.checkpoints[at - 1]
        if ck is None or ck != log.checkpoint(state):
            raise CorruptLog("a stored snapshot does not match the log's checkpoint", record=at - 1)
    initial = log.initial_state()
    base = wanted[-1] if wanted else 0
    state = snapshots[base] if base else initial
    fold = log.game.fold
    for r in log.records[base:]:
        state = _fold(fold, state, r, log.offsets[r.seq])
    return log.rebuilt(initial, state, dict(snapshots), bodies=list(bodies), hashes=list(log.hashes))


def extend_match(match: Match, rows: Sequence[tuple[int, bytes, bytes]], header: Header | None = None,
                 table: TypeTable | None = None) -> None:
    """Append stored records ``rows`` (``(seq, body, hash)``, the first right after the match's last record) to ``match``.

    What another writer added, read back: the records are checked as a log
    reader checks them (the chain from the match's last hash, each body, the
    checkpoints against the folded states) and folded onto the state after
    the match's last record; the cursor goes to the new end. Raises
    :class:`CorruptLog` (and leaves the match as it was) if anything is amiss.
    ``header`` is the match's log header and ``table`` the type table that
    decodes its records (:func:`~meeple.engine.reader.setup_table`), if the
    caller keeps them (else they are made again).
    """
    n = rows[0][0]
    records, checkpoints = read_rows_after(match.game, header or match.header(), rows, match.record_hash(n - 1), table)
    if match.cursor != n:
        match.seek(n)
    state = match.state
    fold = match.game.fold
    snapshots: dict[int, Any] = {}
    for r, ck in zip(records, checkpoints, strict=True):
        state = _fold(fold, state, r, 0)
        if ck is not None:
            if ck != state_checkpoint(state):
                raise CorruptLog("a stored state checkpoint does not match the folded events", record=r.seq)
            snapshots[r.seq + 1] = state
    match._extended(records, state, snapshots, [body for _, body, _ in rows], [h for _, _, h in rows])


def finish_interrupted_command(match: Match) -> None:
    """Run engine steps a crash cut off, so the match waits for a player again.

    A command's records are written together; a crash during that write can
    keep the first of them (a player's command) and lose the engine steps the
    rules run right after it. Those steps are deterministic, so they are
    re-run (and appended through the attached stores) exactly as before
    (:meth:`Match._finish_engine_steps <meeple.engine.match.Match._finish_engine_steps>`,
    the match's entry point for the stores).
    """
    match._finish_engine_steps()


def guarded(what: str, fn: Any, *args: Any) -> Any:
    """Call ``fn``; turn any exception that is not the library's own into a CorruptLog naming ``what``."""
    try:
        return fn(*args)
    except MeepleError:
        raise
    except Exception as e:
        raise CorruptLog(f"{what}: {type(e).__name__}: {e}") from None
