"""The state's machinery: interned cards, the quick copies, the fold that decide hands to evolve."""

from __future__ import annotations

import copy
import pickle
import sys

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.engine import ENGINE, Event, Match, RandomBot, Rng
from meeple.engine.codec import unstructure
from meeple.engine.copies import replacer
from meeple.engine.match import codec_for
from meeple.games.gophers import GAME, Kind, State
from meeple.games.gophers.data import DIG, FACES, Card, card
from meeple.games.gophers.events import CardLaid
from meeple.games.gophers.rules import evolve
from meeple.games.gophers.state import (
    NEW_TURN,
    Cards,
    Table,
    Turn,
    own_dict,
    replace_cards,
    replace_state,
    replace_table,
    replace_turn,
)


def test_each_face_is_one_object_however_it_is_made() -> None:
    a7 = card("A7")
    assert Card(Kind.ACORN, 7) is a7 and Card(kind=Kind.ACORN, value=7) is a7
    assert pickle.loads(pickle.dumps(a7)) is a7 and copy.deepcopy(a7) is a7 and copy.copy(a7) is a7
    assert attrs.evolve(a7, value=8) is card("A8")
    decoded = codec_for(GAME).structure(unstructure(CardLaid(0, a7, False)), CardLaid)
    assert decoded.card is a7
    assert len({id(c) for c in FACES}) == 31 and Card(Kind.DIG, 0) is DIG


@pytest.mark.parametrize("kind, value", [(Kind.ACORN, 0), (Kind.BERRY, 11), (Kind.DIG, 1), (Kind.WHEAT, True)])
def test_a_card_that_is_not_in_the_box_cannot_be_made(kind: Kind, value: int) -> None:
    with pytest.raises(ValueError, match="has the value"):
        Card(kind, value)
    # and trying leaves the shared cards as they were (True == 1 must not reach W1)
    assert all(type(c.value) is int for c in FACES) and card("W1").value == 1


def test_a_loaded_match_holds_the_interned_cards() -> None:
    m = Match.start(GAME, 2, seed=4)
    for data in (m.to_bytes(), m.to_bytes(hide_seed=True)):
        loaded = Match.from_bytes(data)
        assert all(c is card(repr(c)) for h in loaded.state.hands for c in h)
        assert all(c is card(repr(c)) for c in loaded.state.deck if c is not DIG)


_values = st.one_of(st.integers(), st.tuples(st.integers()), st.booleans(), st.text(max_size=3))


@settings(max_examples=50)
@given(data=st.data())
def test_the_quick_copies_equal_attrs_evolve(data: st.DataObject) -> None:
    base = {State: State(seats=2, options=GAME.options_type()), Turn: Turn(), Cards: Cards(), Table: Table()}
    for cls, replace in ((State, replace_state), (Turn, replace_turn), (Cards, replace_cards), (Table, replace_table)):
        names = [f.name for f in attrs.fields(cls)]
        chosen = data.draw(st.lists(st.sampled_from(names), unique=True, max_size=4))
        changes = {n: data.draw(_values) for n in chosen}
        got = replace(base[cls], **changes)
        assert type(got) is cls and got == attrs.evolve(base[cls], **changes)
    with pytest.raises(TypeError):
        replace_state(base[State], nonsense=1)


def test_decide_and_fold_hands_over_the_fold_of_decides_events_and_keeps_nothing_for_later() -> None:
    m = Match.start(GAME, 3, seed=8)
    bots = [RandomBot(s) for s in range(3)]
    earlier = None
    while m.to_act and len(m) < 400:
        seat = next(s for s in m.to_act if s != ENGINE)
        before = m.state
        cmd = bots[seat].choose(m.view(seat), m.legal(seat), seat)
        events, after = GAME.decide_and_fold(before, seat, cmd, Rng(5, m.rng_counter))
        assert events == GAME.decide(before, seat, cmd, Rng(5, m.rng_counter))
        s_plain = before
        for e in events:
            s_plain = evolve(s_plain, e)
        assert after == s_plain
        if earlier is not None:  # a fold of another command's events, after this decide, is that command's fold
            state, done = earlier
            assert GAME.fold(state, done) == _one_by_one(state, done)
        earlier = (before, events)
        m.play(seat, cmd)


def _one_by_one(state: State, events: tuple[Event, ...]) -> State:
    for e in events:
        state = evolve(state, e)
    return state


def test_every_option_declares_its_own_help_on_its_field() -> None:
    import attrs

    from meeple.catalog import describe_game
    from meeple.games.gophers import GophersOptions

    fields = attrs.fields(GophersOptions)
    assert all(f.metadata.get("help") for f in fields)
    shown = {o.name: o.help for o in describe_game("gophers").options}
    assert shown == {f.name: f.metadata["help"] for f in fields}


@settings(max_examples=50)
@given(data=st.data())
def test_the_quick_copies_of_named_fields_equal_attrs_evolve(data: st.DataObject) -> None:
    base = {State: State(seats=2, options=GAME.options_type()), Turn: Turn(), Cards: Cards(), Table: Table()}
    for cls in (State, Turn, Cards, Table):
        names = [f.name for f in attrs.fields(cls)]
        chosen = data.draw(st.lists(st.sampled_from(names), unique=True, min_size=1, max_size=6))
        values = [data.draw(_values) for _ in chosen]
        got = replacer(cls, *chosen)(base[cls], *values)
        assert type(got) is cls and got == attrs.evolve(base[cls], **dict(zip(chosen, values)))
    with pytest.raises(TypeError):
        replacer(State, "nonsense")
    with pytest.raises(TypeError):
        replacer(State, "roll", "roll")


def _own_layout(value: object) -> bool:
    """True if ``value``'s fields sit in a dict of its own (a dict that shares the class's keys is smaller)."""
    fields = vars(value)
    return sys.getsizeof(fields) == sys.getsizeof(dict(fields))


@pytest.mark.parametrize(("seats", "variant"), [(2, "standard"), (3, "advanced"), (2, "beginner")])
def test_the_states_of_a_match_keep_their_fields_in_dicts_of_their_own(seats: int, variant: str) -> None:
    options = GAME.variant_options(variant)
    assert GAME.initial_state(seats, options) == State(seats=seats, options=options)
    assert own_dict(Turn(book_rolls=2)) == Turn(book_rolls=2) and Turn() == NEW_TURN
    m = Match.start(GAME, seats, seed=3, options=options)
    bots = [RandomBot(s) for s in range(seats)]
    states = [m.state]
    while m.to_act and len(m) < 300:
        seat = next(s for s in m.to_act if s != ENGINE)
        m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
        states.append(m.state)
    world = GAME.world(m.view(0), 0, Rng(1))
    for state in (*states, world, GAME.determinize(m.state, 0, Rng(2))):
        assert _own_layout(state) and _own_layout(state.turn)
