"""Reading logs: load, replay (fold the events) and verify (re-decide every command)."""

from __future__ import annotations

import gc
import hashlib
import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import attrs

from .codec import Codec, options_from_map, pack, remembered_options
from .errors import ConfigError, CorruptLog, DecodeError, IllegalCommand, LogError, UnknownGame, UnsupportedLog
from .game import ENGINE, Command, Event, Game
from .log import (
    HASH_SIZE,
    LENGTH,
    MAX_FRAME,
    BodyError,
    Header,
    _speedups,
    chain_hash,
    decode_body,
    iter_frames,
    read_header_kind,
    unpack_body,
)
from .match import Match, codec_for, install_loader
from .records import Record, TypeTable
from .registry import get_game
from .rng import Rng
from .seeds import SeedEpoch, commitment_of, epochs, schedule_problem, seed_at, seed_commitment
from .versions import checkpoint_of, options_map, refusal

_T = TypeVar("_T")

#: Logs larger than this are refused before reading (a guard for hostile input).
MAX_LOG_BYTES = 1 << 31
#: Where a log's header frame starts (after the magic): the place a divergence in the header names.
HEADER_OFFSET = 8


@attrs.frozen
class Reveal:
    """The final frame of a seed-hiding log: the seeds and the commitment's salt."""

    seeds: tuple[tuple[int, int], ...]
    salt: bytes


@attrs.frozen
class SeedSchedule:
    """The seeds of a log as :attr:`LoadedLog.seed_schedule` reads them.

    ``epochs`` gives each seed with the records that draw from it, in order
    (the first from record 0; a fork with a new seed starts another); it is
    empty while the seeds are hidden. ``hidden`` is True when the header
    keeps the seeds behind its ``commitment``, ``revealed`` when a final
    frame reveals them. ``binding`` says whether the commitment is the one
    the schedule gives (``docs/rng.md``); None while the seeds are unknown.
    A log whose commitment does not bind its seeds fails :func:`verify`.
    """

    epochs: tuple[SeedEpoch, ...]
    hidden: bool
    revealed: bool
    commitment: bytes
    binding: bool | None


@attrs.define
class LoadedLog:
    """A decoded log: header, game, options, records and their hashes."""

    header: Header
    game: Game[Any, Any]
    options: Any
    records: list[Record]
    checkpoints: list[bytes | None]
    hashes: list[bytes]
    offsets: list[int]
    reveal: Reveal | None
    size: int

    @property
    def seeds(self) -> tuple[tuple[int, int], ...] | None:
        """The seed schedule, from the header or the reveal frame (None while it is hidden)."""
        if self.header.seeds is not None:
            return self.header.seeds
        return self.reveal.seeds if self.reveal is not None else None

    @property
    def seed_schedule(self) -> SeedSchedule:
        """Which seed each record draws from (re-seeds included), and whether the header's commitment binds them.

        >>> import meeple
        >>> m = meeple.Match.start("kings", 2, seed=5).fork(at=1, seed=6)
        >>> read_log(m.to_bytes()).seed_schedule.epochs
        (SeedEpoch(start=0, stop=1, seed=5), SeedEpoch(start=1, stop=None, seed=6))
        """
        seeds = self.seeds
        shown = () if seeds is None else epochs(seeds)
        binds = None if seeds is None else self.header.commitment == commitment_of(seeds)
        return SeedSchedule(shown, self.header.seeds is None, self.reveal is not None, self.header.commitment, binds)

    def checkpoint(self, state: Any) -> bytes:
        """The checkpoint hash of ``state`` as this log's rules version writes it (:func:`~.versions.checkpoint_of`)."""
        return checkpoint_of(self.game, self.header.rules)(state)

    def initial_state(self) -> Any:
        """The game's state before the first record (for this log's seats and options)."""
        return self.game.initial_state(self.header.seats, self.options)

    def rebuilt(self, initial: Any, state: Any, snapshots: dict[int, Any], *,
                bodies: list[bytes] | None = None, hashes: list[bytes] | None = None) -> Match:
        """The :class:`Match` of this log, given the fold of its records (see :meth:`Match._rebuilt`)."""
        h = self.header
        seeds = h.seeds
        salt = None  # a log that shows its seeds takes the salt of its schedule (docs/rng.md)
        if seeds is None and self.reveal is not None:
            seeds, salt = self.reveal.seeds, self.reveal.salt
        return Match._rebuilt(self.game, h.seats, self.options, seeds, salt, commitment=h.commitment,
                              meta=h.meta, checkpoint_every=h.checkpoint_every, engine_version=h.engine,
                              initial=initial, records=self.records, state=state, snapshots=snapshots,
                              bodies=bodies or (), hashes=hashes or (), rules=h.rules)

    def to_match(self, check_checkpoints: bool = True) -> Match:
        """Fold the records into a :class:`Match` positioned at the end."""
        return self.rebuilt(*self.folded(check_checkpoints))

    def folded(self, check_checkpoints: bool = True) -> tuple[Any, Any, dict[int, Any]]:
        """The initial state, the fold of every record and the states at checkpoint positions.

        With ``check_checkpoints`` each of those states must have the hash
        the log writes there (else :class:`CorruptLog`).
        """
        initial = state = self.initial_state()
        fold = self.game.fold
        k = self.header.checkpoint_every
        snapshots: dict[int, Any] = {}
        offsets = self.offsets
        for n, r in enumerate(self.records, 1):
            try:
                state = fold(state, r.events)
            except Exception as e:  # events that the rules cannot fold: a forged or corrupt log
                raise _unfoldable(e, r, offsets[r.seq]) from None
            if n % k == 0:
                snapshots[n] = state
                if check_checkpoints:
                    _check_checkpoint(self, r, state)
        return initial, state, snapshots


