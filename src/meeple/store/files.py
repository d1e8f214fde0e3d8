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
once they are there. A new file appears whole or not at all: it is written
under a temporary name, synced, and then linked into place.

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
:class:`StoreConflict`, and :func:`is_held` tells whether a writer holds a
file. Before and after every write the store checks that the path still
names the file it holds (device and inode) and that the file still ends
where it left it: a file replaced, moved or changed behind its back is a
:class:`StoreConflict`, never an acknowledged command that is not in the file.

Match ids name files inside the store's directory and nowhere else;
:meth:`FileStore.open_path` and :meth:`FileStore.create_path` are the
explicit calls for a log file anywhere.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import fcntl
import os
import secrets
import weakref
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from ..engine.errors import CorruptLog, LogError, TruncatedLog
from ..engine.game import Game
from ..engine.log import (
    HASH_SIZE,
    LENGTH,
    MAGIC,
    MAX_FRAME,
    chain_hash,
    check_magic,
    framed,
    header_frame,
    read_header,
)
from ..engine.match import Match
from ..engine.reader import MAX_LOG_BYTES, LoadedLog, read_log
from ._common import (
    ID_PATTERN,
    build_match,
    check_body_size,
    check_id,
    check_limit,
    check_status,
    finish_interrupted_command,
    new_id,
    utc,
)
from .base import ChangeCallback, Durability, MatchInfo, Status, Subscription
from .errors import MatchExists, MatchNotFound, NotSupported, StoreClosed, StoreConflict, StoreError

#: The file name suffix of match logs.
SUFFIX = ".meeple"
#: Temporary files of a new log are named ``.<name>.<random>`` plus this suffix.
TEMP_SUFFIX = ".tmp"


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
        if chain_hash(body, prev) != h:
            if end == n:
                return _Scan(len(starts), pos, tuple(starts), True)
            raise CorruptLog("hash chain broken before the last frame: this is not a torn tail",
                             offset=pos, record=len(starts))
        starts.append(pos)
        prev = h
        pos = end
    return _Scan(len(starts), pos, tuple(starts), False)


def _os_error(what: str, path: Path, e: OSError) -> StoreError:
    return StoreError(f"cannot {what} {path}: {e.strerror or e}")


def _open(path: Path, missing: str = "no such match", flags: int = os.O_RDONLY) -> int:
    """Open ``path`` with ``flags`` (for reading unless told); MatchNotFound (``missing``) or StoreError."""
    try:
        return os.open(path, flags)
    except FileNotFoundError:
        raise MatchNotFound(f"{missing}: {path}") from None
    except OSError as e:
        raise _os_error("open", path, e) from None


def _try_lock(fd: int, path: Path, mode: int = fcntl.LOCK_EX) -> bool:
    """Take ``mode`` on ``fd`` without waiting; False if someone else holds a conflicting lock."""
    try:
        fcntl.flock(fd, mode | fcntl.LOCK_NB)
    except OSError as e:
        if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            return False
        raise _os_error("lock", path, e) from None
    return True


def _lock(fd: int, path: Path) -> None:
    if not _try_lock(fd, path):
        raise StoreConflict(f"{path} is open for writing elsewhere; close it there first")


def is_held(path: str | os.PathLike[str]) -> bool:
    """Whether a writer (a match opened from a file store, or :func:`repair`) holds the log file ``path``.

    False for a missing file. Tools that replace a log file (``--out``, an
    editor) should refuse while this is true; :func:`save_log` does so itself.
    The check takes a shared lock for an instant, so a writer opening the
    file at that very moment may get :class:`StoreConflict` (and can retry).

    >>> import tempfile, os
    >>> from meeple.store import FileStore, is_held
    >>> d = tempfile.mkdtemp()
    >>> m = FileStore(d).create("liars-dice", 2, seed=1, match_id="m")
    >>> is_held(os.path.join(d, "m.meeple"))
    True
    """
    p = Path(path)
    try:
        fd = os.open(p, os.O_RDONLY)
    except FileNotFoundError:
        return False
    except OSError as e:
        raise _os_error("open", p, e) from None
    try:
        return not _try_lock(fd, p, fcntl.LOCK_SH)
    finally:
        os.close(fd)


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
        raise _os_error("read", path, e) from None
    return b"".join(chunks)


