"""What the command line prints for a seat is built only from what that seat may see.

``meeple replay LOG --seat S`` and ``--to N`` print, for every game, nothing
but the seat's picture of a position (``render(state, S)``) and the records
as the seat sees them (``Match.records_for(S)``: redacted commands and
events). The conformance kit checks that those do not change when only what
the seat may not know changes (``tests/test_seat_secrets.py``), so pinning
the CLI to them carries the guarantee to its output: a command that read the
raw log, the referee's view or the true state for a seat fails here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meeple import ENGINE, get_game
from meeple.cli import main
from meeple.cli._play import describe_record
from meeple.testing import game_params, playout


def _replay(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    capsys.readouterr()
    assert main(["replay", *args]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("game_id", game_params())
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), seed=st.integers(0, 2**32), bot_seed=st.integers(0, 2**16))
def test_replay_for_a_seat_prints_only_the_seats_picture_and_records(
    game_id: str, data: st.DataObject, seed: int, bot_seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = get_game(game_id)
    variant = data.draw(st.sampled_from(game.info.variants), label="variant")
    low, high = game.info.seat_range(variant)
    seats = data.draw(st.integers(low, min(high, low + 2)), label="seats")
    p = playout(game, seats, game.variant_options(variant), seed=seed, bot_seed=bot_seed, max_steps=400)
    log = tmp_path / f"{seed}-{bot_seed}.meeple"
    log.write_bytes(p.match.to_bytes())
    m = p.match.fork()
    for seat in range(seats):
        lines = []
        for seen in m.records_for(seat):
            lines.append(f"#{seen.seq:<5} {describe_record(game, seen, seat)}")
            lines.extend(f"         - {e!r}" for e in seen.events)
        out = _replay(capsys, str(log), "--seat", str(seat)).splitlines()
        assert out[:len(lines)] == lines
        assert all(line.startswith("result: ") for line in out[len(lines):]), out[len(lines):][:3]
        # no raw command of another seat is printed where its redaction differs
        for r in m.records:
            if r.actor not in (seat, ENGINE) and game.redact_command(r.command, r.actor, seat) != r.command:
                assert f"#{r.seq:<5} seat {r.actor} {game.describe(r.command)}" not in out
        at = data.draw(st.integers(0, len(m)), label=f"position for seat {seat}")
        position = m.fork()
        position.seek(at)
        picture = _replay(capsys, str(log), "--seat", str(seat), "--to", str(at))
        assert picture.splitlines()[1:] == game.render(position.state, seat).splitlines()
