"""Scenario tests for Underground Kings, each on a hand-built table, named after its rule.

Sources of the rules: the seed text (shared/seeds/002_9e5a02426a4b16cd.txt),
the public facts (shared/reference/other-games-facts.md, section A) and the
choices documented in docs/rules/kings.md.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import pytest

import meeple
from meeple.engine import ENGINE, Code, Command, Event, IllegalCommand, Rng
from meeple.games.kings import GAME, KingsOptions, MineSlot, Phase, State
from meeple.games.kings.commands import DrawCamp, DrawDeck, Play, Retreat
from meeple.games.kings.data import CARDS, MINE_SIDES, PEOPLES, Mine, People
from meeple.games.kings.events import (
    DrewFromDeck,
    GameEnded,
    MineCaptured,
    MineDeveloped,
    MineTurned,
    Retreated,
    SquadPlayed,
    TurnEnded,
)

ORCS, GOBLINS, DWARVES, GIANTS = People.ORCS, People.GOBLINS, People.DWARVES, People.GIANTS

# mine sides used below (value, defence, depth, overseer)
M_1_1_1 = Mine(1, 1, 1)
M_2_2_2 = Mine(2, 2, 2)
M_2_3_1 = Mine(2, 3, 1)
M_3_3_2 = Mine(3, 3, 2)
M_5_1_3_O = Mine(5, 1, 3, overseer=True)
M_2_1_1_O = Mine(2, 1, 1, overseer=True)
M_5_3_3 = Mine(5, 3, 3)


def card(people: People, strength: int, copy: int = 0) -> int:
    """The id of a squad card: ``copy`` 0 or 1 of ``people``'s ``strength``."""
    cid = PEOPLES.index(people) * 20 + copy * 10 + strength
    assert CARDS[cid].people is people and CARDS[cid].strength == strength
    return cid


def table(
    peoples: Sequence[People] = (ORCS, GOBLINS),
    hands: Sequence[Sequence[int]] = ((), ()),
    mines: Sequence[tuple[Mine, int | None, Sequence[int]]] = (),
    deck: Sequence[int] | None = None,
    camp: Sequence[Sequence[int]] = ((), (), (), ()),
    developed: Sequence[Sequence[Mine]] | None = None,
    turn: int = 0,
    phase: Phase = Phase.PLAY,
    options: KingsOptions | None = None,
) -> State:
    """A position built by hand; mines are (mine side, owner, stack); the deck is the rest unless given."""
    used = {c for h in hands for c in h} | {c for _, _, s in mines for c in s} | {c for p in camp for c in p}
    used |= set(deck or ())

    def mine_card(side: Mine) -> int:
        for c in CARDS:
            if c.mine == side and c.id not in used:
                used.add(c.id)
                return c.id
        raise AssertionError(f"no card left with mine side {side}")

    slots = tuple(MineSlot(i, mine_card(side), owner, tuple(stack)) for i, (side, owner, stack) in enumerate(mines))
    dev = tuple(tuple(mine_card(side) for side in sides) for sides in (developed or [() for _ in peoples]))
    rest = tuple(c.id for c in CARDS if c.id not in used)
    return State(
        seats=len(peoples),
        options=options or KingsOptions(),
        phase=phase,
        peoples=tuple(peoples),
        deck=tuple(deck) if deck is not None else rest,
        hands=tuple(tuple(sorted(h)) for h in hands),
        open_cards=tuple(() for _ in peoples),
        mines=slots,
        developed=dev,
        camp=tuple(tuple(p) for p in camp),
        turn=turn,
        next_number=len(slots),
    )


def act(state: State, seat: int, command: Command) -> tuple[tuple[Event, ...], State]:
    """Decide ``command`` and fold its events, then those of any engine steps it triggers."""
    events = GAME.decide(state, seat, command, Rng(0))
    for e in events:
        state = GAME.evolve(state, e)
    while GAME.to_act(state) == (ENGINE,):
        more = GAME.decide(state, ENGINE, GAME.auto_command(state), Rng(0))
        for e in more:
            state = GAME.evolve(state, e)
        events += more
    return events, state


def refused(state: State, seat: int, command: Command) -> IllegalCommand:
    """Assert that ``command`` is illegal: not listed, and refused by decide."""
    assert command not in GAME.legal_commands(state, seat)
    with pytest.raises(IllegalCommand) as info:
        GAME.decide(state, seat, command, Rng(0))
    return info.value


