"""The environments' referee plays as a Match does, keeps no log while it plays, and makes the full match when asked."""

from __future__ import annotations

import random

import pytest

from meeple.engine import ENGINE, Match, get_game
from meeple.examples import liars_dice  # noqa: F401  (registers "liars-dice")
from meeple.rl.referee import Referee

GAMES = [("kings", 2), ("kings", 3), ("gophers", 2), ("saboteur", 4), ("mordred", 3), ("liars-dice", 2)]


def _random_seat(acting: tuple[int, ...]) -> int:
    return next(s for s in acting if s != ENGINE)


@pytest.mark.parametrize(("game", "seats"), GAMES)
def test_the_referee_plays_as_a_match_and_makes_the_same_log(game: str, seats: int) -> None:
    rng = random.Random(seats)
    for seed in (3, 4):
        ref, match = Referee(get_game(game), seats, seed, {}), Match.start(game, seats, seed=seed)
        setup = len(ref._full.records)
        while match.outcome is None and len(match) < 400:
            assert ref.state == match.state and ref.to_act == match.to_act and ref.outcome is None
            seat = _random_seat(match.to_act)
            legal = match.legal(seat)
            assert list(ref.legal(seat)) == list(legal)
            assert ref.view(seat) == match.view(seat)
            command = legal[rng.randrange(len(legal))]
            ref.play(seat, command)
            match.play(seat, command)
        assert ref.state == match.state and ref.outcome == match.outcome
        assert len(ref._full.records) == setup  # nothing of the log was kept while playing
        assert ref.match().to_bytes() == match.to_bytes()


def test_the_full_match_is_made_anew_when_it_was_moved() -> None:
    ref = Referee(get_game("kings"), 2, 9, {})
    rng = random.Random(1)
    for _ in range(30):
        seat = _random_seat(ref.to_act)
        legal = ref.legal(seat)
        ref.play(seat, legal[rng.randrange(len(legal))])
        if _ % 10 == 0:
            assert ref.match().state == ref.state  # asked midway: made up to here, then carried on
    full = ref.match()
    log = full.to_bytes()
    full.undo()
    assert ref.match().state == ref.state and ref.match().to_bytes() == log
    assert ref.match() is not full
