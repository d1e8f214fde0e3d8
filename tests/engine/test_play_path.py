"""The quick paths of ``Match.play``: the seats to act kept per state, one step from command to commit.

Each test names what a wrong quick path would break: a stale answer after
the cursor moved, a sink or store that sees other bytes or other snapshots
than the log, a half-applied chain of engine steps, a command check that
remembers a verdict instead of a test.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple import Code, IllegalCommand, Match
from meeple.engine import ENGINE, Rng
from meeple.engine.codec import digest, pack, unstructure
from meeple.store import SqliteStore

Game = Any


def _counting(game_id: str) -> tuple[Game, list[Any]]:
    """A real game whose ``to_act`` notes each state it is asked about."""
    base = type(meeple.get_game(game_id))
    asked: list[Any] = []

    class Counting(base):  # type: ignore[valid-type, misc]
        def to_act(self, state: Any) -> tuple[int, ...]:
            asked.append(state)
            return tuple(super().to_act(state))

    return Counting(), asked


def _playout(m: Match, pick: Rng, steps: int) -> None:
    for _ in range(steps):
        acting = [s for s in m.to_act if s != ENGINE]
        if not acting:
            return
        legal = m.legal(acting[0])
        m.play(acting[0], legal[pick.below(len(legal))])


def test_the_game_is_asked_for_the_seats_to_act_once_per_state() -> None:
    game, asked = _counting("saboteur")
    m = Match.start(game, 3, seed=11)
    _playout(m, Rng(1), 80)
    assert len(m) > 60
    # the caller's loop, legal and play ask again; the game is asked only once per state reached
    assert len(asked) == len({id(s) for s in asked}) <= len(m) + 1


def test_the_seats_to_act_follow_every_move_of_the_cursor(tmp_path: Path) -> None:
    game = meeple.get_game("saboteur")
    m = Match.start(game, 3, seed=4)
    _playout(m, Rng(2), 40)
    moves = [lambda: m.undo(), lambda: m.undo(), lambda: m.redo(), lambda: m.seek(3), lambda: m.seek(len(m)),
             lambda: m.seek(0), lambda: m.redo(), lambda: m.redo(), lambda: m.redo(), lambda: m.undo()]
    for move in moves:
        _ = m.to_act  # asked before the cursor moves: the kept answer must not outlive the position
        move()
        assert m.to_act == tuple(game.to_act(m.state))
        assert m.outcome == game.outcome(m.state) and m.is_over is (game.outcome(m.state) is not None)
        for seat in range(3):
            expected = game.legal_commands(m.state, seat) if seat in game.to_act(m.state) else ()
            assert list(m.legal(seat)) == list(expected)
    # a match read back from a log, and one a store opens, answer for their own state
    for other in (Match.from_bytes(m.to_bytes()), m.fork()):
        assert other.to_act == tuple(game.to_act(other.state))
    store = SqliteStore(tmp_path / "m.db")
    mid = store.add(m)
    opened = store.open(mid)
    assert opened.to_act == tuple(game.to_act(opened.state))
    store.close()


def test_the_outcome_follows_the_cursor_out_of_the_end_and_back() -> None:
    m = Match.start("liars-dice", 2, seed=6)
    _playout(m, Rng(4), 10_000)
    assert m.is_over and m.outcome is not None and m.to_act == ()
    end = m.outcome
    m.undo()
    assert not m.is_over and m.outcome is None
    seat = m.to_act[0]
    last = m.legal(seat)
    m.redo()
    assert m.outcome == end
    with pytest.raises(IllegalCommand) as err:
        m.play(seat, last[0])
    assert err.value.code is Code.GAME_OVER
    m.undo()
    m.play(seat, last[0])  # the kept outcome of the end was not the answer here
    assert m.outcome == m.game.outcome(m.state)


class Recorder:
    """A sink that keeps every write, and can be told to refuse the next one."""

    def __init__(self) -> None:
        self.bodies: dict[int, bytes] = {}  # by record number
        self.snapshots: dict[int, Any] = {}
        self.states: list[Any] = []
        self.refuse = False

    def write(self, match: Match, start: int, bodies: Sequence[bytes], *, snapshots: Mapping[int, Any],
              state: Any) -> None:
        if self.refuse:
            raise OSError("the disk is full")
        for n in [n for n in self.bodies if n >= start]:
            del self.bodies[n]
        self.bodies.update(enumerate(bodies, start))
        self.snapshots.update(snapshots)
        self.states.append(state)


def _chained(seats: int = 3, seed: int = 21, every: int = 2) -> Match:
    """A Saboteur match checkpointed every ``every`` records: the round ends chain engine steps across checkpoints."""
    game = meeple.get_game("saboteur")
    opts = Match.start(game, seats, seed=seed).options
    return Match(game, seats, opts, ((0, seed),), None, checkpoint_every=every).fork(0)


def test_a_sink_gets_the_bodies_and_snapshots_of_the_log_through_chains_of_engine_steps() -> None:
    plain, sunk = _chained(), _chained()
    sink = Recorder()
    sunk.attach(sink)
    first = len(sunk)  # the set-up's records were played before the sink came
    pick_a, pick_b = Rng(3), Rng(3)
    inner = 0  # checkpoints on a record of a chain other than its last
    while plain.to_act:
        seat = plain.to_act[0]
        legal = plain.legal(seat)
        command = legal[pick_a.below(len(legal))]
        before = len(plain)
        plain.play(seat, command)
        inner += any(n % plain.checkpoint_every == 0 for n in range(before + 1, len(plain)))
        assert sunk.play(seat, sunk.legal(seat)[pick_b.below(len(legal))]) is not None
        assert sink.states[-1] is sunk.state
    assert inner >= 2  # engine steps followed some commands (the round ends), across checkpoints
    assert sunk.to_bytes() == plain.to_bytes()
    assert sink.bodies == {i: plain.body(i) for i in range(first, len(plain))}
    k = plain.checkpoint_every
    assert sorted(sink.snapshots) == list(range(k, len(plain) + 1, k))[first // k:]
    again = Match.from_bytes(plain.to_bytes())
    for n, state in sink.snapshots.items():
        again.seek(n)
        assert state == again.state
        assert plain.checkpoint(n - 1) == digest(pack(unstructure(state)))
    assert Match.from_bytes(plain.to_bytes()).state == plain.state  # the reader checks every checkpoint hash


def test_a_store_keeps_the_bytes_of_the_same_match_played_without_one(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "m.db")
    for game_id, seats in (("liars-dice", 2), ("saboteur", 3), ("gophers", 2), ("kings", 2), ("mordred", 3)):
        stored = store.create(game_id, seats, seed=8, match_id=game_id)
        plain = Match.start(game_id, seats, seed=8)
        _playout(stored, Rng(5), 150)
        _playout(plain, Rng(5), 150)
        assert store.log_bytes(game_id) == plain.to_bytes() == stored.to_bytes()
    store.close()


def test_a_refusing_sink_in_the_middle_of_engine_steps_changes_nothing() -> None:
    m = _chained()
    sink = Recorder()
    m.attach(sink)
    first = len(m)
    pick = Rng(9)
    refused = 0
    while m.to_act and refused < 3:
        seat = m.to_act[0]
        legal = m.legal(seat)
        command = legal[pick.below(len(legal))]
        trial = m.fork()
        trial.play(seat, command)
        if len(trial) - len(m) > 1:  # this command chains engine steps: refuse its write once
            before = (m.to_bytes(), m.state, m.to_act, len(m.records), m.cursor, dict(m._recent), dict(m._snapshots))
            sink.refuse = True
            with pytest.raises(OSError):
                m.play(seat, command)
            assert (m.to_bytes(), m.state, m.to_act, len(m.records), m.cursor, dict(m._recent),
                    dict(m._snapshots)) == before
            sink.refuse = False
            refused += 1
        m.play(seat, command)
        assert m.to_bytes() == trial.to_bytes()
    assert refused == 3
    assert sink.bodies == {i: m.body(i) for i in range(first, len(m))}


def test_the_command_check_is_kept_per_class_not_per_verdict() -> None:
    m = Match.start("liars-dice", 2, seed=3)
    seat = m.to_act[0]
    good = m.legal(seat)[0]
    bid = type(good)
    assert bid.tag == "bid"
    m.fork().play(seat, good)  # the class's check is now kept
    with pytest.raises(IllegalCommand) as err:
        m.play(seat, bid(quantity="2", face=good.face))
    assert err.value.code is Code.BAD_ARGUMENT
    event = m.game.events[0]
    for foreign in (event, int, str):
        for _ in range(2):  # refused again: nothing about it is remembered
            with pytest.raises(IllegalCommand) as err:
                m.play(seat, foreign.__new__(foreign))
            assert err.value.code is Code.UNKNOWN_COMMAND
    assert m.cursor == 1 and m.play(seat, good) == m.fork(1).play(seat, good)