def slot(state: State, number: int) -> MineSlot:
    found = state.mine(number)
    assert found is not None
    return found


# -- the cards ------------------------------------------------------------------------------


def test_deck_has_80_cards_20_per_people_two_of_each_strength() -> None:
    assert len(CARDS) == 80
    for people in PEOPLES:
        strengths = sorted(c.strength for c in CARDS if c.people is people)
        assert strengths == sorted(list(range(10)) * 2)


def test_every_people_carries_the_same_mine_sides() -> None:
    key = lambda m: (m.value, m.defence, m.depth, m.overseer)  # noqa: E731
    for people in PEOPLES:
        sides = sorted((c.mine for c in CARDS if c.people is people), key=key)
        assert sides == sorted(MINE_SIDES, key=key)


def test_mine_values_follow_the_documented_formula() -> None:
    for m in MINE_SIDES:
        assert m.value == m.depth + m.overseer + (m.depth >= 3) + (m.defence == 3)


def test_an_overseer_sits_only_where_the_top_worker_stays_low() -> None:
    # designed here (docs/rules/kings.md, "The card list"): the workers climb under the ordering rule, so after
    # three or four of them the top is usually 7-9 and few squads of one's own people beat it; an overseer mine
    # is shallow, or a depth-3 mine of defence 1 that its owner takes at once
    for m in MINE_SIDES:
        if m.overseer:
            assert m.depth <= 2 or (m.depth == 3 and m.defence == 1), m.label()
        if m.defence == 3:
            assert m.depth <= 3, m.label()
    assert Mine(5, 1, 3, overseer=True) in MINE_SIDES and Mine(3, 3, 1, overseer=True) in MINE_SIDES


def test_the_deep_overseer_mine_pays_its_designed_value() -> None:
    # designed table: #16 is "5pt def1 dep3+O"; three foreign workers, then the owner's own people on top
    workers = [card(GOBLINS, 1), card(DWARVES, 2), card(GIANTS, 3)]
    st = table(hands=[[card(ORCS, 4)], []], mines=[(M_5_1_3_O, 0, workers)], developed=[[], []])
    events, after = act(st, 0, Play(card(ORCS, 4), 0))
    assert MineDeveloped(0, 0, 5, (*workers, card(ORCS, 4))) in events
    assert GAME.outcome(attrs.evolve(after, phase=Phase.OVER)).scores == (5, 0)  # type: ignore[union-attr]


def test_a_guarded_mine_captured_by_a_handed_squad_costs_its_new_owner_at_the_end() -> None:
    # seed: a mine may be handed to a rival ("уступить сопернику"); an undeveloped mine scores minus its value
    st = table(hands=[[card(GOBLINS, 6)], []], mines=[(Mine(5, 3, 3), None, [card(ORCS, 2), card(DWARVES, 4)])],
               deck=[card(GIANTS, 1), card(GIANTS, 2)])
    events, after = act(st, 0, Play(card(GOBLINS, 6), 0))
    assert any(isinstance(e, MineCaptured) and e.owner == 1 for e in events)
    assert GAME.outcome(attrs.evolve(after, phase=Phase.OVER)).scores == (0, -5)  # type: ignore[union-attr]


def test_mine_sides_have_defence_1_to_3_and_overseer_mines() -> None:
    assert {m.defence for m in MINE_SIDES} == {1, 2, 3}
    assert {m.depth for m in MINE_SIDES} == {1, 2, 3, 4}
    assert 0 < sum(m.overseer for m in MINE_SIDES) < len(MINE_SIDES)


def test_a_mine_side_never_names_a_single_squad() -> None:
    by_side: dict[Mine, set[tuple[People, int]]] = {}
    for c in CARDS:
        by_side.setdefault(c.mine, set()).add((c.people, c.strength))
    for faces in by_side.values():
        assert len({s for _, s in faces}) >= 4


