"""Worlds sampled from a Kings view: every card once, what the view shows kept, the hidden squad sides dealt anew."""

from __future__ import annotations

from collections import Counter

import pytest

from meeple import Match
from meeple.engine import ConfigError, Rng, get_game
from meeple.games.kings.data import CARDS, DECK_SIZE, backs
from meeple.games.kings.state import Phase
from meeple.testing import playout

GAME = get_game("kings")


def _positions(seats: int, seed: int) -> Match:
    return playout(GAME, seats, None, seed=seed, bot_seed=seed, max_steps=2000).match


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_world_holds_every_card_once_and_keeps_every_public_fact(seats: int) -> None:
    m = _positions(seats, 20 + seats)
    for i in range(0, len(m) + 1, 7):
        m.seek(i)
        true = m.state
        for seat in (*range(seats), None):
            w = GAME.world(GAME.view(true, seat), seat, Rng(i * 31 + (seat or 9)))
            if true.phase is Phase.SETUP:
                assert w == true
                continue
            places = [*w.deck, *(c for h in w.hands for c in h), *(s.card for s in w.mines),
                      *(c for s in w.mines for c in s.stack), *(c for d in w.developed for c in d),
                      *(c for p in w.camp for c in p), *w.discard]
            assert sorted(places) == list(range(DECK_SIZE))
            assert (w.next_number, w.retreated, w.turn, w.peoples) == (true.next_number, true.retreated, true.turn,
                                                                       true.peoples)
            assert [backs(h) for h in w.hands] == [backs(h) for h in true.hands]
            assert [CARDS[s.card].mine for s in w.mines] == [CARDS[s.card].mine for s in true.mines]
            assert CARDS[w.deck[0]].mine == CARDS[true.deck[0]].mine
            if seat is not None:
                assert w.hands[seat] == true.hands[seat]
            assert w.open_cards == true.open_cards


def test_hidden_squad_sides_are_dealt_anew_not_copied() -> None:
    m = Match.start(GAME, 3, seed=8)
    view = m.view(0)
    worlds = [GAME.world(view, 0, Rng(k)) for k in range(40)]
    for s in (1, 2):
        assert len({w.hands[s] for w in worlds}) > 20  # the other hands: same backs, other squads
    assert len({w.deck[1:] for w in worlds}) == 40
    assert len({tuple(x.card for x in w.mines) for w in worlds}) > 1
    # the squad side under a shown back is any of the unseen cards with that back, not only the true one
    first_back = CARDS[m.state.hands[1][0]].mine
    under = Counter(c for w in worlds for c in w.hands[1] if CARDS[c].mine == first_back)
    assert len(under) > 1


def test_a_view_that_no_match_can_show_is_refused() -> None:
    import attrs

    m = Match.start(GAME, 2, seed=3)
    bad = attrs.evolve(m.view(0), deck_size=m.view(0).deck_size + 1)
    with pytest.raises(ConfigError, match="not a view of a match"):
        GAME.world(bad, 0, Rng(1))
