"""Sources and store addresses: one string names a stored match, or a whole store, of any kind.

A **source** names one match; the ``meeple`` command takes one wherever it
reads or writes a log:

==============================================  ===============================================
``game.meeple``, ``/srv/logs/game.meeple``      a log file (any path that is not one of below)
``sqlite:matches.db#ID``                        match ``ID`` in a SQLite store, path relative
``sqlite:/srv/matches.db#ID``                   the same with an absolute path
``sqlite:///srv/matches.db#ID``                 the same (the URL form, empty host: absolute)
``postgresql://user@host/db#ID``                match ``ID`` in a PostgreSQL store
``postgresql:///db?host=/run/pg&schema=s#ID``   (``postgres://`` too; ``schema`` picks the schema)
==============================================  ===============================================

After ``sqlite:`` (and an optional ``//``) the path is taken exactly as
written, without percent-decoding: it is absolute if it starts with ``/``
and relative to the current directory otherwise, so ``sqlite://m.db#ID``
(the form of earlier versions) is the relative path ``m.db``. The match id
follows the last ``#``. Note that ``sqlite:///m.db`` is the *absolute* path
``/m.db`` (as in a ``file:`` URL), not the relative one some other tools
read it as. A PostgreSQL address is a libpq URL; meeple takes only the
``schema`` query parameter for itself and passes the rest to libpq.

A **store address** names a whole store: the same forms without ``#ID``,
and a directory for a file store (``matches/``). The database forms are
those of the backends registered in :mod:`meeple.store.backends`.

>>> parse_source("sqlite:games/m.db#table-7")
Source(kind='sqlite', location='games/m.db', match_id='table-7', schema=None)
>>> parse_source("sqlite:///srv/m.db#x").location
'/srv/m.db'
>>> parse_source("postgresql://db.internal/meeple?schema=club#x")
Source(kind='postgresql', location='postgresql://db.internal/meeple', match_id='x', schema='club')
>>> parse_source("game.meeple").kind
'file'
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import attrs

from ..engine.match import Match
from ..engine.reader import LoadedLog, read_log, read_path
from ._common import check_id
from .backends import backend, backend_for
from .base import Durability, MatchInfo, Store
from .errors import MatchNotFound, StoreError
from .files import FileStore, save_log


@attrs.frozen
class Source:
    """A parsed source or store address (see the module docstring).

    ``location`` is the log file's path (``file``), the database's path
    (``sqlite``) or the libpq connection URL without meeple's own parameters
    (``postgresql``); ``match_id`` is None for a log file and for a store
    address; ``schema`` is the PostgreSQL schema asked for, if any.
    """

    #: ``file``, or the kind of a registered backend (``sqlite``, ``postgresql``).
    kind: str
    location: str
    match_id: str | None = None
    schema: str | None = None

    def open_store(self, *, readonly: bool = False, durability: Durability | None = None) -> Store:
        """The store this source is in (for a log file: a file store on its directory)."""
        if self.kind == "file":
            return FileStore(Path(self.location).parent, durability or "flush")
        return backend(self.kind).open(self.location, self.schema, readonly, durability or "fsync")


def _split_id(text: str, form: str) -> tuple[str, str | None]:
    where, sep, match_id = text.rpartition("#")
    if not sep:
        return text, None
    if not where or not match_id:
        raise StoreError(f"a source is {form}, not {text!r}")
    return where, check_id(match_id)


def _parse(text: str | os.PathLike[str], want_id: bool) -> Source:
    if not isinstance(text, str):
        if isinstance(text, os.PathLike):
            return Source("file", os.fspath(text))
        raise StoreError(f"a source is a string or a path, not {text!r}")
    b = backend_for(text)
    if b is None:
        return Source("file", text)
    form = f"{b.form}#MATCH_ID"
    where, match_id = _split_id(text, form)
    try:
        location, schema = b.read(where)
    except StoreError:
        raise StoreError(f"a {b.title} source is {form}, not {text!r}") from None
    return _checked(Source(b.kind, location, match_id, schema), text, want_id, form)


def _checked(src: Source, text: str, want_id: bool, form: str) -> Source:
    if want_id and src.match_id is None:
        raise StoreError(f"a {src.kind} source names a match: {form}, not {text!r}")
    if not want_id and src.match_id is not None:
        raise StoreError(f"a store address names no match (drop the #{src.match_id}): {text!r}")
    return src


def parse_source(source: str | os.PathLike[str]) -> Source:
    """Parse a source that names one match (see the module docstring); :class:`StoreError` if malformed."""
    return _parse(source, True)


def parse_store(address: str | os.PathLike[str]) -> Source:
    """Parse a store address: a directory, ``sqlite:PATH`` or ``postgresql://...`` (no ``#MATCH_ID``)."""
    return _parse(address, False)


