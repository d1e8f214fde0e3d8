"""Match: atomic play, turn guards, undo/redo/seek, fork, save/load."""

from __future__ import annotations

from pathlib import Path

import pytest

import liars_dice as ld
from meeple import ENGINE, Code, ConfigError, IllegalCommand, Match, UnknownGame, get_game


def started(seats: int = 2, seed: int = 11, **options: object) -> Match:
    return Match.start("liars-dice", seats, seed=seed, options=options)


def test_setup_is_a_logged_engine_command() -> None:
    m = started(3)
    (r,) = m.records
    assert r.actor == ENGINE and r.command == ld.Roll()
    assert [e.seat for e in r.events] == [0, 1, 2]
    assert r.rng == 3  # three dice, one word each (no rejection at n=6 here)


def test_play_returns_events_and_advances() -> None:
    m = started()
    assert m.play(0, ld.Bid(1, 3)) == (ld.BidMade(0, 1, 3),)
    assert m.to_act == (1,)


def test_out_of_turn_is_refused_with_a_code_and_changes_nothing() -> None:
    m = started()
    before = m.to_bytes()
    with pytest.raises(IllegalCommand) as err:
        m.play(1, ld.Bid(1, 3))
    assert err.value.code is Code.NOT_YOUR_TURN
    assert m.to_bytes() == before


@pytest.mark.parametrize("seat", [-1, 2, 99, True, "0"])
def test_unknown_seats_are_refused(seat: object) -> None:
    m = started()
    with pytest.raises(IllegalCommand) as err:
        m.play(seat, ld.Bid(1, 3))  # type: ignore[arg-type]
    assert err.value.code is Code.UNKNOWN_SEAT
    with pytest.raises(IllegalCommand) as err:
        m.legal(seat)  # type: ignore[arg-type]
    assert err.value.code is Code.UNKNOWN_SEAT


def test_a_rule_violation_names_the_rule() -> None:
    m = started()
    m.play(0, ld.Bid(2, 3))
    with pytest.raises(IllegalCommand, match="higher than 2 x 3") as err:
        m.play(1, ld.Bid(1, 6))
    assert err.value.code is Code.RULE


@pytest.mark.parametrize(("seats", "options"), [(2, {}), (3, {"dice": 2, "sides": 4}), (2, {"wild": False})])
def test_after_a_bid_the_legal_commands_are_every_higher_bid_then_the_call(seats: int, options: dict[str, object]) -> None:
    m = Match.start("liars-dice", seats, seed=11, options=options)
    game, state = m.game, m.state
    every: list[ld.Bid] = list(game.legal_commands(state, 0))  # the first bid may be any bid, in rank order
    total, sides = seats * m.options.dice, m.options.sides
    assert [(b.quantity, b.face) for b in every] == [(q, f) for q in range(1, total + 1) for f in range(1, sides + 1)]
    for bid in every:
        after = game.evolve(state, ld.BidMade(0, bid.quantity, bid.face))
        higher = [b for b in every if (b.quantity, b.face) > (bid.quantity, bid.face)]
        assert tuple(game.legal_commands(after, 1)) == (*higher, ld.CallLiar())
        assert game.legal_commands(after, 0) == ()  # not seat 0's turn any more


def test_a_foreign_command_type_is_refused() -> None:
    m = started()
    with pytest.raises(IllegalCommand) as err:
        m.play(0, ld.BidMade(0, 1, 1))  # an event, not a command
    assert err.value.code is Code.UNKNOWN_COMMAND


def test_the_game_over_is_final() -> None:
    m = started()
    m.play(0, ld.Bid(1, 3))
    m.play(1, ld.CallLiar())
    assert m.is_over and m.to_act == () and m.legal(0) == ()
    with pytest.raises(IllegalCommand) as err:
        m.play(0, ld.Bid(1, 4))
    assert err.value.code is Code.GAME_OVER


def test_undo_and_redo_move_by_whole_commands() -> None:
    m = started()
    s0 = m.state
    m.play(0, ld.Bid(1, 3))
    s1, h1 = m.state, m.head_hash
    m.undo()
    assert m.state == s0 and len(m) == 1
    m.redo()
    assert m.state == s1 and m.head_hash == h1


