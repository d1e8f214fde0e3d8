"""The referee's state of a Gophers match, and the phases of a turn."""

from __future__ import annotations

import enum

import attrs

from .data import Card
from .options import GophersOptions


class Phase(enum.Enum):
    """Where the match stands; each phase names who acts and what they may do.

    * ``DEAL``: the engine deals (or lays out the beginner bank).
    * ``PLACE``: players place pawns in turn, youngest (seat 0) first.
    * ``OPEN``: the engine rolls the die and opens the book at that spread.
    * ``START``: the player to move rolls, or plays a dig card instead.
    * ``MOVE``: the roll is known: walk exactly that many steps, or dig.
    * ``GIFT``: the mover keeps one of the three gift cards.
    * ``COLLECT``: each seat in ``collectors`` collects at its hole, or passes.
    * ``OVER``: the game has ended.
    """

    DEAL = "deal"
    PLACE = "place"
    OPEN = "open"
    START = "start"
    MOVE = "move"
    GIFT = "gift"
    COLLECT = "collect"
    OVER = "over"


@attrs.frozen
class State:
    """Everything about a match (the referee's copy); hands and deck order are secret.

    Per-seat tuples are indexed by seat. ``plus`` is each seat's face-up pile
    (added cards and gifts), ``minus`` its face-down pile (subtracted cards).
    ``baskets[owner]`` is the seat holding that owner's basket. The fields from
    ``roll`` to ``haul`` describe the turn in progress and are reset when it ends.
    """

    seats: int
    options: GophersOptions
    phase: Phase = Phase.DEAL
    spread: int = 0
    positions: tuple[int, ...] = ()
    hands: tuple[tuple[Card, ...], ...] = ()
    deck: tuple[Card, ...] = ()
    plus: tuple[tuple[Card, ...], ...] = ()
    minus: tuple[tuple[Card, ...], ...] = ()
    bank: tuple[Card, ...] = ()
    own_digs: tuple[int, ...] = ()
    baskets: tuple[int, ...] = ()
    current: int = 0
    roll: int = 0
    turned: bool = False
    book_turns: int = 0
    gift_used: bool = False
    gift_offer: tuple[Card, ...] = ()
    collectors: tuple[int, ...] = ()
    jumped: tuple[int, ...] = ()
    productive: bool = False
    haul: tuple[tuple[Card, ...], tuple[Card, ...]] = ((), ())
    idle: int = 0
    end_reason: str = ""