def _fold(fold: Any, state: Any, record: Record, offset: int) -> Any:
    try:
        state = fold(state, record.events)
    except Exception as e:  # events that the rules cannot fold: a forged or corrupt log
        raise _unfoldable(e, record, offset) from None
    return state


def _unfoldable(exc: Exception, record: Record, offset: int) -> CorruptLog:
    return CorruptLog(f"the events cannot be folded ({type(exc).__name__}: {exc})", record=record.seq, offset=offset)


def _check_checkpoint(log: LoadedLog, record: Record, state: Any) -> None:
    """Raise CorruptLog unless the checkpoint written with ``record`` (if any) is the hash of ``state``."""
    ck = log.checkpoints[record.seq]
    if ck is not None and ck != log.checkpoint(state):
        raise CorruptLog("state checkpoint does not match the folded events", record=record.seq,
                         offset=log.offsets[record.seq])


def read_path(path: str | os.PathLike[str]) -> LoadedLog:
    """Read and decode a log file (see :func:`read_log`)."""
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > MAX_LOG_BYTES:
            raise LogError(f"{p} is larger than {MAX_LOG_BYTES} bytes")
        data = p.read_bytes()
    except OSError as e:
        raise LogError(f"cannot read {p}: {e.strerror or e}") from None
    return read_log(data)


def read_log(data: bytes) -> LoadedLog:
    """Decode log bytes, checking the magic, the header, every frame and the hash chain.

    Raises :class:`~meeple.engine.errors.ForeignFile`, ``TruncatedLog``,
    ``CorruptLog`` or ``UnsupportedLog`` naming the record and byte offset;
    :class:`UnknownGame` for a game this installation does not have.
    """
    if data.__class__ is not bytes:
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise LogError("a log is bytes")
        data = bytes(data)
    header, prev, header_end, kind = read_header_kind(data)
    game = get_game(header.game)
    options, table = _setup(game, header, kind)
    records, checkpoints, hashes, offsets, reveal = _without_gc(_records, data, header_end, prev, table, header)
    return LoadedLog(header, game, options, records, checkpoints, hashes, offsets, reveal, len(data))