# -- set-up ------------------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_setup_deals_kings_mines_camp_and_six_card_hands(seats: int) -> None:
    m = meeple.Match.start("kings", seats=seats, seed=11)
    st = m.state
    assert len(set(st.peoples)) == seats
    assert len(st.mines) == 4 and all(s.owner is None and not s.stack for s in st.mines)
    assert all(len(h) == 6 for h in st.hands)
    camp_cards = [c for pile in st.camp for c in pile]
    assert len(camp_cards) == 4
    for people, pile in zip(PEOPLES, st.camp):
        assert all(CARDS[c].people is people for c in pile)
    assert len(st.deck) == 80 - 4 - 4 - 6 * seats
    every = sorted([*st.deck, *camp_cards, *(s.card for s in st.mines), *(c for h in st.hands for c in h)])
    assert every == list(range(80))  # unused peoples' cards stay in the deck
    assert m.to_act == (0,) and st.phase is Phase.PLAY


def test_setup_assigns_peoples_at_random() -> None:
    seen = {meeple.Match.start("kings", seats=2, seed=s).state.peoples for s in range(40)}
    assert len(seen) > 6


# -- the ordering rule -------------------------------------------------------------------------


def test_squad_must_be_stronger_than_the_top_squad() -> None:
    st = table(hands=[[card(ORCS, 5), card(ORCS, 6), card(GOBLINS, 4)], []], mines=[(M_5_3_3, None, [card(DWARVES, 5)])])
    assert refused(st, 0, Play(card(ORCS, 5), 0)).code is Code.RULE
    assert refused(st, 0, Play(card(GOBLINS, 4), 0)).code is Code.RULE
    _, after = act(st, 0, Play(card(ORCS, 6), 0))
    assert slot(after, 0).stack == (card(DWARVES, 5), card(ORCS, 6))


def test_zero_beats_nine() -> None:
    st = table(hands=[[card(ORCS, 0), card(GOBLINS, 0)], []], mines=[(M_5_3_3, None, [card(DWARVES, 9)]), (M_5_3_3, None, [card(DWARVES, 8)])])
    assert Play(card(ORCS, 0), 0) in GAME.legal_commands(st, 0)
    _, after = act(st, 0, Play(card(ORCS, 0), 0))
    assert slot(after, 0).stack[-1] == card(ORCS, 0)
    refused(st, 0, Play(card(GOBLINS, 0), 1))  # a 0 beats only a 9


def test_nine_beats_zero_as_any_higher_squad() -> None:
    st = table(hands=[[card(ORCS, 9)], []], mines=[(M_5_3_3, None, [card(DWARVES, 0)])])
    assert Play(card(ORCS, 9), 0) in GAME.legal_commands(st, 0)


def test_any_squad_goes_on_an_empty_mine() -> None:
    hand = [card(ORCS, 0), card(GIANTS, 9)]
    st = table(hands=[hand, []], mines=[(M_5_3_3, None, [])])
    assert set(GAME.legal_commands(st, 0)) == {Play(c, 0) for c in hand}


def test_card_not_in_hand_is_refused() -> None:
    st = table(hands=[[card(ORCS, 1)], [card(GOBLINS, 2)]], mines=[(M_5_3_3, None, [])])
    assert refused(st, 0, Play(card(GOBLINS, 2), 0)).code is Code.NOT_IN_HAND
    assert refused(st, 0, Play(card(ORCS, 1), 7)).code is Code.BAD_ARGUMENT


# -- capture ----------------------------------------------------------------------------------------


def test_capture_goes_to_the_people_of_the_last_squad() -> None:
    # seat 0 (orcs) plays a goblin as the second squad of a defence-2 mine: the goblin king takes it
    st = table(hands=[[card(GOBLINS, 7)], []], mines=[(M_2_2_2, None, [card(ORCS, 3)])])
    events, after = act(st, 0, Play(card(GOBLINS, 7), 0))
    captured = [e for e in events if isinstance(e, MineCaptured)]
    assert captured == [MineCaptured(0, 1, GOBLINS, (card(ORCS, 3), card(GOBLINS, 7)))]
    assert slot(after, 0).owner == 1 and slot(after, 0).stack == ()


def test_capture_by_a_people_not_in_play_goes_to_the_player_who_played() -> None:
    st = table(hands=[[], [card(DWARVES, 4)]], mines=[(M_1_1_1, None, [])], turn=1)
    events, after = act(st, 1, Play(card(DWARVES, 4), 0))
    assert any(isinstance(e, MineCaptured) and e.owner == 1 and e.people is DWARVES for e in events)
    assert slot(after, 0).owner == 1


