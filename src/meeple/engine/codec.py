"""One converter between a game's attrs values and msgpack-ready primitives.

Every attrs class becomes a msgpack *array* of its fields in declaration order
(no field names on the wire); a :class:`~meeple.engine.game.Message` puts its
``tag`` first. Tuples are arrays, frozensets sorted arrays, enums their value.
Decoding is strict: wrong types, wrong lengths, unknown tags and unknown enum
values raise :class:`~meeple.engine.errors.DecodeError` naming the path.

Both directions are generated per type from the one description of it in
:mod:`~meeple.engine.shapes` (its kind, its parts, an attrs class's tag and
fields), which the JSON wire form (:mod:`~meeple.engine.wire`),
:func:`readable` and ``describe`` read too. ``canonical`` and ``digest`` give
the one byte form that state hashes and the log's hash chain are defined over.
"""

from __future__ import annotations

import enum
import hashlib
import itertools
import threading
import typing
import weakref
from collections.abc import Callable, Mapping
from typing import Any

import attrs
import msgpack

from .errors import ConfigError, DecodeError
from .game import Command, Event, Game, Message
from .shapes import SCALARS, Kind, Record, Shape, record_of, shape_of, slot_setters, value_shape

Prim = Any
Hook = Callable[[Any], Any]

_PRIMITIVES = SCALARS


def pack(value: Prim) -> bytes:
    """Pack primitives to msgpack bytes, the canonical way (bin type, no floats reduced)."""
    try:
        packer = _packers.packer
    except AttributeError:  # the first pack of this thread
        packer = _packers.packer = msgpack.Packer(use_bin_type=True, autoreset=True)
    data: bytes = packer.pack(value)
    return data


#: One msgpack Packer per thread: ``msgpack.packb`` makes a new one, with a 256 KiB buffer, every call.
_packers = threading.local()


def digest(data: bytes, key: bytes = b"") -> bytes:
    """BLAKE2b-128 of ``key || data`` (``data`` chained after ``key``)."""
    if len(data) < 4096:  # one call on the joined bytes is the faster way for short data
        return hashlib.blake2b(key + data, digest_size=16).digest()
    h = hashlib.blake2b(key, digest_size=16)  # long data is not copied to be joined
    h.update(data)
    return h.digest()


# -- unstructuring: runtime-class dispatch ------------------------------------

_unstructurers: dict[type, Hook] = {}


def unstructure(value: Any) -> Prim:
    """Turn any supported value into msgpack-ready primitives (canonical form)."""
    cls = value.__class__
    if cls in _PRIMITIVE_SET:
        return value
    fn = _unstructurers.get(cls)
    if fn is None:
        fn = _make_unstructurer(cls)
        _unstructurers[cls] = fn
    return fn(value)


_PRIMITIVE_SET = frozenset(_PRIMITIVES)


def _sort_key(item: Prim) -> tuple[int, Any]:
    if isinstance(item, (int, float)) and not isinstance(item, bool):
        return (0, item)
    if isinstance(item, str):
        return (1, item)
    return (2, pack(item))


def _unstructure_set(value: frozenset[Any] | set[Any]) -> list[Prim]:
    return sorted((unstructure(v) for v in value), key=_sort_key)


def _unstructure_seq(value: tuple[Any, ...] | list[Any]) -> list[Prim]:
    return [v if v.__class__ in _PRIMITIVE_SET else unstructure(v) for v in value]


def maps_sorted(value: Prim) -> bool:
    """True if every map in ``value`` (primitives) has its keys in the canonical order, as :func:`unstructure` writes them.

    >>> maps_sorted({"a": 1, "b": [{"c": 2, "d": 3}]}), maps_sorted([{"b": 1, "a": 2}])
    (True, False)
    """
    cls = value.__class__
    if cls is dict:
        keys = [_sort_key(k) for k in value]
        return all(a < b for a, b in itertools.pairwise(keys)) and all(maps_sorted(v) for v in value.values())
    if cls is list:
        return all(maps_sorted(v) for v in value)
    return True


def _unstructure_map(value: Mapping[Any, Any]) -> dict[Any, Prim]:
    items = [(unstructure(k), unstructure(v)) for k, v in value.items()]
    return dict(sorted(items, key=lambda kv: _sort_key(kv[0])))


