"""The search bot by name on the command line: ``--bots ismcts:BUDGET[:ROLLOUT]`` in simulate, one match or many."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import meeple
from meeple.cli import main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_many_names_the_search_bot_with_its_budget(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "simulate", "liars-dice", "--games", "6", "--seed", "1", "--bots", "ismcts:20,random",
                        "--rotate-bots", "--json", "--out", str(tmp_path / "c"))
    assert code == 0
    doc = json.loads(out)
    assert doc["bots"] == ["ismcts:20", "random"] and set(doc["win_rate"]["by_bot"]) == {"ismcts:20", "random"}
    again = tmp_path / "again"
    assert _run(capsys, "simulate", "liars-dice", "--games", "6", "--seed", "1", "--bots", "ismcts:20,random",
                "--rotate-bots", "--out", str(again))[0] == 0
    assert [p.read_bytes() for p in sorted((tmp_path / "c").iterdir())] == [p.read_bytes() for p in sorted(again.iterdir())]


def test_one_match_with_a_search_bot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "m.meeple"
    code, _, _ = _run(capsys, "simulate", "liars-dice", "--players", "3", "--seed", "4", "--bots",
                        "ismcts:15,random", "--quiet", "--out", str(log))
    assert code == 0 and meeple.load(log).is_over


def test_games_lists_the_search_bot_where_the_game_samples_worlds(capsys: pytest.CaptureFixture[str],
                                                                  blind_dice: object) -> None:
    assert "ismcts" in json.loads(_run(capsys, "games", "liars-dice", "--json")[1])["bots"]
    assert "ismcts" in json.loads(_run(capsys, "games", "kings", "--json")[1])["bots"]
    assert "ismcts" not in json.loads(_run(capsys, "games", "blind-dice", "--json")[1])["bots"]


@pytest.mark.parametrize(("argv", "message"), [
    (["simulate", "blind-dice", "--games", "2", "--bots", "ismcts:20"],
     "blind-dice cannot sample a world from a seat's view"),
    (["simulate", "liars-dice", "--games", "2", "--bots", "ismcts:lots"], "a budget is iterations (200) or time"),
    (["simulate", "liars-dice", "--bots", "ismcts:10:clever"], "no bot 'clever' to play rollouts"),
    (["simulate", "liars-dice", "--bots", "heuristic:3"], "takes no arguments"),
])
def test_a_bad_search_bot_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 argv: list[str], message: str, blind_dice: object) -> None:
    code, out, err = _run(capsys, *argv, "--out", str(tmp_path / "x"))
    assert code == 2 and out == "" and message in err and err.count("\n") == 1
    assert not (tmp_path / "x").exists()
