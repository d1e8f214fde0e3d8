"""The designed burrow book and card box keep the properties the rules rely on."""

from __future__ import annotations

from collections import Counter

import pytest

from meeple.games.gophers import GophersOptions, Variant
from meeple.games.gophers.data import (
    BEGINNER_VALUES,
    COLS,
    HOLES,
    SPREADS,
    SUPPLY_KINDS,
    Kind,
    LabelKind,
    Spread,
    beginner_bank,
    supply_cards,
)
from meeple.games.gophers.rules import build_deck


def _reachable(sp: Spread, start: int) -> set[int]:
    seen = {start}
    todo = [start]
    while todo:
        h = todo.pop()
        for n in sp.neighbours[h]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def test_the_book_has_six_spreads_numbered_one_to_six_over_one_set_of_holes() -> None:
    assert [s.number for s in SPREADS] == [1, 2, 3, 4, 5, 6]
    assert all(len(s.labels) == HOLES and len(s.neighbours) == HOLES for s in SPREADS)


@pytest.mark.parametrize("sp", SPREADS, ids=lambda s: f"spread{s.number}")
def test_every_spread_is_one_connected_maze(sp: Spread) -> None:
    assert _reachable(sp, 0) == set(range(HOLES))


@pytest.mark.parametrize("sp", SPREADS, ids=lambda s: f"spread{s.number}")
def test_every_spread_has_portals_gifts_stores_and_each_kind_of_supply(sp: Spread) -> None:
    kinds = Counter(lab.kind for lab in sp.labels)
    assert kinds[LabelKind.PORTAL] >= 1 and kinds[LabelKind.GIFT] >= 1 and kinds[LabelKind.STORE] >= 1
    supplies = {lab.supply for lab in sp.labels if lab.kind is LabelKind.SUPPLY}
    assert supplies == set(SUPPLY_KINDS)


@pytest.mark.parametrize("sp", SPREADS, ids=lambda s: f"spread{s.number}")
def test_tunnels_join_grid_neighbours_only(sp: Spread) -> None:
    for a, b in sp.tunnels:
        ra, ca = divmod(a, COLS)
        rb, cb = divmod(b, COLS)
        assert abs(ra - rb) + abs(ca - cb) == 1


def test_spreads_differ_in_tunnels_and_labels() -> None:
    assert len({s.tunnels for s in SPREADS}) == 6
    assert len({s.labels for s in SPREADS}) == 6


def test_no_hole_is_a_portal_on_every_spread() -> None:
    for h in range(HOLES):
        assert sum(s.labels[h].kind is LabelKind.PORTAL for s in SPREADS) <= 3


def test_every_count_can_be_collected_in_the_simplified_box() -> None:
    # addition of cards 1..7 (two copies each) reaches every printed count
    for sp in SPREADS:
        for lab in sp.labels:
            if lab.kind in (LabelKind.SUPPLY, LabelKind.STORE):
                assert 2 <= lab.count <= 14


def test_the_box_holds_two_of_each_supply_card_and_seven_dig_cards() -> None:
    deck = build_deck(GophersOptions())
    counts = Counter(deck)
    assert len(deck) == 67
    assert sum(1 for c in deck if c.kind is Kind.DIG) == 7
    assert {n for c, n in counts.items() if c.kind is not Kind.DIG} == {2}


def test_simplified_box_removes_two_dig_cards_and_values_8_to_10() -> None:
    deck = build_deck(GophersOptions(Variant.SIMPLIFIED))
    assert sum(1 for c in deck if c.kind is Kind.DIG) == 5
    assert max(c.value for c in deck) == 7 and len(deck) == 42 + 5


def test_removed_values_option_takes_those_cards_out() -> None:
    deck = build_deck(GophersOptions(removed_values=(1, 5)))
    assert not any(c.value in (1, 5) for c in deck if c.kind is not Kind.DIG)


def test_the_harder_beginner_bank_holds_exactly_the_values_some_hole_of_their_kind_asks_for() -> None:
    # so every card left in the bank can be taken alone somewhere, and a kind can run out
    for kind in SUPPLY_KINDS:
        asked = {lab.count for sp in SPREADS for lab in sp.labels
                 if lab.kind is LabelKind.SUPPLY and lab.supply is kind and lab.count <= 10}
        assert set(BEGINNER_VALUES[kind]) == asked, kind
    bank = beginner_bank(bank="harder")
    assert len(bank) == 2 * sum(len(v) for v in BEGINNER_VALUES.values()) == 48
    assert beginner_bank((2, 9), "harder") == tuple(c for c in bank if c.value not in (2, 9))


def test_the_default_beginner_bank_holds_all_sixty_supply_cards() -> None:
    # S "Начальные правила": the cards are not dealt, all of them lie open "как в кассе"
    bank = beginner_bank()
    assert len(bank) == 60 and bank == supply_cards()
    assert beginner_bank((2, 9)) == tuple(c for c in bank if c.value not in (2, 9))


def test_every_harder_beginner_bank_card_can_be_taken_on_its_own_at_some_hole() -> None:
    import meeple
    from meeple.games.gophers.combos import can_collect_bank
    from meeple.games.gophers.data import Card

    state = meeple.Match.start("gophers", seats=2, seed=1, options={"variant": "beginner", "bank": "harder"}).state
    for c in state.bank:
        holes = [lab for sp in SPREADS for lab in sp.labels if lab.kind is LabelKind.SUPPLY and lab.supply is c.kind]
        assert any(can_collect_bank((c,), (), (c.kind,), lab.count) for lab in holes), c
    assert not can_collect_bank((Card(Kind.ACORN, 1),), (), (Kind.ACORN,), 2), "a lone 1 could not leave the bank"