def parse_sqlite(source: str) -> tuple[str, str] | None:
    """Split a SQLite source into ``(PATH, MATCH_ID)``; None for any other kind of source.

    >>> parse_sqlite("sqlite:///srv/games.db#m-1")
    ('/srv/games.db', 'm-1')
    >>> parse_sqlite("sqlite:games.db#m-1")
    ('games.db', 'm-1')
    >>> parse_sqlite("match.meeple") is None
    True
    """
    if not isinstance(source, str) or getattr(backend_for(source), "kind", None) != "sqlite":
        return None
    src = parse_source(source)
    assert src.match_id is not None
    return src.location, src.match_id


def _no_store(src: Source) -> MatchNotFound:
    b = backend(src.kind)
    hint = ""
    if src.location.startswith("/"):
        scheme = b.schemes[0]
        hint = (f" ({scheme}///PATH is absolute; write {scheme}{src.location.lstrip('/')} for a path relative "
                "to the current directory)")
    return MatchNotFound(f"no {b.title} store at {src.location}{hint}")


def missing_local(src: Source) -> bool:
    """True if ``src`` is in a store whose backend keeps it in a local file, and that file does not exist."""
    return src.kind != "file" and backend(src.kind).local and not os.path.exists(src.location)


def _reading(src: Source) -> Store:
    """The store of a database source, opened read-only (a missing local database file is not created)."""
    if missing_local(src):
        raise _no_store(src)
    return src.open_store(readonly=True)


def log_bytes(source: str | os.PathLike[str]) -> bytes:
    """The log bytes of a stored match (a file's content, or the match rebuilt from a database); read-only."""
    src = parse_source(source)
    if src.kind == "file":
        try:
            with open(src.location, "rb") as f:
                return f.read()
        except FileNotFoundError:
            raise MatchNotFound(f"no such log file: {src.location}") from None
        except OSError as e:
            raise StoreError(f"cannot read {src.location}: {e.strerror or e}") from None
    assert src.match_id is not None
    store = _reading(src)
    try:
        return store.log_bytes(src.match_id)
    finally:
        store.close()


def load_log(source: str | os.PathLike[str]) -> LoadedLog:
    """Decode a stored match's log (see :func:`meeple.engine.read_log`), from any source; read-only."""
    src = parse_source(source)
    if src.kind == "file":
        return read_path(src.location)
    return read_log(log_bytes(source))


def open_match(source: str | os.PathLike[str], durability: Durability | None = None) -> Match:
    """Open a stored match for playing on (attached), from any source.

    A log file is opened with :meth:`FileStore.open_path` (the explicit call
    for a path). The store stays open as long as the match: the returned
    match keeps appending to it.
    """
    src = parse_source(source)
    if src.kind == "file":
        path = Path(src.location)
        return FileStore(path.parent, durability or "flush").open_path(path)
    assert src.match_id is not None
    if missing_local(src):
        raise _no_store(src)  # opening a match never creates a database
    store = src.open_store(durability=durability)
    try:
        return store.open(src.match_id)
    except BaseException:
        store.close()
        raise


def save_match(match: Match, target: str | os.PathLike[str], *, overwrite: bool = False,
               hide_seed: bool = False) -> None:
    """Store a copy of ``match`` (up to its cursor) at the source ``target``: a log file or a database match.

    Refuses an existing file or match id unless ``overwrite``
    (:class:`~meeple.store.MatchExists`), and never replaces a log file that a
    writer holds (:class:`~meeple.store.StoreConflict`). A file is written
    atomically; ``hide_seed`` (files only) keeps just the seed's commitment.
    """
    src = parse_source(target)
    if src.kind == "file":
        save_log(match, src.location, overwrite=overwrite, hide_seed=hide_seed)
        return
    if hide_seed:
        raise StoreError(f"a {src.kind} store keeps the seed; write a log file to hide it")
    assert src.match_id is not None
    store = src.open_store()
    try:
        store.add(match, src.match_id, replace=overwrite)
    finally:
        store.close()


def open_store(address: str | os.PathLike[str], *, readonly: bool = False,
               durability: Durability | None = None) -> Store:
    """Open the store at ``address``: a directory (file store), ``sqlite:PATH``, ``postgresql://...`` (a backend's).

    ``readonly`` opens a database store so that it creates and changes
    nothing (a file store creates nothing until a match is stored in it).
    """
    src = parse_store(address)
    if src.kind == "file":
        return FileStore(src.location, durability or "flush")
    return _reading(src) if readonly else src.open_store(durability=durability)


def list_matches(address: str | os.PathLike[str], **filters: Any) -> list[MatchInfo]:
    """The matches of the store at ``address``, oldest first, read-only; ``filters`` as :meth:`Store.find`.

    >>> import tempfile, os
    >>> from meeple.store import SqliteStore
    >>> d = tempfile.mkdtemp()
    >>> with SqliteStore(os.path.join(d, "m.db")) as s:
    ...     _ = s.create("liars-dice", 2, seed=1, match_id="a")
    >>> [i.id for i in list_matches(f"sqlite:{d}/m.db", status="in_progress")]
    ['a']
    """
    src = parse_store(address)
    if src.kind == "file":
        if not os.path.isdir(src.location):
            raise MatchNotFound(f"no file store (directory) at {src.location}")
        return FileStore(src.location).find(**filters)
    store = _reading(src)
    try:
        return store.find(**filters)
    finally:
        store.close()
