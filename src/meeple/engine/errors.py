"""The exceptions meeple raises, all below :class:`MeepleError`.

Three families stay apart, as in python-chess: input that cannot be *decoded*
(:class:`DecodeError` and the log errors), a command that is *illegal here*
(:class:`IllegalCommand`), and a *configuration* that makes no game
(:class:`ConfigError`, :class:`UnknownGame`).
"""

from __future__ import annotations

import enum
from typing import Any


class MeepleError(Exception):
    """Base class of every error the library raises on purpose."""


class ConfigError(MeepleError, ValueError):
    """Options, seat counts or variants that do not make a valid game."""


class UnknownGame(ConfigError):
    """No game of that id is registered (bundled or through an entry point)."""


class Code(enum.Enum):
    """Stable, machine-readable reasons for :class:`IllegalCommand`.

    Games may use any member; ``RULE`` is the general "the rules forbid this"
    whose message says which rule.
    """

    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    UNKNOWN_SEAT = "unknown_seat"
    UNKNOWN_COMMAND = "unknown_command"
    BAD_ARGUMENT = "bad_argument"
    NOT_IN_HAND = "not_in_hand"
    WRONG_PHASE = "wrong_phase"
    RULE = "rule"
    NOTHING_TO_UNDO = "nothing_to_undo"
    UNDO_BARRIER = "undo_barrier"
    NOTHING_TO_REDO = "nothing_to_redo"


class IllegalCommand(MeepleError):
    """A command that the rules do not allow now; the match is unchanged.

    ``code`` is a :class:`Code` a program can branch on, ``message`` tells the
    player what is wrong (and, where it helps, what to do instead), and
    ``command`` is the offending command.
    """

    def __init__(self, code: Code, message: str, command: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.command = command

    def __str__(self) -> str:
        return f"{self.message} [{self.code.value}]"


class BadPosition(MeepleError, IndexError):
    """A record position outside the match (``seek``, ``fork``)."""


class DecodeError(MeepleError, ValueError):
    """Primitive data (from msgpack, JSON or a client) that is not a valid value.

    ``path`` names where in the value the problem is, e.g. ``events[2].card``.
    """

    def __init__(self, message: str, path: str = "") -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.message = message


class LogError(MeepleError):
    """A log file or stream that cannot be read as a meeple log.

    ``offset`` is the byte offset and ``record`` the record number (0 is the
    first record after the header) where reading failed, when known.
    """

    def __init__(self, message: str, *, offset: int | None = None, record: int | None = None) -> None:
        where = []
        if record is not None:
            where.append(f"record {record}")
        if offset is not None:
            where.append(f"byte {offset}")
        super().__init__(f"{message} ({', '.join(where)})" if where else message)
        self.offset = offset
        self.record = record
        self.message = message


class ForeignFile(LogError):
    """The bytes do not start with the meeple log magic: not a meeple log."""


class TruncatedLog(LogError):
    """The log ends inside a frame: a torn tail, typically from a crash.

    ``intact`` is the number of complete records before the torn frame and
    ``intact_bytes`` the length of the intact prefix.
    """

    def __init__(self, message: str, *, offset: int, record: int, intact: int, intact_bytes: int) -> None:
        super().__init__(message, offset=offset, record=record)
        self.intact = intact
        self.intact_bytes = intact_bytes


class CorruptLog(LogError):
    """A frame is complete but its bytes are wrong (bad hash, bad encoding)."""


class UnsupportedLog(LogError):
    """A well-formed log this library cannot use (newer format, unknown rules version)."""
