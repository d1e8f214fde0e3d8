"""Hand-built Saboteur positions for scenario tests (the ``table`` fixture)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from meeple.engine import ENGINE, Command, Event, Rng
from meeple.games.saboteur import GAME, SaboteurOptions, State
from meeple.games.saboteur.commands import PlayPath
from meeple.games.saboteur.data import GoalKind, Role, kind_id
from meeple.games.saboteur.events import RoundDealt
from meeple.games.saboteur.state import Board, Cell, Edition, Front, replace


class Table:
    """Builds states from names and plays commands on them."""

    #: A tunnel from the start along row 0 up to column 7 (the middle goal is at column 8).
    ROW0 = tuple((c, 0, "straight-horizontal") for c in range(1, 8))
    #: A tunnel from the start up to row -1 and along it to column 7.
    ROW_MINUS1 = ((0, -1, "crossroads"), *((c, -1, "straight-horizontal") for c in range(1, 8)))

    def build(
        self,
        seats: int = 4,
        *,
        edition: str = "base",
        roles: Sequence[Role] | None = None,
        hands: Sequence[Sequence[str]] | None = None,
        cells: Iterable[tuple[int, int, str] | tuple[int, int, str, bool]] = (),
        goals: Sequence[str] = ("coal-a", "gold", "coal-b"),
        pile: Sequence[str] = (),
        leftover: Sequence[Role] = (),
        front: dict[int, set[Front]] | None = None,
        turn: int = 0,
        round: int = 1,
        **options: Any,
    ) -> State:
        """A state in the middle of a round, laid out as asked."""
        opts = SaboteurOptions(edition=Edition(edition), **options)
        state = GAME.initial_state(seats, opts)
        if roles is None:
            roles = [Role.SABOTEUR] + [Role.MINER] * (seats - 1)
        hand_cards = tuple(tuple(kind_id(c) for c in h) for h in (hands or [[] for _ in range(seats)]))
        dealt = RoundDealt(
            round=round,
            starter=turn,
            goals=tuple(GoalKind(g) for g in goals),
            roles=tuple(roles),
            leftover_roles=tuple(leftover),
            hands=hand_cards,
            pile=tuple(sorted(kind_id(c) for c in pile)),
            set_aside=(),
        )
        state = GAME.evolve(state, dealt)
        placed = tuple(Cell(c[0], c[1], kind_id(c[2]), bool(c[3]) if len(c) > 3 else False) for c in cells)
        fr = list(state.front)
        for s, items in (front or {}).items():
            fr[s] = frozenset(items)
        return replace(state, board=Board(placed, state.board.goals), front=tuple(fr))

    def turn_goal(self, state: State, goal: int, rotated: bool = False) -> State:
        """``state`` with face-down goal ``goal`` turned over (as if reached)."""
        return replace(state, board=state.board.turn_goal(goal, state.deal.goal_kinds[goal], rotated))

    def play(self, state: State, seat: int, command: Command, seed: int = 1) -> tuple[State, tuple[Event, ...]]:
        """Decide and fold one command; then run any engine steps the same way."""
        events = GAME.decide(state, seat, command, Rng(seed))
        for e in events:
            state = GAME.evolve(state, e)
        out = list(events)
        while ENGINE in GAME.to_act(state):
            more = GAME.decide(state, ENGINE, GAME.auto_command(state), Rng(seed))
            for e in more:
                state = GAME.evolve(state, e)
            out.extend(more)
        return state, tuple(out)

    def placements(self, state: State, kind: int) -> list[tuple[int, int, bool]]:
        """Every (col, row, rotated) where path card ``kind`` may go, as ``legal_commands`` lists it.

        Asked of the player to move, given that card alone and nothing in front of them.
        """
        seat = state.turn
        hands = tuple((kind,) if s == seat else h for s, h in enumerate(state.hands))
        front = tuple(frozenset() if s == seat else f for s, f in enumerate(state.front))
        asked = replace(state, hands=hands, front=front)
        return [(c.col, c.row, c.rotated) for c in GAME.legal_commands(asked, seat) if isinstance(c, PlayPath)]

    def events(self, state: State, seat: int, command: Command, seed: int = 1) -> tuple[Event, ...]:
        """Only the events of one command (no engine steps)."""
        return GAME.decide(state, seat, command, Rng(seed))


@pytest.fixture
def table() -> Table:
    """The scenario builder."""
    return Table()
