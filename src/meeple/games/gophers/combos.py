"""Collections, one card at a time: which card may be laid next so that the collection can be completed.

A collection adds some cards and subtracts others so that the added faces
minus the subtracted ones equal the count printed at the hole (seed text,
"Сбор припасов": "сумма или разница", "карт может быть и больше двух"). A
seat lays its cards one by one (the commands ``Add`` and ``Subtract``) in the
order of :data:`~.data.FACES`, the added copies of a value before the
subtracted ones, and then ``Collect``\\ s. That order gives each collection
exactly one way to be laid, and a card is offered only if the collection can
still be completed, so a seat never walks into a dead end.

Whole collections are never listed: a 14-card hand at a store has tens of
thousands of them. This module reasons about sums instead, with bit sets
(a Python int whose bit ``n + off`` is set when the net sum ``n`` can be
made), so asking for the next cards costs a few dozen integer operations
whatever the hand's size.

>>> from .data import card, sort_cards, Kind
>>> hand = sort_cards([card(c) for c in ("A2", "A5", "A9", "B4")])
>>> hand_steps(hand, (Kind.ACORN,), 7, True, (), ())
[(A2, False), (A2, True)]
>>> can_collect_hand(hand, (Kind.ACORN,), 8, True)
False
"""

from __future__ import annotations

from collections.abc import Iterable

from .data import BANK_CHANGE, BANK_TAKE, RANK, Card, Kind

#: A card that may be laid next: (card, subtracted).
Step = tuple[Card, bool]


def faces_of(cards: Iterable[Card], kinds: tuple[Kind, ...]) -> list[tuple[Card, int]]:
    """The distinct faces among ``cards`` (sorted) whose kind is in ``kinds``, with their counts."""
    out: list[tuple[Card, int]] = []
    for c in cards:
        if c.kind in kinds:
            if out and out[-1][0] == c:
                out[-1] = (c, out[-1][1] + 1)
            else:
                out.append((c, 1))
    return out


def laid_sum(plus: tuple[Card, ...], minus: tuple[Card, ...]) -> int:
    """The net value of the cards laid so far."""
    return sum(c.value for c in plus) - sum(c.value for c in minus)


def _last(plus: tuple[Card, ...], minus: tuple[Card, ...]) -> tuple[int, bool] | None:
    """(rank, subtracted) of the last card laid in the canonical order, or None before the first."""
    a = (RANK[plus[-1]], False) if plus else None
    b = (RANK[minus[-1]], True) if minus else None
    if a is None or b is None:
        return a or b
    return max(a, b)


# -- with hands: any number of cards, added or subtracted ------------------------


def _suffix_reach(faces: list[tuple[Card, int]], off: int, subtract: bool) -> list[int]:
    """``reach[i]``: the net sums the faces ``i..`` can make, each copy added, subtracted or left."""
    reach = [0] * (len(faces) + 1)
    reach[-1] = acc = 1 << off
    for i in range(len(faces) - 1, -1, -1):
        face, count = faces[i]
        r = acc
        for m in range(1, count + 1):
            acc |= r << (m * face.value)
            if subtract:
                acc |= r >> (m * face.value)
        reach[i] = acc
    return reach


def can_collect_hand(hand: tuple[Card, ...], kinds: tuple[Kind, ...], target: int, subtract: bool) -> bool:
    """True if some cards of ``hand`` of ``kinds`` make ``target`` (``subtract``: with differences)."""
    faces = faces_of(hand, kinds)
    off = sum(f.value * n for f, n in faces)
    return 0 <= target + off <= 2 * off and bool(_suffix_reach(faces, off, subtract)[0] >> (target + off) & 1)


def hand_reach(hand: tuple[Card, ...], kinds: tuple[Kind, ...], subtract: bool) -> tuple[int, int]:
    """``(bits, off)``: bit ``n + off`` of ``bits`` is set when the cards of ``kinds`` can make ``n``."""
    faces = faces_of(hand, kinds)
    off = sum(f.value * n for f, n in faces)
    return _suffix_reach(faces, off, subtract)[0], off


