"""What a seat may learn: collections that do not tell hands apart, cards a seat put under the deck,
determinized worlds a seat cannot tell from the real one, and nothing of the seed.

Scenario tests start from hand-built positions (``test_rules.make``); the
properties drive random matches of every rule set with hands.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.engine import ENGINE, Event, Match, RandomBot, Rng
from meeple.engine.codec import pack, unstructure
from meeple.engine.match import derive_salt
from meeple.games.gophers import GAME, Phase, State
from meeple.games.gophers.commands import Add, Move, Pass, Roll, TakeGift
from meeple.games.gophers.data import card
from meeple.games.gophers.events import CardDrawn, CollectionOpened, GiftOffered, GiftTaken
from meeple.testing import LEAK_SEED

from .test_rules import lay, make, play


def _opened(events: Iterable[Event]) -> list[CollectionOpened]:
    return [e for e in events if isinstance(e, CollectionOpened)]


# -- who is asked to collect ------------------------------------------------------------------------


def test_after_a_book_turn_every_seat_on_a_supply_is_asked_whether_it_can_collect_or_not() -> None:
    # seat 0 walks 4 -> 3 (a portal) and rolls 4: on spread 4 seat 0 stands on W9 and
    # seat 1 on W11, which its hand (B1 B2) cannot make; seat 2's hole 19 is empty there
    state = make([4, 2, 19], ["W9", "B1 B2", "A1"], phase=Phase.MOVE, roll=1, deck="A2")
    state, events = play(state, 0, Move(3), faces=[4])
    assert _opened(events) == [CollectionOpened((0, 1))]
    state, _ = lay(state, 0, "W9")
    assert GAME.to_act(state) == (1,) and GAME.legal_commands(state, 1) == [Pass()]


def test_the_record_of_a_book_turn_is_the_same_whatever_the_other_hands_hold() -> None:
    # the same walk, once with a seat 1 that can collect its W11 and once with one that cannot
    able = make([4, 2], ["W9", "W5 W6"], phase=Phase.MOVE, roll=1, deck="A2")
    unable = make([4, 2], ["W9", "B5 B6"], phase=Phase.MOVE, roll=1, deck="A2")
    _, a = play(able, 0, Move(3), faces=[4])
    _, b = play(unable, 0, Move(3), faces=[4])
    for seat in (0, None):
        assert [GAME.redact(e, seat) for e in a] == [GAME.redact(e, seat) for e in b]


def test_the_mover_is_asked_even_when_it_cannot_collect_and_its_pass_looks_the_same() -> None:
    # S "Сбор припасов": a mover without the cards walks on and draws; so does one who will not collect
    cannot = make([7, 19], ["B1 B2 B3 B4", "W1 W2 W3 W4"], phase=Phase.MOVE, roll=1, deck="W5 W6")
    will_not = make([7, 19], ["A4 B2 B3 B4", "W1 W2 W3 W4"], phase=Phase.MOVE, roll=1, deck="W5 W6")
    records = []
    for state in (cannot, will_not):
        state, first = play(state, 0, Move(8))
        state, second = play(state, 0, Pass())
        records.append([GAME.redact(e, 1) for e in (*first, *second)])
    assert records[0] == records[1]
    assert [type(e).__name__ for e in records[0]] == ["Moved", "CollectionOpened", "Passed", "CardDrawn", "TurnEnded"]


def test_a_seat_with_no_card_at_all_is_not_asked() -> None:
    # a hand's size is public, so skipping an empty hand tells nothing
    state = make([4, 2], ["W9", ""], phase=Phase.MOVE, roll=1, deck="A2")
    _, events = play(state, 0, Move(3), faces=[4])
    assert _opened(events) == [CollectionOpened((0,))]


def test_no_command_carries_a_secret_so_every_seat_sees_each_command_whole() -> None:
    m = Match.start(GAME, 3, seed=2)
    bots = [RandomBot(s) for s in range(3)]
    while m.to_act and len(m) < 300:
        seat = next(s for s in m.to_act if s != ENGINE)
        m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
    assert all(not c.secret for c in GAME.commands)
    for viewer in (0, 1, 2, None):
        for rec in m.records_for(viewer):
            assert rec.command == m.records[rec.seq].command
            assert GAME.describe(rec.command)


# -- what a mover knows after a gift ---------------------------------------------------------------


def _gift(deck: str, keep: str, hands: tuple[str, str] = ("", "")) -> State:
    """Seat 0 walks onto the gift at hole 2 of spread 1 and keeps ``keep``."""
    state = make([1, 19], list(hands), phase=Phase.MOVE, roll=1, deck=deck)
    state, _ = play(state, 0, Move(2))
    state, _ = play(state, 0, TakeGift(keep))
    return state


def test_the_mover_knows_the_cards_it_put_under_the_deck_and_determinize_keeps_them() -> None:
    state = _gift("A7 B3 W9 A1 B2", "W9")
    assert state.deck == cards_in_order("A1 B2 A7 B3")
    assert GAME.view(state, 0).known_deck == ((2, card("A7")), (3, card("B3")))
    assert GAME.view(state, 1).known_deck == ()
    mover = [GAME.determinize(state, 0, Rng(k)) for k in range(12)]
    assert all(w.deck[2:] == cards_in_order("A7 B3") for w in mover)
    assert any(w.deck[:2] != state.deck[:2] or w.hands[1] != state.hands[1] for w in mover), "the rest is resampled"
    other = [GAME.determinize(state, 1, Rng(k)) for k in range(12)]
    assert any(w.deck[2:] != state.deck[2:] for w in other), "seat 1 never saw the returned cards"


def test_the_others_see_the_kept_gift_card_but_not_its_place_in_the_offer_and_it_cannot_be_taken_back() -> None:
    # S "Если фишка оказывается на подарке": the kept card goes to the pile (face up), the rest under the deck
    state = make([1, 19], ["", ""], phase=Phase.MOVE, roll=1, deck="A7 B3 W9 A1")
    state, _ = play(state, 0, Move(2))
    _, events = play(state, 0, TakeGift("B3"))
    taken = next(e for e in events if isinstance(e, GiftTaken))
    assert taken == GiftTaken(0, card("B3"), 1, cards_in_order("A7 W9"))
    assert GAME.redact(taken, 0) == taken
    for seat in (1, None):
        assert GAME.redact(taken, seat) == GiftTaken(0, card("B3"), None, None)
    m = Match.start(GAME, 2, seed=5)
    while m.to_act:
        seat = next(s for s in m.to_act if s != ENGINE)
        gift = [c for c in m.legal(seat) if isinstance(c, TakeGift)]
        m.play(seat, gift[0] if gift else RandomBot(len(m)).choose(m.view(seat), m.legal(seat), seat))
        if gift:
            break
    assert gift and GiftTaken.barrier and not m.can_undo(seat), "the others saw a card of a hidden offer"


def cards_in_order(names: str) -> tuple[Any, ...]:
    """Cards in the order given (a deck, not a sorted hand)."""
    return tuple(card(c) for c in names.split())


def test_a_known_card_drawn_by_another_seat_stays_known_in_its_hand() -> None:
    state = _gift("A7 B3 W9", "W9", hands=("", "B1"))  # the deck is now A7 B3, both known to seat 0
    state = make_turn_of_seat_1(state)
    state, events = play(state, 1, Pass())  # seat 1 did not collect: it draws the top card, A7
    assert CardDrawn(1, card("A7")) in events
    assert GAME.view(state, 0).known_hands == ((), (card("A7"),))
    assert GAME.view(state, 0).known_deck == ((0, card("B3")),)
    for k in range(10):
        w = GAME.determinize(state, 0, Rng(k))
        assert card("A7") in w.hands[1] and w.deck == (card("B3"),)
        assert GAME.view(w, 0) == GAME.view(state, 0)


def make_turn_of_seat_1(state: State) -> State:
    """Move seat 1 (on hole 19) to the berry hole 18 of spread 1 (W10) where it is asked to collect."""
    state, _ = play(state, 1, Roll(), faces=[1])
    state, _ = play(state, 1, Move(18))
    assert state.phase is Phase.COLLECT and GAME.to_act(state) == (1,)
    return state


def test_showing_one_of_two_alike_cards_leaves_nothing_known() -> None:
    # seat 0 knows one of seat 1's two A7s (bit 0 of its mask); seat 1 collects A4 + A7 - A7 at hole 8
    state = make([0, 8], ["B1", "A4 A7 A7"], phase=Phase.COLLECT, current=1, collectors=(1,),
                 seen=((0,), (0, 1, 0)))
    assert GAME.view(state, 0).known_hands == ((), (card("A7"),))
    state, _ = play(state, 1, Add("A4"))
    assert GAME.view(state, 0).known_hands == ((), (card("A7"),)), "an A4 shown leaves the A7 known"
    state, _ = play(state, 1, Add("A7"))
    assert GAME.view(state, 0).known_hands == ((), ()), "the A7 shown may have been the known one"
    assert state.seen[1] == (0,)


def test_a_known_card_in_another_seats_gift_offer_stays_known_to_the_seat_that_put_it_there() -> None:
    state = _gift("A7 B3 W9", "W9", hands=("", "B1"))  # deck A7 B3, known to seat 0
    assert state.current == 1
    state = attrs.evolve(state, positions=(0, 1), phase=Phase.MOVE, roll=1)
    state, events = play(state, 1, Move(2))  # seat 1 on the gift: it is shown A7 and B3
    assert GiftOffered(1, cards_in_order("A7 B3")) in events
    assert GAME.view(state, 0).gift_offer == (card("A7"), card("B3"))
    assert GAME.view(state, None).gift_offer == (None, None)
    for k in range(6):
        assert GAME.determinize(state, 0, Rng(k)).turn.offer == cards_in_order("A7 B3")
    state, _ = play(state, 1, TakeGift("B3"))
    assert GAME.view(state, 0).known_deck == ((0, card("A7")),)
    assert GAME.view(state, 1).known_deck == ((0, card("A7")),)


# -- determinized worlds, over random matches ------------------------------------------------------


def _blind(event: Event | None, seat: int | None) -> Event | None:
    """``event`` with what chance newly shows ``seat`` blanked.

    Hidden cards come to light in two ways: the seat's own draw and its own
    gift offer. In a determinized world they may differ: that is the chance
    the seat cannot know yet. Everything else must be equal (the place in
    another seat's offer of the card it keeps too: it is not shown).
    """
    if isinstance(event, CardDrawn) and event.seat == seat:
        return CardDrawn(seat, None)
    if isinstance(event, GiftOffered) and event.seat == seat:
        return GiftOffered(seat, None)
    return event


def _seen(events: Iterable[Event], seat: int | None) -> list[Event | None]:
    return [_blind(GAME.redact(e, seat), seat) for e in events]


def _states(variant: str, seats: int, seed: int, every: int) -> list[State]:
    m = Match.start(GAME, seats, seed=seed, options=GAME.variant_options(variant))
    bots = [RandomBot(seed * 7 + s) for s in range(seats)]
    out = []
    while m.to_act:
        if len(m) % every == 0:
            out.append(m.state)
        seat = next(s for s in m.to_act if s != ENGINE)
        m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
    return out


@settings(max_examples=10, deadline=None)
@given(variant=st.sampled_from(["standard", "simplified", "advanced"]), seats=st.integers(2, 4),
       seed=st.integers(0, 2**32))
def test_a_seat_cannot_tell_a_determinized_world_from_the_real_one(variant: str, seats: int, seed: int) -> None:
    changed = 0
    for state in _states(variant, seats, seed, every=9):
        acting = [s for s in GAME.to_act(state) if s != ENGINE]
        for seat in (*range(seats), None):
            view = GAME.view(state, seat)
            for k in range(2):
                world = GAME.determinize(state, seat, Rng(seed + k))
                changed += world != state
                assert GAME.view(world, seat) == view
                assert GAME.to_act(world) == GAME.to_act(state)
                if seat is not None:
                    assert list(GAME.legal_commands(world, seat)) == list(GAME.legal_commands(state, seat))
                for actor in acting:
                    both = [c for c in GAME.legal_commands(state, actor) if c in GAME.legal_commands(world, actor)]
                    for cmd in both[:4]:
                        real = GAME.decide(state, actor, cmd, Rng(seed, 5))
                        other = GAME.decide(world, actor, cmd, Rng(seed, 5))
                        assert GAME.redact_command(cmd, actor, seat) == cmd
                        assert _seen(real, seat) == _seen(other, seat), (cmd, seat)
    assert changed, "determinize resampled nothing in a whole match"


def test_the_beginner_rules_hide_nothing_so_determinize_keeps_the_state() -> None:
    for state in _states("beginner", 2, 3, every=25):
        assert all(GAME.determinize(state, seat, Rng(1)) is state for seat in (0, 1, None))


def test_the_game_says_per_variant_what_it_hides_and_the_beginner_records_are_shown_whole() -> None:
    # S "Начальные правила": no hands ("Карты не раздаются игрокам на руки"), the bank open to all
    for variant in GAME.info.variants:
        options = Match.start(GAME, 2, seed=1, options=GAME.variant_options(variant)).options
        assert GAME.hides_information(options) == (variant != "beginner")
    m = Match.start(GAME, 3, seed=4, options={"variant": "beginner"})
    bots = [RandomBot(s) for s in range(3)]
    while m.to_act and len(m) < 400:
        seat = next(s for s in m.to_act if s != ENGINE)
        m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
    for r in m.records:
        for seat in (0, 1, 2, None):
            assert tuple(GAME.redact(e, seat) for e in r.events) == r.events


@pytest.mark.parametrize("variant", ["standard", "advanced", "beginner"])
def test_nothing_a_seat_is_shown_holds_the_seed_or_the_salt(variant: str) -> None:
    m = Match.start(GAME, 3, seed=LEAK_SEED, options=GAME.variant_options(variant))
    bots = [RandomBot(s) for s in range(3)]
    needles = [pack(LEAK_SEED), LEAK_SEED.to_bytes(8, "big"), derive_salt(LEAK_SEED)]
    shown: list[Any] = []
    while m.to_act:
        seat = next(s for s in m.to_act if s != ENGINE)
        m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
        if len(m) % 5 == 0:
            shown.extend(m.view(v) for v in (0, 1, 2, None))
    for viewer in (0, 1, 2, None):
        for rec in m.records_for(viewer):
            shown.append(rec.command)
            shown.extend(rec.events)
    blob = b"".join(pack(unstructure(x)) for x in shown)
    assert not any(n in blob for n in needles)


# -- views remembered for recent card records ----------------------------------------------------------


def _views_made_afresh(state: State, seat: int | None) -> Any:
    from meeple.games.gophers import view as views

    views._KNOWN.clear()
    views._KNOWN_DECK.clear()
    return views.view(state, seat)


def test_views_of_recent_card_records_are_the_views_made_afresh() -> None:
    # Card records are remembered by id: records made and dropped one after another (the same id, often)
    # must never be answered with another record's cards.
    states = []
    for variant in ("standard", "advanced"):
        m = Match.start(GAME, 3, seed=11, options=GAME.variant_options(variant))
        bots = [GAME.bots()["heuristic"](s) for s in range(3)]
        while m.to_act:
            seat = next(s for s in m.to_act if s != ENGINE)
            states.append(m.state)
            m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
    assert any(any(s.deck_seen) for s in states) and any(any(map(any, s.seen)) for s in states)
    wants = {(i, seat): _views_made_afresh(states[i], seat) for i in range(0, len(states), 7) for seat in (None, 0, 1)}
    for (i, seat), want in wants.items():
        assert GAME.view(states[i], seat) == want
    for _ in range(3):
        for (i, seat), want in wants.items():
            c = states[i].cards  # a fresh copy, dropped at once: its id is soon another copy's
            fresh = type(c)(tuple(list(c.hands)), c.seen, tuple(list(c.deck)), tuple(list(c.deck_seen)))
            assert GAME.view(attrs.evolve(states[i], cards=fresh), seat) == want
            del fresh
