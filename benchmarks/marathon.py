"""Marathon: a deliberately long, cheap game for timing the engine on long matches.

Undo, redo and seek latency "at record 10,000" needs a match that long, and
tabletop matches end sooner. Marathon is an ordinary game on the protocol,
kept in the benchmarks (not shipped): two or more runners take turns either
to ``Stride`` one step or to ``Sprint`` (roll a die and move that far, a
random step that is logged like any other). The match ends when the runners
have taken ``length`` turns in all; the runner furthest ahead wins. Its
``evolve`` is small, so its figures are the engine's own overhead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import attrs

import meeple
from meeple.engine import Code, Command, ConfigError, Event, Game, GameInfo, Options, Outcome, Rng

INFO = GameInfo(
    id="bench-marathon",
    title="Marathon (benchmark game)",
    rules_version=1,
    min_seats=2,
    max_seats=4,
    hidden_information=False,
    summary="Take turns to stride or sprint; a long match for timing the engine.",
)


@attrs.frozen
class MarathonOptions(Options):
    """``length``: how many turns the match lasts."""

    length: int = 10_100

    def validate(self, seats: int) -> None:
        """At least one turn."""
        if self.length < 1:
            raise ConfigError("bench-marathon: length must be positive")


@attrs.frozen
class Stride(Command):
    """Move one step."""

    tag: ClassVar[str] = "stride"


@attrs.frozen
class Sprint(Command):
    """Roll a die and move that many steps."""

    tag: ClassVar[str] = "sprint"


@attrs.frozen
class Moved(Event):
    """``seat`` moved ``steps`` forward."""

    tag: ClassVar[str] = "moved"
    seat: int
    steps: int


@attrs.frozen
class State:
    """Every runner's position, whose turn, how many turns were taken."""

    positions: tuple[int, ...]
    turn: int
    turns: int
    length: int


class Marathon(Game[State, MarathonOptions]):
    """The Marathon benchmark game."""

    info = INFO
    options_type = MarathonOptions
    state_type = State
    view_type = State
    commands = (Stride, Sprint)
    events = (Moved,)

    def initial_state(self, seats: int, options: MarathonOptions) -> State:
        return State((0,) * seats, 0, 0, options.length)

    def to_act(self, state: State) -> tuple[int, ...]:
        return () if state.turns >= state.length else (state.turn,)

    def legal_commands(self, state: State, seat: int) -> Sequence[Command]:
        return (Stride(), Sprint()) if seat == state.turn and state.turns < state.length else ()

    def decide(self, state: State, seat: int, command: Command, rng: Rng) -> tuple[Event, ...]:
        if isinstance(command, Stride):
            return (Moved(seat, 1),)
        if isinstance(command, Sprint):
            return (Moved(seat, rng.die()),)
        raise self.illegal(f"unknown command {command!r}", Code.UNKNOWN_COMMAND, command)

    def evolve(self, state: State, event: Event) -> State:
        assert isinstance(event, Moved)
        pos = list(state.positions)
        pos[event.seat] += event.steps
        return State(tuple(pos), (event.seat + 1) % len(pos), state.turns + 1, state.length)

    def view(self, state: State, seat: int | None) -> State:
        return state

    def outcome(self, state: State) -> Outcome | None:
        if state.turns < state.length:
            return None
        best = max(state.positions)
        return Outcome(tuple(s for s, p in enumerate(state.positions) if p == best), state.positions, "the turns ran out")


GAME = Marathon()
meeple.register(GAME)
