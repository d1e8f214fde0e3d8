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
from functools import partial
from typing import Any

from meeple.engine import Command, get_game
from meeple.engine._compiled import speedups
from meeple.games.gophers.commands import Add, Collect, Dig, Move, Pass, Place, Roll, Subtract, TakeGift
from meeple.games.gophers.data import COPIES, DIG, DIG_CARDS, FACES, HOLES, RANK, SPREADS
from meeple.games.gophers.options import GophersOptions
from meeple.games.gophers.state import Phase
from meeple.games.gophers.view import View

from ..encoding import Actions, ByIdentity, Encoding, Observation, Segment

#: Seats a walk may jump (the game seats at most four).
MAX_SEATS = 4
_SUPPLY = tuple(c for c in FACES if c is not DIG)
_PHASES = tuple(Phase)
#: Scores, piles and hands are read up to these (more reads as the cap).
SCORE_CAP = 200
HAND_CAP = 40
#: The stall guard's count is read up to this.
IDLE_CAP = 400


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


def encoding(seats: int, options: GophersOptions, *, compiled: bool = True) -> Encoding:
    """The fixed action space and the observation layout of Gophers at ``seats`` (see the module).

    The observation is written by the compiled fill (``meeple._speedups.fill_gophers``) where the package
    was built with it, unless ``compiled`` is False: the same bytes as the Python ``fill`` below, which
    defines them.
    """
    n = seats
    faces = len(FACES)
    most = max(COPIES, DIG_CARDS) * 4

    def rows(out: bytearray, at: int, per_seat: tuple[tuple[Any, ...], ...], seat: int) -> None:
        """Per seat from the observer, the counts of each face in its cards, from ``out[at]``."""
        for s, cards in enumerate(per_seat):
            if cards and s < n:
                r = (s - seat) % n
                out[at + r * faces:at + (r + 1) * faces] = _count_row(cards, most)

    def table_part(seat: int, plus: tuple[tuple[Any, ...], ...], minus: tuple[tuple[Any, ...], ...],
                   bank: tuple[Any, ...], digs: tuple[int, ...], baskets: tuple[int, ...], scores: tuple[int, ...]
                   ) -> tuple[bytes, bytes, tuple[tuple[int, int], ...]]:
        """The segments ``plus``, ``minus``, ``bank``, ``own_digs``, ``baskets`` (one after the other), the
        segment ``scores`` capped to +-SCORE_CAP, and the (index, value) of the scores a byte cannot hold."""
        out = bytearray(size)
        rows(out, o_plus, plus, seat)
        rows(out, o_minus, minus, seat)
        if bank:
            out[o_bank:o_bank + faces] = _count_row(bank, most)
        for s, d in enumerate(digs[:n]):
            out[o_digs + (s - seat) % n] = d
        for s, b in enumerate(baskets[:n]):
            out[o_baskets + (s - seat) % n * n + (b - seat) % n] = 1
        wide = []
        for s, v in enumerate(scores[:n]):
            v = max(-SCORE_CAP, min(SCORE_CAP, v))
            if 0 <= v <= 255:
                out[o_scores + (s - seat) % n] = v
            else:
                wide.append((o_scores + (s - seat) % n, v))
        return bytes(out[o_plus:o_gift]), bytes(out[o_scores:o_scores + n]), tuple(wide)

    def deck_part(seat: int, known_deck: tuple[tuple[int, Any], ...]) -> bytes:
        """The segment ``known_deck``."""
        return _count_row(tuple(c for _, c in known_deck), most)

    table_of, deck_of = ByIdentity(table_part), ByIdentity(deck_part)

    def fill(view: View, seat: int, out: bytearray) -> list[tuple[int, float]]:
        out[o_seat + seat] = 1
        phase = view.phase
        out[o_phase + _PHASES.index(phase)] = 1
        spread, roll = view.spread, view.roll
        if 1 <= spread <= len(SPREADS):
            out[o_spread + spread - 1] = 1
        if 1 <= roll <= 6:
            out[o_roll + roll - 1] = 1
        if phase is Phase.COLLECT and view.collectors:
            out[o_to_act + (view.collectors[0] - seat) % n] = 1
        elif id(phase) in _MOVER_PHASES:  # by identity: an enum member's hash is a Python-level call
            out[o_to_act + (view.current - seat) % n] = 1
        for s, h in enumerate(view.positions):
            if h >= 0:
                out[o_positions + (s - seat) % n * HOLES + h] = 1
        out[o_hand:o_sizes] = _count_row(view.hand, most)
        for s, k in enumerate(view.hand_sizes[:n]):
            out[o_sizes + (s - seat) % n] = k if k < HAND_CAP else HAND_CAP
        known = view.known_hands
        if any(known):
            rows(out, o_known, known, seat)
        plus, minus, bank, digs, baskets, scores = view.plus, view.minus, view.bank, view.own_digs, view.baskets, \
            view.scores
        table = table_of.get((seat, id(plus), id(minus), id(bank), id(digs), id(baskets), id(scores)))
        if table is None:
            table = table_of.add(seat, plus, minus, bank, digs, baskets, scores)
        out[o_plus:o_gift], out[o_scores:o_scores + n], wide = table
        extra: list[tuple[int, float]] = list(wide) if wide else []
        deck_size = view.deck_size
        if 0 <= deck_size <= 255:
            out[o_deck_size] = deck_size
        else:
            extra.append((o_deck_size, deck_size))
        known_deck = view.known_deck
        if known_deck:
            part = deck_of.get((0, id(known_deck)))
            out[o_known_deck:o_known_deck + faces] = part if part is not None else deck_of.add(0, known_deck)
        if view.gift_offer:
            out[o_gift:o_gift + faces] = _count_row(view.gift_offer, most)
            out[o_gift_hidden] = sum(c is None for c in view.gift_offer)
        added, subtracted = view.laid
        if added:
            out[o_added:o_added + faces] = _count_row(added, most)
        if subtracted:
            out[o_subtracted:o_subtracted + faces] = _count_row(subtracted, most)
        turn = view.turn
        for s in turn.jumped:
            out[o_jumped + (s - seat) % n] = 1
        out[o_flags] = view.turned
        out[o_flags + 1] = view.productive
        out[o_flags + 2] = turn.gift_used
        idle = view.idle
        if 0 <= idle <= 255:
            out[o_idle] = idle
        else:
            extra.append((o_idle, min(idle, IDLE_CAP)))
        return extra

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
        Segment("idle", (), high=IDLE_CAP, doc="unproductive turns in a row without a draw (the stall guard)"),
    )
    at = {p.name: p.offset for p in Observation(layout, _no_encoder).segments_at()}
    o_seat, o_phase, o_spread, o_roll, o_to_act, o_positions = at["seat"], at["phase"], at["spread"], at["roll"], \
        at["to_act"], at["positions"]
    o_hand, o_sizes, o_known, o_deck_size, o_known_deck = at["hand"], at["hand_sizes"], at["known_hands"], \
        at["deck_size"], at["known_deck"]
    o_plus, o_minus, o_bank, o_digs, o_baskets = at["plus"], at["minus"], at["bank"], at["own_digs"], at["baskets"]
    o_gift, o_gift_hidden, o_added, o_subtracted = at["gift_offer"], at["gift_hidden"], at["added"], at["subtracted"]
    o_jumped, o_flags, o_scores, o_idle = at["jumped"], at["flags"], at["scores"], at["idle"]
    size = sum(s.size for s in layout)
    actions = Actions.table(commands(), describe=get_game("gophers").describe)
    if compiled and speedups is not None:
        spec = (n, HOLES, len(SPREADS), 6, most, HAND_CAP, SCORE_CAP, IDLE_CAP, o_seat, o_phase, o_spread, o_roll,
                o_to_act, o_positions, o_hand, o_sizes, o_known, o_deck_size, o_known_deck, o_plus, o_minus, o_bank,
                o_digs, o_baskets, o_gift, o_gift_hidden, o_added, o_subtracted, o_jumped, o_flags, o_scores, o_idle,
                _PHASES.index(Phase.COLLECT), sum(1 << _PHASES.index(p) for p in _MOVERS), _PHASES, FACES)
        return Encoding(actions, Observation.filled(layout, partial(speedups.fill_gophers, spec)))
    return Encoding(actions, Observation.filled(layout, fill))


def _no_encoder(view: Any, seat: int) -> dict[str, Any]:
    return {}


_PHASE_INDEX = {p: i for i, p in enumerate(_PHASES)}
#: The phases where the mover acts (the seat to act is ``current``), and the same by identity.
_MOVERS = (Phase.PLACE, Phase.START, Phase.MOVE, Phase.GIFT)
_MOVER_PHASES = frozenset(map(id, _MOVERS))
_ROWS: dict[int, tuple[Any, bytes]] = {}


def _count_row(cards: tuple[Any, ...], cap: int) -> bytes:
    """:func:`_counts` of ``cards`` as bytes, remembered by the tuple's identity (views share their tuples)."""
    hit = _ROWS.get(id(cards))
    if hit is not None and hit[0] is cards:
        return hit[1]
    if len(_ROWS) >= 4096:
        _ROWS.clear()
    row = bytes(_counts(cards, cap))
    _ROWS[id(cards)] = (cards, row)
    return row