def _make_unstructurer(cls: type) -> Hook:
    kind = value_shape(cls).kind
    if kind is Kind.RECORD:
        return _attrs_unstructurer(cls)
    if kind is Kind.ENUM:
        return lambda v: v.value
    if kind is Kind.TUPLE or kind is Kind.LIST:
        return _unstructure_seq
    if kind is Kind.SET:
        return _unstructure_set
    if kind is Kind.MAP:
        return _unstructure_map
    if kind is Kind.SCALAR:  # int subclasses other than enums
        return lambda v: v
    raise TypeError(f"meeple cannot encode values of type {cls.__qualname__}")


def _attrs_unstructurer(cls: type) -> Hook:
    record = record_of(cls)
    parts = [repr(record.tag)] if record.tag is not None else []
    for name in record.names:
        parts.append(f"_u(o.{name})")
    src = f"def unstructure_{cls.__name__}(o):\n    return [{', '.join(parts)}]\n"
    ns: dict[str, Any] = {"_u": unstructure}
    exec(src, ns)
    fn: Hook = ns[f"unstructure_{cls.__name__}"]
    return fn


def canonical(value: Any) -> bytes:
    """The canonical msgpack bytes of ``value`` (what hashes are taken over)."""
    return pack(unstructure(value))


# -- structuring: annotation-driven, strict ------------------------------------


def _type_name(tp: Any) -> str:
    return getattr(tp, "__name__", None) or repr(tp)


def _prefix(err: DecodeError, step: str) -> DecodeError:
    path = step + (("." + err.path) if err.path and not err.path.startswith("[") else err.path)
    return DecodeError(err.message, path)


def _strict_int(v: Any) -> int:
    if v.__class__ is int:
        return v
    raise DecodeError(f"expected an integer, got {type(v).__name__}")


def _strict_str(v: Any) -> str:
    if v.__class__ is str:
        return v
    raise DecodeError(f"expected a string, got {type(v).__name__}")


def _strict_bool(v: Any) -> bool:
    if v.__class__ is bool:
        return v
    raise DecodeError(f"expected true or false, got {type(v).__name__}")


def _strict_float(v: Any) -> float:
    if v.__class__ in (int, float):
        return float(v)
    raise DecodeError(f"expected a number, got {type(v).__name__}")


def _strict_bytes(v: Any) -> bytes:
    if v.__class__ is bytes:
        return v
    raise DecodeError(f"expected bytes, got {type(v).__name__}")


def _strict_none(v: Any) -> None:
    if v is not None:
        raise DecodeError(f"expected nil, got {type(v).__name__}")


def _any(v: Any) -> Any:
    return v


_INT_ONLY = frozenset([int])
#: The hook inside each hook of an optional type (``X | None``), by the optional hook.
_OPTIONAL_OF: weakref.WeakKeyDictionary[Hook, Hook] = weakref.WeakKeyDictionary()
#: What the compiled log reader checks and builds for a hook's values, for the hooks
#: it can stand in for (see :meth:`Codec.message_spec`): ``int``, ``str``,
#: ``bool`` or ``bytes`` (exactly that class); ``tuple`` (a tuple from an array
#: of exact ints); ``(None, kind)`` (nil or that kind); ``(tuple, kind)`` (a
#: tuple from an array of that kind).
_COMPILED_KIND: weakref.WeakKeyDictionary[Hook, Any] = weakref.WeakKeyDictionary()


def _compiled_kind(hook: Hook) -> Any:
    """The compiled reader's kind for ``hook``'s values, or None where only the hook itself will do."""
    try:
        return _INLINE_EXACT.get(hook) or _COMPILED_KIND.get(hook)
    except TypeError:  # a hook that cannot be weakly referenced has no kind
        return None

#: Hooks whose check is "the value's class is exactly this type"; generated
#: builders inline that test and call the hook only to raise its error.
_INLINE_EXACT: dict[Hook, type] = {_strict_int: int, _strict_str: str, _strict_bool: bool, _strict_bytes: bytes}


