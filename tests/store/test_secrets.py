"""Secrets stay on the referee's side, for every game (bundled ones as they land, and liars-dice).

For random playouts of each game, at sampled positions, for every seat and
the spectator:

* the serialized view, every redacted event and the referee state hold
  neither the seed (as msgpack or as its 8 raw bytes) nor the commitment's
  salt, and no view, state, command or event type has a field for the seed
  or the RNG position (view and redact receive no RNG, so the state is the
  only channel, and it is scanned);
* a seat's serialized view is byte-identical after everything hidden from it
  is re-dealt (``determinize``): it cannot contain another seat's hand or
  role, or an unrevealed card, because those were just changed;
* in liars-dice (whose example code keeps the default ``determinize``, so the
  re-deal check is empty for it), known answers: other seats' dice appear in no view and no
  redacted event until the call reveals them.
"""

from __future__ import annotations

import re
from typing import Any

import attrs
import pytest

import liars_dice as ld
from meeple import Match
from meeple.engine import Game, Rng, get_game
from meeple.engine.codec import pack, unstructure
from meeple.engine.match import derive_salt
from meeple.testing import game_params, playout

SEED = 0x5EC2E7_5EED_D00D_F1
SECRET_FIELD = re.compile(r"(^|_)(seed|seeds|rng|salt)(_|$)")




def _leaks(data: bytes) -> list[str]:
    found = []
    for name, needle in (("seed", pack(SEED)), ("raw seed", SEED.to_bytes(8, "big")), ("salt", derive_salt(SEED))):
        if needle in data:
            found.append(name)
    return found


def _fields(tp: Any, seen: set[Any]) -> list[str]:
    """Every field name reachable from an attrs class through its annotations."""
    if not (isinstance(tp, type) and attrs.has(tp)) or tp in seen:
        return []
    seen.add(tp)
    attrs.resolve_types(tp)
    names = []
    for f in attrs.fields(tp):
        names.append(f"{tp.__name__}.{f.name}")
        for arg in _type_args(f.type):
            names.extend(_fields(arg, seen))
    return names


def _type_args(tp: Any) -> list[Any]:
    out = [tp]
    for a in getattr(tp, "__args__", ()) or ():
        out.extend(_type_args(a))
    return out


@pytest.mark.parametrize("gid", game_params())
def test_no_type_has_a_field_for_the_seed_or_the_rng_position(gid: str) -> None:
    game = get_game(gid)
    seen: set[Any] = set()
    names = []
    for tp in (game.state_type, game.view_type, *game.commands, *game.events):
        names.extend(_fields(tp, seen))
    assert names, "the types have fields"
    assert [n for n in names if SECRET_FIELD.search(n.split(".")[1])] == []


def _positions(m: Match, samples: int) -> list[int]:
    n = len(m)
    return sorted({*range(0, n + 1, max(1, n // samples)), n})


@pytest.mark.parametrize("gid", game_params())
def test_views_and_redacted_events_keep_every_secret(gid: str) -> None:
    game = get_game(gid)
    seats = max(game.info.min_seats, min(3, game.info.max_seats))
    p = playout(game, seats, seed=SEED, bot_seed=1, max_steps=150)
    m = p.match.fork()
    rng = Rng(17)
    redealt = 0
    for i in _positions(m, 12):
        m.seek(i)
        state = m.state
        assert _leaks(pack(unstructure(state))) == [], f"the referee state at record {i} holds a secret"
        for seat in (*range(seats), None):
            view = game.view(state, seat)
            data = pack(unstructure(view))
            assert _leaks(data) == [], f"the view of seat {seat} at record {i} leaks the {_leaks(data)}"
            for _ in range(2):
                other = game.determinize(state, seat, rng)
                redealt += other != state
                assert pack(unstructure(game.view(other, seat))) == data, (
                    f"the view of seat {seat} at record {i} changed when only what it cannot see was re-dealt"
                )
    for r in p.match.records:
        for e in r.events:
            for seat in (*range(seats), None):
                red = game.redact(e, seat)
                if red is not None:
                    assert _leaks(pack(unstructure(red))) == [], f"a redacted {type(e).__name__} leaks a secret"
    if game.info.hidden_information and type(game).determinize is not Game.determinize:
        assert redealt, "determinize never changed anything: the test would check nothing"


def _dice_match() -> Match:
    m = Match.start("liars-dice", 3, seed=SEED, options={"dice": 4, "sides": 12})
    m.play(0, ld.Bid(1, 2))
    m.play(1, ld.Bid(2, 2))
    return m


def test_liars_dice_views_show_only_your_own_dice_before_the_call() -> None:
    m = _dice_match()
    dice = m.state.dice
    for seat in range(3):
        v = m.view(seat)
        assert v.my_dice == dice[seat] and v.revealed is None
        others = [d for s, d in enumerate(dice) if s != seat]
        assert all(pack(list(d)) not in pack(unstructure(v)) for d in others if d != dice[seat])
    assert m.view(None).my_dice == () and m.view(None).revealed is None


def test_liars_dice_redacted_rolls_hide_other_seats_dice() -> None:
    m = _dice_match()
    for seat in (0, 1, 2, None):
        rolls = [e for e in m.events_for(seat) if isinstance(e, ld.DiceRolled)]
        assert [r.dice is not None for r in rolls] == [s == seat for s in range(3)]


def test_liars_dice_the_call_reveals_every_die_to_everybody() -> None:
    m = _dice_match()
    m.play(2, ld.CallLiar())
    for seat in (0, 1, 2, None):
        assert m.view(seat).revealed == m.state.dice
