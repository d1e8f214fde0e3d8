"""What a type is, to the codecs: found once per type and read by every walker.

The msgpack codec (:mod:`~meeple.engine.codec`: the log and the hashes), the
JSON wire form (:mod:`~meeple.engine.wire`), :func:`~meeple.engine.codec.readable`
and :func:`~meeple.engine.wire.describe` all walk the same attrs types. None
of them takes an annotation apart itself: each asks :func:`shape_of` what an
annotation is (its :class:`Kind` and its parts) and :func:`record_of` what an
attrs class holds (its tag, its fields in order, whether building it is only
setting its slots), and generates its own code from that answer, once per
type. So a new kind of field is taught to all of them in one place, and they
cannot disagree on what a field is.

:func:`value_shape` answers the same question about the class of a value in
hand (a runtime class, where ``int``, ``tuple`` or ``Mapping`` subclasses count
as their base), for the walkers that go by the value rather than by the
annotation (``unstructure``, ``readable``).

>>> shape_of(tuple[int, ...]).kind, shape_of(tuple[int, ...]).parts
(<Kind.TUPLE: 'tuple'>, (<class 'int'>,))
>>> s = shape_of(int | None)
>>> s.kind, s.parts, s.optional
(<Kind.UNION: 'union'>, (<class 'int'>,), True)
>>> import attrs
>>> @attrs.frozen
... class Bid:
...     quantity: int
...     face: int
>>> record_of(Bid).names, record_of(Bid).types
(('quantity', 'face'), (<class 'int'>, <class 'int'>))
"""

from __future__ import annotations

import enum
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from .game import Message

__all__ = [
    "SCALARS", "Kind", "Record", "Shape", "field_slots", "init_sets_fields_only", "record_of", "shape_of",
    "slot_setters", "value_shape",
]

#: The scalar types: each value is its own primitive form (bytes stay bytes in msgpack, base64 on the wire).
SCALARS: tuple[type, ...] = (int, str, bool, float, bytes, type(None))


class Kind(enum.Enum):
    """What an annotation (or a value's class) is, as the codecs tell types apart."""

    #: ``int``, ``str``, ``bool``, ``float``, ``bytes`` or ``None`` exactly.
    SCALAR = "scalar"
    #: ``typing.Any``: the value's own class decides.
    ANY = "any"
    #: ``Literal[...]``; ``parts`` are the allowed values.
    LITERAL = "literal"
    #: a union; ``parts`` are its members other than None, ``optional`` says whether None is one.
    UNION = "union"
    #: ``tuple[X, ...]``; ``parts`` is ``(X,)`` (empty for a bare ``tuple`` or a tuple subclass).
    TUPLE = "tuple"
    #: ``tuple[X, Y]``; ``parts`` are the items' types.
    FIXED = "fixed"
    #: ``list[X]``; ``parts`` is ``(X,)`` (empty when bare).
    LIST = "list"
    #: ``frozenset[X]`` or ``set[X]``; ``parts`` is ``(X,)`` (empty when bare).
    SET = "set"
    #: ``dict[K, V]`` or ``Mapping[K, V]``; ``parts`` is ``(K, V)`` (empty when bare).
    MAP = "map"
    #: an enum class.
    ENUM = "enum"
    #: a message class without a tag of its own (``Command``, ``Event``, a game's base of them):
    #: the game's tagged message classes under it, told apart by their tags.
    MESSAGES = "messages"
    #: an attrs class (a tagged message, a state, a view, options): ``record`` says what it holds.
    RECORD = "record"
    #: none of these (an ``int`` subclass that is no enum, a class the codecs cannot encode).
    OTHER = "other"


