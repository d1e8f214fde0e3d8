"""The rollout search bot: legal answers only, from the view alone, reproducible, and it improves on its policy."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import liars_dice as ld
import meeple
from meeple.bots import PIMC, margin, parse_spec
from meeple.bots.pimc import DEPTH
from meeple.catalog import bot_factory, bot_names
from meeple.engine import Command, ConfigError, Outcome, RandomBot, Rng, get_game

from .test_ismcts import LD, Nim, Take, _position, _Spy


class _TakeOne:
    """A poor Nim policy: always take one stone."""

    def __init__(self, seed: int) -> None:
        pass

    def choose(self, view: Any, legal: Sequence[Command], seat: int) -> Command:
        return legal[0]


def _nim(stones: int) -> Nim:
    game = Nim()
    game.stones = stones
    return game


# -- it improves on its policy where the playouts agree, and keeps it otherwise ----------------------------------------


def test_it_overrides_a_losing_policy_move_with_a_winning_one() -> None:
    # eight stones, both seats taking one from then on: taking one leaves seven and loses, taking two wins
    game = _nim(8)
    state = game.initial_state(2, None)
    bot = PIMC(game, seed=1, iterations=30, policy=_TakeOne, width=3)
    assert bot.candidates(state, game.legal_commands(state, 0), 0) == [Take(1), Take(2), Take(3)]
    assert bot.choose(state, game.legal_commands(state, 0), 0) == Take(2)


def test_it_keeps_the_policy_move_when_no_candidate_does_better() -> None:
    # seven stones: taking one leaves six, and the take-one policy wins from there; so does taking three
    game = _nim(7)
    state = game.initial_state(2, None)
    bot = PIMC(game, seed=1, iterations=30, policy=_TakeOne, width=3)
    assert bot.choose(state, game.legal_commands(state, 0), 0) == Take(1)
    assert [(c, round(w, 2)) for c, _, w in bot.stats(state, game.legal_commands(state, 0), 0)] == [
        (Take(1), 1.1), (Take(2), -0.1), (Take(3), 1.1)]


def test_a_width_of_one_plays_the_policy_without_searching() -> None:
    game = _nim(8)
    state = game.initial_state(2, None)
    bot = PIMC(game, seed=1, iterations=30, policy=_TakeOne, width=1)
    assert bot.choose(state, game.legal_commands(state, 0), 0) == Take(1)
    assert bot.last_iterations == 0


def test_the_margin_separates_wins_by_their_scores() -> None:
    assert margin(Outcome((0,), (30, 10), "won"), 0) == 0.5
    assert margin(Outcome((0,), (30, 10, 20), "won"), 2) == pytest.approx(-0.2)
    assert margin(Outcome((), (0, 0), "a draw"), 1) == 0.0


# -- fair play: only legal answers, only from the view -------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), bot_seed=st.integers(0, 2**32), seats=st.integers(2, 4), dice=st.integers(1, 3))
def test_it_only_ever_returns_a_legal_command(seed: int, bot_seed: int, seats: int, dice: int) -> None:
    m = meeple.Match.start("liars-dice", seats, seed=seed, options={"dice": dice})
    bot = PIMC("liars-dice", seed=bot_seed, iterations=12, width=3)
    while not m.is_over:
        seat = m.to_act[0]
        legal = m.legal(seat)
        cmd = bot.choose(m.view(seat), legal, seat)
        assert any(cmd is c for c in legal)
        m.play(seat, cmd)


@pytest.mark.parametrize(("game", "seats"), [("kings", 2), ("gophers", 2), ("mordred", 3), ("saboteur", 3)])
def test_it_plays_a_bundled_game_legally_from_start_to_end(game: str, seats: int) -> None:
    m = meeple.Match.start(game, seats, seed=11)
    bot = PIMC(game, seed=3, iterations=2, width=2, max_rollout=8)
    while not m.is_over:
        seat = m.to_act[0]
        legal = m.legal(seat)
        cmd = bot.choose(m.view(seat), legal, seat)
        assert any(cmd is c for c in legal)
        m.play(seat, cmd)


def test_it_plays_from_the_view_alone_never_the_true_state() -> None:
    spy = _Spy()
    view = ld.View(seat=1, my_dice=(2, 5), dice_per_seat=2, bids=((0, 2, 2),), turn=1, revealed=None, loser=None,
                   seats=3, options=ld.LiarsDiceOptions(dice=2), rolled=True)
    legal = ld.LiarsDice().legal_commands(ld.LiarsDice().world(view, 1, Rng(0)), 1)
    bot = PIMC(spy, seed=5, iterations=60, width=4)
    assert bot.choose(view, legal, 1) in legal
    assert len(spy.made) > 60


def test_its_choice_depends_on_the_view_and_its_seed_only() -> None:
    a = _position(mine=(2, 5), theirs=(1, 1), bids=((0, 2, 2),))
    b = attrs.evolve(a, dice=((6, 6), (2, 5)))
    assert LD.view(a, 1) == LD.view(b, 1) and a != b
    answers = {PIMC(LD, seed=9, iterations=40, width=4).choose(LD.view(s, 1), LD.legal_commands(s, 1), 1)
               for s in (a, b)}
    assert len(answers) == 1


@pytest.mark.parametrize(("game", "seats", "plies"), [("kings", 2, 9), ("saboteur", 3, 7), ("gophers", 2, 12)])
def test_hidden_cards_dealt_otherwise_change_nothing_it_says(game: str, seats: int, plies: int) -> None:
    # the true state re-dealt where the seat cannot see gives the same view, so the same stats, seed for seed
    g = get_game(game)
    m = meeple.Match.start(game, seats, seed=4)
    heuristic = g.bots()["heuristic"](1)
    for _ in range(plies):
        seat = m.to_act[0]
        m.play(seat, heuristic.choose(m.view(seat), m.legal(seat), seat))
    seat = m.to_act[0]
    other = g.determinize(m.state, seat, Rng(99))
    assert other != m.state and g.view(other, seat) == m.view(seat)
    said = [PIMC(g, seed=2, iterations=12, width=3).stats(g.view(s, seat), g.legal_commands(s, seat), seat)
            for s in (m.state, other)]
    assert said[0] == said[1]


# -- reproducible from the seed -------------------------------------------------------------------------------------------


def _match_with(bot_seed: int) -> bytes:
    m = meeple.Match.start("liars-dice", 3, seed=4, options={"dice": 2})
    bots = [bot_factory(LD, "pimc:30")(bot_seed + s) for s in range(3)]
    while not m.is_over:
        seat = m.to_act[0]
        m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
    return m.to_bytes()


def test_a_match_of_the_rollout_bot_is_reproducible_from_its_seed() -> None:
    assert _match_with(3) == _match_with(3)
    assert len({_match_with(k) for k in range(0, 60, 10)}) > 1, "the bot's seed changed nothing"


def test_a_time_budget_still_answers_legally() -> None:
    state = _position(mine=(3, 4), theirs=(1, 1), bids=((0, 1, 2),))
    bot = PIMC(LD, seed=1, seconds=0.05, width=3)
    legal = LD.legal_commands(state, 1)
    assert bot.choose(LD.view(state, 1), legal, 1) in legal
    assert bot.last_iterations >= 2


# -- specs ----------------------------------------------------------------------------------------------------------------


def test_the_spec_names_a_budget_and_a_policy() -> None:
    assert parse_spec("pimc").iterations == 200 and parse_spec("ismcts").iterations == 500
    assert parse_spec("pimc:1s").seconds == 1.0
    assert parse_spec("pimc:300:random").rollout == "random"
    for bad in ("pimc:0", "pimc:fast", "pimc::heuristic", "pimc:10:pimc", "pimc:10:ismcts"):
        with pytest.raises(ConfigError):
            parse_spec(bad)


def test_the_factory_makes_the_rollout_bot_with_the_games_heuristic_by_default() -> None:
    kings = get_game("kings")
    assert "pimc" in bot_names(kings)
    bot = bot_factory(kings, "pimc:50")(1)
    assert isinstance(bot, PIMC) and bot.iterations == 50 and bot.policy is kings.bots()["heuristic"]
    assert bot_factory(kings, "pimc:50:random")(1).policy is RandomBot
    assert bot_factory(LD, "pimc")(1).policy is RandomBot  # no heuristic bot: random playouts
    with pytest.raises(ConfigError, match="no bot 'clever'"):
        bot_factory(kings, "pimc:10:clever")


def test_the_spec_may_name_how_many_candidates_are_searched() -> None:
    assert parse_spec("pimc:1s-cpu:heuristic:2").width == 2 and parse_spec("pimc:1s").width is None
    assert (parse_spec("pimc:1s::3").rollout, parse_spec("pimc:1s::3").width) == (None, 3)  # the default policy
    for bad in ("pimc:1s:heuristic:0", "pimc:1s:heuristic:two", "pimc:1s:heuristic:2:2:2", "ismcts:10:heuristic:2"):
        with pytest.raises(ConfigError):
            parse_spec(bad)
    kings = get_game("kings")
    narrow = bot_factory(kings, "pimc:40::2")(1)
    assert isinstance(narrow, PIMC) and narrow.width == 2 and narrow.policy is kings.bots()["heuristic"]
    wide = bot_factory(kings, "pimc:40")(1)
    assert isinstance(wide, PIMC) and wide.width == 4


def test_the_spec_may_name_the_confidence_a_candidate_needs() -> None:
    assert parse_spec("pimc:100:heuristic:4:0.5").confidence == 0.5
    assert (parse_spec("pimc:100:::2").width, parse_spec("pimc:100:::2").confidence) == (None, 2.0)  # the default width
    assert parse_spec("pimc:100::4").confidence is None
    for bad in ("pimc:100::4:", "pimc:100::4:-1", "pimc:100::4:nan", "pimc:100::4:inf", "pimc:100::4:1e3",
                "pimc:100::4:half", "pimc:100::4:1:2"):
        with pytest.raises(ConfigError, match="confidence"):
            parse_spec(bad)
    kings = get_game("kings")
    eager = bot_factory(kings, "pimc:40:::0.5")(1)
    assert isinstance(eager, PIMC) and eager.confidence == 0.5 and eager.width == 4
    plain = bot_factory(kings, "pimc:40")(1)
    assert isinstance(plain, PIMC) and plain.confidence == 1.0


def test_a_narrow_time_budgeted_search_plays_only_the_policys_first_two_choices() -> None:
    game = _nim(8)
    state = game.initial_state(2, None)
    legal = game.legal_commands(state, 0)
    candidates, table = PIMC(game, seed=1, seconds=0.05, policy=_TakeOne, width=2).rounds(state, legal, 0)
    assert candidates == [Take(1), Take(2)] and all(len(row) == 2 for row in table)
    assert all(len(row) == 3 for row in PIMC(game, seed=1, iterations=30, policy=_TakeOne, width=3).rounds(
        state, legal, 0)[1])


def test_bad_arguments_are_refused() -> None:
    for kwargs in ({"iterations": 0}, {"seconds": -1.0}, {"width": 0}, {"confidence": -1.0}, {"margin_weight": -0.5}):
        with pytest.raises(ConfigError):
            PIMC(LD, **kwargs)  # type: ignore[arg-type]


# -- the round table and the override rule ------------------------------------------------------------------------------


def test_the_override_rule_needs_a_gain_beyond_the_confidence() -> None:
    bot = PIMC(LD, iterations=10, width=3)
    clear = [[0.0, 1.0, 0.0], [0.0, 1.0, 1.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]]
    assert bot.pick(clear) == 1  # candidate 1 won every round the policy's lost, and never lost
    noisy = [[0.0, 1.0], [0.0, 1.0], [0.0, 1.0], [0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]  # gain 0.5, 1.46 errors
    assert bot.pick(noisy) == 1 and PIMC(LD, iterations=10, confidence=2.0).pick(noisy) == 0
    assert bot.pick([[1.0, 1.0], [0.0, 0.0]]) == 0  # no gain: the policy's move
    assert bot.pick([[0.0, 1.0, 1.0], [0.0, 1.0]]) == 1  # a single round of candidate 2 is no evidence


def test_rounds_gives_the_table_that_choose_reads() -> None:
    game = _nim(8)
    state = game.initial_state(2, None)
    legal = game.legal_commands(state, 0)
    candidates, table = PIMC(game, seed=1, iterations=30, policy=_TakeOne, width=3).rounds(state, legal, 0)
    assert candidates == [Take(1), Take(2), Take(3)] and len(table) == 10 and all(len(r) == 3 for r in table)
    assert all(r[1] > r[0] for r in table)  # taking two wins in every world, taking one loses
    again = PIMC(game, seed=1, iterations=30, policy=_TakeOne, width=3)
    assert candidates[again.pick(table)] == again.choose(state, legal, 0) == Take(2)


# -- playouts cut after a round, worth the policy's estimate; chance drawn turn by turn ----------------------------------


class _TakeMost:
    """A greedy Nim policy (take all it may) that knows the game's value: the mover loses on a multiple of four."""

    def __init__(self, seed: int) -> None:
        pass

    def choose(self, view: Any, legal: Sequence[Command], seat: int) -> Command:
        return legal[-1]

    def estimate(self, view: Any, seat: int) -> float:
        assert view.turn == seat  # asked where the searching seat is to move again
        return 0.0 if view.stones % 4 == 0 else 1.0