def test_mine_is_not_captured_before_its_defence_is_reached() -> None:
    st = table(hands=[[card(ORCS, 1)], []], mines=[(M_5_3_3, None, [])])
    events, after = act(st, 0, Play(card(ORCS, 1), 0))
    assert not any(isinstance(e, MineCaptured) for e in events)
    assert slot(after, 0).owner is None


def test_captured_squads_go_to_their_camp_piles_in_play_order() -> None:
    stack = [card(ORCS, 2), card(GOBLINS, 5)]
    st = table(
        hands=[[card(ORCS, 8)], []],
        mines=[(M_5_3_3, None, stack)],
        camp=[[card(ORCS, 9)], [], [], []],
    )
    _, after = act(st, 0, Play(card(ORCS, 8), 0))
    assert after.camp[PEOPLES.index(ORCS)] == (card(ORCS, 9), card(ORCS, 2), card(ORCS, 8))
    assert after.camp[PEOPLES.index(GOBLINS)] == (card(GOBLINS, 5),)
    assert slot(after, 0).owner == 0


def test_capture_turns_a_new_central_mine_from_the_top_of_the_deck() -> None:
    deck = [card(GIANTS, 3), card(GIANTS, 4)]
    st = table(hands=[[card(ORCS, 8)], []], mines=[(M_1_1_1, None, [])], deck=deck)
    events, after = act(st, 0, Play(card(ORCS, 8), 0))
    assert MineTurned(1, card(GIANTS, 3), CARDS[card(GIANTS, 3)].mine) in events
    assert after.deck == (card(GIANTS, 4),)
    assert slot(after, 1).owner is None and slot(after, 1).card == card(GIANTS, 3)
    assert after.phase is Phase.DRAW


def test_nobody_may_play_on_another_players_mine() -> None:
    st = table(hands=[[card(GOBLINS, 3)], []], mines=[(M_5_3_3, 1, [])])
    assert refused(st, 0, Play(card(GOBLINS, 3), 0)).code is Code.RULE


# -- work and development ------------------------------------------------------------------------


def test_own_people_do_not_work_own_mines() -> None:
    st = table(hands=[[card(ORCS, 3), card(GOBLINS, 3)], []], mines=[(M_5_3_3, 0, [])])
    refused(st, 0, Play(card(ORCS, 3), 0))
    assert Play(card(GOBLINS, 3), 0) in GAME.legal_commands(st, 0)


def test_workers_on_own_mines_obey_the_ordering_rule() -> None:
    st = table(hands=[[card(GOBLINS, 3), card(GIANTS, 0)], []], mines=[(M_5_3_3, 0, [card(DWARVES, 6)])])
    refused(st, 0, Play(card(GOBLINS, 3), 0))
    refused(st, 0, Play(card(GIANTS, 0), 0))


def test_mine_is_developed_at_its_depth() -> None:
    workers = [card(GOBLINS, 1), card(DWARVES, 2)]
    st = table(hands=[[card(GIANTS, 5)], []], mines=[(M_5_3_3, 0, workers)])
    events, after = act(st, 0, Play(card(GIANTS, 5), 0))
    assert MineDeveloped(0, 0, 5, (*workers, card(GIANTS, 5))) in events
    assert after.mine(0) is None
    assert [CARDS[c].mine for c in after.developed[0]] == [M_5_3_3]


def test_developed_mines_squads_go_to_the_camp_in_play_order() -> None:
    workers = [card(GOBLINS, 1), card(DWARVES, 2)]
    st = table(hands=[[card(GOBLINS, 5)], []], mines=[(M_5_3_3, 0, workers)])
    _, after = act(st, 0, Play(card(GOBLINS, 5), 0))
    assert after.camp[PEOPLES.index(GOBLINS)] == (card(GOBLINS, 1), card(GOBLINS, 5))
    assert after.camp[PEOPLES.index(DWARVES)] == (card(DWARVES, 2),)


def test_discard_variant_removes_developed_mines_squads() -> None:
    workers = [card(GOBLINS, 1), card(DWARVES, 2)]
    st = table(hands=[[card(GOBLINS, 5)], []], mines=[(M_5_3_3, 0, workers)], options=KingsOptions("discard"))
    _, after = act(st, 0, Play(card(GOBLINS, 5), 0))
    assert after.discard == (*workers, card(GOBLINS, 5))
    assert all(not pile for pile in after.camp)
    assert GAME.variant_options("discard") == {"developed_cards": "discard"}


