"""The command line: every subcommand, and one-line errors with non-zero exits."""

from __future__ import annotations

from pathlib import Path

import pytest

from meeple.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def logfile(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "m.meeple"
    code, out, _ = run(capsys, "simulate", "liars-dice", "--players", "3", "--seed", "5", "--out", str(path))
    assert code == 0 and "winners" in out
    return path


def test_games_lists_the_example(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "games")
    assert code == 0 and "liars-dice" in out and "2-6 players" in out


def test_simulate_is_deterministic_for_a_seed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    for p in (a, b):
        assert run(capsys, "simulate", "liars-dice", "--seed", "9", "--option", "dice=2", "--out", str(p), "--quiet")[0] == 0
    assert a.read_bytes() == b.read_bytes()


def test_verify_inspect_replay_fork(logfile: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "verify", str(logfile))
    assert code == 0 and ": ok:" in out
    code, out, _ = run(capsys, "inspect", str(logfile))
    assert code == 0 and "game:       liars-dice" in out and "seats:      3" in out
    code, out, _ = run(capsys, "replay", str(logfile))
    assert code == 0 and "#0" in out and "result:" in out
    code, out, _ = run(capsys, "replay", str(logfile), "--to", "1", "--seat", "0")
    assert code == 0 and "your dice" in out
    fork = tmp_path / "f.meeple"
    code, out, _ = run(capsys, "fork", str(logfile), "--at", "1", "--out", str(fork))
    assert code == 0 and run(capsys, "verify", str(fork))[0] == 0


def test_replay_as_a_seat_hides_other_dice(logfile: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "replay", str(logfile), "--seat", "1")
    assert "DiceRolled(seat=0, dice=None)" in out and "DiceRolled(seat=1, dice=(" in out


def test_verify_fails_on_a_damaged_log(logfile: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = bytearray(logfile.read_bytes())
    data[-20] ^= 0xFF
    logfile.write_bytes(bytes(data))
    code, out, _ = run(capsys, "verify", str(logfile))
    assert code == 1 and "FAILED" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "chess"], "unknown game 'chess'"),
        (["simulate", "liars-dice", "--players", "9"], "2-6 players"),
        (["simulate", "liars-dice", "--option", "dice=9"], "dice must be"),
        (["simulate", "liars-dice", "--option", "nonsense"], "key=value"),
        (["simulate", "liars-dice", "--variant", "turbo"], "no variant 'turbo'"),
        (["simulate", "liars-dice", "--seed", "abc"], "a seed is an integer"),
        (["inspect", "/nonexistent/file"], "no such log file"),
        (["fork", "/nonexistent/file", "--at", "1", "--out", "x"], "no such log file"),
        (["frobnicate"], "invalid choice"),
        ([], "required"),
    ],
)
def test_errors_are_one_line_and_non_zero(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, *args)
    assert code != 0
    assert message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_foreign_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "x.meeple"
    p.write_bytes(b"hello world")
    code, _, err = run(capsys, "inspect", str(p))
    assert code == 2 and "not a meeple log" in err and len(err.splitlines()) == 1


def test_play_takes_commands_from_the_terminal(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    answers = iter(["x", "0"] + ["0"] * 50)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    code, out, _ = run(capsys, "play", "liars-dice", "--seed", "3", "--seat", "0")
    assert code == 0 and "type the number of a command" in out and "game over" in out


def test_demo_plays_saves_replays_and_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "demo", "--games", "liars-dice", "--out", str(tmp_path))
    assert code == 0 and "replayed=True verified=True" in out
    assert (tmp_path / "liars-dice-standard.meeple").exists()


def test_the_default_player_count_follows_the_variant(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "saboteur", "--quiet", "--seed", "1")
    assert code == 0 and "saboteur: 3 players" in out
    code, out, _ = run(capsys, "simulate", "saboteur", "--variant", "deluxe", "--quiet", "--seed", "1")
    assert code == 0 and "saboteur: 2 players" in out
    _, out, _ = run(capsys, "games")
    assert "standard (3-10)" in out