class Codec:
    """Encodes and decodes one game's commands, events, states, views and options.

    >>> from meeple.games.liars_dice import GAME  # doctest: +SKIP
    >>> codec = Codec(GAME)                       # doctest: +SKIP
    """

    def __init__(self, game: Game[Any, Any], without: frozenset[str] = frozenset()) -> None:
        self.game = game
        self._hooks: dict[Any, Hook] = {
            int: _strict_int,
            str: _strict_str,
            bool: _strict_bool,
            float: _strict_float,
            bytes: _strict_bytes,
            type(None): _strict_none,
            Any: _any,
        }
        #: ``without``: tags of message types left out (those an older rules version did not have)
        self.message_types: tuple[type[Message], ...] = tuple(
            c for c in (*game.commands, *game.events) if not without or c.__dict__.get("tag") not in without)
        self.by_tag: dict[str, type[Message]] = {}
        for cls in self.message_types:
            tag = cls.__dict__.get("tag")
            if not isinstance(tag, str) or not tag:
                raise TypeError(f"{cls.__qualname__} needs a ClassVar tag string")
            if tag in self.by_tag:
                raise TypeError(f"{game.info.id}: tag {tag!r} is used twice")
            self.by_tag[tag] = cls
        self.index_of: dict[type[Message], int] = {c: i for i, c in enumerate(self.message_types)}
        self.type_table: list[list[Any]] = [[c.tag, c.schema] for c in self.message_types]
        self._plain: dict[type, Callable[[Any], bool] | None] = {}
        #: the game's command classes met by ``Match.play`` so far, each with its :meth:`plain_check`
        self.command_checks: dict[type, Callable[[Any], bool] | None] = {}
        self._one_form: dict[Any, bool] = {}

    # -- public API ---------------------------------------------------------
    def structure(self, data: Prim, tp: Any) -> Any:
        """Build a value of type ``tp`` from primitives, strictly (DecodeError on mismatch)."""
        return self.hook(tp)(data)

    def command(self, data: Prim) -> Command:
        """Decode a command from its primitive form ``[tag, field, ...]``."""
        return typing.cast(Command, self.structure(data, Command))

    def event(self, data: Prim) -> Event:
        """Decode an event from its primitive form ``[tag, field, ...]``."""
        return typing.cast(Event, self.structure(data, Event))

    def hook(self, tp: Any) -> Hook:
        """Return the strict structuring function for type ``tp``."""
        fn = self._hooks.get(tp)
        if fn is None:
            fn = self._make_hook(tp)
            self._hooks[tp] = fn
        return fn

    def one_form(self, tp: Any) -> bool:
        """True if no two primitive forms decode to equal values of ``tp``: a decoded value then needs no re-encoding.

        Holds for ints, strings, booleans, bytes, nil, enums, literals, and
        tuples, optionals, unions of messages and attrs classes (without
        converters or init hooks) made of them. Frozensets (any order of
        their items decodes), maps (any order of keys), floats (an int
        decodes as a float), ``Any`` and other unions do not: the log reader
        re-encodes such values to check that a record holds their canonical form.
        """
        found = self._one_form.get(tp)
        if found is None:
            try:
                found = self._find_one_form(tp, set())
            except TypeError:  # a type the codec cannot decode: its hook will say so
                found = False
            self._one_form[tp] = found
        return found

    def _find_one_form(self, tp: Any, seen: set[Any]) -> bool:
        if tp in (int, str, bool, bytes, type(None)):
            return True
        if tp in seen:  # a recursive type: decided by its other parts
            return True
        seen.add(tp)

        def each(parts: Any) -> bool:
            return all(self._find_one_form(a, seen) for a in parts)

        shape = shape_of(tp)
        kind = shape.kind
        if kind is Kind.UNION:
            if shape.tagged:
                return each(shape.parts)  # told apart by their tags
            return len(shape.parts) == 1 and each(shape.parts)
        if kind is Kind.LITERAL or kind is Kind.ENUM:
            return True
        if (kind is Kind.TUPLE or kind is Kind.FIXED) and not shape.bare:
            return each(shape.parts)
        if kind is Kind.MESSAGES:
            return each(self.members(tp))
        if kind is Kind.RECORD:
            record = record_of(tp)
            return not record.hooks and all(record.stored) and each(record.types)
        return False

    def members(self, tp: type) -> tuple[type[Message], ...]:
        """The game's tagged message classes that are ``tp`` or derive from it, in the codec's order."""
        return tuple(c for c in self.message_types if issubclass(c, tp))

    # -- hook factories -------------------------------------------------------
    def _make_hook(self, tp: Any) -> Hook:
        shape = shape_of(tp)
        kind = shape.kind
        args = shape.args
        if kind is Kind.UNION:
            return self._union_hook(shape)
        if kind is Kind.LITERAL:
            allowed = args

            def literal(v: Any) -> Any:
                for a in allowed:
                    if v == a and type(v) is type(a):
                        return a
                raise DecodeError(f"expected one of {list(allowed)!r}, got {v!r}")

            return literal
        if kind is Kind.TUPLE and not shape.bare:
            return self._homogeneous_hook(args[0])
        if kind is Kind.FIXED:
            return self._fixed_hook(args)
        if kind is Kind.SET and not shape.bare:
            item = self.hook(args[0]) if args else _any

            def fset(v: Any) -> frozenset[Any]:
                if v.__class__ is not list:
                    raise DecodeError(f"expected an array, got {type(v).__name__}")
                return frozenset(_items(item, v))

            return fset
        if kind is Kind.MAP and not shape.bare:
            kh = self.hook(args[0]) if args else _any
            vh = self.hook(args[1]) if args else _any

            def mapping(v: Any) -> dict[Any, Any]:
                if v.__class__ is not dict:
                    raise DecodeError(f"expected a map, got {type(v).__name__}")
                out = {}
                for k, x in v.items():
                    try:
                        out[kh(k)] = vh(x)
                    except DecodeError as e:
                        raise _prefix(e, f"[{k!r}]") from None
                return out

            return mapping
        if kind is Kind.ENUM:
            return _enum_hook(tp)
        if kind is Kind.MESSAGES:
            return self._tagged_union_hook(self.members(tp))
        if kind is Kind.RECORD:
            return self._attrs_hook(tp)
        raise TypeError(f"meeple cannot decode the type {tp!r}")

    def _union_hook(self, shape: Shape) -> Hook:
        non_none, optional = shape.parts, shape.optional
        if shape.tagged:
            inner = self._tagged_union_hook(non_none)
        elif len(non_none) == 1:
            inner = self.hook(non_none[0])
        else:
            hooks = [self.hook(a) for a in non_none]

            def first_fit(v: Any) -> Any:
                for h in hooks:
                    try:
                        return h(v)
                    except DecodeError:
                        continue
                raise DecodeError(f"value fits none of {[_type_name(a) for a in non_none]}")

            inner = first_fit
        if not optional:
            return inner

        def opt(v: Any) -> Any:
            return None if v is None else inner(v)

        _OPTIONAL_OF[opt] = inner  # generated builders test for None inline
        inner_kind = _compiled_kind(inner)
        if inner_kind is not None:
            _COMPILED_KIND[opt] = (None, inner_kind)
        return opt

    def _homogeneous_hook(self, item_type: Any) -> Hook:
        item = self.hook(item_type)
        if item is _strict_int:

            def ints(v: Any) -> tuple[int, ...]:
                if v.__class__ is list and _INT_ONLY.issuperset(map(type, v)):  # the common case, in C
                    return tuple(v)
                if v.__class__ is not list:
                    raise DecodeError(f"expected an array, got {type(v).__name__}")
                for i, x in enumerate(v):
                    if x.__class__ is not int:
                        raise DecodeError(f"expected an integer, got {type(x).__name__}", f"[{i}]")
                return tuple(v)

            _COMPILED_KIND[ints] = tuple
            return ints

        def homogeneous(v: Any) -> tuple[Any, ...]:
            if v.__class__ is not list:
                raise DecodeError(f"expected an array, got {type(v).__name__}")
            try:
                return tuple(map(item, v))
            except DecodeError:
                return tuple(_items(item, v))  # raises again, naming the item

        item_kind = _compiled_kind(item)
        if item_kind is not None:
            _COMPILED_KIND[homogeneous] = (tuple, item_kind)
        return homogeneous

    def _fixed_hook(self, args: tuple[Any, ...]) -> Hook:
        hooks = [self.hook(a) for a in args]
        n = len(hooks)

        def fixed(v: Any) -> tuple[Any, ...]:
            if v.__class__ is not list or len(v) != n:
                raise DecodeError(f"expected an array of {n}, got {_describe(v)}")
            return tuple(_items_zip(hooks, v))

        return fixed

    def _attrs_hook(self, cls: type) -> Hook:
        self._hooks[cls] = lambda v: build(v)  # placeholder for recursive types
        build = self._attrs_builder(cls, check_tag=True)
        self._hooks[cls] = build
        return build

    def plain_check(self, cls: type) -> Callable[[Any], bool] | None:
        """A fast test that a ``cls`` value would survive unstructure -> structure unchanged, or None.

        Given for attrs classes whose fields are all int, str, bool, bytes,
        tuples of ints or enums of int or str values, positional, with no validators, converters
        or init hooks: then the round trip rebuilds an equal value exactly when
        every field holds a value of exactly its type (for an enum, one of its
        members), which the returned function checks. For other classes (None)
        only the round trip itself can tell.
        """
        if cls in self._plain:
            return self._plain[cls]
        check: Callable[[Any], bool] | None = None
        record = record_of(cls) if attrs.has(cls) else None
        if record is not None and not record.hooks:
            tests: list[str] | None = []
            ns: dict[str, Any] = {}
            for i, (name, tp, plain) in enumerate(zip(record.names, record.types, record.plain)):
                hook = self.hook(tp)
                exact = _INLINE_EXACT.get(hook) or _plain_enum(tp)
                ints = _compiled_kind(hook) is tuple  # a tuple of exact ints
                if (exact is None and not ints) or not plain or tests is None:
                    tests = None
                    break
                if ints:
                    ns["_ints"] = _INT_ONLY
                    tests.append(f"o.{name}.__class__ is tuple and _ints.issuperset(map(type, o.{name}))")
                    continue
                ns[f"t{i}"] = exact
                tests.append(f"o.{name}.__class__ is t{i}")
            if tests is not None:
                exec(f"def plain(o):\n    return {' and '.join(tests) or 'True'}\n", ns)
                check = ns["plain"]
        self._plain[cls] = check
        return check

    def message_builder(self, cls: type[Message]) -> Hook:
        """Return a strict builder of ``cls`` from ``[anything, field, ...]``, the first item unchecked.

        The log reader uses it for messages whose first item (the type index
        of the log's table) it has already checked, so the tag is not put in
        and checked again. Errors are those of :meth:`hook`.
        """
        key = ("message", cls)
        fn = self._hooks.get(key)
        if fn is None:
            self.hook(cls)  # the fields' hooks, and recursion placeholders
            fn = self._attrs_builder(cls, check_tag=False)
            if not record_of(cls).names:
                fn = _fieldless(cls, fn)
            self._hooks[key] = fn
        return fn

    def message_spec(self, cls: type[Message]) -> tuple[Any, ...] | None:
        """What the compiled log reader needs to build ``cls`` itself, or None.

        ``(cls, builder, field kinds, field slots)`` for a message built by
        setting its slots whose fields are of kinds the compiled loop checks
        and builds as their hooks do (ints, strings, booleans, bytes, tuples
        of them, optional ones: see ``_COMPILED_KIND``). The loop calls the
        builder for any value that does not fit (which then raises the usual
        error).
        """
        builder = self.message_builder(cls)  # also resolves the field types
        record = record_of(cls)
        slots = record.slots
        if not slots:
            return None
        kinds = []
        for tp in record.types:
            kind = _compiled_kind(self.hook(tp))
            if kind is None:
                return None
            kinds.append(kind)
        return (cls, builder, tuple(kinds), tuple(slots))

    def _attrs_builder(self, cls: type, check_tag: bool) -> Hook:
        record = record_of(cls)
        tag = record.own_tag
        offset = 1 if tag is not None else 0
        n = len(record.names) + offset
        names = list(record.names)
        hooks = [self.hook(tp) for tp in record.types]
        ns: dict[str, Any] = {"cls": cls, "DecodeError": DecodeError, "_describe": _describe, "_fail": _field_fail}
        args = []
        for i, h in enumerate(hooks):
            ns[f"h{i}"] = h
            item = f"v[{i + offset}]"
            # primitives are checked inline (the hook runs only to raise its error)
            exact = _INLINE_EXACT.get(h)
            try:
                inner = _OPTIONAL_OF.get(h)
            except TypeError:  # a hook that cannot be weakly referenced is not an optional one
                inner = None
            if exact is not None:
                ns[f"t{i}"] = exact
                args.append(f"(x if (x := {item}).__class__ is t{i} else h{i}(x))")
            elif inner is not None:
                ns[f"o{i}"] = inner
                args.append(f"(None if (x := {item}) is None else o{i}(x))")
            else:
                args.append(f"h{i}({item})")
        tag_test = f" or v[0] != {tag!r}" if tag is not None and check_tag else ""
        setters = slot_setters(cls)
        if setters is None:
            body = f"        return cls({', '.join(args)})\n"
        else:  # what the class's __init__ would do, without its call and per-field setattr
            ns["new"] = object.__new__
            body = "        o = new(cls)\n"
            for i, (setter, arg) in enumerate(zip(setters, args)):
                ns[f"s{i}"] = setter
                body += f"        s{i}(o, {arg})\n"
            body += "        return o\n"
        src = (
            f"def build(v):\n"
            f"    if v.__class__ is not list or len(v) != {n}{tag_test}:\n"
            f"        raise DecodeError('expected a {cls.__name__} array of {n}, got ' + _describe(v))\n"
            f"    try:\n"
            f"{body}"
            f"    except DecodeError as e:\n"
            f"        raise _fail(e, v, {offset}, {names!r}, [{', '.join(f'h{i}' for i in range(len(hooks)))}]) from None\n"
            f"    except (TypeError, ValueError) as e:\n"
            f"        raise DecodeError('invalid {cls.__name__}: ' + str(e)) from None\n"
        )
        exec(src, ns)
        build: Hook = ns["build"]
        return build

    def _tagged_union_hook(self, members: tuple[type, ...]) -> Hook:
        table: dict[Any, Hook] = {}
        for cls in members:
            tag = record_of(cls).own_tag if attrs.has(cls) else None
            if tag:
                table[tag] = self.hook(cls)
        names = sorted(str(t) for t in table)

        def tagged(v: Any) -> Any:
            if v.__class__ is not list or not v:
                raise DecodeError(f"expected a tagged array, got {_describe(v)}")
            fn = table.get(v[0]) if v[0].__class__ in (str, int) else None  # unhashable tags are unknown
            if fn is None:
                raise DecodeError(f"unknown type tag {v[0]!r}; expected one of {names}")
            return fn(v)

        return tagged


