"""The conformance kit is pinned: an honest game passes it, and each kind of leak fails it.

``Pairs`` is a small game with hidden hands, face-down discards, a face-up
show and a final reveal. Each ``Leaky*`` class below breaks it in exactly one
way a real game could, and the kit must name that way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import attrs
import pytest

from meeple import ENGINE, Command, Event, Game, GameInfo, Match, Options, Outcome, Rng
from meeple.engine import registry
from meeple.engine.match import derive_salt
from meeple.testing import (
    ConformanceError,
    Playout,
    check_command_redaction,
    check_decide_and_fold,
    check_game,
    check_illegal_atomic,
    check_legal_is_decide,
    check_rng_blind,
    check_secrets,
    check_views,
    playout,
)

CARDS = tuple(range(1, 10))
HAND = 2
TURNS = 2


@attrs.frozen
class Deal(Command):
    tag: ClassVar[str] = "deal"


@attrs.frozen
class Score(Command):
    tag: ClassVar[str] = "score"


@attrs.frozen
class Discard(Command):
    """Discard ``card`` face down and draw the top of the pile."""

    tag: ClassVar[str] = "discard"
    secret: ClassVar[tuple[str, ...]] = ("card",)
    card: int


@attrs.frozen
class Show(Command):
    """Turn ``card`` of your hand face up."""

    tag: ClassVar[str] = "show"
    card: int


@attrs.frozen
class Stand(Command):
    tag: ClassVar[str] = "stand"


@attrs.frozen
class Dealt(Event):
    tag: ClassVar[str] = "dealt"
    hands: tuple[tuple[int, ...] | None, ...]
    pile: tuple[int, ...] | None
    mark: int = 0


@attrs.frozen
class Discarded(Event):
    tag: ClassVar[str] = "discarded"
    seat: int
    card: int | None


@attrs.frozen
class Drew(Event):
    tag: ClassVar[str] = "drew"
    barrier: ClassVar[bool] = True
    seat: int
    card: int | None


@attrs.frozen
class Shown(Event):
    tag: ClassVar[str] = "shown"
    seat: int
    card: int


@attrs.frozen
class Stood(Event):
    tag: ClassVar[str] = "stood"
    seat: int


@attrs.frozen
class Revealed(Event):
    tag: ClassVar[str] = "revealed"
    barrier: ClassVar[bool] = True
    hands: tuple[tuple[int, ...], ...]


@attrs.frozen
class State:
    seats: int
    hands: tuple[tuple[int, ...], ...] = ()
    pile: tuple[int, ...] = ()
    discards: tuple[tuple[int, ...], ...] = ()
    shown: frozenset[tuple[int, int]] = frozenset()
    moves: int = 0
    revealed: bool = False
    mark: int = 0


@attrs.frozen
class View:
    seat: int | None
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    pile_size: int
    discard_counts: tuple[int, ...]
    shown: frozenset[tuple[int, int]]
    moves: int
    hands: tuple[tuple[int, ...], ...] | None
    peek: tuple[int, ...] = ()
    mark: int = 0
    note: bytes = b""


class Pairs(Game[State, Options]):
    """The honest game."""

    info = GameInfo(id="pairs", title="Pairs", rules_version=1, min_seats=2, max_seats=3)
    state_type = State
    view_type = View
    commands = (Deal, Score, Discard, Show, Stand)
    events = (Dealt, Discarded, Drew, Shown, Stood, Revealed)

    def initial_state(self, seats: int, options: Options) -> State:
        return State(seats)

    def turn(self, state: State) -> int:
        return state.moves % state.seats

    def to_act(self, state: State) -> tuple[int, ...]:
        if not state.hands:
            return (ENGINE,)
        if state.revealed:
            return ()
        if state.moves >= TURNS * state.seats:
            return (ENGINE,)
        return (self.turn(state),)

    def auto_command(self, state: State) -> Command:
        return Deal() if not state.hands else Score()

    def legal_commands(self, state: State, seat: int) -> Sequence[Command]:
        if seat not in self.to_act(state):
            return ()
        hand = state.hands[seat]
        out: list[Command] = [Stand()]
        if state.pile:
            out += [Discard(c) for c in hand]
        out += [Show(c) for c in hand if (seat, c) not in state.shown]
        return out

    def decide(self, state: State, seat: int, command: Command, rng: Rng) -> tuple[Event, ...]:
        if seat != ENGINE and isinstance(command, (Deal, Score)):
            raise self.illegal("only the engine deals and scores", command=command)
        if isinstance(command, Deal):
            deck = rng.shuffled(CARDS)
            n = state.seats
            hands = tuple(tuple(sorted(deck[s * HAND : (s + 1) * HAND])) for s in range(n))
            return (Dealt(hands, deck[n * HAND :], self.mark(rng)),)
        if isinstance(command, Score):
            return (Revealed(state.hands),)
        if command not in self.legal_commands(state, seat):
            raise self.illegal(f"{command!r} is not playable now", command=command)
        if isinstance(command, Discard):
            return (Discarded(seat, command.card), Drew(seat, state.pile[0]))
        if isinstance(command, Show):
            return (Shown(seat, command.card),)
        return (Stood(seat),)

    def mark(self, rng: Rng) -> int:
        return 0

    def evolve(self, state: State, event: Event) -> State:
        if isinstance(event, Dealt):
            assert event.pile is not None
            hands = tuple(h or () for h in event.hands)
            return attrs.evolve(state, hands=hands, pile=event.pile, discards=((),) * state.seats, mark=event.mark)
        if isinstance(event, Discarded):
            s = event.seat
            hand = list(state.hands[s])
            hand.remove(event.card)  # type: ignore[arg-type]
            discards = list(state.discards)
            discards[s] = (*discards[s], event.card)  # type: ignore[arg-type]
            return attrs.evolve(state, hands=_put(state.hands, s, tuple(hand)), discards=tuple(discards))
        if isinstance(event, Drew):
            s = event.seat
            hand = tuple(sorted((*state.hands[s], state.pile[0])))
            return attrs.evolve(state, hands=_put(state.hands, s, hand), pile=state.pile[1:], moves=state.moves + 1)
        if isinstance(event, Shown):
            return attrs.evolve(state, shown=state.shown | {(event.seat, event.card)}, moves=state.moves + 1)
        if isinstance(event, Stood):
            return attrs.evolve(state, moves=state.moves + 1)
        if isinstance(event, Revealed):
            return attrs.evolve(state, revealed=True)
        raise TypeError(event)

    def view(self, state: State, seat: int | None) -> View:
        mine = seat is not None and bool(state.hands)
        return View(
            seat=seat,
            hand=state.hands[seat] if mine and seat is not None else (),
            hand_sizes=tuple(len(h) for h in state.hands),
            pile_size=len(state.pile),
            discard_counts=tuple(len(d) for d in state.discards),
            shown=state.shown,
            moves=state.moves,
            hands=state.hands if state.revealed else None,
            peek=self.peek(state, seat),
            mark=state.mark,
            note=self.note(state, seat),
        )

    def note(self, state: State, seat: int | None) -> bytes:
        return b""

    def peek(self, state: State, seat: int | None) -> tuple[int, ...]:
        return ()

    def redact(self, event: Event, seat: int | None) -> Event | None:
        if isinstance(event, Dealt):
            return Dealt(tuple(h if s == seat else None for s, h in enumerate(event.hands)), None, event.mark)
        if isinstance(event, (Discarded, Drew)) and event.seat != seat:
            return attrs.evolve(event, card=None)
        return event

    def determinize(self, state: State, seat: int | None, rng: Rng) -> State:
        if not state.hands or state.revealed:
            return state
        others = [s for s in range(state.seats) if s != seat]
        kept = {s: [c for c in state.hands[s] if (s, c) in state.shown] for s in others}
        pool = list(state.pile)
        for s in others:
            pool += [c for c in state.hands[s] if (s, c) not in state.shown] + list(state.discards[s])
        pool = list(rng.shuffled(pool))
        hands, discards = list(state.hands), list(state.discards)
        for s in others:
            k = len(state.hands[s]) - len(kept[s])
            hands[s], pool = tuple(sorted(kept[s] + pool[:k])), pool[k:]
            k = len(state.discards[s])
            discards[s], pool = tuple(pool[:k]), pool[k:]
        return attrs.evolve(state, hands=tuple(hands), discards=tuple(discards), pile=tuple(pool))

    def outcome(self, state: State) -> Outcome | None:
        if not state.revealed:
            return None
        sums = tuple(sum(h) for h in state.hands)
        best = max(sums)
        return Outcome(tuple(s for s, v in enumerate(sums) if v == best), sums, "highest hand")

    def render(self, state: State, seat: int | None = None) -> str:
        v = self.view(state, seat)
        return f"hand {list(v.hand)}, shown {sorted(v.shown)}, pile {v.pile_size}"

    def describe(self, command: Command) -> str:
        if isinstance(command, Discard):
            return "discard " + ("a card" if command.card is None else str(command.card))
        return type(command).__name__.lower()


def _put(hands: tuple[tuple[int, ...], ...], seat: int, hand: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    return (*hands[:seat], hand, *hands[seat + 1 :])


# -- one leak each ----------------------------------------------------------------


class LeakyView(Pairs):
    """The view shows the next seat's hand."""

    def peek(self, state: State, seat: int | None) -> tuple[int, ...]:
        return state.hands[(seat + 1) % state.seats] if seat is not None and state.hands else ()


