"""What a table keeps from one command to the next for every table of a game: decoded commands, undo answers."""

from __future__ import annotations

from typing import Any

import pytest

from meeple import Match
from meeple.engine import DecodeError, to_wire


def _table(game: str, seats: int, options: dict[str, Any] | None = None, seed: int = 3) -> Any:
    import meeple.examples.liars_dice  # noqa: F401  (registers liars-dice)
    from meeple.server.lobby import MatchRow, SeatRow
    from meeple.server.table import Table

    m = Match.start(game, seats, seed=seed, options=options or {})
    row = MatchRow("m", game, "standard", seats, options or {}, None, "random", "in_progress", "now")
    return Table(row, [SeatRow(s, "human") for s in range(seats)], m, {})


@pytest.mark.parametrize("game", ["liars-dice", "kings", "saboteur"])
def test_a_command_decoded_by_a_table_is_the_one_the_wire_decodes_and_is_shared_by_its_games_tables(game: str) -> None:
    first, second = _table(game, 3), _table(game, 3)
    seat = next(s for s in first.match.to_act if s >= 0)
    kept = 0
    for command in first.match.legal(seat):
        data = to_wire(command)
        decoded = first.command(data)
        assert decoded == first.wire.command(data) == command
        again = second.command(dict(data))
        assert again == decoded
        plain = all(type(v) in (str, int, bool, type(None)) for v in data.values())
        assert (again is decoded) == plain  # kept for every table of the game; one with a list decoded each time
        kept += plain
    assert kept


def test_a_kept_command_is_not_taken_for_one_whose_values_are_of_another_class() -> None:
    table = _table("liars-dice", 2, {"dice": 5, "sides": 12})
    assert table.command({"type": "bid", "quantity": 1, "face": 2}).quantity == 1
    with pytest.raises(DecodeError):  # true is no quantity, though True == 1 as a key would say it is
        table.command({"type": "bid", "quantity": True, "face": 2})
    with pytest.raises(DecodeError):  # a refusal is not kept: it is refused again
        table.command({"type": "bid", "quantity": "1", "face": 2})
    with pytest.raises(DecodeError):
        table.command({"type": "bid", "quantity": "1", "face": 2})


def test_every_seats_undo_answer_is_its_can_undo_and_its_text_that_answers() -> None:
    from meeple.server.messages import dumps

    table = _table("liars-dice", 3, {"dice": 2})
    m = table.match
    seen = set()
    for _ in range(12):
        for seat in range(3):
            state, _, texts = table._seat_state(seat, "en", False)
            check = m.can_undo(seat)
            assert state["undo"] == {"ok": check.ok, "reason": check.reason}
            assert texts["undo"] == dumps(state["undo"])
            seen.add((check.ok, check.reason))
        seat = next(s for s in m.to_act if s >= 0)
        m.play(seat, m.legal(seat)[0])
        table.moved()
    assert len(seen) >= 3  # it may, it played no last command, another seat did
