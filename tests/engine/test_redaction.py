"""Command redaction: what a command looks like to a seat other than its actor."""

from __future__ import annotations

from typing import ClassVar

import attrs
import pytest

from meeple import Command, Match
from meeple.engine import SeenRecord, seen_by
from meeple.engine.game import Game
from meeple.games.saboteur import GAME as SABOTEUR
from meeple.games.saboteur.commands import Discard, PlayPath


@attrs.frozen
class Guess(Command):
    tag: ClassVar[str] = "guess"
    secret: ClassVar[tuple[str, ...]] = ("number",)
    number: int
    loud: bool = False


def test_secret_fields_read_none_to_every_seat_but_the_actor() -> None:
    cmd = Guess(7, loud=True)
    redact = Game.redact_command
    assert redact(SABOTEUR, cmd, 0, 0) is cmd
    assert redact(SABOTEUR, cmd, 0, 1) == Guess(None, loud=True)  # type: ignore[arg-type]
    assert redact(SABOTEUR, cmd, 0, None) == Guess(None, loud=True)  # type: ignore[arg-type]


def test_commands_without_secrets_are_shown_whole() -> None:
    cmd = PlayPath(3, 1, 2)
    assert SABOTEUR.redact_command(cmd, 0, 1) is cmd


def test_a_face_down_discard_hides_its_cards_from_other_seats() -> None:
    assert SABOTEUR.redact_command(Discard((5,)), 2, 0) == Discard(None)  # type: ignore[arg-type]
    assert SABOTEUR.redact_command(Discard((5,)), 2, 2) == Discard((5,))


def _discarded(m: Match) -> int:
    for _ in range(200):
        seat = m.to_act[0]
        passes = [c for c in m.legal(seat) if isinstance(c, Discard)]
        m.play(seat, passes[0])
        return seat
    raise AssertionError("no discard")


def test_records_for_redacts_commands_and_events_alike() -> None:
    m = Match.start("saboteur", seats=4, seed=8)
    actor = _discarded(m)
    other = (actor + 1) % 4
    (mine,) = m.records_for(actor, start=len(m) - 1)
    (theirs,) = m.records_for(other, start=len(m) - 1)
    (spectator,) = m.records_for(None, start=len(m) - 1)
    assert isinstance(mine, SeenRecord)
    assert mine.command == m.records[-1].command
    assert theirs.command.cards is None and spectator.command.cards is None
    assert theirs == seen_by(m.game, m.records[-1], other)
    assert all(e in m.events_for(other) for e in theirs.events)
    with pytest.raises(Exception, match="start must be within"):
        m.records_for(0, start=len(m) + 1)
