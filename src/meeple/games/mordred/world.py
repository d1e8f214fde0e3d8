"""Worlds for search bots: Mordred's state rebuilt from a seat's view.

Mordred hides nothing (the dice still to come are chance, not hidden
information), so a view holds every fact of the state and the one world a
view allows is the state itself: the search bot then runs plain MCTS.
"""

from __future__ import annotations

from meeple.engine import Rng

from .state import State
from .view import View


def world(view: View, seat: int | None, rng: Rng) -> State:
    """The state ``view`` shows, whole (``rng`` is not drawn from: nothing is hidden).

    >>> import meeple
    >>> m = meeple.Match.start("mordred", seats=3, seed=2)
    >>> world(m.view(1), 1, Rng(0)) == m.state
    True
    """
    return State(
        seats=view.seats,
        options=view.options,
        phase=view.phase,
        turn=view.turn,
        first=view.first,
        buildings=view.buildings,
        standing=view.standing,
        warriors=view.warriors,
        supply=view.supply,
        hand=view.hand,
        money=view.money,
        road=view.road,
        turns=view.turns,
        last_roll=view.last_roll,
        ended=view.ended,
    )
