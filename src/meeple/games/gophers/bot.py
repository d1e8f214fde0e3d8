"""A heuristic Gophers bot: walk to where its hand can collect the most, then collect cheaply.

It sees only its view and the legal commands (DESIGN invariant 9) and the
public burrow book.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meeple.engine import Command, Rng

from .combos import bank_combinations, hand_combinations
from .commands import Collect, Dig, Move, Pass, Place, Roll, TakeGift
from .data import DIG, SUPPLY_KINDS, Kind, LabelKind, spread
from .options import Variant
from .view import View

#: What the bot expects from a hole it cannot collect at (designed weights).
GIFT_WORTH = 4.0
PORTAL_WORTH = 2.0
BASKET_WORTH = 2.0


class HeuristicBot:
    """Greedy forager: best reachable collection, gifts next, portals after; keeps cards.

    >>> HeuristicBot(1).choose(None, [Roll()], 0)
    Roll()
    """

    def __init__(self, seed: int = 0) -> None:
        self._rng = Rng(seed & ((1 << 64) - 1))

    def choose(self, view: Any, legal: Sequence[Command], seat: int) -> Command:
        """Return one of ``legal``."""
        if len(legal) == 1 or not isinstance(view, View):
            return legal[0]
        first = legal[0]
        if isinstance(first, Place):
            return max(legal, key=lambda c: self._place_worth(view, c))
        if isinstance(first, Roll):
            return first
        if isinstance(first, (Move, Dig)):
            return self._move(view, legal, seat)
        if isinstance(first, TakeGift):
            return max(legal, key=lambda c: c.card.value if isinstance(c, TakeGift) and c.card != DIG else 0.5)
        collects = [c for c in legal if isinstance(c, Collect)]
        if collects:
            return min(collects, key=lambda c: (len(c.plus) + len(c.minus), -max(x.value for x in c.plus)))
        return next((c for c in legal if isinstance(c, Pass)), legal[0])

    def _worth(self, view: View, hole: int, spread_no: int) -> float:
        lab = spread(spread_no).labels[hole]
        if lab.kind is LabelKind.GIFT:
            return GIFT_WORTH if view.variant is not Variant.BEGINNER else GIFT_WORTH + 1
        if lab.kind is LabelKind.PORTAL:
            return PORTAL_WORTH
        if lab.kind not in (LabelKind.SUPPLY, LabelKind.STORE):
            return 0.0
        kinds: tuple[Kind, ...] = SUPPLY_KINDS if lab.supply is None else (lab.supply,)
        if view.variant is Variant.BEGINNER:
            assert view.seat is not None
            mine = view.plus[view.seat]
            have = {k: sum(c.value for c in mine if c.kind is k) for k in SUPPLY_KINDS}
            ok = [k for k in kinds if next(bank_combinations(view.bank, mine, lab.count, k), None) is not None]
            if not ok:
                return 0.0
            poorest = min(have[k] for k in ok)
            return lab.count + (3.0 if poorest == min(have.values()) else 0.0)
        found = next(hand_combinations(view.hand, lab.count, view.variant is not Variant.SIMPLIFIED,
                                       frozenset(kinds)), None)
        return float(lab.count) if found is not None else 0.0

    def _move(self, view: View, legal: Sequence[Command], seat: int) -> Command:
        best: Command | None = None
        best_worth = -1.0
        for c in legal:
            if not isinstance(c, Move):
                continue
            w = self._worth(view, c.dest, view.spread)
            if w > 0 and view.variant is Variant.ADVANCED:
                w += BASKET_WORTH * len(c.jumped)
            w += self._rng.below(100) / 1000.0
            if w > best_worth:
                best, best_worth = c, w
        digs = [c for c in legal if isinstance(c, Dig)]
        if digs and best_worth < 1.0 and view.roll:
            return digs[0]
        if best is None:
            return digs[0] if digs else legal[0]
        return best

    def _place_worth(self, view: View, c: Command) -> float:
        assert isinstance(c, Place)
        return sum(self._worth(view, c.hole, n) > 0 for n in range(1, 7)) + self._rng.below(100) / 1000.0
