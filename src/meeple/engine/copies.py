"""Quick copies of frozen attrs values, for the folds that make a new state for every event.

``attrs.evolve`` matches keywords, calls ``__init__`` and sets each field
through the frozen class's guard; a game's fold does that several times per
command. :func:`replacer` writes, once per class and set of changed fields,
a function that makes the same object more directly:

* a slotted class whose ``__init__`` only sets its fields (no validators,
  converters or hooks) gets its slots set one by one, as the codec builds
  decoded messages;
* a class that keeps its fields in ``__dict__`` and caches nothing there
  gets a copy of the dict, the new fields set in it;
* any other class goes through ``__init__``.

>>> @attrs.frozen
... class Point:
...     x: int = 0
...     y: int = 0
>>> replacer(Point, "y")(Point(1, 2), 5)
Point(x=1, y=5)
>>> replace(Point(1, 2), x=3)
Point(x=3, y=2)
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

import attrs

from ._compiled import speedups
from .shapes import field_slots, init_sets_fields_only, slot_setters

#: Builds a slotted value from its fields in C, where the package was built with it (else None).
_SlotBuilder: Any = getattr(speedups, "SlotBuilder", None)


def _compiled_for(cls: type[T], fallback: Callable[..., T]) -> Callable[..., T] | None:
    """A :class:`~meeple._speedups.SlotBuilder` of the slotted ``cls`` (other calls to ``fallback``), or None.

    None where the package was built without it, or for a class it does not
    take (one not built by ``object.__new__``, or with more slots than it sets).
    """
    slots = field_slots(cls) if _SlotBuilder is not None else None
    if not slots:
        return None
    try:
        built: Callable[..., T] = _SlotBuilder(cls, tuple(slots), fallback)
    except (TypeError, ValueError):
        return None
    return built

__all__ = ["builder", "filler", "own_dict", "replace", "replacer"]

T = TypeVar("T")
_REPLACERS: dict[tuple[type, tuple[str, ...]], Callable[..., Any]] = {}


def _dict_backed(cls: type) -> bool:
    """True for a class whose instances keep their fields in ``__dict__`` and cache no derived value there."""
    if hasattr(cls, "__slots__") or hasattr(cls, "__attrs_post_init__"):
        return False
    return not any(isinstance(v, functools.cached_property) for k in cls.__mro__ for v in vars(k).values())


def replacer(cls: type[T], *only: str) -> Callable[..., T]:
    """A quick ``attrs.evolve`` for the frozen attrs class ``cls``, written once per class and fields.

    Without field names: ``replace(obj, field=value, ...)``. With field names
    ``only``, the copy changes exactly those fields, their new values given
    in that order: ``replace(obj, v1, v2)`` (no keywords to match). Unknown or
    repeated names raise :class:`TypeError`.
    """
    key = (cls, only)
    found = _REPLACERS.get(key)
    if found is not None:
        return cast(Callable[..., T], found)
    names = [f.name for f in attrs.fields(cast(Any, cls))]
    unknown = set(only) - set(names)
    if unknown or len(set(only)) != len(only):
        raise TypeError(f"{cls.__name__} fields to change must be distinct fields, not {only}")
    changed = list(only) if only else names
    namespace: dict[str, Any] = {"_KEEP": object(), "_new": object.__new__, "_cls": cls}

    def new_value(name: str) -> str:
        if not only:
            return f"obj.{name} if {name} is _KEEP else {name}"
        return name if name in only else f"obj.{name}"

    setters = slot_setters(cls)
    compiled = _compiled_for(cls, cls) if setters is not None else None
    if compiled is not None:  # what __init__ would do, its slots set in C (see builder)
        namespace["_build"] = compiled
        body = [f"    return _build({', '.join(new_value(name) for name in names)})"]
    elif setters is not None:  # what __init__ would do, without its call and per-field setattr
        body = ["    o = _new(_cls)"]
        for i, (name, setter) in enumerate(zip(names, setters, strict=True)):
            namespace[f"_set{i}"] = setter
            body.append(f"    _set{i}(o, {new_value(name)})")
        body.append("    return o")
    elif _dict_backed(cls):  # the fields were checked when obj was built: copy them, then the new ones
        # a copy of obj's dict keeps its layout (a dict of its own stays one: see own_dict) and is
        # made at once: quicker than filling a new instance's dict from it
        namespace["_set_dict"] = object.__setattr__
        body = ["    d = obj.__dict__.copy()"]
        for name in changed:
            body.append(f"    d[{name!r}] = {new_value(name)}")
        body += ["    o = _new(_cls)", "    _set_dict(o, '__dict__', d)", "    return o"]
    else:
        body = [f"    return _cls({', '.join(new_value(name) for name in names)})"]
    params = ", ".join(only) if only else "*, " + ", ".join(f"{n}=_KEEP" for n in names)
    exec(f"def replace(obj, {params}):\n" + "\n".join(body) + "\n", namespace)
    fn: Callable[..., T] = namespace["replace"]
    fn.__doc__ = f"A copy of a {cls.__name__} with {', '.join(only) if only else 'the given fields'} changed."
    _REPLACERS[key] = fn
    return fn


def own_dict(value: T) -> T:
    """``value`` (a dict-backed frozen attrs value) with its fields moved to a dict of its own; returned.

    ``__init__`` leaves a value's fields in a dict that shares its key table
    with the class's other instances, and the copies :func:`replacer` makes
    (a copy of the dict) keep that layout. CPython 3.11 reads a field of such
    a value on its slow path every time; a dict of its own, and every copy
    of it, is read through the field's cached place in the table. A game
    whose state is dict-backed (for the quicker copy) builds its first
    states through this, and every state folded from them reads quicker.
    """
    object.__setattr__(value, "__dict__", dict(value.__dict__))
    return value


def replace(value: T, **changes: Any) -> T:
    """A copy of the frozen attrs value ``value`` with ``changes``: ``attrs.evolve``, quicker (see :func:`replacer`).

    An unknown field raises :class:`TypeError`.
    """
    fn = _REPLACERS.get((type(value), tuple(changes))) or replacer(type(value), *changes)
    out: T = fn(value, *changes.values())
    return out


def builder(cls: type[T]) -> Callable[..., T]:
    """A quick constructor of the frozen attrs class ``cls`` from all its fields (positional or by name).

    The same object as ``cls(...)`` with every field given, built as
    :func:`replacer` builds copies: a slotted class gets its slots set one by
    one (in C, by ``meeple._speedups.SlotBuilder``, for fields given
    positionally where the package was built with it), a dict-backed one
    (see :func:`replacer`) its ``__dict__`` key by key (for quicker reads,
    see :func:`own_dict`). :class:`TypeError` for a class whose ``__init__``
    does more than set its fields.

    >>> @attrs.frozen(slots=False)
    ... class Seen:
    ...     seat: int
    ...     hand: tuple[int, ...]
    >>> builder(Seen)(seat=1, hand=(3, 4)) == Seen(1, (3, 4))
    True
    """
    names = [f.name for f in attrs.fields(cast(Any, cls))]
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    setters = slot_setters(cls)
    if setters is not None:
        body = ["    o = _new(_cls)"]
        for i, (name, setter) in enumerate(zip(names, setters, strict=True)):
            namespace[f"_set{i}"] = setter
            body.append(f"    _set{i}(o, {name})")
    elif _dict_backed(cls) and init_sets_fields_only(cls):
        # filled key by key: the quickest build. CPython 3.11 shares the key table of a class of up to 30
        # fields among its instances, and reads such fields on its slow path; own_dict gives one its own
        body = ["    o = _new(_cls)", "    d = o.__dict__"] + [f"    d[{name!r}] = {name}" for name in names]
    else:
        raise TypeError(f"{cls.__name__} does more than set its fields when built")
    exec(f"def build({', '.join(names)}):\n" + "\n".join(body) + "\n    return o\n", namespace)
    build: Callable[..., T] = namespace["build"]
    build.__doc__ = f"A new {cls.__name__} from all its fields."
    compiled = _compiled_for(cls, build) if setters is not None else None
    return build if compiled is None else compiled  # in C, keywords go to the Python function


def filler(cls: type[T]) -> Callable[[dict[str, Any]], T]:
    """A quick constructor of the dict-backed frozen attrs class ``cls`` from a dict of all its fields.

    ``fill(fields)`` is ``cls(**fields)`` where ``fields`` names every field,
    in order: the dict itself becomes the value's ``__dict__`` (nothing
    checks the names, so build it as a dict display next to the call and
    keep no other reference to it). Its value keeps its fields in a dict of
    its own (see :func:`own_dict`), which reads quicker than the one
    :func:`builder` fills for a class whose keys CPython shares among its
    instances; a large class's dict display builds slower than that fill.
    :class:`TypeError` for a class that is not dict-backed, or whose
    ``__init__`` does more than set its fields.

    >>> @attrs.frozen(slots=False)
    ... class Seen:
    ...     seat: int
    ...     hand: tuple[int, ...]
    >>> filler(Seen)({"seat": 1, "hand": (3, 4)}) == Seen(1, (3, 4))
    True
    """
    if not (_dict_backed(cls) and init_sets_fields_only(cls)):
        raise TypeError(f"{cls.__name__} is not a dict-backed class whose __init__ only sets its fields")
    new, set_attribute = object.__new__, object.__setattr__

    def fill(fields: dict[str, Any]) -> T:
        value: T = new(cls)
        set_attribute(value, "__dict__", fields)
        return value

    fill.__doc__ = f"A new {cls.__name__} whose fields are the dict given (every field, in order)."
    return fill
