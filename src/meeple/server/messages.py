"""The protocol's messages, both ways: declared here, checked or built here, and nowhere else.

docs/protocol.md specifies each message. What a client may send is declared
in :data:`CLIENT_MESSAGES` (a socket's messages, checked by
:func:`parse_message`) and :data:`NEW_MATCH_FIELDS` (a match-creation
request, checked by :meth:`NewMatch.parse`); every refusal is a
:class:`~meeple.server.protocol.ServerError` with the field's code. What the
server sends is declared in :data:`SERVER_MESSAGES` and built by one function
per type (:func:`sync`, :func:`update`, :func:`rewind`, :func:`players`,
:func:`pong`, :func:`error`), each returning the JSON text sent.

>>> error(ServerError(ErrorCode.SPECTATOR, "spectators cannot play"), ref=7)
'{"type":"error","code":"spectator","message":"spectators cannot play","ref":7}'
>>> sorted(SERVER_MESSAGES["players"])
['players']
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable, Collection, Mapping
from typing import Any

import attrs

from ..engine.errors import ConfigError
from ..engine.game import Game
from ..engine.wire import Json
from .hygiene import check_encodable, clean_name
from .protocol import PROTOCOL_VERSION, ErrorCode, Limits, ServerError

# -- what a client sends ------------------------------------------------------------------

#: The message types a client may send on a socket, and the fields each takes besides ``type`` and ``id``.
CLIENT_MESSAGES: dict[str, dict[str, bool]] = {
    # field -> required
    "hello": {"protocol": False, "token": False, "cursor": False, "head": False, "lang": False, "picture": False},
    "play": {"cursor": True, "command": True},
    "undo": {"cursor": True},
    "redo": {"cursor": True},
    "sync": {},
    "ping": {},
}


def parse_message(text: str | None, data: bytes | None, limit: int) -> dict[str, Any]:
    """A client's WebSocket message as a checked JSON object, or :class:`ServerError` saying why not."""
    if text is None:
        raise ServerError(ErrorCode.BAD_JSON, "send JSON as text frames, not binary ones")
    if len(text) > limit or len(text.encode("utf-8", "surrogatepass")) > limit:
        raise ServerError(ErrorCode.TOO_LARGE, f"a message is at most {limit} bytes")
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise ServerError(ErrorCode.BAD_JSON, f"not JSON: {e}" if isinstance(e, ValueError) else "JSON nested too deeply") from None
    if not isinstance(msg, dict):
        raise ServerError(ErrorCode.BAD_JSON, "a message is a JSON object with a \"type\"")
    if not text.isascii() or "\\u" in text:  # else no string in it can be a lone surrogate
        check_encodable(msg)
    kind = msg.get("type")
    ref = msg.get("id")
    fields = CLIENT_MESSAGES.get(kind) if isinstance(kind, str) else None
    if fields is None:
        raise ServerError(ErrorCode.BAD_MESSAGE, f"unknown message type {kind!r}; types: {', '.join(CLIENT_MESSAGES)}")
    if ref is not None and not ((isinstance(ref, str) and len(ref) <= 128) or type(ref) is int):
        raise ServerError(ErrorCode.BAD_MESSAGE, "id: a string of up to 128 characters or an integer")
    for name, required in fields.items():
        if required and name not in msg:
            raise ServerError(ErrorCode.BAD_MESSAGE, f"{kind}: the field {name!r} is required", ref=ref)
    extra = sorted(k for k in msg if k not in fields and k not in ("type", "id"))
    if extra:
        raise ServerError(ErrorCode.BAD_MESSAGE, f"{kind}: unknown field {extra[0]!r}", ref=ref)
    cursor = msg.get("cursor")
    if cursor is not None and (type(cursor) is not int or cursor < 0):
        raise ServerError(ErrorCode.BAD_MESSAGE, f"{kind}: cursor is a record count (an integer >= 0)", ref=ref)
    for name in ("token", "head"):
        value = msg.get(name)
        if value is not None and (not isinstance(value, str) or len(value) > 256):
            raise ServerError(ErrorCode.BAD_MESSAGE, f"{kind}: {name} is a string", ref=ref)
    if "picture" in msg and not isinstance(msg["picture"], bool):
        raise ServerError(ErrorCode.BAD_MESSAGE, f"{kind}: picture is true or false", ref=ref)
    protocol = msg.get("protocol")
    if protocol is not None and type(protocol) is not int:
        raise ServerError(ErrorCode.BAD_MESSAGE, f"{kind}: protocol is an integer", ref=ref)
    return msg


def _is_clock(value: Any, limits: Limits) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, float)) and limits.min_clock <= value <= limits.max_clock


