"""Signed combinations of cards: every way to collect a supply count.

A collection adds some cards and subtracts others so that the sum of the
added faces minus the sum of the subtracted ones equals the count printed at
the hole (seed text, "Сбор припасов"). Cards of one kind and value are
identical, so a combination is a pair of sorted card tuples, and the same
multiset is listed once. Designed restrictions, to keep the list meaningful:

* at least one card is added;
* no face value is both added and subtracted in one collection (such pairs
  cancel out and only burn cards).

>>> from .data import card
>>> hand = tuple(card(c) for c in ("A2", "A5", "A9", "B4"))
>>> list(hand_combinations(hand, 7, True, frozenset({card("A2").kind})))
[((A2, A5), ()), ((A9,), (A2,))]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from .data import Card, Kind

Combination = tuple[tuple[Card, ...], tuple[Card, ...]]


def hand_combinations(hand: tuple[Card, ...], target: int, subtract: bool, kinds: frozenset[Kind]) -> Iterator[Combination]:
    """Yield every (plus, minus) from ``hand`` whose signed sum is ``target``.

    Only cards whose kind is in ``kinds`` take part; ``subtract`` allows
    subtracted cards. Results come in a fixed order.
    """
    faces = sorted(Counter(c for c in hand if c.kind in kinds).items(), key=lambda fc: fc[0].key)
    n = len(faces)
    rest = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        rest[i] = rest[i + 1] + faces[i][0].value * faces[i][1]
    plus: list[Card] = []
    minus: list[Card] = []

    # faces come in sorted order, so plus and minus stay sorted as they grow;
    # the values used on each side are bit masks (bit v for value v)
    def dfs(i: int, total: int, plus_bits: int, minus_bits: int) -> Iterator[Combination]:
        if total + rest[i] < target:
            return
        if total - (rest[i] if subtract else 0) > target:
            return
        if i == n:
            if total == target and plus:
                yield tuple(plus), tuple(minus)
            return
        face, count = faces[i]
        v = face.value
        bit = 1 << v
        yield from dfs(i + 1, total, plus_bits, minus_bits)
        if not minus_bits & bit:
            for a in range(1, count + 1):
                plus.extend((face,) * a)
                yield from dfs(i + 1, total + v * a, plus_bits | bit, minus_bits)
                del plus[len(plus) - a :]
        if subtract and not plus_bits & bit:
            for b in range(1, count + 1):
                minus.extend((face,) * b)
                yield from dfs(i + 1, total - v * b, plus_bits, minus_bits | bit)
                del minus[len(minus) - b :]

    yield from dfs(0, 0, 0, 0)


def bank_combinations(bank: tuple[Card, ...], loot: tuple[Card, ...], target: int, kind: Kind, max_take: int = 3, max_change: int = 2) -> Iterator[Combination]:
    """Beginner rules: yield (taken from ``bank``, change from ``loot``) of one ``kind`` worth ``target``.

    At most ``max_take`` cards are taken and ``max_change`` given back as
    change; no value is both taken and given back.
    """
    take_faces = sorted(Counter(c for c in bank if c.kind is kind).items(), key=lambda fc: fc[0].key)
    give_faces = sorted(Counter(c for c in loot if c.kind is kind).items(), key=lambda fc: fc[0].key)
    change_by_sum: dict[int, list[tuple[Card, ...]]] = {}
    for change in _multisets(give_faces, max_change):
        change_by_sum.setdefault(sum(c.value for c in change), []).append(change)
    for taken in _multisets(take_faces, max_take):
        if not taken:
            continue
        t = sum(c.value for c in taken)
        if t < target:
            continue
        values = {c.value for c in taken}
        for change in change_by_sum.get(t - target, ()):
            if not any(c.value in values for c in change):
                yield taken, change


def _multisets(faces: list[tuple[Card, int]], most: int) -> Iterator[tuple[Card, ...]]:
    """Yield every sorted multiset of at most ``most`` cards drawn from ``faces`` (card, copies)."""

    def rec(i: int, left: int, acc: tuple[Card, ...]) -> Iterator[tuple[Card, ...]]:
        if i == len(faces):
            yield acc
            return
        face, count = faces[i]
        for k in range(min(count, left) + 1):
            yield from rec(i + 1, left - k, acc + (face,) * k)

    yield from rec(0, most, ())
