"""Views copied from the seat's last view (a state whose card, pile and turn records are its last one's).

``view`` copies the seat's last view when only the state's own small
fields changed; these tests hold that copy to the view made from scratch,
in the seats' real order of play and in the cases where a copy would go
wrong (another seat's offer, another state that shares the records).
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from meeple.engine import ENGINE, Match
from meeple.games.gophers import GAME, Phase, State
from meeple.games.gophers import view as views
from meeple.games.gophers.options import GophersOptions, Variant


def _from_scratch(state: State, seat: int | None) -> Any:
    views._LAST.clear()
    views._KNOWN.clear()
    views._KNOWN_DECK.clear()
    return views.view(state, seat)


@pytest.mark.parametrize(("seats", "variant"), [(2, "standard"), (3, "advanced"), (4, "simplified"), (2, "beginner")])
def test_views_in_the_order_of_play_are_the_views_made_from_scratch(seats: int, variant: str) -> None:
    m = Match.start(GAME, seats, seed=5, options=GAME.variant_options(variant))
    bots = [GAME.bots()["heuristic"](s) for s in range(seats)]
    shown: list[tuple[State, int | None, Any]] = []
    copied = 0
    while m.to_act:
        seat = next(s for s in m.to_act if s != ENGINE)
        state = m.state
        for who in (seat, None):  # the mover, as a bot sees it, and a spectator after it
            last = views._LAST.get(who)
            copied += last is not None and last[0].cards is state.cards and last[0].turn is state.turn
            shown.append((state, who, m.view(who)))
        m.play(seat, bots[seat].choose(shown[-2][2], m.legal(seat), seat))
    assert copied > len(shown) // 5  # the copies were made, often
    for state, who, got in shown:
        assert got == _from_scratch(state, who)


def test_another_seats_offer_is_hidden_in_a_copy_of_the_movers_view() -> None:
    m = Match.start(GAME, 3, seed=2)
    bots = [GAME.bots()["heuristic"](s) for s in range(3)]
    while m.state.phase is not Phase.GIFT:
        seat = next(s for s in m.to_act if s != ENGINE)
        m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
    state = m.state
    other = (state.current + 1) % 3
    shown = GAME.view(state, other)
    assert None in shown.gift_offer  # another seat's offer: unseen cards hidden
    # the same records with ``other`` to move: its last view (the offer hidden) is no view of this state
    moved = attrs.evolve(state, current=other)
    got = GAME.view(moved, other)
    assert None not in got.gift_offer and got == _from_scratch(moved, other)
    # and back: the copy of the view that showed the offer must hide it again
    GAME.view(moved, other)
    assert GAME.view(state, other) == shown


def test_a_state_with_other_options_gets_a_view_of_its_own() -> None:
    m = Match.start(GAME, 2, seed=3, options=GAME.variant_options("advanced"))
    for _ in range(4):
        seat = next(s for s in m.to_act if s != ENGINE)
        m.play(seat, m.legal(seat)[0])
    state = m.state
    GAME.view(state, 0)
    other = attrs.evolve(state, options=GophersOptions(Variant.STANDARD))
    got = GAME.view(other, 0)
    assert got.options == other.options and got.variant is other.options.variant
    assert got == _from_scratch(other, 0)


@pytest.mark.parametrize(("field", "value"), [("phase", Phase.OVER), ("spread", 4), ("current", 1), ("roll", 6),
                                              ("positions", (7, 3)), ("collectors", (1, 0)), ("end_reason", "stall"),
                                              ("idle", 9)])
def test_each_field_the_state_holds_itself_is_shown_anew_in_a_copy(field: str, value: Any) -> None:
    m = Match.start(GAME, 2, seed=4)
    while m.state.phase is not Phase.START:
        seat = next(s for s in m.to_act if s != ENGINE)
        m.play(seat, m.legal(seat)[0])
    state = m.state
    GAME.view(state, 0)
    changed = attrs.evolve(state, **{field: value})
    got = GAME.view(changed, 0)
    assert getattr(got, field) == value and got == _from_scratch(changed, 0)
