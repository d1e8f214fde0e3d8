"""A heuristic Gophers bot: walk to where its hand can collect the most, then collect with few cards.

It sees only its view and the legal commands (DESIGN invariant 9) and the
public burrow book.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from meeple.engine import Command, Rng

from .combos import can_collect_bank, hand_reach, laid_sum, short_steps
from .commands import Add, Collect, Dig, Move, Pass, Place, Roll, Subtract, TakeGift
from .data import RANK, SPREADS, SUPPLY_KINDS, Card, Kind, LabelKind, card, spread
from .options import ADVANCED, BEGINNER, SIMPLIFIED
from .view import View

# The enum members read for every decision, as module constants (an enum class reads its members
# through a slow ``__getattr__`` hook on CPython 3.11).
_GIFT, _PORTAL, _NOTHING = LabelKind.GIFT, LabelKind.PORTAL, LabelKind.NOTHING

#: What the bot expects from a hole it cannot collect at (designed weights).
GIFT_WORTH = 4.0
PORTAL_WORTH = 2.0
BASKET_WORTH = 2.0


class HeuristicBot:
    """Greedy forager: best reachable collection, gifts next, portals after; collects with few cards.

    >>> HeuristicBot(1).choose(None, [Roll()], 0)
    Roll()
    """

    def __init__(self, seed: int = 0) -> None:
        self._rng = Rng(seed & ((1 << 64) - 1))
        #: the sums each recent hand can make, by (hand, index in TAKES, subtraction)
        self._reach: dict[tuple[tuple[Card, ...], int, bool], tuple[int, int]] = {}
        #: the beginner bank test of the decision under way, one kind at a time
        self._bank_one: Callable[[int, int], bool] = lambda kind, count: False

    def choose(self, view: Any, legal: Sequence[Command], seat: int) -> Command:
        """Return one of ``legal``."""
        if len(legal) == 1 or not isinstance(view, View):
            return legal[0]
        first = legal[0]
        if isinstance(first, Roll):
            return first
        if isinstance(first, (Move, Dig)):
            return self._move(view, legal)
        if isinstance(first, (Add, Subtract, Collect, Pass)):
            return self._lay(view, legal)
        if isinstance(first, Place):
            offers = self._place_offers(self._collector(view))
            worth = [offers[c.hole] if isinstance(c, Place) else 0 for c in legal]
            top = max(worth)
            best = [c for c, w in zip(legal, worth) if w == top]
            return best[self._rng.below(len(best))]
        if isinstance(first, TakeGift):
            return max(legal, key=lambda c: card(c.card).value if isinstance(c, TakeGift) and c.card != "D" else 0.5)
        return legal[0]

    def _collector(self, view: View) -> Callable[[int, int], bool]:
        """A test of whether the bot could collect now (its hand, or the bank and its pile).

        ``can(takes, count)``: ``count`` with the kinds ``TAKES[takes]``. The
        answers of one decision are worked out once per kind, and those of a
        hand are remembered across decisions (a hand often waits a few turns).
        """
        if view.variant is BEGINNER:
            assert view.seat is not None
            pile, bank = view.plus[view.seat], view.bank
            short = view.options.short_till
            memo: dict[tuple[int, int], bool] = {}

            def one(kind: int, count: int) -> bool:
                key = (kind, count)
                found = memo.get(key)
                if found is None:
                    found = memo[key] = can_collect_bank(bank, pile, TAKES[kind], count) or (
                        short and bool(short_steps(bank, TAKES[kind], count, (), ())))
                return found

            def bank_can(takes: int, count: int) -> bool:
                return one(takes, count) if takes < ANY else any(one(k, count) for k in range(ANY))

            self._bank_one = one
            return bank_can
        subtract = view.variant is not SIMPLIFIED
        reach = self._reach
        if len(reach) > 256:
            reach.clear()
        held = view.hand
        sums: list[tuple[int, int] | None] = [None] * len(TAKES)

        def hand(takes: int, count: int) -> bool:
            found = sums[takes]
            if found is None:
                key = (held, takes, subtract)
                found = reach.get(key)
                if found is None:
                    found = reach[key] = hand_reach(held, TAKES[takes], subtract)
                sums[takes] = found
            bits, off = found
            return 0 <= count + off <= 2 * off and bool(bits >> (count + off) & 1)

        return hand

    def _worth(self, view: View, beginner: bool, can: Callable[[int, int], bool], hole: Hole) -> float:
        kind, takes, count = hole
        if kind is _GIFT:
            return GIFT_WORTH if not beginner else GIFT_WORTH + 1
        if kind is _PORTAL:
            return PORTAL_WORTH
        if kind is _NOTHING or not can(takes, count):
            return 0.0
        if beginner:
            assert view.seat is not None
            have = [0] * ANY
            for c in view.plus[view.seat]:
                have[RANK[c] // 10] += c.value  # FACES runs ten faces of each kind
            one = self._bank_one
            poorest = min(have[k] for k in ((takes,) if takes < ANY else range(ANY)) if one(k, count))
            return count + (3.0 if poorest == min(have) else 0.0)
        return float(count)

    def _move(self, view: View, legal: Sequence[Command]) -> Command:
        """The walk to the most valuable hole (ties broken at random); a dig card when nothing is worth it."""
        can = self._collector(view)
        holes = HOLES_READ[view.spread]
        fixed = FIXED_WORTH[view.spread]
        variant = view.variant
        beginner, baskets = variant is BEGINNER, variant is ADVANCED
        best: list[Command] = []
        best_worth = -1.0
        worth_of: dict[int, float] = {}
        dig: Command | None = None
        for c in legal:
            if not isinstance(c, Move):
                if dig is None and isinstance(c, Dig):
                    dig = c
                continue
            dest = c.dest
            w = worth_of.get(dest)
            if w is None:
                w = fixed[dest]
                if beginner:
                    w = self._worth(view, beginner, can, holes[dest])
                elif w is None:  # a supply or a store: its count, if the hand can make it (as ``_worth``)
                    _kind, takes, count = holes[dest]
                    w = float(count) if can(takes, count) else 0.0
                worth_of[dest] = w
            if w > 0 and baskets:
                w += BASKET_WORTH * len(c.jumped)
            if w > best_worth:
                best, best_worth = [c], w
            elif w == best_worth:
                best.append(c)
        if dig is not None and best_worth < 1.0 and view.roll:
            return dig
        if not best:
            return dig if dig is not None else legal[0]
        return best[self._rng.below(len(best))] if len(best) > 1 else best[0]

    def _lay(self, view: View, legal: Sequence[Command]) -> Command:
        """Collect whenever it can, with few cards: a card that finishes, else one a later card can finish."""
        lays = [c for c in legal if isinstance(c, (Add, Subtract))]
        for c in legal:
            if isinstance(c, Collect):
                return c
        if not lays:
            return legal[-1]  # Pass
        assert view.seat is not None
        target = spread(view.spread).labels[view.positions[view.seat]].count
        need = target - laid_sum(*view.laid)
        pool = view.bank if view.variant is BEGINNER else view.hand

        def signed(c: Command) -> int:
            assert isinstance(c, (Add, Subtract))
            return -card(c.card).value if isinstance(c, Subtract) else card(c.card).value

        for c in lays:
            if signed(c) == need:
                return c
        for c in lays:
            assert isinstance(c, (Add, Subtract))
            rest = need - signed(c)
            laid = card(c.card)
            rank = RANK[laid]
            if any(RANK[x] > rank and x.kind is laid.kind and x.value == rest for x in pool):
                return c
        return max(lays, key=signed)

    @staticmethod
    def _place_offers(can: Callable[[int, int], bool]) -> list[int]:
        """For each hole, how many spreads offer something there (a collection in hand, a gift, a portal)."""
        offers = list(_ALWAYS_OFFER)
        for takes, count, spreads in _COLLECTIONS:
            if can(takes, count):
                offers = [a + b for a, b in zip(offers, spreads)]
        return offers


#: The kinds a hole takes, by index: one supply kind each, then :data:`ANY` (a store takes all three).
TAKES: tuple[tuple[Kind, ...], ...] = (*((k,) for k in SUPPLY_KINDS), SUPPLY_KINDS)
ANY = len(SUPPLY_KINDS)

#: A hole as the bot reads its label: (kind, index in :data:`TAKES`, count).
Hole = tuple[LabelKind, int, int]

#: Every hole of every spread as the bot reads it (``HOLES_READ[spread][hole]``; ``[0]`` is unused).
HOLES_READ: tuple[tuple[Hole, ...], ...] = ((), *(
    tuple((lab.kind, ANY if lab.supply is None else SUPPLY_KINDS.index(lab.supply), lab.count) for lab in sp.labels)
    for sp in SPREADS))

#: What :meth:`HeuristicBot._worth` gives each hole of each spread whatever the hand, but for the beginner
#: rules: None for a supply or a store (their worth depends on the hand).
FIXED_WORTH: tuple[tuple[float | None, ...], ...] = ((), *(
    tuple(GIFT_WORTH if kind is _GIFT else PORTAL_WORTH if kind is _PORTAL else 0.0 if kind is _NOTHING else None
          for kind, _takes, _count in holes)
    for holes in HOLES_READ[1:]))

#: For each hole, the spreads with a gift or a portal there.
_ALWAYS_OFFER: tuple[int, ...] = tuple(
    sum(holes[h][0] is LabelKind.GIFT or holes[h][0] is LabelKind.PORTAL for holes in HOLES_READ[1:])
    for h in range(len(HOLES_READ[1])))
#: Each collection printed in the book, as (index in :data:`TAKES`, count, for each hole the spreads
#: that print it there).
_COLLECTIONS: tuple[tuple[int, int, tuple[int, ...]], ...] = tuple(
    (takes, count, tuple(sum(holes[h] == (kind, takes, count) for holes in HOLES_READ[1:])
                         for h in range(len(HOLES_READ[1]))))
    for kind, takes, count in sorted({hole for holes in HOLES_READ[1:] for hole in holes
                                      if hole[0] is LabelKind.SUPPLY or hole[0] is LabelKind.STORE},
                                     key=lambda hole: (hole[1], hole[2])))
