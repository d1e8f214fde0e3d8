"""The errors of the stores, all below :class:`~meeple.engine.errors.MeepleError`."""

from __future__ import annotations

from ..engine.errors import MeepleError


class StoreError(MeepleError):
    """A store cannot do what was asked (a missing match, a bad address, an I/O failure)."""


class MatchNotFound(StoreError):
    """No match with that id (or file) is in the store."""


class StoreConflict(StoreError):
    """Another writer changed the match first; nothing was written.

    Raised when two copies of one match append concurrently (the store keeps
    the first and refuses the second instead of forking or losing a record),
    when a match is already open for writing elsewhere, when its file was
    replaced or changed behind the writer's back, or when a new match's id
    is taken. Reopen the match to continue from what the store holds.
    """


class MatchExists(StoreConflict):
    """A new match (or a copy) was to be stored under an id or a path that is taken."""


class StoreClosed(StoreError):
    """The store (or this match's handle on it) was closed; nothing was written.

    A match stays attached to the store that opened it: after
    ``store.close()`` its commands are refused rather than kept in memory
    only. Reopen the match from a store to continue.
    """


class ReadOnlyStore(StoreError):
    """The store was opened read-only (``readonly=True``) and was asked to write."""


class NotSupported(StoreError):
    """This kind of store does not offer the operation (for example ``listen`` on files)."""