@attrs.frozen
class Field:
    """One field of a request: the code of the error when it is wrong, what it must be, and the check."""

    code: ErrorCode
    #: said in the error (formatted with ``limits``)
    must_be: str
    check: Callable[[Any, Limits], bool]
    required: bool = False
    #: whether null is a value of it (the same as leaving it out)
    nullable: bool = False


#: The fields of a match-creation request (``POST /api/matches``), as :meth:`NewMatch.parse` checks them. What
#: depends on the game (its variants, seat range, options, bots) is checked where the match is made.
NEW_MATCH_FIELDS: dict[str, Field] = {
    "game": Field(ErrorCode.BAD_MESSAGE, "the id of a game is required (see GET /api/games)",
                  lambda v, _: isinstance(v, str), required=True),
    "variant": Field(ErrorCode.BAD_CONFIG, "the name of one of the game's variants", lambda v, _: isinstance(v, str)),
    "seats": Field(ErrorCode.BAD_CONFIG, "a number of seats", lambda v, _: type(v) is int),
    "options": Field(ErrorCode.BAD_CONFIG, "an object of option names and values", lambda v, _: isinstance(v, dict)),
    "bots": Field(ErrorCode.BAD_CONFIG, 'an object of seat numbers and bot names, e.g. {{"1": "random"}}',
                  lambda v, _: isinstance(v, dict)),
    "fallback_bot": Field(ErrorCode.UNKNOWN_BOT, "the name of one of the game's bots", lambda v, _: isinstance(v, str)),
    "clock": Field(ErrorCode.BAD_CONFIG, "seconds per move, {limits.min_clock}..{limits.max_clock:g}, or null",
                   _is_clock, nullable=True),
    "name": Field(ErrorCode.BAD_CONFIG, "up to 80 printable characters", lambda v, _: isinstance(v, str)),
}
#: The longest match name.
MAX_MATCH_NAME = 80
_SEAT_KEY = re.compile(r"0|[1-9][0-9]{0,5}")


@attrs.frozen
class NewMatch:
    """A checked match-creation request; ``id`` is the new match's, drawn when it is parsed."""

    game: str
    variant: str | None = None
    seats: int | None = None
    options: dict[str, Json] = attrs.field(factory=dict)
    bots: dict[int, str] = attrs.field(factory=dict)
    fallback_bot: str | None = None
    clock: float | None = None
    name: str = ""
    id: str = attrs.field(factory=lambda: uuid.uuid4().hex)

    @classmethod
    def parse(cls, body: Mapping[str, Any], limits: Limits) -> NewMatch:
        """The request ``body`` (a decoded JSON object) checked against :data:`NEW_MATCH_FIELDS` and ``limits``.

        >>> NewMatch.parse({"game": "kings", "clock": 30}, Limits()).clock
        30.0
        >>> NewMatch.parse({"game": "kings", "bots": {"x": "random"}}, Limits())
        Traceback (most recent call last):
        ...
        meeple.server.protocol.ServerError: bots: there is no seat 'x'
        """
        extra = sorted(str(k) for k in body if k not in NEW_MATCH_FIELDS)
        if extra:
            raise ServerError(ErrorCode.BAD_MESSAGE,
                              f"unknown field {extra[0]!r}; a match takes {', '.join(sorted(NEW_MATCH_FIELDS))}")
        for name, field in NEW_MATCH_FIELDS.items():
            if name not in body and not field.required:
                continue
            value = body.get(name)
            if not (value is None and field.nullable) and (value is None or not field.check(value, limits)):
                must_be = field.must_be.format(limits=limits)
                raise ServerError(field.code, f"{name}: {must_be}" + (f"; not {value!r}" if name in body else ""))
        bots: dict[int, str] = {}
        for key, bot in body.get("bots", {}).items():
            if not _SEAT_KEY.fullmatch(str(key)):
                raise ServerError(ErrorCode.UNKNOWN_SEAT, f"bots: there is no seat {key!r}")
            if not isinstance(bot, str):
                raise ServerError(ErrorCode.UNKNOWN_BOT, f"bots: a bot is named by a string, not {bot!r}")
            bots[int(key)] = bot
        name = body.get("name") or ""
        if name:
            name = clean_name(name, "name", MAX_MATCH_NAME, code=ErrorCode.BAD_CONFIG)
        clock = body.get("clock")
        return cls(body["game"], body.get("variant"), body.get("seats"), body.get("options", {}), bots,
                   body.get("fallback_bot"), None if clock is None else float(clock), name)

    def settle(self, game: Game[Any, Any], bots: Collection[str], fallback: str) -> tuple[str, int, dict[str, Json], str]:
        """The request for ``game`` (whose bots are ``bots``, default fallback ``fallback``), checked as the game
        makes it: the variant, seat count, options (the variant's, then the request's) and fallback bot to make.
        """
        gid, info = self.game, game.info
        variant = info.variants[0] if self.variant is None else self.variant
        if variant not in info.variants:
            raise ServerError(ErrorCode.BAD_CONFIG, f"{gid} has no variant {variant!r}; variants: {', '.join(info.variants)}")
        low, high = info.seat_range(variant)
        seats = low if self.seats is None else self.seats
        if not low <= seats <= high:
            raise ServerError(ErrorCode.BAD_CONFIG, f"{gid} {variant} is for {low}-{high} seats, not {seats!r}")
        try:
            options = {**game.variant_options(variant), **self.options}
        except ConfigError as e:
            raise ServerError(ErrorCode.BAD_CONFIG, str(e)) from None
        names = ", ".join(sorted(bots))
        for seat, bot in self.bots.items():
            if seat >= seats:
                raise ServerError(ErrorCode.UNKNOWN_SEAT, f"bots: there is no seat {str(seat)!r}; seats are 0..{seats - 1}")
            if bot not in bots:
                raise ServerError(ErrorCode.UNKNOWN_BOT, f"bots: {gid} has no bot {bot!r}; bots: {names}")
        fallback = fallback if self.fallback_bot is None else self.fallback_bot
        if fallback not in bots:
            raise ServerError(ErrorCode.UNKNOWN_BOT, f"fallback_bot: {gid} has no bot {fallback!r}; bots: {names}")
        return variant, seats, options, fallback


