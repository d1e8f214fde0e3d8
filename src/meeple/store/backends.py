"""The kinds of database store, each one registration: the URL schemes it answers to and how it opens.

A store address or source that starts with a registered scheme is that
backend's; anything else is a path (a log file, or a directory of them).
:mod:`meeple.store.sources`, the server's ``--store`` and the ``meeple``
command read addresses through this registry alone, so a backend added here
is known to all of them, and its forms show in their error messages.

The bundled backends:

* ``sqlite``, scheme ``sqlite:``: the location is the database file's path,
  taken as written;
* ``postgresql``, schemes ``postgresql://`` and ``postgres://``: the location
  is the libpq URL, less meeple's own ``schema=`` parameter.

>>> backend_for("postgres://db/meeple").kind, backend_for("sqlite:m.db").kind, backend_for("m.meeple") is None
('postgresql', 'sqlite', True)
>>> schemes()
('sqlite:', 'postgresql://', 'postgres://')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, urlencode

import attrs

from .base import Durability, Store
from .errors import StoreError

if TYPE_CHECKING:
    from .postgres import PostgresStore

#: ``open(location, schema, readonly, durability) -> Store``.
Opener = Callable[[str, "str | None", bool, Durability], Store]


@attrs.frozen
class Backend:
    """A kind of database store.

    ``schemes`` are the prefixes of its addresses (the first is how the
    docs and messages write it); ``read`` turns an address without its
    ``#MATCH_ID`` into ``(location, schema)`` and raises
    :class:`StoreError` for a malformed one; ``open`` opens the store.
    ``local`` says the location is a file on this machine, so that reading
    a missing one is "no such store", never a new empty store.
    """

    kind: str
    title: str
    schemes: tuple[str, ...]
    form: str
    read: Callable[[str], tuple[str, str | None]]
    open: Opener
    local: bool = False


_backends: dict[str, Backend] = {}


def register_backend(backend: Backend) -> None:
    """Make ``backend`` known to every reader of store addresses (replacing one of the same kind)."""
    taken = {s: b.kind for b in _backends.values() if b.kind != backend.kind for s in b.schemes}
    clash = [s for s in backend.schemes if s in taken or any(s.startswith(t) or t.startswith(s) for t in taken)]
    if clash:
        raise StoreError(f"the schemes {clash} of {backend.kind} overlap those of another backend")
    _backends[backend.kind] = backend


def backends() -> tuple[Backend, ...]:
    """Every registered backend, in the order registered."""
    return tuple(_backends.values())


def backend(kind: str) -> Backend:
    """The backend of ``kind``; :class:`StoreError` if none is registered."""
    try:
        return _backends[kind]
    except KeyError:
        raise StoreError(f"no store backend {kind!r}; known: {', '.join(_backends)}") from None


def backend_for(address: str) -> Backend | None:
    """The backend whose scheme ``address`` starts with; None for a path."""
    for b in _backends.values():
        if address.startswith(b.schemes):
            return b
    return None


def schemes() -> tuple[str, ...]:
    """Every registered scheme (``sqlite:``, ``postgresql://``, ...)."""
    return tuple(s for b in _backends.values() for s in b.schemes)


def forms(suffix: str = "") -> str:
    """The registered address forms for a message, each followed by ``suffix`` (``"#MATCH_ID"``)."""
    return ", ".join(f"{b.form}{suffix}" for b in _backends.values())


# -- the bundled backends -----------------------------------------------------------------------


def _read_sqlite(where: str) -> tuple[str, str | None]:
    path = where[len("sqlite:"):]
    if path.startswith("//"):
        path = path[2:]
    if path.startswith("//"):  # sqlite:////abs (four slashes) is absolute too
        path = "/" + path.lstrip("/")
    if not path:
        raise StoreError(f"a SQLite source is sqlite:PATH#MATCH_ID, not {where!r}")
    return path, None


def _open_sqlite(location: str, schema: str | None, readonly: bool, durability: Durability) -> Store:
    from .sqlite import SqliteStore

    return SqliteStore(location, durability, readonly=readonly)


def _read_postgres(where: str) -> tuple[str, str | None]:
    base, q, query = where.partition("?")
    if not q:
        return where, None
    params = parse_qsl(query, keep_blank_values=True)
    schema = next((v for k, v in params if k == "schema"), None)
    rest = [(k, v) for k, v in params if k != "schema"]
    return base + ("?" + urlencode(rest) if rest else ""), schema


def _open_postgres(location: str, schema: str | None, readonly: bool, durability: Durability) -> PostgresStore:
    try:
        from .postgres import PostgresStore
    except ImportError:
        raise StoreError("PostgreSQL stores need psycopg: pip install 'meeple[postgres]'") from None
    if schema is None:
        return PostgresStore(location, durability, readonly=readonly)
    return PostgresStore(location, durability, schema=schema, readonly=readonly)


register_backend(Backend("sqlite", "SQLite", ("sqlite:",), "sqlite:PATH", _read_sqlite, _open_sqlite, local=True))
register_backend(Backend("postgresql", "PostgreSQL", ("postgresql://", "postgres://"), "postgresql://...",
                         _read_postgres, _open_postgres))

__all__ = ["Backend", "backend", "backend_for", "backends", "forms", "register_backend", "schemes"]
