"""Sampling worlds from a view (``Game.world``) and its conformance check (``meeple.testing.check_worlds``)."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import liars_dice as ld
import meeple
from meeple.bots import NoWorldSampling, searchable
from meeple.engine import Game, Rng, get_game
from meeple.testing import ConformanceError, check_game, check_worlds, game_params, playout

LD = meeple.get_game("liars-dice")


@pytest.mark.parametrize(("seats", "options"), [(2, {}), (3, {"dice": 3}), (6, {"dice": 2, "sides": 4, "wild": False})])
def test_liars_dice_worlds_pass_the_check(seats: int, options: dict[str, object]) -> None:
    for seed in range(4):
        check_worlds(playout("liars-dice", seats, options, seed=seed, bot_seed=seed))


def test_liars_dice_keeps_the_seats_own_dice_and_rolls_the_others() -> None:
    m = meeple.Match.start("liars-dice", 3, seed=8, options={"dice": 3})
    m.play(0, ld.Bid(2, 4))
    view = m.view(1)
    worlds = [LD.world(view, 1, Rng(k)) for k in range(20)]
    assert all(w.dice[1] == m.state.dice[1] and w.bids == m.state.bids and w.turn == 1 for w in worlds)
    assert len({w.dice[0] for w in worlds}) > 5 and len({w.dice[2] for w in worlds}) > 5


def test_a_liars_dice_world_before_the_roll_and_after_the_call_hides_nothing() -> None:
    before = LD.initial_state(2, ld.LiarsDiceOptions())
    assert LD.world(LD.view(before, 0), 0, Rng(1)) == before
    m = meeple.Match.start("liars-dice", 2, seed=3)
    m.play(m.to_act[0], ld.Bid(1, 2))
    m.play(m.to_act[0], ld.CallLiar())
    assert all(LD.world(m.view(s), s, Rng(5)) == m.state for s in (0, 1, None))


def test_liars_dice_determinize_is_a_world_of_the_seats_view() -> None:
    m = meeple.Match.start("liars-dice", 4, seed=2, options={"dice": 2})
    other = LD.determinize(m.state, 2, Rng(4))
    assert other != m.state and LD.view(other, 2) == m.view(2)


def test_the_kit_runs_the_check_for_games_that_sample_worlds() -> None:
    # check_game runs every check, check_worlds among them: a broken world fails it
    broken = _Broken("deterministic")
    with pytest.raises(ConformanceError, match="all the same"):
        check_game(broken, seats=2, seeds=range(1))


class _Broken(ld.LiarsDice):
    """Liar's Dice with one fault in its world sampling."""

    def __init__(self, fault: str) -> None:
        self.fault = fault

    def world(self, view: ld.View, seat: int | None, rng: Rng) -> ld.State:
        w = super().world(view, seat, Rng(0) if self.fault == "deterministic" else rng)
        if not w.dice or view.revealed is not None:
            return w
        if self.fault == "own dice":
            mine = tuple(sorted(w.dice[seat], reverse=True)) if seat is not None else ()
            return attrs.evolve(w, dice=tuple(mine if s == seat else d for s, d in enumerate(w.dice)))
        if self.fault == "turn":
            return attrs.evolve(w, turn=(w.turn + 1) % w.seats)
        return w


@pytest.mark.parametrize(("fault", "message"), [
    ("deterministic", "all the same"),
    ("own dice", "another view"),
    ("turn", "another view"),
])
def test_check_worlds_catches_a_broken_world(fault: str, message: str) -> None:
    game = _Broken(fault)
    with pytest.raises(ConformanceError, match=message):
        for seed in range(6):
            check_worlds(playout(game, 3, {"dice": 3}, seed=seed, bot_seed=seed))


def test_check_worlds_catches_a_world_whose_legal_commands_fail() -> None:
    class EmptyCups(ld.LiarsDice):
        """Leaves the other cups unrolled (None): the view, the turn and the legal commands are right, a call breaks."""

        def world(self, view: ld.View, seat: int | None, rng: Rng) -> ld.State:
            w = super().world(view, seat, rng)
            if not w.dice or view.revealed is not None:
                return w
            return attrs.evolve(w, dice=tuple(d if s == seat else None for s, d in enumerate(w.dice)))

    with pytest.raises(ConformanceError, match="legal in a sampled world, raised AttributeError"):
        check_worlds(playout(EmptyCups(), 2, seed=1, bot_seed=1))


def test_the_default_world_raises_naming_the_game(blind_dice: Game[Any, Any]) -> None:
    m = meeple.Match.start(blind_dice, 2, seed=1)
    assert type(blind_dice).world is Game.world
    with pytest.raises(NoWorldSampling, match="blind-dice cannot sample a world"):
        blind_dice.world(m.view(0), 0, Rng(1))


@pytest.mark.slow
@pytest.mark.parametrize("gid", game_params())
def test_every_game_that_samples_worlds_passes_the_check(gid: str) -> None:
    game = get_game(gid)
    if not searchable(game):
        pytest.skip(f"{gid} does not sample worlds from a view yet (Game.world)")
    seats = max(game.info.min_seats, min(3, game.info.max_seats))
    for seed in range(2):
        check_worlds(playout(game, seats, seed=seed, bot_seed=seed, max_steps=400))