class LeakyRedact(Pairs):
    """A drawn card reaches every seat."""

    def redact(self, event: Event, seat: int | None) -> Event | None:
        if isinstance(event, Drew):
            return event
        return super().redact(event, seat)


class LeakyDiscardEvent(Pairs):
    """The face-down discard's event reaches every seat whole, though the view and the command hide its card."""

    def redact(self, event: Event, seat: int | None) -> Event | None:
        if isinstance(event, Discarded):
            return event
        return super().redact(event, seat)


class LeakyDiscard(LeakyDiscardEvent):
    """The face-down discard's card reaches every seat in its command and in its event alike."""

    def redact_command(self, command: Command, actor: int, seat: int | None) -> Command:
        return command


class LeakyCommand(Pairs):
    """The face-down discard's card is shown to everybody."""

    def redact_command(self, command: Command, actor: int, seat: int | None) -> Command:
        return command


class DefaultDeterminize(Pairs):
    """Hidden information, but the default determinize (which re-deals nothing)."""

    determinize = Game.determinize  # type: ignore[assignment]


class IdentityDeterminize(Pairs):
    """A determinize that changes nothing."""

    def determinize(self, state: State, seat: int | None, rng: Rng) -> State:
        return state


class ClaimsOpen(Pairs):
    """Says its matches hide nothing (so no re-deal is expected), though it deals hidden hands."""

    def hides_information(self, options: Options) -> bool:
        return False

    def determinize(self, state: State, seat: int | None, rng: Rng) -> State:
        return state