def _read_path(path: Path) -> bytes:
    fd = _open(path)
    try:
        return _read_all(fd, path)
    finally:
        os.close(fd)


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


def _same_file(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _temp_names(path: Path) -> list[Path]:
    with contextlib.suppress(OSError):
        return sorted(path.parent.glob(f".{path.name}.*{TEMP_SUFFIX}"))
    return []


def _remove_stale_temps(path: Path) -> None:
    """Remove temporary files that a crashed writer of ``path`` left (no process holds their lock)."""
    for tmp in _temp_names(path):
        try:
            fd = os.open(tmp, os.O_RDONLY)
        except OSError:
            continue
        try:
            if _try_lock(fd, tmp):
                with contextlib.suppress(OSError):
                    if _same_file(os.stat(tmp), os.fstat(fd)):
                        tmp.unlink()
        except StoreError:
            pass
        finally:
            os.close(fd)


def _new_temp(path: Path) -> tuple[int, Path]:
    """Create and lock a fresh temporary file beside ``path``; return its descriptor and name."""
    for _ in range(8):
        tmp = path.parent / f".{path.name}.{secrets.token_hex(6)}{TEMP_SUFFIX}"
        try:
            fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        except OSError as e:
            raise _os_error("create a file in", path.parent, e) from None
        try:  # another process cleaning stale temporaries may hold it, or have removed it before the lock
            if _try_lock(fd, tmp) and _same_file(os.stat(tmp), os.fstat(fd)):
                return fd, tmp
        except (OSError, StoreError):
            pass
        os.close(fd)
    raise StoreError(f"cannot create a temporary file beside {path}")


def _install(path: Path, data: bytes, *, overwrite: bool, write: Callable[[int, bytes], None] = _write_all) -> int:
    """Put a new file holding ``data`` at ``path``: all of it or nothing, whenever a crash comes.

    The data goes to a locked temporary file beside ``path``, which is synced
    and then linked (or, with ``overwrite``, renamed) into place. A file that
    a writer holds is never replaced (:class:`StoreConflict`); without
    ``overwrite`` an existing file is :class:`MatchExists`. Returns the new
    file's descriptor, exclusively locked; the directory entry is not synced.
    """
    _remove_stale_temps(path)  # first: a writer killed after linking its file in place left its temporary too
    if not overwrite and os.path.lexists(path):
        raise MatchExists(f"{path} already exists; choose another match id")
    fd, tmp = _new_temp(path)
    old = -1
    try:
        write(fd, data)
        os.fsync(fd)  # the content is on disk before the name is: never a file cut inside its header
        if overwrite:
            with contextlib.suppress(FileNotFoundError):
                old = os.open(path, os.O_RDONLY)
                if not _try_lock(old, path):
                    raise StoreConflict(f"{path} is open for writing elsewhere; close it there first")
                with contextlib.suppress(OSError):
                    os.fchmod(fd, os.fstat(old).st_mode & 0o777)
            os.replace(tmp, path)
        else:
            try:
                os.link(tmp, path)
            except FileExistsError:
                raise MatchExists(f"{path} already exists; choose another match id") from None
            except OSError as e:
                if e.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK):
                    raise
                # a file system without hard links: rename, after a check that another creator could race
                if path.exists():
                    raise MatchExists(f"{path} already exists; choose another match id") from None
                os.rename(tmp, path)
            else:
                tmp.unlink()
    except BaseException as e:
        os.close(fd)
        with contextlib.suppress(OSError):
            tmp.unlink()
        if isinstance(e, OSError):
            raise _os_error("write", path, e) from None
        raise
    finally:
        if old >= 0:
            os.close(old)
    return fd


def _frames(match: Match) -> tuple[bytes, list[int]]:
    """The log of ``match`` up to its cursor (with the stored chain) and the offset of each record's frame."""
    head, _ = header_frame(match.header())
    parts = [head]
    starts = []
    pos = len(head)
    for i in range(match.cursor):
        body = match.body(i)
        check_body_size(body)
        part = framed(body, match.record_hash(i))
        starts.append(pos)
        parts.append(part)
        pos += len(part)
    return b"".join(parts), starts


