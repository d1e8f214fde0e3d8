"""The benchmark suite runs, and the engine's fast paths give what the plain ones give.

No timing is asserted here (the machines are noisy): the suite is run on a tiny
budget to check that it prints its JSON lines, table and goals, and the
performance work of the engine (the fast log reader, the cache of recent
states) is checked against the straightforward code it stands in for.
"""

from __future__ import annotations

import importlib
import io
import json
import math
import subprocess
import sys
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import attrs
import msgpack
import pytest

import meeple
from meeple.engine import ENGINE, CorruptLog, Game, LogError, Match, RandomBot
from meeple.engine import reader as reader_module
from meeple.engine import registry as registry_module
from meeple.engine.codec import digest
from meeple.engine.log import HASH_SIZE, LENGTH, iter_frames, read_header
from meeple.engine.match import codec_for
from meeple.engine.reader import _check_records, _read_records, _read_records_py
from meeple.engine.records import TypeTable

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks"


def _bench_module(name: str) -> Any:
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    return importlib.import_module(name)


@pytest.fixture
def marathon() -> Iterator[Game[Any, Any]]:
    """The benchmarks' long game, registered for the test only."""
    game = _bench_module("marathon").GAME
    meeple.register(game)
    try:
        yield game
    finally:
        registry_module._registered.pop(game.info.id, None)


def _tiny(*extra: str) -> list[str]:
    return ["--quick", "--repeats", "1", "--min-time", "0.001", "--matches", "2", "--long-records", "150", *extra]


@pytest.mark.slow
def test_quick_run_prints_a_json_line_per_figure_a_table_and_the_goals() -> None:
    out = subprocess.run(
        [sys.executable, str(BENCH / "run.py"), *_tiny("--games", "liars-dice")],
        capture_output=True, text=True, timeout=120, cwd=ROOT, check=True,
    ).stdout
    figures = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    names = {(f["subject"], f["name"]) for f in figures}
    for name in ("replay events/s (decode+fold)", "verify records/s (re-decide)", "commands applied/s (decide+evolve)",
                 "legal_commands/s", "log bytes/record", "undo latency", "memory/record in a Match"):
        assert ("liars-dice", name) in names
    assert ("liars-dice", "matches/s, random bots") in names
    assert {f["seats"] for f in figures if f["name"] == "matches/s, random bots"} == {2, 3, 4, 5, 6}
    assert ("floor", "floor: msgpack decode + attrs.evolve") in names
    assert ("bench-marathon", "undo latency") in names
    assert any(f["subject"] == "goal" and f["name"].startswith("replay / floor") for f in figures)
    for f in figures:  # an optional comparison that is missing says so
        assert f["value"] is not None or f["note"]
    assert "subject" in out and "figure" in out  # the table


class _Broken(Game[Any, Any]):
    """A game whose set-up fails: the suite must skip it and say why."""

    info = meeple.GameInfo("test-broken", "Broken", 1, 2, 2)
    state_type = object
    commands = ()
    events = ()

    def initial_state(self, seats: int, options: Any) -> Any:
        raise RuntimeError("the board is missing")

    def to_act(self, state: Any) -> tuple[int, ...]:
        return ()

    def legal_commands(self, state: Any, seat: int) -> list[Any]:
        return []

    def decide(self, state: Any, seat: int, command: Any, rng: Any) -> tuple[Any, ...]:
        return ()

    def evolve(self, state: Any, event: Any) -> Any:
        return state

    def view(self, state: Any, seat: int | None) -> Any:
        return state

    def outcome(self, state: Any) -> None:
        return None


@pytest.mark.slow
def test_a_game_that_errors_is_skipped_with_the_reason_and_the_run_goes_on() -> None:
    run = _bench_module("run")
    meeple.register(_Broken())
    out, err = io.StringIO(), io.StringIO()
    try:
        with redirect_stdout(out), redirect_stderr(err):
            status = run.main(_tiny("--games", "test-broken,no-such-game", "--no-baselines"))
    finally:
        registry_module._registered.pop("test-broken", None)
        registry_module._registered.pop("bench-marathon", None)
    assert status == 0
    figures = [json.loads(line) for line in out.getvalue().splitlines() if line.startswith("{")]
    skipped = {f["subject"]: f["note"] for f in figures if f["name"] == "skipped"}
    assert "the board is missing" in skipped["test-broken"]
    assert "unknown game" in skipped["no-such-game"]
    assert "test-broken skipped" in err.getvalue()
    assert any(f["subject"] == "bench-marathon" for f in figures)  # the rest still ran