def test_a_playout_ends_after_a_round_worth_the_policys_estimate() -> None:
    # ten stones; the right move leaves a multiple of four (take two). Played out greedily, every first move loses
    # (10-3: 7, 4, 1, 0; 10-2: 8, 5, 2, 0; 10-1: 9, 6, 3, 0), so whole playouts keep the policy's take-three. Cut
    # after a round (the greedy reply) and worth the estimate there, they see it: 7-3=4 loses, 8-3=5 and 9-3=6 win.
    game = _nim(10)
    state = game.initial_state(2, None)
    legal = game.legal_commands(state, 0)
    whole = PIMC(game, seed=1, iterations=30, policy=_TakeMost, width=3, depth=None)
    assert whole.depth is None and whole.choose(state, legal, 0) == Take(3)
    assert {round(w, 2) for _, _, w in whole.stats(state, legal, 0)} == {-0.1}
    cut = PIMC(game, seed=1, iterations=30, policy=_TakeMost, width=3, depth=1)
    assert cut.depth == 1 and cut.choose(state, legal, 0) == Take(2)
    assert [(c, w) for c, _, w in cut.stats(state, legal, 0)] == [(Take(3), 0.0), (Take(2), 1.0), (Take(1), 1.0)]
    # two rounds: the seat's own greedy move throws each of them away before the cut, and the match ends first
    deep = PIMC(game, seed=1, iterations=30, policy=_TakeMost, width=3)
    assert deep.depth == DEPTH == 2 and {round(w, 2) for _, _, w in deep.stats(state, legal, 0)} == {-0.1}


