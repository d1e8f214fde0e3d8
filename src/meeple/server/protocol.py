"""The vocabulary of the server's protocol: its version, error codes, close codes and limits.

docs/protocol.md specifies every message; this module is the one place the
codes are spelled, so the server, its tests and its documentation agree.
"""

from __future__ import annotations

import enum
from typing import Any

import attrs

from ..engine.errors import Code, MeepleError

#: Raised whenever a message changes meaning; a client sends the version it speaks in ``hello``. Version 2
#: sends ``update`` and ``rewind`` as deltas from the position the connection holds (docs/protocol.md).
PROTOCOL_VERSION = 2
#: Every version this server speaks: a client of version 1 is sent whole positions, as before deltas.
PROTOCOLS = frozenset({1, 2})
#: The first version whose clients are sent deltas.
DELTAS_SINCE = 2


class ErrorCode(enum.StrEnum):
    """Why the server refused a request: the ``code`` of an ``error`` message or an HTTP error body.

    Each is sent to the client that made the request only; the match and the
    other clients are unaffected.
    """

    #: The message is not JSON text, not a JSON object, or a binary frame.
    BAD_JSON = "bad_json"
    #: The message is larger than the server's limit (``max_message_bytes``).
    TOO_LARGE = "too_large"
    #: The message is JSON but not a message of the protocol (unknown ``type``, a missing or extra field).
    BAD_MESSAGE = "bad_message"
    #: The first message on a socket was not ``hello``, or a second ``hello`` came.
    HELLO_FIRST = "hello_first"
    #: ``hello`` named a protocol version this server does not speak.
    BAD_VERSION = "bad_version"
    #: The seat token is not one of this match's.
    BAD_TOKEN = "bad_token"
    #: No match with that id.
    UNKNOWN_MATCH = "unknown_match"
    #: No game with that id.
    UNKNOWN_GAME = "unknown_game"
    #: The game has no bot of that name.
    UNKNOWN_BOT = "unknown_bot"
    #: Seat number out of range.
    UNKNOWN_SEAT = "unknown_seat"
    #: The seat asked for is a bot's or already taken.
    SEAT_TAKEN = "seat_taken"
    #: Every human seat of the match is taken.
    NO_FREE_SEAT = "no_free_seat"
    #: Game, variant, seats, options, bots or clock that make no match.
    BAD_CONFIG = "bad_config"
    #: A spectator asked to play, undo or redo.
    SPECTATOR = "spectator"
    #: The command, undo or redo was decided on a position that is no longer the match's.
    STALE_CURSOR = "stale_cursor"
    #: The command does not decode as one of the game's commands (``path`` says where).
    BAD_COMMAND = "bad_command"
    #: The seat may not act now.
    NOT_YOUR_TURN = "not_your_turn"
    #: The match is over.
    GAME_OVER = "game_over"
    #: The rules refuse the command (``reason`` is the engine's code, e.g. ``rule``, ``not_in_hand``).
    ILLEGAL_COMMAND = "illegal_command"
    #: The seat may not undo now (``reason``: ``nothing_to_undo`` or ``undo_barrier``).
    UNDO_REFUSED = "undo_refused"
    #: Nothing of this seat's waits to be redone.
    REDO_REFUSED = "redo_refused"
    #: Another server process changed the match first; a ``sync`` follows.
    CONFLICT = "conflict"
    #: The store could not write; nothing happened.
    STORE_ERROR = "store_error"
    #: A request the server has no route for (HTTP only).
    NOT_FOUND = "not_found"
    #: An HTTP method the route does not take (HTTP only).
    METHOD_NOT_ALLOWED = "method_not_allowed"
    #: A fault of the server itself; logged there. The match is unchanged.
    INTERNAL_ERROR = "internal_error"
    #: Replay debugger: the upload is not a meeple log that can be read at all (``reason`` says why).
    BAD_LOG = "bad_log"
    #: Replay debugger: no opened log with that id (it was never opened, or was closed to make room).
    UNKNOWN_LOG = "unknown_log"
    #: Replay debugger: a match of the server opens only once it is over (its log is the referee's secret until then).
    MATCH_IN_PROGRESS = "match_in_progress"
    #: Replay debugger: the log hides its seed, so it can be replayed but not forked or re-decided.
    SEED_HIDDEN = "seed_hidden"
    #: The request's ``Host`` header names a host this server does not serve (``--allowed-hosts``; DNS rebinding).
    BAD_HOST = "bad_host"
    #: A browser page of another site (its ``Origin``) tried to change something here (cross-site request forgery).
    BAD_ORIGIN = "bad_origin"
    #: A request body that is not ``application/json`` (the debugger's upload also takes ``application/octet-stream``).
    BAD_CONTENT_TYPE = "bad_content_type"
    #: This client (its address, or its seat token) asks faster than its rate allows; ``retry_after`` says when to.
    RATE_LIMITED = "rate_limited"
    #: This client holds as much as it may at once (open sockets, bytes of opened logs): close some first.
    OVER_QUOTA = "over_quota"
    #: The server holds as much as it may for all clients together (the debugger's opened logs); try later.
    SERVER_BUSY = "server_busy"
    #: The server holds ``Limits.max_unjoined`` matches that nobody has joined yet: join one, or try later.
    TOO_MANY_OPEN_MATCHES = "too_many_open_matches"


