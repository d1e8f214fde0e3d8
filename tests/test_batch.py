"""Batch runs (meeple.batch): reproducible corpora, any executor, and statistics checked by hand."""

from __future__ import annotations

import concurrent.futures as cf
import math

import pytest

import meeple
from meeple.batch import (
    MatchResult,
    Plan,
    Rate,
    Spread,
    check_logs,
    end_reason,
    match_seed,
    run_plan,
    summarize,
    summarize_checks,
    wilson,
)
from needs import need


def test_wilson_matches_the_formula_worked_by_hand() -> None:
    # 3 wins in 10, z = 1.96: p = 0.3, z² = 3.8416
    # centre = (0.3 + 0.19208) / 1.38416 = 0.355508...
    # half   = 1.96 * sqrt(0.021 + 0.0096040) / 1.38416 = 1.96 * 0.174941 / 1.38416 = 0.247718...
    low, high = wilson(3, 10, z=1.96)
    assert math.isclose(low, 0.107789, abs_tol=1e-6) and math.isclose(high, 0.603226, abs_tol=1e-6)
    assert wilson(0, 0) == (0.0, 0.0)
    assert wilson(0, 5)[0] == 0.0 and wilson(5, 5)[1] == 1.0


def _result(index: int, bots: tuple[str, ...], winners: tuple[int, ...] | None, commands: int,
            reason: str = "the deck ran out; seat 0 has 3 points") -> MatchResult:
    return MatchResult(index, index, bots, winners, None if winners is None else (0,) * len(bots),
                       None if winners is None else reason, commands, commands + 2)


def test_summary_of_a_small_corpus_computed_by_hand() -> None:
    plan = Plan(game="kings", seats=2, bots=("h", "r"), games=5, seed=1)
    results = [
        _result(0, ("h", "r"), (0,), 10),
        _result(1, ("r", "h"), (1,), 20, "the deck ran out; seat 1 has 9 points"),
        _result(2, ("h", "r"), (0, 1), 30, "both stuck; 4 turns"),
        _result(3, ("r", "h"), (0,), 40),
        _result(4, ("h", "r"), None, 100),  # unfinished: no win, counted apart
    ]
    s = summarize(reversed(results), plan, seconds=2.0)
    assert (s.matches, s.finished, s.unfinished, s.matches_per_second) == (5, 4, 1, 2.5)
    # seats over the 4 finished matches: seat 0 won matches 0, 2, 3; seat 1 won 1, 2
    assert [(r.wins, r.n) for r in s.seat_rates] == [(3, 4), (2, 4)]
    assert s.seat_rates[0] == Rate(3, 4, 0.75, *wilson(3, 4))
    # bots over the seats they held in finished matches: h won in matches 0, 1, 2 (not 3); r in 2 and 3
    assert s.bot_rates == {"h": Rate.of(3, 4), "r": Rate.of(2, 4)}
    # lengths over all five matches: 10, 20, 30, 40, 100
    assert s.commands == Spread(40.0, math.sqrt((30**2 + 20**2 + 10**2 + 0 + 60**2) / 4), 10, 30, 100)
    assert s.records.mean == 42.0
    assert s.end_reasons == {"the deck ran out": 3, "both stuck": 1, "unfinished": 1}
    doc = s.to_json()
    assert doc["win_rate"]["by_seat"][1] == {"seat": 1, "wins": 2, "n": 4, "rate": 0.5,
                                              "ci95": list(wilson(2, 4))}
    assert doc["length"]["commands"]["median"] == 30