# -- what the server sends ----------------------------------------------------------------

#: The fields of a position message (``sync``, ``update``, ``rewind``) that say what the seat sees and may do
#: there. A ``sync`` carries them all; an ``update`` or a ``rewind`` carries them all or, to a client of protocol 2
#: or later that holds a position, a ``delta`` from it instead (docs/protocol.md, "Deltas").
STATE_FIELDS = frozenset({"view", "legal", "legal_text", "undo", "redo", "clock", "outcome",
                          "to_act"})
#: The fields of every position message: where the match stands, and what the seat sees and may do there.
POSITION_FIELDS = frozenset({"cursor", "head"}) | STATE_FIELDS
#: The message types the server sends on a socket, and the fields each always carries besides ``type``. An
#: answer to a request adds ``ref`` (the request's ``id``); an ``error`` may add :data:`ERROR_FIELDS`; an
#: ``update`` or ``rewind`` may carry ``delta`` instead of :data:`STATE_FIELDS`.
SERVER_MESSAGES: dict[str, frozenset[str]] = {
    "sync": POSITION_FIELDS | {"protocol", "match", "game", "seats", "seat", "from", "records", "players"},
    "update": POSITION_FIELDS | {"cause", "by", "from", "records"},
    "rewind": POSITION_FIELDS | {"cause", "by"},
    "players": frozenset({"players"}),
    "error": frozenset({"code", "message"}),
    "pong": frozenset(),
}
#: What a position message carries besides :data:`POSITION_FIELDS` for a client whose ``hello`` asked for it.
POSITION_EXTRA = frozenset({"picture"})
#: What an ``error`` may carry besides its code and message, by code (docs/protocol.md, "Errors").
ERROR_FIELDS = frozenset({"path", "reason", "cursor", "head", "retry_after"})

_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


def _dumps_json(message: Any) -> str:
    return _ENCODER.encode(message)


try:  # orjson (the server extra) encodes a view several times faster, and its per-call cost is a tenth of json's
    import orjson

    def _dumps(message: Any) -> str:
        try:
            return orjson.dumps(message).decode()
        except TypeError:  # what orjson does not take (an integer beyond 64 bits, a lone surrogate): as json does
            return _ENCODER.encode(message)
except ImportError:  # pragma: no cover - without the server extra
    _dumps = _dumps_json


def dumps(message: Any) -> str:
    """A message as the JSON text the server sends (compact, UTF-8 kept); with orjson when it is installed."""
    return _dumps(message)


def with_field(text: str, name: str, json_text: str) -> str:
    """The JSON object ``text`` with the field ``name`` (already JSON: ``json_text``) added at its end."""
    return f'{text[:-1]},"{name}":{json_text}}}' if text != "{}" else f'{{"{name}":{json_text}}}'


def answer(text: str, ref: Json) -> str:
    """A message's text as the answer to the request whose ``id`` was ``ref`` (unchanged if ``ref`` is None)."""
    return text if ref is None else with_field(text, "ref", dumps(ref))


def state_members(state: dict[str, Json], legal: str, legal_text: str) -> str:
    """The JSON text of a position's :data:`STATE_FIELDS` as members of an object (no braces), to put in a message.

    ``state`` holds the view, undo, redo, clock and outcome; ``legal`` and
    ``legal_text`` are JSON texts already.

    >>> state_members({"view": {}, "redo": False}, "[]", '["bid"]')
    '"view":{},"redo":false,"legal":[],"legal_text":["bid"]'
    """
    return f'{dumps(state)[1:-1]},"legal":{legal},"legal_text":{legal_text}'


