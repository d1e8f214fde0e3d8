"""The search bot: legal answers only, from the view alone, reproducible from its seed, and it finds known best moves."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import liars_dice as ld
import meeple
from meeple.batch import Plan, run_plan
from meeple.bots import ISMCTS, NoWorldSampling, parse_spec, win_share
from meeple.catalog import bot_factory, bot_names
from meeple.engine import Command, ConfigError, Event, Game, GameInfo, Outcome, Rng

LD = meeple.get_game("liars-dice")


# -- a tiny game of perfect information: Nim, take 1 to 3, who takes the last stone wins -------------


@attrs.frozen
class Take(Command):
    tag: ClassVar[str] = "take"
    n: int


@attrs.frozen
class Taken(Event):
    tag: ClassVar[str] = "taken"
    seat: int
    n: int


@attrs.frozen
class Pile:
    seats: int
    stones: int
    turn: int = 0
    last: int | None = None


class Nim(Game[Pile, Any]):
    """Take 1 to 3 stones; who takes the last one wins. Its view is its state, so the default world serves."""

    info = GameInfo(id="test-nim", title="Nim", rules_version=1, min_seats=2, max_seats=2, has_chance=False,
                    hidden_information=False)
    state_type = Pile
    view_type = Pile
    commands = (Take,)
    events = (Taken,)
    stones = 7

    def initial_state(self, seats: int, options: Any) -> Pile:
        return Pile(seats, self.stones)

    def to_act(self, state: Pile) -> tuple[int, ...]:
        return () if state.stones == 0 else (state.turn,)

    def legal_commands(self, state: Pile, seat: int) -> Sequence[Command]:
        if state.stones == 0 or seat != state.turn:
            return ()
        return tuple(Take(n) for n in range(1, min(3, state.stones) + 1))

    def decide(self, state: Pile, seat: int, command: Command, rng: Rng) -> tuple[Event, ...]:
        assert isinstance(command, Take) and command in self.legal_commands(state, seat)
        return (Taken(seat, command.n),)

    def evolve(self, state: Pile, event: Event) -> Pile:
        assert isinstance(event, Taken)
        return Pile(state.seats, state.stones - event.n, 1 - state.turn, event.seat)

    def view(self, state: Pile, seat: int | None) -> Pile:
        return state

    def outcome(self, state: Pile) -> Outcome | None:
        if state.stones or state.last is None:
            return None
        return Outcome((state.last,), tuple(int(s == state.last) for s in range(state.seats)), "took the last stone")


NIM = Nim()


@pytest.mark.parametrize(("stones", "best"), [(7, 3), (6, 2), (5, 1), (10, 2)])
def test_plain_mcts_leaves_a_multiple_of_four_stones_in_nim(stones: int, best: int) -> None:
    pile = Pile(2, stones)
    bot = ISMCTS(NIM, seed=stones, iterations=3000)
    assert bot.choose(pile, NIM.legal_commands(pile, 0), 0) == Take(best)


# -- Liar's Dice positions with a known answer -----------------------------------------------------------


def _position(mine: tuple[int, ...], theirs: tuple[int, ...], bids: tuple[tuple[int, int, int], ...],
              **options: Any) -> ld.State:
    opts = ld.LiarsDiceOptions(**{"dice": len(mine), **options})
    turn = (bids[-1][0] + 1) % 2 if bids else 0
    return ld.State(2, opts, (theirs, mine), bids, turn)


def test_it_calls_a_bid_its_own_dice_make_impossible() -> None:
    # 4 x 2 among 4 dice, and seat 1 holds a 3 and a 4 (6 is wild): at most 2 dice can show a 2
    state = _position(mine=(3, 4), theirs=(1, 1), bids=((0, 4, 2),))
    view = LD.view(state, 1)
    legal = LD.legal_commands(state, 1)
    assert ld.CallLiar() in legal and len(legal) > 3
    assert ISMCTS(LD, seed=1, iterations=400).choose(view, legal, 1) == ld.CallLiar()


def test_it_does_not_call_a_bid_its_own_dice_make_true() -> None:
    # 2 x 3 and seat 1 holds 3 and 6 (wild): the bid holds whatever seat 0 has, so a call loses for certain
    state = _position(mine=(3, 6), theirs=(1, 2), bids=((0, 2, 3),))
    view = LD.view(state, 1)
    legal = LD.legal_commands(state, 1)
    bot = ISMCTS(LD, seed=2, iterations=600)
    assert bot.choose(view, legal, 1) != ld.CallLiar()
    stats = {cmd: mean for cmd, _, mean in bot.stats(view, legal, 1)}
    assert stats[ld.CallLiar()] == 0.0


# -- fair play: only legal answers, only from the view ----------------------------------------------------------


@given(seed=st.integers(0, 2**32), bot_seed=st.integers(0, 2**32), seats=st.integers(2, 4), dice=st.integers(1, 3))
def test_it_only_ever_returns_a_legal_command(seed: int, bot_seed: int, seats: int, dice: int) -> None:
    m = meeple.Match.start("liars-dice", seats, seed=seed, options={"dice": dice})
    bot = ISMCTS("liars-dice", seed=bot_seed, iterations=30)
    while not m.is_over:
        seat = m.to_act[0]
        legal = m.legal(seat)
        cmd = bot.choose(m.view(seat), legal, seat)
        assert any(cmd is c for c in legal)
        m.play(seat, cmd)


class _Spy(ld.LiarsDice):
    """Liar's Dice whose rules accept only states that were sampled by ``world`` (or grew from one).

    The true state is unreachable: any call on a state ``world`` did not
    build (or on a state folded from one) fails, and so does
    ``determinize``, which reads the true state.
    """

    def __init__(self) -> None:
        self.made: dict[int, Any] = {}

    def _mine(self, state: Any) -> None:
        assert self.made.get(id(state)) is state, "the bot used a state it did not sample from its view"

    def _keep(self, state: Any) -> Any:
        self.made[id(state)] = state
        return state

    def world(self, view: ld.View, seat: int | None, rng: Rng) -> ld.State:
        return self._keep(super().world(view, seat, rng))

    def determinize(self, state: ld.State, seat: int | None, rng: Rng) -> ld.State:
        raise AssertionError("determinize reads the true state")

    def evolve(self, state: ld.State, event: Event) -> ld.State:
        self._mine(state)
        return self._keep(super().evolve(state, event))

    def decide(self, state: ld.State, seat: int, command: Command, rng: Rng) -> tuple[Event, ...]:
        self._mine(state)
        return super().decide(state, seat, command, rng)

    def to_act(self, state: ld.State) -> tuple[int, ...]:
        self._mine(state)
        return super().to_act(state)

    def legal_commands(self, state: ld.State, seat: int) -> Sequence[Command]:
        self._mine(state)
        return super().legal_commands(state, seat)

    def outcome(self, state: ld.State) -> Outcome | None:
        self._mine(state)
        return super().outcome(state)

    def view(self, state: ld.State, seat: int | None) -> ld.View:
        self._mine(state)
        return super().view(state, seat)


def test_it_plays_from_the_view_alone_never_the_true_state() -> None:
    spy = _Spy()
    # a view built by hand: no match and no true state exist
    view = ld.View(seat=1, my_dice=(2, 5), dice_per_seat=2, bids=((0, 2, 2),), turn=1, revealed=None, loser=None,
                   seats=3, options=ld.LiarsDiceOptions(dice=2), rolled=True)
    legal = ld.LiarsDice().legal_commands(ld.LiarsDice().world(view, 1, Rng(0)), 1)
    bot = ISMCTS(spy, seed=5, iterations=200)
    assert bot.choose(view, legal, 1) in legal
    assert len(spy.made) > 200


def test_its_choice_depends_on_the_view_and_its_seed_only() -> None:
    # two true states that differ only in what seat 1 cannot see give it one view, hence one answer
    a = _position(mine=(2, 5), theirs=(1, 1), bids=((0, 2, 2),))
    b = attrs.evolve(a, dice=((6, 6), (2, 5)))
    assert LD.view(a, 1) == LD.view(b, 1) and a != b
    answers = {ISMCTS(LD, seed=9, iterations=300).choose(LD.view(s, 1), LD.legal_commands(s, 1), 1) for s in (a, b)}
    assert len(answers) == 1


# -- reproducible from the seed ---------------------------------------------------------------------------------------


def _match_with(bot_spec: str, seed: int, bot_seed: int) -> bytes:
    m = meeple.Match.start("liars-dice", 3, seed=seed, options={"dice": 2})
    bots = [bot_factory(LD, bot_spec)(bot_seed + s) for s in range(3)]
    while not m.is_over:
        seat = m.to_act[0]
        m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
    return m.to_bytes()


def test_a_match_of_search_bots_is_reproducible_from_their_seeds() -> None:
    assert _match_with("ismcts:60", seed=4, bot_seed=10) == _match_with("ismcts:60", seed=4, bot_seed=10)
    logs = {_match_with("ismcts:60", seed=4, bot_seed=k) for k in range(0, 60, 10)}
    assert len(logs) > 1, "the bot's seed changed nothing"


def test_a_time_budget_still_answers_legally() -> None:
    state = _position(mine=(3, 4), theirs=(1, 1), bids=((0, 1, 2),))
    bot = ISMCTS(LD, seed=1, seconds=0.05)
    legal = LD.legal_commands(state, 1)
    assert bot.choose(LD.view(state, 1), legal, 1) in legal
    assert bot.last_iterations >= 1


def test_a_corpus_of_search_bots_is_the_same_on_a_process_pool() -> None:
    from meeple.batch import local_executor

    plan = Plan(game="liars-dice", seats=2, bots=("ismcts:40", "random"), games=6, seed=3, rotate=True)
    here = {r.index: r.log for r in run_plan(plan, keep_logs=True)}
    pool = local_executor(2)
    assert pool is not None
    try:
        there = {r.index: r.log for r in run_plan(plan, pool, keep_logs=True, chunk_size=2)}
    finally:
        pool.shutdown()
    assert there == here


# -- rollouts, rewards, specs ---------------------------------------------------------------------------------------------


def test_rollouts_by_a_given_bot_feed_it_the_views_of_the_world() -> None:
    seen: list[Any] = []

    class Lowest:
        def __init__(self, seed: int) -> None:
            pass

        def choose(self, view: Any, legal: Sequence[Command], seat: int) -> Command:
            seen.append((view, seat))
            return legal[-1]  # the call, when it is legal

    state = _position(mine=(3, 4), theirs=(1, 1), bids=((0, 1, 2),))
    bot = ISMCTS(LD, seed=1, iterations=50, rollout=Lowest)
    bot.choose(LD.view(state, 1), LD.legal_commands(state, 1), 1)
    assert seen and all(isinstance(v, ld.View) and v.seat == s for v, s in seen)


def test_shared_wins_are_split() -> None:
    out = Outcome((0, 2), (1, 0, 1), "two winners")
    assert [win_share(out, s) for s in range(3)] == [0.5, 0.0, 0.5]
    assert win_share(Outcome((), (0, 0), "a draw"), 0) == 0.0


def test_the_spec_names_a_budget_and_a_rollout_bot() -> None:
    assert parse_spec("ismcts").iterations == 500
    assert parse_spec("ismcts:2s").seconds == 2.0
    assert parse_spec("ismcts:0.5s:heuristic").rollout == "heuristic"
    for bad in ("ismcts:0", "ismcts:fast", "ismcts:-3", "ismcts::heuristic", "ismcts:10:ismcts", "ismcts:0s",
                "random:3"):
        with pytest.raises(ConfigError):
            parse_spec(bad)


def test_a_game_that_cannot_sample_worlds_is_refused_by_name(blind_dice: Game[Any, Any]) -> None:
    assert "ismcts" not in bot_names(blind_dice) and "ismcts" in bot_names(LD)
    with pytest.raises(ConfigError, match="blind-dice cannot sample a world"):
        bot_factory(blind_dice, "ismcts:100")
    m = meeple.Match.start(blind_dice, 2, seed=1)
    seat = m.to_act[0]
    with pytest.raises(NoWorldSampling, match="blind-dice") as e:
        ISMCTS(blind_dice, iterations=5).choose(m.view(seat), m.legal(seat), seat)
    assert e.value.game == "blind-dice"


def test_an_unknown_rollout_bot_is_refused() -> None:
    with pytest.raises(ConfigError, match="no bot 'clever' to play rollouts"):
        bot_factory(LD, "ismcts:10:clever")
