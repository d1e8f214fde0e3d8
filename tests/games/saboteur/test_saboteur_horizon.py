"""A round's end as a search horizon: ``Game.interim`` between rounds, and ``PIMC`` playouts that stop there."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import attrs
import pytest

import meeple
from meeple.bots import PIMC
from meeple.engine import ENGINE, Command, Outcome, Rng
from meeple.games.saboteur import GAME
from meeple.games.saboteur.bot import HeuristicBot
from meeple.games.saboteur.commands import Discard, PlayPath, TakeGold
from meeple.games.saboteur.data import Role, deck, kind_id
from meeple.games.saboteur.state import Knowledge, Phase, State, replace

STRAIGHT = kind_id("straight-horizontal")


def _one_card_from_the_gold(table: Any) -> State:
    """Seat 0, a miner who looked at the middle goal (the gold), holds the one card the tunnel still needs."""
    st = table.build(3, cells=table.ROW0[:-1], hands=[["straight-horizontal"], [], []],
                     roles=[Role.MINER, Role.SABOTEUR, Role.MINER], goals=("coal-a", "gold", "coal-b"))
    known = Knowledge(goals=(frozenset({1}), frozenset(), frozenset()))
    rest = Counter(deck(False))
    rest[STRAIGHT] -= 1  # the rest of the deck is the pile (the cards on the table are no deeds of the round)
    return replace(st, known=known, pile=tuple(sorted(rest.elements())))


def _step(state: State, seat: int, command: Command) -> State:
    """``state`` after one command and no engine step."""
    _, state = GAME.decide_and_fold(state, seat, command, Rng(1))
    return state


def test_the_standings_stand_between_rounds_only(table: Any) -> None:
    st = _one_card_from_the_gold(table)
    assert GAME.interim(st) is None  # in the middle of the round
    st = _step(st, 0, PlayPath(STRAIGHT, 7, 0))
    while ENGINE in GAME.to_act(st) and st.phase is not Phase.DEAL:
        st = _step(st, ENGINE, GAME.auto_command(st))
    while st.phase is Phase.CHOOSE:
        assert GAME.interim(st) is None  # the gold is not all taken yet
        st = _step(st, st.purse.chooser, TakeGold(max(st.purse.offer)))
    assert st.phase is Phase.DEAL and st.round == 1
    out = GAME.interim(st)
    assert out is not None and GAME.outcome(st) is None
    assert out.scores == st.purse.gold and sum(out.scores) > 0
    best = max(st.purse.gold)
    assert out.winners == tuple(s for s, g in enumerate(st.purse.gold) if g == best)
    assert out.winners == (0,)  # the finder chose first and, of two miners, chose twice


def test_the_start_of_a_match_is_no_break() -> None:
    m = meeple.Match.start("saboteur", seats=3, seed=1)
    assert GAME.interim(GAME.initial_state(3, m.state.options)) is None
    assert GAME.interim(m.state) is None


class _Reluctant:
    """A poor policy: discards whenever it may, otherwise plays as the heuristic bot does."""

    def __init__(self, seed: int) -> None:
        self._bot = HeuristicBot(seed)

    def choose(self, view: Any, legal: Sequence[Command], seat: int) -> Command:
        return next((c for c in legal if isinstance(c, Discard)), None) or self._bot.choose(view, legal, seat)


def test_the_round_s_standings_tell_the_winning_card_from_a_discard(table: Any) -> None:
    st = _one_card_from_the_gold(table)
    view, legal = GAME.view(st, 0), GAME.legal_commands(st, 0)
    win = PlayPath(STRAIGHT, 7, 0)
    bot = PIMC(GAME, seed=3, iterations=12, policy=_Reluctant)
    candidates, rows = bot.rounds(view, legal, 0)
    assert candidates[0] == Discard((STRAIGHT,)) and win in candidates
    i = candidates.index(win)
    # laying it ends the round with the gold, of which the finder takes most: it leads
    assert all(row[i] > 1.0 for row in rows)
    # discarding it leaves a round nobody can dig on to its end: the gold goes to the saboteur, if any
    assert all(row[0] <= 1 / 3 for row in rows)
    assert PIMC(GAME, seed=3, iterations=12, policy=_Reluctant).choose(view, legal, 0) == win


class _Spy(HeuristicBot):
    """The heuristic bot, noting the round of every view it is asked about."""

    rounds: set[int] = set()

    def choose(self, view: Any, legal: Sequence[Command], seat: int) -> Command:
        _Spy.rounds.add(view.round)
        return super().choose(view, legal, seat)


def _round_one_position() -> tuple[Any, Sequence[Command], int]:
    m = meeple.Match.start("saboteur", seats=3, seed=4)
    bots = [HeuristicBot(s) for s in range(3)]
    for _ in range(12):
        seat = m.to_act[0]
        m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
    seat = m.to_act[0]
    assert m.view(seat).round == 1 and len(m.legal(seat)) > 1
    return m.view(seat), m.legal(seat), seat


def test_with_a_horizon_playouts_never_reach_the_next_round() -> None:
    view, legal, seat = _round_one_position()
    _Spy.rounds = set()
    PIMC(GAME, seed=1, iterations=8, policy=_Spy).rounds(view, legal, seat)
    assert _Spy.rounds == {1}
    _Spy.rounds = set()
    PIMC(GAME, seed=1, iterations=8, policy=_Spy, horizon=False).rounds(view, legal, seat)
    assert {1, 2, 3} <= _Spy.rounds


def test_a_search_with_a_horizon_is_reproducible_from_its_seed() -> None:
    view, legal, seat = _round_one_position()
    first = PIMC(GAME, seed=9, iterations=16).rounds(view, legal, seat)
    assert PIMC(GAME, seed=9, iterations=16).rounds(view, legal, seat) == first
    assert PIMC(GAME, seed=9, iterations=16).choose(view, legal, seat) in legal


# -- a break's standings, worth the chance to win the match they give ----------------------------------------------


def _standings(*gold: int) -> Outcome:
    best = max(gold)
    return Outcome(tuple(s for s, g in enumerate(gold) if g == best), gold, "after a round")


def test_the_other_digger_of_a_miners_win_is_not_a_loser() -> None:
    # after round 1 at three seats: the miners found the gold (3 + 2 nuggets) or the saboteur blocked them (4)
    view, _, _ = _round_one_position()
    won, lost = _standings(3, 2, 0), _standings(0, 0, 4)
    second = HeuristicBot.break_worth(won, view, 1)
    assert second > HeuristicBot.break_worth(lost, view, 1) > 0.0  # the standings alone give both 0
    assert HeuristicBot.break_worth(won, view, 0) > second
    assert sum(HeuristicBot.break_worth(won, view, s) for s in range(3)) == pytest.approx(1.0)


def test_the_fewer_rounds_are_left_the_more_a_lead_is_worth() -> None:
    view, _, _ = _round_one_position()
    lead = _standings(5, 2, 2)
    after_one = HeuristicBot.break_worth(lead, view, 0)
    after_two = HeuristicBot.break_worth(lead, attrs.evolve(view, round=2), 0)
    assert 1 / 3 < after_one < after_two < 1.0
    # after the last round the standings are the result: the share of the win
    last = attrs.evolve(view, round=3)
    assert HeuristicBot.break_worth(lead, last, 0) == 1.0 and HeuristicBot.break_worth(lead, last, 1) == 0.0
    assert HeuristicBot.break_worth(_standings(4, 4, 1), last, 1) == 0.5


def test_playouts_of_the_heuristic_policy_end_worth_its_judgement_of_the_standings(table: Any) -> None:
    st = _one_card_from_the_gold(table)
    view, legal = GAME.view(st, 0), GAME.legal_commands(st, 0)
    bot = PIMC(GAME, seed=3, iterations=16)
    assert bot.break_worth is not None and PIMC(GAME, seed=3, iterations=16, horizon=False).break_worth is None
    candidates, rows = bot.rounds(view, legal, 0)
    win = PlayPath(STRAIGHT, 7, 0)
    assert candidates[0] == win  # the heuristic lays the card that reaches the gold
    # the finder leads after the first round, a lead two rounds may still undo: worth more than a third, less than 1
    assert all(1 / 3 < row[0] < 1.0 for row in rows)