def _position(body: dict[str, Json], where: dict[str, Json], state: str) -> str:
    body.update(where)
    return f"{dumps(body)[:-1]},{state}}}"


def sync(*, match: str, game: str, seats: int, seat: int | None, where: dict[str, Json], start: int,
         records: list[Json], state: str, players: list[Json], protocol: int = PROTOCOL_VERSION) -> str:
    """``sync``: the whole position as ``seat`` sees it, its records from ``start`` on.

    ``where`` is the cursor and head, ``state`` the seat's view, legal commands, undo, redo, clock, outcome and
    the seats to act (:func:`state_members`); ``protocol`` is the version the connection speaks.
    """
    body: dict[str, Json] = {"type": "sync", "protocol": protocol, "match": match, "game": game,
                             "seats": seats, "seat": seat, "from": start, "records": records, "players": players}
    return _position(body, where, state)


def where_members(cursor: int, head: str) -> str:
    """The JSON text of a position message's ``cursor`` and ``head``, as members of an object (no braces).

    >>> where_members(3, "ab")
    '"cursor":3,"head":"ab"'
    """
    return f'"cursor":{int(cursor)},"head":{dumps(head)}'


def change_opening(kind: str, cause: str, by: int | None) -> str:
    """The beginning of an ``update`` or ``rewind`` (``kind``) for ``cause`` and ``by``: the text that every
    client's message of one change starts with (see :func:`change`).

    >>> change_opening("rewind", "undo", 1)
    '{"type":"rewind","cause":"undo","by":1'
    """
    return f'{{"type":{dumps(kind)},"cause":{dumps(cause)},"by":{dumps(by)}'


def change(opening: str, where: str, *, start: int | None = None, records: str | None = None,
           state: str | None = None, delta: str | None = None, ref: str | None = None) -> str:
    """An ``update`` or ``rewind`` put together from JSON texts built once for every client they are alike for.

    ``opening`` is :func:`change_opening`'s, ``where`` :func:`where_members`'; an ``update`` has ``start`` and
    ``records`` (the JSON text of its list of records), a ``rewind`` neither. It carries ``state``
    (:func:`state_members`) or ``delta``, and with ``ref`` (a JSON text) it answers the request whose ``id`` that
    is. The text is :func:`update`'s or :func:`rewind`'s for the same values, byte for byte, with
    :func:`answer`'s ``ref``.

    >>> change(change_opening("update", "play", 0), where_members(2, "ab"), start=1, records="[]", delta="[]", ref="7")
    '{"type":"update","cause":"play","by":0,"from":1,"records":[],"cursor":2,"head":"ab","delta":[],"ref":7}'
    """
    parts = [opening]
    if records is not None:
        parts.append(f',"from":{int(start or 0)},"records":{records}')
    parts += (",", where)
    if delta is not None:
        parts += (',"delta":', delta)
    else:
        assert state is not None
        parts += (",", state)
    if ref is not None:
        parts += (',"ref":', ref)
    parts.append("}")
    return "".join(parts)


def update(*, cause: str, by: int | None, where: dict[str, Json], start: int, records: list[Json],
           state: str | None, delta: str | None = None) -> str:
    """``update``: records were added after cursor ``start`` (``cause``: play, bot, clock, redo or remote).

    It carries ``state`` (:func:`state_members`) or, with ``delta`` (the JSON text of a patch,
    :mod:`meeple.server.delta`), that instead. (:func:`change` builds the same text from parts encoded before.)
    """
    return change(change_opening("update", cause, by), _where(where), start=start, records=dumps(records),
                  state=state, delta=delta)


def rewind(*, cause: str, by: int | None, where: dict[str, Json], state: str | None, delta: str | None = None) -> str:
    """``rewind``: the cursor went back to ``where["cursor"]`` (an undo); ``state`` or ``delta`` as for :func:`update`."""
    return change(change_opening("rewind", cause, by), _where(where), state=state, delta=delta)


def _where(where: dict[str, Json]) -> str:
    cursor, head = where["cursor"], where["head"]
    assert type(cursor) is int and isinstance(head, str) and len(where) == 2
    return where_members(cursor, head)


def players(rows: list[Json]) -> str:
    """``players``: the seats as everyone may see them."""
    return dumps({"type": "players", "players": rows})


def pong(ref: Json) -> str:
    """``pong``: the answer to ``ping`` (its ``ref`` even when null)."""
    return dumps({"type": "pong", "ref": ref})


def error(e: ServerError, ref: Json = None) -> str:
    """``error``: the refusal ``e``, as the answer to the request whose ``id`` was ``ref``.

    The one place an error message is built (an HTTP error body is
    ``{"error": e.body()}``).
    """
    body: dict[str, Json] = {"type": "error", **e.body()}
    if ref is not None:
        body["ref"] = ref
    return dumps(body)