class SeedInEvents(Pairs):
    """The deal writes (part of) the seed into its event, so into the state and every view."""

    def mark(self, rng: Rng) -> int:
        return rng.seed


class CounterInEvents(Pairs):
    """The deal writes the RNG position into its event."""

    def mark(self, rng: Rng) -> int:
        return rng.counter


class LeakyToAct(Pairs):
    """A seat holding a 9 is skipped: who acts tells who holds it."""

    def to_act(self, state: State) -> tuple[int, ...]:
        acting = super().to_act(state)
        if acting and acting[0] != ENGINE and 9 in state.hands[acting[0]]:
            return (ENGINE,)
        return acting

    def auto_command(self, state: State) -> Command:
        if state.hands and not state.revealed and state.moves < TURNS * state.seats:
            return Stand()
        return super().auto_command(state)

    def decide(self, state: State, seat: int, command: Command, rng: Rng) -> tuple[Event, ...]:
        if seat == ENGINE and isinstance(command, Stand):
            return (Stood(self.turn(state)),)
        return super().decide(state, seat, command, rng)


class LeakyLegal(Pairs):
    """Standing is allowed only while the next seat's hand is lower: the menu tells."""

    def legal_commands(self, state: State, seat: int) -> Sequence[Command]:
        legal = list(super().legal_commands(state, seat))
        if legal and sum(state.hands[(seat + 1) % state.seats]) >= sum(state.hands[seat]):
            legal.remove(Stand())
        return legal


