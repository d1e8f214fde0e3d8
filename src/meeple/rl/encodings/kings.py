"""Underground Kings for ``meeple.rl``: a fixed action space over cards and mine slots, and a tensor of the view.

**Actions.** A mine is named by its *slot*, not by its number (numbers grow
through a match): slots 0-3 are the central mines in number order, slot
``4 + j`` the observer's own ``j``-th mine in number order. During play
four mines are always central, so a seat owns at most as many mines as the
deck held after the deal, ``D = 80 - 8 - 6 * seats``: that bounds the
slots, ``T = 4 + D`` of them. With ``c`` a card id (0-79):

* ``c * T + slot``: play squad ``c`` onto the mine in ``slot``;
* ``80 * T + c``: retreat, laying squad ``c`` on its camp pile;
* ``80 * T + 80``: draw from the deck;
* ``80 * T + 81 + p``: draw from the camp pile of people ``p`` (orcs,
  goblins, dwarves, giants).

**Observation.** Seats are counted from the observer (0 is itself, 1 the
next seat, and so on); a *side* is one of the 17 distinct mine sides
(:data:`SIDES`, by value, defence, depth, overseer). See ``docs/rl.md`` for
the table; :func:`encoding` declares it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from meeple.engine import get_game
from meeple.games.kings.commands import DrawCamp, DrawDeck, Play, Retreat
from meeple.games.kings.data import CAMP_START, CARDS, CENTRAL_MINES, DECK_SIZE, HAND_SIZE, MINE_SIDES, PEOPLES, Mine
from meeple.games.kings.state import KingsOptions, Phase
from meeple.games.kings.view import KingsView, MineView

from ..encoding import Actions, Encoding, EncodingError, Observation, Segment

#: The distinct mine sides, by value, defence, depth and overseer: a side's index in observations.
SIDES: tuple[Mine, ...] = tuple(sorted(set(MINE_SIDES), key=lambda m: (m.value, m.defence, m.depth, m.overseer)))
_SIDE = {m: i for i, m in enumerate(SIDES)}
#: How many cards of the game carry each side (the bound of a side count).
_MOST_OF_A_SIDE = max(sum(1 for c in CARDS if c.mine == m) for m in SIDES)
#: Own mines each seat shows in the observation (the oldest first); more are counted, not shown.
OWN_SHOWN = 8
#: Mine slots' width in the observation: its side, how many squads are on it, the top squad's strength.
_SLOT = len(SIDES) + 1 + 10
#: The most squads a mine holds at once: its defence while central, its workers and overseer once owned.
_MOST_SQUADS = max(max(m.defence, m.depth + m.overseer) for m in SIDES)
_PHASES = (Phase.SETUP, Phase.PLAY, Phase.DRAW, Phase.OVER)
#: The most points a seat can have or owe: every mine developed, or every mine owned and not developed.
_MOST_POINTS = sum(c.mine.value for c in CARDS)


def deck_after_deal(seats: int) -> int:
    """Cards in the deck once the table is dealt: the bound of how many mines one seat can own."""
    return DECK_SIZE - CENTRAL_MINES - CAMP_START - HAND_SIZE * seats


def encoding(seats: int, options: KingsOptions) -> Encoding:
    """The fixed action space and the observation layout of Underground Kings at ``seats`` (see the module)."""
    slots = CENTRAL_MINES + deck_after_deal(seats)
    plays = DECK_SIZE * slots
    retreat, draw_deck, draw_camp = plays, plays + DECK_SIZE, plays + DECK_SIZE + 1
    size = draw_camp + len(PEOPLES)
    describe = get_game("kings").describe

    def slot_of(number: int, view: KingsView, seat: int) -> int:
        central = own = 0
        for m in view.mines:
            if m.number == number:
                if m.owner is None:
                    return central
                if m.owner == seat and own < slots - CENTRAL_MINES:
                    return CENTRAL_MINES + own
                break
            if m.owner is None:
                central += 1
            elif m.owner == seat:
                own += 1
        raise EncodingError(f"kings: mine {number} is neither central nor one of seat {seat}'s first "
                            f"{slots - CENTRAL_MINES} mines")

    def index(command: Any, view: KingsView, seat: int) -> int:
        if type(command) is Play:
            return command.card * slots + slot_of(command.mine, view, seat)
        if type(command) is Retreat:
            return retreat + command.card
        if type(command) is DrawDeck:
            return draw_deck
        if type(command) is DrawCamp:
            return draw_camp + command.people.index
        raise EncodingError(f"kings: {command!r} has no action id")

    def label(action: int) -> str:
        if action < plays:
            card, slot = divmod(action, slots)
            where = f"central mine {slot}" if slot < CENTRAL_MINES else f"own mine {slot - CENTRAL_MINES}"
            return f"play {CARDS[card].squad_label()} (card {card}) onto {where}"
        if action < draw_deck:
            return describe(Retreat(action - retreat))
        if action == draw_deck:
            return describe(DrawDeck())
        return describe(DrawCamp(PEOPLES[action - draw_camp]))

    where_columns = seats + 3  # own hand, seen in the hand of seat 1..n-1, on a mine, in the camp, discarded

    def encode(view: KingsView, seat: int) -> dict[str, Any]:
        def rel(s: int) -> int:
            return (s - seat) % seats

        peoples = [[0] * len(PEOPLES) for _ in range(seats)]
        for s, p in enumerate(view.peoples):
            peoples[rel(s)][p.index] = 1
        to_act = [0] * seats
        if view.phase is Phase.PLAY or view.phase is Phase.DRAW:
            to_act[rel(view.turn)] = 1
        where = np.zeros((DECK_SIZE, where_columns), np.float32)  # an array: cheaper than 80 lists
        for c in view.hand:
            where[c][0] = 1
        for s, known in enumerate(view.open_hands):
            if s != seat:
                for c in known:
                    where[c][rel(s)] = 1
        for m in view.mines:
            for c in m.stack:
                where[c][seats] = 1
        for pile in view.camp:
            for c in pile:
                where[c][seats + 1] = 1
        for c in view.discard:
            where[c][seats + 2] = 1
        backs = [[0] * len(SIDES) for _ in range(seats)]
        for s, hand in enumerate(view.hand_backs):
            for side in hand:
                backs[rel(s)][_SIDE[side]] += 1
        developed = [[0] * len(SIDES) for _ in range(seats)]
        for s, dev in enumerate(view.developed):
            for side in dev:
                developed[rel(s)][_SIDE[side]] += 1
        central = [[0] * _SLOT for _ in range(CENTRAL_MINES)]
        owned = np.zeros((seats, OWN_SHOWN, _SLOT), np.float32)
        counts = [0] * seats
        at_centre = 0
        for m in view.mines:
            if m.owner is None:
                if at_centre < CENTRAL_MINES:
                    _fill_slot(central[at_centre], m)
                at_centre += 1
            else:
                r = rel(m.owner)
                if counts[r] < OWN_SHOWN:
                    _fill_slot(owned[r][counts[r]], m)
                counts[r] += 1
        top = [0] * len(SIDES)
        if view.deck_top is not None:
            top[_SIDE[view.deck_top]] = 1
        camp_top = [[0] * 10 for _ in PEOPLES]
        for k, pile in enumerate(view.camp):
            if pile:
                camp_top[k][CARDS[pile[-1]].strength] = 1
        scores = [0] * seats
        for s, pts in enumerate(view.scores):
            scores[rel(s)] = pts
        return {
            "seat": [int(s == seat) for s in range(seats)],
            "peoples": peoples,
            "phase": [int(view.phase is p) for p in _PHASES],
            "to_act": to_act,
            "must_draw_deck": int(view.must_draw_deck),
            "cards": where,
            "hand_backs": backs,
            "deck_size": view.deck_size,
            "deck_top": top,
            "central": central,
            "owned": owned,
            "owned_count": counts,
            "developed": developed,
            "camp_size": [len(p) for p in view.camp],
            "camp_top": camp_top,
            "scores": scores,
        }

    layout = (
        Segment("seat", seats, doc="one-hot: the observer's seat at the table"),
        Segment("peoples", (seats, len(PEOPLES)), doc="one-hot per seat (from the observer): its people, "
                                                     "orcs, goblins, dwarves, giants"),
        Segment("phase", len(_PHASES), doc="one-hot: set-up, play, draw, over"),
        Segment("to_act", seats, doc="one-hot: the seat to act, from the observer (all 0 once over)"),
        Segment("must_draw_deck", (), doc="1 after a retreat: the draw must be from the deck"),
        Segment("cards", (DECK_SIZE, where_columns),
                doc="per card id, one-hot where its squad side is seen: the observer's hand, the hand of seat "
                    "1..n-1 (a card it took from the camp or showed in a retreat), a mine's stack, the camp, the "
                    "discard; all 0 where it is not seen"),
        Segment("hand_backs", (seats, len(SIDES)), high=HAND_SIZE,
                doc="per seat, how many cards of its hand show each mine side"),
        Segment("deck_size", (), high=DECK_SIZE, doc="cards left in the deck"),
        Segment("deck_top", len(SIDES), doc="one-hot: the mine side of the deck's top card"),
        Segment("central", (CENTRAL_MINES, _SLOT), high=_MOST_SQUADS,
                doc="the central mines in number order: one-hot side (17), squads on it, one-hot strength of "
                    "the top squad (10; all 0 when none)"),
        Segment("owned", (seats, OWN_SHOWN, _SLOT), high=_MOST_SQUADS,
                doc=f"per seat, its first {OWN_SHOWN} mines not yet developed, oldest first, as in `central`"),
        Segment("owned_count", seats, high=deck_after_deal(seats),
                doc="per seat, how many mines it owns and has not developed"),
        Segment("developed", (seats, len(SIDES)), high=_MOST_OF_A_SIDE,
                doc="per seat, how many mines of each side it has developed"),
        Segment("camp_size", len(PEOPLES), high=DECK_SIZE, doc="cards on each people's camp pile"),
        Segment("camp_top", (len(PEOPLES), 10), doc="per camp pile, one-hot strength of its top squad"),
        Segment("scores", seats, low=-_MOST_POINTS, high=_MOST_POINTS, doc="per seat, its points as the table stands"),
    )
    return Encoding(Actions(size, index, label), Observation(layout, encode))


def _fill_slot(row: Any, m: MineView) -> None:
    row[_SIDE[m.mine]] = 1
    row[len(SIDES)] = len(m.stack)
    if m.stack:
        row[len(SIDES) + 1 + CARDS[m.stack[-1]].strength] = 1
