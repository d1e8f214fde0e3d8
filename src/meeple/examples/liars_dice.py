"""Liar's Dice: the example game of the tutorial (docs/tutorial.md).

A small game with dice and hidden information, written on meeple's Game
protocol in one module you can read top to bottom. The rules follow
OpenSpiel's ``liars_dice`` so benchmarks compare like with like:

* every player rolls ``dice`` dice (default 1) of ``sides`` faces (default 6)
  in secret; the highest face is wild (counts as any face) unless ``wild`` is off;
* in turn, a player either bids "at least *q* dice show face *f*", strictly
  higher than the last bid (bids are ordered by quantity, then face), or
  calls the last bid a lie (not before the first bid);
* on a call all dice are shown: if the bid holds, the caller loses, else the
  bidder loses. The loser scores -1, everybody else +1 (shared).

The engine seat rolls the dice at the start: an ordinary, logged command.
At the end of the module, the game declares its encodings for
reinforcement learning (``meeple.rl``): a fixed action space and the layout
of its observation tensor.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import ClassVar

import attrs

import meeple
from meeple.engine import ENGINE, Code, Command, ConfigError, Event, Game, GameInfo, Options, Outcome, Rng
from meeple.rl.encoding import Actions, Encoding, Observation, Segment, register_encoding

# -- facts and options ---------------------------------------------------------

INFO = GameInfo(
    id="liars-dice",
    title="Liar's Dice",
    rules_version=1,
    min_seats=2,
    max_seats=6,
    summary="Bid on the dice under everybody's cups; call a liar.",
)


@attrs.frozen
class LiarsDiceOptions(Options):
    """``dice`` per player, ``sides`` per die, and whether the top face is ``wild``."""

    dice: int = attrs.field(default=1, metadata={"help": "dice under each player's cup, 1..5"})
    sides: int = attrs.field(default=6, metadata={"help": "faces of each die, 2..12"})
    wild: bool = attrs.field(default=True, metadata={"help": "ones count as every face (a bid's face excepted)"})

    def validate(self, seats: int) -> None:
        """Dice 1..5 per player and 2..12 sides."""
        if not 1 <= self.dice <= 5:
            raise ConfigError(f"liars-dice: dice must be 1..5, not {self.dice}")
        if not 2 <= self.sides <= 12:
            raise ConfigError(f"liars-dice: sides must be 2..12, not {self.sides}")


# -- commands and events ---------------------------------------------------------


@attrs.frozen
class Roll(Command):
    """The engine rolls everybody's dice (the only random step)."""

    tag: ClassVar[str] = "roll"


@attrs.frozen
class Bid(Command):
    """Claim that at least ``quantity`` dice show ``face`` (wilds included)."""

    tag: ClassVar[str] = "bid"
    quantity: int
    face: int


@attrs.frozen
class CallLiar(Command):
    """Call the last bid a lie."""

    tag: ClassVar[str] = "liar"


@attrs.frozen
class DiceRolled(Event):
    """``seat`` rolled ``dice`` (other seats see ``dice`` as None)."""

    tag: ClassVar[str] = "rolled"
    seat: int
    dice: tuple[int, ...] | None


@attrs.frozen
class BidMade(Event):
    """``seat`` bid ``quantity`` × ``face``."""

    tag: ClassVar[str] = "bid_made"
    seat: int
    quantity: int
    face: int


@attrs.frozen
class LiarCalled(Event):
    """``seat`` called; all dice were shown; ``loser`` lost.

    Showing the dice reveals what was hidden, so the call cannot be taken back
    by a player's undo (an information barrier).
    """

    tag: ClassVar[str] = "called"
    barrier: ClassVar[bool] = True
    seat: int
    dice: tuple[tuple[int, ...], ...]
    count: int
    loser: int


# -- state and view ------------------------------------------------------------------


@attrs.frozen
class State:
    """The referee's state: everybody's dice, the bids, whose turn, the loser."""

    seats: int
    options: LiarsDiceOptions
    dice: tuple[tuple[int, ...], ...] = ()
    bids: tuple[tuple[int, int, int], ...] = ()  # (seat, quantity, face)
    turn: int = 0
    loser: int | None = None


@attrs.frozen
class View:
    """What one seat knows: its own dice, every bid, whose turn, the result, and the table's public facts."""

    seat: int | None
    my_dice: tuple[int, ...]
    dice_per_seat: int
    bids: tuple[tuple[int, int, int], ...]
    turn: int
    revealed: tuple[tuple[int, ...], ...] | None
    loser: int | None
    seats: int
    options: LiarsDiceOptions
    rolled: bool


# -- the rules --------------------------------------------------------------------------


def _rank(quantity: int, face: int, sides: int) -> int:
    return (quantity - 1) * sides + (face - 1)


@functools.cache
def _all_bids(total: int, sides: int) -> tuple[Command, ...]:
    """Every bid for ``total`` dice of ``sides`` faces, in rank order (index == rank)."""
    return tuple(Bid(q, f) for q in range(1, total + 1) for f in range(1, sides + 1))


