"""Worlds from a view (``Game.world``): what search bots sample must respect everything the seat knows."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import meeple
from meeple.bots import ISMCTS
from meeple.engine import ENGINE, Command, Rng
from meeple.games.gophers.bot import HeuristicBot
from meeple.games.gophers.commands import Add, Subtract, TakeGift
from meeple.games.gophers.state import Phase
from meeple.testing import Playout, check_worlds, playout

GAME = meeple.get_game("gophers")
VARIANTS = ("standard", "simplified", "advanced", "beginner")


def heuristic_playout(seats: int, options: dict[str, Any], seed: int) -> Playout:
    """A whole match of heuristic bots, as a playout for the conformance checks."""
    m = meeple.Match.start("gophers", seats, seed=seed, options=options)
    bots = [HeuristicBot(seed * 31 + s) for s in range(seats)]
    moves: list[tuple[int, Command]] = []
    while not m.is_over and len(moves) < 3000:
        seat = next(s for s in m.to_act if s != ENGINE)
        cmd = bots[seat].choose(m.view(seat), m.legal(seat), seat)
        m.play(seat, cmd)
        moves.append((seat, cmd))
    return Playout(m, moves, seed, seed)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seats", [2, 4])
def test_worlds_pass_the_check_on_random_playouts(variant: str, seats: int) -> None:
    check_worlds(playout("gophers", seats, {"variant": variant}, seed=seats, bot_seed=2), samples=8, worlds=6)


@pytest.mark.parametrize("variant", VARIANTS)
def test_worlds_pass_the_check_on_heuristic_playouts(variant: str) -> None:
    check_worlds(heuristic_playout(3, {"variant": variant}, seed=5), samples=8, worlds=6)


def _after(want: tuple[type[Command], ...], seeds: range, count: int = 8) -> list[meeple.Match]:
    """Matches (forked) right after a command of a type in ``want``, played by random bots."""
    out = []
    for seed in seeds:
        m = meeple.Match.start("gophers", 3, seed=seed)
        bots = [meeple.RandomBot(seed * 7 + s) for s in range(3)]
        while not m.is_over and len(out) < count:
            seat = next(s for s in m.to_act if s != ENGINE)
            cmd = bots[seat].choose(m.view(seat), m.legal(seat), seat)
            m.play(seat, cmd)
            if isinstance(cmd, want):
                out.append(m.fork())
    return out


def test_the_cards_a_mover_put_under_the_deck_stay_where_it_knows_them() -> None:
    found = [m for m in _after((TakeGift,), range(10), count=30) if m.state.phase is not Phase.OVER]
    checked = 0
    for m in found:
        for seat in range(3):
            view = m.view(seat)
            if not view.known_deck:
                continue
            checked += 1
            for k in range(8):
                w = GAME.world(view, seat, Rng(k))
                assert all(w.deck[i] == card for i, card in view.known_deck)
                assert all(Counter(w.hands[s]) >= Counter(cards) for s, cards in enumerate(view.known_hands))
    assert checked


def test_a_collector_that_began_can_finish_in_every_world() -> None:
    found = [m for m in _after((Add, Subtract), range(10), count=20) if m.state.phase is Phase.COLLECT]
    assert found
    for m in found:
        collector = m.state.collectors[0]
        for seat in (s for s in range(3) if s != collector):
            for k in range(6):
                w = GAME.world(m.view(seat), seat, Rng(k))
                assert GAME.legal_commands(w, collector)


def test_the_view_shows_who_knows_the_deck_and_the_seats_own_hand() -> None:
    found = [m for m in _after((TakeGift,), range(20), count=60) if any(m.state.deck_seen)]
    assert found
    for m in found:
        for seat in range(3):
            v = m.view(seat)
            assert v.deck_seen == m.state.deck_seen and v.hand_seen == m.state.seen[seat]
        assert m.view(None).hand_seen == ()


def _unseen(state: Any, seat: int) -> Counter[Any]:
    """The deck and every hand but ``seat``'s."""
    return Counter(state.deck) + sum((Counter(h) for s, h in enumerate(state.hands) if s != seat), Counter())


def test_the_unseen_cards_of_a_world_are_the_true_ones() -> None:
    m = meeple.Match.start("gophers", 3, seed=6)
    for seat in range(3):
        w = GAME.world(m.view(seat), seat, Rng(3))
        assert _unseen(w, seat) == _unseen(m.state, seat) and w.hands[seat] == m.state.hands[seat]


def test_a_beginner_world_is_the_state_itself() -> None:
    m = meeple.Match.start("gophers", 2, seed=1, options={"variant": "beginner"})
    assert GAME.world(m.view(0), 0, Rng(1)) == m.state


def test_ismcts_plays_gophers_from_its_view() -> None:
    m = meeple.Match.start("gophers", 3, seed=5)
    while m.state.phase is not Phase.START:
        seat = m.to_act[0]
        m.play(seat, m.legal(seat)[0])
    seat = m.to_act[0]
    choice = ISMCTS("gophers", seed=1, iterations=20).choose(m.view(seat), m.legal(seat), seat)
    assert choice in m.legal(seat)
