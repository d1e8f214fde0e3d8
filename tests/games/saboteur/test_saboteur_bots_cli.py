"""The heuristic bot, the renderer, and the generic command line on Saboteur."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import meeple
from meeple.cli import main
from meeple.engine import ENGINE, RandomBot
from meeple.games.saboteur import GAME
from meeple.games.saboteur import data as d
from meeple.games.saboteur.bot import HeuristicBot
from meeple.games.saboteur.commands import PlayPath
from meeple.games.saboteur.data import Role, kind_id
from meeple.games.saboteur.render import board_lines, describe
from meeple.games.saboteur.state import SaboteurOptions


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


# -- a person at a terminal ----------------------------------------------------------------


def test_a_hand_shows_each_path_card_by_its_openings() -> None:
    from meeple.games.saboteur.render import card_box, hand_lines

    hand = [kind_id(n) for n in ("crossroads", "curve-a", "dead-t-vertical", "ladder-curve-b", "map")]
    lines = hand_lines(hand)
    assert lines[0] == "your hand:  1    2    3    4"  # path cards are numbered above their pictures
    pictures = [line[len("your hand: "):] for line in lines[1:4]]
    for i, kind in enumerate(hand[:4]):
        box = card_box(kind)
        assert [p[5 * i : 5 * i + 3].ljust(3) for p in pictures] == list(box)
    assert card_box(kind_id("curve-a")) == ("   ", " +-", " | ")  # opens east and south (S-E)
    assert card_box(kind_id("curve-a"), rotated=True) == (" | ", "-+ ", "   ")  # turned: north and west
    assert card_box(kind_id("dead-t-vertical")) == (" : ", " x.", " : ")  # a dead end: stubs, no tunnel
    assert card_box(kind_id("ladder-curve-b")) == ("   ", "-H ", " | ")
    assert lines[-1] == "  1 crossroads, 2 curve-a, 3 dead-t-vertical, 4 ladder-curve-b, 5 map"
    assert hand_lines([kind_id("map")]) == ["your hand: 1 map"]


def test_the_players_view_shows_the_hand_with_its_shapes() -> None:
    m = meeple.Match.start("saboteur", 4, seed=1)
    out = m.render(0)
    hand = m.view(0).hand
    assert "your hand:" in out
    for k in hand:
        assert d.KINDS[k].name in out
    if any(d.KINDS[k].category is d.Category.PATH for k in hand):
        assert "+" in out.split("your hand:")[1]


@pytest.mark.parametrize(("seats", "options", "bot"), [
    (12, {"edition": "deluxe"}, "heuristic"), (12, {"edition": "deluxe", "pass_discards": 3}, "random"),
    (10, {}, "heuristic"),
])
def test_every_screen_fits_a_100_column_terminal(seats: int, options: dict[str, Any], bot: str) -> None:
    from meeple.games.saboteur.render import LEGEND, WIDTH

    assert WIDTH == 100 and all(len(line) <= WIDTH for line in LEGEND)
    m = meeple.Match.start("saboteur", seats, seed=seats, options=options)
    bots = [GAME.bots()[bot](s) for s in range(seats)]
    step = 0
    while not m.is_over:
        if step % 5 == 0:
            for who in (*range(seats), None):
                wide = [line for line in m.render(who).splitlines() if len(line) > WIDTH]
                assert not wide, f"seat {who}, step {step}: {wide[0]!r}"
            for who in range(seats):
                for c in m.legal(who)[:30]:
                    assert len(GAME.describe(c)) < WIDTH - 10
        seat = next(s for s in m.to_act if s != ENGINE)
        m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
        step += 1


def test_a_board_wider_than_the_terminal_is_drawn_in_bands(table: Any) -> None:
    from meeple.games.saboteur.render import WIDTH

    cells = [(-c, 0, "straight-horizontal") for c in range(1, 40)]
    st = table.build(cells=cells, hands=[["map"], [], [], []])
    lines = board_lines(st.board)
    assert all(len(line) <= WIDTH for line in lines)
    headers = [line for line in lines if line.strip().startswith("-40")]
    assert headers and len(lines) > 3 * 7 * 2  # two bands of the seven rows
    text = "\n".join(lines)
    assert text.count("S") == 1 and text.count("???") == 9


def test_every_option_declares_its_help_on_its_field(capsys: pytest.CaptureFixture[str]) -> None:
    # the help lives with the option (attrs metadata), and `meeple games saboteur` shows it
    fields = attrs.fields(SaboteurOptions)
    assert all(f.metadata.get("help") for f in fields)
    assert main(["games", "saboteur"]) == 0
    out = capsys.readouterr().out
    assert "(no help text)" not in out
    for f in fields:
        assert f.metadata["help"] in out