_ROLL = Roll()
_CALL = CallLiar()


@functools.cache
def _answers(total: int, sides: int) -> tuple[tuple[Command, ...], ...]:
    """The legal commands after each bid, by the bid's rank: every higher bid, then the call."""
    bids = _all_bids(total, sides)
    return tuple((*bids[rank + 1 :], _CALL) for rank in range(len(bids)))


def _count(dice: Sequence[Sequence[int]], face: int, opts: LiarsDiceOptions) -> int:
    """How many dice show ``face``, wild dice included."""
    wild = opts.wild and face != opts.sides
    count = 0
    for hand in dice:
        count += hand.count(face)
        if wild:
            count += hand.count(opts.sides)
    return count


class LiarsDice(Game[State, LiarsDiceOptions]):
    """Liar's Dice on the meeple protocol."""

    info = INFO
    options_type = LiarsDiceOptions
    state_type = State
    view_type = View
    commands = (Roll, Bid, CallLiar)
    events = (DiceRolled, BidMade, LiarCalled)

    def initial_state(self, seats: int, options: LiarsDiceOptions) -> State:
        return State(seats, options)

    def to_act(self, state: State) -> tuple[int, ...]:
        if state.loser is not None:
            return ()
        if not state.dice:
            return (ENGINE,)
        return (state.turn,)

    def auto_command(self, state: State) -> Command:
        return _ROLL

    def legal_commands(self, state: State, seat: int) -> Sequence[Command]:
        if seat != state.turn or not state.dice or state.loser is not None:
            return ()  # not this seat's turn (to_act), or the engine's, or the match is over
        opts = state.options
        if not state.bids:
            return _all_bids(state.seats * opts.dice, opts.sides)
        _, q, f = state.bids[-1]
        return _answers(state.seats * opts.dice, opts.sides)[_rank(q, f, opts.sides)]

    def command_space(self, state: State, seat: int) -> Sequence[Command]:
        # every bid from 0 dice of face 0 to one die and one face past the table's, the call and the roll
        opts = state.options
        bids = [Bid(q, f) for q in range(state.seats * opts.dice + 2) for f in range(opts.sides + 2)]
        return (*bids, CallLiar(), _ROLL)

    # decide and evolve run for every command played, replayed or verified, so
    # they pick the case by exact type, commonest first (the engine accepts only
    # the game's own classes; this is cheaper in CPython than `match` with class
    # patterns), read fields as attributes, and roll in a plain loop.

    def decide(self, state: State, seat: int, command: Command, rng: Rng) -> tuple[Event, ...]:
        opts = state.options
        if type(command) is Bid:
            q, f = command.quantity, command.face
            if not (1 <= q <= state.seats * opts.dice and 1 <= f <= opts.sides):
                raise self.illegal(f"a bid is 1..{state.seats * opts.dice} dice of face 1..{opts.sides}", Code.BAD_ARGUMENT, command)
            if state.bids:
                _, lq, lf = state.bids[-1]
                if (q, f) <= (lq, lf):  # bids rank by quantity, then face
                    raise self.illegal(f"bid higher than {lq} x {lf}", Code.RULE, command)
            return (BidMade(seat, q, f),)
        if type(command) is CallLiar:
            if not state.bids:
                raise self.illegal("nobody has bid yet: make the first bid", Code.RULE, command)
            bidder, q, f = state.bids[-1]
            count = _count(state.dice, f, opts)
            loser = seat if count >= q else bidder
            return (LiarCalled(seat, state.dice, count, loser),)
        if type(command) is Roll:
            if state.dice:
                raise self.illegal("the dice are already rolled", Code.WRONG_PHASE, command)
            rolls: list[Event] = []
            for s in range(state.seats):
                rolls.append(DiceRolled(s, rng.dice(opts.dice, opts.sides)))
            return tuple(rolls)
        raise self.illegal(f"unknown command {command!r}", Code.UNKNOWN_COMMAND, command)

    def evolve(self, state: State, event: Event) -> State:
        # States are built directly (not with attrs.evolve), for the same reason.
        if type(event) is BidMade:
            seat, seats = event.seat, state.seats
            bids = (*state.bids, (seat, event.quantity, event.face))
            return State(seats, state.options, state.dice, bids, (seat + 1) % seats, None)
        if type(event) is DiceRolled:
            assert event.dice is not None
            return State(state.seats, state.options, (*state.dice, event.dice), state.bids, state.turn, None)
        if type(event) is LiarCalled:
            return State(state.seats, state.options, state.dice, state.bids, state.turn, event.loser)
        raise TypeError(f"unknown event {event!r}")

    def view(self, state: State, seat: int | None) -> View:
        mine = state.dice[seat] if seat is not None and seat < len(state.dice) else ()
        return View(
            seat=seat,
            my_dice=mine,
            dice_per_seat=state.options.dice,
            bids=state.bids,
            turn=state.turn,
            revealed=state.dice if state.loser is not None else None,
            loser=state.loser,
            seats=state.seats,
            options=state.options,
            rolled=bool(state.dice),
        )

    def world(self, view: View, seat: int | None, rng: Rng) -> State:
        """A state ``seat`` cannot tell from the true one: its own dice kept, every other cup rolled anew.

        Built from the view alone (search bots sample with it): the bids,
        the turn and the result are public; once the dice are shown, nothing
        is hidden any more.
        """
        opts = view.options
        if view.revealed is not None:
            dice = view.revealed
        elif view.rolled:
            dice = tuple(view.my_dice if s == seat else rng.dice(opts.dice, opts.sides) for s in range(view.seats))
        else:
            dice = ()
        return State(view.seats, opts, dice, view.bids, view.turn, view.loser)

    def determinize(self, state: State, seat: int | None, rng: Rng) -> State:
        """The true state with what ``seat`` cannot see re-dealt: a world sampled from its view."""
        return self.world(self.view(state, seat), seat, rng)

    def redact(self, event: Event, seat: int | None) -> Event | None:
        if isinstance(event, DiceRolled) and event.seat != seat:
            return DiceRolled(event.seat, None)
        return event

    def outcome(self, state: State) -> Outcome | None:
        if state.loser is None:
            return None
        winners = tuple(s for s in range(state.seats) if s != state.loser)
        scores = tuple(-1 if s == state.loser else 1 for s in range(state.seats))
        return Outcome(winners, scores, f"seat {state.loser} lost the call")

    def render(self, state: State, seat: int | None = None) -> str:
        v = self.view(state, seat)
        lines = [f"Liar's Dice, {state.seats} players"]
        if seat is None:
            lines += [f"  seat {s}: {list(d)}" for s, d in enumerate(state.dice)]
        else:
            lines.append(f"  your dice: {list(v.my_dice)}")
        lines += [f"  seat {s} bid {q} x {f}" for s, q, f in state.bids]
        if state.loser is not None:
            lines.append(f"  seat {state.loser} lost")
        return "\n".join(lines)

    def describe(self, command: Command) -> str:
        match command:
            case Bid(quantity=q, face=f):
                return f"bid {q} x {f}"
            case CallLiar():
                return "call liar"
        return type(command).__name__.lower()