def read_frames_after(game: Game[Any, Any], header: Header, frames: bytes, seq: int,
                      prev: bytes) -> tuple[list[Record], list[bytes | None], list[bytes]]:
    """Decode record frames that continue a log: ``frames`` hold records ``seq, seq + 1, ...``, chained from ``prev``.

    For the stores, which read only the records another writer added after
    the ones a match holds: the same checks as :func:`read_log` (the chain
    from ``prev``, canonical bodies, record numbers, checkpoint places), on
    the tail alone. Returns the records, their checkpoints and chain hashes;
    raises :class:`CorruptLog` naming the first problem (a reveal frame
    included: it ends a log, it never continues one).
    """
    _, table = _setup(game, header)
    out: tuple[list[Record], list[bytes | None], list[bytes], list[int]] = ([], [], [], [])
    reveal = _check_from(frames, (0, seq, prev, None, None), table, header, out, None)
    if reveal is not None:
        raise CorruptLog("a reveal frame among the records that continue a log", record=seq + len(out[0]))
    return out[0], out[1], out[2]


def setup_table(game: Game[Any, Any], header: Header) -> TypeTable:
    """The type table that decodes the records of a log with ``header`` (its header checked as :func:`read_log` does).

    For a caller that decodes one match's records again and again (a store
    catching a match up, :func:`read_rows_after`): it keeps the table instead
    of setting it up for every batch.
    """
    return _setup(game, header)[1]


def read_rows_after(game: Game[Any, Any], header: Header, rows: Sequence[tuple[int, bytes, bytes]], prev: bytes,
                    table: TypeTable | None = None) -> tuple[list[Record], list[bytes | None]]:
    """Decode stored records ``rows`` (``(seq, body, hash)``, consecutive) that continue a log chained up to ``prev``.

    :func:`read_frames_after` on the rows as a store holds them, without
    framing them first: the same checks (frame sizes, the chain from
    ``prev``, canonical bodies, record numbers and shapes, checkpoint
    places, no reveal frame), raising :class:`CorruptLog` naming the first
    problem. ``table`` is :func:`setup_table`'s for ``header``, if the
    caller keeps it. Returns the records and their checkpoints (the chain
    hashes are the rows').
    """
    if table is None:
        table = _setup(game, header)[1]
    every = header.checkpoint_every
    records: list[Record] = []
    checkpoints: list[bytes | None] = []
    for seq, body, h in rows:
        if seq != (rows[0][0] + len(records)):
            raise CorruptLog(f"record {seq} where {rows[0][0] + len(records)} was expected", record=seq)
        if not 0 < len(body) <= MAX_FRAME - HASH_SIZE or len(h) != HASH_SIZE:
            raise CorruptLog(f"impossible frame length {len(body) + len(h)}", record=seq)
        if chain_hash(body, prev) != h:
            raise CorruptLog("hash chain broken: the frame's bytes were changed", record=seq)
        prev = h
        try:
            raw = decode_body(body)
        except BodyError as e:
            raise CorruptLog(str(e), record=seq) from None
        if isinstance(raw, dict):
            raise CorruptLog("a reveal frame among the records that continue a log", record=seq)
        try:
            rec, ck = _record(raw, table, seq, every)
        except DecodeError as e:
            raise CorruptLog(f"malformed record: {e}", record=seq) from None
        records.append(rec)
        checkpoints.append(ck)
    return records, checkpoints


_Records = tuple[list[Record], list["bytes | None"], list[bytes], list[int], "Reveal | None"]
#: Where a fast loop stopped: the frame's offset, its record number, the chain hash before it,
#: and its decoded body or the error decoding it raised (or neither, if it got no further)
_Stop = tuple[int, int, bytes, Any, "Exception | None"]
#: What a fast loop read: records, checkpoints, hashes, offsets, the reveal frame as
#: (body, offset, record number) if it read one, and where it stopped (None: at the end)
_Scan = tuple[list[Record], list["bytes | None"], list[bytes], list[int], "tuple[Any, int, int] | None", "_Stop | None"]


