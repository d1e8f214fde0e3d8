"""Which store a server runs on, from its ``--store`` address.

A server keeps its matches in a database store, and its lobby's tables
beside them in the same database, through the store's connection and SQL
dialect (:class:`~meeple.server.lobby.SqlLobby`): any backend registered in
:mod:`meeple.store.backends` whose store is a :class:`~meeple.store.SqlStore`
serves.

* nothing: ``meeple.db`` in the current directory, a SQLite store (one
  file, no set-up: ``meeple serve`` runs on a fresh machine);
* ``sqlite:PATH`` (``sqlite:///abs/path`` too), or a plain path that is not
  a directory: a SQLite store at ``PATH``;
* ``postgresql://...`` (or ``postgres://``): a PostgreSQL store (the
  ``postgres`` extra), in the schema of its ``schema=`` parameter
  (``meeple`` by default), where several server processes may serve the
  same matches.

These are the store addresses of :func:`meeple.store.parse_store`; a
directory (a file store) is refused, since a server needs a database.

>>> server_store(None).location, server_store("sqlite:///srv/m.db").location, server_store("games.db").kind
('meeple.db', '/srv/m.db', 'sqlite')
"""

from __future__ import annotations

import os
from typing import Any

import attrs

from ..store import Durability, Source, SqlStore, parse_store
from ..store.backends import backend, forms, schemes
from ..store.errors import StoreError
from .lobby import Lobby, SqlLobby

#: The store of a server started without ``--store``.
DEFAULT_STORE = "meeple.db"


def server_store(address: str | None) -> Source:
    """The store an address names, as a server uses it (see the module docstring); StoreError if none."""
    if address is None:
        return Source("sqlite", DEFAULT_STORE)
    if not isinstance(address, str) or not address:
        raise StoreError(f"a store is a path or {forms()}, not {address!r}")
    if "://" in address and not address.startswith(schemes()):
        raise StoreError(f"unknown store scheme in {address!r}; use a path or {forms()}")
    src = parse_store(address)
    if src.kind == "file":
        if os.path.isdir(src.location):
            raise StoreError(f"{src.location} is a directory: a server keeps its matches in a database "
                             f"(a SQLite file, or {forms()})")
        return Source("sqlite", src.location)
    return src


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


def open_store(address: str | None, durability: Durability = "fsync", *, origin: str | None = None) -> Opened:
    """Open the store an address names, and the lobby's tables beside it (StoreError if it cannot be).

    ``durability`` is the store's (:class:`~meeple.store.SqliteStore`,
    :class:`~meeple.store.PostgresStore`): ``"fsync"``, a command is on disk
    before any client hears of it; ``"flush"``, it survives the server
    process being killed but not the machine losing power. ``origin`` names
    this process in the notes the lobby writes to the store's change feed (the lobbies of one process share it),
    and on PostgreSQL in every notification of the store's (:attr:`meeple.store.PostgresStore.origin`).
    """
    if durability not in ("fsync", "flush"):
        raise StoreError(f"durability is 'fsync' or 'flush', not {durability!r}")
    src = server_store(address)
    if backend(src.kind).local:
        parent = os.path.dirname(os.path.abspath(src.location))
        if not os.path.isdir(parent):
            raise StoreError(f"cannot create the store {src.location}: the directory {parent} does not exist")
    store = src.open_store(durability=durability)
    try:
        if origin is not None and src.kind == "postgresql":  # its listener then leaves this process's commits out
            from ..store.postgres import PostgresStore  # (psycopg is there: it opened the store)

            if isinstance(store, PostgresStore):
                store.origin = origin
        if not isinstance(store, SqlStore):  # a backend registered without a database: nowhere for the lobby
            raise StoreError(f"a server keeps its lobby in the store's database; {src.kind} stores have none")
        lobby = SqlLobby(store, origin=origin)
    except BaseException:
        store.close()
        raise
    return Opened(store, lobby)
