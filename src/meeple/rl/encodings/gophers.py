"""Gophers for ``meeple.rl``: one table of every command, and a tensor of one seat's view.

**Actions** (one table, in this order): placing the pawn on each hole;
rolling; digging; every walk, by destination hole and the set of seats
jumped (a bit mask of four seats, as in ``Move.jumps``); keeping each gift
card face; laying each supply face as an added card; as a subtracted card;
collecting; passing. A collection is laid one card at a time
(``Add``/``Subtract``, then ``Collect``), so however many collections a hand
could make, the space stays this table; the mask offers only the cards
that can still complete one.

**Observation.** Seats are counted from the observer (0 is itself, 1 the
next seat, and so on); card counts are per face in
:data:`~meeple.games.gophers.data.FACES` order (acorns 1..10, berries
1..10, wheat ears 1..10, the dig card).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from meeple.engine import Command, get_game
from meeple.games.gophers.commands import Add, Collect, Dig, Move, Pass, Place, Roll, Subtract, TakeGift
from meeple.games.gophers.data import COPIES, DIG, DIG_CARDS, FACES, HOLES, RANK, SPREADS
from meeple.games.gophers.options import GophersOptions
from meeple.games.gophers.state import Phase
from meeple.games.gophers.view import View

from ..encoding import Actions, Encoding, Observation, Segment

#: Seats a walk may jump (the game seats at most four).
MAX_SEATS = 4
_SUPPLY = tuple(c for c in FACES if c is not DIG)
_PHASES = tuple(Phase)
#: Scores, piles and hands are read up to these (more reads as the cap).
SCORE_CAP = 200
HAND_CAP = 40


def commands() -> tuple[Command, ...]:
    """Every command a player can give in Gophers, in action-id order."""
    return (
        *(Place(h) for h in range(HOLES)),
        Roll(),
        Dig(),
        *(Move(d, j) for d in range(HOLES) for j in range(1 << MAX_SEATS)),
        *(TakeGift(repr(c)) for c in FACES),
        *(Add(repr(c)) for c in _SUPPLY),
        *(Subtract(repr(c)) for c in _SUPPLY),
        Collect(),
        Pass(),
    )


def _counts(cards: Iterable[Any], cap: int = COPIES * 4) -> list[int]:
    out = [0] * len(FACES)
    for c in cards:
        if c is not None:
            out[RANK[c]] = min(cap, out[RANK[c]] + 1)
    return out


def encoding(seats: int, options: GophersOptions) -> Encoding:
    """The fixed action space and the observation layout of Gophers at ``seats`` (see the module)."""
    n = seats
    faces = len(FACES)
    most = max(COPIES, DIG_CARDS) * 4

    def encode(view: View, seat: int) -> dict[str, Any]:
        def rel(s: int) -> int:
            return (s - seat) % n

        positions = [[0] * HOLES for _ in range(n)]
        for s, h in enumerate(view.positions):
            if h >= 0:
                positions[rel(s)][h] = 1
        to_act = [0] * n
        if view.phase is Phase.COLLECT and view.collectors:
            to_act[rel(view.collectors[0])] = 1
        elif view.phase in (Phase.PLACE, Phase.START, Phase.MOVE, Phase.GIFT):
            to_act[rel(view.current)] = 1
        per_seat: dict[str, list[Any]] = {k: [None] * n for k in ("known", "plus", "minus")}
        sizes, scores, digs = [0] * n, [0] * n, [0] * n
        baskets = [[0] * n for _ in range(n)]
        for s in range(n):
            r = rel(s)
            known = view.known_hands[s] if s < len(view.known_hands) else ()
            per_seat["known"][r] = _counts(known, most)
            per_seat["plus"][r] = _counts(view.plus[s] if s < len(view.plus) else (), most)
            per_seat["minus"][r] = _counts(view.minus[s] if s < len(view.minus) else (), most)
            sizes[r] = min(HAND_CAP, view.hand_sizes[s]) if s < len(view.hand_sizes) else 0
            scores[r] = max(-SCORE_CAP, min(SCORE_CAP, view.scores[s])) if s < len(view.scores) else 0
            digs[r] = view.own_digs[s] if s < len(view.own_digs) else 0
            if s < len(view.baskets):
                baskets[r][rel(view.baskets[s])] = 1
        jumped = [0] * n
        for s in view.turn.jumped:
            jumped[rel(s)] = 1
        return {
            "seat": [int(s == seat) for s in range(n)],
            "phase": [int(view.phase is p) for p in _PHASES],
            "spread": [int(view.spread == i + 1) for i in range(len(SPREADS))],
            "roll": [int(view.roll == i) for i in range(1, 7)],
            "to_act": to_act,
            "positions": positions,
            "hand": _counts(view.hand, most),
            "hand_sizes": sizes,
            "known_hands": per_seat["known"],
            "deck_size": view.deck_size,
            "known_deck": _counts((c for _, c in view.known_deck), most),
            "plus": per_seat["plus"],
            "minus": per_seat["minus"],
            "bank": _counts(view.bank, most),
            "own_digs": digs,
            "baskets": baskets,
            "gift_offer": _counts(view.gift_offer, most),
            "gift_hidden": sum(c is None for c in view.gift_offer),
            "added": _counts(view.laid[0], most),
            "subtracted": _counts(view.laid[1], most),
            "jumped": jumped,
            "flags": [int(view.turned), int(view.productive), int(view.turn.gift_used)],
            "scores": scores,
            "idle": min(view.idle, 400),
        }

    deck = len(FACES) * most
    layout = (
        Segment("seat", n, doc="one-hot: the observer's seat at the table"),
        Segment("phase", len(_PHASES), doc="one-hot: deal, place, open, start, move, gift, collect, over"),
        Segment("spread", len(SPREADS), doc="one-hot: the open spread of the book (1..6)"),
        Segment("roll", 6, doc="one-hot: the mover's roll (all 0 before it rolls)"),
        Segment("to_act", n, doc="one-hot: the seat to act (the mover, or the seat collecting now)"),
        Segment("positions", (n, HOLES), doc="per seat, one-hot: the hole of its pawn (all 0 before it is placed)"),
        Segment("hand", faces, high=most, doc="the observer's hand: cards of each face"),
        Segment("hand_sizes", n, high=HAND_CAP, doc=f"per seat, cards in hand (up to {HAND_CAP})"),
        Segment("known_hands", (n, faces), high=most,
                doc="per seat, cards of each face the observer knows in its hand (put under the deck by the observer)"),
        Segment("deck_size", (), high=deck, doc="cards in the deck"),
        Segment("known_deck", faces, high=most, doc="cards of each face the observer knows in the deck"),
        Segment("plus", (n, faces), high=most, doc="per seat, its face-up pile: cards of each face"),
        Segment("minus", (n, faces), high=most, doc="per seat, its face-down (subtracted) pile: cards of each face"),
        Segment("bank", faces, high=most, doc="beginner rules: the open bank, cards of each face"),
        Segment("own_digs", n, high=1, doc="beginner rules: per seat, whether its own dig card is left"),
        Segment("baskets", (n, n), doc="advanced rules: row i one-hot, the seat holding seat i's basket"),
        Segment("gift_offer", faces, high=most, doc="the gift cards on show, as far as the observer knows them"),
        Segment("gift_hidden", (), high=3, doc="gift cards on show the observer does not know"),
        Segment("added", faces, high=most, doc="the collection being laid: added cards of each face"),
        Segment("subtracted", faces, high=most, doc="the collection being laid: subtracted cards of each face"),
        Segment("jumped", n, doc="the seats whose pawns the mover jumped this turn"),
        Segment("flags", 3, doc="this turn: the book turned, the mover was productive, a gift was offered"),
        Segment("scores", n, low=-SCORE_CAP, high=SCORE_CAP, doc=f"per seat, its score (within +-{SCORE_CAP})"),
        Segment("idle", (), high=400, doc="unproductive turns in a row without a draw (the stall guard)"),
    )
    return Encoding(Actions.table(commands(), describe=get_game("gophers").describe), Observation(layout, encode))