def save_log(match: Match, path: str | os.PathLike[str], *, overwrite: bool = False, hide_seed: bool = False) -> None:
    """Write ``match``'s log to ``path`` atomically (the old file or the new one, whenever a crash comes).

    Unlike :meth:`Match.save` it refuses to replace a file that a writer
    holds (:class:`StoreConflict`), and an existing file unless
    ``overwrite`` (:class:`MatchExists`). The file and its directory entry
    are synced before it returns.

    >>> import tempfile, os, meeple
    >>> from meeple.store import save_log, MatchExists
    >>> p = os.path.join(tempfile.mkdtemp(), "m.meeple")
    >>> save_log(meeple.Match.start("liars-dice", 2, seed=1), p)
    >>> try:
    ...     save_log(meeple.Match.start("liars-dice", 2, seed=2), p)
    ... except MatchExists:
    ...     print("refused")
    refused
    """
    target = Path(path)
    data = match.to_bytes(hide_seed=hide_seed)
    os.close(_install(target, data, overwrite=overwrite))
    _fsync_dir(target)


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
    fd = _open(p, "no such log file", os.O_RDWR)
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

    Holds the file open and exclusively locked. Before each write it checks
    that the path still names this file and that the file still ends where
    this sink left it, and after the write that the path still names it: a
    replaced, moved or changed file is a :class:`StoreConflict` and the
    command is not acknowledged.
    """

    def __init__(self, path: Path, fd: int, frame_starts: list[int], end: int, durability: Durability) -> None:
        self.path = path
        self.fd = fd
        self._starts = frame_starts  # byte offset of each record's frame
        self._end = end  # the file length this sink expects
        self.durability = durability
        self.closed = False
        held = os.fstat(fd)
        self._identity = (held.st_dev, held.st_ino)  # the file this sink holds, whatever its path names later

    def write(
        self, match: Match, start: int, bodies: Sequence[bytes], *, snapshots: Mapping[int, Any], state: Any
    ) -> None:
        """Append ``bodies`` as records ``start...`` (dropping records from ``start`` on first), all or nothing."""
        if self.closed:
            raise StoreClosed(f"{self.path} was closed; reopen the match from its store to continue")
        if start > len(self._starts):
            raise StoreError(f"record {start} would leave a gap after {len(self._starts)} stored records")
        prev = match.record_hash(start - 1)
        parts = []
        for body in bodies:
            check_body_size(body)
            h = chain_hash(body, prev)
            parts.append(framed(body, h))
            prev = h
        data = b"".join(parts)
        fd = self.fd
        try:
            size = os.fstat(fd).st_size
        except OSError as e:
            raise _os_error("stat", self.path, e) from None
        self._check("")
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
            raise _os_error("write", self.path, e) from None
        del self._starts[start:]
        pos = at
        for part in parts:
            self._starts.append(pos)
            pos += len(part)
        self._end = pos
        self._check(" while this command was written; the command was not stored")

    def _check(self, when: str) -> None:
        """Raise StoreConflict unless the path still names the file this sink holds (device and inode)."""
        try:
            named = os.stat(self.path)
        except FileNotFoundError:
            named = None
        except OSError as e:
            raise _os_error("stat", self.path, e) from None
        if named is None or (named.st_dev, named.st_ino) != self._identity:
            what = "was removed or moved" if named is None else "was replaced by another file"
            raise StoreConflict(f"{self.path} {what}{when}; reopen the match from the file that is there now")

    @staticmethod
    def _write(fd: int, data: bytes) -> None:
        """Write ``data`` at the file position of ``fd`` (one ``write(2)`` in the normal case)."""
        _write_all(fd, data)

    def _append(self, data: bytes) -> None:
        self._write(self.fd, data)

    def close(self) -> None:
        """Release the lock and the file; later writes raise :class:`StoreClosed`."""
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
    played on them is on disk before ``play`` returns. The directory is made
    (with its parents) when the first match is stored in it.
    """

    sink_type: type[FileSink] = FileSink

    def __init__(self, directory: str | os.PathLike[str] = ".", durability: Durability = "flush") -> None:
        if durability not in ("flush", "fsync"):
            raise StoreError(f"durability is 'flush' or 'fsync', not {durability!r}")
        self.directory = Path(directory)
        self.durability: Durability = durability
        self._sinks: dict[int, tuple[weakref.ref[Match], FileSink]] = {}

    def path(self, match_id: str) -> Path:
        """The file of a match in this store: ``<directory>/<match_id>.meeple``.

        ``match_id`` may carry the ``.meeple`` suffix. Anything that is not
        an id (a path, ``..``, a separator) is refused with
        :class:`StoreError`, so an id never names a file outside the store;
        :meth:`open_path` opens a file anywhere.
        """
        if isinstance(match_id, os.PathLike):
            raise StoreError(f"{match_id} is a path, not a match id; use FileStore.open_path for a file anywhere")
        if isinstance(match_id, str) and match_id.endswith(SUFFIX):
            match_id = match_id[: -len(SUFFIX)]
        return self.directory / f"{check_id(match_id)}{SUFFIX}"

    def _make_directory(self) -> None:
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise _os_error("create the directory", self.directory, e) from None

    # -- writing ----------------------------------------------------------------------
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
        """Start a match in a new file and return it attached (:class:`MatchExists` if the id is taken).

        The file appears whole (a valid log of the new match) or not at all,
        whenever the process is killed.
        """
        path = self.path(new_id() if match_id is None else match_id)
        return self._create(path, Match.start(game, seats, seed=seed, options=options, meta=meta))

    def create_path(
        self,
        path: str | os.PathLike[str],
        game: str | Game[Any, Any],
        seats: int,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        meta: Mapping[str, Any] | None = None,
    ) -> Match:
        """:meth:`create` for a log file at any ``path`` (the explicit call; ids stay in the directory)."""
        return self._create(Path(path), Match.start(game, seats, seed=seed, options=options, meta=meta))

    def _create(self, path: Path, match: Match) -> Match:
        data, starts = _frames(match)
        if path.parent == self.directory:
            self._make_directory()
        fd = _install(path, data, overwrite=False, write=self.sink_type._write)
        sink = self.sink_type(path, fd, starts, len(data), self.durability)
        if self.durability == "fsync":
            _fsync_dir(path)
        self._attach(match, sink)
        return match

    def add(self, match: Match, match_id: str | None = None, *, replace: bool = False) -> str:
        """Store a copy of ``match`` (its records up to the cursor) under a new id; return the id.

        The match itself is not attached; :meth:`open` the id to play on in
        the store. A taken id is :class:`MatchExists` unless ``replace``
        (which still refuses a file that a writer holds: :class:`StoreConflict`).
        """
        mid = new_id() if match_id is None else match_id
        path = self.path(mid)
        data, _ = _frames(match)
        self._make_directory()
        os.close(_install(path, data, overwrite=replace))
        if self.durability == "fsync":
            _fsync_dir(path)
        return path.name[: -len(SUFFIX)]

    def delete(self, match_id: str) -> None:
        """Remove a match's file (:class:`MatchNotFound` if none, :class:`StoreConflict` while a writer holds it)."""
        path = self.path(match_id)
        fd = _open(path, flags=os.O_RDWR)
        try:
            _lock(fd, path)
            path.unlink()
        except OSError as e:
            raise _os_error("remove", path, e) from None
        finally:
            os.close(fd)

    # -- reading ----------------------------------------------------------------------
    def open(self, match_id: str) -> Match:
        """Load a match from its file and return it attached, positioned at its last record.

        Raises :class:`MatchNotFound`, :class:`StoreConflict` (open
        elsewhere), :class:`~meeple.engine.errors.TruncatedLog` for a torn
        tail (``intact`` says how many records survive; :func:`repair` keeps
        them), or another :class:`~meeple.engine.errors.LogError`.
        """
        return self.open_path(self.path(match_id))

    def open_path(self, path: str | os.PathLike[str]) -> Match:
        """:meth:`open` for a log file at any ``path``: the explicit call for a file outside the store's directory."""
        path = Path(path)
        fd = _open(path, flags=os.O_RDWR)
        try:
            _lock(fd, path)
            data = _read_all(fd, path)
            log = _decode(data, path)
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

    def log_bytes(self, match_id: str) -> bytes:
        """The match's log file, as bytes."""
        return _read_path(self.path(match_id))

    def load_log(self, match_id: str) -> LoadedLog:
        """Decode the match's log, checking its hash chain (a torn tail is :class:`TruncatedLog`)."""
        path = self.path(match_id)
        return _decode(_read_path(path), path)

    def info(self, match_id: str) -> MatchInfo:
        """What the file holds: game, seats, options, status, winners and records (the log is read and folded).

        ``created`` and ``updated`` are both the file's modification time.
        """
        path = self.path(match_id)
        fd = _open(path)
        try:
            when = dt.datetime.fromtimestamp(os.fstat(fd).st_mtime, dt.UTC)
            log = _decode(_read_all(fd, path), path)
        finally:
            os.close(fd)
        outcome = log.to_match().outcome
        h = log.header
        return MatchInfo(path.name[: -len(SUFFIX)], h.game, h.rules, h.seats, dict(h.options),
                         Status.OVER if outcome is not None else Status.IN_PROGRESS,
                         tuple(outcome.winners) if outcome is not None else None, when, when, len(log.records))

    def find(
        self,
        *,
        game: str | None = None,
        seats: int | None = None,
        status: Status | str | None = None,
        since: dt.datetime | dt.date | str | None = None,
        until: dt.datetime | dt.date | str | None = None,
        limit: int | None = None,
    ) -> list[MatchInfo]:
        """Matches by game id, seat count, status and time (``since <= created < until``), oldest first.

        Every file is read (a damaged one raises its
        :class:`~meeple.engine.errors.LogError`, naming it); a database store
        answers from an index instead.
        """
        wanted = check_status(status) if status is not None else None
        after = utc(since) if since is not None else None
        before = utc(until) if until is not None else None
        count = check_limit(limit) if limit is not None else None
        found = []
        for mid in self.ids():
            try:
                i = self.info(mid)
            except MatchNotFound:  # removed while we listed
                continue
            if ((game is None or i.game == game) and (seats is None or i.seats == seats)
                    and (wanted is None or i.status is wanted) and (after is None or i.created >= after)
                    and (before is None or i.created < before)):
                found.append(i)
        found.sort(key=lambda i: (i.created, i.id))
        return found if count is None else found[:count]

    def ids(self) -> list[str]:
        """The ids of the matches in the directory, sorted (none if the directory does not exist yet).

        Files whose names are not ``<id>.meeple`` (a temporary file, ``my game.meeple``) are not matches
        of the store; :meth:`open_path` opens them.
        """
        try:
            names = sorted(p.name for p in self.directory.iterdir() if p.name.endswith(SUFFIX))
        except FileNotFoundError:
            return []
        except OSError as e:
            raise _os_error("list", self.directory, e) from None
        return [n[: -len(SUFFIX)] for n in names if ID_PATTERN.fullmatch(n[: -len(SUFFIX)])]

    def listen(self, callback: ChangeCallback) -> Subscription:
        """Not offered by the file store (:class:`NotSupported`): a file has one writer, its own process."""
        raise NotSupported("the file store cannot notify other processes of changes; use SqliteStore or "
                           "PostgresStore to serve one match from several processes")

    # -- lifetime ---------------------------------------------------------------------
    def _attach(self, match: Match, sink: FileSink) -> None:
        match.attach(sink)
        key = id(match)
        weakref.finalize(match, _close_fd, sink, self._sinks, key)
        self._sinks[key] = (weakref.ref(match), sink)

    def close(self, match: Match | None = None) -> None:
        """Close ``match``'s file (or those of every match this store opened), releasing the lock.

        A closed match stays attached and refuses further commands with
        :class:`StoreClosed`, so nothing is ever played in memory only;
        :meth:`open` it again to continue (or ``fork`` it for a copy that is
        in no store).
        """
        keys = [id(match)] if match is not None else list(self._sinks)
        for key in keys:
            entry = self._sinks.pop(key, None)
            if entry is not None:
                entry[1].close()

    def __enter__(self) -> FileStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _decode(data: bytes, path: Path) -> LoadedLog:
    try:
        return read_log(data)
    except (TruncatedLog, CorruptLog) as e:
        raise _torn_or(e, data, path) from None
