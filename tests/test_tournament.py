"""``meeple tournament``: seatings, paired seeds, ratings worked by hand, the JSON shape and bad input."""

from __future__ import annotations

import json
import math

import pytest

from meeple.batch import MatchResult, match_seed
from meeple.cli import EXIT_USAGE, main
from meeple.tournament import Tournament, bradley_terry, laplace_sd, rate, run_tournament, seatings


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_every_bot_holds_every_seat_equally_often(seats: int) -> None:
    lineups = seatings("a", "b", seats)
    assert len(set(lineups)) == len(lineups)
    for seat in range(seats):
        held = [lineup[seat] for lineup in lineups]
        assert held.count("a") == held.count("b")
    assert sum(lineup.count("a") for lineup in lineups) == sum(lineup.count("b") for lineup in lineups)


def test_every_seating_of_a_round_plays_the_same_deal() -> None:
    t = Tournament(game="kings", seats=2, bots=("random", "heuristic", "random"), rounds=3, seed=9)
    assert t.pairs() == [("random", "heuristic")] and t.matches == 6
    results = list(run_tournament(t))
    assert sorted((r.index, r.bots) for r in results) == sorted(
        (i, lineup) for i in range(3) for lineup in (("random", "heuristic"), ("heuristic", "random")))
    for r in results:
        assert r.seed == match_seed(9, r.index)


def test_bradley_terry_with_its_virtual_draw_worked_by_hand() -> None:
    # a beat b 3 times in 4, plus one virtual draw: odds (3 + 1/2) : (1 + 1/2) = 7 : 3
    r = bradley_terry(["a", "b"], {("a", "b"): (3.0, 4.0)})
    assert r["a"] + r["b"] == pytest.approx(0.0)
    assert r["a"] - r["b"] == pytest.approx(400 * math.log10(7 / 3))
    # three bots in a chain a > b > c: the order holds and c is not pulled above b
    chain = bradley_terry(["a", "b", "c"], {("a", "b"): (8.0, 10.0), ("b", "c"): (8.0, 10.0), ("a", "c"): (9.0, 10.0)})
    assert chain["a"] > chain["b"] > chain["c"]
    # Laplace: 5 games at even odds, var(a - b) = 1 / (5/4) in natural units, each side half of the difference
    sd = laplace_sd(["a", "b"], {("a", "b"): (2.0, 4.0)}, {"a": 0.0, "b": 0.0})
    assert sd["a"] == pytest.approx(400 / math.log(10) * math.sqrt(0.8) / 2)


def _match(index: int, bots: tuple[str, ...], winners: tuple[int, ...] | None) -> MatchResult:
    return MatchResult(index, index, bots, winners, None, None if winners is None else "won", 10, 12)


def test_pair_results_and_shares_counted_by_hand() -> None:
    t = Tournament(game="mordred", seats=3, bots=("a", "b"), rounds=1, seed=0)
    results = [
        _match(0, ("a", "b", "a"), (0,)),      # a wins (one of its two seats)
        _match(0, ("b", "a", "b"), (0, 2)),    # b wins with both seats
        _match(0, ("a", "a", "b"), (0, 2)),    # shared: a and b both win
        _match(0, ("b", "b", "a"), None),      # unfinished
    ]
    report = rate(t, results, seconds=1.0, resamples=0)
    (pair,) = report.pairs
    assert (pair.matches, pair.unfinished, pair.draws) == (3, 1, 1)
    assert (pair.wins["a"].wins, pair.wins["b"].wins) == (2, 2)
    # seats held: a 2 + 1 + 2 = 5, b 1 + 2 + 1 = 4; seats won: a 1 + 0 + 1, b 0 + 2 + 1
    assert (pair.seat_wins["a"].wins, pair.seat_wins["a"].n) == (2, 5)
    assert (pair.seat_wins["b"].wins, pair.seat_wins["b"].n) == (3, 4)
    assert pair.share("b") == pytest.approx(3 / 4 * 3)
    assert report.finished == 3 and report.matches == 4


def test_the_heuristic_rates_above_random_and_the_json_has_its_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "tournament", "kings", "--bots", "random,heuristic", "--rounds", "6",
                          "--seed", "4", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert {"game", "seats", "options", "seed", "rounds", "bots", "matches", "finished", "seconds", "ratings",
            "pairs", "workers", "scheduler"} <= set(doc)
    assert (doc["game"], doc["seats"], doc["rounds"], doc["matches"], doc["seed"]) == ("kings", 2, 6, 12, 4)
    ratings = {r["bot"]: r for r in doc["ratings"]["by_bot"]}
    assert [r["bot"] for r in doc["ratings"]["by_bot"]] == ["heuristic", "random"]
    heuristic, rnd = ratings["heuristic"], ratings["random"]
    assert heuristic["ci95"][0] > 0 > rnd["ci95"][1]  # apart, not merely ordered
    assert heuristic["ci95"][0] <= heuristic["elo"] <= heuristic["ci95"][1]
    assert heuristic["elo"] + rnd["elo"] == pytest.approx(0.0)
    (pair,) = doc["pairs"]
    assert pair["bots"] == ["random", "heuristic"] and pair["matches"] == 12
    won = pair["wins"]["heuristic"]
    assert won["n"] == 12 and won["wins"] > 9 and won["ci95"][0] < won["rate"] <= won["ci95"][1]
    # the same seed gives the same tournament, run on two processes
    code, again, _ = _run(capsys, "tournament", "kings", "--bots", "random,heuristic", "--rounds", "6",
                          "--seed", "4", "--json", "--workers", "2")
    same = json.loads(again)
    assert code == 0 and same["ratings"] == doc["ratings"] and same["pairs"] == doc["pairs"]


@pytest.mark.parametrize(("argv", "message"), [
    (["--bots", "random,nosuchbot"], "has no bot 'nosuchbot'"),
    (["--bots", "random"], "at least two different bots"),
    (["--bots", "random,random"], "at least two different bots"),
    (["--bots", "random,,heuristic"], "comma-separated"),
    (["--bots", "random,ismcts:banana"], "ismcts"),
    (["--bots", "random,heuristic", "--rounds", "0"], "--rounds"),
    (["--bots", "random,heuristic", "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "give one of them"),
    (["--bots", "random,heuristic", "--option", "nosuch=1"], "nosuch"),
])
def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = _run(capsys, "tournament", "kings", *argv)
    assert code == EXIT_USAGE and out == ""
    assert message in err and err.count("\n") == 1 and err.startswith("meeple: ")
