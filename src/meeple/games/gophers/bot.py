"""A heuristic Gophers bot: walk to where its hand can collect the most, then collect with few cards.

It sees only its view and the legal commands (DESIGN invariant 9) and the
public burrow book.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from meeple.engine import Command, Rng

from .combos import can_collect_bank, hand_reach, laid_sum
from .commands import Add, Collect, Dig, Move, Pass, Place, Roll, Subtract, TakeGift
from .data import RANK, SUPPLY_KINDS, Card, Kind, Label, LabelKind, card, spread
from .options import Variant
from .view import View

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
        #: the sums each recent hand can make, by (hand, kinds, subtraction)
        self._reach: dict[tuple[tuple[Card, ...], tuple[Kind, ...], bool], tuple[int, int]] = {}

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
            can = self._collector(view)
            worth = [self._place_worth(can, c) for c in legal]
            top = max(worth)
            best = [c for c, w in zip(legal, worth) if w == top]
            return best[self._rng.below(len(best))]
        if isinstance(first, TakeGift):
            return max(legal, key=lambda c: card(c.card).value if isinstance(c, TakeGift) and c.card != "D" else 0.5)
        return legal[0]

    def _collector(self, view: View) -> Callable[[Label], bool]:
        """A test of whether the bot could collect at a label now (its hand, or the bank and its pile)."""
        if view.variant is Variant.BEGINNER:
            assert view.seat is not None
            pile = view.plus[view.seat]
            memo: dict[tuple[tuple[Kind, ...], int], bool] = {}

            def bank(lab: Label) -> bool:
                kinds = _kinds(lab)
                key = (kinds, lab.count)
                if key not in memo:
                    memo[key] = can_collect_bank(view.bank, pile, kinds, lab.count)
                return memo[key]

            return bank
        subtract = view.variant is not Variant.SIMPLIFIED
        reach = self._reach
        if len(reach) > 256:
            reach.clear()
        held = view.hand

        def hand(lab: Label) -> bool:
            key = (held, _kinds(lab), subtract)
            found = reach.get(key)
            if found is None:
                found = reach[key] = hand_reach(held, key[1], subtract)
            bits, off = found
            return 0 <= lab.count + off <= 2 * off and bool(bits >> (lab.count + off) & 1)

        return hand

    def _worth(self, view: View, can: Callable[[Label], bool], lab: Label) -> float:
        if lab.kind is LabelKind.GIFT:
            return GIFT_WORTH if view.variant is not Variant.BEGINNER else GIFT_WORTH + 1
        if lab.kind is LabelKind.PORTAL:
            return PORTAL_WORTH
        if lab.kind not in (LabelKind.SUPPLY, LabelKind.STORE) or not can(lab):
            return 0.0
        if view.variant is Variant.BEGINNER:
            assert view.seat is not None
            have = dict.fromkeys(SUPPLY_KINDS, 0)
            for c in view.plus[view.seat]:
                have[c.kind] += c.value
            kinds = [k for k in _kinds(lab) if can_collect_bank(view.bank, view.plus[view.seat], (k,), lab.count)]
            poorest = min(have[k] for k in kinds)
            return lab.count + (3.0 if poorest == min(have.values()) else 0.0)
        return float(lab.count)

    def _move(self, view: View, legal: Sequence[Command]) -> Command:
        """The walk to the most valuable hole (ties broken at random); a dig card when nothing is worth it."""
        can = self._collector(view)
        labels = spread(view.spread).labels
        baskets = view.variant is Variant.ADVANCED
        best: list[Command] = []
        best_worth = -1.0
        worth_of: dict[int, float] = {}
        for c in legal:
            if not isinstance(c, Move):
                continue
            w = worth_of.get(c.dest)
            if w is None:
                w = worth_of[c.dest] = self._worth(view, can, labels[c.dest])
            if w > 0 and baskets:
                w += BASKET_WORTH * len(c.jumped)
            if w > best_worth:
                best, best_worth = [c], w
            elif w == best_worth:
                best.append(c)
        digs = [c for c in legal if isinstance(c, Dig)]
        if digs and best_worth < 1.0 and view.roll:
            return digs[0]
        if not best:
            return digs[0] if digs else legal[0]
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
        pool = view.bank if view.variant is Variant.BEGINNER else view.hand

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

    def _place_worth(self, can: Callable[[Label], bool], c: Command) -> float:
        """How many spreads offer something at this hole (a collection in hand, a gift, a portal)."""
        assert isinstance(c, Place)
        return sum(self._worth_plain(can, spread(n).labels[c.hole]) > 0 for n in range(1, 7))

    @staticmethod
    def _worth_plain(can: Callable[[Label], bool], lab: Label) -> float:
        if lab.kind in (LabelKind.GIFT, LabelKind.PORTAL):
            return 1.0
        return 1.0 if lab.kind in (LabelKind.SUPPLY, LabelKind.STORE) and can(lab) else 0.0


def _kinds(lab: Label) -> tuple[Kind, ...]:
    return (lab.supply,) if lab.supply is not None else SUPPLY_KINDS
