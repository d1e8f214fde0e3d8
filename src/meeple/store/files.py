"""The file store: one append-only log file per match, in the engine's log format.

>>> import tempfile, meeple
>>> from meeple.store import FileStore
>>> store = FileStore(tempfile.mkdtemp())
>>> m = store.create("liars-dice", seats=2, seed=7, match_id="m1")
>>> events = m.play(0, m.legal(0)[0])          # appended to m1.meeple before play returns
>>> store.close(m)
>>> store.open("m1").records == m.records
True

Each file is exactly what :meth:`Match.save` writes (``meeple verify`` reads
it), grown one command at a time: the frames of every command are written
with one ``write(2)`` call at the end of the file, and the call returns only
once they are there.

Durability, per command (every record it produced):

* ``"flush"`` (the default): the frames are handed to the operating system
  before ``play`` returns. They survive the process being killed at any
  moment; a power loss or kernel crash may lose the last commands.
* ``"fsync"``: the file is also ``fsync``-ed before ``play`` returns, so
  acknowledged commands survive a power loss too (on storage that honours
  flushes); a new file's directory entry is synced as well.

A crash in the middle of a write leaves a *torn tail*: a last frame that is
cut short. :meth:`FileStore.open` detects it and raises
:class:`~meeple.engine.errors.TruncatedLog` with the number of intact
records; :func:`repair` cuts the file back to the last intact record and
never changes a byte before it.

One process at a time may write a match: an open match holds an exclusive
``flock`` on its file until :meth:`FileStore.close` (or until the match is
garbage-collected); a second :meth:`FileStore.open` raises
:class:`StoreConflict`.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import weakref
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import attrs

from ..engine.codec import digest
from ..engine.errors import CorruptLog, LogError, TruncatedLog
from ..engine.game import Game
from ..engine.log import HASH_SIZE, LENGTH, MAGIC, MAX_FRAME, check_magic, framed, header_frame, read_header
from ..engine.match import Match
from ..engine.reader import MAX_LOG_BYTES, read_log
from ._common import build_match, check_body_size, check_id, finish_interrupted_command, new_id
from .errors import MatchNotFound, StoreConflict, StoreError

#: How a file store makes each command durable (see the module docstring).
Durability = Literal["flush", "fsync"]
#: The file name suffix of match logs.
SUFFIX = ".meeple"


@attrs.frozen
class RepairReport:
    """What :func:`repair` did: ``records`` intact records kept in ``kept_bytes``; ``dropped_bytes`` cut."""

    path: str
    records: int
    kept_bytes: int
    dropped_bytes: int

    def summary(self) -> str:
        """One line for a person."""
        if not self.dropped_bytes:
            return f"{self.path}: intact, {self.records} records; nothing to repair"
        return (f"{self.path}: cut a torn tail of {self.dropped_bytes} bytes; "
                f"kept {self.records} intact records ({self.kept_bytes} bytes)")


@attrs.frozen
class _Scan:
    records: int
    good_end: int
    frame_starts: tuple[int, ...]
    torn: bool


def _scan(data: bytes) -> _Scan:
    """Walk the frames after the header, checking lengths and the hash chain.

    Damage that only a torn write explains (the last frame cut short, a tail
    of zero bytes, or a last frame whose hash fails) ends the scan as a torn
    tail; any other damage raises :class:`CorruptLog`.
    """
    _, prev, pos = read_header(data)
    n = len(data)
    starts: list[int] = []
    while pos < n:
        if pos + 4 > n:
            return _Scan(len(starts), pos, tuple(starts), True)
        (length,) = LENGTH.unpack_from(data, pos)
        end = pos + 4 + length
        if length < HASH_SIZE + 1 or length > MAX_FRAME:
            if not data[pos:].strip(b"\x00"):
                return _Scan(len(starts), pos, tuple(starts), True)
            raise CorruptLog(f"impossible frame length {length}", offset=pos, record=len(starts))
        if end > n:
            return _Scan(len(starts), pos, tuple(starts), True)
        body = data[pos + 4 : end - HASH_SIZE]
        h = data[end - HASH_SIZE : end]
        if digest(body, prev) != h:
            if end == n:
                return _Scan(len(starts), pos, tuple(starts), True)
            raise CorruptLog("hash chain broken before the last frame: this is not a torn tail",
                             offset=pos, record=len(starts))
        starts.append(pos)
        prev = h
        pos = end
    return _Scan(len(starts), pos, tuple(starts), False)


def _open_rw(path: Path, missing: str) -> int:
    """Open ``path`` for reading and writing; MatchNotFound (``missing``) or StoreError."""
    try:
        return os.open(path, os.O_RDWR)
    except FileNotFoundError:
        raise MatchNotFound(f"{missing}: {path}") from None
    except OSError as e:
        raise StoreError(f"cannot open {path}: {e.strerror or e}") from None


def _lock(fd: int, path: Path) -> None:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as e:
        if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            raise StoreConflict(f"{path} is open for writing elsewhere; close it there first") from None
        raise StoreError(f"cannot lock {path}: {e.strerror or e}") from None


def _read_all(fd: int, path: Path) -> bytes:
    try:
        size = os.fstat(fd).st_size
        if size > MAX_LOG_BYTES:
            raise LogError(f"{path} is larger than {MAX_LOG_BYTES} bytes")
        chunks = []
        pos = 0
        while pos < size:
            chunk = os.pread(fd, size - pos, pos)
            if not chunk:
                break
            chunks.append(chunk)
            pos += len(chunk)
    except OSError as e:
        raise StoreError(f"cannot read {path}: {e.strerror or e}") from None
    return b"".join(chunks)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        done = os.write(fd, view)
        view = view[done:]


def _fsync_dir(path: Path) -> None:
    with contextlib.suppress(OSError):
        dfd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)


def _torn_or(err: LogError, data: bytes, path: Path) -> LogError:
    """The error to report for a log that failed to load: a torn tail if it is one, else ``err``."""
    try:
        scan = _scan(data)
    except LogError:
        return err
    if not scan.torn:
        return err
    return TruncatedLog(
        f"{path}: torn tail after {scan.records} intact records ({len(data) - scan.good_end} bytes cut "
        f"short, probably by a crash); run `meeple repair {path}` to keep the intact records",
        offset=scan.good_end, record=scan.records, intact=scan.records, intact_bytes=scan.good_end,
    )


def repair(path: str | os.PathLike[str]) -> RepairReport:
    """Cut a torn tail off a log file, keeping every intact record byte for byte.

    Returns what was done (nothing, for an intact file). Raises
    :class:`CorruptLog` for damage that is not a torn tail (a broken record
    *before* the last one): repair never drops a record that may be intact.
    The file is locked while it is repaired (:class:`StoreConflict` if a
    match holds it open).

    >>> import tempfile, os, meeple
    >>> from meeple.store import repair
    >>> p = os.path.join(tempfile.mkdtemp(), "m.meeple")
    >>> meeple.Match.start("liars-dice", 2, seed=1).save(p)
    >>> with open(p, "ab") as f: _ = f.write(b"\\x00\\x00\\x01")
    >>> report = repair(p)
    >>> (report.records, report.dropped_bytes)
    (1, 3)
    """
    p = Path(path)
    fd = _open_rw(p, "no such log file")
    try:
        _lock(fd, p)
        data = _read_all(fd, p)
        check_magic(data)
        try:
            scan = _scan(data)
        except TruncatedLog:
            raise TruncatedLog(f"{p}: the log's header itself is torn; there is no record to keep",
                               offset=len(MAGIC), record=0, intact=0, intact_bytes=0) from None
        dropped = len(data) - scan.good_end
        if dropped:
            os.ftruncate(fd, scan.good_end)
            os.fsync(fd)
        return RepairReport(str(p), scan.records, scan.good_end, dropped)
    finally:
        os.close(fd)


class FileSink:
    """Appends a match's records to its log file (the :class:`~meeple.engine.match.Sink` of a file store).

    Holds the file open and exclusively locked; checks before each write that
    the file still ends where this sink left it.
    """

    def __init__(self, path: Path, fd: int, frame_starts: list[int], end: int, durability: Durability) -> None:
        self.path = path
        self.fd = fd
        self._starts = frame_starts  # byte offset of each record's frame
        self._end = end  # the file length this sink expects
        self.durability = durability
        self.closed = False

    def write(
        self, match: Match, start: int, bodies: Sequence[bytes], *, snapshots: Mapping[int, Any], state: Any
    ) -> None:
        """Append ``bodies`` as records ``start...`` (dropping records from ``start`` on first), all or nothing."""
        if self.closed:
            raise StoreError(f"{self.path} was closed; reopen the match to continue")
        if start > len(self._starts):
            raise StoreError(f"record {start} would leave a gap after {len(self._starts)} stored records")
        prev = match.record_hash(start - 1)
        parts = []
        for body in bodies:
            check_body_size(body)
            h = digest(body, prev)
            parts.append(framed(body, h))
            prev = h
        data = b"".join(parts)
        fd = self.fd
        try:
            size = os.fstat(fd).st_size
        except OSError as e:
            raise StoreError(f"cannot stat {self.path}: {e.strerror or e}") from None
        if size != self._end:
            raise StoreConflict(f"{self.path} changed outside this match ({size} bytes, expected {self._end}); "
                                "reopen it (and repair it if it was torn)")
        at = self._starts[start] if start < len(self._starts) else self._end
        try:
            if at != self._end:
                os.ftruncate(fd, at)  # a new branch after an undo drops the undone records
            os.lseek(fd, at, os.SEEK_SET)
            self._append(data)
            if self.durability == "fsync":
                os.fsync(fd)
        except OSError as e:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, at)  # all or nothing
            self._end = at
            del self._starts[start:]
            raise StoreError(f"cannot write {self.path}: {e.strerror or e}") from None
        del self._starts[start:]
        pos = at
        for part in parts:
            self._starts.append(pos)
            pos += len(part)
        self._end = pos

    def _append(self, data: bytes) -> None:
        """Write ``data`` at the current file position (one ``write(2)`` in the normal case)."""
        _write_all(self.fd, data)

    def close(self) -> None:
        """Release the lock and the file; later writes raise :class:`StoreError`."""
        if not self.closed:
            self.closed = True
            os.close(self.fd)


def _close_fd(sink: FileSink, registry: dict[int, Any], key: int) -> None:
    entry = registry.get(key)
    if entry is not None and entry[1] is sink:
        del registry[key]
    with contextlib.suppress(OSError):
        sink.close()


class FileStore:
    """Matches kept as log files in a directory, ``<match id>.meeple`` each.

    ``durability`` is ``"flush"`` or ``"fsync"`` (see the module docstring).
    :meth:`create` and :meth:`open` return attached matches: every command
    played on them is on disk before ``play`` returns.
    """

    sink_type: type[FileSink] = FileSink

    def __init__(self, directory: str | os.PathLike[str] = ".", durability: Durability = "flush") -> None:
        if durability not in ("flush", "fsync"):
            raise StoreError(f"durability is 'flush' or 'fsync', not {durability!r}")
        self.directory = Path(directory)
        self.durability: Durability = durability
        self._sinks: dict[int, tuple[weakref.ref[Match], FileSink]] = {}

    def path(self, id_or_path: str | os.PathLike[str]) -> Path:
        """The file of a match.

        A path object, or a string with a directory separator, is used as
        given; a bare name is looked up in the store's directory, with the
        ``.meeple`` suffix added unless it is there already.
        """
        if isinstance(id_or_path, os.PathLike):
            return Path(id_or_path)
        if not isinstance(id_or_path, str):
            check_id(id_or_path)  # raises StoreError naming what an id is
        if os.sep in id_or_path or (os.altsep and os.altsep in id_or_path):
            return Path(id_or_path)
        name = id_or_path[: -len(SUFFIX)] if id_or_path.endswith(SUFFIX) else id_or_path
        return self.directory / f"{check_id(name)}{SUFFIX}"

    def create(
        self,
        game: str | Game[Any, Any],
        seats: int,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        meta: Mapping[str, Any] | None = None,
        match_id: str | None = None,
    ) -> Match:
        """Start a match in a new file and return it attached (:class:`StoreConflict` if the file exists)."""
        path = self.directory / f"{check_id(new_id() if match_id is None else match_id)}{SUFFIX}"
        match = Match.start(game, seats, seed=seed, options=options, meta=meta)
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            raise StoreConflict(f"{path} already exists; choose another match id") from None
        except OSError as e:
            raise StoreError(f"cannot create {path}: {e.strerror or e}") from None
        try:
            _lock(fd, path)
            head, _ = header_frame(match.header())
            parts = [head]
            starts = []
            pos = len(head)
            for i in range(len(match)):
                body = match.body(i)
                check_body_size(body)
                part = framed(body, match.record_hash(i))
                starts.append(pos)
                parts.append(part)
                pos += len(part)
            sink = self.sink_type(path, fd, starts, 0, self.durability)
            sink._append(b"".join(parts))
            sink._end = pos
            if self.durability == "fsync":
                os.fsync(fd)
                _fsync_dir(path)
        except BaseException:
            os.close(fd)
            with contextlib.suppress(OSError):
                path.unlink()
            raise
        self._attach(match, sink)
        return match

    def open(self, id_or_path: str | os.PathLike[str]) -> Match:
        """Load a match from its file and return it attached, positioned at its last record.

        Raises :class:`MatchNotFound`, :class:`StoreConflict` (open
        elsewhere), :class:`~meeple.engine.errors.TruncatedLog` for a torn
        tail (``intact`` says how many records survive; :func:`repair` keeps
        them), or another :class:`~meeple.engine.errors.LogError`.
        """
        path = self.path(id_or_path)
        fd = _open_rw(path, "no such match")
        try:
            _lock(fd, path)
            data = _read_all(fd, path)
            try:
                log = read_log(data)
            except (TruncatedLog, CorruptLog) as e:
                raise _torn_or(e, data, path) from None
            starts = list(log.offsets)
            bodies = [data[o + 4 : o + 4 + LENGTH.unpack_from(data, o)[0] - HASH_SIZE] for o in starts]
            match = build_match(log, bodies)
            sink = self.sink_type(path, fd, starts, len(data), self.durability)
        except BaseException:
            os.close(fd)
            raise
        self._attach(match, sink)
        finish_interrupted_command(match)
        return match

    def _attach(self, match: Match, sink: FileSink) -> None:
        match.attach(sink)
        key = id(match)
        weakref.finalize(match, _close_fd, sink, self._sinks, key)
        self._sinks[key] = (weakref.ref(match), sink)

    def close(self, match: Match | None = None) -> None:
        """Detach and close ``match`` (or every match this store opened); its file is unlocked."""
        keys = [id(match)] if match is not None else list(self._sinks)
        for key in keys:
            entry = self._sinks.pop(key, None)
            if entry is None:
                continue
            ref, sink = entry
            m = ref()
            if m is not None:
                with contextlib.suppress(ValueError):
                    m.detach(sink)
            sink.close()

    def ids(self) -> Iterator[str]:
        """The ids of the matches in the directory, sorted."""
        for p in sorted(self.directory.glob(f"*{SUFFIX}")):
            yield p.name[: -len(SUFFIX)]

    def __enter__(self) -> FileStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