def test_a_policy_without_an_estimate_plays_every_playout_out() -> None:
    game = _nim(8)
    state = game.initial_state(2, None)
    bot = PIMC(game, seed=1, iterations=30, policy=_TakeOne, width=3)
    assert bot.depth is None and not bot.turn_chance
    assert [(c, round(w, 2)) for c, _, w in bot.stats(state, game.legal_commands(state, 0), 0)] == [
        (Take(1), -0.1), (Take(2), 1.1), (Take(3), -0.1)]


class _BreakNim(Nim):
    """Nim with a break in play where four stones are left: the player who left them leads."""

    def interim(self, state: Any) -> Outcome | None:
        if state.stones != 4 or state.last is None:
            return None
        return Outcome((state.last,), tuple(int(s == state.last) for s in range(state.seats)), "left four")


class _JudgingTakeOne(_TakeOne):
    """The take-one policy, judging a break's leader less likely to win than the other (to be told apart)."""

    def break_worth(self, outcome: Outcome, view: Any, seat: int) -> float:
        assert view.stones == 4  # asked at the break, with the seat's view there
        return 0.25 if seat in outcome.winners else 0.75


def test_a_playout_that_ends_at_a_break_is_worth_the_policys_judgement_of_it() -> None:
    # seven stones, take-one replies: taking three or one leaves the break to the seat (0.25), two to the other (0.75)
    game = _BreakNim()
    game.stones = 7
    state = game.initial_state(2, None)
    legal = game.legal_commands(state, 0)
    bot = PIMC(game, seed=1, iterations=30, policy=_JudgingTakeOne, width=3)
    assert bot.break_worth is not None
    assert [(c, w) for c, _, w in bot.stats(state, legal, 0)] == [(Take(1), 0.25), (Take(2), 0.75), (Take(3), 0.25)]
    assert bot.choose(state, legal, 0) == Take(2)
    # a policy without the judgement: the standings, the leader's win and margin
    plain = PIMC(game, seed=1, iterations=30, policy=_TakeOne, width=3)
    assert [(c, round(w, 2)) for c, _, w in plain.stats(state, legal, 0)] == [
        (Take(1), 1.1), (Take(2), -0.1), (Take(3), 1.1)]
    # without the horizon playouts go on to the match's end, and the judgement of breaks is not asked
    whole = PIMC(game, seed=1, iterations=30, policy=_JudgingTakeOne, width=3, horizon=False)
    assert whole.break_worth is None and whole.choose(state, legal, 0) == Take(1)