def test_overseer_mine_needs_a_squad_of_the_owners_people_on_top() -> None:
    workers = [card(GOBLINS, 1), card(DWARVES, 2), card(GIANTS, 4)]
    st = table(hands=[[card(ORCS, 7), card(GOBLINS, 8)], []], mines=[(M_5_1_3_O, 0, workers)])
    # the depth is reached: no more foreign workers, and nothing is developed yet
    assert refused(st, 0, Play(card(GOBLINS, 8), 0)).code is Code.RULE
    assert GAME.legal_commands(st, 0) == (Play(card(ORCS, 7), 0),)
    events, after = act(st, 0, Play(card(ORCS, 7), 0))
    assert MineDeveloped(0, 0, 5, (*workers, card(ORCS, 7))) in events
    assert after.camp[PEOPLES.index(ORCS)] == (card(ORCS, 7),)


def test_overseer_obeys_the_ordering_rule() -> None:
    workers = [card(GOBLINS, 1), card(DWARVES, 2), card(GIANTS, 9)]
    st = table(hands=[[card(ORCS, 7), card(ORCS, 0)], []], mines=[(M_5_1_3_O, 0, workers)])
    refused(st, 0, Play(card(ORCS, 7), 0))
    events, _ = act(st, 0, Play(card(ORCS, 0), 0))  # 0 beats 9
    assert any(isinstance(e, MineDeveloped) for e in events)


def test_overseer_may_not_come_before_the_workers() -> None:
    st = table(hands=[[card(ORCS, 7)], []], mines=[(M_5_1_3_O, 0, [card(GOBLINS, 1)])])
    refused(st, 0, Play(card(ORCS, 7), 0))


def test_depth_one_overseer_mine_takes_one_worker_then_the_overseer() -> None:
    st = table(hands=[[card(GOBLINS, 2), card(ORCS, 3)], []], mines=[(M_2_1_1_O, 0, [])])
    _, after = act(st, 0, Play(card(GOBLINS, 2), 0))
    assert slot(after, 0).stack == (card(GOBLINS, 2),)
    after = attrs.evolve(after, phase=Phase.PLAY)
    events, after = act(after, 0, Play(card(ORCS, 3), 0))
    assert any(isinstance(e, MineDeveloped) and e.value == 2 for e in events)


# -- drawing ------------------------------------------------------------------------------------------


def test_draw_from_the_top_of_a_camp_pile_or_the_deck() -> None:
    pile = [card(GOBLINS, 2), card(GOBLINS, 9)]
    st = table(hands=[[], []], camp=[[], pile, [], []], phase=Phase.DRAW)
    assert set(GAME.legal_commands(st, 0)) == {DrawDeck(), DrawCamp(GOBLINS)}
    _, after = act(st, 0, DrawCamp(GOBLINS))
    assert after.hands[0] == (card(GOBLINS, 9),)
    assert after.camp[PEOPLES.index(GOBLINS)] == (card(GOBLINS, 2),)
    assert after.turn == 1 and after.phase is Phase.PLAY
    assert refused(st, 0, DrawCamp(ORCS)).code is Code.RULE


def test_draw_from_the_deck_takes_its_top_card() -> None:
    st = table(hands=[[], []], deck=[card(GIANTS, 6), card(GIANTS, 7)], phase=Phase.DRAW, turn=0)
    events, after = act(st, 0, DrawDeck())
    assert events == (DrewFromDeck(0, card(GIANTS, 6), CARDS[card(GIANTS, 6)].mine),)
    assert after.hands[0] == (card(GIANTS, 6),) and after.deck == (card(GIANTS, 7),)


def test_no_drawing_before_playing_and_no_playing_after() -> None:
    st = table(hands=[[card(ORCS, 1)], []], mines=[(M_5_3_3, None, [])])
    assert refused(st, 0, DrawDeck()).code is Code.WRONG_PHASE
    _, after = act(st, 0, Play(card(ORCS, 1), 0))
    assert refused(after, 0, Play(card(ORCS, 1), 0)).code is Code.WRONG_PHASE


# -- the stuck hand --------------------------------------------------------------------------------


