"""Scenario tests of the Gophers rules: hand-built positions with known answers.

Each test is named after the rule it checks; the rule text is
``/docs/rules/gophers.md`` (and the seed text it cites).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import attrs
import pytest

from meeple.engine import Code, Command, Event, IllegalCommand, Rng
from meeple.games.gophers import GAME, GophersOptions, Phase, State, Turn, Variant
from meeple.games.gophers.commands import Add, Collect, Dig, Move, Pass, Place, Roll, Subtract, TakeGift
from meeple.games.gophers.data import HOLES, MAX_EXTRA_MOVES, SPREADS, Card, Spread, card, sort_cards
from meeple.games.gophers.events import BasketRedeemed, BasketsTaken, CardDrawn, GiftOffered, Moved
from meeple.games.gophers.rules import pile_score, score
from meeple.games.gophers.state import Cards, Table
from meeple.games.gophers.walk import walks


class ScriptedDie(Rng):
    """An Rng whose die shows the given faces, in order (and fails if asked for more)."""

    def __init__(self, faces: Iterable[int] = ()) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def below(self, n: int) -> int:
        if not self.faces:
            raise AssertionError("the scenario rolled the die more often than scripted")
        return self.faces.pop(0) - 1


def cards(names: str | Sequence[str]) -> tuple[Card, ...]:
    """Cards from short names: ``cards("A5 B7 D")``."""
    if isinstance(names, str):
        names = names.split()
    return sort_cards([card(n) for n in names])


TURN_FIELDS = {a.name for a in attrs.fields(Turn)}
CARDS_FIELDS = {a.name for a in attrs.fields(Cards)}
TABLE_FIELDS = {a.name for a in attrs.fields(Table)}


def make(
    positions: Sequence[int],
    hands: Sequence[str] | None = None,
    *,
    variant: str = "standard",
    spread: int = 1,
    phase: Phase = Phase.START,
    current: int = 0,
    deck: str = "",
    options: dict[str, Any] | None = None,
    **fields: Any,
) -> State:
    """A state in play on ``spread`` with pawns at ``positions`` and the given hands.

    Any field of the state, its turn, its cards or its table may be given
    among ``fields`` too (``roll``, ``collectors``, ``plus``, ``bank``, ``seen``...).
    """
    n = len(positions)
    hands = hands if hands is not None else [""] * n
    opts = GophersOptions(Variant(variant), **(options or {}))
    held = tuple(cards(h) for h in hands)
    drawn = tuple(card(c) for c in deck.split())
    turn = Turn(**{k: fields.pop(k) for k in list(fields) if k in TURN_FIELDS})
    dealt = {"hands": held, "seen": tuple((0,) * len(h) for h in held), "deck": drawn, "deck_seen": (0,) * len(drawn)}
    dealt.update({k: fields.pop(k) for k in list(fields) if k in CARDS_FIELDS})
    table = {"plus": ((),) * n, "minus": ((),) * n, "baskets": tuple(range(n)),
             "own_digs": (1 if variant == "beginner" else 0,) * n}
    table.update({k: fields.pop(k) for k in list(fields) if k in TABLE_FIELDS})
    table.setdefault("scores", tuple(pile_score(variant == "beginner", p, m) for p, m in zip(table["plus"], table["minus"])))
    base: dict[str, Any] = dict(seats=n, options=opts, phase=phase, spread=spread, positions=tuple(positions),
                                current=current, cards=Cards(**dealt), table=Table(**table), turn=turn)
    base.update(fields)
    return State(**base)


def play(state: State, seat: int, command: Command, faces: Iterable[int] = ()) -> tuple[State, tuple[Event, ...]]:
    """Decide ``command`` with a scripted die, fold the events, and check every face was used."""
    rng = ScriptedDie(faces)
    events = GAME.decide(state, seat, command, rng)
    assert not rng.faces, f"scripted faces left over: {rng.faces}"
    for e in events:
        state = GAME.evolve(state, e)
    return state, events


def kinds_of(events: Iterable[Event]) -> list[str]:
    """The tags of ``events``, in order."""
    return [type(e).tag for e in events]


def legal(state: State, seat: int) -> list[Command]:
    """The legal commands of ``seat`` as a list."""
    return list(GAME.legal_commands(state, seat))


def lay(state: State, seat: int, plus: str = "", minus: str = "") -> tuple[State, tuple[Event, ...]]:
    """Lay ``plus`` (added) and ``minus`` (subtracted) card by card in the canonical order, then collect.

    Every step must be among the legal commands.
    """
    steps = sorted([(card(c), False) for c in plus.split()] + [(card(c), True) for c in minus.split()],
                   key=lambda cs: (cs[0].key, cs[1]))
    events: tuple[Event, ...] = ()
    for c, sub in steps:
        cmd: Command = Subtract(repr(c)) if sub else Add(repr(c))
        assert cmd in legal(state, seat), f"{cmd} is not legal: {legal(state, seat)}"
        state, more = play(state, seat, cmd)
        events += more
    assert Collect() in legal(state, seat)
    state, more = play(state, seat, Collect())
    return state, events + more


def collections(state: State, seat: int) -> set[tuple[tuple[Card, ...], tuple[Card, ...]]]:
    """Every whole collection ``seat`` can make, found by walking the legal steps to each ``Collect``."""
    found: set[tuple[tuple[Card, ...], tuple[Card, ...]]] = set()

    def walk(s: State) -> None:
        for cmd in legal(s, seat):
            if isinstance(cmd, Collect):
                found.add((s.turn.added, s.turn.subtracted))
            elif isinstance(cmd, (Add, Subtract)):
                walk(play(s, seat, cmd)[0])

    walk(state)
    return found


# -- set-up -------------------------------------------------------------------------------


def test_setup_deals_six_cards_then_youngest_places_first_then_a_die_opens_the_book() -> None:
    import meeple

    m = meeple.Match.start("gophers", seats=3, seed=11)
    assert [len(h) for h in m.state.hands] == [6, 6, 6]
    assert len(m.state.deck) == 67 - 18
    assert m.to_act == (0,)
    for seat, hole in ((0, 4), (1, 9), (2, 14)):
        assert m.to_act == (seat,)
        m.play(seat, Place(hole))
    assert m.state.positions == (4, 9, 14)
    assert 1 <= m.state.spread <= 6
    assert m.state.phase is Phase.START and m.to_act == (0,)


def test_pawns_may_not_share_a_hole_at_setup() -> None:
    state = make([7, -1], phase=Phase.PLACE, current=1)
    assert Place(7) not in legal(state, 1)
    with pytest.raises(IllegalCommand):
        play(state, 1, Place(7))


# -- walking ------------------------------------------------------------------------------


def test_walk_moves_exactly_the_rolled_number_of_steps_along_tunnels() -> None:
    state = make([0, 19], phase=Phase.MOVE, roll=2)
    assert {c.dest for c in legal(state, 0) if isinstance(c, Move)} == {2, 6, 10}


def test_walk_never_steps_back_over_a_hole_already_visited() -> None:
    # hole 4 of spread 1 is a dead end: 4-3-2 is the only 2-step walk (no 4-3-4)
    state = make([4, 19], phase=Phase.MOVE, roll=2)
    assert [c for c in legal(state, 0) if isinstance(c, Move)] == [Move(2)]


def test_jump_over_adjacent_pawns_counts_as_one_step() -> None:
    state = make([0, 1, 2], phase=Phase.MOVE, roll=1)
    moves = {(c.dest, c.jumped) for c in legal(state, 0) if isinstance(c, Move)}
    assert moves == {(5, ()), (6, (1,)), (3, (1, 2)), (7, (1, 2))}


def test_a_move_names_the_jumped_seats_as_bits() -> None:
    state = make([0, 1, 2], phase=Phase.MOVE, roll=1)
    assert Move(7, 0b110) in legal(state, 0) and Move(7, 0b110).jumped == (1, 2)
    for wrong in (Move(7, 0b10), Move(7, -1), Move(7, 0b1110)):
        with pytest.raises(IllegalCommand):
            play(state, 0, wrong)
    _, events = play(state, 0, Move(7, 0b110))
    assert events[0] == Moved(0, 7, (1, 2)), "the event lists the jumped seats"


def test_walk_never_ends_on_an_occupied_hole() -> None:
    state = make([0, 1, 2], phase=Phase.MOVE, roll=1)
    with pytest.raises(IllegalCommand):
        play(state, 0, Move(1))


def test_longest_walk_is_taken_when_no_walk_of_the_rolled_length_exists() -> None:
    line = Spread(9, frozenset({(0, 1), (1, 2)}), SPREADS[0].labels,
                  ((1,), (0, 2), (1,), *((),) * (HOLES - 3)))
    assert walks(line, 0, 5, {}) == {(2, ())}
    assert walks(line, 0, 5, {1: 1, 2: 2}) == {(0, ())}


def test_walk_through_a_wall_is_refused() -> None:
    # holes 6 and 7 are neighbours on the grid but a wall separates them on spread 1
    state = make([6, 19], phase=Phase.MOVE, roll=1)
    with pytest.raises(IllegalCommand) as err:
        play(state, 0, Move(7))
    assert err.value.code is Code.RULE


# -- collecting ---------------------------------------------------------------------------


def test_collect_with_one_card_of_the_exact_value() -> None:
    state = make([8, 19], ["A4 B4", ""], phase=Phase.COLLECT, collectors=(0,))
    assert legal(state, 0) == [Add("A4"), Pass()]
    state, _ = lay(state, 0, "A4")
    assert state.plus[0] == cards("A4") and state.hands[0] == cards("B4")


def test_supply_is_collected_with_cards_of_its_own_kind_only() -> None:
    state = make([8, 19], ["A1 A3 B4", ""], phase=Phase.COLLECT, collectors=(0,))
    assert collections(state, 0) == {(cards("A1 A3"), ())}
    with pytest.raises(IllegalCommand, match="takes acorn only"):
        play(state, 0, Add("B4"))


def test_signed_combination_adds_and_subtracts_cards() -> None:
    state = make([8, 19], ["A2 A6", ""], phase=Phase.COLLECT, collectors=(0,))
    assert legal(state, 0) == [Subtract("A2"), Pass()]
    state, _ = lay(state, 0, "A6", "A2")
    assert state.plus[0] == cards("A6"), "added cards go to the face-up pile"
    assert state.minus[0] == cards("A2"), "subtracted cards go to the face-down pile"
    assert score(state, 0) == 4


def test_store_takes_any_kind_and_a_combination_may_need_three_cards() -> None:
    # S12 at hole 16: 10 + 8 - 6 is the only way with this hand
    state = make([16, 19], ["A10 B6 W8", ""], phase=Phase.COLLECT, collectors=(0,))
    assert collections(state, 0) == {(cards("A10 W8"), cards("B6"))}


def test_combination_of_four_cards_is_allowed() -> None:
    state = make([16, 19], ["A1 A2 B4 W5", ""], phase=Phase.COLLECT, collectors=(0,))
    assert (cards("A1 A2 B4 W5"), ()) in collections(state, 0)


def test_simplified_rules_use_addition_only() -> None:
    state = make([8, 19], ["A2 A6", ""], variant="simplified", phase=Phase.COLLECT, collectors=(0,))
    assert legal(state, 0) == [Pass()]
    with pytest.raises(IllegalCommand, match="addition only"):
        play(state, 0, Subtract("A2"))


def test_a_value_may_be_added_and_subtracted_in_one_collection() -> None:
    # A4 + A5 - A5 = 4: it shrinks the hand by three cards, which drives the end
    # of the game (S "Окончание игры"), so it is a collection of its own
    state = make([8, 19], ["A4 A5 A5 B3", ""], phase=Phase.COLLECT, collectors=(0,))
    assert collections(state, 0) == {(cards("A4"), ()), (cards("A4 A5"), cards("A5"))}
    state, _ = lay(state, 0, "A4 A5", "A5")
    assert state.hands[0] == cards("B3") and state.plus[0] == cards("A4 A5") and state.minus[0] == cards("A5")
    assert score(state, 0) == 4


def test_collect_refuses_cards_not_in_hand_and_cards_out_of_order() -> None:
    state = make([8, 19], ["A1 A3 A4", ""], phase=Phase.COLLECT, collectors=(0,))
    with pytest.raises(IllegalCommand) as err:
        play(state, 0, Add("A5"))
    assert err.value.code is Code.NOT_IN_HAND
    state, _ = play(state, 0, Add("A4"))
    with pytest.raises(IllegalCommand, match="lay cards in order") as err:
        play(state, 0, Add("A1"))
    assert err.value.code is Code.RULE


def test_a_card_that_leaves_the_count_out_of_reach_is_refused() -> None:
    state = make([8, 19], ["A1 A3 A9", ""], phase=Phase.COLLECT, collectors=(0,))
    assert legal(state, 0) == [Add("A1"), Pass()]
    with pytest.raises(IllegalCommand, match="can no longer be made"):
        play(state, 0, Add("A9"))


def test_collect_needs_the_exact_count_and_pass_comes_before_the_first_card() -> None:
    state = make([8, 19], ["A1 A3", ""], phase=Phase.COLLECT, collectors=(0,))
    state, _ = play(state, 0, Add("A1"))
    assert legal(state, 0) == [Add("A3")], "once a card is laid the collection is finished"
    with pytest.raises(IllegalCommand, match="make 1; the hole needs exactly 4"):
        play(state, 0, Collect())
    with pytest.raises(IllegalCommand, match="finish the collection"):
        play(state, 0, Pass())


def test_unproductive_turn_draws_one_card() -> None:
    state = make([7, 19], ["B1", ""], phase=Phase.MOVE, roll=1, deck="W5 A1")
    state, events = play(state, 0, Move(8))  # A4, but no acorns in hand: seat 0 is asked all the same
    assert state.phase is Phase.COLLECT and legal(state, 0) == [Pass()]
    state, events = play(state, 0, Pass())
    assert "card_drawn" in kinds_of(events)
    assert state.hands[0] == cards("B1 W5") and state.deck == cards("A1")
    assert state.current == 1 and state.phase is Phase.START


def test_passing_makes_the_turn_unproductive() -> None:
    state = make([8, 19], ["A4", ""], phase=Phase.COLLECT, collectors=(0,), deck="W5 W6")
    state, events = play(state, 0, Pass())
    assert kinds_of(events) == ["passed", "card_drawn", "turn_ended"]


def test_an_unproductive_turn_draws_whatever_the_size_of_the_hand() -> None:
    # S "Сбор припасов": the mover who did not collect "берёт на руки одну карту"; no limit
    big = "B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 W1 W2 W3 W4"
    state = make([7, 19], [big, ""], phase=Phase.MOVE, roll=1, deck="W5")
    state, _ = play(state, 0, Move(8))
    state, events = play(state, 0, Pass())
    assert "card_drawn" in kinds_of(events) and len(state.hands[0]) == 15


def test_a_big_hand_lists_one_command_per_card_that_can_be_laid() -> None:
    # a 30-card hand at a store: tens of thousands of whole collections, but the
    # legal commands are the cards that may come next (at most two per face)
    every = " ".join(f"{k}{v}" for k in "ABW" for v in range(1, 11))
    state = make([16, 19], [every, ""], phase=Phase.COLLECT, collectors=(0,))
    got = legal(state, 0)
    assert Pass() in got and len(got) <= 2 * 30 + 1
    assert Add("A10") in got and Subtract("A1") in got


def test_productive_turn_draws_no_card() -> None:
    state = make([7, 19], ["A4", ""], phase=Phase.MOVE, roll=1, deck="W5")
    state, _ = play(state, 0, Move(8))
    state, events = lay(state, 0, "A4")
    assert "card_drawn" not in kinds_of(events) and state.deck == cards("W5")


# -- portals and the book -----------------------------------------------------------------


def test_portal_rolls_again_and_turns_the_book_then_everybody_may_collect() -> None:
    # seat 0 walks 4 -> 3 (portal on spread 1), rolls 4: spread 4, where hole 3 is W9
    # and seat 1's hole 2 is W11
    state = make([4, 2], ["W9", "W5 W6"], phase=Phase.MOVE, roll=1, deck="A1")
    state, events = play(state, 0, Move(3), faces=[4])
    assert kinds_of(events) == ["moved", "book_rolled", "collection_opened"]
    assert state.spread == 4 and state.collectors == (0, 1)
    state, _ = lay(state, 0, "W9")
    assert state.collectors == (1,)
    state, _ = lay(state, 1, "W5 W6")
    assert state.phase is Phase.START and state.current == 1
    assert score(state, 0) == 9 and score(state, 1) == 11


def test_portal_roll_of_the_open_spread_changes_nothing() -> None:
    state = make([4, 2], ["W9", "W5 W6"], phase=Phase.MOVE, roll=1, deck="A1 A2")
    state, events = play(state, 0, Move(3), faces=[1])
    assert state.spread == 1 and not state.turn.turned
    assert kinds_of(events) == ["moved", "book_rolled", "card_drawn", "turn_ended"]


def test_portals_chain_and_supplies_are_collected_once_at_the_end() -> None:
    # hole 1 is a portal on spreads 2 and 4; on spread 6 it is A6
    state = make([0, 19], ["A6", ""], spread=2, phase=Phase.MOVE, roll=1)
    state, events = play(state, 0, Move(1), faces=[4, 6])
    assert kinds_of(events) == ["moved", "book_rolled", "book_rolled", "collection_opened"]
    assert state.spread == 6 and state.turn.book_rolls == 2
    assert state.collectors == (0,)


def test_nobody_else_collects_without_a_turn_of_the_book() -> None:
    state = make([7, 8], ["A4", "A4"], phase=Phase.MOVE, roll=2, deck="B1 B2")
    state, _ = play(state, 0, Move(14, 0b10))  # A5: seat 0 cannot collect; seat 1 sits on A4
    assert state.collectors == (0,), "the mover is asked (it cannot collect, but nobody may know)"
    state, _ = play(state, 0, Pass())
    assert state.phase is Phase.START and state.current == 1


# -- dig cards --------------------------------------------------------------------------------


def test_dig_card_before_rolling_turns_the_book() -> None:
    # seat 0 on hole 14: A5 on spread 1, B7 on spread 2
    state = make([14, 0], ["B7 D", ""])
    assert legal(state, 0) == [Roll(), Dig()]
    state, events = play(state, 0, Dig(), faces=[2])
    assert kinds_of(events) == ["dig_played", "book_rolled", "collection_opened"]
    assert state.spread == 2 and state.hands[0] == cards("B7")
    assert state.positions[0] == 14, "a dig card replaces the walk"


def test_dig_card_after_rolling_instead_of_walking() -> None:
    state = make([14, 0], ["B7 D", ""], phase=Phase.MOVE, roll=3)
    assert Dig() in legal(state, 0)
    state, _ = play(state, 0, Dig(), faces=[2])
    assert state.spread == 2 and state.positions[0] == 14 and state.collectors == (0,)


def test_dig_roll_of_the_open_spread_leaves_the_book_and_the_mover_may_collect_here() -> None:
    state = make([14, 0], ["A5 D", ""])
    state, _events = play(state, 0, Dig(), faces=[1])
    assert state.spread == 1 and state.collectors == (0,)


def test_dig_needs_a_dig_card() -> None:
    state = make([14, 0], ["A5", ""])
    assert legal(state, 0) == [Roll()]
    with pytest.raises(IllegalCommand) as err:
        play(state, 0, Dig())
    assert err.value.code is Code.NOT_IN_HAND


# -- gifts ------------------------------------------------------------------------------------


def test_gift_shows_three_cards_keeps_one_and_returns_two_to_the_bottom() -> None:
    state = make([1, 19], ["", ""], phase=Phase.MOVE, roll=1, deck="A7 B3 W9 A1 B2")
    state, events = play(state, 0, Move(2))
    assert state.phase is Phase.GIFT and state.turn.offer == (card("A7"), card("B3"), card("W9"))
    assert legal(state, 0) == [TakeGift("A7"), TakeGift("B3"), TakeGift("W9")]
    state, events = play(state, 0, TakeGift("W9"))
    assert state.plus[0] == cards("W9") and score(state, 0) == 9
    assert state.deck == (card("A1"), card("B2"), card("A7"), card("B3"))
    assert "card_drawn" not in kinds_of(events), "a gift makes the turn productive"


def test_gift_dig_card_is_used_at_once_to_turn_the_book() -> None:
    # hole 2: gift on spread 1, W11 on spread 4
    state = make([1, 19], ["W5 W6", ""], phase=Phase.MOVE, roll=1, deck="D B3 W9 A1")
    state, _ = play(state, 0, Move(2))
    state, events = play(state, 0, TakeGift("D"), faces=[4])
    assert kinds_of(events)[:3] == ["gift_taken", "dig_played", "book_rolled"]
    assert state.spread == 4 and state.collectors == (0,)
    assert card("D") not in state.hands[0] and not state.plus[0]


def test_gift_cards_are_hidden_from_other_seats() -> None:
    state = make([1, 19], ["", ""], phase=Phase.MOVE, roll=1, deck="A7 B3 W9 A1")
    state, events = play(state, 0, Move(2))
    offered = next(e for e in events if isinstance(e, GiftOffered))
    assert GAME.redact(offered, 1) == GiftOffered(0, None)
    assert GAME.redact(offered, 0) == offered
    assert GAME.view(state, 1).gift_offer == (None, None, None)
    assert GAME.view(state, 0).gift_offer == offered.cards


# -- baskets (advanced rules) ----------------------------------------------------------------


def test_jumping_on_a_productive_turn_takes_the_jumped_players_basket() -> None:
    state = make([0, 1], ["B8", ""], variant="advanced", phase=Phase.MOVE, roll=1)
    state, _ = play(state, 0, Move(6, 0b10))  # B8
    state, events = lay(state, 0, "B8")
    assert BasketsTaken(0, 1, (1,)) in events and state.baskets == (0, 0)


def test_jumping_on_an_unproductive_turn_takes_no_basket() -> None:
    state = make([0, 1], ["", ""], variant="advanced", phase=Phase.MOVE, roll=1, deck="A1")
    state, events = play(state, 0, Move(6, 0b10))
    assert state.baskets == (0, 1) and "baskets_taken" not in kinds_of(events)


def test_standard_rules_have_no_baskets() -> None:
    state = make([0, 1], ["B8", ""], phase=Phase.MOVE, roll=1)
    state, _ = play(state, 0, Move(6, 0b10))
    state, events = lay(state, 0, "B8")
    assert "baskets_taken" not in kinds_of(events) and state.baskets == (0, 1)


def test_held_baskets_pass_on_to_whoever_jumps_the_holder() -> None:
    # seat 0 holds seat 1's basket; seat 2 jumps seat 0 and takes both
    state = make([1, 19, 0], ["", "", "B8"], variant="advanced", phase=Phase.MOVE, roll=1, current=2,
                 baskets=(0, 0, 2))
    state, _ = play(state, 2, Move(6, 0b1))
    state, events = lay(state, 2, "B8")
    assert BasketsTaken(2, 0, (0, 1)) in events and state.baskets == (2, 2, 2)


def test_owner_redeems_the_basket_with_the_supplies_of_the_next_productive_turn() -> None:
    state = make([19, 7], ["", "A4"], variant="advanced", phase=Phase.MOVE, roll=1, current=1,
                 baskets=(0, 0))
    state, _ = play(state, 1, Move(8))
    state, events = lay(state, 1, "A4")
    assert BasketRedeemed(1, 0, cards("A4"), ()) in events
    assert state.baskets == (0, 1)
    assert state.plus == (cards("A4"), ()) and score(state, 0) == 4 and score(state, 1) == 0


def test_redemption_pays_the_subtracted_cards_too() -> None:
    state = make([19, 7], ["", "A2 A6"], variant="advanced", phase=Phase.MOVE, roll=1, current=1,
                 baskets=(0, 0))
    state, _ = play(state, 1, Move(8))
    state, _ = lay(state, 1, "A6", "A2")
    assert state.plus[0] == cards("A6") and state.minus[0] == cards("A2") and score(state, 0) == 4


def test_jumping_the_holder_wins_your_basket_back_without_paying() -> None:
    state = make([1, 0], ["", "B8"], variant="advanced", phase=Phase.MOVE, roll=1, current=1,
                 baskets=(0, 0))
    state, _ = play(state, 1, Move(6, 0b1))
    state, events = lay(state, 1, "B8")
    assert "basket_redeemed" not in kinds_of(events)
    assert state.baskets == (1, 1) and score(state, 1) == 8


def test_unproductive_turn_leaves_an_unredeemed_basket_with_its_holder() -> None:
    state = make([19, 7], ["", ""], variant="advanced", phase=Phase.MOVE, roll=1, current=1,
                 baskets=(0, 0), deck="B1")
    state, _ = play(state, 1, Move(8))
    assert state.baskets == (0, 0)


# -- beginner rules (5+) ---------------------------------------------------------------------------


def test_beginner_takes_cards_from_the_open_bank_with_change() -> None:
    state = make([8, 19], variant="beginner", phase=Phase.COLLECT, collectors=(0,), bank=cards("A5 B4"),
                 plus=(cards("A1"), ()))
    assert collections(state, 0) == {(cards("A5"), cards("A1"))}
    state, _ = lay(state, 0, "A5", "A1")
    assert state.bank == cards("A1 B4") and state.plus[0] == cards("A5")


def test_beginner_takes_two_or_three_cards_summing_to_the_count() -> None:
    state = make([8, 19], variant="beginner", phase=Phase.COLLECT, collectors=(0,), bank=cards("A1 A1 A2 A3"))
    assert collections(state, 0) == {(cards("A1 A3"), ()), (cards("A1 A1 A2"), ())}


def test_beginner_store_lets_the_player_choose_the_kind() -> None:
    state = make([16, 19], variant="beginner", phase=Phase.COLLECT, collectors=(0,),
                 bank=cards("A10 A2 B6 B6 W3"))
    # the lone W3 is the bank's short wheat: it pays what it holds (the full bank's short till)
    assert collections(state, 0) == {(cards("A2 A10"), ()), (cards("B6 B6"), ()), (cards("W3"), ())}
    harder = make([16, 19], variant="beginner", phase=Phase.COLLECT, collectors=(0,),
                  bank=cards("A10 A2 B6 B6 W3"), options={"bank": "harder"})
    assert collections(harder, 0) == {(cards("A2 A10"), ()), (cards("B6 B6"), ())}
    state, _ = play(state, 0, Add("A2"))
    with pytest.raises(IllegalCommand, match="one kind"):
        play(state, 0, Add("W3"))


def test_beginner_gift_gives_an_extra_move_instead_of_cards() -> None:
    state = make([1, 19], variant="beginner", phase=Phase.MOVE, roll=1, bank=cards("A1 B1 W1"))
    state, events = play(state, 0, Move(2))
    assert kinds_of(events) == ["moved", "extra_move"]
    assert state.phase is Phase.START and state.current == 0 and state.plus[0] == ()
    state, _ = play(state, 0, Roll(), faces=[1])
    assert state.phase is Phase.MOVE and state.roll == 1


def test_beginner_a_second_gift_in_the_same_turn_gives_another_move() -> None:
    # S "Начальные правила": "Если фишка приходит на подарок, то игрок не получает
    # карты, но делает ещё один ход" -- every time; holes 2 and 10 are gifts on spread 1
    state = make([1, 19], variant="beginner", phase=Phase.MOVE, roll=1, bank=cards("A2 B2 W2"))
    state, events = play(state, 0, Move(2))
    assert kinds_of(events) == ["moved", "extra_move"]
    state, _ = play(state, 0, Roll(), faces=[4])
    state, events = play(state, 0, Move(10))
    assert kinds_of(events) == ["moved", "extra_move"]
    assert state.phase is Phase.START and state.current == 0 and state.turn.extra_moves == 2


def test_beginner_gift_moves_are_capped_like_portal_chains() -> None:
    state = make([1, 19], variant="beginner", phase=Phase.MOVE, roll=1, bank=cards("A2 B2 W2"),
                 extra_moves=MAX_EXTRA_MOVES)
    state, events = play(state, 0, Move(2))
    assert "extra_move" not in kinds_of(events) and state.current == 1, "the capped gift acts as an empty hole"


def test_beginner_each_player_owns_one_dig_card() -> None:
    state = make([14, 0], variant="beginner", bank=cards("A1 B1 W1"))
    assert legal(state, 0) == [Roll(), Dig()]
    state, _ = play(state, 0, Dig(), faces=[1])
    assert state.own_digs == (0, 1)
    state = attrs.evolve(state, phase=Phase.START, current=0, collectors=(), turn=Turn())
    assert legal(state, 0) == [Roll()]


def test_beginner_score_is_the_total_of_the_scarcest_kind() -> None:
    state = make([0, 19], variant="beginner", plus=(cards("A10 A5 B3 W9"), cards("A1 B1 W1")))
    assert score(state, 0) == 3 and score(state, 1) == 1


def test_beginner_game_ends_when_the_bank_runs_out_of_a_kind() -> None:
    state = make([8, 19], variant="beginner", phase=Phase.COLLECT, collectors=(0,), bank=cards("A4 B1 W1"),
                 plus=(cards("B5 W6"), cards("A9 B9 W9")), options={"end": "turn"})
    state, _events = lay(state, 0, "A4")
    assert state.phase is Phase.OVER and "acorn" in state.end_reason
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores == (4, 9) and outcome.winners == (1,)


def test_the_default_beginner_bank_lays_out_all_sixty_supply_cards() -> None:
    # S "Начальные правила": "Карты не раздаются игрокам на руки, они доступны всем игрокам ... как в кассе";
    # taking values out is the seed's harder game, the bank="harder" preset (48 cards)
    full = GAME.initial_state(2, GophersOptions(Variant.BEGINNER))
    for seed in range(2):
        import meeple

        bank = meeple.Match.start("gophers", seats=2, seed=seed, options={"variant": "beginner"}).state.bank
        assert len(bank) == 60 and {c.value for c in bank} == set(range(1, 11))
        harder = meeple.Match.start("gophers", seats=2, seed=seed, options={"variant": "beginner", "bank": "harder"})
        assert len(harder.state.bank) == 48 and card("A1") not in harder.state.bank
    assert full.options.bank == "full"


def test_beginner_a_lone_card_no_hole_asks_for_leaves_the_bank_and_the_game_ends() -> None:
    # the last acorn is an A1, and no hole asks for one acorn: at the A4 of hole 8 the short till pays
    # the A1 (all it holds of acorns, under the count), the bank runs out of acorns and the game ends
    state = make([8, 19], variant="beginner", phase=Phase.COLLECT, collectors=(0,), bank=cards("A1 B1 W1"),
                 plus=(cards("B5 W6"), cards("A9 B9 W9")), options={"end": "turn"})
    assert legal(state, 0) == [Add("A1"), Pass()]
    state, _ = play(state, 0, Add("A1"))
    assert legal(state, 0) == [Collect()]
    state, events = play(state, 0, Collect())
    assert "collected" in kinds_of(events) and state.phase is Phase.OVER and "acorn" in state.end_reason
    assert state.plus[0] == cards("A1 B5 W6")


def test_beginner_the_short_till_pays_only_when_the_kind_left_totals_less_than_the_count() -> None:
    # A1 A3 total 4: the A4 is made exactly, so no short collection; A1 A1 A1 A2 is four cards: too many
    state = make([8, 19], variant="beginner", phase=Phase.COLLECT, collectors=(0,), bank=cards("A1 A3"))
    assert collections(state, 0) == {(cards("A1 A3"), ())}
    state = make([8, 19], variant="beginner", phase=Phase.COLLECT, collectors=(0,), bank=cards("A1 A1 A1"),
                 plus=(cards("A9"), ()))
    assert collections(state, 0) == {(cards("A1 A1 A1"), ())}, "3 < 4: all three acorns"
    with pytest.raises(IllegalCommand):
        play(make([8, 19], variant="beginner", phase=Phase.COLLECT, collectors=(0,), bank=cards("A1 B1"),
                  options={"bank": "harder"}), 0, Add("A1"))


def test_beginner_tie_is_broken_by_the_larger_total() -> None:
    state = make([0, 19], variant="beginner", phase=Phase.OVER, plus=(cards("A3 B3 W3 W9"), cards("A3 B3 W3")))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores == (3, 3) and outcome.winners == (0,)


# -- the end --------------------------------------------------------------------------------


def test_game_ends_when_the_deck_is_empty_and_a_hand_holds_three_or_fewer_cards() -> None:
    state = make([8, 19], ["A4 B1 B2 B3", "B1 B2 B3 B4 B5"], phase=Phase.COLLECT, collectors=(0,),
                 options={"end": "turn"})
    state, events = lay(state, 0, "A4")
    assert kinds_of(events)[-1] == "game_ended" and state.phase is Phase.OVER
    assert GAME.to_act(state) == ()


def test_end_round_checks_the_end_only_after_the_last_seat_so_every_seat_has_as_many_turns() -> None:
    # end="round" (designed, docs/rules/gophers.md "Seat balance"): the deck is empty and seat 0 ends its
    # turn with three cards, which ends the game at once under end="turn"; under end="round" seat 1
    # still has its turn, and the game ends after it
    hands = ["A4 B1 B2 B3", "B1 B2 B3 B4 B5"]
    literal = make([8, 19], hands, phase=Phase.COLLECT, collectors=(0,), options={"end": "turn"})
    assert lay(literal, 0, "A4")[0].phase is Phase.OVER
    state = make([8, 19], hands, phase=Phase.COLLECT, collectors=(0,))
    assert state.options.end == "round"
    state, events = lay(state, 0, "A4")
    assert "game_ended" not in kinds_of(events) and state.phase is Phase.START and state.current == 1
    state, _ = play(state, 1, Roll(), faces=[1])
    state, _ = play(state, 1, Move(18))  # W10 on spread 1: seat 1 cannot collect
    state, events = play(state, 1, Pass())
    assert kinds_of(events)[-1] == "game_ended" and "seat 0 holds 3 cards" in state.end_reason


def test_game_goes_on_while_the_deck_has_cards() -> None:
    state = make([8, 19], ["A4 B1", "B1"], phase=Phase.COLLECT, collectors=(0,), deck="W1")
    state, _ = lay(state, 0, "A4")
    assert state.phase is Phase.START


def test_game_goes_on_while_every_hand_holds_more_than_three_cards() -> None:
    state = make([8, 19], ["A4 B1 B2 B3 B4", "B1 B2 B3 B4"], phase=Phase.COLLECT, collectors=(0,))
    state, _ = lay(state, 0, "A4")
    assert state.phase is Phase.START


def test_stalled_game_ends_after_twenty_rounds_without_a_productive_turn_or_a_draw() -> None:
    full = "B1 B2 B3 B4 B5"
    state = make([7, 19], [full, full], phase=Phase.MOVE, roll=1, idle=38)
    state, events = play(state, 0, Move(8))
    state, events = play(state, 0, Pass())
    assert state.phase is not Phase.OVER and state.idle == 39
    state = make([7, 19], [full, full], phase=Phase.MOVE, roll=1, idle=39)
    state, events = play(state, 0, Move(8))
    state, events = play(state, 0, Pass())
    assert kinds_of(events)[-1] == "game_ended" and "20 rounds" in state.end_reason


def test_a_stalled_beginner_game_ends_after_a_hundred_rounds() -> None:
    state = make([7, 19], variant="beginner", phase=Phase.MOVE, roll=1, idle=199, bank=cards("A2 B2 W2"),
                 options={"bank": "harder"})
    state, events = play(state, 0, Move(8))  # A4: the bank cannot make it
    assert kinds_of(events)[-1] == "game_ended" and "100 rounds" in state.end_reason


def test_score_is_added_cards_minus_subtracted_and_ties_go_to_fewer_subtracted_points() -> None:
    state = make([0, 19], phase=Phase.OVER, plus=(cards("A10 B5"), cards("A9")), minus=(cards("A6"), ()))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.scores == (9, 9) and outcome.winners == (1,)


def test_equal_score_and_equal_subtractions_share_the_win() -> None:
    state = make([0, 19], phase=Phase.OVER, plus=(cards("A9"), cards("B9")))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0, 1)


# -- what seats may see -------------------------------------------------------------------------


def test_view_hides_other_hands_and_the_deck() -> None:
    state = make([8, 19], ["A4 B1", "W7 W8"], deck="A1 A2 A3")
    v = GAME.view(state, 0)
    assert v.hand == cards("A4 B1") and v.hand_sizes == (2, 2) and v.deck_size == 3
    assert card("W7") not in {c for f in attrs.fields(type(v)) for c in _cards_in(getattr(v, f.name))}
    assert GAME.view(state, None).hand == ()


def test_drawn_card_is_hidden_from_other_seats() -> None:
    e = CardDrawn(0, card("A1"))
    assert GAME.redact(e, 1) == CardDrawn(0, None) and GAME.redact(e, None) == CardDrawn(0, None)
    assert GAME.redact(e, 0) == e


def _cards_in(value: Any) -> list[Card]:
    if isinstance(value, Card):
        return [value]
    if isinstance(value, tuple):
        return [c for v in value for c in _cards_in(v)]
    return []



def test_a_player_may_undo_a_walk_only_if_it_revealed_no_card() -> None:
    import meeple
    from meeple.games.gophers.events import CardDrawn, GiftOffered

    m = meeple.Match.start("gophers", seats=2, seed=5)
    m.play(0, Place(0))
    m.play(1, Place(19))
    m.play(0, Roll())
    assert not m.can_undo(0), "the roll drew randomness"
    for move in [c for c in m.legal(0) if isinstance(c, Move)]:
        events = m.play(0, move)
        revealed = any(isinstance(e, (GiftOffered, CardDrawn)) for e in events)
        assert bool(m.can_undo(0)) == (not revealed and m.rng_counter == m.records[-2].rng)
        m.undo()
    assert GiftOffered.barrier and CardDrawn.barrier and not Move.barrier


def test_determinize_redeals_only_what_the_seat_cannot_see() -> None:
    state = make([1, 19, 7], ["A1 A2", "B1 B2 B3", "W1"], phase=Phase.MOVE, roll=1,
                 deck="A7 B3 W9 A1 B2 W4 W5")
    state, _ = play(state, 0, Move(2))  # the gift at hole 2: seat 0 sees three cards
    for seat in (0, 1, 2, None):
        for k in range(5):
            other = GAME.determinize(state, seat, Rng(k))
            assert GAME.view(other, seat) == GAME.view(state, seat)
            assert sorted(_all(other), key=repr) == sorted(_all(state), key=repr)
    mover = GAME.determinize(state, 0, Rng(1))
    assert mover.turn.offer == state.turn.offer and mover.hands[0] == state.hands[0]
    assert any(GAME.determinize(state, 1, Rng(k)).turn.offer != state.turn.offer for k in range(5))


def _all(state: State) -> list[Card]:
    return [*state.deck, *state.turn.offer, *(c for h in state.hands for c in h)]


def test_a_card_name_that_names_no_card_is_refused() -> None:
    state = make([8, 19], ["A4", ""], phase=Phase.COLLECT, collectors=(0,))
    for name in ("A11", "Z4", "", "a4", "D"):
        with pytest.raises(IllegalCommand) as err:
            play(state, 0, Add(name))
        assert err.value.code is Code.BAD_ARGUMENT, name
    gift = make([1, 19], ["", ""], phase=Phase.MOVE, roll=1, deck="A7 B3 W9")
    gift, _ = play(gift, 0, Move(2))
    with pytest.raises(IllegalCommand, match="names no card"):
        play(gift, 0, TakeGift("B33"))
    with pytest.raises(IllegalCommand, match="not among the gift cards"):
        play(gift, 0, TakeGift("B4"))
