"""Memos: the one way the speed layer of a game remembers answers.

A game's rules are pure functions of their arguments, so an answer worked
out once may be handed back when the same arguments come again. Every cache
of the bundled games is one of the kinds below, each keyed by the
whole input of the function it remembers, and each registered here so that
:func:`clear_all` empties them all (a test, a benchmark or a long-running
server can start from nothing):

* :class:`Table`: answers by key (a dict), emptied when it reaches its
  ``limit``. The key is every argument the function reads.
* :class:`Last`: the answer for the last input, recognised by identity (no
  hashing): most turns ask about the very object the turn before did.
* :func:`derived`: the answers of a function about one immutable object,
  kept with that object (they go when it goes), by the function and then
  its other arguments.
* :func:`cached`: a function's answers by all its arguments (``functools.lru_cache``
  of a bounded size), for values worked out once per spread, deck or hand.
* :class:`Ring`: the last objects made, kept alive (a bounded deque), where
  the answers about them are held elsewhere only weakly (a Saboteur board's
  children): what a search shares between its playouts without keeping
  everything it ever made.

A ``decide`` that folds its events as it goes keeps no memo of those
states: it hands the state it reached to the engine through
``Game.decide_and_fold`` (see :mod:`meeple.engine.game`).

>>> squares = Table("squares", limit=2)
>>> squares.get(3) is None
True
>>> squares.put(3, 9)
9
>>> squares[3]
9
>>> clear_all()
>>> len(squares)
0
"""

from __future__ import annotations

import functools
import weakref
from collections import deque
from collections.abc import Callable
from typing import Any, Generic, ParamSpec, TypeAlias, TypeVar, cast

__all__ = ["Cached", "Last", "Ring", "Table", "cached", "clear_all", "derived", "memos"]

K = TypeVar("K")
T = TypeVar("T")
V = TypeVar("V")
P = ParamSpec("P")
R = TypeVar("R")

#: Any of the memos (what :func:`memos` lists).
Memo: TypeAlias = "Table[Any, Any] | Last[Any, Any] | Cached | Ring[Any]"

#: Every memo made, by name: what :func:`clear_all` empties (weakly held: a memo of a discarded object goes).
_ALL: weakref.WeakValueDictionary[str, Memo] = weakref.WeakValueDictionary()


def _register(memo: Memo, name: str) -> None:
    if name in _ALL:
        raise ValueError(f"a memo named {name!r} exists already; give each memo its own name")
    _ALL[name] = memo


class Table(dict[K, V]):
    """Answers by their full input, emptied when ``limit`` keys are held (a bounded dict).

    Read it as a dict (``get``, ``[]``: no cost over a dict); write with
    :meth:`put`, which keeps the bound.

    >>> t = Table("doc: table", limit=1)
    >>> t.put("a", 1), t.put("b", 2), dict(t)
    (1, 2, {'b': 2})
    """

    __slots__ = ("__weakref__", "limit", "name")

    def __init__(self, name: str, limit: int) -> None:
        super().__init__()
        self.name = name
        self.limit = limit
        _register(self, name)

    def put(self, key: K, value: V) -> V:
        """Remember ``value`` as the answer for ``key`` and return it (first emptying a full table)."""
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value

    def __repr__(self) -> str:
        return f"Table({self.name!r}, {len(self)}/{self.limit})"



class Last(Generic[K, V]):
    """The answer for the last input only, recognised by identity (``is``), never by hashing it.

    The input is held (so its identity cannot be reused) until the next
    :meth:`put`. ``pair`` is one tuple, replaced whole: a reader in another
    thread sees an old pair or a new one, never half of each.

    >>> last: Last[tuple[int, ...], int] = Last("doc: last")
    >>> key = (1, 2)
    >>> last.put(key, 3)
    3
    >>> last.get(key), last.get((1, 2, 3))
    (3, None)
    """

    __slots__ = ("__weakref__", "name", "pair")

    def __init__(self, name: str) -> None:
        self.name = name
        self.pair: tuple[object, V | None] = (None, None)
        _register(self, name)

    def get(self, key: K) -> V | None:
        """The answer remembered for this very object ``key``, or None."""
        pair = self.pair
        return pair[1] if pair[0] is key else None

    def put(self, key: K, value: V) -> V:
        """Remember ``value`` as the answer for ``key`` (forgetting the one before) and return it."""
        self.pair = (key, value)
        return value

    def clear(self) -> None:
        """Forget the last answer."""
        self.pair = (None, None)

    def __repr__(self) -> str:
        return f"Last({self.name!r})"