def test_the_depth_is_a_positive_integer_or_none() -> None:
    for depth in (0, -1, True, 1.5):
        with pytest.raises(ConfigError):
            PIMC(LD, iterations=10, depth=depth)  # type: ignore[arg-type]


def _mordred_spend_position() -> tuple[Any, Any, int]:
    """A Mordred position of heuristic play where the seat to act may attack a warrior or end its turn."""
    from meeple.games.mordred import Attack, EndTurn

    game = get_game("mordred")
    heuristic = game.bots()["heuristic"]
    for seed in range(1, 40):
        m = meeple.Match.start("mordred", seats=3, seed=seed)
        bots = [heuristic(s) for s in range(3)]
        while m.outcome is None:
            seat = m.to_act[0]
            legal = m.legal(seat)
            if any(isinstance(c, Attack) for c in legal) and EndTurn() in legal:
                return game, m.state, seat
            m.play(seat, bots[seat].choose(m.view(seat), legal, seat))
    raise AssertionError("no position with an attack")


def test_each_turn_of_a_playout_rolls_the_same_dice_whatever_the_candidate_drew() -> None:
    # an attack rolls a die, ending the turn rolls none: on one stream the next seats' dice would shift by one
    from meeple.games.mordred import Attack, EndTurn

    game, state, seat = _mordred_spend_position()
    attack = next(c for c in game.legal_commands(state, seat) if isinstance(c, Attack))
    heuristic = game.bots()["heuristic"]

    def rolls(bot: PIMC, command: Command, chance: int) -> list[tuple[int, tuple[int, int]]]:
        seen: list[tuple[int, tuple[int, int]]] = []

        class Recording(heuristic):  # type: ignore[misc, valid-type]
            def choose(self, view: Any, legal: Sequence[Command], me: int) -> Command:
                last = view.last_roll
                if last is not None and last.seat != seat and (not seen or seen[-1][0] != last.seat):
                    seen.append((last.seat, last.dice))
                return super().choose(view, legal, me)  # type: ignore[no-any-return]

        bot.policy = Recording
        bot._playout(state, seat, command, chance)
        return seen

    shared = 0
    for chance in range(1, 9):
        turned = PIMC(game, seed=1, iterations=10)
        assert turned.depth == 2 and turned.turn_chance
        after_attack, after_end = rolls(turned, attack, chance), rolls(turned, EndTurn(), chance)
        assert after_attack and after_attack == after_end  # the other seats' rolls, in the rounds before the cut
        one_stream = PIMC(game, seed=1, iterations=10, turn_chance=False)
        shared += rolls(one_stream, attack, chance) == rolls(one_stream, EndTurn(), chance)
    assert shared < 8  # on one stream the dice after the attack are others