def test_player_who_cannot_play_retreats_a_squad_to_the_camp() -> None:
    hand = [card(ORCS, 3), card(GOBLINS, 4)]
    st = table(hands=[hand, []], mines=[(M_5_3_3, None, [card(GIANTS, 8)]), (M_5_3_3, 1, [])], camp=[[], [card(GOBLINS, 1)], [], []])
    assert set(GAME.legal_commands(st, 0)) == {Retreat(c) for c in hand}
    _, after = act(st, 0, Retreat(card(GOBLINS, 4)))
    assert after.camp[PEOPLES.index(GOBLINS)] == (card(GOBLINS, 1), card(GOBLINS, 4))
    # after a retreat the draw must come from the deck
    assert GAME.legal_commands(after, 0) == (DrawDeck(),)
    refused(after, 0, DrawCamp(GOBLINS))


def test_a_retreating_player_shows_the_hand_and_the_rest_stays_known() -> None:
    # "cannot play" is public, so the hand is shown (designed here: docs/rules/kings.md, "A player who cannot play")
    hand = [card(ORCS, 3), card(GOBLINS, 4), card(DWARVES, 2)]
    st = table(hands=[hand, [card(GIANTS, 1)]], mines=[(M_5_3_3, None, [card(GIANTS, 8)])])
    events, after = act(st, 0, Retreat(card(GOBLINS, 4)))
    assert events == (Retreated(0, card(GOBLINS, 4), tuple(sorted(hand))),)
    assert GAME.redact(events[0], 1) == events[0] and GAME.redact(events[0], None) == events[0]
    assert after.open_cards[0] == tuple(sorted((card(ORCS, 3), card(DWARVES, 2))))
    assert GAME.view(after, 1).open_hands[0] == after.open_cards[0]
    for s in range(5):  # a world the other seat cannot tell apart keeps the shown cards
        assert GAME.determinize(after, 1, Rng(s)).hands[0] == after.hands[0]
    _, drawn = act(after, 0, DrawDeck())
    assert set(drawn.open_cards[0]) == set(after.open_cards[0]) and len(drawn.hands[0]) == 3


def test_retreat_is_refused_while_a_play_exists() -> None:
    st = table(hands=[[card(ORCS, 9)], []], mines=[(M_5_3_3, None, [card(GIANTS, 8)])])
    assert refused(st, 0, Retreat(card(ORCS, 9))).code is Code.RULE


# -- the end ----------------------------------------------------------------------------------------


def test_game_ends_as_soon_as_the_last_deck_card_is_drawn() -> None:
    st = table(hands=[[], []], deck=[card(GIANTS, 6)], phase=Phase.DRAW, turn=1)
    events, after = act(st, 1, DrawDeck())
    assert isinstance(events[-1], GameEnded)
    assert after.phase is Phase.OVER and GAME.to_act(after) == ()
    assert GAME.outcome(after) is not None


def test_game_ends_when_a_capture_turns_up_the_last_deck_card() -> None:
    st = table(hands=[[card(ORCS, 5)], []], mines=[(M_1_1_1, None, [])], deck=[card(GIANTS, 6)])
    events, after = act(st, 0, Play(card(ORCS, 5), 0))
    assert isinstance(events[-2], MineTurned) and isinstance(events[-1], GameEnded)
    assert after.phase is Phase.OVER and after.deck == ()


def test_the_round_is_not_finished_so_early_seats_may_have_one_turn_more() -> None:
    # seed: "Игра заканчивается, как только из колоды взята последняя карта": seat 0 takes the last card of a
    # 3-player game and seats 1 and 2 get no turn to answer (the first-seat edge of docs/rules/kings.md)
    st = table(peoples=(ORCS, GOBLINS, DWARVES), hands=[[card(ORCS, 1)], [], []],
               mines=[(M_5_3_3, None, [])], deck=[card(GIANTS, 6)])
    _, after = act(st, 0, Play(card(ORCS, 1), 0))
    _, after = act(after, 0, DrawDeck())
    assert after.phase is Phase.OVER and GAME.to_act(after) == ()


ROUND = KingsOptions(end="round")


