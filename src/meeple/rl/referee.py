"""An environment's referee: the match played forward without its log, the full match made when asked.

A :class:`~meeple.Match` keeps every record (the command, its events, the
RNG counter) and the states of recent positions, for undo, seek and saving.
An environment's loop asks for none of them, and every one of them outlives
the action that made it, so the garbage collector's passes grow with the
match. A :class:`Referee` keeps the position (the state and the RNG
counter) and the player commands given since the start: the engine's own
steps follow from them. :meth:`Referee.match` gives the full
:class:`~meeple.Match` of those commands, replayed from the seed (the engine
is deterministic: the same log, byte for byte) and kept, so that each
asking replays only the commands given since the last.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..engine import ENGINE, Command, Game, Match, MeepleError, Outcome, Rng
from ..engine.match import MAX_ENGINE_STEPS

__all__ = ["Referee"]


class Referee:
    """The position of a match started with ``seed``, moved on by :meth:`play`; :meth:`match` is its full Match.

    It answers what an environment asks of a match (:attr:`state`,
    :attr:`to_act`, :meth:`legal`, :meth:`view`, :attr:`outcome`) as the
    Match would. :meth:`play` takes a command legal now (the environment
    gives only those): the rules still check it, and on
    :class:`~meeple.IllegalCommand` nothing changes.
    """

    __slots__ = ("_acting", "_acting_state", "_commands", "_counter", "_full", "_given", "_options", "_outcome",
                 "_outcome_state", "_synced", "game", "seats", "seed", "state")

    def __init__(self, game: Game[Any, Any], seats: int, seed: int, options: Mapping[str, Any] | None) -> None:
        full = Match.start(game, seats, seed=seed, options=options)  # the set-up steps, and the options checked
        self.game = full.game
        self.seats = seats
        self.seed = seed
        self.state: Any = full.state
        self._counter = full.rng_counter
        self._options = options
        self._full = full  # the full match, as of the first ``_given`` commands
        self._given = 0
        self._synced: Any = full.state  # its state then: if it is not, it was moved since (undo, play), and is made anew
        self._commands: list[tuple[int, Command]] = []  # every player command since the start
        self._acting_state: Any = None
        self._acting: tuple[int, ...] = ()
        self._outcome_state: Any = None
        self._outcome: Outcome | None = None

    @property
    def to_act(self) -> tuple[int, ...]:
        """The seats that may act now (``()`` once the match is over), as :attr:`Match.to_act`."""
        state = self.state
        if self._acting_state is not state:
            acting = self.game.to_act(state)
            self._acting = acting if type(acting) is tuple else tuple(acting)
            self._acting_state = state
        return self._acting

    @property
    def outcome(self) -> Outcome | None:
        """The outcome once the match is over, else None."""
        state = self.state
        if self._outcome_state is not state:
            self._outcome = self.game.outcome(state)
            self._outcome_state = state
        return self._outcome

    def legal(self, seat: int) -> Sequence[Command]:
        """Every command ``seat`` may play now (empty when it may not act)."""
        if seat not in self.to_act:
            return ()
        return self.game.legal_commands(self.state, seat)

    def view(self, seat: int | None) -> Any:
        """What ``seat`` may know now (``None``: a spectator)."""
        return self.game.view(self.state, seat)

    def play(self, seat: int, command: Command) -> None:
        """Play ``command`` for ``seat``, then the engine's steps it calls for, as :meth:`Match.play` does."""
        game = self.game
        decide_and_fold = game.decide_and_fold
        state, counter, seed = self.state, self._counter, self.seed
        by, given, steps = seat, command, 0
        while True:
            rng = Rng(seed, counter)
            _, state = decide_and_fold(state, by, given, rng)
            counter = rng.counter
            acting = game.to_act(state)
            if ENGINE not in acting:
                break
            steps += 1
            if steps > MAX_ENGINE_STEPS:
                raise MeepleError(f"{game.info.id}: the engine seat acted {MAX_ENGINE_STEPS} times in a row")
            by, given = ENGINE, game.auto_command(state)
        self._commands.append((seat, command))
        self.state, self._counter = state, counter
        self._acting_state, self._acting = state, acting if type(acting) is tuple else tuple(acting)

    def match(self) -> Match:
        """The full :class:`~meeple.Match` of the commands played: records, log, undo, as any match.

        What is done to it (an undo, a command) does not move the referee:
        the next asking makes the match of the referee's commands anew.
        """
        full, commands = self._full, self._commands
        if full.state is not self._synced:
            full = self._full = Match.start(self.game, self.seats, seed=self.seed, options=self._options)
            self._given = 0
        for seat, command in commands[self._given:]:
            full.play(seat, command)
        self._given, self._synced = len(commands), full.state
        return full
