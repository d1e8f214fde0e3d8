"""Scoring and the tie-break (rules, "End and scoring").

A developed mine scores plus its value, a mine a player owns but has not
developed scores minus its value. The most points wins; on equal points the
player with more developed mines wins; still equal, they share the win.
"""

from __future__ import annotations

from .data import CARDS
from .state import State


def scores(state: State) -> tuple[int, ...]:
    """Return every seat's score as the position stands (final once the match is over)."""
    out = [sum(CARDS[c].mine.value for c in dev) for dev in state.developed]
    for m in state.mines:
        if m.owner is not None:
            out[m.owner] -= CARDS[m.card].mine.value
    return tuple(out)


def winners(state: State) -> tuple[int, ...]:
    """Return the seats that win on the current scores (the tie-break applied)."""
    pts = scores(state)
    if not pts:
        return ()
    keys = [(pts[s], len(state.developed[s])) for s in range(state.seats)]
    best = max(keys)
    return tuple(s for s in range(state.seats) if keys[s] == best)
