"""Batch runs on a real Dask cluster: ``--scheduler ADDRESS`` on ``simulate --games N`` and ``verify DIR|STORE``.

One ``distributed.LocalCluster`` for the module: two worker processes on
loopback, each importing the example game (``preload``), as a cluster's
workers would import a third-party game. The corpus it makes must be the
same, byte for byte, as one made in this process and one made on a local
process pool.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from meeple import batch
from meeple.batch import ClusterError, Plan, dask_executor, run_plan
from meeple.cli import main

pytestmark = pytest.mark.slow  # a Dask cluster of worker processes

distributed = pytest.importorskip("distributed")  # never skips: tests/needs.py lists this module


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address="127.0.0.1:0", preload=["liars_dice"]) as cluster:
        yield cluster.scheduler_address


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _corpus(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.glob("*.meeple"))}


@pytest.mark.parametrize(("game", "players", "bots"), [("kings", "2", "heuristic,random"),
                                                       ("liars-dice", "3", "ismcts:30,random")])
def test_a_corpus_on_the_cluster_is_the_same_bytes_as_one_made_here(
        scheduler: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, players: str, bots: str) -> None:
    common = ["simulate", game, "--players", players, "--games", "8", "--seed", "21", "--bots", bots, "--rotate-bots"]
    code, out, _ = _run(capsys, *common, "--out", str(tmp_path / "cluster"), "--scheduler", scheduler)
    assert code == 0 and f"on the Dask cluster at {scheduler} (2 threads)" in out
    assert _run(capsys, *common, "--out", str(tmp_path / "here"))[0] == 0
    assert _run(capsys, *common, "--out", str(tmp_path / "pool"), "--workers", "2")[0] == 0
    here = _corpus(tmp_path / "here")
    assert len(here) == 8
    assert _corpus(tmp_path / "cluster") == here == _corpus(tmp_path / "pool")


def test_a_store_corpus_on_the_cluster_matches_too(scheduler: str, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from meeple.store import log_bytes

    common = ["simulate", "mordred", "--games", "4", "--seed", "5", "--json"]
    code, out, _ = _run(capsys, *common, "--out", f"sqlite:{tmp_path / 'c.db'}", "--scheduler", scheduler)
    assert code == 0 and json.loads(out)["scheduler"] == scheduler and json.loads(out)["workers"] == 2
    assert _run(capsys, *common, "--out", str(tmp_path / "here"))[0] == 0
    for name, data in _corpus(tmp_path / "here").items():
        assert log_bytes(f"sqlite:{tmp_path / 'c.db'}#{name.removesuffix('.meeple')}") == data


def test_verify_on_the_cluster_finds_what_verify_here_finds(scheduler: str, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    corpus = tmp_path / "corpus"
    assert _run(capsys, "simulate", "kings", "--games", "6", "--seed", "2", "--out", str(corpus))[0] == 0
    code, out, _ = _run(capsys, "verify", str(corpus), "--scheduler", scheduler)
    assert code == 0 and "ok 6, invalid 0, unreadable 0" in out
    bad = corpus / "kings-00003.meeple"
    data = bytearray(bad.read_bytes())
    data[-5] ^= 0x10
    bad.write_bytes(bytes(data))
    (corpus / "junk.meeple").write_bytes(b"not a log")
    found = {}
    for where in (["--scheduler", scheduler], []):
        code, out, _ = _run(capsys, "verify", str(corpus), "--json", *where)
        assert code == 1
        lines = [json.loads(x) for x in out.splitlines()]
        found[bool(where)] = [{k: v for k, v in line.items() if k not in ("seconds", "logs_per_second")}
                              for line in lines]
    assert found[True] == found[False]
    summary = found[True][-1]
    assert (summary["ok"], summary["invalid"], summary["unreadable"]) == (5, 1, 1)


def test_the_library_runs_a_plan_on_the_cluster(scheduler: str) -> None:
    plan = Plan(game="gophers", seats=2, bots=("heuristic",), games=4, seed=9)
    cluster = dask_executor(scheduler)
    try:
        assert cluster.threads == 2
        there = {r.index: r.log for r in run_plan(plan, cluster, keep_logs=True, chunk_size=1, window=4)}
    finally:
        cluster.shutdown()
    assert there == {r.index: r.log for r in run_plan(plan, keep_logs=True)}


def test_workers_of_another_meeple_version_are_refused(scheduler: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch, "__version__", "0.0.0+other")
    with pytest.raises(ClusterError, match=r"runs meeple .*, this is meeple 0\.0\.0\+other"):
        dask_executor(scheduler)


def test_an_unreachable_scheduler_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as s:  # a port on loopback that nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(ClusterError, match=f"cannot reach the Dask scheduler at tcp://127.0.0.1:{port}"):
        dask_executor(f"tcp://127.0.0.1:{port}", timeout=1)
    code, out, err = _run(capsys, "simulate", "kings", "--games", "2", "--scheduler", "tcp://127.0.0.1:1",
                          "--workers", "2")
    assert code == 2 and out == "" and err.count("\n") == 1 and "give one of them" in err
    code, _, err = _run(capsys, "simulate", "kings", "--scheduler", "tcp://127.0.0.1:1")
    assert code == 2 and "--scheduler applies to --games N" in err


def test_a_run_whose_only_worker_is_gone_fails_with_a_clear_message() -> None:
    plan = Plan(game="kings", seats=2, bots=("heuristic",), games=8, seed=1)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        executor = dask_executor(cluster.scheduler_address, lost_timeout=2.0)
        got = []
        try:
            with pytest.raises(ClusterError, match=r"has had no worker for \d+ s; \d+ chunks? of work left unfinished"):
                for r in run_plan(plan, executor, chunk_size=1, window=2):
                    got.append(r.index)
                    if len(got) == 1:
                        cluster.scale(0)  # the only worker leaves; without a watch the run would wait for ever
        finally:
            executor.shutdown(cancel_futures=True)
    assert 1 <= len(got) < plan.games


def test_a_tournament_on_the_cluster_rates_as_one_run_here(scheduler: str, capsys: pytest.CaptureFixture[str]) -> None:
    common = ["tournament", "kings", "--bots", "random,heuristic", "--rounds", "4", "--seed", "3", "--json"]
    code, out, _ = _run(capsys, *common, "--scheduler", scheduler)
    assert code == 0
    on_cluster = json.loads(out)
    here = json.loads(_run(capsys, *common)[1])
    assert on_cluster["scheduler"] == scheduler and on_cluster["matches"] == 8
    assert on_cluster["ratings"] == here["ratings"] and on_cluster["pairs"] == here["pairs"]
