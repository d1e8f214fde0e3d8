"""The encodings of Saboteur and Gophers: PettingZoo's tests on every edition and rule set, and ids that keep their meaning."""

from __future__ import annotations

import random
import warnings
from typing import Any

import attrs
import pytest
from pettingzoo.test import api_test, seed_test
from rlkit import heuristic_positions

import meeple.rl as rl
from meeple import Match
from meeple.engine import ENGINE, get_game
from meeple.games.gophers.commands import Add, Subtract
from meeple.games.saboteur.commands import Discard, PlayPath
from meeple.rl.check import observe
from meeple.rl.encoding import EncodingError
from meeple.rl.encodings import gophers as gophers_enc
from meeple.rl.encodings import saboteur as saboteur_enc


@pytest.mark.parametrize(("game", "seats", "options"), [
    ("saboteur", 3, {}), ("saboteur", 2, {"edition": "deluxe"}), ("saboteur", 5, {"edition": "deluxe", "pass_discards": 3}),
    ("gophers", 2, {}), ("gophers", 3, {"variant": "simplified"}), ("gophers", 4, {"variant": "advanced"}),
    ("gophers", 2, {"variant": "beginner"}),
])
def test_pettingzoo_api_and_seed_tests_pass(game: str, seats: int, options: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(rl.env(game, seats=seats, options=options), num_cycles=150)
    seed_test(lambda: rl.env(game, seats=seats, options=options), num_cycles=60)



@pytest.mark.parametrize(("game", "seats", "options"), [
    ("saboteur", 4, {}), ("saboteur", 6, {"edition": "deluxe", "pass_discards": 3}),
    ("gophers", 4, {}), ("gophers", 3, {"variant": "beginner"}),
])
def test_every_legal_command_of_heuristic_play_has_its_own_id(game: str, seats: int, options: dict[str, Any]) -> None:
    enc = None
    widest = 0
    for i, (m, seat, view, legal) in enumerate(heuristic_positions(game, seats, 3, options)):
        enc = enc or rl.encoding_for(game, seats, m.options)
        ids = {enc.actions.index(c, view, seat) for c in legal}
        assert len(ids) == len(legal) and all(0 <= a < enc.actions.size for a in ids)
        widest = max(widest, len(legal))
        if i % 25 == 0:
            for s in range(seats):
                assert len(observe(enc, m.view(s), s, game)) == enc.observation.size
    assert enc is not None and widest > 1


def test_a_saboteur_path_id_is_a_hand_slot_a_position_and_a_turn() -> None:
    m = Match.start("saboteur", 4, seed=2)
    seat = m.to_act[0]
    view = m.view(seat)
    enc = rl.encoding_for("saboteur", 4, m.options)
    paths = [c for c in m.legal(seat) if isinstance(c, PlayPath)]
    assert paths
    c = paths[0]
    slot = view.hand.index(c.card)
    pos = (c.col - saboteur_enc.COLS[0]) * (saboteur_enc.ROWS[1] - saboteur_enc.ROWS[0] + 1) + c.row - saboteur_enc.ROWS[0]
    assert enc.actions.index(c, view, seat) == (slot * saboteur_enc.POSITIONS + pos) * 2 + int(c.rotated)
    # a discard names the slots of its cards: two copies of one kind are two slots
    d = Discard((view.hand[0],))
    assert enc.actions.index(d, view, seat) != enc.actions.index(Discard((view.hand[1],)), view, seat) \
        or view.hand[0] == view.hand[1]


@pytest.mark.parametrize(("seats", "options"), [(4, {}), (3, {"edition": "deluxe", "pass_discards": 3})])
def test_saboteur_ids_all_at_once_are_the_ids_one_by_one_in_every_hand(seats: int, options: dict[str, Any]) -> None:
    # index_all remembers what each command object's id is in each slot; the slot comes from the hand
    # of the moment, so the same command object in another hand gets the id of its slot there
    m = Match.start("saboteur", seats, seed=5, options=options)
    enc = rl.encoding_for("saboteur", seats, m.options)
    acts = enc.actions
    assert acts.index_all is not None
    rng = random.Random(5)
    checked, kinds = 0, set()
    while m.outcome is None and checked < 400:
        seat = next((s for s in m.to_act if s != ENGINE), None)
        if seat is None:
            break
        view, legal = m.view(seat), m.legal(seat)
        assert acts.index_all(legal, view, seat) == [acts.index(c, view, seat) for c in legal]
        hand = view.hand
        if len(hand) > 1 and hand[0] != hand[-1]:  # the same commands in the hand reversed: other slots
            other = attrs.evolve(view, hand=tuple(reversed(hand)))
            held = [c for c in legal if getattr(c, "card", hand[0]) in hand]
            assert acts.index_all(held, other, seat) == [acts.index(c, other, seat) for c in held]
        kinds.update(type(c).__name__ for c in legal)
        checked += 1
        m.play(seat, legal[rng.randrange(len(legal))])
    assert {"PlayPath", "Discard", "Rockfall", "PeekGoal"} <= kinds and checked > 50


def test_a_saboteur_placement_outside_the_window_says_so() -> None:
    m = Match.start("saboteur", 4, seed=2)
    seat = m.to_act[0]
    view = m.view(seat)
    enc = rl.encoding_for("saboteur", 4, m.options)
    path = next(c for c in m.legal(seat) if isinstance(c, PlayPath))
    far = PlayPath(path.card, saboteur_enc.COLS[1] + 1, 0, False)
    with pytest.raises(EncodingError, match="outside the action window"):
        enc.actions.index(far, view, seat)
    assert enc.actions.index_all is not None
    for _ in range(2):  # and all at once, the first time and once the command is known
        with pytest.raises(EncodingError, match="outside the action window"):
            enc.actions.index_all([path, far], view, seat)


def test_gophers_collections_are_laid_card_by_card_in_a_bounded_table() -> None:
    table = gophers_enc.commands()
    enc = rl.encoding_for("gophers", 4, get_game("gophers").options_type())
    assert enc.actions.size == len(table) == len(set(table))
    adds = [c for c in table if isinstance(c, (Add, Subtract))]
    assert len(adds) == 60  # every supply face, added or subtracted