def test_end_round_lets_the_later_seats_play_one_more_squad_without_a_draw() -> None:
    # end="round" (designed, docs/rules/kings.md "Seat balance"): seat 0 of 3 draws the last card; seats 1
    # and 2 each play one more squad and draw nothing; the match ends after seat 2's play
    st = table(peoples=(ORCS, GOBLINS, DWARVES), hands=[[], [card(GOBLINS, 3)], [card(DWARVES, 4)]],
               mines=[(M_5_3_3, None, [])], deck=[card(GIANTS, 6)], phase=Phase.DRAW, options=ROUND)
    events, after = act(st, 0, DrawDeck())
    assert not any(isinstance(e, GameEnded) for e in events)
    assert after.deck == () and after.turn == 1 and after.phase is Phase.PLAY
    events, after = act(after, 1, Play(card(GOBLINS, 3), 0))
    assert events == (SquadPlayed(1, card(GOBLINS, 3), 0), TurnEnded(1))
    assert after.turn == 2 and after.phase is Phase.PLAY and GAME.outcome(after) is None
    events, after = act(after, 2, Play(card(DWARVES, 4), 0))
    assert isinstance(events[-2], TurnEnded) and isinstance(events[-1], GameEnded)
    assert after.phase is Phase.OVER and GAME.outcome(after) is not None


def test_end_round_ends_at_once_when_the_last_seat_takes_the_last_card() -> None:
    st = table(peoples=(ORCS, GOBLINS, DWARVES), hands=[[], [], []], deck=[card(GIANTS, 6)], phase=Phase.DRAW,
               turn=2, options=ROUND)
    events, after = act(st, 2, DrawDeck())
    assert isinstance(events[-1], GameEnded) and after.phase is Phase.OVER


def test_end_round_a_capture_in_the_last_round_turns_up_no_mine() -> None:
    # seat 0 turns up the deck's last card with a capture: its draw step has nothing to draw, so its turn
    # ends; seat 1 then captures a mine of defence 1 and no new mine can be turned up
    st = table(hands=[[card(ORCS, 5)], [card(GOBLINS, 2)]], mines=[(M_1_1_1, None, []), (M_1_1_1, None, [])],
               deck=[card(GIANTS, 6)], options=ROUND)
    events, after = act(st, 0, Play(card(ORCS, 5), 0))
    assert isinstance(events[-2], MineTurned) and events[-1] == TurnEnded(0)
    assert after.deck == () and after.turn == 1 and after.phase is Phase.PLAY
    mines_before = len(after.mines)
    events, after = act(after, 1, Play(card(GOBLINS, 2), 1))
    assert isinstance(events[1], MineCaptured) and not any(isinstance(e, MineTurned) for e in events)
    assert isinstance(events[-1], GameEnded) and len(after.mines) == mines_before


def test_end_round_a_retreat_in_the_last_round_draws_nothing() -> None:
    st = table(hands=[[], [card(GOBLINS, 0)]], mines=[(M_1_1_1, 0, [card(DWARVES, 9)])], deck=[], turn=1,
               options=ROUND)
    assert GAME.legal_commands(st, 1) == (Retreat(card(GOBLINS, 0)),)
    events, after = act(st, 1, Retreat(card(GOBLINS, 0)))
    assert isinstance(events[0], Retreated) and events[1:] == (TurnEnded(1), events[-1])
    assert isinstance(events[-1], GameEnded) and after.phase is Phase.OVER


def test_game_goes_on_while_the_deck_has_cards() -> None:
    st = table(hands=[[], []], deck=[card(GIANTS, 6), card(GIANTS, 7)], phase=Phase.DRAW)
    _, after = act(st, 0, DrawDeck())
    assert after.phase is Phase.PLAY and GAME.outcome(after) is None


def test_scoring_counts_developed_mines_plus_and_owned_undeveloped_mines_minus() -> None:
    st = table(
        hands=[[], []],
        mines=[(M_5_3_3, 0, [card(GOBLINS, 1)]), (M_2_3_1, 1, []), (M_3_3_2, None, [])],
        developed=[[M_2_2_2, M_5_1_3_O], [M_1_1_1]],
        phase=Phase.OVER,
    )
    outcome = GAME.outcome(st)
    assert outcome is not None
    assert outcome.scores == (2 + 5 - 5, 1 - 2)
    assert outcome.winners == (0,)


def test_tie_on_points_goes_to_more_developed_mines() -> None:
    st = table(developed=[[M_2_2_2], [M_1_1_1, M_1_1_1]], phase=Phase.OVER)
    outcome = GAME.outcome(st)
    assert outcome is not None and outcome.scores == (2, 2) and outcome.winners == (1,)


def test_full_tie_is_a_shared_win() -> None:
    st = table(developed=[[M_2_2_2], [M_2_2_2]], phase=Phase.OVER)
    outcome = GAME.outcome(st)
    assert outcome is not None and outcome.winners == (0, 1)


