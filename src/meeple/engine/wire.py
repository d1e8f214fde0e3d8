"""The JSON wire form of a game's commands, events, views and options: one form, both ways.

The log's compact form (``["place", 4]``: tag, then fields) suits bytes on
disk; the wire form suits JSON and people: an attrs value is an object of its
fields by name, and a command or event starts with its ``"type"`` tag::

    {"type": "bid", "quantity": 2, "face": 5}

Encoding (:func:`to_wire`) needs no game; decoding (:class:`Wire`) is
strict and type-directed, by the annotations of the game's classes as
:mod:`~meeple.engine.shapes` describes them (the description the log's codec
reads too): every
field must be present, no other key may be, each value must be of its
declared type (an integer is not a boolean, ``1.0`` is not an integer), enum
values and ``Literal`` choices must be known ones. The primitive checks are
the game codec's own (what :meth:`Match.play <meeple.engine.match.Match.play>`
applies), so a decoded command is well-typed by construction; whether it is
*legal* is for ``Match.play`` to say. Every failure is a
:class:`~meeple.engine.errors.DecodeError` whose ``path`` names the place
(``cards[1]``, ``goals[0].kind``).

>>> import liars_dice, meeple
>>> from meeple.engine.wire import to_wire, wire_for
>>> wire = wire_for(meeple.get_game("liars-dice"))
>>> to_wire(liars_dice.Bid(2, 5))
{'type': 'bid', 'quantity': 2, 'face': 5}
>>> wire.command({"type": "bid", "quantity": 2, "face": 5})
Bid(quantity=2, face=5)
>>> wire.command({"type": "bid", "quantity": True, "face": 5})
Traceback (most recent call last):
...
meeple.engine.errors.DecodeError: quantity: expected an integer, got bool

The rules, value by value (docs/protocol.md has the same table):

===========================  ====================================================================
value                        JSON
===========================  ====================================================================
attrs value                  object of its fields by name (commands, events: ``"type"`` first)
``int``, ``float``, ``str``  number, number, string
``bool``, ``None``           ``true`` or ``false``, ``null``
enum member                  its value
``tuple``                    array
``frozenset``                array, in the canonical order, no duplicates
``bytes``                    string, standard base64 with padding
mapping                      object if its keys are strings, else an array of ``[key, value]``
===========================  ====================================================================

A redacted command (:meth:`Game.redact_command <meeple.engine.game.Game.redact_command>`)
has ``null`` in its secret fields; decode one with ``command(data, redacted=True)``.
"""

from __future__ import annotations

import base64
import binascii
import enum
import threading
import typing
from collections.abc import Callable
from typing import Any

from .codec import Codec, pack, unstructure
from .errors import DecodeError
from .game import Command, Event, Game
from .match import codec_for
from .records import SeenRecord
from .shapes import Kind, Record, Shape, record_of, shape_of

#: What JSON data is, in Python: the values :func:`json.loads` returns.
Json = Any
_Encoder = Callable[[Any], Json]
_Decoder = Callable[[Json], Any]

_JSON_SCALARS = (str, int, float, bool, type(None))


def _order(value: Any) -> tuple[int, Any]:
    """The canonical order of set items and mapping keys: numbers, then strings, then the rest by their bytes."""
    prim = unstructure(value)
    if isinstance(prim, (int, float)) and not isinstance(prim, bool):
        return (0, prim)
    if isinstance(prim, str):
        return (1, prim)
    return (2, pack(prim))


def _at(err: DecodeError, step: str) -> DecodeError:
    """``err`` with ``step`` (a field name or ``[i]``) put in front of its path."""
    path = err.path
    if not path:
        full = step
    elif path.startswith("["):
        full = step + path
    else:
        full = f"{step}.{path}"
    return DecodeError(err.message, full)


def _kind(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, (int, float)):
        return "a number"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return "an array"
    if isinstance(v, dict):
        return "an object"
    return type(v).__name__


# -- encoding: annotation-directed where annotations say more than the value ----------

_encoders: dict[Any, _Encoder] = {}
#: the encoders being built (placeholders), and those built, by the build under way (see _encoder_of)
_building: dict[Any, _Encoder] = {}
_built: dict[Any, _Encoder] = {}
_building_lock = threading.RLock()


