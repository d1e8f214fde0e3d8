"""Leak test: every message the server sends a seat is scanned for what that seat may not know.

Random matches (hypothesis draws the seats' choices and who is a bot) are
played through a real server; each connection's messages are scanned for the
seeds, the salt, the commitment, every chain hash, referee-side keys, and
every event or command the seat is only shown redacted, in its unredacted
form; and each position message must be exactly the seat's projection
(``records_for``, ``view``, ``legal``) at its cursor. The scanner itself is
pinned first: it must find leaks planted on purpose.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from serverkit import ThreadServer, check_table, open_table, play_out, projection_errors, referee, scan, states_of

from meeple import Match
from meeple.engine import to_wire, wire_for
from meeple.server.client import Seat

pytestmark = pytest.mark.slow  # whole matches through a real server, every message scanned


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    """One server for every example of this module."""
    s = ThreadServer(str(tmp_path_factory.mktemp("leaks") / "leaks.db"))
    yield s
    s.stop()


def _played(shared: ThreadServer, game: str, seats: int, options: dict[str, Any], bots: dict[str, str],
            seed: int) -> tuple[list[Seat], Match]:
    async def scenario() -> list[Seat]:
        table = await open_table(shared.lobby, game, seats, options, bots)
        try:
            await play_out(table, seed)
        finally:
            await table.close()
        check_table(table, shared.store)  # projections, leak scan, verify
        return table.everyone

    connections = asyncio.run(scenario())
    return connections, referee(shared.store, connections[0].match or "")


@pytest.mark.parametrize(("game", "seats", "options"), [
    ("saboteur", 4, {}), ("saboteur", 5, {"edition": "deluxe"}), ("kings", 2, {}), ("gophers", 3, {}),
    ("mordred", 3, {}), ("liars-dice", 3, {"dice": 3}),
])
@settings(max_examples=2, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
          deadline=None)
@given(seed=st.integers(0, 2**32), bot_seats=st.sets(st.integers(0, 5), max_size=2))
def test_no_message_to_any_seat_holds_what_it_may_not_know(shared: ThreadServer, game: str, seats: int,
                                                           options: dict[str, Any], seed: int,
                                                           bot_seats: set[int]) -> None:
    bots = {str(s): "random" for s in bot_seats if s < seats - 1}  # at least one scripted seat
    connections, match = _played(shared, game, seats, options, bots, seed)
    for c in connections:
        # every record reached every connection, so the scan saw each one (bots may end a match before the
        # seats connect: then one sync carries them all)
        carried = sum(len(json.loads(m).get("records", [])) for m in c.received)
        assert carried >= len(match.records) > 0
        assert scan(c.received, match, c.seat) == []


@pytest.fixture(scope="module")
def dice(shared: ThreadServer) -> tuple[list[Seat], Match]:
    """A finished Liar's Dice match of three scripted seats and a spectator, with every message kept."""
    return _played(shared, "liars-dice", 3, {"dice": 2}, {}, seed=5)


def test_the_scanner_finds_another_seats_dice(dice: tuple[list[Seat], Match]) -> None:
    connections, match = dice
    seat0 = connections[0]
    assert seat0.seat == 0
    rolled = [e for e in match.records[0].events if e.seat == 1]  # type: ignore[attr-defined]
    planted = json.loads(seat0.received[0])
    planted["records"][0]["events"][1] = to_wire(rolled[0])
    found = scan([json.dumps(planted)], match, 0)
    assert found and "unredacted event" in found[0]


def test_the_scanner_finds_the_seed_a_chain_hash_and_referee_keys(dice: tuple[list[Seat], Match]) -> None:
    connections, match = dice
    seed = match.header().seeds[0][1]  # type: ignore[index]
    assert scan([json.dumps({"type": "update", "note": seed})], match, 0)
    assert scan([json.dumps({"type": "update", "head": match.record_hash(3).hex()})], match, 0)
    assert scan([json.dumps({"type": "update", "x": {"rng": 12}})], match, 0)
    assert scan(connections[0].received, match, 0) == []


def test_the_scanner_finds_an_unredacted_command(shared: ThreadServer) -> None:
    from meeple.engine import seen_by
    from meeple.games.saboteur.commands import Discard

    m = Match.start("saboteur", 4, seed=8)
    for _ in range(50):
        seat = m.to_act[0]
        m.play(seat, next(c for c in m.legal(seat) if isinstance(c, Discard)))
    actor = m.records[-1].actor
    other = (actor + 1) % 4
    wire = wire_for(m.game)
    honest = wire.record(seen_by(m.game, m.records[-1], other))
    leaky = dict(honest, command=to_wire(m.records[-1].command))
    assert scan([json.dumps({"type": "update", "records": [honest]})], m, other) == []
    assert scan([json.dumps({"type": "update", "records": [leaky]})], m, other)


def test_the_projection_check_finds_another_seats_view(dice: tuple[list[Seat], Match]) -> None:
    connections, match = dice
    seat0 = connections[0]
    states = states_of(match)
    msg = json.loads(seat0.received[0])
    assert msg["type"] == "sync"
    msg["view"] = to_wire(match.game.view(states[msg["cursor"]], 1))
    assert projection_errors([json.dumps(msg)], match, 0, states)
    assert projection_errors(seat0.positions, match, 0, states) == []


def test_the_head_hash_is_masked_and_names_the_position(dice: tuple[list[Seat], Match]) -> None:
    connections, match = dice
    raw = {match.record_hash(i).hex() for i in range(-1, len(match.records))}
    heads = {c.head for c in connections}
    assert len(heads) == 1  # every seat and the spectator name the same position the same way
    assert not heads & raw