class CloseCode(enum.IntEnum):
    """WebSocket close codes the server uses (RFC 6455 and the 4000-4999 private range)."""

    NORMAL = 1000
    GOING_AWAY = 1001
    #: The client fell too far behind in reading (its queue overflowed); reconnect to resync.
    TOO_SLOW = 1013
    #: ``hello`` named a token that is not one of the match's.
    BAD_TOKEN = 4401
    #: No match with that id.
    UNKNOWN_MATCH = 4404
    #: No ``hello`` within ``hello_timeout`` seconds, or another message first.
    HELLO_FIRST = 4408
    #: Refused before it opened: a Host or Origin this server does not serve (``bad_host``, ``bad_origin``).
    FORBIDDEN = 4403
    #: The client's address opens sockets faster than its rate or holds as many as it may.
    RATE_LIMITED = 4429
    #: The client speaks another protocol version.
    BAD_VERSION = 4426


#: The HTTP status of each error code where the lobby answers with it.
HTTP_STATUS: dict[ErrorCode, int] = {
    ErrorCode.BAD_JSON: 400,
    ErrorCode.TOO_LARGE: 413,
    ErrorCode.BAD_MESSAGE: 400,
    ErrorCode.BAD_CONFIG: 400,
    ErrorCode.UNKNOWN_GAME: 404,
    ErrorCode.UNKNOWN_MATCH: 404,
    ErrorCode.UNKNOWN_BOT: 400,
    ErrorCode.UNKNOWN_SEAT: 400,
    ErrorCode.SEAT_TAKEN: 409,
    ErrorCode.NO_FREE_SEAT: 409,
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.METHOD_NOT_ALLOWED: 405,
    ErrorCode.STORE_ERROR: 503,
    ErrorCode.INTERNAL_ERROR: 500,
    ErrorCode.BAD_LOG: 422,
    ErrorCode.UNKNOWN_LOG: 404,
    ErrorCode.MATCH_IN_PROGRESS: 409,
    ErrorCode.SEED_HIDDEN: 409,
    ErrorCode.BAD_HOST: 400,
    ErrorCode.BAD_ORIGIN: 403,
    ErrorCode.BAD_CONTENT_TYPE: 415,
    ErrorCode.RATE_LIMITED: 429,
    ErrorCode.OVER_QUOTA: 429,
    ErrorCode.SERVER_BUSY: 503,
    ErrorCode.TOO_MANY_OPEN_MATCHES: 429,
}

#: The engine's refusal codes that have a code of their own here; the rest are ``illegal_command``.
_ENGINE_CODES: dict[Code, ErrorCode] = {
    Code.NOT_YOUR_TURN: ErrorCode.NOT_YOUR_TURN,
    Code.GAME_OVER: ErrorCode.GAME_OVER,
    Code.NOTHING_TO_UNDO: ErrorCode.UNDO_REFUSED,
    Code.UNDO_BARRIER: ErrorCode.UNDO_REFUSED,
    Code.NOTHING_TO_REDO: ErrorCode.REDO_REFUSED,
}


def engine_code(code: Code) -> ErrorCode:
    """The protocol's code for an :class:`~meeple.engine.errors.IllegalCommand` code."""
    return _ENGINE_CODES.get(code, ErrorCode.ILLEGAL_COMMAND)


class ServerError(MeepleError):
    """A request refused with a protocol :class:`ErrorCode`, a sentence, and extra fields for the client."""

    def __init__(self, code: ErrorCode, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        """The error as the JSON object the client receives (without ``type`` or ``ref``)."""
        return {"code": self.code.value, "message": self.message, **self.extra}

    @property
    def status(self) -> int:
        """The HTTP status for this error."""
        return HTTP_STATUS.get(self.code, 400)


@attrs.frozen
class Limits:
    """The bounds the server holds every client to (see docs/server.md for how to choose them)."""

    #: The largest WebSocket message or HTTP body accepted, in bytes (UTF-8).
    max_message_bytes: int = 64 * 1024
    #: Seconds a new socket has to send ``hello``.
    hello_timeout: float = 10.0
    #: Messages waiting to be sent to one client before it is closed as too slow (TOO_SLOW).
    outbox: int = 1024
    #: The longest per-move clock a match may ask for, in seconds.
    max_clock: float = 7 * 24 * 3600.0
    #: The shortest.
    min_clock: float = 0.05
    #: The longest player name.
    max_name: int = 40
    #: The most matches one listing returns.
    max_list: int = 500
    #: Memory for hosted matches, in bytes (estimated per match from its records, see ``Table.footprint``):
    #: beyond it, matches nobody is connected to and nothing is waiting for are dropped from memory, least
    #: recently used first, and read again from the store when asked for.
    max_hosted_bytes: int = 256 * 1024 * 1024
    #: Matches with seats for people of which none is taken yet, per server process: creating one more is
    #: refused (``too_many_open_matches``) until one is joined.
    max_unjoined: int = 10_000