# -- the searching seat's own policy ------------------------------------------------------------------------------------


def _recording(log: list[tuple[str, int]], name: str, take_most: bool) -> Any:
    """A factory of Nim bots that note (their name, the seat they chose for) in ``log``."""

    class _Recorder:
        def __init__(self, seed: int) -> None:
            pass

        def choose(self, view: Any, legal: Sequence[Command], seat: int) -> Command:
            log.append((name, seat))
            return legal[-1] if take_most else legal[0]

    return _Recorder


def test_the_own_policy_proposes_and_plays_the_searching_seat_and_the_policy_the_others() -> None:
    game = _nim(12)
    state = game.initial_state(2, None)
    legal = game.legal_commands(state, 0)
    log: list[tuple[str, int]] = []
    bot = PIMC(game, seed=1, iterations=20, policy=_recording(log, "policy", False), own=_recording(log, "own", True),
               width=2)
    assert bot.candidates(state, legal, 0) == [Take(3), Take(2)]  # the own policy's order: it takes the most
    log.clear()
    bot.choose(state, legal, 0)
    assert {seat for name, seat in log if name == "own"} == {0}
    assert {seat for name, seat in log if name == "policy"} == {1}
    plain = PIMC(game, seed=1, iterations=20, policy=_TakeOne, width=2)
    assert plain.own is plain.policy and plain.candidates(state, legal, 0) == [Take(1), Take(2)]


