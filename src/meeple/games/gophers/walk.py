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

import bisect
import operator
from collections.abc import Callable, Mapping

from meeple.engine.memo import cached

from .data import DIE, SPREADS, Spread, spread

#: A walk's outcome: the hole it ends on and the seats whose pawns it jumped (sorted).
Walk = tuple[int, tuple[int, ...]]
#: Paths on the open spread: (steps, end, holes visited, holes beside the end not visited yet) as bit masks.
Paths = tuple[tuple[int, int, int, int], ...]


def walks(sp: Spread, start: int, steps: int, pawns: Mapping[int, int]) -> frozenset[Walk]:
    """Return every legal walk outcome from ``start`` for a roll of ``steps``.

    ``pawns`` maps each hole holding another player's pawn to that seat (the
    walker's own pawn is not in it). See the module docstring for the rules.
    """
    return frozenset((h, _SEATS[j]) for h, j in _ends(sp, start, steps, pawns))


def _ends(sp: Spread, start: int, steps: int, pawns: Mapping[int, int]) -> set[tuple[int, int]]:
    """The ends of the legal walks as (hole, bit mask of the seats jumped).

    The walks that meet no pawn are the open spread's paths (:func:`_paths`,
    worked out once) that keep clear of every pawn. From the end of such a
    path beside a pawn the walk may jump on; those walks are followed depth
    first, holes visited and seats jumped kept as bit masks. Only the ends
    of the longest walks so far are kept.
    """
    nbrs = sp.neighbours
    occupied = 0
    for h in pawns:
        occupied |= 1 << h
    stack: list[tuple[int, int, int, int]] = []  # walks after a jump: (hole, steps taken, holes visited, seats jumped)
    push = stack.append
    book = 1 <= sp.number <= len(SPREADS) and SPREADS[sp.number - 1] is sp
    paths = _paths(sp.number, start, steps) if book else _open_paths(nbrs, start, steps)
    longest, ends = 0, {(start, 0)}  # the walks' ends (hole, seats jumped) at the longest length so far
    for k, here, visited, beside in paths:
        if visited & occupied:
            continue  # it runs into a pawn: the walk jumps there, from the shorter path before it
        if k >= longest:
            if k > longest:
                longest, ends = k, set()
            ends.add((here, 0))
        blocked = beside & occupied if k < steps else 0
        if blocked:
            for n in nbrs[here]:
                if blocked >> n & 1:
                    _jump(nbrs, occupied, pawns, n, k + 1, visited | 1 << n, 1 << pawns[n], push)
    pop = stack.pop
    while stack:
        here, k, visited, jumped = pop()
        if k >= longest:
            if k > longest:
                longest, ends = k, set()
            ends.add((here, jumped))
        if k == steps:
            continue
        k += 1
        for n in nbrs[here]:
            bit = 1 << n
            if visited & bit:
                continue
            if occupied & bit:
                _jump(nbrs, occupied, pawns, n, k, visited | bit, jumped | 1 << pawns[n], push)
            else:
                push((n, k, visited | bit, jumped))
    return ends


def _jump(nbrs: tuple[tuple[int, ...], ...], occupied: int, pawns: Mapping[int, int], hole: int, k: int,
          passed: int, seats: int, push: Callable[[tuple[int, int, int, int]], None]) -> None:
    """A jump, one step: through the pawn on ``hole`` and any pawns joined to it, to each first free hole."""
    chain = [(hole, passed, seats)]
    while chain:
        cur, passed, seats = chain.pop()
        for m in nbrs[cur]:
            mb = 1 << m
            if passed & mb:
                continue
            if occupied & mb:
                chain.append((m, passed | mb, seats | 1 << pawns[m]))
            else:
                push((m, k, passed | mb, seats))


@cached("gophers: open paths", limit=None)  # a spread, a hole and a roll
def _paths(spread_no: int, start: int, steps: int) -> Paths:
    """:func:`_open_paths` of a spread of the book, worked out once per hole for a roll of the die.

    Paths are listed shortest first, so the paths of a shorter walk are the
    first ones of a longer walk's.
    """
    if steps >= DIE:
        return _open_paths(spread(spread_no).neighbours, start, steps)
    longest = _paths(spread_no, start, DIE)
    return longest[:bisect.bisect_right(longest, steps, key=_STEPS)]


def _open_paths(nbrs: tuple[tuple[int, ...], ...], start: int, steps: int) -> Paths:
    """Every path of at most ``steps`` steps from ``start`` on the open spread (no pawn), never visiting a hole twice.

    Each as (steps, end, holes visited, holes beside the end not visited
    yet), the holes as bit masks, the shorter paths first. A path of
    ``steps`` steps goes no further, whatever lies beside its end.
    """
    around = _around(nbrs)
    out = [(0, start, 1 << start, around[start] & ~(1 << start))]
    for k, here, visited, beside in out:  # read as a queue: the paths one step longer join its end
        if k == steps:
            break  # every path after it has ``steps`` steps too
        k += 1
        for n in nbrs[here]:
            if beside >> n & 1:
                through = visited | 1 << n
                out.append((k, n, through, around[n] & ~through))
    return tuple(out)