def to_wire(value: Any) -> Json:
    """The wire form of ``value`` (a command, event, view, option or any value they hold).

    >>> import enum
    >>> class Color(enum.Enum):
    ...     RED = "red"
    >>> to_wire((Color.RED, frozenset({3, 1}), None))
    ['red', [1, 3], None]
    """
    return _encoder_of(value.__class__)(value)


def encoder_for(tp: Any) -> Callable[[Any], Json]:
    """The wire encoder of values annotated ``tp`` (a field's type): what :func:`to_wire` applies to such a field.

    >>> encoder_for(tuple[frozenset[int], ...])((frozenset({2, 1}),))
    [[1, 2]]
    """
    return _encoder_of(tp)


def _encoder_of(tp: Any) -> _Encoder:
    fn = _encoders.get(tp)
    if fn is not None:
        return fn
    # Built by one thread at a time (a server encodes in several threads), and published only when the
    # outermost build is whole: an encoder of a recursive type calls its own placeholder, which another
    # thread must never meet before the encoder behind it exists.
    with _building_lock:
        fn = _encoders.get(tp) or _built.get(tp) or _building.get(tp)
        if fn is not None:
            return fn
        made: list[_Encoder] = []
        _building[tp] = lambda v: made[0](v)
        done = False
        try:
            made.append(_make_encoder(tp))
            _built[tp] = made[0]
            done = True
        finally:
            del _building[tp]
            if not _building:  # the outermost build: publish what it made, or drop it
                if done:
                    _encoders.update(_built)
                _built.clear()
        return made[0]


def _runtime(v: Any) -> Json:
    """Encode by the value's own class (for ``Any``, unions and base-class annotations)."""
    return None if v is None else _encoder_of(v.__class__)(v)


def _str_keyed(tp: Any) -> bool:
    """True if mapping keys of type ``tp`` are strings on the wire (JSON object keys)."""
    if tp is str:
        return True
    shape = shape_of(tp)
    if shape.kind is Kind.LITERAL:
        return all(isinstance(a, str) for a in shape.parts)
    return shape.kind is Kind.ENUM and all(isinstance(m.value, str) for m in tp)


def _make_encoder(tp: Any) -> _Encoder:
    shape = shape_of(tp)
    kind = shape.kind
    args = shape.args
    if tp is bytes:
        return lambda v: None if v is None else base64.b64encode(v).decode("ascii")
    if kind is Kind.SCALAR or kind is Kind.LITERAL:
        return lambda v: v.value if isinstance(v, enum.Enum) else v
    if kind is Kind.ANY or kind is Kind.UNION:
        return _runtime
    if kind is Kind.TUPLE or kind is Kind.FIXED or kind is Kind.LIST:
        if (kind is not Kind.FIXED and not shape.bare) or len(args) == 1:  # tuple[X, ...], list[X], tuple[X]
            if args[0] in _PLAIN:  # the commonest case (dice, counts, names) without a call per item
                return lambda v: None if v is None else [x.value if isinstance(x, enum.Enum) else x for x in v]
            item = _encoder_of(args[0])
            return lambda v: None if v is None else [item(x) for x in v]
        if args and all(a in _PLAIN for a in args):
            return lambda v: None if v is None else [x.value if isinstance(x, enum.Enum) else x for x in v]
        if args:
            items = [_encoder_of(a) for a in args]
            return lambda v: None if v is None else [f(x) for f, x in zip(items, v)]
        return lambda v: None if v is None else [_runtime(x) for x in v]
    if kind is Kind.SET:
        item = _encoder_of(args[0]) if args else _runtime
        return lambda v: None if v is None else [item(x) for x in sorted(v, key=_order)]
    if kind is Kind.MAP:
        key = _encoder_of(args[0]) if args else _runtime
        val = _encoder_of(args[1]) if args else _runtime
        as_object = _str_keyed(args[0]) if args else None

        def mapping(v: Any) -> Json:
            if v is None:
                return None
            pairs = sorted(v.items(), key=lambda kv: _order(kv[0]))
            if as_object or (as_object is None and all(isinstance(k, str) for k in v)):
                return {key(k): val(x) for k, x in pairs}
            return [[key(k), val(x)] for k, x in pairs]

        return mapping
    if kind is Kind.ENUM:
        return lambda v: None if v is None else v.value
    if shape.record is not None:  # an attrs class; an abstract message class that is one encodes its subclasses' way
        return _attrs_encoder(shape.record)
    if kind is Kind.MESSAGES:  # an abstract base (Command, Event): the value's class says
        return _runtime
    if isinstance(tp, type) and issubclass(tp, (int, float, str)):  # subclasses (IntEnum handled above)
        return lambda v: v
    raise TypeError(f"meeple has no wire form for the type {tp!r}")


