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
    when a match is already open for writing elsewhere, or when a new match's
    id is taken. Reopen the match to continue from what the store holds.
    """