def test_a_new_command_after_undo_drops_the_redo_branch() -> None:
    m = started()
    m.play(0, ld.Bid(1, 3))
    m.undo()
    m.play(0, ld.Bid(1, 4))
    assert not m.can_redo()
    with pytest.raises(IllegalCommand) as err:
        m.redo()
    assert err.value.code is Code.NOTHING_TO_REDO


def test_player_undo_stops_at_information_barriers() -> None:
    m = started()
    assert not m.can_undo(0)  # only the engine's roll so far
    m.play(0, ld.Bid(1, 3))
    assert m.can_undo(0)
    check = m.can_undo(1)
    assert not check and "seat 0" in check.reason
    m.play(1, ld.Bid(1, 4))
    m.undo(1)
    assert len(m) == 2


def test_the_initial_deal_cannot_be_undone() -> None:
    m = started()
    with pytest.raises(IllegalCommand) as err:
        m.undo()
    assert err.value.code is Code.NOTHING_TO_UNDO


def test_seek_reaches_every_position_of_a_long_match() -> None:
    m = Match.start("liars-dice", 2, seed=3, options={"dice": 5})
    q = 1
    states = [m.state]
    while q <= 10:
        for face in range(1, 7):
            if m.is_over or len(m) > 200:
                break
            m.play(m.to_act[0], ld.Bid(q, face))
            states.append(m.state)
        q += 1
    for i in (len(states) - 1, 0, 37, 5, len(states) - 1):
        m.seek(i + 1)
        assert m.state == states[i]
    with pytest.raises(IndexError):
        m.seek(len(states) + 5)


def test_fork_is_independent_and_continues_the_same_stream() -> None:
    m = started()
    m.play(0, ld.Bid(1, 3))
    child = m.fork(at=1)
    assert len(child) == 1 and child.state.bids == ()
    child.play(0, ld.Bid(2, 2))
    assert m.state.bids == ((0, 1, 3),)


def test_fork_with_a_new_seed_redeals_and_still_verifies() -> None:
    import meeple

    m = started(seed=1)
    child = m.fork(at=0, seed=2)
    assert child.state.dice != m.state.dice or child.records[0].events != m.records[0].events
    assert meeple.verify(child.to_bytes()).ok


def test_the_seed_commitment_uses_the_salt_derived_from_the_seed() -> None:
    from meeple.engine.match import derive_salt, seed_commitment

    m = started(seed=42)  # the salt is derived when first needed
    assert m.commitment == seed_commitment([(0, 42)], derive_salt(42))
    forked = m.fork(seed=7)
    assert forked.commitment == seed_commitment([(0, 42), (1, 7)], derive_salt(7))


def test_verify_reads_a_seed_schedule_as_the_engine_does() -> None:
    """Record n draws from the last pair with from_record <= n (docs/log-format.md), in play and in verify alike."""
    import meeple

    m = Match.start("saboteur", 4, seed=5)  # draws a card on most turns
    for at, seed in ((3, 9), (6, 7)):
        while len(m) < at + 2:
            seat = next(s for s in m.to_act if s != ENGINE)
            m.play(seat, m.legal(seat)[0])
        m = m.fork(at=at, seed=seed)
    for _ in range(6):
        seat = next(s for s in m.to_act if s != ENGINE)
        m.play(seat, m.legal(seat)[0])
    log = meeple.engine.read_log(m.to_bytes())
    assert [(e.start, e.seed) for e in log.seed_schedule.epochs] == [(0, 5), (3, 9), (6, 7)]
    assert len({r.rng for r in m.records[2:8]}) > 1  # records after the first pairs drew randomness
    assert meeple.verify(m.to_bytes()).ok


def test_a_schedule_out_of_order_is_no_schedule() -> None:
    """Pairs that do not start at record 0 and rise would let two schedules draw alike: refused."""
    from meeple.engine.codec import options_from_map
    from meeple.engine.match import codec_for

    game = get_game("saboteur")
    options = options_from_map(codec_for(game), None, 4)
    for seeds in (((0, 5), (3, 9), (1, 7)), ((2, 5),), ((0, 5), (0, 6))):
        with pytest.raises(ConfigError, match="seed schedule"):
            Match(game, 4, options, seeds, None)


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    m = started()
    m.play(0, ld.Bid(1, 3))
    path = tmp_path / "m.meeple"
    m.save(path)
    loaded = Match.load(path)
    assert loaded.state == m.state and loaded.to_bytes() == m.to_bytes()
    loaded.play(1, ld.CallLiar())
    assert loaded.is_over