#: Field types whose values are their own wire form (or None, in a redacted field).
_PLAIN = frozenset({int, str, bool, float, type(None)})


def _plain_items(tp: Any) -> bool:
    """True for ``tuple[X, ...]`` of a plain X: the wire form is the list of the items."""
    shape = shape_of(tp)
    return shape.kind is Kind.TUPLE and not shape.bare and shape.parts[0] in _PLAIN


def _attrs_encoder(record: Record) -> _Encoder:
    """An encoder generated for an attrs class: plain fields and tuples of them are inlined, the rest call their encoder."""
    tag = record.own_tag
    ns: dict[str, Any] = {"cls": record.cls, "_encoder_of": _encoder_of, "_PLAIN": frozenset(_JSON_SCALARS)}
    parts = [f"'type': {tag!r}"] if tag is not None else []
    for i, (name, tp) in enumerate(zip(record.names, record.types)):
        value = f"v.{name}"
        ns[f"e{i}"] = _encoder_of(tp)
        if tp in _PLAIN:  # a value of exactly its type is its own wire form (an enum in an int field is not)
            item = f"(x if (x := {value}).__class__ in _PLAIN else e{i}(x))"
        elif _plain_items(tp):
            item = f"(None if (x := {value}) is None else [*x] if _PLAIN.issuperset(map(type, x)) else e{i}(x))"
        else:
            item = f"e{i}({value})"
        parts.append(f"{name!r}: {item}")
    src = (
        "def encode(v):\n"
        "    if v.__class__ is not cls:\n"
        "        return None if v is None else _encoder_of(v.__class__)(v)  # a subclass, where the base is named\n"
        f"    return {{{', '.join(parts)}}}\n"
    )
    exec(src, ns)
    encode: _Encoder = ns["encode"]
    return encode


# -- decoding: strict, type-directed, the codec's own checks at the leaves -----------