def _without_gc(fn: Callable[..., _T], *args: Any) -> _T:
    """``fn(*args)`` with the cyclic garbage collector paused, if it was running.

    Reading a log builds several objects per record that all live on (records,
    messages, tuples) and no reference cycles. Left running, the collector
    would pass over all of them again and again as they pile up, and over the
    whole heap now and then: a fifth of the time of a long replay in a
    process with a large heap. Reference counting still frees everything as
    usual while it is paused.
    """
    if not gc.isenabled():
        return fn(*args)
    gc.disable()
    try:
        return fn(*args)
    finally:
        gc.enable()


def _records(data: bytes, pos: int, prev: bytes, table: TypeTable, header: Header) -> _Records:
    """Decode every record frame after the header, raising the error that names the first problem.

    The fast loop (compiled, or :func:`_scan_py`) reads the frames until the
    first thing amiss; the checking loop takes over at that frame, with the
    body the fast loop decoded (or the error decoding it raised), so no frame
    is decoded twice.
    """
    records, checkpoints, hashes, offsets, revealed, stop = _scan(data, pos, prev, table, header)
    reveal = None if revealed is None else _reveal(revealed[0], revealed[1], revealed[2], header)
    if stop is not None:
        reveal = _check_from(data, stop, table, header, (records, checkpoints, hashes, offsets), reveal)
    return records, checkpoints, hashes, offsets, reveal


def _scan(data: bytes, pos: int, prev: bytes, table: TypeTable, header: Header) -> _Scan:
    """The fast loop: compiled where it was built, else :func:`_scan_py`; both read alike."""
    if _speedups is None:
        return _scan_py(data, pos, prev, table, header)
    found: _Scan = _speedups.read_records(data, pos, prev, table.compiled_commands, table.compiled_events, Record,
                                          decode_body, header.checkpoint_every)
    return found


def _read_records(data: bytes, pos: int, prev: bytes, table: TypeTable, header: Header) -> _Records | None:
    """What the fast loop reads of a log with nothing amiss, or None (then :func:`_check_records` names the problem)."""
    return _accepted(_scan(data, pos, prev, table, header), header)


def _read_records_py(data: bytes, pos: int, prev: bytes, table: TypeTable, header: Header) -> _Records | None:
    """:func:`_read_records` by the pure-Python loop."""
    return _accepted(_scan_py(data, pos, prev, table, header), header)


def _accepted(scan: _Scan, header: Header) -> _Records | None:
    records, checkpoints, hashes, offsets, revealed, stop = scan
    if stop is not None:
        return None
    try:
        reveal = None if revealed is None else _reveal(revealed[0], revealed[1], revealed[2], header)
    except CorruptLog:
        return None
    return records, checkpoints, hashes, offsets, reveal


def _check_records(data: bytes, prev: bytes, table: TypeTable, header: Header) -> _Records:
    """Decode every record frame after the header by the checking loop alone, raising the error that names the first problem."""
    first = next(iter_frames(data))  # the header, already read
    start = first.offset + 4 + len(first.body) + HASH_SIZE
    out: tuple[list[Record], list[bytes | None], list[bytes], list[int]] = ([], [], [], [])
    reveal = _check_from(data, (start, 0, prev, None, None), table, header, out, None)
    return (*out, reveal)


def _check_from(data: bytes, stop: _Stop, table: TypeTable, header: Header,
                out: tuple[list[Record], list[bytes | None], list[bytes], list[int]], reveal: Reveal | None) -> Reveal | None:
    """The checking loop: read the frames from ``stop`` on, appending to ``out``; return the reveal, or raise naming the problem.

    ``stop`` may carry the first frame's body, decoded, or the error its
    decoding raised: the loop then takes that instead of decoding it again.
    """
    pos, seq, prev, given, error = stop
    records, checkpoints, hashes, offsets = out
    every = header.checkpoint_every
    for fr in iter_frames(data, pos, seq):
        if reveal is not None:
            raise CorruptLog("frames after the reveal frame", offset=fr.offset, record=seq)
        if chain_hash(fr.body, prev) != fr.hash:
            raise CorruptLog("hash chain broken: the frame's bytes were changed", offset=fr.offset, record=seq)
        prev = fr.hash
        if error is not None:
            raise CorruptLog(str(error) if isinstance(error, BodyError) else f"undecodable frame ({type(error).__name__})",
                             offset=fr.offset, record=seq)
        raw = unpack_body(fr.body, fr.offset, seq) if given is None else given
        given = None
        if isinstance(raw, dict):
            reveal = _reveal(raw, fr.offset, seq, header)
            continue
        try:
            rec, ck = _record(raw, table, seq, every)
        except DecodeError as e:
            raise CorruptLog(f"malformed record: {e}", offset=fr.offset, record=seq) from None
        records.append(rec)
        checkpoints.append(ck)
        hashes.append(fr.hash)
        offsets.append(fr.offset)
        seq += 1
    return reveal


