"""A finished match stays finished: the outcome is an information barrier for every seat.

A finished match's referee log may be shown to everyone (the replay
debugger does), so a player who could undo the command that ended it would
go back into the match knowing every hidden card and die. Tooling may still
undo and seek anywhere.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import liars_dice as ld
from meeple import Code, ConfigError, IllegalCommand, Match, get_game
from meeple.engine import ENGINE, Rng
from meeple.testing import game_params, playout


def _last_player_record(m: Match) -> int:
    j = len(m) - 1
    while m.records[j].actor == ENGINE:
        j -= 1
    return j


def _clean(m: Match, j: int) -> bool:
    """Records ``j..`` drew nothing and declare no barrier: only the outcome can stop their undo."""
    records = m.records
    before = records[j - 1].rng if j else 0
    return all(r.rng == before and not r.command.barrier and not any(e.barrier for e in r.events)
               for r in records[j:])


def _assert_no_seat_undoes(m: Match) -> None:
    before, state = m.to_bytes(), m.state
    for seat in range(m.seats):
        check = m.can_undo(seat)
        assert not check and "over" in check.reason, (seat, check)
        with pytest.raises(IllegalCommand) as err:
            m.undo(seat)
        assert err.value.code is Code.UNDO_BARRIER
        assert m.state == state and m.to_bytes() == before and m.is_over
    assert not m.can_redo()  # nothing beyond the outcome, so no redo across it either


# seeded random playouts whose final command drew nothing and revealed nothing: before the outcome
# was a barrier, the seat that ended the match could undo it
@pytest.mark.parametrize(("game", "seats", "seed"), [("gophers", 2, 0), ("gophers", 2, 1), ("mordred", 3, 1),
                                                    ("mordred", 3, 6)])
def test_no_seat_undoes_the_command_that_ended_the_match(game: str, seats: int, seed: int) -> None:
    m = playout(game, seats, seed=seed, bot_seed=seed).match
    assert m.is_over
    j = _last_player_record(m)
    assert _clean(m, j)  # no other rule would stop this undo
    _assert_no_seat_undoes(m)


def test_the_final_call_of_a_game_without_barriers_cannot_be_undone(monkeypatch: pytest.MonkeyPatch) -> None:
    m = Match.start("liars-dice", 2, seed=11)
    m.play(0, ld.Bid(1, 3))
    monkeypatch.setattr(ld.LiarCalled, "barrier", False)  # the call then reveals nothing the rules declare
    m.play(1, ld.CallLiar())
    assert m.is_over and _clean(m, 2)
    _assert_no_seat_undoes(m)


def test_tooling_still_undoes_and_redoes_the_final_command() -> None:
    m = playout("gophers", 2, seed=0, bot_seed=0).match
    end, head = len(m), m.head_hash
    assert m.can_undo()
    m.undo()
    assert not m.is_over and len(m) < end
    m.redo()
    assert m.is_over and len(m) == end and m.head_hash == head
    m.seek(end - 1)
    m.seek(end)  # seek crosses the outcome both ways: tooling only
    assert m.is_over


def test_a_player_may_still_undo_before_the_end() -> None:
    m = Match.start("liars-dice", 2, seed=11)
    m.play(0, ld.Bid(1, 3))
    assert m.can_undo(0)
    m.undo(0)
    assert len(m) == 1


def _fewest_seats(game_id: str, seed: int) -> Match:
    """A match of the game with the fewest seats its default options take."""
    info = get_game(game_id).info
    for seats in range(info.min_seats, info.max_seats):
        try:
            return Match.start(game_id, seats, seed=seed)
        except ConfigError:
            continue
    return Match.start(game_id, info.max_seats, seed=seed)


@pytest.mark.parametrize("game_id", game_params())
@settings(max_examples=20)
@given(seed=st.integers(0, 2**64 - 1), bot=st.integers(0, 10_000), undo_every=st.integers(2, 7))
def test_random_play_with_player_undos_never_reopens_a_finished_match(game_id: str, seed: int, bot: int,
                                                                      undo_every: int) -> None:
    """Play at random, every few commands letting the seat that just played try to undo (and replay).

    Whatever undos the rules allow on the way, once the match is over no seat
    can undo, and so no seat can take it back to a position in progress.
    """
    m = _fewest_seats(game_id, seed)
    rng = Rng(bot)
    for step in range(3000):
        acting = [s for s in m.to_act if s != ENGINE]
        if not acting:
            break
        seat = acting[0]
        m.play(seat, rng.choice(m.legal(seat)))
        if step % undo_every == 0:
            check = m.can_undo(seat)
            if m.is_over:
                assert not check and "over" in check.reason
            elif check:
                m.undo(seat)
                assert not m.is_over
                m.redo()
    if m.is_over:
        _assert_no_seat_undoes(m)
