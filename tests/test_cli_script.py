"""The command line as a script sees it: the real ``meeple`` in a subprocess, on real files.

Exit codes (0 ok, 1 invalid or forged, 2 usage or unreadable, 130 interrupted),
stdout for data and stderr for one-line errors, closed pipes, interrupts that
lose nothing, outputs checked before any work, and what is printed for a
seat (redacted commands only).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple.engine import ENGINE, read_log
from meeple.store import log_bytes

pytestmark = pytest.mark.slow  # the meeple command as a process, many times

ROOT = Path(__file__).resolve().parents[1]


def meeple_cli(*args: str, cwd: Path, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run ``python -m meeple ARGS`` in ``cwd``."""
    return subprocess.run([sys.executable, "-m", "meeple", *args], cwd=cwd, input=stdin, capture_output=True,
                          text=True, timeout=timeout, env=_env())


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), env.get("PYTHONPATH", "")])
    env.pop("MEEPLE_DEBUG", None)
    return env


def _ctrl_c_reaches() -> None:
    """Run in the child before it starts: Ctrl-C acts as at a terminal.

    A shell that starts the suite in the background (``... &``, nohup, some
    CI runners) makes its children ignore SIGINT, and Python then keeps
    ignoring it; the tests below are about what the CLI does on Ctrl-C.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def one_line_error(p: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1, p.stderr
    return lines[0]


@pytest.fixture
def kings_log(tmp_path: Path) -> Path:
    path = tmp_path / "k.meeple"
    p = meeple_cli("simulate", "kings", "--seed", "3", "--quiet", "--out", str(path), cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    return path


# -- exit codes ------------------------------------------------------------------------


def test_verify_of_a_missing_file_is_exit_2_on_stderr(tmp_path: Path) -> None:
    p = meeple_cli("verify", "missing.meeple", cwd=tmp_path)
    assert p.returncode == 2 and p.stdout == ""
    assert "no such log file: missing.meeple" in one_line_error(p)


def test_a_forged_log_is_exit_1_and_a_foreign_file_exit_2(kings_log: Path, tmp_path: Path) -> None:
    data = bytearray(kings_log.read_bytes())
    data[-30] ^= 0x01
    forged = tmp_path / "forged.meeple"
    forged.write_bytes(bytes(data))
    p = meeple_cli("verify", str(forged), cwd=tmp_path)
    assert p.returncode == 1 and "FAILED: hash chain broken" in p.stdout and p.stderr == ""
    for command in ("inspect", "replay"):
        p = meeple_cli(command, str(forged), cwd=tmp_path)
        assert p.returncode == 1 and "hash chain broken" in one_line_error(p)
    foreign = tmp_path / "notes.meeple"
    foreign.write_text("hello")
    for command in ("verify", "inspect", "replay"):
        p = meeple_cli(command, str(foreign), cwd=tmp_path)
        assert p.returncode == 2 and "not a meeple log" in one_line_error(p)
    assert meeple_cli("verify", str(kings_log), cwd=tmp_path).returncode == 0
    # a forged log among good and missing ones: the forged one decides
    p = meeple_cli("verify", str(kings_log), str(forged), "missing.meeple", cwd=tmp_path)
    assert p.returncode == 1 and "ok 1, invalid 1, unreadable 1" in p.stdout


@pytest.mark.parametrize("args", [
    ["frobnicate"], ["simulate"], ["simulate", "chess"], ["simulate", "kings", "--players", "9"],
    ["simulate", "kings", "--option", "developed_cards=moon"], ["replay", "x.meeple", "--to", "abc"],
    ["play", "kings", "--seat", "7"], ["simulate", "kings", "--workers", "2"], ["serve", "--port", "0"],
])
def test_usage_errors_are_exit_2_in_one_line(args: list[str], tmp_path: Path) -> None:
    p = meeple_cli(*args, cwd=tmp_path)
    assert p.returncode == 2 and p.stdout == ""
    one_line_error(p)


def test_a_closed_pipe_is_a_normal_end(tmp_path: Path) -> None:
    log = tmp_path / "s.meeple"
    assert meeple_cli("simulate", "saboteur", "--players", "5", "--seed", "2", "--quiet", "--out", str(log),
                      cwd=tmp_path).returncode == 0
    proc = subprocess.Popen([sys.executable, "-m", "meeple", "replay", str(log)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=_env(), cwd=tmp_path)
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()  # what `| head -1` does
    err = proc.stderr.read()
    proc.stderr.close()
    assert proc.wait(timeout=60) == 0
    assert first.startswith(b"#0") and err == b""


def test_help_text_on_every_option_of_every_command() -> None:
    from meeple.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    missing = []
    for name, command in sub.choices.items():  # type: ignore[attr-defined]
        for action in command._actions:
            if not action.help:
                missing.append(f"{name} {action.option_strings or action.dest}")
    assert not missing


# -- outputs ---------------------------------------------------------------------------


def test_simulate_checks_its_output_before_any_work(tmp_path: Path) -> None:
    p = meeple_cli("simulate", "saboteur", "--players", "5", "--seed", "1", "--out", "/nonexistent/x.meeple",
                   cwd=tmp_path)
    assert p.returncode == 2 and p.stdout == ""
    assert "cannot write /nonexistent/x.meeple: no directory /nonexistent" in one_line_error(p)


def test_simulate_and_fork_refuse_to_overwrite_without_force(kings_log: Path, tmp_path: Path) -> None:
    before = kings_log.read_bytes()
    p = meeple_cli("simulate", "kings", "--seed", "4", "--quiet", "--out", str(kings_log), cwd=tmp_path)
    assert p.returncode == 2 and "exists; pass --force" in one_line_error(p)
    p = meeple_cli("fork", str(kings_log), "--at", "3", "--out", str(kings_log), cwd=tmp_path)
    assert p.returncode == 2 and "exists; pass --force" in one_line_error(p)
    assert kings_log.read_bytes() == before
    p = meeple_cli("fork", str(kings_log), "--at", "3", "--out", str(kings_log), "--force", cwd=tmp_path)
    assert p.returncode == 0 and len(meeple.load(kings_log)) == 3
    p = meeple_cli("simulate", "kings", "--seed", "4", "--quiet", "--out", str(kings_log), "--force", cwd=tmp_path)
    assert p.returncode == 0 and meeple.verify(kings_log).ok and len(meeple.load(kings_log)) > 3


# -- play: the person at the terminal --------------------------------------------------------


def _player_records(path: Path) -> int:
    return sum(r.actor != ENGINE for r in read_log(path.read_bytes()).records)


def test_play_minus_one_is_refused_not_the_last_item(tmp_path: Path) -> None:
    out = tmp_path / "p.meeple"
    p = meeple_cli("play", "kings", "--players", "2", "--seed", "3", "--out", str(out), cwd=tmp_path,
                   stdin="-1\n99\nq\n")
    assert p.returncode == 0, p.stderr
    assert p.stdout.count("type the number of a command: 0-") == 2
    assert _player_records(out) == 0


def test_play_echoes_the_move_and_groups_a_long_menu(tmp_path: Path) -> None:
    p = meeple_cli("play", "kings", "--players", "2", "--seed", "3", cwd=tmp_path, stdin="0\nq\n")
    assert p.returncode == 0
    assert re.search(r"^You played \w+ \d+ on mine \d+\.$", _said(p.stdout), re.M)
    # every card on every mine: one line per card, the other mines as short items
    assert re.search(r"^  \[0\] play \w+ \d+ on mine \d+   \[1\] \d+   \[2\] \d+", p.stdout, re.M)


def _said(stdout: str) -> str:
    """What ``meeple play`` printed, without its prompts (the answers typed on a pipe are not echoed)."""
    return re.sub(r"(seat|место) \d+> ", "", stdout)


def _menus(stdout: str) -> list[str]:
    """The menus the person was offered, in order (each from "Your turn:" to its last key)."""
    return [block.split("\n  [b]")[0] + "\n  [b]" + block.split("\n  [b]")[1].split("\n")[0]
            for block in stdout.split("Your turn:")[1:]]


def test_play_narrates_each_record_as_a_sentence_without_card_ids(tmp_path: Path) -> None:
    p = meeple_cli("play", "kings", "--players", "2", "--seed", "3", cwd=tmp_path, stdin="0\n0\n0\nq\n")
    assert p.returncode == 0, p.stderr
    assert "(card " not in p.stdout and not re.search(r"\bcard \d", p.stdout)  # no internal card ids
    lines = _said(p.stdout).splitlines()
    assert lines[0].startswith("The kings are dealt their peoples; mine 0 is opened: a mine worth ")
    assert re.search(r"^You drew \w+ \d+ from the (deck|camp)\.$", _said(p.stdout), re.M)
    bots = [line for line in lines if line.startswith("Seat 1 ")]
    assert bots and all(line.endswith(".") for line in bots)  # the bot's moves, told as sentences
    assert "Key: 3pt def2 dep1+O a mine worth 3 points" in p.stdout  # the abbreviations explained


def test_play_prints_the_table_once_then_what_changed_and_the_table_on_b(tmp_path: Path) -> None:
    head = "Underground Kings, 2 players (you are seat 0)"
    plain = meeple_cli("play", "kings", "--players", "2", "--seed", "3", cwd=tmp_path, stdin="0\n0\n0\nq\n")
    asked = meeple_cli("play", "kings", "--players", "2", "--seed", "3", cwd=tmp_path, stdin="0\nb\n0\n0\nq\n")
    assert plain.returncode == asked.returncode == 0
    assert len(_menus(plain.stdout)) == 4  # four turns ...
    assert plain.stdout.count(head) == 2  # ... and the table only before the first and at the end
    assert asked.stdout.count(head) == 3  # and once more on b
    assert asked.stdout.index("seat 0> " + head) < asked.stdout.index("You drew")


def test_play_offers_undo_only_where_it_can_work(tmp_path: Path) -> None:
    p = meeple_cli("play", "kings", "--players", "2", "--seed", "3", cwd=tmp_path, stdin="u\n0\nu\n0\n0\nq\n")
    assert p.returncode == 0, p.stderr
    menus = _menus(p.stdout)
    assert "[u] undo" not in menus[0]  # nothing of ours to undo yet
    assert "cannot undo: " in p.stdout.split("Your turn:")[1]  # typed anyway: refused, and nothing changes
    assert "[u] undo" in menus[1]  # our squad went down and nothing hidden came since
    assert "Your last command is undone." in p.stdout
    assert menus[2] == menus[0]  # the first turn again, and again nothing to undo
    assert "[u] undo" in menus[3]  # the squad played again
    assert "[u] undo" not in menus[4]  # a draw from the deck showed a card (and the bot moved): no undo


def test_play_speaks_russian(tmp_path: Path) -> None:
    p = meeple_cli("play", "kings", "--players", "2", "--seed", "3", "--lang", "ru", cwd=tmp_path,
                   stdin="0\nx\n0\nq\n")
    assert p.returncode == 0, p.stderr
    assert "Ваш ход:" in p.stdout and "[b] стол" in p.stdout and "[q] выйти" in p.stdout
    assert re.search(r"^  \[0\] сыграть отряд «\w+ \d+» на шахту \d+", p.stdout, re.M)
    assert re.search(r"^Вы: сыграл отряд «\w+ \d+» на шахту \d+\.$", _said(p.stdout), re.M)
    assert "введите номер хода (0-" in p.stdout
    assert meeple_cli("play", "kings", "--lang", "de", cwd=tmp_path).returncode == 2


@pytest.mark.parametrize("game", ["saboteur", "kings", "mordred", "gophers"])
def test_play_draws_the_table_in_russian(game: str, tmp_path: Path) -> None:
    from meeple.games.mordred.data import AREAS

    p = meeple_cli("play", game, "--seed", "4", "--lang", "ru", cwd=tmp_path, stdin="b\nq\n")
    assert p.returncode == 0, p.stderr
    head = p.stdout.split("место 0> ")[1].splitlines()[0]  # the table on b, its first line
    assert re.search("[А-Яа-яЁё]", head) and p.stdout.count(head) == 3  # before the first turn, on b, at the end
    english = sorted(set(re.findall(r"[A-Za-z]{3,}", p.stdout)) - set(AREAS))  # Mordred's area codes: the key's symbols
    assert english == []
    plain = meeple_cli("play", game, "--seed", "4", cwd=tmp_path, stdin="b\nq\n")
    assert not re.search("[А-Яа-яЁё]", plain.stdout)


def _wait_for_records(path: Path, n: int, proc: subprocess.Popen[str], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the player quit early"
        try:
            if _player_records(path) >= n:
                return
        except (OSError, meeple.MeepleError):
            pass
        time.sleep(0.1)
    raise AssertionError(f"fewer than {n} player records after {timeout} s")


def test_ctrl_c_in_play_keeps_every_move_and_the_match_continues(tmp_path: Path) -> None:
    out = tmp_path / "p.meeple"
    proc = subprocess.Popen([sys.executable, "-m", "meeple", "play", "kings", "--players", "2", "--seed", "3",
                             "--out", str(out)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=_env(), cwd=tmp_path, preexec_fn=_ctrl_c_reaches)
    assert proc.stdin is not None
    proc.stdin.write("0\n0\n")
    proc.stdin.flush()
    _wait_for_records(out, 3, proc)  # two of ours and the bot's reply between them
    time.sleep(0.3)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert f"the match so far is in {out}" in err and "Traceback" not in err
    kept = read_log(out.read_bytes())
    assert meeple.verify(out).ok and _player_records(out) >= 3
    p = meeple_cli("play", str(out), "--seat", "0", cwd=tmp_path, stdin="0\nq\n")
    assert p.returncode == 0, p.stderr
    # records count from 0 here as everywhere: the last one kept is record len - 1
    assert f"continuing {out} after record {len(kept.records) - 1} (its {len(kept.records)} records)" in p.stdout
    grown = read_log(out.read_bytes())
    assert grown.records[: len(kept.records)] == kept.records and len(grown.records) > len(kept.records)
    assert meeple.verify(out).ok


def test_a_bad_seat_or_bot_writes_nothing(kings_log: Path, tmp_path: Path) -> None:
    out = tmp_path / "new.meeple"
    p = meeple_cli("play", "kings", "--seat", "5", "--out", str(out), cwd=tmp_path)
    assert p.returncode == 2 and "--seat must be 0..1" in one_line_error(p) and not out.exists()
    p = meeple_cli("play", str(kings_log), "--seat", "5", "--out", str(out), cwd=tmp_path)
    assert p.returncode == 2 and not out.exists()
    p = meeple_cli("simulate", "kings", "--bots", "nobot", "--out", str(out), cwd=tmp_path)
    assert p.returncode == 2 and "has no bot 'nobot'" in one_line_error(p) and not out.exists()


def test_play_refuses_new_match_options_for_a_log(kings_log: Path, tmp_path: Path) -> None:
    p = meeple_cli("play", str(kings_log), "--players", "3", cwd=tmp_path)
    assert p.returncode == 2 and "--players set up a new match" in one_line_error(p)


def _secret_records(path: Path, me: int) -> list[Any]:
    log = read_log(path.read_bytes())
    game = log.game
    found = []
    for r in log.records:
        if r.actor in (me, ENGINE) or not type(r.command).secret:
            continue
        if any(getattr(r.command, f) is not None for f in type(r.command).secret):
            found.append((game.describe(r.command), r))
    return found


def test_play_and_replay_as_a_seat_never_print_another_seats_secret(tmp_path: Path) -> None:
    out = tmp_path / "s.meeple"
    p = meeple_cli("play", "saboteur", "--players", "4", "--seat", "0", "--seed", "8", "--out", str(out),
                   cwd=tmp_path, stdin="0\n" * 30 + "q\n")
    assert p.returncode == 0, p.stderr
    secrets_ = _secret_records(out, 0)
    assert secrets_, "the match played no face-down discard of another seat: choose another seed"
    seat_replay = meeple_cli("replay", str(out), "--seat", "0", cwd=tmp_path).stdout
    referee = meeple_cli("replay", str(out), cwd=tmp_path).stdout
    others = [line for line in p.stdout.splitlines() if re.match(r"Seat [1-3] ", line)]
    assert others
    for text, record in secrets_:
        assert not [line for line in others if text in line]
        (line,) = [line for line in seat_replay.splitlines() if line.startswith(f"#{record.seq:<5} ")]
        assert line.startswith(f"#{record.seq:<5} seat {record.actor}: ") and text not in line
        assert f"#{record.seq:<5} seat {record.actor}   {text}" in referee  # the referee sees everything


# -- continuing, hiding the seed -------------------------------------------------------------------


def test_simulate_from_a_fork_continues_in_place_or_into_a_copy(kings_log: Path, tmp_path: Path) -> None:
    fork = tmp_path / "f.meeple"
    assert meeple_cli("fork", str(kings_log), "--at", "10", "--out", str(fork), "--seed", "77",
                      cwd=tmp_path).returncode == 0
    copy = tmp_path / "c.meeple"
    before = fork.read_bytes()
    p = meeple_cli("simulate", "--from", str(fork), "--quiet", "--out", str(copy), cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert fork.read_bytes() == before and copy.read_bytes().startswith(before)
    p = meeple_cli("simulate", "--from", str(fork), "--quiet", cwd=tmp_path)
    assert p.returncode == 0
    assert fork.read_bytes() == copy.read_bytes() and meeple.load(fork).is_over and meeple.verify(fork).ok


def test_hide_seed_wherever_a_log_is_written(kings_log: Path, tmp_path: Path) -> None:
    sim, fork, played = tmp_path / "sim.meeple", tmp_path / "fork.meeple", tmp_path / "played.meeple"
    assert meeple_cli("simulate", "kings", "--seed", "3", "--quiet", "--hide-seed", "--out", str(sim),
                      cwd=tmp_path).returncode == 0
    assert meeple_cli("fork", str(kings_log), "--at", "12", "--hide-seed", "--out", str(fork),
                      cwd=tmp_path).returncode == 0
    assert meeple_cli("play", "kings", "--seed", "3", "--bots", "random", "--hide-seed", "--out", str(played),
                      cwd=tmp_path, stdin="0\n" * 400).returncode == 0
    for path, revealed in ((sim, True), (fork, False), (played, True)):
        doc = json.loads(meeple_cli("inspect", str(path), "--json", cwd=tmp_path).stdout)
        assert doc["seed"]["hidden"] and doc["seed"]["revealed"] is revealed
        assert read_log(path.read_bytes()).header.seeds is None
        assert meeple.verify(path).ok is revealed
    # a hidden-seed log can be replayed, not continued
    p = meeple_cli("play", str(fork), cwd=tmp_path)
    assert p.returncode == 2 and "hides its seed" in one_line_error(p)


# -- many matches ------------------------------------------------------------------------------------


def test_a_corpus_is_byte_identical_whatever_the_workers(tmp_path: Path) -> None:
    runs = {}
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}"
        p = meeple_cli("simulate", "kings", "--games", "6", "--seed", "11", "--bots", "heuristic,random",
                       "--workers", workers, "--out", str(out), "--json", cwd=tmp_path)
        assert p.returncode == 0, p.stderr
        runs[workers] = {f.name: f.read_bytes() for f in sorted(out.iterdir())}
        summary = json.loads(p.stdout)
        assert summary["matches"] == 6 and summary["workers"] == int(workers)
    assert runs["1"] == runs["2"] and len(runs["1"]) == 6
    p = meeple_cli("verify", str(tmp_path / "w2"), "--workers", "2", "--json", cwd=tmp_path)
    lines = [json.loads(line) for line in p.stdout.splitlines()]
    assert p.returncode == 0 and [x["kind"] for x in lines] == ["log"] * 6 + ["summary"]
    assert lines[-1]["ok"] == 6 and lines[-1]["failed"] == 0


def test_verify_a_directory_names_each_failure(tmp_path: Path) -> None:
    out = tmp_path / "corpus"
    assert meeple_cli("simulate", "mordred", "--games", "4", "--seed", "2", "--out", str(out),
                      cwd=tmp_path).returncode == 0
    victim = sorted(out.iterdir())[1]
    data = bytearray(victim.read_bytes())
    data[-25] ^= 0x40
    victim.write_bytes(bytes(data))
    p = meeple_cli("verify", str(out), "--json", cwd=tmp_path)
    assert p.returncode == 1
    summary = json.loads(p.stdout.splitlines()[-1])
    assert (summary["logs"], summary["ok"], summary["invalid"]) == (4, 3, 1)
    assert summary["failures"][0]["source"] == str(victim) and "hash chain" in summary["failures"][0]["reason"]


def test_simulate_many_refuses_an_output_that_holds_its_logs(tmp_path: Path) -> None:
    out = tmp_path / "corpus"
    assert meeple_cli("simulate", "kings", "--games", "2", "--seed", "2", "--out", str(out),
                      cwd=tmp_path).returncode == 0
    p = meeple_cli("simulate", "kings", "--games", "2", "--seed", "3", "--out", str(out), cwd=tmp_path)
    assert p.returncode == 2 and "exists; pass --force" in one_line_error(p)
    p = meeple_cli("simulate", "kings", "--games", "2", "--out", "/nonexistent/dir", cwd=tmp_path)
    assert p.returncode == 2 and "no directory /nonexistent" in one_line_error(p)


# -- serve ---------------------------------------------------------------------------------------------


def test_serve_without_the_server_extra_says_what_to_install(tmp_path: Path) -> None:
    code = ("import sys\nsys.modules['starlette'] = sys.modules['uvicorn'] = None\n"
            "from meeple.cli import main\nsys.exit(main(['serve']))\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env(), cwd=tmp_path,
                       timeout=60)
    assert p.returncode == 2 and p.stdout == ""
    assert one_line_error(p).endswith("pip install 'meeple[server]'")


def test_serve_parses_its_arguments() -> None:
    from meeple.cli import build_parser

    args = build_parser().parse_args(["serve", "--store", "sqlite://m.db", "--host", "0.0.0.0", "--port", "9000"])
    assert (args.store, args.host, args.port) == ("sqlite://m.db", "0.0.0.0", 9000)
    args = build_parser().parse_args(["serve"])
    assert (args.store, args.host, args.port) == (None, "127.0.0.1", 8000)


def test_serve_takes_a_bot_pace_of_a_second_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    from meeple.cli import build_parser, main
    from meeple.serving import settings

    parser = build_parser()
    assert settings(parser.parse_args(["serve"])).bot_pace == 1.0
    assert settings(parser.parse_args(["serve", "--bot-pace", "0"])).bot_pace == 0.0
    assert settings(parser.parse_args(["serve", "--bot-delay", "2.5"])).bot_pace == 2.5
    assert main(["serve", "--bot-pace", "-1"]) == 2
    assert "--bot-pace" in capsys.readouterr().err


def test_continuations_of_a_position_and_a_sqlite_corpus(kings_log: Path, tmp_path: Path) -> None:
    fork = tmp_path / "pos.meeple"
    assert meeple_cli("fork", str(kings_log), "--at", "15", "--out", str(fork), cwd=tmp_path).returncode == 0
    db = tmp_path / "c.db"
    p = meeple_cli("simulate", "--from", str(fork), "--games", "3", "--seed", "5", "--out", f"sqlite:{db}",
                   "--json", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["start"] == str(fork)
    rows = [json.loads(line) for line in meeple_cli("list", f"sqlite:{db}", "--json", cwd=tmp_path).stdout.splitlines()]
    assert [r["id"] for r in rows] == ["kings-00000", "kings-00001", "kings-00002"]
    start = read_log(fork.read_bytes()).records
    for r in rows:
        log = read_log(log_bytes(r["source"]))
        assert log.records[: len(start)] == start and r["status"] == "over"
    p = meeple_cli("verify", f"sqlite:{db}", cwd=tmp_path)
    assert p.returncode == 0 and "ok 3, invalid 0, unreadable 0" in p.stdout


def test_ctrl_c_in_a_batch_keeps_whole_logs_only(tmp_path: Path) -> None:
    out = tmp_path / "corpus"
    proc = subprocess.Popen([sys.executable, "-m", "meeple", "simulate", "saboteur", "--players", "4", "--games", "2000",
                             "--seed", "1", "--workers", "2", "--out", str(out)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=_env(), cwd=tmp_path, preexec_fn=_ctrl_c_reaches)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not out.is_dir() or len(list(out.glob("*.meeple"))) < 3):
        assert proc.poll() is None
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130 and "interrupted after" in err and "Traceback" not in err
    files = sorted(out.iterdir())
    assert 3 <= len(files) < 2000 and all(f.suffix == ".meeple" for f in files)
    p = meeple_cli("verify", str(out), cwd=tmp_path)
    assert p.returncode == 0, p.stdout[-2000:]


def test_a_progress_bar_on_a_terminal_and_none_in_a_pipe(tmp_path: Path) -> None:
    import pty

    args = [sys.executable, "-m", "meeple", "simulate", "mordred", "--games", "6", "--seed", "1", "--json"]
    piped = subprocess.run(args, capture_output=True, text=True, env=_env(), cwd=tmp_path, timeout=120)
    assert piped.returncode == 0 and piped.stderr == ""
    import select

    master, slave = pty.openpty()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=slave, env=_env(), cwd=tmp_path)
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 4096)
                except OSError:  # every writer of the terminal has closed it
                    break
                if not chunk:
                    break
                seen += chunk
            elif proc.poll() is not None:
                break
        assert proc.stdout is not None
        out = proc.stdout.read()
        proc.wait(timeout=30)
    finally:
        os.close(master)
    assert proc.returncode == 0 and json.loads(out)["matches"] == 6  # data stays clean on stdout
    assert b"/6 [" in seen and b"match/s" in seen