def _setup(game: Game[Any, Any], header: Header, kind: bytes | None = None) -> tuple[Any, TypeTable]:
    """The options and type table of a log of ``game``, after checking the header's rules, seats and options.

    Remembered per game and header kind (see :func:`~meeple.engine.log.read_header_kind`), or
    rules version, seat count, type list and options map, so the logs of one
    kind of match are set up once.
    """
    codec = codec_for(game)
    key: Any = kind
    if key is None:
        try:
            key = (header.rules, header.seats, header.types, pack(header.options))
        except Exception:  # options msgpack cannot pack are refused by options_from_map
            key = None
    cache: dict[Any, tuple[Any, TypeTable]] = codec.__dict__.setdefault("_log_setups", {})
    found = cache.get(key) if key is not None else None
    if found is not None:
        return found
    if header.rules != game.info.rules_version:
        if not game.info.plays(header.rules):
            raise UnsupportedLog(refusal(game.info, header.rules))
        codec = codec_for(game, header.rules)  # an older version the game still plays (docs/architecture.md)
    try:
        game.check_seats(header.seats)
        options = _options(codec, header, options_map(game.info, header.rules, header.options))
    except ConfigError as e:
        raise CorruptLog(f"bad header: {e}") from None
    found = options, TypeTable.of(codec, header.types)
    try:
        hash(options)  # keep only immutable options
    except TypeError:
        return found
    if key is not None:
        if len(cache) >= 64:  # a bound for logs of ever new kinds (hostile ones among them)
            cache.clear()
        cache[key] = found
    return found


def _options(codec: Codec, header: Header, raw: dict[str, Any]) -> Any:
    """The options ``raw`` (the header's, with any its rules version fixes), decoded once per game, seat count and map.

    Options are frozen values, so equal maps may share one.
    """
    try:
        key: Any = (header.seats, pack(raw))
    except Exception:  # options msgpack cannot pack are refused by options_from_map
        return options_from_map(codec, raw, header.seats)
    return remembered_options(codec, "_header_options", key, raw, header.seats)