def _plain_enum(tp: Any) -> type | None:
    """``tp`` if it is an enum whose members round-trip by value (int or str values), else None."""
    if isinstance(tp, type) and issubclass(tp, enum.Enum) and all(type(m.value) in (int, str) for m in tp):
        return tp
    return None


def _fieldless(cls: type, build: Hook) -> Hook:
    """A builder of a message without fields that returns one shared (frozen, equal) instance."""
    try:
        instance = build([0])
    except Exception:  # a class that will not build from nothing: build every time
        return build

    def shared(v: Any) -> Any:
        if v.__class__ is list and len(v) == 1:
            return instance
        return build(v)  # raises the usual error

    return shared


def _describe(v: Any) -> str:
    if v.__class__ is list:
        return f"an array of {len(v)}"
    return type(v).__name__


def _items(hook: Hook, v: list[Any]) -> list[Any]:
    out = []
    for i, x in enumerate(v):
        try:
            out.append(hook(x))
        except DecodeError as e:
            raise _prefix(e, f"[{i}]") from None
    return out


def _items_zip(hooks: list[Hook], v: list[Any]) -> list[Any]:
    out = []
    for i, (h, x) in enumerate(zip(hooks, v)):
        try:
            out.append(h(x))
        except DecodeError as e:
            raise _prefix(e, f"[{i}]") from None
    return out


