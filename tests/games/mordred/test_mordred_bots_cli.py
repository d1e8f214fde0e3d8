"""Bots, the text renderer, command descriptions and the generic CLI on Mordred."""

from __future__ import annotations

import attrs
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
    assert set(GAME.bots()) == {"random", "heuristic", "fitted"}
    assert isinstance(GAME.bots()["heuristic"](1), HeuristicBot)
    assert isinstance(GAME.bots()["fitted"](1), HeuristicBot)


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
    # the table price; off the border also what it costs with no own building next to it
    assert GAME.describe(Build("FLI", Kind.TOWN)).endswith(", £6")
    assert GAME.describe(Build("SNO", Kind.CASTLE)).endswith(", £8 (£9 with none of yours next to it)")
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


def test_every_pair_of_neighbours_is_side_by_side_on_the_grid_or_drawn_as_a_diagonal() -> None:
    from meeple.games.mordred.data import AREAS, DIAGONALS

    assert DIAGONALS == (("LLN", "HAR"), ("ABY", "CDG"))
    for code, area in AREAS.items():
        for n in area.neighbours:
            other = AREAS[n]
            apart = abs(area.row - other.row) + abs(area.col - other.col)
            assert apart == 1 or (code, n) in DIAGONALS or (n, code) in DIAGONALS, (code, n)
    # and no two areas side by side on the grid are strangers
    where = {(a.row, a.col): code for code, a in AREAS.items()}
    for (r, c), code in where.items():
        for other in (where.get((r + 1, c)), where.get((r, c + 1))):
            assert other is None or other in AREAS[code].neighbours, (code, other)


def test_the_map_joins_the_corner_to_corner_neighbours_between_their_rows() -> None:
    from meeple.games.mordred.render import render_map
    from meeple.games.mordred.state import MordredOptions

    lines = render_map(GAME.initial_state(3, MordredOptions()))
    llyn = next(i for i, line in enumerate(lines) if "LLN" in line)
    aber = next(i for i, line in enumerate(lines) if "ABY" in line)
    assert lines[llyn + 1].strip() == "\\" and "HAR" in lines[llyn + 2]
    assert lines[aber + 1].strip() == "/" and "CDG" in lines[aber + 2]
    # the mark sits where the two cells meet: right of Llyn (column 0), left of Harlech (column 1)
    col = lines[llyn + 1].index("\\")
    assert lines[llyn].index("LLN") < col < lines[llyn + 2].index("HAR")
    col = lines[aber + 1].index("/")
    assert lines[aber + 2].index("CDG") < col < lines[aber].index("ABY")


def test_the_key_names_every_symbol_on_the_board() -> None:
    m = _play(3, 7, "hhh")
    text = m.render(1)
    key = text[text.index("key:") :]
    for symbol in ("f forest", "m mountains", "* black-bordered", ". empty", "W a warrior", "V/T/C",
                   "CAS MORDRED", "D the dragon space", "- a space", "Llyn-Harlech", "Aberystwyth-Cardigan",
                   "V villages", "T towns", "C castles"):
        assert symbol in key, symbol


def test_the_board_says_when_a_used_up_type_will_end_the_game() -> None:
    from meeple.games.mordred.render import render

    from .test_mordred_rules import _castles, position

    text = render(position(buildings=_castles(1)), 0)
    assert "seat 1: " in text and "every castle on the map (the game ends at the start of its turn" in text


def test_every_option_declares_its_help_on_its_field(capsys: pytest.CaptureFixture[str]) -> None:
    from meeple.games.mordred.state import MordredOptions

    helps = {f.name: f.metadata.get("help", "") for f in attrs.fields(MordredOptions)}
    assert set(helps) == {"warriors", "road_forward", "road_back", "used_up", "siege"} and all(helps.values())
    assert main(["games", "mordred"]) == 0
    out = capsys.readouterr().out
    assert "no help text" not in out and all(h in out for h in helps.values())


def test_the_board_counts_points_in_words_that_agree() -> None:
    from meeple.games.mordred.render import render

    from .test_mordred_rules import position

    text = render(position(buildings={"FLI": (0, Kind.VILLAGE), "WRX": (1, Kind.TOWN)}), 0)
    assert "seat 0 (you): £10, 1 point, " in text and "seat 1: £10, 3 points, " in text and "£10, 0 points" in text