class LeakyRender(Pairs):
    """The seat's picture shows every hand."""

    def render(self, state: State, seat: int | None = None) -> str:
        return super().render(state, seat) + f" all {list(state.hands)}"


class UnbarredReveal(Pairs):
    """The final reveal is not declared an information barrier."""

    def decide(self, state: State, seat: int, command: Command, rng: Rng) -> tuple[Event, ...]:
        if seat == ENGINE and isinstance(command, Score):
            return (_QuietReveal(state.hands),)
        return super().decide(state, seat, command, rng)

    def evolve(self, state: State, event: Event) -> State:
        if isinstance(event, _QuietReveal):
            return attrs.evolve(state, revealed=True)
        return super().evolve(state, event)


@attrs.frozen
class _QuietReveal(Event):
    tag: ClassVar[str] = "quiet_reveal"
    hands: tuple[tuple[int, ...], ...]


UnbarredReveal.events = (*Pairs.events, _QuietReveal)


class WrongFold(Pairs):
    """Its own fold of a record skips the record's last event (the live match and its log agree on that state)."""

    def fold(self, state: State, events: Sequence[Event]) -> State:
        for e in events[:-1] if len(events) > 1 else events:
            state = self.evolve(state, e)
        return state


class StaleDecideAndFold(Pairs):
    """Hands the engine a state with a mark its events never set, as a decide that kept a stale fold might."""

    def decide_and_fold(self, state: State, seat: int, command: Command, rng: Rng) -> tuple[tuple[Event, ...], State]:
        events = self.decide(state, seat, command, rng)
        after = self.fold(state, events)
        return events, attrs.evolve(after, mark=after.mark + 1)


class DecideAndFoldDecidesAgain(Pairs):
    """Hands the engine the events of a second decide, from an RNG that has drawn already."""

    def decide_and_fold(self, state: State, seat: int, command: Command, rng: Rng) -> tuple[tuple[Event, ...], State]:
        self.decide(state, seat, command, rng)
        events = self.decide(state, seat, command, rng)
        return events, self.fold(state, events)


# -- legal_commands and decide disagree -----------------------------------------------


class ListsAShownCard(Pairs):
    """Lists showing a card already face up, which decide refuses."""

    def legal_commands(self, state: State, seat: int) -> Sequence[Command]:
        legal = list(super().legal_commands(state, seat))
        return legal + [Show(c) for c in state.hands[seat] if (seat, c) in state.shown] if legal else legal

    def decide(self, state: State, seat: int, command: Command, rng: Rng) -> tuple[Event, ...]:
        if isinstance(command, Show) and (seat, command.card) in state.shown:
            raise self.illegal("that card is face up already", command=command)
        return super().decide(state, seat, command, rng)


class DiscardsFromAnEmptyPile(Pairs):
    """Takes a discard for a pass when the pile is empty, though it lists none then."""

    def decide(self, state: State, seat: int, command: Command, rng: Rng) -> tuple[Event, ...]:
        if isinstance(command, Discard) and state.hands and not state.pile and seat in self.to_act(state):
            return (Stood(seat),)
        return super().decide(state, seat, command, rng)


class ListsForEveryone(Pairs):
    """Lists standing for every seat, not only the one to act."""

    def legal_commands(self, state: State, seat: int) -> Sequence[Command]:
        return super().legal_commands(state, seat) or ([Stand()] if Pairs.to_act(self, state) != () else [])


