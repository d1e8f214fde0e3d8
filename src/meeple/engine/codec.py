"""One converter between a game's attrs values and msgpack-ready primitives.

Every attrs class becomes a msgpack *array* of its fields in declaration order
(no field names on the wire); a :class:`~meeple.engine.game.Message` puts its
``tag`` first. Tuples are arrays, frozensets sorted arrays, enums their value.
Decoding is strict: wrong types, wrong lengths, unknown tags and unknown enum
values raise :class:`~meeple.engine.errors.DecodeError` naming the path.

The hooks are registered on a private :class:`cattrs.Converter`
(``Codec.converter``), so ``codec.converter.structure(data, T)`` works for any
type the game uses. ``canonical`` and ``digest`` give the one byte form that
state hashes and the log's hash chain are defined over.
"""

from __future__ import annotations

import enum
import hashlib
import itertools
import threading
import types
import typing
import weakref
from collections.abc import Callable, Mapping
from typing import Any

import attrs
import cattrs
import msgpack

from .errors import ConfigError, DecodeError
from .game import Command, Event, Game, Message

Prim = Any
Hook = Callable[[Any], Any]

_PRIMITIVES = (int, str, bool, float, bytes, type(None))


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
    if attrs.has(cls):
        return _attrs_unstructurer(cls)
    if issubclass(cls, enum.Enum):
        return lambda v: v.value
    if issubclass(cls, (tuple, list)):
        return _unstructure_seq
    if issubclass(cls, (frozenset, set)):
        return _unstructure_set
    if issubclass(cls, Mapping):
        return _unstructure_map
    if issubclass(cls, _PRIMITIVES):  # int subclasses other than enums
        return lambda v: v
    raise TypeError(f"meeple cannot encode values of type {cls.__qualname__}")


def _attrs_unstructurer(cls: type) -> Hook:
    fields = attrs.fields(cls)
    tag = getattr(cls, "tag", None) if issubclass(cls, Message) else None
    parts = [repr(tag)] if tag is not None else []
    for f in fields:
        parts.append(f"_u(o.{f.name})")
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
        self.converter = cattrs.Converter()
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
        self.converter.register_structure_hook_factory(lambda t: True, self._cattrs_hook)
        self.converter.register_unstructure_hook_func(lambda t: True, lambda v: unstructure(v))
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

        origin = typing.get_origin(tp)
        args = typing.get_args(tp)
        if origin is typing.Union or origin is types.UnionType:
            non_none = [a for a in args if a is not type(None)]
            if all(isinstance(a, type) and issubclass(a, Message) for a in non_none):
                return each(non_none)  # told apart by their tags
            return len(non_none) == 1 and each(non_none)
        if origin is typing.Literal:
            return True
        if origin is tuple:
            return each(a for a in args if a is not Ellipsis)
        if isinstance(tp, type):
            if issubclass(tp, enum.Enum):
                return True
            if issubclass(tp, Message) and (tp.__dict__.get("tag") is None or not attrs.has(tp)):
                return each(c for c in self.message_types if issubclass(c, tp))
            if attrs.has(tp):
                if hasattr(tp, "__attrs_post_init__") or hasattr(tp, "__attrs_pre_init__"):
                    return False
                attrs.resolve_types(tp)
                fields = attrs.fields(tp)
                return all(f.converter is None and f.init for f in fields) and each(f.type for f in fields)
        return False

    # -- hook factories -------------------------------------------------------
    def _cattrs_hook(self, tp: Any) -> Callable[[Any, Any], Any]:
        fn = self.hook(tp)
        return lambda v, _t: fn(v)

    def _make_hook(self, tp: Any) -> Hook:
        origin = typing.get_origin(tp)
        args = typing.get_args(tp)
        if origin is typing.Union or origin is types.UnionType:
            return self._union_hook(args)
        if origin is typing.Literal:
            allowed = args

            def literal(v: Any) -> Any:
                for a in allowed:
                    if v == a and type(v) is type(a):
                        return a
                raise DecodeError(f"expected one of {list(allowed)!r}, got {v!r}")

            return literal
        if origin is tuple:
            return self._tuple_hook(args)
        if origin in (frozenset, set):
            item = self.hook(args[0]) if args else _any

            def fset(v: Any) -> frozenset[Any]:
                if v.__class__ is not list:
                    raise DecodeError(f"expected an array, got {type(v).__name__}")
                return frozenset(_items(item, v))

            return fset
        if origin in (dict, Mapping):
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
        if isinstance(tp, type):
            if issubclass(tp, enum.Enum):
                return _enum_hook(tp)
            if issubclass(tp, Message) and (tp.__dict__.get("tag") is None or not attrs.has(tp)):
                members = tuple(c for c in self.message_types if issubclass(c, tp))
                return self._tagged_union_hook(members)
            if attrs.has(tp):
                return self._attrs_hook(tp)
        raise TypeError(f"meeple cannot decode the type {tp!r}")

    def _union_hook(self, args: tuple[Any, ...]) -> Hook:
        non_none = [a for a in args if a is not type(None)]
        optional = len(non_none) < len(args)
        if all(isinstance(a, type) and issubclass(a, Message) for a in non_none):
            inner = self._tagged_union_hook(tuple(non_none))
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

    def _tuple_hook(self, args: tuple[Any, ...]) -> Hook:
        if len(args) == 2 and args[1] is Ellipsis:
            item = self.hook(args[0])
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
        if attrs.has(cls) and not hasattr(cls, "__attrs_post_init__") and not hasattr(cls, "__attrs_pre_init__"):
            attrs.resolve_types(cls)
            tests: list[str] | None = []
            ns: dict[str, Any] = {}
            for i, f in enumerate(attrs.fields(cls)):
                hook = self.hook(f.type)
                exact = _INLINE_EXACT.get(hook) or _plain_enum(f.type)
                ints = _compiled_kind(hook) is tuple  # a tuple of exact ints
                if ((exact is None and not ints) or f.validator is not None or f.converter is not None or not f.init
                        or f.kw_only or tests is None):
                    tests = None
                    break
                if ints:
                    ns["_ints"] = _INT_ONLY
                    tests.append(f"o.{f.name}.__class__ is tuple and _ints.issuperset(map(type, o.{f.name}))")
                    continue
                ns[f"t{i}"] = exact
                tests.append(f"o.{f.name}.__class__ is t{i}")
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
            if not attrs.fields(typing.cast(Any, cls)):
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
        slots = _field_slots(cls)
        if not slots:
            return None
        kinds = []
        for f in attrs.fields(typing.cast(Any, cls)):
            kind = _compiled_kind(self.hook(f.type))
            if kind is None:
                return None
            kinds.append(kind)
        return (cls, builder, tuple(kinds), tuple(slots))

    def _attrs_builder(self, cls: type, check_tag: bool) -> Hook:
        attrs.resolve_types(cls)
        fields = attrs.fields(cls)
        tag = cls.__dict__.get("tag") if issubclass(cls, Message) else None
        offset = 1 if tag is not None else 0
        n = len(fields) + offset
        names = [f.name for f in fields]
        hooks: list[Hook] = []
        for f in fields:
            h = self.hook(f.type)
            hooks.append(h)
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
        setters = _slot_setters(cls)
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
            if attrs.has(cls) and cls.__dict__.get("tag"):
                table[cls.__dict__["tag"]] = self.hook(cls)
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


