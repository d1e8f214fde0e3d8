"""What the Mordred heuristic offers a search: the margin of a finished match by the rules' own count, and its estimate."""

from __future__ import annotations

import attrs

import meeple
from meeple.bots import PIMC
from meeple.engine import get_game
from meeple.games.mordred import Kind
from meeple.games.mordred.bot import DEFAULT, FITTED, LEAF, FittedBot, HeuristicBot, Outlook
from meeple.games.mordred.data import AREA_CODES, AREA_INDEX
from meeple.games.mordred.state import Building, End, MordredOptions, Phase, State
from meeple.games.mordred.view import make_view

GAME = get_game("mordred")


def finished(road: tuple[int, ...], buildings: dict[str, tuple[int, Kind]], warriors: tuple[str, ...]) -> State:
    """A 3-seat match ended by hand: ``buildings`` maps area -> (owner, kind)."""
    b: list[Building | None] = [None] * len(AREA_CODES)
    for area, (owner, kind) in buildings.items():
        b[AREA_INDEX[area]] = Building(owner, kind)
    opts = MordredOptions()
    return State(
        seats=3, options=opts, phase=Phase.OVER, buildings=tuple(b),
        warriors=tuple(code in warriors for code in AREA_CODES), supply=opts.warriors - len(warriors),
        money=(0, 0, 0), road=road, turns=20, ended=End.WARRIORS,
    )


#: Mordred wins (3 warriors against 2 buildings): seat 0 has the castle, seat 2 the least advanced marker.
MORDRED = {"buildings": {"FLI": (0, Kind.CASTLE), "WRX": (1, Kind.VILLAGE)}, "warriors": ("SNO", "HAR", "LLN")}
#: King Arthur wins (1 warrior against 2 buildings).
ARTHUR = {"buildings": {"FLI": (0, Kind.CASTLE), "WRX": (1, Kind.VILLAGE)}, "warriors": ("SNO",)}


def margin(state: State, seat: int) -> float:
    return HeuristicBot().margin(make_view(state, seat), seat)


def test_where_mordred_wins_the_margin_counts_road_spaces_not_points() -> None:
    state = finished((5, 4, 2), **MORDRED)  # type: ignore[arg-type]
    out = GAME.outcome(state)
    assert out is not None and out.winners == (2,) and out.scores[0] > out.scores[2]
    assert margin(state, 2) == 1.0  # two spaces ahead of seat 1, a sixth of the road counting fully
    assert margin(state, 1) == -1.0
    assert margin(state, 0) == -1.0 and margin(finished((3, 4, 2), **MORDRED), 0) == -0.5  # type: ignore[arg-type]


def test_where_king_arthur_wins_the_margin_counts_points() -> None:
    state = finished((5, 4, 2), **ARTHUR)  # type: ignore[arg-type]
    out = GAME.outcome(state)
    assert out is not None and out.winners == (0,)
    assert margin(state, 0) == (5 - 1) / (5 + 1) and margin(state, 1) == (1 - 5) / (1 + 5)
    assert margin(state, 2) == -1.0


def test_a_search_values_a_lost_playout_by_the_road_where_mordred_won() -> None:
    # seat 0 loses both: one space behind the winner, or three behind with the castle's points all the same
    bot = PIMC("mordred", seed=1, iterations=4)
    near, far = finished((3, 4, 2), **MORDRED), finished((5, 4, 2), **MORDRED)  # type: ignore[arg-type]
    worths = []
    for state in (near, far):
        out = GAME.outcome(state)
        assert out is not None and out.winners == (2,)
        worths.append(bot._worth(state, out, 0))
    assert worths[0] > worths[1]  # the score margin alone (5 points against 0) would make them equal
    assert bot._worth(far, GAME.outcome(far), 2) > 1.0  # type: ignore[arg-type]


def test_the_estimate_reads_the_fitted_weights_and_the_choices_the_default_ones() -> None:
    m = meeple.Match.start("mordred", seats=3, seed=5)
    bots = [HeuristicBot(seed=s) for s in range(3)]
    plain = [HeuristicBot(seed=s, leaf=DEFAULT) for s in range(3)]
    seen = 0
    while not m.is_over and m.view(None).turns < 12:
        seat = m.to_act[0]
        view, legal = m.view(seat), m.legal(seat)
        if view.phase is Phase.ROLL:
            chances = [bots[0].estimate(view, s) for s in range(3)]
            assert abs(sum(chances) - 1) < 1e-9
            assert chances[seat] == Outlook(view, seat, LEAF).mine()
            seen += 1
        cmd = bots[seat].choose(view, legal, seat)
        assert cmd == plain[seat].choose(view, legal, seat)  # the estimate's weights change no choice
        m.play(seat, cmd)
    assert seen > 3


def test_the_fitted_estimate_is_less_sure_of_a_lead_of_warriors_far_from_the_end() -> None:
    # an early position with Mordred ahead: the default weights all but settle that he wins, the fitted ones less so
    state = attrs.evolve(finished((1, 2, 3), **MORDRED), phase=Phase.ROLL, ended=None, turns=3)  # type: ignore[arg-type]
    view = make_view(state, 0)
    default = [Outlook(view, s, DEFAULT).mine() for s in range(3)]
    fitted = [Outlook(view, s, LEAF).mine() for s in range(3)]
    assert max(fitted) < max(default) and min(fitted) > min(default)


def test_the_fitted_bot_chooses_on_its_own_weights_and_estimates_on_the_leafs() -> None:
    assert GAME.bots()["fitted"] is FittedBot
    fitted = FittedBot(seed=1)
    assert fitted.weights == FITTED != DEFAULT and fitted.leaf == LEAF
    m = meeple.Match.start("mordred", seats=3, seed=5)
    bots = [HeuristicBot(seed=s) for s in range(3)]
    differ = 0
    while not m.is_over:
        seat = m.to_act[0]
        view, legal = m.view(seat), m.legal(seat)
        mine = fitted.choose(view, legal, seat)
        assert mine in legal
        assert fitted.estimate(view, seat) == bots[seat].estimate(view, seat)
        cmd = bots[seat].choose(view, legal, seat)
        differ += mine != cmd
        m.play(seat, cmd)
    assert differ > 0  # the weights change what it plays