# -- the fast log reader --------------------------------------------------------------


def _frames(data: bytes) -> tuple[bytes, list[bytes]]:
    """The magic and header frame of a log, and its record bodies."""
    _, _, end = read_header(data)
    return data[:end], [f.body for f in list(iter_frames(data))[1:]]


def _rechain(head: bytes, bodies: list[bytes]) -> bytes:
    """A log of ``bodies`` after ``head`` with a valid hash chain (a forger's log)."""
    _, prev, _ = read_header(head)
    parts = [head]
    for body in bodies:
        prev = digest(body, prev)
        parts.append(LENGTH.pack(len(body) + HASH_SIZE) + body + prev)
    return b"".join(parts)


def _forgeries(data: bytes) -> Iterator[bytes]:
    """Logs with valid hash chains whose record bodies are malformed in many small ways."""
    head, bodies = _frames(data)
    raws = [msgpack.unpackb(b) for b in bodies]
    swaps: list[Any] = [True, False, 1.0, -1, 1 << 40, None, "x", b"x", [], [0], {"a": 1}, {1: 2}]
    for i, raw in enumerate(raws[:4]):
        for path in ((0,), (1,), (2,), (2, 0), (3,), (4,), (5,), (3, 0), (3, 0, 0), (3, 0, 1), (2, 1), (2, 2),
                     (3, 0, 2), (3, 0, 2, 0), (3, 0, 2, 0, 0), (3, 1, 2), (3, 0, 3)):
            for swap in swaps:
                forged = msgpack.unpackb(bodies[i])
                node = forged
                try:
                    for step in path[:-1]:
                        node = node[step]
                    node[path[-1]] = swap
                except (IndexError, TypeError, KeyError):
                    continue
                yield _rechain(head, [*bodies[:i], msgpack.packb(forged), *bodies[i + 1:]])
        if isinstance(raw, list):
            yield _rechain(head, [*bodies[:i], msgpack.packb(raw[:5]), *bodies[i + 1:]])
            yield _rechain(head, [*bodies[:i], msgpack.packb([*raw, 0]), *bodies[i + 1:]])
        yield _rechain(head, [*bodies[:i], bodies[i] + b"\x00", *bodies[i + 1:]])
        yield _rechain(head, [*bodies[:i], msgpack.packb({"reveal": 1}), *bodies[i + 1:]])
    yield _rechain(head, [*bodies, msgpack.packb({"reveal": [[[0, 1]], b"salt"]})])
    for cut in (1, 5, HASH_SIZE + 3):
        yield data[:-cut]
    yield data + b"\x00\x00"


def _both_readers(data: bytes, fast_reader: Any = _read_records) -> tuple[Any, Any]:
    header, prev, end = read_header(data)
    game = meeple.get_game(header.game)
    table = TypeTable.of(codec_for(game), header.types)
    fast = fast_reader(data, end, prev, table, header)
    try:
        slow: Any = _check_records(data, prev, table, header)
    except LogError as e:
        slow = e
    return fast, slow


def _compiled_reader() -> Any:
    if reader_module._speedups is None:
        pytest.skip("meeple._speedups was not built (no C compiler?)")
    return _read_records


@pytest.mark.parametrize("which", ["python", "compiled"])
def test_the_fast_reader_accepts_exactly_the_logs_the_checking_reader_accepts(which: str) -> None:
    fast_reader = _read_records_py if which == "python" else _compiled_reader()
    logs = []
    for seats in (2, 3):
        for seed in range(3):
            m = Match.start("liars-dice", seats, seed=seed)
            bots = [RandomBot(seed * 10 + s) for s in range(seats)]
            while m.to_act:
                seat = next(s for s in m.to_act if s != ENGINE)
                m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
            logs += [m.to_bytes(), m.to_bytes(hide_seed=True)]
    checked = 0
    for data in logs:
        fast, slow = _both_readers(data, fast_reader)
        assert fast is not None and fast == slow  # honest logs take the fast path
        for forged in _forgeries(data):
            fast, slow = _both_readers(forged, fast_reader)
            if fast is not None:
                assert fast == slow, "the fast reader accepted a log differently"
            else:
                checked += 1
    assert checked > 100  # the forgeries do reach the fallback


def test_a_forged_record_is_named_by_the_checking_reader() -> None:
    m = Match.start("liars-dice", 2, seed=3)
    m.play(0, m.legal(0)[0])
    head, bodies = _frames(m.to_bytes())
    raw = msgpack.unpackb(bodies[1])
    raw[2][1] = True  # a bid's quantity as a boolean
    forged = _rechain(head, [bodies[0], msgpack.packb(raw)])
    with pytest.raises(CorruptLog, match="malformed record") as err:
        Match.from_bytes(forged)
    assert err.value.record == 1


