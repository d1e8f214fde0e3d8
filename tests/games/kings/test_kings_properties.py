"""Properties of Underground Kings over random play: the conformance kit, legal = accepted, cards kept."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import meeple
from meeple.engine import Command, IllegalCommand, Rng
from meeple.games.kings import GAME, Phase, State
from meeple.games.kings.commands import DrawCamp, DrawDeck, Play, Retreat
from meeple.games.kings.data import CARDS, PEOPLES
from meeple.games.kings.rules import play_problem, takes
from meeple.testing import check_game


@pytest.mark.parametrize("variant", GAME.info.variants)
@pytest.mark.parametrize("seats", [2, *(pytest.param(n, marks=pytest.mark.slow) for n in (3, 4))])
def test_conformance_kit(seats: int, variant: str) -> None:
    playouts = check_game("kings", seats=seats, options=GAME.variant_options(variant), seeds=range(2), max_steps=2000)
    assert all(p.match.is_over for p in playouts)


def _all_cards(state: State) -> list[int]:
    cards = [*state.deck, *state.discard]
    cards += [c for h in state.hands for c in h]
    cards += [c for pile in state.camp for c in pile]
    cards += [c for d in state.developed for c in d]
    for m in state.mines:
        cards += [m.card, *m.stack]
    return sorted(cards)


def _check_table(state: State) -> None:
    """Invariants of every position: each card in one place, stacks within their mines' limits."""
    assert _all_cards(state) == list(range(80))
    assert sum(1 for m in state.mines if m.owner is None) == 4 or not state.deck
    for m in state.mines:
        mine = CARDS[m.card].mine
        if m.owner is None:
            assert len(m.stack) < mine.defence
        else:
            assert len(m.stack) <= mine.depth
            assert all(CARDS[c].people is not state.peoples[m.owner] for c in m.stack)
    if state.phase is not Phase.OVER:
        assert all(len(h) == 6 for s, h in enumerate(state.hands) if s != state.turn or state.phase is Phase.PLAY)
    assert all(set(o) <= set(h) for o, h in zip(state.open_cards, state.hands))


def _candidates(state: State) -> list[Command]:
    numbers = [m.number for m in state.mines] + [state.next_number, -1]
    out: list[Command] = [Play(c, n) for c in range(80) for n in numbers]
    out += [Retreat(c) for c in range(80)]
    out += [DrawDeck(), *(DrawCamp(p) for p in PEOPLES)]
    return out


@given(seed=st.integers(0, 2**64 - 1), seats=st.integers(2, 4), stop=st.integers(0, 200))
def test_decide_accepts_exactly_the_legal_commands_and_keeps_every_card(seed: int, seats: int, stop: int) -> None:
    m = meeple.Match.start("kings", seats=seats, seed=seed)
    bot = meeple.RandomBot(seed)
    for _ in range(stop):
        if m.is_over:
            break
        seat = m.to_act[0]
        m.play(seat, bot.choose(None, m.legal(seat), seat))
        _check_table(m.state)
    state = m.state
    if m.is_over:
        assert GAME.legal_commands(state, 0) == ()
        return
    seat = m.to_act[0]
    legal = set(GAME.legal_commands(state, seat))
    assert legal
    for cmd in _candidates(state):
        if cmd in legal:
            GAME.decide(state, seat, cmd, Rng(0))
        else:
            with pytest.raises(IllegalCommand):
                GAME.decide(state, seat, cmd, Rng(0))
    for other in range(seats):
        if other != seat:
            assert GAME.legal_commands(state, other) == ()
    # the tables the rules use (takes) and the reasons they give (play_problem) agree everywhere
    for s in range(seats):
        for slot in state.mines:
            for card in range(80):
                assert (card in takes(state, s, slot)) == (play_problem(state, s, card, slot) is None)


@given(seed=st.integers(0, 2**64 - 1), seats=st.integers(2, 4))
def test_random_play_always_ends_with_an_empty_deck(seed: int, seats: int) -> None:
    m = meeple.Match.start("kings", seats=seats, seed=seed)
    bot = meeple.RandomBot(seed)
    for _ in range(3000):
        if m.is_over:
            break
        seat = m.to_act[0]
        m.play(seat, bot.choose(None, m.legal(seat), seat))
    assert m.is_over and m.state.deck == ()
    outcome = m.outcome
    assert outcome is not None and outcome.winners and len(outcome.scores) == seats