def _scan_py(data: bytes, pos: int, prev: bytes, table: TypeTable, header: Header) -> _Scan:
    """Decode the record frames after the header, stopping at the first thing amiss (see :data:`_Stop`).

    The fast loop of :func:`read_log`: the same checks as the checking loop
    (frame lengths, hash chain, canonical msgpack, record shape, checkpoint
    places, message types), but on any failure it stops instead of building
    the error, and the checking loop takes over at that frame to name it.
    So it accepts exactly the logs that loop accepts, with the same result.
    It is one loop with no call per record but the C functions (hash,
    msgpack) and the message builders: the per-record cost of every replay,
    load and verify.
    """
    n = len(data)
    unpack_len = LENGTH.unpack_from
    decode = decode_body
    hasher = _CHAIN.copy
    every = header.checkpoint_every
    # by type index; None where the index names the other kind (calling it raises TypeError)
    commands: Any = table.commands
    events: Any = table.events
    new = tuple.__new__
    records: list[Record] = []
    checkpoints: list[bytes | None] = []
    hashes: list[bytes] = []
    offsets: list[int] = []
    add_record, add_checkpoint, add_hash, add_offset = records.append, checkpoints.append, hashes.append, offsets.append
    revealed: tuple[Any, int, int] | None = None
    seq = 0
    raw: Any = None
    before = prev
    try:
        while pos < n:
            before, raw = prev, None
            if revealed is not None:
                break
            (length,) = unpack_len(data, pos)  # struct.error if fewer than 4 bytes are left
            end = pos + 4 + length
            if not HASH_SIZE < length <= MAX_FRAME or end > n:
                break
            mid = end - HASH_SIZE
            body = data[pos + 4 : mid]
            h = data[mid:end]
            link = hasher()  # chain_hash(body, prev), unrolled
            if length < 4096:
                link.update(prev + body)
            else:  # a long body is not copied to be joined
                link.update(prev)
                link.update(body)
            if link.digest() != h:
                break
            prev = h
            try:
                raw = decode(body)
            except BodyError as err:  # without its traceback, which holds the body
                return records, checkpoints, hashes, offsets, revealed, (pos, seq, before, None, err.with_traceback(None))
            if raw.__class__ is not list:
                if raw.__class__ is not dict:
                    break
                revealed = (raw, pos, seq)
                pos = end
                continue
            rseq, actor, cmd, evs, rng, ck = raw  # ValueError unless 6 items
            if (
                rseq != seq or rseq.__class__ is not int or actor.__class__ is not int
                or rng.__class__ is not int or rng < 0 or evs.__class__ is not list or cmd.__class__ is not list
                or (ck.__class__ is not bytes or len(ck) != HASH_SIZE if (seq + 1) % every == 0 else ck is not None)
            ):
                break
            i = cmd[0]
            if i.__class__ is not int or i < 0:
                break
            command = commands[i](cmd)  # TypeError if the index names an event
            if len(evs) == 1:
                e = evs[0]
                i = e[0]
                if e.__class__ is not list or i.__class__ is not int or i < 0:
                    break
                out: tuple[Event, ...] = (events[i](e),)
            else:
                built = []
                for e in evs:
                    i = e[0]
                    if e.__class__ is not list or i.__class__ is not int or i < 0:
                        raise ValueError  # the checking loop names it
                    built.append(events[i](e))
                out = tuple(built)
            add_record(new(Record, (seq, actor, command, out, rng)))
            add_checkpoint(ck)
            add_hash(h)
            add_offset(pos)
            seq += 1
            pos = end
        else:
            return records, checkpoints, hashes, offsets, revealed, None
    except Exception:  # anything malformed: the checking loop names it
        pass
    return records, checkpoints, hashes, offsets, revealed, (pos, seq, before, raw, None)


#: A BLAKE2b-128 with nothing hashed yet: each link of the chain starts from a copy.
_CHAIN = hashlib.blake2b(digest_size=HASH_SIZE)


def _reveal(raw: dict[Any, Any], offset: int, seq: int, header: Header) -> Reveal:
    """The reveal frame ``{"reveal": [seeds, salt]}`` of a seed-hiding log, checked against the header."""
    try:
        if raw.keys() != {"reveal"}:
            raise TypeError
        seeds_raw, salt = raw["reveal"]
        if type(salt) is not bytes or len(salt) != HASH_SIZE or type(seeds_raw) is not list:
            raise TypeError
        if any(type(p) is not list or len(p) != 2 or type(p[0]) is not int or type(p[1]) is not int for p in seeds_raw):
            raise TypeError
    except (TypeError, ValueError):
        raise CorruptLog("malformed reveal frame", offset=offset, record=seq) from None
    seeds = tuple((a, b) for a, b in seeds_raw)
    problem = schedule_problem(seeds)
    if problem is not None:
        raise CorruptLog(f"malformed reveal frame: {problem}", offset=offset, record=seq)
    if header.seeds is not None:
        why = "the same seeds as" if seeds == header.seeds else "other seeds than"
        raise CorruptLog(f"a reveal frame in a log that shows its seeds (it reveals {why} the header)",
                         offset=offset, record=seq)
    if seed_commitment(seeds, salt) != header.commitment:
        raise CorruptLog("the revealed seed does not match the header's commitment", offset=offset, record=seq)
    return Reveal(seeds, salt)