def _field_fail(err: DecodeError, v: list[Any], offset: int, names: list[str], hooks: list[Hook]) -> DecodeError:
    for i, (name, h) in enumerate(zip(names, hooks)):
        try:
            h(v[i + offset])
        except DecodeError as e:
            return _prefix(e, name)
    return err


def _enum_hook(cls: type[enum.Enum]) -> Hook:
    by_value = {m.value: m for m in cls}

    def build(v: Any) -> Any:
        m = by_value.get(v) if v.__class__ in (int, str) else None
        if m is None or type(m.value) is not type(v):
            raise DecodeError(f"{v!r} is not a {cls.__name__}; expected one of {list(by_value)!r}")
        return m

    return build


# -- options ---------------------------------------------------------------


def options_to_map(options: Any) -> dict[str, Prim]:
    """Unstructure an options value as a map of field name to value (sorted keys)."""
    return {name: unstructure(getattr(options, name)) for name in sorted(record_of(type(options)).names)}


def options_from_map(codec: Codec, raw: Mapping[str, Any] | None, seats: int) -> Any:
    """Build and validate a game's options from a map; raise ConfigError on any problem.

    Unknown keys are refused (with the list of known ones); values are decoded
    strictly; then ``Options.validate(seats)`` checks combinations.
    """
    game = codec.game
    cls = game.options_type
    raw = dict(raw or {})
    record = record_of(cls)
    fields = dict(zip(record.names, record.types))
    unknown = sorted(set(raw) - set(fields), key=str)
    if unknown:
        raise ConfigError(
            f"{game.info.id}: unknown option(s) {', '.join(map(repr, unknown))}; "
            f"known options: {', '.join(sorted(fields)) or 'none'}"
        )
    values = {}
    for name, value in raw.items():
        if isinstance(value, enum.Enum):
            value = value.value
        elif isinstance(value, tuple):
            value = unstructure(value)
        try:
            values[name] = codec.structure(value, fields[name])
        except DecodeError as e:
            raise ConfigError(f"{game.info.id}: option {name!r}: {e}") from None
    try:
        options = cls(**values)
    except (TypeError, ValueError) as e:
        raise ConfigError(f"{game.info.id}: {e}") from None
    options.validate(seats)
    return options


