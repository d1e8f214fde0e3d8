"""Which store a server runs on, from the ``--store`` address.

* nothing: ``meeple.db`` in the current directory, a SQLite store (one file, no set-up);
* ``sqlite://PATH`` or a plain ``PATH``: a SQLite store at ``PATH`` (``sqlite:///srv/m.db``
  is the absolute path ``/srv/m.db``, ``sqlite://m.db`` a relative one, as in
  the ``sqlite://PATH#MATCH_ID`` sources of the ``meeple`` command);
* ``postgresql://...`` (or ``postgres://...``): a PostgreSQL store, where the
  library has one (``meeple.store.PostgresStore``, the ``postgres`` extra).

The lobby's tables go into the same database.

>>> store_path(None), store_path("sqlite:///srv/m.db"), store_path("games.db")
('meeple.db', '/srv/m.db', 'games.db')
"""

from __future__ import annotations

import os
from typing import Any

import attrs

from ..store.errors import StoreError
from .lobby import Lobby, SqliteLobby

#: The store of a server started without ``--store``.
DEFAULT_STORE = "meeple.db"

_POSTGRES = ("postgresql://", "postgres://")


def store_path(url: str | None) -> str:
    """The SQLite file an address names (see the module docstring); StoreError for other schemes."""
    if url is None:
        return DEFAULT_STORE
    if not isinstance(url, str) or not url:
        raise StoreError(f"a store is a path, sqlite://PATH or postgresql://..., not {url!r}")
    if url.startswith(_POSTGRES):
        raise StoreError("a PostgreSQL address has no SQLite path")
    if url.startswith("sqlite://"):
        path = url[len("sqlite://"):]
        if not path or "#" in path:
            raise StoreError(f"a server store is sqlite://PATH (no #MATCH_ID), not {url!r}")
        return path
    if "://" in url:
        raise StoreError(f"unknown store scheme in {url!r}; use a path, sqlite://PATH or postgresql://...")
    return url


def is_postgres(url: str | None) -> bool:
    """True for a PostgreSQL address."""
    return isinstance(url, str) and url.startswith(_POSTGRES)


@attrs.define
class Opened:
    """A store and the lobby beside it, open in the current thread."""

    store: Any
    lobby: Lobby

    def close(self) -> None:
        """Close both."""
        try:
            self.lobby.close()
        finally:
            self.store.close()


def open_store(url: str | None) -> Opened:
    """Open the store an address names, and the lobby's tables beside it (StoreError if it cannot be)."""
    if is_postgres(url):
        assert url is not None
        return _open_postgres(url)
    from ..store import SqliteStore

    path = store_path(url)
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise StoreError(f"cannot create the store {path}: the directory {parent} does not exist")
    store = SqliteStore(path)
    try:
        lobby = SqliteLobby(path)
    except BaseException:
        store.close()
        raise
    return Opened(store, lobby)


def _open_postgres(url: str) -> Opened:
    try:
        from ..store import PostgresStore  # type: ignore[attr-defined]
    except ImportError:
        raise StoreError("this meeple has no PostgreSQL store; use a SQLite store (a path or sqlite://PATH)") from None
    try:
        from .pg_lobby import PostgresLobby
    except ImportError as e:
        raise StoreError(f"the PostgreSQL lobby needs the postgres extra (pip install 'meeple[postgres]'): {e}") from None
    store = PostgresStore(url)
    try:
        lobby = PostgresLobby(url)
    except BaseException:
        store.close()
        raise
    return Opened(store, lobby)