class Wire:
    """Decodes one game's commands, events, views and other values from the wire form.

    >>> import liars_dice, meeple
    >>> wire = Wire(meeple.get_game("liars-dice"))
    >>> wire.event({"type": "rolled", "seat": 1, "dice": None})
    DiceRolled(seat=1, dice=None)
    >>> wire.command({"type": "bid", "quantity": 2})
    Traceback (most recent call last):
    ...
    meeple.engine.errors.DecodeError: face: missing field (a bid has quantity, face)
    """

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game
        self.codec: Codec = codec_for(game)
        self._decoders: dict[Any, _Decoder] = {}
        self._redacted: dict[type, _Decoder] = {}

    # -- public API ---------------------------------------------------------------
    def encode(self, value: Any) -> Json:
        """The wire form of ``value`` (the same as :func:`to_wire`)."""
        return to_wire(value)

    def decode(self, data: Json, tp: Any) -> Any:
        """A value of type ``tp`` from its wire form; :class:`DecodeError` naming the path if it is not one."""
        return self._decoder(tp)(data)

    def command(self, data: Json, *, redacted: bool = False) -> Command:
        """A command of this game from its wire form (``{"type": tag, field: value, ...}``).

        With ``redacted``, the fields the command's class declares ``secret``
        may be ``null``, as other seats are shown them.
        """
        if not redacted:
            return typing.cast(Command, self._decoder(Command)(data))
        cls = typing.cast(type[Command], self._tagged_class(data, self.game.commands))
        fn = self._redacted.get(cls)
        if fn is None:
            fn = self._redacted[cls] = self._attrs_decoder(cls, nullable=frozenset(cls.secret))
        return typing.cast(Command, fn(data))

    def event(self, data: Json) -> Event:
        """An event of this game from its wire form."""
        return typing.cast(Event, self._decoder(Event)(data))

    def view(self, data: Json) -> Any:
        """A view of this game (its ``view_type``) from its wire form."""
        if self.game.view_type is None:
            raise TypeError(f"{self.game.info.id} declares no view_type; decode with decode(data, tp)")
        return self._decoder(self.game.view_type)(data)

    def record(self, seen: SeenRecord) -> Json:
        """The wire form of a record as a seat sees it: ``{"seq", "actor", "command", "events"}``."""
        return {
            "seq": seen.seq,
            "actor": seen.actor,
            "command": to_wire(seen.command),
            "events": [to_wire(e) for e in seen.events],
        }

    def seen_record(self, data: Json) -> SeenRecord:
        """A :class:`SeenRecord` from the wire form :meth:`record` gives (its command may be redacted)."""
        if not isinstance(data, dict):
            raise DecodeError(f"expected a record object, got {_kind(data)}")
        _check_keys(data, ("seq", "actor", "command", "events"), "a record")
        seq, actor = data["seq"], data["actor"]
        for name, v in (("seq", seq), ("actor", actor)):
            if type(v) is not int:
                raise DecodeError(f"expected an integer, got {_kind(v)}", name)
        try:
            command = self.command(data["command"], redacted=True)
        except DecodeError as e:
            raise _at(e, "command") from None
        events = data["events"]
        if not isinstance(events, list):
            raise DecodeError(f"expected an array, got {_kind(events)}", "events")
        out = []
        for i, item in enumerate(events):
            try:
                out.append(self.event(item))
            except DecodeError as err:
                raise _at(err, f"events[{i}]") from None
        return SeenRecord(seq, actor, command, tuple(out))

    # -- decoders -------------------------------------------------------------------
    def _decoder(self, tp: Any) -> _Decoder:
        fn = self._decoders.get(tp)
        if fn is None:
            self._decoders[tp] = lambda v: fn(v)  # type: ignore[misc]  # placeholder for recursive types
            fn = self._make_decoder(tp)
            self._decoders[tp] = fn
        return fn

    def _make_decoder(self, tp: Any) -> _Decoder:
        shape = shape_of(tp)
        kind = shape.kind
        args = shape.args
        if tp is bytes:
            return _bytes
        if kind is Kind.UNION:
            return self._union_decoder(shape)
        if kind is Kind.TUPLE and not shape.bare:
            return _array(self._decoder(args[0]), tuple)
        if kind is Kind.FIXED:
            return self._fixed_decoder(args)
        if kind is Kind.LIST and not shape.bare:
            return _array(self._decoder(args[0]) if args else _any, list)
        if kind is Kind.SET and not shape.bare:
            return _set(self._decoder(args[0]) if args else _any)
        if kind is Kind.MAP and not shape.bare:
            key = self._decoder(args[0]) if args else _any
            val = self._decoder(args[1]) if args else _any
            return _mapping(key, val, _str_keyed(args[0]) if args else True)
        if kind is Kind.MESSAGES:
            return self._tagged_decoder(self.codec.members(tp))
        if kind is Kind.RECORD:
            return self._attrs_decoder(tp)
        # primitives, enums, Literal, Any: JSON scalars are msgpack scalars, so the codec's checks apply as they are
        return self.codec.hook(tp)

    def _union_decoder(self, shape: Shape) -> _Decoder:
        members, optional = shape.parts, shape.optional
        if members and shape.tagged:
            inner = self._tagged_decoder(members)
        elif len(members) == 1:
            inner = self._decoder(members[0])
        else:
            decoders = [self._decoder(a) for a in members]
            names = [getattr(a, "__name__", repr(a)) for a in members]

            def first_fit(v: Json) -> Any:
                for d in decoders:
                    try:
                        return d(v)
                    except DecodeError:
                        continue
                raise DecodeError(f"{_kind(v)} fits none of {names}")

            inner = first_fit
        if not optional:
            return inner
        return lambda v: None if v is None else inner(v)

    def _fixed_decoder(self, args: tuple[Any, ...]) -> _Decoder:
        decoders = [self._decoder(a) for a in args]
        n = len(decoders)

        def fixed(v: Json) -> tuple[Any, ...]:
            if not isinstance(v, list) or len(v) != n:
                got = f"an array of {len(v)}" if isinstance(v, list) else _kind(v)
                raise DecodeError(f"expected an array of {n}, got {got}")
            out = []
            for i, (d, x) in enumerate(zip(decoders, v)):
                try:
                    out.append(d(x))
                except DecodeError as e:
                    raise _at(e, f"[{i}]") from None
            return tuple(out)

        return fixed

    def _tagged_class(self, data: Json, members: tuple[type, ...]) -> type:
        if not isinstance(data, dict):
            raise DecodeError(f"expected an object with a \"type\", got {_kind(data)}")
        tag = data.get("type")
        for cls in members:
            if cls.__dict__.get("tag") == tag and isinstance(tag, str):
                return cls
        names = sorted(str(c.__dict__["tag"]) for c in members if c.__dict__.get("tag"))
        raise DecodeError(f"unknown type {tag!r}; expected one of {names}", "type")

    def _tagged_decoder(self, members: tuple[type, ...]) -> _Decoder:
        def tagged(v: Json) -> Any:
            return self._decoder(self._tagged_class(v, members))(v)

        return tagged

    def _attrs_decoder(self, cls: type, nullable: frozenset[str] = frozenset()) -> _Decoder:
        record = record_of(cls)
        fields = [(name, alias, self._decoder(tp), name in nullable)
                  for name, alias, tp in zip(record.names, record.aliases, record.types)]
        tag = record.own_tag
        keys = (("type",) if tag is not None else ()) + tuple(name for name, _, _, _ in fields)
        what = f"a {tag}" if tag is not None else f"a {cls.__name__}"

        def build(v: Json) -> Any:
            if not isinstance(v, dict):
                raise DecodeError(f"expected {what} object, got {_kind(v)}")
            if tag is not None and v.get("type") != tag:
                raise DecodeError(f"expected type {tag!r}, got {v.get('type')!r}", "type")
            _check_keys(v, keys, what)
            values: dict[str, Any] = {}
            for name, alias, dec, may_be_null in fields:
                x = v[name]
                if may_be_null and x is None:
                    values[alias] = None
                    continue
                try:
                    values[alias] = dec(x)
                except DecodeError as e:
                    raise _at(e, name) from None
            try:
                return cls(**values)
            except (TypeError, ValueError) as e:
                raise DecodeError(f"invalid {cls.__name__}: {e}") from None

        return build


