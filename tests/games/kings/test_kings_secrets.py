"""What a seat may learn in Underground Kings, as properties over random play (hypothesis).

For every seat and the spectator, at random positions of random matches:

* ``determinize`` gives worlds the seat cannot tell from the real one: its
  view, who is to act, its legal commands and its picture are the same, and
  so is the next record as the seat sees it, wherever that record can be
  played in the other world and leaves the seat's view the same;
* those worlds really differ from the real one (hidden cards are re-dealt),
  and everything the seat has seen stays where it is;
* no command carries a secret: what a seat is shown of a command, its
  redacted events already say;
* nothing a seat is shown holds the seed, the commitment's salt or the RNG
  position.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.engine import ENGINE, Event, IllegalCommand, Rng
from meeple.engine.codec import pack, unstructure
from meeple.engine.match import derive_salt
from meeple.engine.rng import GOLDEN_GAMMA, MASK64
from meeple.games.kings import GAME, State
from meeple.games.kings.bot import HeuristicBot
from meeple.games.kings.commands import DrawCamp, DrawDeck, Play, Retreat, SetUp
from meeple.games.kings.data import CARDS
from meeple.games.kings.events import DrewFromCamp, Retreated, SquadPlayed

#: A seed whose bytes are distinctive, so that scans for it cannot match by chance.
SEED = 0xC0FFEE_5EED_0F_AB1E


def _played(seed: int, seats: int, steps: int, heuristic: bool) -> meeple.Match:
    m = meeple.Match.start("kings", seats=seats, seed=seed)
    bots: list[Any] = [HeuristicBot(seed + s) if heuristic else meeple.RandomBot(seed + s) for s in range(seats)]
    for _ in range(steps):
        if m.is_over:
            break
        seat = m.to_act[0]
        m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
    return m


def _redacted(events: Iterable[Event], seat: int | None) -> tuple[Event, ...]:
    return tuple(red for e in events if (red := GAME.redact(e, seat)) is not None)


def _fold(state: State, events: Iterable[Event]) -> State:
    for e in events:
        state = GAME.evolve(state, e)
    return state


def _hidden_cards(state: State, seat: int | None) -> set[int]:
    """The cards whose squad side ``seat`` has not seen (the deck, other hands, under the mines)."""
    hidden = set(state.deck)
    for s, hand in enumerate(state.hands):
        if s != seat:
            hidden |= set(hand) - set(state.open_cards[s])
    hidden |= {m.card for m in state.mines}
    hidden |= {c for dev in state.developed for c in dev}
    return hidden


positions = st.tuples(st.integers(0, 2**32), st.integers(2, 4), st.integers(1, 200), st.booleans())


@settings(max_examples=60, deadline=None)
@given(positions)
def test_a_seat_cannot_tell_a_determinized_world_from_the_real_one(position: tuple[int, int, int, bool]) -> None:
    seed, seats, steps, heuristic = position
    m = _played(seed, seats, steps, heuristic)
    real = m.state
    before = m.fork(at=len(m) - 1)
    state, record = before.state, m.records[-1]
    rng = Rng(seed)
    for seat in (*range(seats), None):
        view, acting = GAME.view(real, seat), GAME.to_act(real)
        legal = list(GAME.legal_commands(real, seat)) if seat in acting else None
        picture = GAME.render(real, seat) if seat is not None else None  # render(None) is the referee's
        changed = 0
        for _ in range(4):
            world = GAME.determinize(real, seat, rng)
            changed += world != real
            assert GAME.view(world, seat) == view
            assert GAME.to_act(world) == acting
            assert (GAME.outcome(world) is None) == (GAME.outcome(real) is None)
            if legal is not None:
                assert list(GAME.legal_commands(world, seat)) == legal
            if picture is not None:
                assert GAME.render(world, seat) == picture
            # the hidden cards are re-dealt among their own places only
            assert _hidden_cards(world, seat) == _hidden_cards(real, seat)
            for s in range(seats):
                assert set(real.open_cards[s]) <= set(world.hands[s])
            # the last record, played in a world the seat could not tell from the position before it
            earlier = GAME.determinize(state, seat, rng)
            try:
                events = GAME.decide(earlier, record.actor, record.command, Rng(seed))
            except IllegalCommand:
                continue  # the actor knows its hand: its command need not fit a world the seat imagines
            there = _fold(earlier, events)
            if GAME.view(there, seat) == GAME.view(real, seat):
                assert _redacted(events, seat) == _redacted(record.events, seat)
                assert GAME.redact_command(record.command, record.actor, seat) == record.command
        if len(real.deck) >= 6:  # five or more cards below the top: their order is hidden from everybody
            assert changed, f"determinize for seat {seat} never changed the state"


@settings(max_examples=30, deadline=None)
@given(positions)
def test_determinize_resamples_every_hidden_card(position: tuple[int, int, int, bool]) -> None:
    seed, seats, steps, heuristic = position
    m = _played(seed, seats, steps, heuristic)
    real = m.state
    if len(real.deck) < 10:
        return
    rng = Rng(seed ^ 0x55)
    tops = {GAME.determinize(real, 0, rng).deck[0] for _ in range(60)}
    # the deck's top shows its mine side: every hidden card with that side may be there, and nothing else
    side = CARDS[real.deck[0]].mine
    candidates = {c for c in _hidden_cards(real, 0) if CARDS[c].mine == side}
    assert tops <= candidates
    assert len(tops) >= min(2, len(candidates))
    other = GAME.determinize(real, 0, rng)
    assert other.hands[0] == real.hands[0] and other.camp == real.camp and other.discard == real.discard
    assert [(s.number, s.owner, s.stack) for s in other.mines] == [(s.number, s.owner, s.stack) for s in real.mines]


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 4), st.booleans())
def test_no_command_says_more_than_its_events(seed: int, seats: int, heuristic: bool) -> None:
    m = _played(seed, seats, 400, heuristic)
    for record in m.records:
        for seat in (*range(seats), None):
            seen = GAME.redact_command(record.command, record.actor, seat)
            assert seen == record.command  # nothing to hide: every field below is public
            events = _redacted(record.events, seat)
            match seen:
                case Play(card=card, mine=mine):
                    assert SquadPlayed(record.actor, card, mine) in events
                case Retreat(card=card):
                    assert any(isinstance(e, Retreated) and e.card == card for e in events)
                case DrawCamp(people=people):
                    assert any(isinstance(e, DrewFromCamp) and e.people is people for e in events)
                case DrawDeck() | SetUp():
                    assert not attrs.fields(type(seen))
                case _:
                    raise AssertionError(f"unknown command {seen!r}")


def test_every_command_declares_its_secrets() -> None:
    assert {cls: cls.secret for cls in GAME.commands} == dict.fromkeys(GAME.commands, ())


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 4), st.booleans(), st.booleans())
def test_nothing_a_seat_is_shown_holds_the_seed_its_salt_or_the_rng_position(
    seats: int, heuristic: bool, hide: bool
) -> None:
    m = _played(SEED, seats, 2000, heuristic)
    if hide:
        m = meeple.Match.from_bytes(m.to_bytes(hide_seed=True))
    needles = [pack(SEED), SEED.to_bytes(8, "big"), derive_salt(SEED)]
    texts = [str(SEED), f"{SEED:x}", f"{SEED:X}"]
    for seat in (*range(seats), None):
        for r in m.records_for(seat):
            data = pack(unstructure([r.command, list(r.events)]))
            assert not any(n in data for n in needles)
            assert not any(t in GAME.describe(r.command) for t in texts)
        for i in range(0, len(m) + 1, 17):
            m.seek(i)
            assert not any(n in pack(unstructure(m.view(seat))) for n in needles)
            assert not any(t in m.render(seat) for t in texts)
        m.seek(len(m))


def test_decide_uses_the_rng_only_to_draw() -> None:
    # the same draws from another seed and counter (SplitMix64: word n of seed s is word n + k of s - k * gamma)
    shift = 0x5EED_0FF5E7
    for seats in (2, 3, 4):
        m = meeple.Match.start("kings", seats=seats, seed=SEED)
        record = m.records[0]
        assert record.actor == ENGINE
        same = GAME.decide(GAME.initial_state(seats, m.options), ENGINE, SetUp(), Rng(SEED, 0))
        shifted = Rng((SEED - shift * GOLDEN_GAMMA) & MASK64, shift)
        assert GAME.decide(GAME.initial_state(seats, m.options), ENGINE, SetUp(), shifted) == same == record.events
