"""The encodings of Underground Kings and Mordred: their spaces, their layouts, and ids that keep their meaning.

``tests/rl/test_env.py`` runs PettingZoo's ``api_test`` and ``seed_test``
on every game that declares encodings; these pin what each game's
declaration promises beyond that.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from rlkit import heuristic_positions

import meeple.rl as rl
from meeple import Match
from meeple.engine import get_game
from meeple.games.kings.commands import DrawCamp, DrawDeck, Play, Retreat
from meeple.games.kings.data import PEOPLES
from meeple.games.mordred.commands import Attack, Build, EndTurn, Place, Roll
from meeple.games.mordred.data import AREA_CODES, KINDS, PRICES, Row
from meeple.rl.check import observe
from meeple.rl.encodings import kings as kings_enc
from meeple.rl.encodings import mordred as mordred_enc


@pytest.mark.slow  # whole matches of random and heuristic play
@pytest.mark.parametrize(("game", "seats", "options"), [
    ("kings", 2, {}), ("kings", 3, {"developed_cards": "discard"}), ("kings", 4, {}),
    ("mordred", 3, {}), ("mordred", 4, {"warriors": 14, "road_forward": 10}),
])
def test_the_encodings_hold_in_random_and_heuristic_play(game: str, seats: int, options: dict[str, Any]) -> None:
    assert rl.check_encoding(game, seats, options, seeds=range(2), max_steps=3000) > 0
    enc = None
    for m, seat, view, legal in heuristic_positions(game, seats, 5, options):
        enc = enc or rl.encoding_for(game, seats, m.options)
        ids = {enc.actions.index(c, view, seat) for c in legal}
        assert len(ids) == len(legal) and all(0 <= a < enc.actions.size for a in ids)
        for s in range(seats):
            assert len(observe(enc, m.view(s), s, game)) == enc.observation.size


def test_a_kings_action_id_is_a_card_and_a_mine_slot_whatever_the_mine_number() -> None:
    enc = rl.encoding_for("kings", 2, get_game("kings").options_type())
    slots = 4 + kings_enc.deck_after_deal(2)
    assert slots == 64 and enc.actions.size == 80 * slots + 80 + 1 + 4
    meaning: dict[int, tuple[int, str]] = {}
    for _m, seat, view, legal in heuristic_positions("kings", 2, 3):
        central = [x.number for x in view.mines if x.owner is None]
        own = [x.number for x in view.mines if x.owner == seat]
        for c in legal:
            a = enc.actions.index(c, view, seat)
            if isinstance(c, Play):
                where = ("central", central.index(c.mine)) if c.mine in central else ("own", own.index(c.mine))
                assert a == c.card * slots + (where[1] if where[0] == "central" else 4 + where[1])
                assert meaning.setdefault(a, (c.card, f"{where}")) == (c.card, f"{where}")
            elif isinstance(c, Retreat):
                assert a == 80 * slots + c.card
            elif isinstance(c, DrawDeck):
                assert a == 80 * slots + 80
            else:
                assert isinstance(c, DrawCamp) and a == 80 * slots + 81 + PEOPLES.index(c.people)
    assert enc.actions.label(0) == "play orcs 0 (card 0) onto central mine 0"
    assert enc.actions.label(5 * slots + 4) == "play orcs 5 (card 5) onto own mine 0"


def test_the_kings_observation_shows_the_own_hand_and_only_the_backs_of_others() -> None:
    m = Match.start("kings", 2, seed=11)
    enc = rl.encoding_for("kings", 2, m.options)
    at = {p.name: p for p in enc.observation.segments_at()}
    for seat in (0, 1):
        flat = observe(enc, m.view(seat), seat, "kings")
        cards = flat[at["cards"].offset:at["cards"].offset + at["cards"].segment.size]
        columns = at["cards"].segment.shape[1]
        mine = {c for c in range(80) if cards[c * columns] == 1}
        assert mine == set(m.state.hands[seat])
        other = m.state.hands[1 - seat]
        assert all(not any(cards[c * columns:(c + 1) * columns]) for c in other)  # not seen: all zeros
        backs = flat[at["hand_backs"].offset:at["hand_backs"].offset + at["hand_backs"].segment.size]
        assert sum(backs) == 12  # both hands' backs, six cards each


def test_mordred_actions_are_one_table_of_every_command() -> None:
    enc = rl.encoding_for("mordred", 3, get_game("mordred").options_type())
    table = mordred_enc.commands()
    assert enc.actions.size == len(table) == len(set(table))
    assert table[:3] == (Roll(Row.A), Roll(Row.B), Roll(Row.C)) and table[-1] == EndTurn()
    assert table[3:3 + len(AREA_CODES)] == tuple(Place(code) for code in AREA_CODES)
    builds = {(c.area, c.kind) for c in table if isinstance(c, Build)}
    assert builds == {(code, kind) for i, code in enumerate(AREA_CODES) for kind, price in zip(KINDS, PRICES[i])
                      if price is not None}  # every type where it may stand, nowhere else
    assert all(enc.actions.index(c, None, 0) == i for i, c in enumerate(table))
    assert any(isinstance(c, Attack) for c in table)


def test_mordred_money_beyond_the_cap_reads_as_the_cap() -> None:
    import attrs

    m = Match.start("mordred", 3, seed=2)
    enc = rl.encoding_for("mordred", 3, m.options)
    view = attrs.evolve(m.view(0), money=(500, 3, 0))
    at = {p.name: p.offset for p in enc.observation.segments_at()}
    flat = observe(enc, view, 1, "mordred")
    assert flat[at["money"]:at["money"] + 3] == [3.0, 0.0, float(mordred_enc.MONEY_CAP)]  # from seat 1: 1, 2, 0


@pytest.mark.parametrize(("game", "seats", "variant"), [("kings", 4, "discard"), ("mordred", 4, "short")])
def test_the_largest_tables_pass_the_pettingzoo_api_and_seed_tests(game: str, seats: int, variant: str) -> None:
    import warnings

    from pettingzoo.test import api_test, seed_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # a Dict observation is the classic environments' way
        api_test(rl.env(game, seats=seats, variant=variant), num_cycles=150)
    seed_test(lambda: rl.env(game, seats=seats, variant=variant), num_cycles=100)


def test_a_patched_kings_plan_is_the_plan_made_afresh() -> None:
    # The plan of the mines (stacks column, shown slots, numbers) is patched from the last one where a play
    # changed one mine; at every position of random matches it must equal the plan worked out mine by mine.
    patched = 0
    for seed, seats in ((3, 2), (4, 3)):
        m = Match.start("kings", seats=seats, seed=seed)
        rng = random.Random(seed)
        while m.outcome is None:
            seat = m.to_act[0]
            mines = m.view(seat).mines
            kings_enc._PLANS.clear()
            patched += bool(kings_enc._LAST) and kings_enc._patched(mines) is not None
            got, fresh = kings_enc._plan(mines), kings_enc._made(mines)
            assert (got.stacks, got.central, got.owned, got.numbers) == (fresh.stacks, fresh.central, fresh.owned,
                                                                          fresh.numbers)
            assert got.slot_of(seat) == fresh.slot_of(seat)
            legal = m.legal(seat)
            m.play(seat, legal[rng.randrange(len(legal))])
    assert patched > 100