# -- the cache of recent states -----------------------------------------------------------


def test_undo_redo_and_seek_through_recent_states_equal_folding_the_records(marathon: Game[Any, Any]) -> None:
    m = Match.start(marathon, 2, seed=11, options={"length": 400})
    bot = RandomBot(4)
    for _ in range(300):
        seat = m.to_act[0]
        m.play(seat, bot.choose(None, m.legal(seat), seat))
    rng = RandomBot(9)
    for step in range(300):
        action = rng.choose(None, ["seek", "undo", "redo", "play"], 0)
        if action == "seek":
            m.seek(rng.choose(None, range(m.cursor + 1), 0))
        elif action == "undo" and m.can_undo():
            m.undo()
        elif action == "redo" and m.can_redo():
            m.redo()
        elif action == "play" and m.to_act:
            seat = m.to_act[0]
            m.play(seat, bot.choose(None, m.legal(seat), seat))
        folded = marathon.initial_state(2, m.options)
        for r in m.records:
            for e in r.events:
                folded = marathon.evolve(folded, e)
        assert m.state == folded, f"step {step}: {action} gave a state that folding the records does not"
    assert Match.from_bytes(m.to_bytes()).state == m.state


# -- the fast type check of Match.play ---------------------------------------------------------


def test_the_plain_check_of_a_command_agrees_with_the_codec_round_trip() -> None:
    import liars_dice

    codec = codec_for(meeple.get_game("liars-dice"))
    plain = codec.plain_check(liars_dice.Bid)
    assert plain is not None
    for cmd, ok in ((liars_dice.Bid(2, 3), True), (liars_dice.Bid(True, 3), False), (liars_dice.Bid(2, "3"), False),  # type: ignore[arg-type]
                    (liars_dice.Bid(2.0, 3), False)):  # type: ignore[arg-type]
        assert plain(cmd) is ok
        try:
            back = codec.hook(liars_dice.Bid)(meeple.engine.unstructure(cmd))
        except (meeple.DecodeError, TypeError):
            back = None
        assert back == cmd if ok else back is None  # the round trip refuses what the check refuses
    m = Match.start("liars-dice", 2, seed=1)
    with pytest.raises(meeple.IllegalCommand):
        m.play(0, liars_dice.Bid(True, 3))  # type: ignore[arg-type]
    assert len(m) == 1
    m.play(0, liars_dice.Bid(1, 2))
    assert codec.plain_check(liars_dice.DiceRolled) is None  # a tuple field: only the round trip can tell


def _round_trip(codec: Any, cmd: Any) -> Any:
    """What the codec's round trip makes of ``cmd``: the command rebuilt, or None where it refuses it."""
    try:
        return codec.hook(type(cmd))(meeple.engine.unstructure(cmd))
    except (meeple.DecodeError, TypeError):
        return None


def test_the_plain_check_accepts_tuples_of_ints_exactly_as_the_round_trip_does() -> None:
    from meeple.games.saboteur.commands import Discard

    codec = codec_for(meeple.get_game("saboteur"))
    plain = codec.plain_check(Discard)
    assert plain is not None  # a tuple of ints no longer forces the codec's round trip on every play
    for cards, ok in (((3,), True), ((1, 2), True), ((), True), ([3], False), ((True,), False), ((1, "2"), False),
                      ((1.0,), False), (None, False), ((3,), True)):
        cmd = Discard(cards)  # type: ignore[arg-type]
        assert plain(cmd) is ok
        back = _round_trip(codec, cmd)
        if ok:
            assert back == cmd and type(back.cards) is tuple
        else:  # the round trip either refuses it or rebuilds another value (a list becomes a tuple)
            assert back is None or back != cmd or type(back.cards) is not type(cmd.cards)
    m = Match.start("saboteur", 3, seed=1)
    with pytest.raises(meeple.IllegalCommand):
        m.play(m.to_act[0], Discard((True,)))  # type: ignore[arg-type]
    assert len(m) == 1