class Record:
    """What an attrs class holds, in declaration order, and how it may be built.

    ``tag`` is the message tag its values are written with (inherited ones
    included; None for a class that is not a :class:`Message`); ``own_tag``
    is the tag the class declares itself, the one decoders look up.
    ``names`` and ``aliases`` are its fields' names and ``__init__`` keywords;
    ``types`` their resolved annotations (resolved on first use, as only the
    type-directed walkers need them). ``plain`` holds for each field taken
    positionally by ``__init__`` with no validator or converter; ``stored``
    for each field whose ``__init__`` argument is stored as it is given (no
    converter, not left out of ``__init__``); ``hooks`` is
    True if the class has ``__attrs_pre_init__`` or ``__attrs_post_init__``;
    ``init_only`` if its attrs-generated ``__init__`` only sets its fields (no
    validators, converters, init hooks or cached hash); ``slots`` are then the
    slot descriptors of its fields, for a slotted class (a decoder may build a
    value by setting them, without calling ``__init__``), else None.
    """

    __slots__ = ("_types", "aliases", "cls", "hooks", "init_only", "names", "own_tag", "plain", "slots", "stored", "tag")

    def __init__(self, cls: type) -> None:
        fields = attrs.fields(cls)
        message = issubclass(cls, Message)
        self.cls = cls
        self.tag: str | None = getattr(cls, "tag", None) if message else None
        self.own_tag: str | None = cls.__dict__.get("tag") if message else None
        self.names: tuple[str, ...] = tuple(f.name for f in fields)
        self.aliases: tuple[str, ...] = tuple(f.alias or f.name for f in fields)
        self.plain: tuple[bool, ...] = tuple(
            f.validator is None and f.converter is None and f.init and not f.kw_only for f in fields)
        self.stored: tuple[bool, ...] = tuple(f.converter is None and f.init for f in fields)
        self.hooks = hasattr(cls, "__attrs_pre_init__") or hasattr(cls, "__attrs_post_init__")
        self.init_only = _init_sets_fields_only(cls, self.hooks)
        self.slots = _field_slots(cls, self.names) if self.init_only else None
        self._types: tuple[Any, ...] | None = None

    @property
    def types(self) -> tuple[Any, ...]:
        """The fields' annotations, resolved (string annotations evaluated) on first use."""
        if self._types is None:
            attrs.resolve_types(self.cls)
            self._types = tuple(f.type for f in attrs.fields(self.cls))
        return self._types

    def __repr__(self) -> str:
        return f"<Record {self.cls.__qualname__} {list(self.names)}>"


def _init_sets_fields_only(cls: type, hooks: bool) -> bool:
    """True if ``cls``'s attrs-generated ``__init__`` only sets its fields (no validators, converters, hooks or cached hash)."""
    if hooks:
        return False
    code = getattr(vars(cls).get("__init__"), "__code__", None)
    if code is None or "attrs generated" not in code.co_filename:  # a hand-written __init__
        return False
    if "_attrs_cached_hash" in code.co_consts:  # cache_hash=True: __init__ also clears the cached hash
        return False
    return all(f.validator is None and f.converter is None and f.init for f in attrs.fields(cls))


def _field_slots(cls: type, names: tuple[str, ...]) -> tuple[types.MemberDescriptorType, ...] | None:
    """The slot descriptors of the fields ``names`` of ``cls``, in order, or None if one is not a slot."""
    slots: list[types.MemberDescriptorType] = []
    for name in names:
        slot = next((vars(c)[name] for c in cls.__mro__ if name in vars(c)), None)
        if not isinstance(slot, types.MemberDescriptorType):
            return None
        slots.append(slot)
    return tuple(slots)


def init_sets_fields_only(cls: type) -> bool:
    """True if ``cls`` is an attrs class whose generated ``__init__`` only sets its fields."""
    return attrs.has(cls) and record_of(cls).init_only


def field_slots(cls: type) -> tuple[types.MemberDescriptorType, ...] | None:
    """The slot descriptors of ``cls``'s fields, in order, if ``cls`` is an attrs class built by setting them alone."""
    return record_of(cls).slots if attrs.has(cls) else None


def slot_setters(cls: type) -> list[Callable[[Any, Any], None]] | None:
    """The setters of :func:`field_slots` (``slot.__set__``), or None where there are no such slots.

    A value of such a class is built by setting its slots directly: the same
    object its ``__init__`` builds, at two thirds of the cost.
    """
    slots = field_slots(cls)
    return None if slots is None else [slot.__set__ for slot in slots]


@attrs.frozen
class Shape:
    """One annotation (or value class) as the codecs see it: a :class:`Kind` and its parts.

    ``args`` are the annotation's own ``typing.get_args`` (a union's members
    in their written order, None included); ``parts`` what the kind says
    (see :class:`Kind`); ``bare`` marks a container named without parameters
    (``tuple``, ``frozenset``, a ``Mapping`` subclass); ``record`` is set for
    :attr:`Kind.RECORD`.
    """

    kind: Kind
    tp: Any
    args: tuple[Any, ...] = ()
    parts: tuple[Any, ...] = ()
    optional: bool = False
    bare: bool = False
    record: Record | None = None

    @property
    def tagged(self) -> bool:
        """True for a union whose members (None aside) are all message classes, told apart by their tags."""
        return self.kind is Kind.UNION and all(isinstance(a, type) and issubclass(a, Message) for a in self.parts)


