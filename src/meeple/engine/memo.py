"""Memos: the one way the speed layer of a game remembers answers.

A game's rules are pure functions of their arguments, so an answer worked
out once may be handed back when the same arguments come again. Every cache
of the bundled games is one of the three kinds below, each keyed by the
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
* :class:`Trail`: the states a ``decide`` folded its events through, so that
  the engine's fold of the same events from the same state hands them back
  (``fold(state, event)`` keyed by the identity of both).

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

import weakref
from collections.abc import Callable
from typing import Any, Generic, TypeVar

__all__ = ["Last", "Table", "Trail", "clear_all", "derived", "memos"]

K = TypeVar("K")
V = TypeVar("V")
S = TypeVar("S")
E = TypeVar("E")

#: Every memo made, by name: what :func:`clear_all` empties (weakly held: a memo of a discarded object goes).
_ALL: weakref.WeakValueDictionary[str, Table[Any, Any] | Last[Any, Any] | Trail[Any, Any]] = weakref.WeakValueDictionary()


def _register(memo: Table[Any, Any] | Last[Any, Any] | Trail[Any, Any], name: str) -> None:
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


class Trail(Generic[S, E]):
    """The folds a ``decide`` made, ``(state, event, state after)``, for the fold of the same events to reuse.

    A rule that reads the state after some of its events folds them as it
    decides; the engine then folds the very same events into the very same
    state. :meth:`after` hands back what ``fold(state, event)`` gave, keyed by
    the identity of both (so a fold of any other state or event misses), and
    the trail holds them until the next :meth:`start`.

    >>> trail: Trail[str, str] = Trail("doc: trail")
    >>> before, event = "s0", "e0"
    >>> trail.start()
    >>> trail.fold(before, event, lambda s, e: s + e)
    's0e0'
    >>> trail.after(before, event), trail.after("s0", "e1")
    ('s0e0', None)
    """

    __slots__ = ("__weakref__", "folds", "name")

    def __init__(self, name: str) -> None:
        self.name = name
        self.folds: list[tuple[S, E, S]] = []
        _register(self, name)

    def start(self) -> None:
        """Begin a new decide's trail (forgetting the last one)."""
        self.folds = []

    def fold(self, state: S, event: E, fold: Callable[[S, E], S]) -> S:
        """``fold(state, event)``, remembered on the trail."""
        after = fold(state, event)
        self.folds.append((state, event, after))
        return after

    def after(self, state: S, event: E) -> S | None:
        """The state a fold on the trail made of this very ``state`` and ``event``, or None."""
        for before, done, after in self.folds:
            if done is event and before is state:
                return after
        return None

    def clear(self) -> None:
        """Forget the trail."""
        self.folds = []

    def __repr__(self) -> str:
        return f"Trail({self.name!r}, {len(self.folds)} folds)"


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


def memos() -> dict[str, Table[Any, Any] | Last[Any, Any] | Trail[Any, Any]]:
    """Every memo alive, by name (a copy)."""
    return dict(_ALL)


def clear_all() -> None:
    """Empty every memo: the next question of every kind is worked out afresh."""
    for memo in list(_ALL.values()):
        memo.clear()
