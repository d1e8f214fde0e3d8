"""The heuristic bot, and the generic command line on Underground Kings."""

from __future__ import annotations

import pytest

import meeple
from meeple.cli import main
from meeple.engine import RandomBot
from meeple.games.kings import GAME
from meeple.games.kings.bot import HeuristicBot


def _play(seed: int, heuristic_seat: int) -> meeple.Outcome:
    m = meeple.Match.start("kings", seats=2, seed=seed)
    bots: list[HeuristicBot | RandomBot] = [RandomBot(seed), RandomBot(seed + 1)]
    bots[heuristic_seat] = HeuristicBot(seed)
    while not m.is_over:
        seat = m.to_act[0]
        cmd = bots[seat].choose(m.view(seat), m.legal(seat), seat)
        m.play(seat, cmd)
    assert m.outcome is not None
    return m.outcome


def test_heuristic_bot_beats_the_random_bot() -> None:
    wins = sum(1 for seed in range(20) if seed % 2 in _play(seed, seed % 2).winners)
    assert wins >= 16  # the full benchmark (benchmarks/kings_bots.py) measures 200 seeds


def test_bots_are_offered_by_name() -> None:
    bots = GAME.bots()
    assert set(bots) == {"random", "heuristic"}
    m = meeple.Match.start("kings", seats=3, seed=1)
    for name in bots:
        assert bots[name](5).choose(m.view(0), m.legal(0), 0) in m.legal(0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_cli_simulate_runs_a_whole_match(players: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "kings", "--players", str(players), "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "Central mines:" in out and "winners" in out


def test_cli_simulate_discard_variant(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "kings", "--players", "2", "--seed", "5", "--variant", "discard", "--quiet"]) == 0
    assert "winners" in capsys.readouterr().out


def test_cli_play_takes_commands_from_the_terminal(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    answers = iter(["0", "0", "q"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert main(["play", "kings", "--players", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "[0] play" in out and "draw from the deck" in out