def _record(raw: Any, table: TypeTable, seq: int, every: int) -> tuple[Record, bytes | None]:
    if raw.__class__ is not list or len(raw) != 6:
        raise DecodeError("a record is an array of 6")
    rseq, actor, cmd, evs, rng, ck = raw
    if rseq.__class__ is not int or rseq != seq:
        raise DecodeError(f"record number {rseq!r} where {seq} was expected")
    if actor.__class__ is not int or rng.__class__ is not int or rng < 0:
        raise DecodeError("actor and rng are integers")
    if evs.__class__ is not list:
        raise DecodeError("events are an array")
    if ck is not None and (ck.__class__ is not bytes or len(ck) != HASH_SIZE):
        raise DecodeError("a checkpoint is 16 bytes or nil")
    if (ck is None) == ((seq + 1) % every == 0):
        raise DecodeError(f"a state checkpoint is written with every record whose number + 1 is a multiple of "
                          f"{every}, and with no other ({'missing' if ck is None else 'one where none is due'})")
    command = table.decode(cmd, Command)
    events = tuple(table.decode(e, Event) for e in evs)
    return Record(seq, actor, command, events, rng), ck


def load(path: str | os.PathLike[str]) -> Match:
    """Load a match from a log file."""
    return read_path(path).to_match()


class Step(NamedTuple):
    """One step of a replay: the record and the state after it."""

    record: Record
    state: Any


def replay(source: str | os.PathLike[str] | bytes, to: int | None = None) -> Iterator[Step]:
    """Fold a log's events, yielding each record with the state after it.

    Trusts the log's content but checks its hash chain and checkpoints.
    """
    log = read_log(source) if isinstance(source, (bytes, bytearray)) else read_path(source)
    records = log.records if to is None else log.records[: max(to, 0)]
    return _steps(log, records)


def _steps(log: LoadedLog, records: list[Record]) -> Iterator[Step]:
    game = log.game
    state = game.initial_state(log.header.seats, log.options)
    fold = game.fold
    k = log.header.checkpoint_every
    new = tuple.__new__
    n = 0
    for r in records:
        try:
            state = fold(state, r[3])  # r.events
        except Exception as e:  # events that the rules cannot fold: a forged or corrupt log
            raise _unfoldable(e, r, log.offsets[r.seq]) from None
        n += 1
        if n == k:
            n = 0
            _check_checkpoint(log, r, state)
        yield new(Step, (r, state))


@attrs.frozen
class Divergence:
    """Where a verified log first differs from what the rules produce."""

    record: int | None
    offset: int | None
    reason: str


@attrs.frozen
class VerifyReport:
    """The result of :func:`verify`: ``ok``, how much was checked, the first divergence."""

    ok: bool
    game: str | None
    records: int
    checked: int
    first_divergence: Divergence | None
    seed_revealed: bool
    outcome: Any = None

    def __bool__(self) -> bool:
        return self.ok

    def summary(self) -> str:
        """One line for a person."""
        if self.ok:
            return f"ok: {self.game}, {self.records} records re-decided from the seed"
        d = self.first_divergence
        assert d is not None
        where = []
        if d.record is not None:
            where.append(f"record {d.record}")
        if d.offset is not None:
            where.append(f"byte {d.offset}")
        return f"FAILED: {d.reason}" + (f" ({', '.join(where)})" if where else "")


def verify(source: str | os.PathLike[str] | bytes) -> VerifyReport:
    """Re-run every command of a log from its seed and compare everything.

    Never raises for bad content: a truncated, corrupted, tampered or foreign
    log gives a report whose ``first_divergence`` names the first bad record
    (or byte offset) and what differed.
    """
    try:
        log = read_log(source) if isinstance(source, (bytes, bytearray)) else read_path(source)
    except (LogError, UnknownGame) as err:
        reason = err.message if isinstance(err, LogError) else str(err)
        where = Divergence(getattr(err, "record", None), getattr(err, "offset", None), reason)
        return VerifyReport(False, None, 0, 0, where, False)
    return verify_loaded(log)