def _slot_setters(cls: type) -> list[Callable[[Any, Any], None]] | None:
    """The slot setters of ``cls``'s fields, in order, if setting them is all its ``__init__`` does.

    That holds for a slotted attrs class whose fields all go through
    ``__init__`` with no validators or converters, with no init hooks and no
    cached hash. A decoded message is then built by setting its slots
    directly: the same object its ``__init__`` builds, at two thirds of the
    cost (the log reader builds one per event). Otherwise None.
    """
    slots = _field_slots(cls)
    return None if slots is None else [slot.__set__ for slot in slots]


def _init_sets_fields_only(cls: type) -> bool:
    """True if ``cls``'s attrs-generated ``__init__`` only sets its fields (no validators, converters, hooks or cached hash)."""
    if not attrs.has(cls) or hasattr(cls, "__attrs_pre_init__") or hasattr(cls, "__attrs_post_init__"):
        return False
    code = getattr(vars(cls).get("__init__"), "__code__", None)
    if code is None or "attrs generated" not in code.co_filename:  # a hand-written __init__
        return False
    if "_attrs_cached_hash" in code.co_consts:  # cache_hash=True: __init__ also clears the cached hash
        return False
    return all(f.validator is None and f.converter is None and f.init for f in attrs.fields(cls))


def _field_slots(cls: type) -> list[types.MemberDescriptorType] | None:
    """The slot descriptors of ``cls``'s fields, in order, if setting them is all its ``__init__`` does."""
    if not _init_sets_fields_only(cls):
        return None
    slots: list[types.MemberDescriptorType] = []
    for f in attrs.fields(cls):
        slot = next((vars(c)[f.name] for c in cls.__mro__ if f.name in vars(c)), None)
        if not isinstance(slot, types.MemberDescriptorType):
            return None
        slots.append(slot)
    return slots


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
    return {f.name: unstructure(getattr(options, f.name)) for f in sorted(attrs.fields(type(options)), key=lambda f: f.name)}


def options_from_map(codec: Codec, raw: Mapping[str, Any] | None, seats: int) -> Any:
    """Build and validate a game's options from a map; raise ConfigError on any problem.

    Unknown keys are refused (with the list of known ones); values are decoded
    strictly; then ``Options.validate(seats)`` checks combinations.
    """
    game = codec.game
    cls = game.options_type
    raw = dict(raw or {})
    attrs.resolve_types(cls)
    fields = {f.name: f for f in attrs.fields(cls)}
    unknown = sorted(set(raw) - set(fields), key=str)
    if unknown:
        raise ConfigError(
            f"{game.info.id}: unknown option(s) {', '.join(map(repr, unknown))}; "
            f"known options: {', '.join(sorted(fields)) or 'none'}"
        )
    values = {}
    for name, value in raw.items():
        f = fields[name]
        if isinstance(value, enum.Enum):
            value = value.value
        elif isinstance(value, tuple):
            value = unstructure(value)
        try:
            values[name] = codec.structure(value, f.type)
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
    if attrs.has(cls):
        out: dict[str, Any] = {}
        tag = getattr(cls, "tag", None) if issubclass(cls, Message) else None
        if tag is not None:
            out["type"] = tag
        for f in attrs.fields(cls):
            out[f.name] = readable(getattr(value, f.name))
        return out
    if isinstance(value, enum.Enum):
        return readable(value.value)
    if isinstance(value, (tuple, list)):
        return [readable(v) for v in value]
    if isinstance(value, (frozenset, set)):
        return [readable(v) for v in sorted(value, key=lambda v: _sort_key(unstructure(v)))]
    if isinstance(value, Mapping):
        return {str(k): readable(v) for k, v in value.items()}
    return unstructure(value)
