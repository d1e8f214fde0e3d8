"""Walking through the tunnels: every way to move exactly N steps.

Rules (seed text, "Перемещение фишки", made precise here):

* a step goes from a hole through one tunnel of the open spread to a
  neighbouring hole, in any direction;
* a walk never visits a hole twice (the start included), so a pawn cannot
  step back and forth to burn steps;
* a pawn in the way may be jumped: the jump goes through the occupied hole
  (and through any further pawns on holes joined to it by tunnels) and lands
  on the first free hole; the whole jump is one step;
* a walk never ends on an occupied hole (a step into one is a jump);
* if no walk of exactly N steps exists, the longest walks that do exist are
  the legal ones (the pawn stays put only when it cannot move at all).

>>> from .data import spread
>>> sorted(walks(spread(1), 0, 1, {}))
[(1, ()), (5, ())]
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping

from .data import Spread, spread

#: A walk's outcome: the hole it ends on and the seats whose pawns it jumped (sorted).
Walk = tuple[int, tuple[int, ...]]


def _hops(sp: Spread, here: int, visited: frozenset[int], pawns: Mapping[int, int]) -> Iterator[tuple[int, tuple[int, ...], tuple[int, ...]]]:
    """Yield one step from ``here``: (landing hole, seats jumped, holes passed)."""
    for n in sp.neighbours[here]:
        if n in visited:
            continue
        if n not in pawns:
            yield n, (), (n,)
            continue
        stack: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = [(n, (pawns[n],), (n,))]
        while stack:
            cur, seats, path = stack.pop()
            for m in sp.neighbours[cur]:
                if m in visited or m in path:
                    continue
                if m in pawns:
                    stack.append((m, (*seats, pawns[m]), (*path, m)))
                else:
                    yield m, seats, (*path, m)


def walks(sp: Spread, start: int, steps: int, pawns: Mapping[int, int]) -> frozenset[Walk]:
    """Return every legal walk outcome from ``start`` for a roll of ``steps``.

    ``pawns`` maps each hole holding another player's pawn to that seat (the
    walker's own pawn is not in it). See the module docstring for the rules.
    """
    by_length: list[set[Walk]] = [set() for _ in range(steps + 1)]
    by_length[0].add((start, ()))

    def dfs(here: int, k: int, visited: frozenset[int], jumped: tuple[int, ...]) -> None:
        by_length[k].add((here, tuple(sorted(jumped))))
        if k == steps:
            return
        for land, seats, path in _hops(sp, here, visited, pawns):
            dfs(land, k + 1, visited.union(path), (*jumped, *seats))

    dfs(start, 0, frozenset((start,)), ())
    for k in range(steps, -1, -1):
        if by_length[k]:
            return frozenset(by_length[k])
    return frozenset()  # pragma: no cover - length 0 always holds the start


@functools.lru_cache(maxsize=1 << 15)
def walk_outcomes(spread_no: int, start: int, steps: int, pawns: tuple[tuple[int, int], ...]) -> tuple[Walk, ...]:
    """:func:`walks` on spread number ``spread_no``, sorted; ``pawns`` as sorted (hole, seat) pairs.

    The book never changes, so the outcomes of each position are worked out
    once and remembered.

    >>> walk_outcomes(1, 0, 1, ())
    ((1, ()), (5, ()))
    """
    return tuple(sorted(walks(spread(spread_no), start, steps, dict(pawns))))