GAME = LiarsDice()
meeple.register(GAME)


# -- encodings for reinforcement learning (meeple.rl) ------------------------------------------


def encoding(seats: int, options: LiarsDiceOptions) -> Encoding:
    """The fixed action space and the observation layout of Liar's Dice at ``seats`` (docs/rl.md).

    Action ``rank(q, f) = (q - 1) * sides + (f - 1)`` is the bid of ``q``
    dice showing face ``f``; the last action, ``total * sides``, is the call.
    Seats in the observation are counted from the observer: 0 is itself,
    1 the next to its left, and so on.
    """
    total, sides = seats * options.dice, options.sides
    bids = total * sides

    def fill(view: View, seat: int, out: bytearray) -> None:
        # each segment's numbers at its offset (the layout below): the seat's one-hot, its dice, ...
        out[seat] = 1
        for d in view.my_dice:
            out[seats + d - 1] += 1
        made = seats + sides  # "bids": one row of ranks per seat, counted from the observer
        for bidder, q, f in view.bids:
            out[made + (bidder - seat) % seats * bids + _rank(q, f, sides)] = 1
        current = made + seats * bids
        if view.bids:
            _, q, f = view.bids[-1]
            out[current + _rank(q, f, sides)] = 1
        to_act = current + bids
        if view.rolled and view.loser is None:
            out[to_act + (view.turn - seat) % seats] = 1
        revealed = to_act + seats
        for cup in view.revealed or ():
            for d in cup:
                out[revealed + d - 1] += 1
        if view.loser is not None:
            out[revealed + sides + (view.loser - seat) % seats] = 1

    layout = (
        Segment("seat", seats, doc="one-hot: the observer's seat at the table"),
        Segment("my_dice", sides, high=options.dice, doc="how many of the observer's dice show each face 1..sides"),
        Segment("bids", (seats, bids), doc="1 where the seat (counted from the observer) made the bid of that rank"),
        Segment("current_bid", bids, doc="one-hot: the rank of the bid to beat (all 0 before the first bid)"),
        Segment("to_act", seats, doc="one-hot: the seat to act, counted from the observer (all 0 once over)"),
        Segment("revealed", sides, high=total, doc="after the call: how many dice show each face"),
        Segment("loser", seats, doc="one-hot: the loser, counted from the observer (all 0 until the call)"),
    )
    return Encoding(
        Actions.table((*_all_bids(total, sides), _CALL), describe=GAME.describe),
        Observation.filled(layout, fill),
    )


register_encoding(INFO.id, encoding)
