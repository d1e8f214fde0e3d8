"""Mordred has no hidden information, and says so: what every seat is shown is the whole table.

Every seat (and a spectator) sees every command whole and every event whole,
the view is the position itself, and ``determinize`` has nothing to resample.
Nothing a seat is shown carries the seed, the commitment salt or the RNG
position: those stay with the referee (the log).
"""

from __future__ import annotations

import attrs
import pytest

import meeple
from meeple.engine import ENGINE, Command, RandomBot, Rng, SeenRecord, unstructure
from meeple.engine.codec import pack
from meeple.engine.match import derive_salt
from meeple.games.mordred import GAME, Attack, Build, Kind, Place, Roll, Row
from meeple.testing import LEAK_SEED


def _random_match(seats: int, seed: int = LEAK_SEED, bot_seed: int = 0) -> meeple.Match:
    m = meeple.Match.start(GAME, seats, seed=seed)
    bots = [RandomBot(bot_seed * 10 + s) for s in range(seats)]
    while not m.is_over:
        (seat,) = m.to_act
        m.play(seat, bots[seat].choose(m.view(seat), m.legal(seat), seat))
    return m


def test_the_game_declares_no_hidden_information() -> None:
    assert GAME.info.hidden_information is False


def test_no_command_declares_a_secret_field() -> None:
    for cls in GAME.commands:
        assert cls.secret == (), f"{cls.__name__} declares secret fields"


@pytest.mark.parametrize("seats", [3, 4])
def test_every_seat_and_a_spectator_see_every_record_whole(seats: int) -> None:
    m = _random_match(seats, bot_seed=seats)
    whole = [SeenRecord(r.seq, r.actor, r.command, r.events) for r in m.records]
    for seat in (*range(seats), None):
        assert m.records_for(seat) == whole
        for r in m.records:
            assert GAME.redact_command(r.command, r.actor, seat) is r.command
            assert all(GAME.redact(e, seat) is e for e in r.events)


def test_determinize_has_nothing_to_resample() -> None:
    m = _random_match(3)
    rng = Rng(99)
    for i in range(0, len(m) + 1, 7):
        m.seek(i)
        st = m.state
        for seat in (0, 1, 2, None):
            assert GAME.determinize(st, seat, rng) is st
            assert GAME.view(st, seat) == attrs.evolve(GAME.view(st, 0), seat=seat)


def test_the_view_is_the_whole_position() -> None:
    m = _random_match(4)
    m.seek(len(m) // 2)
    st, view = m.state, m.view(1)
    for field in attrs.fields(type(view)):
        if field.name != "seat":
            assert getattr(view, field.name) == getattr(st, field.name), field.name
    assert {f.name for f in attrs.fields(type(st))} == {f.name for f in attrs.fields(type(view))} - {"seat"}


@pytest.mark.parametrize("seats", [3, 4])
def test_nothing_a_seat_is_shown_holds_the_seed_the_salt_or_the_rng_position(seats: int) -> None:
    m = _random_match(seats, bot_seed=7)
    secrets = [pack(LEAK_SEED), derive_salt(LEAK_SEED), m.commitment, str(LEAK_SEED).encode()]
    n = len(m)
    for i in range(n + 1):
        m.seek(i)
        for seat in (*range(seats), None):
            shown = [pack(unstructure(m.view(seat))), m.render(seat).encode()]
            if seat is not None and i < n:
                shown.append(b"".join(GAME.describe(c).encode() for c in m.legal(seat)))
            for s in secrets:
                assert all(s not in blob for blob in shown), f"seat {seat} at {i} is shown a secret"
    for seat in (*range(seats), None):
        for r in m.records_for(seat):
            blob = pack([unstructure(r.command), [unstructure(e) for e in r.events]])
            blob += GAME.describe(r.command).encode()
            assert all(s not in blob for s in secrets)
    # the RNG position is the referee's: no state field follows it
    m.seek(n)
    assert not any("rng" in f.name or "seed" in f.name for f in attrs.fields(type(m.state)))


@pytest.mark.parametrize(
    "command",
    [Roll(Row.B), Place("CON"), Build("FLI", Kind.TOWN), Attack("HOL", "CAS"), Attack("FLI", "DEN")],
)
def test_describe_reads_a_command_with_its_fields_blanked(command: Command) -> None:
    # no Mordred command is secret, but a redacted command (fields None) must still read well
    blank = attrs.evolve(command, **{f.name: None for f in attrs.fields(type(command))})  # type: ignore[misc]
    text = GAME.describe(blank)
    assert text and "None" not in text


def test_the_engine_step_is_described() -> None:
    m = meeple.Match.start(GAME, 3, seed=4)
    first = m.records[0]
    assert first.actor == ENGINE and GAME.describe(first.command) == "roll for the first player"