@cached("gophers: holes beside each hole", limit=64)
def _around(nbrs: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """The holes beside each hole, as a bit mask (worked out once per spread)."""
    return tuple([sum(1 << n for n in ns) for ns in nbrs])


# The parts of a path (see :func:`_open_paths`).
_STEPS = operator.itemgetter(0)

#: The sorted seats of each bit mask of seats.
_SEATS = tuple(tuple(s for s in range(8) if j >> s & 1) for j in range(256))
#: The place of each bit mask of seats when the masks are sorted by their seats (:data:`_SEATS`).
_SEATS_RANK = tuple(sorted(range(256), key=_SEATS.__getitem__).index(j) for j in range(256))


def walk_outcomes(spread_no: int, start: int, steps: int, pawns: tuple[tuple[int, int], ...]) -> tuple[Walk, ...]:
    """:func:`walks` on spread number ``spread_no``, sorted; ``pawns`` as sorted (hole, seat) pairs.

    (The rules remember the walks of recent positions, see ``rules.legal_moves``.)

    >>> walk_outcomes(1, 0, 1, ())
    ((1, ()), (5, ()))
    """
    return tuple((h, _SEATS[j]) for h, j in walk_ends(spread_no, start, steps, dict(pawns)))


def walk_ends(spread_no: int, start: int, steps: int, pawns: Mapping[int, int]) -> tuple[tuple[int, int], ...]:
    """The outcomes of :func:`walk_outcomes` (in its order) as (hole, bit mask of the seats jumped).

    A walk that meets no pawn is the walk on an empty spread, worked out once.

    >>> walk_ends(1, 0, 1, {})
    ((1, 0), (5, 0))
    """
    free, reach = _open_walks(spread_no, start, steps)
    for hole in pawns:
        if reach >> hole & 1:
            return _in_order(_full_ends(spread_no, start, steps, pawns) or _ends(spread(spread_no), start, steps, pawns))
    return free


def _full_ends(spread_no: int, start: int, steps: int, pawns: Mapping[int, int]) -> set[tuple[int, int]]:
    """The ends of the walks of all ``steps`` steps, as :func:`_ends` gives them; empty if no walk is that long.

    Most rolls can be walked in full, and then the shorter walks do not
    count: only the full open paths are kept, and the jumps are followed
    to their full length alone (:func:`_ends` keeps the longest ends of
    every length on the way).
    """
    if not 0 < steps <= DIE:
        return set()
    nbrs = spread(spread_no).neighbours
    occupied = 0
    for h in pawns:
        occupied |= 1 << h
    ends: set[tuple[int, int]] = set()
    stack: list[tuple[int, int, int, int]] = []  # walks after a jump: (hole, steps taken, holes visited, seats jumped)
    push = stack.append
    for k, here, visited, beside in _paths(spread_no, start, steps):
        if visited & occupied:
            continue  # it runs into a pawn: the walk jumps there, from the shorter path before it
        if k == steps:
            ends.add((here, 0))
        elif beside & occupied:
            for n in nbrs[here]:
                if occupied >> n & 1 and beside >> n & 1:
                    _jump(nbrs, occupied, pawns, n, k + 1, visited | 1 << n, 1 << pawns[n], push)
    pop = stack.pop
    while stack:
        here, k, visited, jumped = pop()
        if k == steps:
            ends.add((here, jumped))
            continue
        k += 1
        for n in nbrs[here]:
            bit = 1 << n
            if visited & bit:
                continue
            if occupied & bit:
                _jump(nbrs, occupied, pawns, n, k, visited | bit, jumped | 1 << pawns[n], push)
            else:
                push((n, k, visited | bit, jumped))
    return ends


def _in_order(ends: set[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Walk ends sorted as :func:`walk_outcomes` lists them: by hole, then by the seats jumped."""
    return tuple(sorted(ends, key=_walk_order))


def _walk_order(end: tuple[int, int]) -> int:
    """The place of a walk end (hole, bit mask of the seats jumped) in :func:`_in_order`'s order."""
    return end[0] << 8 | _SEATS_RANK[end[1]]


def _open_walks(spread_no: int, start: int, steps: int) -> tuple[tuple[tuple[int, int], ...], int]:
    """The walk ends from ``start`` with no other pawn on the spread, and the holes they visit (a bit mask).

    Walks look at no hole beyond those an open walk visits, so pawns
    elsewhere change nothing: the same walks are legal with them.
    """
    if 0 <= steps <= DIE:
        return _open_walks_by_roll(spread_no, start)[steps]
    return _open_walks_of(_paths(spread_no, start, steps))


@cached("gophers: open walks", limit=None)  # a spread and a hole
def _open_walks_by_roll(spread_no: int, start: int) -> tuple[tuple[tuple[tuple[int, int], ...], int], ...]:
    """:func:`_open_walks` for each roll ``0..DIE`` (by index), from one pass over the longest roll's paths.

    The paths come shortest first, so the walks of a roll of ``k`` end where
    the paths of ``k`` steps end, and visit what the paths up to them visit;
    a roll longer than every path walks the longest paths.
    """
    by_roll: list[tuple[tuple[tuple[int, int], ...], int]] = []
    reach, ends = 0, set[int]()
    for k, end, visited, _beside in _paths(spread_no, start, DIE):
        if k > len(by_roll):  # the paths of k - 1 steps are all in
            by_roll.append((tuple([(e, 0) for e in sorted(ends)]), reach))
            ends = set()
        reach |= visited
        ends.add(end)
    by_roll.append((tuple([(e, 0) for e in sorted(ends)]), reach))
    return tuple(by_roll + by_roll[-1:] * (DIE + 1 - len(by_roll)))


def _open_walks_of(paths: Paths) -> tuple[tuple[tuple[int, int], ...], int]:
    """The walk ends and the holes visited of the open paths ``paths`` (shortest first)."""
    reach = 0
    for _k, _end, visited, _beside in paths:
        reach |= visited
    longest = paths[-1][0]
    return tuple([(end, 0) for end in sorted({end for k, end, _visited, _beside in paths if k == longest})]), reach