def test_the_plain_check_accepts_enum_members_exactly_as_the_round_trip_does() -> None:
    from meeple.games.kings import DrawCamp, People
    from meeple.games.saboteur.data import Tool

    codec = codec_for(meeple.get_game("kings"))
    plain = codec.plain_check(DrawCamp)
    assert plain is not None  # an enum field no longer forces the codec's round trip on every play
    for value, ok in [*((p, True) for p in People), (People.__members__[next(iter(People.__members__))].value, False),
                      (Tool.PICKAXE, False), (None, False)]:
        cmd = DrawCamp(value)  # type: ignore[arg-type]
        assert plain(cmd) is ok
        back = _round_trip(codec, cmd)
        if ok:
            assert back == cmd and back.people is value
        else:
            assert back is None or back != cmd or back.people is not value


def _saboteur_log_line(bot: str, miner: tuple[int, int], other_miners: tuple[int, int], saboteur: tuple[int, int],
                       other_saboteurs: tuple[int, int]) -> dict[str, object]:
    """A JSON line of ``search_bots.py`` at three seats, with rounds (won, played) by role for the bot and the others."""
    roles = {"bot:miner": miner, "others:miner": other_miners, "bot:saboteur": saboteur,
             "others:saboteur": other_saboteurs}
    return {"game": "saboteur", "seats": 3, "bot": bot, "opponent": "heuristic", "matches": 3, "finished": 3,
            "wins": 1, "seats_held": 3, "opponent_rate": 0.5, "fair_share": 1 / 3, "load": [1.0, 1.0, 1.0],
            "rounds_by_role": {key: {"won": won, "rounds": n} for key, (won, n) in roles.items()}}


def test_search_bot_logs_add_up_with_each_roles_multiple_of_the_opponents_rate(tmp_path: Path) -> None:
    search_bots = _bench_module("search_bots")
    line = _saboteur_log_line("pimc:10", (3, 4), (4, 10), (1, 2), (0, 4))
    log = tmp_path / "chunk.log"
    log.write_text(json.dumps(line) + "\n" + json.dumps({**line, "wins": 2}) + "\n")
    (row,) = search_bots.add_up([str(log)])
    assert (row["wins"], row["seats_held"], row["matches"]) == (3, 6, 6)
    assert row["share_multiple"] == pytest.approx(0.5 / (1 / 3))
    miner = row["rounds_by_role"]["bot:miner"]
    assert (miner["won"], miner["rounds"]) == (6, 8)
    assert miner["fair_share"] == pytest.approx(0.4) and miner["share_multiple"] == pytest.approx(0.75 / 0.4)
    assert "share_multiple" not in row["rounds_by_role"]["bot:saboteur"]  # the opponents never won as saboteurs
    out = io.StringIO()
    with redirect_stdout(out):
        search_bots.role_table([row])
    assert "| saboteur, 3 seats | `pimc:10` | miner | 6/8 = 75.0 % |" in out.getvalue()


def test_each_role_is_also_set_against_its_fair_rate_from_matches_of_one_bot_in_every_seat(tmp_path: Path) -> None:
    search_bots = _bench_module("search_bots")
    line = _saboteur_log_line("pimc:10", (6, 8), (9, 12), (3, 4), (1, 4))
    log = tmp_path / "search.log"
    log.write_text(json.dumps(line) + "\n")
    # every seat the heuristic bot: a miner's fair rate is over its seat and the others alike, 60/100
    base = _saboteur_log_line("heuristic-seat", (20, 40), (40, 60), (10, 20), (10, 20))
    fair_log = tmp_path / "heuristic.log"
    fair_log.write_text(json.dumps(base) + "\n")
    fair = search_bots.fair_rates([str(fair_log)])
    assert fair == {"miner": (60, 100), "saboteur": (20, 40)}
    (row,) = search_bots.add_up([str(log)], fair)
    miner = row["rounds_by_role"]["bot:miner"]
    assert miner["share_multiple"] == pytest.approx(0.75 / 0.75)  # the same matches' miners share its wins
    assert miner["fair_rate"] == pytest.approx(0.6) and miner["fair_multiple"] == pytest.approx(0.75 / 0.6)
    half = 1.96 * (1 / 6 - 1 / 8 + 1 / 60 - 1 / 100) ** 0.5  # Katz: both rates are counts
    low, high = miner["fair_multiple_ci95"]
    assert low == pytest.approx(1.25 * math.exp(-half)) and high == pytest.approx(1.25 * math.exp(half))
    assert row["rounds_by_role"]["bot:saboteur"]["fair_multiple"] == pytest.approx(0.75 / 0.5)
    out = io.StringIO()
    with redirect_stdout(out):
        search_bots.role_table([row])
    assert f"| 60/100 = 60.0 % | 1.25x [{low:.2f}x, {high:.2f}x] |" in out.getvalue()
    with pytest.raises(SystemExit) as stop, redirect_stderr(io.StringIO()):
        search_bots.main(["--fair", str(fair_log)])  # a reference with nothing to set against it
    assert stop.value.code == 2


