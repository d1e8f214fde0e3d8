"""Bots, the text renderer, command descriptions and the generic CLI on Mordred."""

from __future__ import annotations

import pytest

import meeple
from meeple.cli import main
from meeple.engine import RandomBot
from meeple.games.mordred import GAME, Attack, Build, EndTurn, Kind, Place, Roll, Row
from meeple.games.mordred.bot import HeuristicBot


def _play(seats: int, seed: int, kinds: str) -> meeple.Match:
    m = meeple.Match.start("mordred", seats=seats, seed=seed)
    bots = [HeuristicBot(seed + s) if k == "h" else RandomBot(seed + s) for s, k in enumerate(kinds)]
    while not m.is_over:
        (seat,) = m.to_act
        legal = m.legal(seat)
        cmd = bots[seat].choose(m.view(seat), legal, seat)
        assert cmd in legal
        m.play(seat, cmd)
    return m


def test_heuristic_bots_finish_games_with_legal_commands() -> None:
    for seed in range(4):
        m = _play(3 + seed % 2, seed, "hhhh"[: 3 + seed % 2])
        assert m.outcome is not None and meeple.verify(m.to_bytes()).ok


def test_heuristic_bot_beats_random_bots_more_often_than_not() -> None:
    wins = 0.0
    games = 24
    for seed in range(games):
        hseat = seed % 3
        kinds = "".join("h" if s == hseat else "r" for s in range(3))
        out = _play(3, 1000 + seed, kinds).outcome
        assert out is not None
        if hseat in out.winners:
            wins += 1 / len(out.winners)
    assert wins / games > 0.5


def test_bots_are_listed() -> None:
    assert set(GAME.bots()) == {"random", "heuristic"}
    assert isinstance(GAME.bots()["heuristic"](1), HeuristicBot)


def test_render_shows_map_buildings_warriors_road_and_money() -> None:
    m = _play(3, 7, "hhh")
    text = m.render(0)
    assert "CAS MORDRED" in text and "Mordred's road" in text and "£" in text
    st = m.state
    if any(st.warriors):
        assert " W" in text
    if any(b is not None for b in st.buildings):
        assert any(f"{c}{b.owner}" in text for b in st.buildings if b is not None for c in "VTC")
    assert "game over" in text


def test_describe_commands() -> None:
    assert GAME.describe(Roll(Row.B)).startswith("declare row B")
    assert "Conwy (CON)" in GAME.describe(Place("CON"))
    assert "town" in GAME.describe(Build("FLI", Kind.TOWN))
    assert "Mordred in his castle" in GAME.describe(Attack("HOL", "CAS"))
    assert "warrior on Denbigh" in GAME.describe(Attack("FLI", "DEN"))
    assert GAME.describe(EndTurn()) == "end the turn"


@pytest.mark.parametrize("players", ["3", "4"])
def test_cli_simulate(players: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "mordred", "--players", players, "--seed", "3"]) == 0
    assert "mordred" in capsys.readouterr().out


def test_cli_simulate_short_variant(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "mordred", "--players", "3", "--variant", "short", "--seed", "4", "--quiet"]) == 0


def test_cli_play_takes_commands_from_the_terminal(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    answers = iter(["0", "x", "q"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert main(["play", "mordred", "--players", "3", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "declare row A" in out and "Mordred's road" in out
