"""The heuristic bot: its play is pinned, and its quick readings of the book agree with the plain ones."""

from __future__ import annotations

import hashlib

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.engine import ENGINE, Match
from meeple.games.gophers import GAME, Variant
from meeple.games.gophers.bot import FIXED_WORTH, HOLES_READ, TAKES, HeuristicBot
from meeple.games.gophers.combos import can_collect_hand
from meeple.games.gophers.commands import Place
from meeple.games.gophers.data import DIG, FACES, HOLES, SPREADS, Card, LabelKind, sort_cards
from meeple.games.gophers.rules import supply_of

#: sha256 of the commands heuristic bots choose in the matches of :func:`_commands` (seeds 0..3), per
#: rule set and seat count. A change to the bot that changes its play changes these; one that only
#: makes it quicker must not. (Measure the strength of a new bot with benchmarks/gophers_bots.py.)
PLAY = {
    ("standard", 2): "554d71f85bb00a7e7e24344023467403c23874b7232a1e3e05ea6b8ccc938aee",
    ("standard", 3): "f741a58aec547f79c1a6390162fbb61923b255e29fbe613407d91c97efe0dc65",
    ("standard", 4): "09b354bdb3085ae5cef6db1b7256d3253c210308e5fc74adea3b31369cff072b",
    ("simplified", 2): "a118fd791063b7da42e8ec3e1b33201dae9efb34c2c2a5df6ae366494d5cfa6a",
    ("advanced", 3): "f2422bf1c266d1fbfffc90fe98a5988b9cb54dca60cfd1ae911857fa36206daf",
    ("beginner", 2): "a7a53c4a23c2d258a25ab77bde8e15da9dcb41eda2245938c03b805a0641dede",
}


def _commands(variant: str, seats: int, seed: int) -> list[str]:
    m = Match.start(GAME, seats, seed=seed, options=GAME.variant_options(variant))
    bots = [HeuristicBot(seed * 16 + s) for s in range(seats)]
    while m.to_act:
        seat = next(s for s in m.to_act if s != ENGINE)
        command = bots[seat].choose(m.view(seat), m.legal(seat), seat)
        m.play(seat, command)
    return [f"{r.actor}:{r.command!r}" for r in m.records]


@pytest.mark.parametrize(("variant", "seats"), sorted(PLAY))
def test_the_bot_plays_the_pinned_matches(variant: str, seats: int) -> None:
    played = "\n".join(line for seed in range(4) for line in _commands(variant, seats, seed))
    assert hashlib.sha256(played.encode()).hexdigest() == PLAY[variant, seats]


def test_the_book_as_the_bot_reads_it_is_the_book() -> None:
    for sp, holes in zip(SPREADS, HOLES_READ[1:]):
        for lab, (kind, takes, count) in zip(sp.labels, holes):
            assert kind is lab.kind and count == lab.count
            if kind in (LabelKind.SUPPLY, LabelKind.STORE):
                assert TAKES[takes] == supply_of(lab)


_hand = st.lists(st.sampled_from([c for c in FACES if c != DIG]), max_size=10).map(sort_cards)


@settings(max_examples=40, deadline=None)
@given(hand=_hand, variant=st.sampled_from([Variant.STANDARD, Variant.SIMPLIFIED]))
def test_place_offers_count_the_spreads_that_offer_something_at_each_hole(hand: tuple[Card, ...], variant: Variant) -> None:
    bot = HeuristicBot(0)
    m = Match.start(GAME, 2, seed=1, options=GAME.variant_options(variant.value))
    view = m.view(0)
    can = bot._collector(attrs.evolve(view, hand=hand))
    offers = bot._place_offers(can)
    subtract = variant is not Variant.SIMPLIFIED
    for hole in range(HOLES):
        want = 0
        for sp in SPREADS:
            lab = sp.labels[hole]
            if lab.kind in (LabelKind.GIFT, LabelKind.PORTAL):
                want += 1
            elif lab.kind in (LabelKind.SUPPLY, LabelKind.STORE):
                want += can_collect_hand(hand, supply_of(lab), lab.count, subtract)
        assert offers[hole] == want, hole
    assert isinstance(bot.choose(view, [Place(h) for h in range(HOLES)], 0), Place)


def test_the_fixed_worth_of_each_hole_is_what_the_bot_weighs_it_at_whatever_the_hand() -> None:
    bot = HeuristicBot(0)
    view = GAME.view(Match.start(GAME, 2, seed=1).state, 0)
    for number in range(1, len(HOLES_READ)):
        for hole, fixed in zip(HOLES_READ[number], FIXED_WORTH[number], strict=True):
            if hole[0] is LabelKind.SUPPLY or hole[0] is LabelKind.STORE:
                assert fixed is None
                continue
            for can in (lambda takes, count: True, lambda takes, count: False):
                assert fixed == bot._worth(view, False, can, hole)