# -- commands from the wrong seat, and descriptions ------------------------------------------------


def test_player_may_undo_a_camp_draw_or_a_quiet_play_but_not_a_capture_or_a_deck_draw() -> None:
    m = meeple.Match.start("kings", seats=2, seed=21)
    bot = meeple.RandomBot(0)
    checked: set[type] = set()
    for _ in range(300):
        if m.is_over or len(checked) == 3:
            break
        seat = m.to_act[0]
        cmd = bot.choose(None, m.legal(seat), seat)
        events = m.play(seat, cmd)
        revealing = isinstance(cmd, DrawDeck) or any(isinstance(e, MineTurned) for e in events)
        assert bool(m.can_undo(seat)) == (not revealing)
        checked.add(type(cmd))
    assert {Play, DrawDeck, DrawCamp} <= checked


def test_a_retreat_shows_the_hand_so_its_player_may_not_undo_it() -> None:
    # the retreat shows every other seat the hand (docs/rules/kings.md, "A player who cannot play"):
    # taking it back would hide again what the table has seen
    for seed in range(40):
        m = meeple.Match.start("kings", seats=3, seed=seed)
        bot = meeple.RandomBot(seed)
        while not m.is_over:
            seat = m.to_act[0]
            cmd = bot.choose(None, m.legal(seat), seat)
            m.play(seat, cmd)
            if isinstance(cmd, Retreat):
                check = m.can_undo(seat)
                assert not check and "revealed hidden information" in check.reason
                assert m.can_undo(None)  # tooling may still undo it
                return
    raise AssertionError("no random match of 40 retreated")


def test_match_refuses_out_of_turn_commands() -> None:
    m = meeple.Match.start("kings", seats=3, seed=2)
    with pytest.raises(IllegalCommand) as info:
        m.play(1, m.legal(0)[0])
    assert info.value.code is Code.NOT_YOUR_TURN


def test_options_and_variants_are_checked() -> None:
    with pytest.raises(meeple.ConfigError):
        meeple.Match.start("kings", seats=2, seed=1, options={"developed_cards": "burn"})
    with pytest.raises(meeple.ConfigError):
        meeple.Match.start("kings", seats=2, seed=1, options={"hand_size": 7})
    with pytest.raises(meeple.ConfigError):
        GAME.variant_options("advanced")
    with pytest.raises(meeple.ConfigError):
        meeple.Match.start("kings", seats=5, seed=1)
    assert GAME.variant_options("standard") == {}


def test_describe_names_the_squad_and_the_mine() -> None:
    assert GAME.describe(Play(card(GOBLINS, 7), 3)) == "play goblins 7 (card 27) on mine 3"
    assert GAME.describe(Retreat(card(GOBLINS, 7))) == "show the hand and retreat goblins 7 (card 27) to the camp"
    assert GAME.describe(DrawCamp(DWARVES)) == "draw from the dwarves camp pile"
    assert GAME.describe(DrawDeck()) == "draw from the deck"


def test_describe_reads_commands_whose_fields_are_none() -> None:
    # what a redacted command looks like (Game.redact_command): no field may make describe fail or guess
    none: object = None
    assert GAME.describe(Play(none, 3)) == "play a squad on mine 3"  # type: ignore[arg-type]
    assert GAME.describe(Play(none, none)) == "play a squad"  # type: ignore[arg-type]
    assert GAME.describe(Retreat(none)) == "show the hand and retreat a squad to the camp"  # type: ignore[arg-type]
    assert GAME.describe(DrawCamp(none)) == "draw from a camp pile"  # type: ignore[arg-type]


def test_an_event_naming_a_mine_not_on_the_table_is_refused_by_name() -> None:
    # a forged log may name any mine: the fold says which one is missing (the readers turn it into
    # a log error), for a squad played, a capture and a development alike
    state = table(hands=([card(GOBLINS, 4)], []), mines=[(M_1_1_1, None, []), (M_2_2_2, 0, [])])
    for event in (
        SquadPlayed(0, card(GOBLINS, 4), 7),
        MineCaptured(7, 0, ORCS, ()),
        MineDeveloped(0, 7, 2, ()),
        SquadPlayed(0, card(GOBLINS, 4), -1),
    ):
        with pytest.raises(ValueError, match=r"mine -?\d+, which is not on the table"):
            GAME.evolve(state, event)