class WithSpace(Pairs):
    """The honest game, describing its command space."""

    def command_space(self, state: State, seat: int) -> Sequence[Command]:
        return (Deal(), Score(), Stand(), *(k(c) for k in (Discard, Show) for c in range(11)))


class ShowsAnyCard(WithSpace):
    """Accepts showing a card that is in another seat's hand."""

    def decide(self, state: State, seat: int, command: Command, rng: Rng) -> tuple[Event, ...]:
        if isinstance(command, Show) and state.hands and any(command.card in h for h in state.hands) and \
                command.card not in state.hands[seat]:
            return (Stood(seat),)
        return super().decide(state, seat, command, rng)


def _played(game: Pairs, seats: int, seed: int, moves: Sequence[Command]) -> Playout:
    """A playout of ``moves`` in turn order (hand-built: the random bots never pick a command the kit must find)."""
    m = Match.start(game, seats, seed=seed)
    for cmd in moves:
        (seat,) = m.to_act
        m.play(seat, cmd)
    return Playout(m, [(r.actor, r.command) for r in m.records if r.actor != ENGINE], seed, 0)


def test_a_listed_command_that_decide_refuses_fails_the_kit(register: Any) -> None:
    game = register(ListsAShownCard)
    m = Match.start(game, 2, seed=5)
    p = _played(game, 2, 5, [Show(m.view(0).hand[0]), Stand(), Stand()])
    check_illegal_atomic(p, samples=len(p.match))  # the older check sees nothing: only unlisted commands are tried
    with pytest.raises(ConformanceError, match=r"Show\(card=\d\) is listed for seat 0, but decide refuses it"):
        check_legal_is_decide(p, samples=len(p.match))


def test_a_command_out_of_its_time_that_decide_accepts_fails_the_kit(register: Any) -> None:
    game = register(DiscardsFromAnEmptyPile)
    m = Match.start(game, 3, seed=5)
    moves: list[Command] = []
    for seat in range(3):  # three discards empty the pile of three cards
        moves.append(Discard(m.view(seat).hand[0]))
        m.play(seat, moves[-1])
    assert not m.state.pile and Match.start(game, 3, seed=5).state.pile
    p = _played(game, 3, 5, moves)
    check_illegal_atomic(p, samples=len(p.match))
    with pytest.raises(ConformanceError, match=r"decide accepts Discard\(card=\d\) by seat 0, but legal_commands"):
        check_legal_is_decide(p, samples=len(p.match))


def test_commands_listed_for_a_seat_not_to_act_fail_the_kit(register: Any) -> None:
    p = playout(register(ListsForEveryone), 2, seed=SEED)
    with pytest.raises(ConformanceError, match=r"seat \d is not to act, but legal_commands lists Stand"):
        check_legal_is_decide(p)


def test_the_command_space_of_a_game_is_tried_whole(register: Any) -> None:
    check_game(register(WithSpace), seats=2, seeds=range(2))  # its space holds the engine's deal and score too
    p = playout(register(ShowsAnyCard), 3, seed=SEED)
    with pytest.raises(ConformanceError, match=r"decide accepts Show\(card=\d\) by seat \d, but legal_commands"):
        check_legal_is_decide(p)


