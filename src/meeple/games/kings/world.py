"""Worlds for search bots: a full Underground Kings state sampled from one seat's view alone.

What a view shows pins most of the table: the seat's own hand, every card
squad side up (the stacks, the camp, the discard, the cards a hand showed
in a retreat or took from the camp), the mine side of every other card in
play. What it hides is the squad side of the cards whose mine side it shows
(the rest of each other hand, the mines on the table and developed, the
deck's top card) and the order and contents of the rest of the deck. A
world deals the cards the view has not seen at random: each place that
shows a mine side gets a card with that mine side, the rest of the deck
what is left, shuffled. So its view for the seat is the view it came from.
"""

from __future__ import annotations

from collections import Counter

from meeple.engine import ConfigError, Rng

from .data import CARDS, DECK_SIZE, Mine, backs
from .state import MineSlot, Phase, State
from .view import KingsView


def world(view: KingsView, seat: int | None, rng: Rng) -> State:
    """A state ``seat`` cannot tell from the true one, built from ``view`` alone, hidden cards dealt from ``rng``.

    >>> import meeple
    >>> m = meeple.Match.start("kings", seats=2, seed=4)
    >>> w = world(m.view(0), 0, Rng(1))
    >>> meeple.get_game("kings").view(w, 0) == m.view(0), w.hands[0] == m.state.hands[0]
    (True, True)
    """
    if view.phase is Phase.SETUP:
        return State(seats=view.seats, options=view.options)
    seen = {*view.hand, *view.discard}
    for shown in (*view.open_hands, *view.camp, *(m.stack for m in view.mines)):
        seen.update(shown)
    groups: dict[Mine, list[int]] = {}
    for card in range(DECK_SIZE):
        if card not in seen:
            groups.setdefault(CARDS[card].mine, []).append(card)
    for group in groups.values():
        rng.shuffle_in_place(group)

    def deal(side: Mine) -> int:
        return groups[side].pop()

    hands = []
    for s, hand_backs in enumerate(view.hand_backs):
        if s == seat:
            hands.append(view.hand)
            continue
        unseen = Counter(hand_backs)
        unseen.subtract(backs(view.open_hands[s]))
        dealt = [deal(side) for side, count in unseen.items() for _ in range(count)]
        hands.append(tuple(sorted((*view.open_hands[s], *dealt))))
    mines = tuple(MineSlot(m.number, deal(m.mine), m.owner, m.stack) for m in view.mines)
    developed = tuple(tuple(deal(side) for side in dev) for dev in view.developed)
    top = (deal(view.deck_top),) if view.deck_top is not None else ()
    rest = sorted(card for group in groups.values() for card in group)
    deck = (*top, *rng.shuffled(rest))
    if len(deck) != view.deck_size:
        raise ConfigError(f"kings: this view leaves {len(deck)} cards for a deck of {view.deck_size}: it is not a view "
                         "of a match")
    return State(
        seats=view.seats,
        options=view.options,
        phase=view.phase,
        peoples=view.peoples,
        deck=deck,
        hands=tuple(hands),
        open_cards=view.open_hands,
        mines=mines,
        developed=developed,
        camp=view.camp,
        discard=view.discard,
        turn=view.turn,
        next_number=len(view.mines) + sum(len(dev) for dev in view.developed),
        retreated=view.must_draw_deck,
    )

