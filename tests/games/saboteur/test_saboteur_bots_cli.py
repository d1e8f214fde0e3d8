"""The heuristic bot, the renderer, and the generic command line on Saboteur."""

from __future__ import annotations

from typing import Any

import pytest

import meeple
from meeple.cli import main
from meeple.engine import ENGINE, RandomBot
from meeple.games.saboteur import GAME
from meeple.games.saboteur.bot import HeuristicBot
from meeple.games.saboteur.commands import PlayPath
from meeple.games.saboteur.data import Role, kind_id
from meeple.games.saboteur.render import board_lines, describe


class _ByRole:
    def __init__(self, digger: Any, saboteur: Any) -> None:
        self.digger, self.saboteur = digger, saboteur

    def choose(self, view: Any, legal: Any, seat: int) -> Any:
        bot = self.saboteur if view.role is Role.SABOTEUR else self.digger
        return bot.choose(view, legal, seat)


def _gold_rate(make: Any, games: int = 8, seats: int = 5) -> float:
    gold = rounds = 0
    for g in range(games):
        m = meeple.Match.start("saboteur", seats, seed=500 + g)
        bots = [make(g * 10 + s) for s in range(seats)]
        while not m.is_over:
            seat = next(s for s in m.to_act if s != ENGINE)
            m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
        rounds += len(m.state.results)
        gold += sum(r.team != "saboteurs" for r in m.state.results)
    return gold / rounds


def test_heuristic_miners_reach_the_gold_more_often_and_heuristic_saboteurs_stop_them() -> None:
    random_rate = _gold_rate(RandomBot)
    miners = _gold_rate(lambda s: _ByRole(HeuristicBot(s), RandomBot(s)))
    everyone = _gold_rate(HeuristicBot)
    # the full benchmark (benchmarks/saboteur_bots.py) plays 500 rounds per line-up
    assert random_rate < 0.2 < miners
    assert everyone < miners


def test_bots_are_offered_by_name_and_choose_legal_commands() -> None:
    bots = GAME.bots()
    assert set(bots) == {"random", "heuristic"}
    for options in ({}, {"edition": "deluxe"}):
        m = meeple.Match.start("saboteur", 4, seed=1, options=options)
        for name in bots:
            assert bots[name](5).choose(m.view(0), m.legal(0), 0) in m.legal(0)


def test_board_is_drawn_as_a_grid_with_coordinates() -> None:
    m = meeple.Match.start("saboteur", 4, seed=2)
    cross = PlayPath(kind_id("crossroads"), 1, 0)
    if cross in m.legal(0):
        m.play(0, cross)
    lines = board_lines(m.state.board)
    assert lines[0].split()[0] == "-1" and "8" in lines[0].split()
    text = "\n".join(lines)
    assert "S" in text and "???" in text
    out = m.render(0)
    assert "your hand:" in out and "[you:" in out
    assert "hand 1:" in m.render(None) and "hand 1:" not in out


def test_describe_names_cards_and_places() -> None:
    assert describe(PlayPath(kind_id("curve-a"), 3, -1, True)) == "lay curve-a at (3, -1) turned"


@pytest.mark.parametrize("players", [3, 7, 10])
def test_cli_simulate_base_game(players: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "saboteur", "--players", str(players), "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "round 3:" in out and "winners" in out


@pytest.mark.parametrize("players", [2, 12])
def test_cli_simulate_deluxe(players: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "saboteur", "--variant", "deluxe", "--players", str(players), "--seed", "5",
                 "--quiet"]) == 0
    assert "winners" in capsys.readouterr().out


def test_cli_play_a_few_turns_then_quit(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    answers = iter(["0", "0", "q"])
    monkeypatch.setattr("builtins.input", lambda _prompt="": next(answers))
    assert main(["play", "saboteur", "--players", "4", "--seed", "3"]) == 0
    assert "your hand:" in capsys.readouterr().out


def test_renderer_shows_doors_ladders_bridges_and_crystals(table: Any) -> None:
    cells = [(1, 0, "bridge"), (2, 0, "green-door-horizontal"), (3, 0, "blue-door-horizontal"),
             (0, 1, "ladder-stub-vertical"), (4, 0, "crystal-crossroads"), (5, 0, "dead-crossroads")]
    st = table.build(edition="deluxe", cells=cells, hands=[["map"], [], [], []])
    text = "\n".join(board_lines(st.board))
    middle = next(line for line in text.splitlines() if line.startswith("   0 "))
    assert "-S--#--g--b--+-.x." in middle  # a dead end shows its stubs as dots
    assert "H" in text and "*" in text


def test_renderer_shows_a_mapped_goal_to_its_seat_only(table: Any) -> None:
    from meeple.games.saboteur.commands import PeekGoal

    st = table.build(hands=[["map"], ["map"], [], []], goals=("coal-a", "gold", "coal-b"))
    st, _ = table.play(st, 0, PeekGoal(kind_id("map"), 1))
    assert "?$?" in GAME.render(st, 0)
    assert "?$?" not in GAME.render(st, 1) and "?$?" not in GAME.render(st, None)
    assert "?$?" in "\n".join(board_lines(st.board, dict(GAME.view(st, 0).known_goals)))
