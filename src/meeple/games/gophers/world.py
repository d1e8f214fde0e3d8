"""Worlds for search bots: a full Gophers state built from one seat's view alone (``Game.world``).

Everything on the table is public (pawns, the spread, piles, the cards being
laid, baskets, the beginner bank), and so are the sizes of hands and the
deck. Hidden are other hands, the deck's order and another seat's gift
offer, except the cards the seat itself put under the deck and followed
since (``known_deck``, ``known_hands``, the known cards of ``gift_offer``);
who knows which place of the deck is public (``deck_seen``), and the seat
knows who knows the cards of its own hand (``hand_seen``). What other seats
know of other hands is not rebuilt (it depends on cards the seat cannot
see, and no rule reads it): once some card has been put under the deck,
each other seat is taken to know each card of another hand with an even
chance (a deal uniform over what the view leaves open).
:func:`world` lays those out where the view says they are, deals the rest
of the box in any order, and lets :func:`~.view.determinize` deal the
unknown places again at random.

The unseen cards are the box (:func:`~.rules.build_deck`) less every card
the seat can place: its hand, the piles, the cards laid, the cards it
knows. Dig cards leave the game when played, and the view does not count
them, but the sizes do: whatever the box holds beyond the hidden places is
the dig cards already played.

>>> import meeple
>>> from meeple.engine import Rng
>>> m = meeple.Match.start("gophers", seats=3, seed=4)
>>> w = world(m.view(2), 2, Rng(1))
>>> m.game.view(w, 2) == m.view(2), w.hands[2] == m.state.hands[2]
(True, True)
"""

from __future__ import annotations

from collections import Counter

from meeple.engine import MeepleError, Rng

from .combos import laid_sum
from .data import DIG, RANK, Card
from .rules import build_deck, collect_steps, label_at, short_laid
from .state import Cards, Phase, State, Table, new_state, own_dict, replace_turn
from .view import View, determinize


class _Box:
    """The unseen cards, taken out one by one."""

    def __init__(self, cards: Counter[Card], rng: Rng) -> None:
        self.cards = list(rng.shuffled(sorted(cards.elements(), key=RANK.__getitem__)))

    def take(self) -> Card:
        return self.cards.pop()


def world(view: View, seat: int | None, rng: Rng) -> State:
    """A state ``seat`` cannot tell from the true one, sampled from ``view`` alone."""
    n = view.seats
    opts = view.options
    if view.phase is Phase.DEAL:  # before the deal nothing is out
        return new_state(n, opts)
    me = seat if seat is not None and 0 <= seat < n else None
    bit = 0 if me is None else 1 << me
    offer_shown = view.gift_offer
    known_deck = dict(view.known_deck)
    box = _Box(Counter(), rng)
    if opts.beginner:
        cards = Cards(((),) * n, ((),) * n, (), ())
    else:
        unseen = Counter(build_deck(opts))
        unseen.subtract(view.hand)
        for pile in (*view.plus, *view.minus, *view.known_hands, *view.laid):
            unseen.subtract(pile)
        unseen.subtract(known_deck.values())
        unseen.subtract(c for c in offer_shown if c is not None)
        places = (sum(view.hand_sizes) - len(view.hand) - sum(map(len, view.known_hands))
                  + view.deck_size - len(known_deck) + sum(c is None for c in offer_shown))
        played_digs = sum(unseen.values()) - places  # dig cards leave the game when played
        unseen[DIG] -= played_digs
        if played_digs < 0 or any(v < 0 for v in unseen.values()):
            raise ValueError("gophers: this view shows cards the box does not hold")
        box = _Box(unseen, rng)
        told = any(view.deck_seen) or any(view.hand_seen) or bool(view.known_deck) or any(view.known_hands)
        hands, seens = [], []
        for s in range(n):
            if s == me:
                hands.append(view.hand)
                seens.append(view.hand_seen)
                continue
            known = view.known_hands[s]
            held = [(c, bit) for c in known] + [(box.take(), 0) for _ in range(view.hand_sizes[s] - len(known))]
            if told:  # what others may know of this hand is hidden from the seat: drawn at random
                held = [(c, m | _guess(rng, n, s, me)) for c, m in held]
            held.sort(key=lambda cm: (RANK[cm[0]], cm[1]))
            hands.append(tuple(c for c, _ in held))
            seens.append(tuple(m for _, m in held))
        deck = tuple(known_deck[i] if i in known_deck else box.take() for i in range(view.deck_size))
        deck_seen = view.deck_seen
        cards = Cards(tuple(hands), tuple(seens), deck, deck_seen)
    turn = view.turn
    if offer_shown:
        offer = tuple(c if c is not None else box.take() for c in offer_shown)
        turn = replace_turn(turn, offer=offer)
    skeleton = own_dict(State(
        seats=n,
        options=opts,
        phase=view.phase,
        current=view.current,
        spread=view.spread,
        roll=view.roll,
        positions=view.positions,
        collectors=view.collectors,
        cards=cards,
        table=Table(view.plus, view.minus, view.bank, view.own_digs, view.baskets, view.scores),
        turn=turn,
        idle=view.idle,
        end_reason=view.end_reason,
    ))
    collector = view.collectors[0] if view.phase is Phase.COLLECT and view.collectors else None
    if collector is None or collector == me or not (view.laid[0] or view.laid[1]):
        return determinize(skeleton, me, rng)
    # The collector has laid cards, and a card is legal only if the collection can still be made: its hand
    # holds a completion. Worlds are drawn until one does (the deal is then uniform among those that fit).
    for _ in range(TRIES):
        w = determinize(skeleton, me, rng)
        if _can_finish(w, collector):
            return w
    raise NoFittingWorld(f"gophers: no world in {TRIES} lets seat {collector} finish the collection it began")


#: Worlds drawn at most for a collection under way before giving up.
TRIES = 2000


class NoFittingWorld(MeepleError, RuntimeError):
    """No sampled world was consistent with what the seat saw (the collection under way could not be made)."""


def _guess(rng: Rng, seats: int, holder: int, me: int | None) -> int:
    """Which seats but the holder and the viewer know a card of a hand: each one with an even chance."""
    mask = 0
    for t in range(seats):
        if t != holder and t != me and rng.below(2):
            mask |= 1 << t
    return mask


def _can_finish(state: State, seat: int) -> bool:
    """True if ``seat`` may lay another card of its collection, or collect now."""
    turn = state.turn
    return (bool(collect_steps(state, seat)) or laid_sum(turn.added, turn.subtracted) == label_at(state, seat).count
            or short_laid(state, seat))