class Cached:
    """The memo of a function made by :func:`cached`: its name, and :meth:`clear` for :func:`clear_all`."""

    __slots__ = ("__weakref__", "function", "name")

    def __init__(self, name: str, function: Any) -> None:
        self.name = name
        self.function = function  # a functools.lru_cache wrapper
        _register(self, name)

    def clear(self) -> None:
        """Forget every answer of the function."""
        self.function.cache_clear()

    def __repr__(self) -> str:
        return f"Cached({self.name!r}, {self.function.cache_info().currsize}/{self.function.cache_info().maxsize})"


class Ring(deque[T]):
    """The last ``size`` objects put in, kept alive (a deque of that ``maxlen``); the oldest goes first.

    For objects whose answers are kept elsewhere only by weak references:
    the ring decides how many stay alive, and :func:`clear_all` lets them all go.

    >>> ring: Ring[str] = Ring("doc: ring", size=2)
    >>> ring.extend("abc"); list(ring)
    ['b', 'c']
    >>> clear_all(); len(ring)
    0
    """

    __slots__ = ("name",)

    def __init__(self, name: str, size: int) -> None:
        super().__init__(maxlen=size)
        self.name = name
        _register(self, name)

    def __repr__(self) -> str:
        return f"Ring({self.name!r}, {len(self)}/{self.maxlen})"


def cached(name: str, limit: int | None) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Remember a pure function's answers by all its arguments, at most ``limit`` of them (least recent go first).

    It is ``functools.lru_cache(limit)``, as quick, registered as a memo, so
    that :func:`clear_all` empties it too. For a function of hashable
    values worked out once per spread, options or hand; ``limit`` None
    bounds nothing, for a function of a few arguments only (a spread and a
    hole).

    >>> @cached("doc: cached", limit=4)
    ... def double(x: int) -> int:
    ...     return 2 * x
    >>> double(3), double.cache_info().currsize  # type: ignore[attr-defined]
    (6, 1)
    >>> clear_all(); double.cache_info().currsize  # type: ignore[attr-defined]
    0
    """

    def wrap(function: Callable[P, R]) -> Callable[P, R]:
        remembered = functools.lru_cache(maxsize=limit)(function)
        _KEPT.append(Cached(name, remembered))  # a memo of a module-level function lives as long as it
        return cast(Callable[P, R], remembered)

    return wrap


#: The memos of :func:`cached` functions, held for as long as the functions (module-level, for ever).
_KEPT: list[Cached] = []


def derived(memo: dict[Any, Any], fn: Callable[..., Any]) -> dict[Any, Any]:
    """The answers of ``fn`` about one object, kept in that object's ``memo``, by ``fn``'s other arguments.

    An immutable object (a Saboteur board's network) may carry a dict of what
    functions worked out from it; each function has its own table there, keyed
    by the function itself, so no two functions' keys can meet.

    >>> memo: dict[object, object] = {}
    >>> derived(memo, len)[3] = "three"
    >>> derived(memo, len), derived(memo, abs)
    ({3: 'three'}, {})
    """
    found = memo.get(fn)
    if found is None:
        found = memo[fn] = {}
    return found


def memos() -> dict[str, Memo]:
    """Every memo alive, by name (a copy)."""
    return dict(_ALL)


def clear_all() -> None:
    """Empty every memo: the next question of every kind is worked out afresh."""
    for memo in list(_ALL.values()):
        memo.clear()
