"""Where match logs live: files (the default), SQLite and PostgreSQL, behind the same ``Match`` API.

Every store returns *attached* matches: every command played is in the
store before ``play`` returns, and a write the store refuses leaves the
match unchanged (see :class:`meeple.engine.match.Sink`). All follow
:class:`Store`: ``create``, ``add``, ``open``, ``log_bytes``, ``load_log``,
``info``, ``find``, ``ids``, ``delete``, ``listen`` and ``close``.

>>> import os, tempfile
>>> from meeple.store import FileStore, SqliteStore
>>> d = tempfile.mkdtemp()
>>> for store in (FileStore(d), SqliteStore(os.path.join(d, "all.db"))):
...     m = store.create("liars-dice", seats=2, seed=3, match_id="demo")
...     _ = m.play(0, m.legal(0)[0])
...     store.close()
>>> load_log(os.path.join(d, "demo.meeple")).records == load_log(f"sqlite:{d}/all.db#demo").records
True

A *source* names a stored match: a log file path, ``sqlite:PATH#MATCH_ID``
or ``postgresql://...#MATCH_ID``; a *store address* names a whole store (a
directory, ``sqlite:PATH``, ``postgresql://...``). See
:mod:`meeple.store.sources` for the exact forms. The ``meeple`` command
accepts a source wherever it takes a log file.

:class:`PostgresStore` needs the ``postgres`` extra (``pip install
'meeple[postgres]'``); it is imported on first use (``from meeple.store
import PostgresStore``), and left out of ``__all__`` so that ``import *``
works without psycopg.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._sql import SqlCursor, SqlStore
from .base import ChangeCallback, Durability, MatchInfo, NoteCallback, Status, Store, Subscription
from .errors import (
    MatchExists,
    MatchNotFound,
    NotSupported,
    ReadOnlyStore,
    StoreClosed,
    StoreConflict,
    StoreError,
)
from .files import FileSink, FileStore, RepairReport, is_held, repair, save_log
from .sources import (
    Source,
    list_matches,
    load_log,
    log_bytes,
    open_match,
    open_store,
    parse_source,
    parse_sqlite,
    parse_store,
    save_match,
)
from .sqlite import SqliteSink, SqliteStore

if TYPE_CHECKING:
    from .postgres import PostgresStore as PostgresStore


def __getattr__(name: str) -> Any:
    if name == "PostgresStore":
        try:
            from .postgres import PostgresStore
        except ImportError as e:
            raise ImportError(f"meeple.store.PostgresStore needs psycopg: pip install 'meeple[postgres]' ({e})") from e
        return PostgresStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ChangeCallback",
    "Durability",
    "FileSink",
    "FileStore",
    "MatchExists",
    "MatchInfo",
    "MatchNotFound",
    "NotSupported",
    "NoteCallback",
    "ReadOnlyStore",
    "RepairReport",
    "Source",
    "SqlCursor",
    "SqlStore",
    "SqliteSink",
    "SqliteStore",
    "Status",
    "Store",
    "StoreClosed",
    "StoreConflict",
    "StoreError",
    "Subscription",
    "is_held",
    "list_matches",
    "load_log",
    "log_bytes",
    "open_match",
    "open_store",
    "parse_source",
    "parse_sqlite",
    "parse_store",
    "repair",
    "save_log",
    "save_match",
]