def remembered_options(codec: Codec, cache: str, key: Any, raw: Mapping[str, Any] | None, seats: int) -> Any:
    """:func:`options_from_map`, remembered on ``codec`` in the map named ``cache`` under ``key``.

    Options are frozen values, so equal inputs may share one; only hashable
    (immutable) options are kept, at most 256 per cache. ``key`` must tell
    apart every ``(raw, seats)`` that could decode differently.
    """
    store: dict[Any, Any] = codec.__dict__.setdefault(cache, {})
    options = store.get(key)
    if options is None:
        options = options_from_map(codec, raw, seats)  # raises ConfigError: nothing cached
        try:
            hash(options)  # share only immutable options
        except TypeError:
            return options
        if len(store) < 256:
            store[key] = options
    return options


def readable(value: Any) -> Any:
    """Turn a value into JSON-friendly data with field names (for web clients and people).

    Unlike :func:`unstructure` (the compact canonical form), attrs values
    become maps of field name to value, with a ``"type"`` key for tagged
    messages; frozensets become sorted lists and enums their values.

    >>> import attrs
    >>> @attrs.frozen
    ... class P:
    ...     x: int
    ...     tags: frozenset[str]
    >>> readable(P(1, frozenset({"b", "a"})))
    {'x': 1, 'tags': ['a', 'b']}
    """
    cls = value.__class__
    if cls in _PRIMITIVE_SET:
        return value
    shape = value_shape(cls)
    kind = shape.kind
    if kind is Kind.RECORD:
        record = typing.cast(Record, shape.record)
        out: dict[str, Any] = {}
        if record.tag is not None:
            out["type"] = record.tag
        for name in record.names:
            out[name] = readable(getattr(value, name))
        return out
    if kind is Kind.ENUM:
        return readable(value.value)
    if kind is Kind.TUPLE or kind is Kind.LIST:
        return [readable(v) for v in value]
    if kind is Kind.SET:
        return [readable(v) for v in sorted(value, key=lambda v: _sort_key(unstructure(v)))]
    if kind is Kind.MAP:
        return {str(k): readable(v) for k, v in value.items()}
    return unstructure(value)
