"""The heuristic bot of Underground Kings.

It sees only its view and the legal commands (fair bots). It scores every
legal command with a few rules of thumb and plays the best, breaking ties
with its own seeded stream.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meeple.engine import Command, Rng

from .commands import DrawCamp, DrawDeck, Play, Retreat
from .data import CARDS, PEOPLES, TOP_STRENGTH, Mine
from .rules import beats
from .view import KingsView, MineView


class HeuristicBot:
    """Greedy bot: develops its mines, captures good ones, hands bad ones away.

    On a mine that needs an overseer it keeps the workers under a squad of
    its own people that it holds, and it is wary of capturing such a mine
    with no likely overseer in hand.

    >>> import meeple
    >>> from meeple.games.kings.bot import HeuristicBot
    >>> m = meeple.Match.start("kings", seats=2, seed=3)
    >>> cmd = HeuristicBot(1).choose(m.view(0), m.legal(0), 0)
    >>> cmd in m.legal(0)
    True
    """

    def __init__(self, seed: int = 0) -> None:
        self._rng = Rng(seed & ((1 << 64) - 1))
        # worked out once per decision, for every command scored in it
        self._mines: dict[int, MineView] = {}
        self._overseers: list[int] = []
        self._prospects: dict[int, float] = {}

    def choose(self, view: Any, legal: Sequence[Command], seat: int) -> Command:
        """Return the legal command with the best score."""
        assert isinstance(view, KingsView)
        self._mines = {m.number: m for m in view.mines}
        self._overseers = _overseers(view, seat)
        self._prospects = {}
        best: list[Command] = []
        best_score = float("-inf")
        for cmd in legal:
            s = self._score(view, cmd, seat)
            if s > best_score + 1e-9:
                best, best_score = [cmd], s
            elif abs(s - best_score) <= 1e-9:
                best.append(cmd)
        return self._rng.choice(best)

    # -- scoring ---------------------------------------------------------------------
    def _score(self, v: KingsView, cmd: Command, seat: int) -> float:
        if isinstance(cmd, Play):
            return self._play(v, cmd, seat)
        if isinstance(cmd, Retreat):
            return -_keep_value(v, cmd.card, seat)
        if isinstance(cmd, DrawCamp):
            pile = v.camp[PEOPLES.index(cmd.people)]
            return _keep_value(v, pile[-1], seat) - 1.0 + self._tempo(v, seat)
        if isinstance(cmd, DrawDeck):
            return 0.0
        return 0.0

    def _tempo(self, v: KingsView, seat: int) -> float:
        """Drawing from the camp slows the game: good when behind, bad when ahead."""
        if len(v.scores) < 2:
            return 0.0
        lead = v.scores[seat] - max(s for i, s in enumerate(v.scores) if i != seat)
        return -0.3 * lead

    def _prospect(self, v: KingsView, mine: MineView) -> float:
        found = self._prospects.get(mine.number)
        if found is None:
            found = self._prospects[mine.number] = _prospect(v, mine.mine)
        return found

    def _play(self, v: KingsView, cmd: Play, seat: int) -> float:
        mine = self._mines[cmd.mine]
        card = CARDS[cmd.card]
        waste = _waste(mine, cmd.card)
        if mine.owner == seat:
            if len(mine.stack) + 1 == mine.mine.depth + (1 if mine.mine.overseer else 0):
                return 20.0 + 2.0 * mine.mine.value - 0.1 * waste
            score = 6.0 + mine.mine.value / (mine.mine.depth + 1) - 0.3 * waste
            overseers = self._overseers
            if mine.mine.overseer and overseers and not any(beats(s, card.strength) for s in overseers):
                score -= 3.0  # keep the top under an overseer in hand
            return score
        # a central mine
        if len(mine.stack) + 1 >= mine.mine.defence:
            owner = v.peoples.index(card.people) if card.people in v.peoples else seat
            worth = self._prospect(v, mine)
            if owner == seat:
                if mine.mine.overseer and worth > 0:
                    others = [s for c, s in zip(v.hand, _strengths(v.hand)) if c != cmd.card and CARDS[c].people is v.peoples[seat]]
                    if max(others, default=-1) < 2 + mine.mine.depth:
                        worth *= 0.3  # no squad of our own in hand that is likely to beat the top workers
                return 4.0 + worth - 0.1 * waste
            return -worth * 1.5 - 0.1 * waste
        # putting a squad on a mine that someone else will finish
        return -0.5 - 0.2 * waste - 0.3 * max(0.0, self._prospect(v, mine))


def _strengths(cards: Sequence[int]) -> list[int]:
    return [CARDS[c].strength for c in cards]


def _overseers(v: KingsView, seat: int) -> list[int]:
    """The strengths of the squads of the seat's own people in its hand (its possible overseers)."""
    own = v.peoples[seat]
    return [CARDS[c].strength for c in v.hand if CARDS[c].people is own]


def _waste(mine: MineView, card: int) -> float:
    """How much strength a play spends above the top squad (low plays keep room)."""
    strength = CARDS[card].strength
    if not mine.stack:
        return float(strength)
    top = CARDS[mine.stack[-1]].strength
    if strength == 0 and top == TOP_STRENGTH:
        return 0.0
    return float(strength - top - 1)


def _prospect(v: KingsView, mine: Mine) -> float:
    """Rough worth of owning ``mine`` now: its value if it can still be developed, else its cost."""
    turns_left = v.deck_size / max(1, len(v.peoples))
    need = mine.depth + (1 if mine.overseer else 0)
    if need * 2 + 1 <= turns_left:
        return mine.value * 0.8
    if need <= turns_left:
        return mine.value * 0.1
    return -float(mine.value)


def _keep_value(v: KingsView, card: int, seat: int) -> float:
    """How useful a squad is in hand for ``seat``: workers for its mines, overseers where needed."""
    c = CARDS[card]
    own = v.peoples[seat]
    value = 0.0
    for m in v.mines:
        if m.owner != seat:
            continue
        fits = beats(c.strength, CARDS[m.stack[-1]].strength if m.stack else None)
        if c.people is own:
            if m.mine.overseer and fits:
                value += 1.5
        elif fits and len(m.stack) < m.mine.depth:
            value += 1.0 + (TOP_STRENGTH - c.strength) * 0.1
    return value