def hand_steps(hand: tuple[Card, ...], kinds: tuple[Kind, ...], target: int, subtract: bool,
               plus: tuple[Card, ...], minus: tuple[Card, ...]) -> list[Step]:
    """Every card of ``hand`` that may be laid next, after ``plus`` and ``minus``, towards ``target``.

    ``hand`` holds the cards not laid yet. A step is offered when the
    collection can still be completed with the cards after it in the
    canonical order. The result follows that order.
    """
    faces = faces_of(hand, kinds)
    off = sum(f.value * n for f, n in faces)
    reach = _suffix_reach(faces, off, subtract)
    if not plus and not minus and not (0 <= target + off <= 2 * off and reach[0] >> (target + off) & 1):
        return []  # no cards of the hand make the count: no first card leads anywhere
    last = _last(plus, minus)
    base = target - laid_sum(plus, minus)
    out: list[Step] = []
    for i, (face, count) in enumerate(faces):
        rank = RANK[face]
        if last is not None and rank < last[0]:
            continue
        after_minus = last is not None and rank == last[0] and last[1]
        v = face.value
        rest = reach[i + 1]
        for sub in (False, True) if subtract else (False,):
            if after_minus and not sub:
                continue  # the added copies of a value come before its subtracted ones
            acc = rest  # what the remaining copies of this face, then the later faces, can make
            for m in range(1, count):
                if not sub:
                    acc |= rest << (m * v)
                if subtract:
                    acc |= rest >> (m * v)
            at = base - (-v if sub else v) + off
            if 0 <= at <= 2 * off and acc >> at & 1:
                out.append((face, sub))
    return out


# -- the beginner bank: a few cards taken, a little change given ---------------------


def _bank_faces(bank: tuple[Card, ...], pile: tuple[Card, ...], kind: Kind) -> tuple[tuple[Card, int, int], ...]:
    """The faces of ``kind`` in the bank or the pile, sorted: (face, copies in the bank, copies in the pile)."""
    counts: dict[Card, list[int]] = {}
    for c in bank:
        if c.kind is kind:
            counts.setdefault(c, [0, 0])[0] += 1
    for c in pile:
        if c.kind is kind:
            counts.setdefault(c, [0, 0])[1] += 1
    return tuple((f, b, p) for f, (b, p) in sorted(counts.items(), key=lambda fc: RANK[fc[0]]))


_OFF = 64  # nets of a bank collection stay well inside -64..64

#: ``_bank_reach`` of recent faces: the bank changes only when somebody collects.
_BANK_REACH: dict[tuple[tuple[tuple[Card, int, int], ...], int, int], list[list[list[int]]]] = {}


def _bank_reach(faces: tuple[tuple[Card, int, int], ...], take: int, give: int) -> list[list[list[int]]]:
    """``reach[i][t][g]``: net sums of faces ``i..`` taking at most ``t`` cards and giving at most ``g``.

    A face is either taken or given, never both (the seed's change is given
    in other cards).
    """
    key = (faces, take, give)
    found = _BANK_REACH.get(key)
    if found is not None:
        return found
    last = [[1 << _OFF] * (give + 1) for _ in range(take + 1)]
    reach = [last]
    for face, in_bank, in_pile in reversed(faces):
        v = face.value
        cur = [row[:] for row in last]
        for a in range(1, min(in_bank, take) + 1):  # a copies taken
            shift = a * v
            for t in range(a, take + 1):
                src, dst = last[t - a], cur[t]
                for g in range(give + 1):
                    dst[g] |= src[g] << shift
        for b in range(1, min(in_pile, give) + 1):  # b copies given back
            shift = b * v
            for t in range(take + 1):
                src, dst = last[t], cur[t]
                for g in range(b, give + 1):
                    dst[g] |= src[g - b] >> shift
        reach.append(cur)
        last = cur
    reach.reverse()
    if len(_BANK_REACH) > 4096:
        _BANK_REACH.clear()
    _BANK_REACH[key] = reach
    return reach