def _unbound_seeds(log: LoadedLog, seeds: tuple[tuple[int, int], ...]) -> str | None:
    """Why the header's commitment does not bind the seeds verify re-decides with, or None if it does."""
    commitment = log.header.commitment
    if commitment == commitment_of(seeds):
        return None
    if log.reveal is not None:  # the reader checked the reveal against the commitment, with the reveal's salt
        return "the revealed salt is not the one derived from the seeds (docs/rng.md), so the commitment does not bind them"
    for k in range(len(seeds) - 1, 0, -1):
        if commitment == commitment_of(seeds[:k]):
            return (f"the seed schedule changes at record {seeds[k][0]} (a re-seed), but the header's commitment "
                    "is still that of the schedule before it")
    return "the header's commitment is not that of its seed schedule (docs/rng.md): it commits to other seeds"


def verify_loaded(log: LoadedLog) -> VerifyReport:
    """Verify an already decoded log (see :func:`verify`)."""
    game = log.game
    seeds = log.seeds
    gid = log.header.game
    n = len(log.records)

    def fail(seq: int | None, reason: str, checked: int) -> VerifyReport:
        off = log.offsets[seq] if seq is not None and seq < len(log.offsets) else None
        return VerifyReport(False, gid, n, checked, Divergence(seq, off, reason), seeds is not None)

    if seeds is None:
        return fail(None, "the seed is hidden and was not revealed: commands cannot be re-decided", 0)
    unbound = _unbound_seeds(log, seeds)
    if unbound is not None:
        return VerifyReport(False, gid, n, 0, Divergence(None, HEADER_OFFSET, unbound), True)
    state = game.initial_state(log.header.seats, log.options)
    counter = 0
    k = log.header.checkpoint_every
    decide_and_fold = game.decide_and_fold
    to_act = game.to_act
    single = len(seeds) == 1
    seed = seeds[0][1]
    for r, ck in zip(log.records, log.checkpoints):
        seq = r.seq
        if not single:
            seed = seed_at(seeds, seq)
        acting = to_act(state)
        if r.actor not in acting:
            who = "nobody (the match is over)" if not acting else f"seats {list(acting)}"
            return fail(seq, f"seat {r.actor} acted, but {who} could act", seq)
        if r.actor == ENGINE:
            expected_cmd = game.auto_command(state)
            if expected_cmd != r.command:
                return fail(seq, f"engine command differs: rules give {expected_cmd!r}, log has {r.command!r}", seq)
        rng = Rng(seed, counter)
        try:
            events, after = decide_and_fold(state, r.actor, r.command, rng)
        except IllegalCommand as e:
            return fail(seq, f"the command is illegal here: {e}", seq)
        except Exception as e:  # hostile input must never escape as a crash
            return fail(seq, f"the command cannot be decided: {type(e).__name__}: {e}", seq)
        if events != r.events:
            for i, (a, b) in enumerate(zip(events, r.events)):
                if a != b:
                    return fail(seq, f"event {i} differs: rules give {a!r}, log has {b!r}", seq)
            return fail(seq, f"the rules give {len(events)} events, the log has {len(r.events)}", seq)
        if rng.counter != r.rng:
            return fail(seq, f"RNG counter differs: rules end at {rng.counter}, log has {r.rng}", seq)
        counter = r.rng
        state = after
        if (seq + 1) % k == 0:
            if ck is None:
                return fail(seq, "a state checkpoint is missing", seq)
            if ck != log.checkpoint(state):
                return fail(seq, "state checkpoint differs from the re-decided state", seq)
        elif ck is not None:
            return fail(seq, "a state checkpoint where none is due", seq)
    return VerifyReport(True, gid, n, n, None, True, game.outcome(state))


class _Reader:
    """The loader :meth:`Match.from_bytes` and :meth:`Match.load` use (see :class:`~meeple.engine.match.Loader`)."""

    @staticmethod
    def from_bytes(data: bytes) -> Match:
        return read_log(data).to_match()

    @staticmethod
    def from_path(path: str | os.PathLike[str]) -> Match:
        return read_path(path).to_match()


install_loader(_Reader())