def _check_keys(v: dict[str, Any], keys: tuple[str, ...], what: str) -> None:
    """Refuse an object that lacks one of ``keys`` or has any other."""
    fields = [k for k in keys if k != "type"]
    for k in keys:
        if k not in v:
            raise DecodeError(f"missing field ({what} has {', '.join(fields) or 'no fields'})", k)
    if len(v) != len(keys):
        extra = sorted(str(k) for k in v if k not in keys)
        raise DecodeError(f"unknown field ({what} has {', '.join(fields) or 'no fields'})", extra[0])


def _any(v: Json) -> Any:
    return v


def _bytes(v: Json) -> bytes:
    if not isinstance(v, str):
        raise DecodeError(f"expected a base64 string, got {_kind(v)}")
    try:
        return base64.b64decode(v.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        raise DecodeError("expected standard base64 with padding") from None


def _array(item: _Decoder, build: type) -> _Decoder:
    def array(v: Json) -> Any:
        if not isinstance(v, list):
            raise DecodeError(f"expected an array, got {_kind(v)}")
        out = []
        for i, x in enumerate(v):
            try:
                out.append(item(x))
            except DecodeError as e:
                raise _at(e, f"[{i}]") from None
        return build(out)

    return array


def _set(item: _Decoder) -> _Decoder:
    array = _array(item, list)

    def fset(v: Json) -> frozenset[Any]:
        items = array(v)
        out = frozenset(items)
        if len(out) != len(items):
            seen: set[Any] = set()
            for i, x in enumerate(items):
                if x in seen:
                    raise DecodeError("duplicate item in a set", f"[{i}]")
                seen.add(x)
        return out

    return fset


def _mapping(key: _Decoder, val: _Decoder, as_object: bool) -> _Decoder:
    def mapping(v: Json) -> dict[Any, Any]:
        out: dict[Any, Any] = {}
        if as_object:
            if not isinstance(v, dict):
                raise DecodeError(f"expected an object, got {_kind(v)}")
            items = list(v.items())
        else:
            if not isinstance(v, list):
                raise DecodeError(f"expected an array of [key, value] pairs, got {_kind(v)}")
            items = []
            for i, pair in enumerate(v):
                if not isinstance(pair, list) or len(pair) != 2:
                    raise DecodeError("expected a [key, value] pair", f"[{i}]")
                items.append((pair[0], pair[1]))
        for i, (k, x) in enumerate(items):
            step = f"[{k!r}]" if as_object else f"[{i}]"
            try:
                dk = key(k)
            except DecodeError as e:
                raise _at(e, step) from None
            if dk in out:
                raise DecodeError("duplicate key", step)
            try:
                out[dk] = val(x)
            except DecodeError as e:
                raise _at(e, step) from None
        return out

    return mapping


_wires: dict[int, Wire] = {}


def wire_for(game: Game[Any, Any]) -> Wire:
    """The (cached) :class:`Wire` of a game object."""
    w = _wires.get(id(game))
    if w is None or w.game is not game:
        w = _wires[id(game)] = Wire(game)
    return w


# -- describing types, for clients that build forms and menus ---------------------------


def describe(tp: Any) -> Json:
    """A JSON Schema (draft 2020-12 vocabulary) of the wire form of type ``tp``.

    >>> describe(tuple[int, ...])
    {'type': 'array', 'items': {'type': 'integer'}}
    """
    return _describe(tp, set())


_SIMPLE: dict[Any, Json] = {int: "integer", float: "number", str: "string", bool: "boolean", type(None): "null"}


def _describe(tp: Any, seen: set[Any]) -> Json:
    shape = shape_of(tp)
    kind = shape.kind
    args = shape.args
    if kind is Kind.SCALAR:
        return {"type": "string", "contentEncoding": "base64"} if tp is bytes else {"type": _SIMPLE[tp]}
    if kind is Kind.LITERAL:
        return {"enum": [a.value if isinstance(a, enum.Enum) else a for a in args]}
    if kind is Kind.UNION:
        return {"anyOf": [_describe(a, seen) for a in args]}
    if kind is Kind.TUPLE and not shape.bare:
        return {"type": "array", "items": _describe(args[0], seen)}
    if kind is Kind.FIXED:
        return {"type": "array", "prefixItems": [_describe(a, seen) for a in args], "items": False}
    if kind is Kind.LIST and not shape.bare:
        return {"type": "array", "items": _describe(args[0], seen) if args else {}}
    if kind is Kind.SET and not shape.bare:
        return {"type": "array", "items": _describe(args[0], seen) if args else {}, "uniqueItems": True}
    if kind is Kind.MAP and not shape.bare:
        if args and _str_keyed(args[0]):
            return {"type": "object", "additionalProperties": _describe(args[1], seen)}
        pair = [_describe(a, seen) for a in args] if args else [{}, {}]
        return {"type": "array", "items": {"type": "array", "prefixItems": pair, "items": False}}
    if kind is Kind.ENUM:
        return {"enum": [m.value for m in tp]}
    if shape.record is not None:  # an attrs class (an abstract message class that is one too)
        if tp in seen:
            return {"$comment": f"{tp.__name__} (recursive)"}
        seen = seen | {tp}
        record = shape.record
        props: dict[str, Json] = {}
        if record.own_tag is not None:
            props["type"] = {"const": record.own_tag}
        for name, field_type in zip(record.names, record.types):
            props[name] = _describe(field_type, seen)
        return {"type": "object", "title": tp.__name__, "properties": props, "required": list(props),
                "additionalProperties": False}
    return {}