def can_collect_bank(bank: tuple[Card, ...], pile: tuple[Card, ...], kinds: tuple[Kind, ...], target: int) -> bool:
    """Beginner rules: True if ``target`` of one of ``kinds`` can be taken from ``bank``, with change from ``pile``."""
    for kind in kinds:
        faces = _bank_faces(bank, pile, kind)
        if faces and _bank_reach(faces, BANK_TAKE, BANK_CHANGE)[0][BANK_TAKE][BANK_CHANGE] >> (target + _OFF) & 1:
            return True
    return False


def bank_steps(bank: tuple[Card, ...], pile: tuple[Card, ...], kinds: tuple[Kind, ...], target: int,
               plus: tuple[Card, ...], minus: tuple[Card, ...]) -> list[Step]:
    """Beginner rules: every card that may be taken from ``bank`` (or given as change from ``pile``) next.

    At most :data:`~.data.BANK_TAKE` cards are taken and
    :data:`~.data.BANK_CHANGE` given back, all of one kind, and no value is
    both taken and given. ``bank`` and ``pile`` hold what is not laid yet.
    """
    if plus or minus:
        kinds = ((plus or minus)[0].kind,)
    take, give = BANK_TAKE - len(plus), BANK_CHANGE - len(minus)
    last = _last(plus, minus)
    base = target - laid_sum(plus, minus)
    out: list[Step] = []
    for kind in kinds:
        faces = _bank_faces(bank, pile, kind)
        reach = _bank_reach(faces, take, give)
        for i, (face, in_bank, in_pile) in enumerate(faces):
            rank = RANK[face]
            if last is not None and (rank < last[0]):
                continue
            same = last is not None and rank == last[0]
            v = face.value
            rest = reach[i + 1]
            if in_bank and take and not (same and last is not None and last[1]):
                acc = 0
                for a in range(min(in_bank - 1, take - 1) + 1):  # more copies of this face taken
                    acc |= rest[take - 1 - a][give] << (a * v)
                at = base - v + _OFF
                if at >= 0 and acc >> at & 1:
                    out.append((face, False))
            if in_pile and give and not (same and last is not None and not last[1]):
                acc = 0
                for b in range(min(in_pile - 1, give - 1) + 1):  # more copies of this face given
                    acc |= rest[take][give - 1 - b] >> (b * v)
                at = base + v + _OFF
                if at >= 0 and acc >> at & 1:
                    out.append((face, True))
    return out


def short_steps(bank: tuple[Card, ...], kinds: tuple[Kind, ...], target: int,
                plus: tuple[Card, ...], minus: tuple[Card, ...]) -> list[Step]:
    """Beginner rules, full bank: the next card of a *short* collection, when the till runs short.

    When the cards of a kind left in ``bank`` (with those already laid) are
    at most :data:`~.data.BANK_TAKE` and total less than ``target``, the
    collector takes them all, lowest first, and no change is given (designed:
    a till that cannot pay in full pays what it holds, so every value can
    leave the bank and the seed's end, a kind running out, stays reachable).

    >>> from .data import card
    >>> short_steps((card("A1"), card("B7")), (Kind.ACORN,), 4, (), ())
    [(A1, False)]
    >>> short_steps((card("A1"), card("A3")), (Kind.ACORN,), 4, (), ())
    []
    """
    if minus:
        return []
    if plus:
        kinds = (plus[0].kind,)
    made = laid_sum(plus, ())
    out: list[Step] = []
    for kind in kinds:
        rest = [c for c in bank if c.kind is kind]
        if not rest or len(plus) + len(rest) > BANK_TAKE or made + sum(c.value for c in rest) >= target:
            continue
        first = min(rest, key=RANK.__getitem__)
        if not plus or RANK[first] >= RANK[plus[-1]]:
            out.append((first, False))
    return out


def short_complete(bank: tuple[Card, ...], target: int, plus: tuple[Card, ...], minus: tuple[Card, ...]) -> bool:
    """True if the laid cards are a whole short collection: every card of their kind the bank held, under ``target``."""
    return bool(plus) and not minus and laid_sum(plus, ()) < target and not any(c.kind is plus[0].kind for c in bank)
