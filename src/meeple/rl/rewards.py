"""Rewards from a match's outcome, for every seat at once.

A reward function takes the :class:`~meeple.engine.Outcome` and a seat and
returns a number; an environment gives it to each agent when the match ends
(0 on every other step).

>>> from meeple.engine import Outcome
>>> out = Outcome(winners=(0, 2), scores=(1, 0, 1), reason="seat 1 lost the call")
>>> [zero_sum(out, s) for s in range(3)], [win_share(out, s) for s in range(3)]
([0.5, -1.0, 0.5], [0.5, 0.0, 0.5])
"""

from __future__ import annotations

from collections.abc import Callable

from ..bots import win_share
from ..engine import Outcome

#: ``reward(outcome, seat) -> float``.
Reward = Callable[[Outcome, int], float]


def zero_sum(outcome: Outcome, seat: int) -> float:
    """+1 split among the winners, -1 split among the others; 0 for all when nobody or everybody wins.

    Two players get +1 and -1, as in PettingZoo's classic environments; the
    rewards of a match always add up to 0.
    """
    n = len(outcome.scores)
    k = len(outcome.winners)
    if k == 0 or k >= n:
        return 0.0
    return 1.0 / k if seat in outcome.winners else -1.0 / (n - k)


def score(outcome: Outcome, seat: int) -> float:
    """The seat's score in the outcome, as the game counts it."""
    return float(outcome.scores[seat])


__all__ = ["Reward", "score", "win_share", "zero_sum"]