def test_a_real_corpus_summary_agrees_with_its_logs() -> None:
    plan = Plan(game="mordred", seats=3, bots=("heuristic", "random"), games=6, seed=4, rotate=True)
    results = list(run_plan(plan, keep_logs=True))
    s = summarize(results, plan, seconds=1.0)
    wins = [0, 0, 0]
    bot_wins = {"heuristic": 0, "random": 0}
    for r in results:
        assert r.log is not None
        m = meeple.Match.from_bytes(r.log)
        assert m.header().seeds == ((0, match_seed(4, r.index)),) and meeple.verify(r.log).ok
        out = m.outcome
        assert out is not None and out.winners == r.winners and len(m) == r.records
        for seat in out.winners:
            wins[seat] += 1
            bot_wins[r.bots[seat]] += 1
    assert [x.wins for x in s.seat_rates] == wins
    assert {k: v.wins for k, v in s.bot_rates.items()} == bot_wins
    # rotation: every bot sits in every seat as often over a multiple of the seat count
    assert [r.bots for r in sorted(results, key=lambda r: r.index)][:3] == [
        ("heuristic", "random", "heuristic"), ("heuristic", "heuristic", "random"), ("random", "heuristic", "heuristic")]


def test_logs_are_byte_identical_in_process_on_threads_and_on_processes() -> None:
    plan = Plan(game="kings", seats=3, bots=("heuristic", "random"), games=5, seed=9)
    here = {r.index: r.log for r in run_plan(plan, keep_logs=True)}
    with cf.ThreadPoolExecutor(2) as threads:
        threaded = {r.index: r.log for r in run_plan(plan, threads, keep_logs=True, chunk_size=2)}
    with cf.ProcessPoolExecutor(2) as procs:
        pooled = {r.index: r.log for r in run_plan(plan, procs, keep_logs=True, chunk_size=1, window=2)}
    assert here == threaded == pooled and len(here) == 5


def test_a_plan_continues_a_log_with_a_new_seed_per_match() -> None:
    m = meeple.Match.start("kings", seats=2, seed=5)
    for _ in range(8):
        m.play(m.to_act[0], m.legal(m.to_act[0])[0])
    plan = Plan(game="kings", seats=2, bots=("random",), games=3, seed=2, start=m.to_bytes())
    logs = [r.log for r in run_plan(plan, keep_logs=True)]
    for i, data in enumerate(logs):
        assert data is not None
        child = meeple.Match.from_bytes(data)
        assert child.records[: len(m)] == m.records and child.is_over
        assert child.header().seeds == ((0, 5), (len(m), match_seed(2, i)))
    assert len(set(logs)) == 3


def test_checking_a_corpus_tells_invalid_from_unreadable() -> None:
    good = meeple.Match.start("kings", seats=2, seed=1).to_bytes()
    bad = bytearray(good)
    bad[-3] ^= 1

    def missing() -> bytes:
        raise OSError(2, "No such file or directory")

    items = [("good", lambda: good), ("bad", lambda: bytes(bad)), ("foreign", lambda: b"hello"), ("gone", missing)]
    found = {c.source: c for c in check_logs(items, chunk_size=2)}
    assert found["good"].ok and not found["good"].unreadable
    assert not found["bad"].ok and not found["bad"].unreadable and "hash chain" in (found["bad"].reason or "")
    assert found["foreign"].unreadable and found["gone"].unreadable
    s = summarize_checks(found.values(), seconds=1.0)
    assert (s.logs, s.ok, s.invalid, s.unreadable) == (4, 1, 1, 2)
    assert [f.source for f in s.failures] == ["bad", "foreign", "gone"]


@pytest.mark.parametrize(("reason", "kind"), [
    ("after three rounds seat 1 holds the most gold (8 nuggets)", "after three rounds seat N holds the most gold (N nuggets)"),
    ("the deck ran out; seat 0 has the most points (15)", "the deck ran out"),
])
def test_end_reasons_are_counted_by_kind(reason: str, kind: str) -> None:
    assert end_reason(reason) == kind


def test_a_dask_cluster_runs_the_same_corpus() -> None:
    distributed = need("dask")["distributed"]
    plan = Plan(game="kings", seats=2, bots=("heuristic", "random"), games=4, seed=3)
    here = {r.index: r.log for r in run_plan(plan, keep_logs=True)}
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        on_cluster = {r.index: r.log for r in run_plan(plan, client.get_executor(), keep_logs=True, chunk_size=1)}
    assert on_cluster == here