_records: dict[type, Record] = {}
_shapes: dict[tuple[Any, tuple[Any, ...]], Shape] = {}
_value_shapes: dict[type, Shape] = {}


def record_of(cls: type) -> Record:
    """The (cached) :class:`Record` of the attrs class ``cls``."""
    found = _records.get(cls)
    if found is None:
        found = _records[cls] = Record(cls)
    return found


def shape_of(tp: Any) -> Shape:
    """The (cached) :class:`Shape` of the annotation ``tp``.

    >>> shape_of(frozenset[str]).kind, shape_of(dict).bare
    (<Kind.SET: 'set'>, True)
    """
    key = (tp, typing.get_args(tp))  # equal unions (and literals) of another order keep their own order
    found = _shapes.get(key)
    if found is None:
        found = _shapes[key] = _find_shape(tp)
    return found


def _find_shape(tp: Any) -> Shape:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is Any:
        return Shape(Kind.ANY, tp)
    if tp in SCALARS:
        return Shape(Kind.SCALAR, tp)
    if origin is typing.Union or origin is types.UnionType:
        members = tuple(a for a in args if a is not type(None))
        return Shape(Kind.UNION, tp, args, members, optional=len(members) < len(args))
    if origin is typing.Literal:
        return Shape(Kind.LITERAL, tp, args, args)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return Shape(Kind.TUPLE, tp, args, args[:1])
        return Shape(Kind.FIXED, tp, args, args)
    if origin is list:
        return Shape(Kind.LIST, tp, args, args)
    if origin in (frozenset, set):
        return Shape(Kind.SET, tp, args, args)
    if origin in (dict, Mapping):
        return Shape(Kind.MAP, tp, args, args)
    if isinstance(tp, type):
        if issubclass(tp, enum.Enum):
            return Shape(Kind.ENUM, tp)
        if issubclass(tp, Message) and (tp.__dict__.get("tag") is None or not attrs.has(tp)):
            return Shape(Kind.MESSAGES, tp, record=record_of(tp) if attrs.has(tp) else None)
        if attrs.has(tp):
            return Shape(Kind.RECORD, tp, record=record_of(tp))
        if tp in (tuple, list, frozenset, set) or issubclass(tp, Mapping):
            kind = {tuple: Kind.TUPLE, list: Kind.LIST, frozenset: Kind.SET, set: Kind.SET}.get(tp, Kind.MAP)
            return Shape(kind, tp, bare=True)
    return Shape(Kind.OTHER, tp)


def value_shape(cls: type) -> Shape:
    """The (cached) :class:`Shape` of the class of a value in hand.

    Unlike :func:`shape_of`, subclasses count as their base: a named tuple
    is a :attr:`Kind.TUPLE`, an ``int`` subclass a :attr:`Kind.SCALAR`, and any attrs class (a message class too) a
    :attr:`Kind.RECORD`.

    >>> value_shape(bool).kind, value_shape(type(iter(()))).kind
    (<Kind.SCALAR: 'scalar'>, <Kind.OTHER: 'other'>)
    """
    found = _value_shapes.get(cls)
    if found is None:
        found = _value_shapes[cls] = _find_value_shape(cls)
    return found


def _find_value_shape(cls: type) -> Shape:
    if attrs.has(cls):
        return Shape(Kind.RECORD, cls, record=record_of(cls))
    if issubclass(cls, enum.Enum):
        return Shape(Kind.ENUM, cls)
    for base, kind in ((tuple, Kind.TUPLE), (list, Kind.LIST), (frozenset, Kind.SET), (set, Kind.SET)):
        if issubclass(cls, base):
            return Shape(kind, cls, bare=True)
    if issubclass(cls, Mapping):
        return Shape(Kind.MAP, cls, bare=True)
    if issubclass(cls, SCALARS):
        return Shape(Kind.SCALAR, cls)
    return Shape(Kind.OTHER, cls)