@pytest.fixture
def register(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Register a variant of Pairs under an id of its own, for this test only (verify looks games up by id)."""

    def add(cls: type[Pairs]) -> Pairs:
        game = cls()
        if cls is not Pairs:
            cls.info = attrs.evolve(Pairs.info, id=f"pairs-{cls.__name__.lower()}")
        monkeypatch.setitem(registry._registered, game.info.id, game)
        return game

    return add


@pytest.mark.parametrize("seats", [2, 3])
def test_the_honest_game_passes_every_check(seats: int, register: Any) -> None:
    check_game(register(Pairs), seats=seats, seeds=range(4))


@pytest.mark.parametrize(
    ("cls", "message"),
    [
        (LeakyView, "the view of seat .* changed"),
        (LeakyRedact, "the events of record .* changed"),
        (LeakyCommand, "can tell .* by the command alone"),
        (LeakyDiscardEvent, "is shown other events for .* though its view after them is the same"),
        (LeakyDiscard, "is shown other events for .* though its view after them is the same"),
        (DefaultDeterminize, "keeps the default determinize"),
        (IdentityDeterminize, "determinize never changed a state"),
        (SeedInEvents, "the view of seat .* changed|RNG's seed and position"),
        (CounterInEvents, "RNG's seed and position"),
        (LeakyToAct, "who is to act changed"),
        (LeakyLegal, "the legal commands of seat .* changed"),
        (LeakyRender, "the picture of seat .* changed"),
        (UnbarredReveal, "not an information barrier"),
        (ClaimsOpen, "say.* these options hide nothing, but redact hides"),
        (WrongFold, "Game.fold of the record's events differs"),
    ],
)
def test_each_kind_of_leak_fails_the_kit(cls: type[Pairs], message: str, register: Any) -> None:
    with pytest.raises(ConformanceError, match=message):
        check_game(register(cls), seats=3, seeds=range(6))


@pytest.mark.parametrize(
    ("cls", "message"),
    [
        (StaleDecideAndFold, "hands over a state other than the fold of its events"),
        (DecideAndFoldDecidesAgain, "does not decide as decide does"),
    ],
)
def test_a_decide_and_fold_other_than_decide_then_fold_fails_its_check(
        cls: type[Pairs], message: str, register: Any) -> None:
    p = playout(register(cls), 3, seed=SEED)
    with pytest.raises(ConformanceError, match=message):
        check_decide_and_fold(p)
    check_decide_and_fold(playout(register(Pairs), 3, seed=SEED))


def test_the_rng_check_alone_catches_the_seed_in_events(register: Any) -> None:
    p = playout(register(SeedInEvents), 2, seed=SEED)
    check_command_redaction(p)
    with pytest.raises(ConformanceError, match="RNG's seed and position"):
        check_rng_blind(p)


SEED = 0xC0FFEE_5EED_0F_AB1E


class SaltInView(Pairs):
    """The view carries the commitment's salt."""

    def note(self, state: State, seat: int | None) -> bytes:
        return derive_salt(SEED)


class SeedInPicture(Pairs):
    """The seat's picture prints the seed."""

    def render(self, state: State, seat: int | None = None) -> str:
        return f"match {SEED:x}"


@pytest.mark.parametrize(("cls", "message"), [(SaltInView, "view of seat 0 holds the seed or its salt"),
                                              (SeedInPicture, "picture of seat 0 shows the seed")])
def test_the_secret_scan_alone_finds_the_seed_and_the_salt(cls: type[Pairs], message: str, register: Any) -> None:
    with pytest.raises(ConformanceError, match=message):
        check_secrets(playout(register(cls), 2, seed=SEED))
    check_secrets(playout(register(Pairs), 2, seed=SEED))


def test_a_public_show_and_a_barrier_reveal_are_no_leaks(register: Any) -> None:
    """Showing a card and the final reveal tell worlds apart by rule: the kit must not call them leaks."""
    game = register(Pairs)
    m = Match.start(game, 2, seed=5)
    m.play(0, Show(m.view(0).hand[0]))
    m.play(1, Discard(m.view(1).hand[0]))
    m.play(0, Stand())
    m.play(1, Stand())
    assert m.is_over and isinstance(m.records[-1].events[0], Revealed)
    p = Playout(m, [(r.actor, r.command) for r in m.records if r.actor != ENGINE], 5, 0)
    check_views(p, samples=len(m), worlds=4)
    check_command_redaction(p, samples=len(m))


def test_records_for_shows_the_engine_deal_redacted(register: Any) -> None:
    m = Match.start(register(Pairs), 2, seed=9)
    (deal,) = m.records_for(1)
    assert deal.command == Deal()
    assert deal.events[0].hands[0] is None and deal.events[0].hands[1] == m.view(1).hand  # type: ignore[attr-defined]
