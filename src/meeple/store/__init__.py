"""Where match logs live: files (the default) and SQLite, behind the same ``Match`` API.

Both stores return *attached* matches: every command played is in the store
before ``play`` returns, and a write the store refuses leaves the match
unchanged (see :class:`meeple.engine.match.Sink`).

>>> import os, tempfile
>>> from meeple.store import FileStore, SqliteStore
>>> d = tempfile.mkdtemp()
>>> for store in (FileStore(d), SqliteStore(os.path.join(d, "all.db"))):
...     m = store.create("liars-dice", seats=2, seed=3, match_id="demo")
...     _ = m.play(0, m.legal(0)[0])
...     store.close()
>>> load_log(os.path.join(d, "demo.meeple")).records == load_log(f"sqlite://{d}/all.db#demo").records
True

A *source* names a stored match: a log file path, or
``sqlite://PATH#MATCH_ID`` for a match in a SQLite store (``PATH`` as
written after ``sqlite://``, so ``sqlite:///srv/m.db#abc`` is the absolute
path ``/srv/m.db`` and ``sqlite://m.db#abc`` is relative). The ``meeple``
command accepts a source wherever it takes a log file.
"""

from __future__ import annotations

import os

from ..engine.match import Match
from ..engine.reader import LoadedLog, read_log, read_path
from .errors import MatchNotFound, StoreConflict, StoreError
from .files import Durability, FileSink, FileStore, RepairReport, repair
from .sqlite import MatchInfo, SqliteSink, SqliteStore, Status

SQLITE_SCHEME = "sqlite://"


def parse_sqlite(source: str) -> tuple[str, str] | None:
    """Split ``sqlite://PATH#MATCH_ID`` into ``(PATH, MATCH_ID)``; None for anything else.

    >>> parse_sqlite("sqlite:///srv/games.db#m-1")
    ('/srv/games.db', 'm-1')
    >>> parse_sqlite("match.meeple") is None
    True
    """
    if not isinstance(source, str) or not source.startswith(SQLITE_SCHEME):
        return None
    rest = source[len(SQLITE_SCHEME):]
    path, sep, match_id = rest.rpartition("#")
    if not sep or not path or not match_id:
        raise StoreError(f"a SQLite source is sqlite://PATH#MATCH_ID, not {source!r}")
    return path, match_id


def _sqlite(path: str) -> SqliteStore:
    if not os.path.exists(path):
        raise MatchNotFound(f"no SQLite store at {path}")
    return SqliteStore(path)


def log_bytes(source: str | os.PathLike[str]) -> bytes:
    """The log bytes of a stored match (a file's content, or the match rebuilt from SQLite)."""
    parsed = parse_sqlite(source) if isinstance(source, str) else None
    if parsed is None:
        try:
            with open(source, "rb") as f:
                return f.read()
        except FileNotFoundError:
            raise MatchNotFound(f"no such log file: {source}") from None
        except OSError as e:
            raise StoreError(f"cannot read {source}: {e.strerror or e}") from None
    with _sqlite(parsed[0]) as store:
        return store.log_bytes(parsed[1])


def load_log(source: str | os.PathLike[str]) -> LoadedLog:
    """Decode a stored match's log (see :func:`meeple.engine.read_log`), from a file or SQLite."""
    parsed = parse_sqlite(source) if isinstance(source, str) else None
    if parsed is None:
        return read_path(source)
    return read_log(log_bytes(source))


def open_match(source: str | os.PathLike[str], durability: Durability = "flush") -> Match:
    """Open a stored match for playing on (attached), from a file or SQLite.

    The store stays open as long as the match: the returned match keeps
    appending to it.
    """
    parsed = parse_sqlite(source) if isinstance(source, str) else None
    if parsed is None:
        return FileStore(".", durability).open(source)
    store = _sqlite(parsed[0])
    return store.open(parsed[1])


__all__ = [
    "Durability", "FileSink", "FileStore", "MatchInfo", "MatchNotFound", "RepairReport", "SqliteSink",
    "SqliteStore", "Status", "StoreConflict", "StoreError", "load_log", "log_bytes", "open_match", "parse_sqlite",
    "repair",
]
