"""What the command line stands on: the game catalogue, log diffs, seat logs; and their commands with --json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest

import meeple
from meeple.catalog import describe_game, describe_options
from meeple.cli import main
from meeple.diff import diff_logs
from meeple.engine import Options, read_log
from meeple.export import seat_log
from meeple.store import SqliteStore


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def played(game: str, seats: int, seed: int, n: int) -> meeple.Match:
    m = meeple.Match.start(game, seats, seed=seed)
    for _ in range(n):
        if m.is_over:
            break
        seat = m.to_act[0]
        m.play(seat, m.legal(seat)[-1])
    return m


# -- catalogue -------------------------------------------------------------------------------------


def test_every_bundled_option_has_a_type_default_and_help() -> None:
    for gid in ("saboteur", "kings", "gophers", "mordred"):
        info = describe_game(gid)
        assert info.options and info.variants
        for o in info.options:
            assert o.type and o.help, (gid, o.name)
        for v in info.variants:
            meeple.Match.start(gid, v.min_seats, seed=1, options=dict(v.options))  # each variant's options work


def test_each_variant_says_whether_its_matches_hide_anything(capsys: pytest.CaptureFixture[str]) -> None:
    hides = {(gid, v.name): v.hidden_information
             for gid in ("saboteur", "kings", "gophers", "mordred") for v in describe_game(gid).variants}
    assert hides == {("saboteur", "standard"): True, ("saboteur", "deluxe"): True,
                     ("kings", "standard"): True, ("kings", "discard"): True,
                     ("gophers", "standard"): True, ("gophers", "simplified"): True,
                     ("gophers", "advanced"): True, ("gophers", "beginner"): False,  # an open bank
                     ("mordred", "standard"): False, ("mordred", "short"): False}
    assert main(["games", "gophers", "--json"]) == 0
    variants = {v["name"]: v for v in json.loads(capsys.readouterr().out)["variants"]}
    assert variants["beginner"]["hidden_information"] is False and variants["standard"]["hidden_information"] is True
    assert main(["games", "gophers"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if "open information" in line]
    assert len(lines) == 1 and lines[0].split()[0] == "beginner"


def test_an_options_field_declares_its_own_help() -> None:
    @attrs.frozen
    class Opts(Options):
        mode: str = attrs.field(default="fast", metadata={"help": "how fast"})
        count: int | None = None

    class Fake:
        options_type = Opts
        info: ClassVar[Any] = attrs.make_class("I", {"id": attrs.field(default="nobody")})()

    (mode, count) = describe_options(Fake())  # type: ignore[arg-type]
    assert (mode.name, mode.type, mode.default, mode.help) == ("mode", "str", "fast", "how fast")
    assert (count.type, count.default, count.help) == ("int or null", None, "")


def test_games_json_lists_seat_ranges_per_variant(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "games", "--json")
    games = {g["id"]: g for g in json.loads(out)}
    assert code == 0 and {"saboteur", "kings", "gophers", "mordred", "liars-dice"} <= set(games)
    sab = {v["name"]: (v["min_seats"], v["max_seats"]) for v in games["saboteur"]["variants"]}
    assert sab == {"standard": (3, 10), "deluxe": (2, 12)}
    code, out, _ = run(capsys, "games", "saboteur")
    assert code == 0 and "standard      3-10 players" in out and "deluxe        2-12 players" in out
    assert "pass_discards (int, default 1)" in out and "edition (str, default \"base\", one of \"base\", \"deluxe\")" in out
    code, out, _ = run(capsys, "games", "kings", "--json")
    doc = json.loads(out)
    assert doc["options"][0] == {"name": "developed_cards", "type": "str", "default": "camp",
                                 "choices": ["camp", "discard"], "help": doc["options"][0]["help"]}
    assert run(capsys, "games", "chess")[0] == 2
    # a game's own options declare their help on the field (the example game does)
    code, out, _ = run(capsys, "games", "liars-dice", "--json")
    helps = {o["name"]: o["help"] for o in json.loads(out)["options"]}
    assert helps["dice"] == "dice under each player's cup, 1..5" and helps["wild"].startswith("ones count")


# -- diff -----------------------------------------------------------------------------------------


def test_diff_tells_identical_prefix_fork_and_unrelated() -> None:
    a = played("kings", 2, 1, 30)
    data = read_log(a.to_bytes())
    assert diff_logs(data, data).relation == "identical"
    short = a.fork(at=12)
    d = diff_logs(data, read_log(short.to_bytes()))
    assert (d.relation, d.common, d.longer, d.first_difference) == ("prefix", 12, "a", 12)
    k = next(k for k in range(10, 30) if len(a.fork(at=k).legal(a.fork(at=k).to_act[0])) > 1)
    same_seed = a.fork(at=k)
    seat = same_seed.to_act[0]
    same_seed.play(seat, next(c for c in same_seed.legal(seat) if c != a.records[k].command))
    d = diff_logs(read_log(same_seed.to_bytes()), data)
    assert (d.relation, d.common, d.child, d.reseeded_at, d.first_difference) == ("fork", k, None, None, k)
    reseeded = a.fork(at=12, seed=5)
    d = diff_logs(read_log(reseeded.to_bytes()), data)
    assert (d.relation, d.child, d.reseeded_at) == ("fork", "a", 12)
    assert [h.field for h in d.header] == ["seeds", "commitment"]
    other = read_log(played("kings", 2, 2, 30).to_bytes())
    assert diff_logs(data, other).relation == "unrelated"
    assert diff_logs(data, read_log(played("kings", 3, 1, 5).to_bytes())).relation == "unrelated"


def test_diff_command_in_text_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = tmp_path / "a.meeple", tmp_path / "b.meeple"
    m = played("kings", 2, 1, 20)
    m.save(a)
    m.fork(at=7, seed=3).save(b)
    code, out, _ = run(capsys, "diff", str(a), str(b))
    assert code == 0 and "b is a fork of a with a new seed from record 7" in out
    code, out, _ = run(capsys, "diff", str(a), str(b), "--json")
    doc = json.loads(out)
    assert (doc["relation"], doc["common"], doc["child"], doc["reseeded_at"], doc["records"]) == (
        "fork", 7, "b", 7, {"a": len(m), "b": 7})
    assert {"field": "seeds", "a": [[0, 1]], "b": [[0, 1], [7, 3]]} in doc["header"]


# -- seat logs --------------------------------------------------------------------------------------


def test_a_seat_log_shows_only_what_the_seat_may_see() -> None:
    seed = 0x5EED_C0FF_EE12_3457
    m = played("saboteur", 4, seed, 120)
    for seat in (0, 2, None):
        lines = list(seat_log(m, seat))
        head, body, tail = lines[0], lines[1:-1], lines[-1]
        assert head["format"] == "meeple-seat-log" and head["seat"] == seat and head["records"] == len(body)
        assert "seed" not in head and "commitment" not in head
        seen = m.records_for(seat)
        assert [r["seq"] for r in body] == [r.seq for r in seen]
        for line, rec in zip(body, seen):
            assert line["command"] == meeple.engine.readable(rec.command)
            assert line["events"] == [meeple.engine.readable(e) for e in rec.events]
        assert tail["view"] == meeple.engine.readable(m.view(seat))
    # another seat's face-down discard is hidden from seat 0, and the seat's own is not
    discards = [r for r in m.records if type(r.command).secret and r.actor != 0]
    assert discards
    body = {line["seq"]: line for line in list(seat_log(m, 0))[1:-1]}
    for r in discards:
        assert all(body[r.seq]["command"][f] is None for f in type(r.command).secret)
    text = json.dumps(list(seat_log(m, 0)))
    assert str(seed) not in text and f"{seed:x}" not in text


def test_export_command_writes_json_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "m.meeple"
    played("kings", 2, 4, 400).save(log)
    code, out, _ = run(capsys, "export", str(log), "--seat", "1")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and lines[0]["seat"] == 1 and lines[-1]["outcome"]["winners"] is not None
    target = tmp_path / "seat1.jsonl"
    assert run(capsys, "export", str(log), "--seat", "1", "--out", str(target))[0] == 0
    assert target.read_text().splitlines() == out.splitlines()
    assert run(capsys, "export", str(log), "--seat", "1", "--out", str(target))[0] == 2  # exists
    assert run(capsys, "export", str(log), "--seat", "5")[0] == 2


# -- list, inspect ----------------------------------------------------------------------------------


def test_list_a_directory_and_a_sqlite_store(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = tmp_path / "store"
    d.mkdir()
    played("kings", 2, 1, 400).save(d / "done.meeple")
    played("kings", 3, 1, 5).save(d / "open.meeple")
    (d / "junk.meeple").write_bytes(b"nope")
    code, out, _ = run(capsys, "list", str(d), "--json")
    rows = {r["id"]: r for r in map(json.loads, out.splitlines())}
    assert code == 0 and set(rows) == {"done", "open", "junk"}
    assert (rows["done"]["status"], rows["open"]["status"], rows["open"]["seats"]) == ("over", "in_progress", 3)
    assert rows["junk"]["error"] and rows["done"]["error"] is None
    db = tmp_path / "m.db"
    with SqliteStore(db) as store:
        store.add(played("mordred", 3, 1, 4), "t-1")
    code, out, _ = run(capsys, "ls", f"sqlite:{db}")
    assert code == 0 and "t-1" in out and "mordred" in out and "in progress" in out
    assert run(capsys, "list", str(tmp_path / "nowhere"))[0] == 2


def test_inspect_json_shows_the_seed_schedule(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "f.meeple"
    played("kings", 2, 1, 20).fork(at=10, seed=42).save(log)
    code, out, _ = run(capsys, "inspect", str(log), "--json")
    doc = json.loads(out)
    assert code == 0
    assert doc["seed"]["schedule"] == [{"from_record": 0, "seed": 1}, {"from_record": 10, "seed": 42}]
    assert (doc["game"], doc["seats"], doc["records"], doc["status"]) == ("kings", 2, 10, "in_progress")
    code, out, _ = run(capsys, "inspect", str(log))
    assert "seed:       in header: 1 from record 0, 42 from record 10" in out


# -- the JSON field names are stable and documented --------------------------------------------------

CLI_MD = (Path(__file__).resolve().parents[1] / "docs" / "cli.md").read_text(encoding="utf-8")

FIELDS = {
    "inspect": {"source", "bytes", "game", "rules", "engine", "format", "seats", "options", "meta", "seed",
                "checkpoint_every", "records", "events", "head_hash", "status", "outcome"},
    "verify-log": {"kind", "source", "ok", "unreadable", "game", "records", "record", "offset", "reason"},
    "verify-summary": {"kind", "logs", "ok", "failed", "invalid", "unreadable", "seconds", "logs_per_second",
                       "failures"},
    "simulate": {"game", "seats", "seeds", "bots", "commands", "records", "seconds", "finished", "winners", "scores",
                 "reason", "out"},
    "simulate-many": {"game", "seats", "seed", "matches", "finished", "unfinished", "seconds", "matches_per_second",
                      "win_rate", "length", "end_reasons", "workers", "scheduler", "bots", "rotate_bots", "out", "options",
                      "start"},
    "games": {"id", "title", "summary", "rules_version", "min_seats", "max_seats", "has_chance", "hidden_information",
              "variants", "options", "bots"},
    "diff": {"relation", "summary", "common", "records", "first_difference", "longer", "child", "reseeded_at",
             "header", "a", "b"},
    "list": {"id", "source", "game", "seats", "records", "status", "winners", "created", "updated", "error"},
}


def test_json_field_names_are_the_documented_ones(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log, other = tmp_path / "a.meeple", tmp_path / "b.meeple"
    m = played("kings", 2, 1, 30)
    m.save(log)
    m.fork(at=5).save(other)
    docs: dict[str, Any] = {}
    docs["inspect"] = json.loads(run(capsys, "inspect", str(log), "--json")[1])
    lines = [json.loads(x) for x in run(capsys, "verify", str(log), "--json")[1].splitlines()]
    docs["verify-log"], docs["verify-summary"] = lines
    docs["simulate"] = json.loads(run(capsys, "simulate", "kings", "--seed", "1", "--json")[1])
    docs["simulate-many"] = json.loads(run(capsys, "simulate", "kings", "--games", "2", "--seed", "1", "--json")[1])
    docs["games"] = json.loads(run(capsys, "games", "kings", "--json")[1])
    docs["diff"] = json.loads(run(capsys, "diff", str(log), str(other), "--json")[1])
    docs["list"] = json.loads(run(capsys, "list", str(tmp_path), "--json")[1].splitlines()[0])
    for name, doc in docs.items():
        assert set(doc) == FIELDS[name], name
        undocumented = [k for k in doc if f'"{k}"' not in CLI_MD]
        assert not undocumented, f"{name}: {undocumented} not in docs/cli.md"