def test_a_failed_save_leaves_the_old_file(tmp_path: Path) -> None:
    m = started()
    path = tmp_path / "m.meeple"
    m.save(path)
    before = path.read_bytes()
    with pytest.raises(OSError):
        m.save(tmp_path / "missing-dir" / "m.meeple")
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.meeple"]


def test_bad_options_and_games_raise_config_errors() -> None:
    with pytest.raises(ConfigError, match="unknown option"):
        Match.start("liars-dice", 2, options={"dicee": 2})
    with pytest.raises(ConfigError, match="dice must be"):
        Match.start("liars-dice", 2, options={"dice": 9})
    with pytest.raises(ConfigError, match="option 'dice'"):
        Match.start("liars-dice", 2, options={"dice": "two"})
    with pytest.raises(ConfigError, match="2-6 players"):
        Match.start("liars-dice", 7)
    with pytest.raises(UnknownGame, match="known games"):
        Match.start("chess", 2)
    with pytest.raises(ConfigError, match="seed"):
        Match.start("liars-dice", 2, seed=-4)


def test_seeds_come_from_secrets_when_not_given() -> None:
    a, b = Match.start("liars-dice", 2), Match.start("liars-dice", 2)
    assert a.commitment != b.commitment


def test_views_and_redaction_hide_other_dice() -> None:
    m = started(3)
    v = m.view(1)
    assert v.my_dice == m.state.dice[1] and v.revealed is None
    seen = m.events_for(1)
    assert [e.dice is None for e in seen] == [True, False, True]


def test_an_event_that_reveals_information_is_an_undo_barrier(monkeypatch: pytest.MonkeyPatch) -> None:
    m = started()
    m.play(0, ld.Bid(1, 3))
    assert m.can_undo(0)
    monkeypatch.setattr(ld.BidMade, "barrier", True)
    check = m.can_undo(0)
    assert not check and "revealed hidden information" in check.reason
    assert m.can_undo()  # tooling undo is unrestricted


@pytest.mark.parametrize("bad", [ld.Bid("1", 3), ld.Bid(1.0, 3), ld.Bid(True, 3), ld.Bid(None, 3), ld.Bid(object(), 3)])  # type: ignore[arg-type]
def test_a_command_with_wrongly_typed_fields_is_refused(bad: ld.Bid) -> None:
    m = started()
    before = m.to_bytes()
    with pytest.raises(IllegalCommand) as err:
        m.play(0, bad)
    assert err.value.code is Code.BAD_ARGUMENT and m.to_bytes() == before


def test_bad_positions_and_seats_are_library_errors() -> None:
    from meeple.engine import BadPosition

    m = started()
    for bad in (-1, 99, True):
        with pytest.raises(BadPosition):
            m.seek(bad)  # type: ignore[arg-type]
        with pytest.raises(BadPosition):
            m.fork(at=bad)  # type: ignore[arg-type]
    for call in (m.events_for, m.legal, m.view):
        with pytest.raises(IllegalCommand) as err:
            call(7)
        assert err.value.code is Code.UNKNOWN_SEAT


def test_match_loads_logs_through_the_reader_it_does_not_import() -> None:
    """match.py imports nothing of the reader (which builds matches); the reader registers itself on import."""
    import subprocess
    import sys

    data = Match.start("kings", 2, seed=3).to_bytes()  # a bundled game: the subprocess has no example games
    code = ("import sys; from meeple.engine.match import Match; "
            "m = Match.from_bytes(sys.stdin.buffer.read()); print(len(m), m.to_bytes() == m.to_bytes())")
    out = subprocess.run([sys.executable, "-c", code], input=data, capture_output=True, check=True)
    assert out.stdout.decode().split() == [str(len(Match.from_bytes(data))), "True"]