def test_a_team_run_with_no_other_bot_is_set_against_the_fair_rate_alone(tmp_path: Path) -> None:
    search_bots = _bench_module("search_bots")
    line = {**_saboteur_log_line("team-oracle", (30, 40), (0, 0), (5, 10), (0, 0)), "finished": 0, "wins": 0,
            "seats_held": 0, "opponent_rate": None}
    line["rounds_by_role"] = {k: v for k, v in line["rounds_by_role"].items() if k.startswith("bot:")}
    log, fair_log = tmp_path / "team.log", tmp_path / "heuristic.log"
    log.write_text(json.dumps(line) + "\n")
    fair_log.write_text(json.dumps(_saboteur_log_line("heuristic-seat", (20, 40), (40, 60), (10, 20), (10, 20))) + "\n")
    (row,) = search_bots.add_up([str(log)], search_bots.fair_rates([str(fair_log)]))
    out = io.StringIO()
    with redirect_stdout(out):
        search_bots.table([row])  # no match played out: no line of matches
        search_bots.role_table([row])
    text = out.getvalue()
    assert "| 0 |" not in text and "team-oracle` | `heuristic`" not in text
    assert "| `team-oracle` | miner | 30/40 = 75.0 % | [59.8 %, 85.8 %] | – | – | – | 60/100 = 60.0 % | 1.25x" in text


def test_a_role_won_every_round_still_gets_an_interval_of_its_spread() -> None:
    search_bots = _bench_module("search_bots")
    from meeple.batch import Rate

    ratio, low, high = search_bots._ratio_interval(5, 5, 60, 100)
    assert ratio == pytest.approx(1 / 0.6)
    # five rounds of five are no proof of a rate above 90 %: the interval reaches well below the point
    assert low < 1.0 < ratio < high
    mine, base = Rate.of(5, 5), Rate.of(60, 100)
    assert (low, high) == (pytest.approx(mine.low / base.high), pytest.approx(mine.high / base.low))
    ratio, low, high = search_bots._ratio_interval(0, 5, 60, 100)
    assert ratio == 0.0 == low < 0.5 < high == pytest.approx(Rate.of(0, 5).high / base.low)
    half = 1.96 * (1 / 6 - 1 / 8 + 1 / 60 - 1 / 100) ** 0.5  # within the bounds: the Katz interval
    assert search_bots._ratio_interval(6, 8, 60, 100)[1] == pytest.approx(1.25 * math.exp(-half))


def test_the_gains_screen_reports_the_paired_error_of_each_candidate_against_the_policy() -> None:
    search_bots = _bench_module("search_bots")
    # differences to the first column: 1, 0, 1, 0 (mean 0.5, sample sd 0.577, standard error 0.289)
    table = [[0.0, 1.0], [1.0, 1.0], [0.0, 1.0], [1.0, 1.0]]
    assert search_bots._paired_error(table, 1) == pytest.approx((1 / 3) ** 0.5 / 2)
    assert search_bots._paired_error([[0.0, 1.0], [0.0, 1.0]], 1) == 0.0  # the same gain every round
    assert search_bots._paired_error([[0.0, 1.0], [0.0]], 1) == 0.0  # one round played it: no spread to tell


def test_the_mordred_fit_keeps_a_step_only_when_it_wins_more_and_the_table_has_each_set() -> None:
    fitted = _bench_module("mordred_fitted")
    out = io.StringIO()
    with redirect_stdout(out):
        tuned = fitted.tune(6, 500, sweeps=1)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines[0]["tune"] == "start" and lines[-1]["tune"] == "end"
    best = lines[0]["share"]
    for step in lines[1:-1]:  # a step is kept exactly when it beats the best so far by the threshold
        assert step["kept"] == (step["share"] > best + fitted.THRESHOLD)
        best = step["share"] if step["kept"] else best
    assert lines[-1]["share"] == best and lines[-1]["weights"] == attrs.asdict(tuned)
    assert 0.0 <= fitted.share(fitted.DEFAULT, 6, 500) <= 1.0
    out = io.StringIO()
    with redirect_stdout(out):
        assert fitted.main(["--games", "3", "--seed", "7"]) == 0
    assert [row.split("|")[1].strip() for row in out.getvalue().splitlines() if row.startswith("| `")] == [
        "`DEFAULT`", "`LEAF`", "`FITTED`"]
