"""The benchmark suite's side-by-side comparison and its search-bot workload.

No timing is asserted (the machines are noisy): the tests check the ratios
against a hand computation, that ``compare.py --base`` measures a checkout of
the commit with this checkout's benchmark code and cleans up after itself,
and that a search decision is one a search bot may make.
"""

from __future__ import annotations

import importlib
import io
import json
import re
import subprocess
import sys
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple.engine import ENGINE, Rng

pytestmark = pytest.mark.slow  # benchmarks run against a worktree of another commit

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks"


def _bench_module(name: str) -> Any:
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    return importlib.import_module(name)


def _figure(name: str, value: float | None, unit: str = "commands/s", subject: str = "kings", seats: int = 2) -> str:
    return json.dumps({"name": name, "subject": subject, "seats": seats, "value": value, "unit": unit, "note": ""})


def test_two_saved_runs_give_after_over_before_and_say_which_way_is_better(tmp_path: Path) -> None:
    before = tmp_path / "before.txt"
    after = tmp_path / "after.txt"
    before.write_text("# a comment line\n" + "\n".join([
        _figure("random playout commands/s", 100.0), _figure("undo latency", 0.5, "ms"),
        _figure("replay / floor", 1.0, "×", subject="goal", seats=None),  # type: ignore[arg-type]
        _figure("not measured", None), _figure("only before", 3.0)]) + "\n")
    after.write_text("\n".join([_figure("random playout commands/s", 250.0), _figure("undo latency", 0.25, "ms"),
                                _figure("not measured", 4.0)]) + "\n")
    out = io.StringIO()
    with redirect_stdout(out):
        assert _bench_module("compare").main([str(before), str(after)]) == 0
    rows = [line for line in out.getvalue().splitlines() if line.startswith("| kings")]
    assert rows == [
        "| kings | 2 | random playout commands/s | 100 commands/s | 250 | 2.50×  |",
        "| kings | 2 | undo latency | 0.5 ms | 0.25 | 0.50× lower is better |",
    ]
    assert "goal" not in out.getvalue()


def test_rounds_give_the_median_of_the_values_and_of_the_ratios_within_each_round() -> None:
    compare = _bench_module("compare")
    key = ("kings", "random playout commands/s", 2)

    def run(value: float) -> dict[Any, dict[str, Any]]:
        return {key: {"value": value, "unit": "commands/s"}}

    # the ratios within the rounds are 3.0, 2.0 and 2.2: their median is 2.2, while the medians of the values
    # are 100 and 300 (whose ratio, 3.0, would mix up rounds run under different loads)
    rounds = [(run(100), run(300)), (run(100), run(200)), (run(150), run(330))]
    (row,) = [line for line in compare.table(rounds) if line.startswith("| kings")]
    assert row == "| kings | 2 | random playout commands/s | 100 commands/s | 300 | 2.20×  |"


def _in_git_checkout() -> bool:
    done = subprocess.run(["git", "rev-parse", "--is-inside-work-tree"], cwd=ROOT, capture_output=True, text=True)
    return done.returncode == 0 and done.stdout.strip() == "true"


@pytest.mark.skipif(not _in_git_checkout(), reason="compare.py --base needs a git checkout")
def test_compare_base_measures_a_worktree_of_the_commit_with_this_checkouts_benchmarks() -> None:
    tiny = ["--quick", "--repeats", "1", "--min-time", "0.001", "--matches", "2", "--games", "liars-dice",
            "--no-baselines", "--no-long"]
    done = subprocess.run([sys.executable, str(BENCH / "compare.py"), "--base", "HEAD", "--rounds", "1", *tiny],
                          capture_output=True, text=True, timeout=300, cwd=ROOT, check=True)
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout[:9]
    assert f"# before: {head}" in done.stdout
    rows = [line for line in done.stdout.splitlines() if line.startswith("| liars-dice | 2 | random playout")]
    assert len(rows) == 1 and rows[0].endswith("×  |")
    # this run's worktree is removed at the end (others' runs of compare.py may have theirs meanwhile)
    (tree,) = re.findall(r"\(a worktree at (\S+)\)", done.stdout)
    worktrees = subprocess.run(["git", "worktree", "list"], cwd=ROOT, capture_output=True, text=True).stdout
    assert tree not in worktrees and not Path(tree).exists()


def test_run_measures_the_library_of_the_source_tree_it_is_given() -> None:
    done = subprocess.run([sys.executable, str(BENCH / "run.py"), "--src", str(ROOT / "src"), "--quick", "--repeats",
                           "1", "--min-time", "0.001", "--matches", "2", "--games", "no-such-game", "--no-baselines",
                           "--no-long"], capture_output=True, text=True, timeout=120, cwd=ROOT, check=True)
    assert f"from {ROOT / 'src' / 'meeple'}" in done.stdout.splitlines()[0]


@pytest.mark.parametrize("game_id", ["kings", "saboteur", "gophers", "mordred", "liars-dice"])
def test_a_search_decision_is_a_legal_command_found_by_determinized_playouts(game_id: str) -> None:
    figures = _bench_module("game_figures")
    run = _bench_module("run")
    run.game_ids(None)  # registers the example game
    game = meeple.get_game(game_id)
    seats = run.playable_seats(game, {})[0]
    whole = figures.play_match(game, seats, {}, 3, lambda s: meeple.RandomBot(s))
    m = whole.fork(at=len(whole) // 2)  # a position half way through a match
    while ENGINE in m.to_act or not m.to_act:
        m = whole.fork(at=len(m) - 1)
    seat = next(s for s in m.to_act if s != ENGINE)
    before = m.to_bytes()
    command, playouts, commands = figures.search_decision(game, m.state, seat, Rng(5))
    assert command in m.legal(seat)
    assert 1 <= playouts <= min(figures.SEARCH_CANDIDATES, len(m.legal(seat)))
    assert commands >= playouts
    assert m.to_bytes() == before  # the search never touches the match
    again = figures.search_decision(game, m.state, seat, Rng(5))
    assert again == (command, playouts, commands)  # seeded: reproducible