def test_the_own_policy_changes_what_the_playouts_show() -> None:
    # eight stones against a take-one opponent, taking the last stone wins. Taking one leaves seven: played on by
    # taking one, the opponent takes the last stone; played on by taking the most, 7, 6, 3, 2, 0 wins
    game = _nim(8)
    state = game.initial_state(2, None)
    legal = game.legal_commands(state, 0)
    plain = {c: w for c, _, w in PIMC(game, seed=1, iterations=30, policy=_TakeOne, width=3).stats(state, legal, 0)}
    greedy = PIMC(game, seed=1, iterations=30, policy=_TakeOne, own=_recording([], "own", True), width=3)
    mine = {c: w for c, _, w in greedy.stats(state, legal, 0)}
    assert plain[Take(1)] < 0.5 < mine[Take(1)]
    assert plain[Take(2)] > 0.5 and mine[Take(2)] > 0.5  # six left wins either way
    assert plain[Take(3)] < 0.5 and mine[Take(3)] < 0.5  # five left loses either way


def test_the_spec_may_name_the_searching_seats_own_policy_apart() -> None:
    spec = parse_spec("pimc:1s-cpu:fitted/heuristic:2")
    assert (spec.own, spec.rollout, spec.width) == ("fitted", "heuristic", 2)
    assert parse_spec("pimc:1s:heuristic").own is None
    for bad in ("pimc:1s:/heuristic", "pimc:1s:fitted/", "pimc:1s:a/b/c", "ismcts:1s:a/b", "pimc:1s:pimc/heuristic"):
        with pytest.raises(ConfigError):
            parse_spec(bad)
    mordred = get_game("mordred")
    bot = bot_factory(mordred, "pimc:40:fitted/heuristic")(1)
    assert isinstance(bot, PIMC)
    assert bot.own is mordred.bots()["fitted"] and bot.policy is mordred.bots()["heuristic"]
    assert bot_factory(mordred, "pimc:40:random/heuristic")(1).own is RandomBot
    with pytest.raises(ConfigError, match="no bot 'clever'"):
        bot_factory(mordred, "pimc:10:clever/heuristic")
