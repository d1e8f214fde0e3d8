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

from collections.abc import Sequence
from functools import partial
from typing import Any

from meeple.engine import get_game
from meeple.engine._compiled import speedups
from meeple.engine.memo import Table
from meeple.games.kings.commands import DrawCamp, DrawDeck, Play, Retreat
from meeple.games.kings.data import CAMP_START, CARDS, CENTRAL_MINES, DECK_SIZE, HAND_SIZE, MINE_SIDES, PEOPLES, Mine
from meeple.games.kings.state import KingsOptions, Phase
from meeple.games.kings.tables import DRAW_CAMP, DRAW_DECK, RETREATS
from meeple.games.kings.view import KingsView, MineView
from meeple.games.kings.viewparts import changed_one

from ..encoding import Actions, Encoding, EncodingError, Observation, Segment

#: The distinct mine sides, by value, defence, depth and overseer: a side's index in observations.
SIDES: tuple[Mine, ...] = tuple(sorted(set(MINE_SIDES), key=lambda m: (m.value, m.defence, m.depth, m.overseer)))
_SIDE = {m: i for i, m in enumerate(SIDES)}
#: How many cards of the game carry each side (the bound of a side count).
_MOST_OF_A_SIDE = max(sum(1 for c in CARDS if c.mine == m) for m in SIDES)
#: Own mines each seat shows in the observation (the oldest first); more are counted, not shown.
OWN_SHOWN = 8
#: How many squad strengths there are (0-9): the width of a one-hot strength.
_STRENGTHS = 10
#: Mine slots' width in the observation: its side, how many squads are on it, the top squad's strength.
_SLOT = len(SIDES) + 1 + _STRENGTHS
#: The most squads a mine holds at once: its defence while central, its workers and overseer once owned.
_MOST_SQUADS = max(max(m.defence, m.depth + m.overseer) for m in SIDES)
_PHASES = (Phase.SETUP, Phase.PLAY, Phase.DRAW, Phase.OVER)
#: The most points a seat can have or owe: every mine developed, or every mine owned and not developed.
_MOST_POINTS = sum(c.mine.value for c in CARDS)


def deck_after_deal(seats: int) -> int:
    """Cards in the deck once the table is dealt: the bound of how many mines one seat can own."""
    return DECK_SIZE - CENTRAL_MINES - CAMP_START - HAND_SIZE * seats


def encoding(seats: int, options: KingsOptions, *, compiled: bool = True) -> Encoding:
    """The fixed action space and the observation layout of Underground Kings at ``seats`` (see the module).

    The observation is written by the compiled fill (``meeple._speedups.fill_kings``) where the package
    was built with it, unless ``compiled`` is False: the same bytes as the Python ``fill`` below, which
    defines them.
    """
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

    where_columns = seats + 3  # own hand, seen in the hand of seat 1..n-1, on a mine, in the camp, discard
    sides, width = len(SIDES), where_columns

    #: the ids of the commands that name no mine, by the identity of the game's own objects (kept by its tables)
    fixed = {id(c): index(c, None, 0) for c in (*RETREATS, DRAW_DECK, *DRAW_CAMP)}  # type: ignore[arg-type]

    def index_all(commands: Sequence[Any], view: KingsView, seat: int) -> list[int]:
        slot: dict[int, int] | None = None  # mine number -> slot (made once per table and seat)
        out: list[int] = []
        append = out.append
        for command in commands:
            if type(command) is Play:
                if slot is None:
                    slot = _slots_of(view.mines, seat)
                at = slot.get(command.mine, slots)
                if at >= slots:
                    at = slot_of(command.mine, view, seat)  # raises: the mine is beyond the slots
                append(command.card * slots + at)
            else:
                known = fixed.get(id(command))
                append(known if known is not None else index(command, view, seat))
        return out

    def fill(view: KingsView, seat: int, out: bytearray) -> list[tuple[int, float]]:
        n = seats
        out[o_seat + seat] = 1
        for s, p in enumerate(view.peoples):
            out[o_peoples + (s - seat) % n * len(PEOPLES) + p.index] = 1
        phase = _PHASE_INDEX.get(id(view.phase))
        if phase is not None:
            out[o_phase + phase] = 1
        if phase == 1 or phase == 2:  # play, draw
            out[o_to_act + (view.turn - seat) % n] = 1
        if view.must_draw_deck:
            out[o_must] = 1
        for c in view.hand:
            out[o_cards + c * width] = 1
        for s, known in enumerate(view.open_hands):
            if s != seat and known:
                col = o_cards + (s - seat) % n
                for c in known:
                    out[col + c * width] = 1
        # the mines: their stacks (a column of the cards), the central slots and each owner's, from the table's plan
        plan = _plan(view.mines)
        col = o_cards + n
        out[col:col + cards_span:width] = plan.stacks
        out[o_central:o_central + len(plan.central)] = plan.central
        for owner, (count, block) in plan.owned.items():
            r = (owner - seat) % n
            at = o_owned + r * owned_span
            out[at:at + len(block)] = block
            out[o_owned_count + r] = count
        col += 1  # the camp and the discard, whole columns remembered by the tuples' identity
        out[col:col + cards_span:width] = _column(view.camp, True)
        col += 1
        if view.discard:
            out[col:col + cards_span:width] = _column(view.discard, False)
        counted = _COUNTS_OF.get  # a row of counts per hand's backs and per seat's developed sides, remembered
        for s, hand in enumerate(view.hand_backs):
            if hand:
                row = o_backs + (s - seat) % n * sides
                hit = counted(id(hand))
                out[row:row + sides] = hit[1] if hit is not None and hit[0] is hand else _side_counts(hand)
        for s, dev in enumerate(view.developed):
            if dev:
                row = o_developed + (s - seat) % n * sides
                hit = counted(id(dev))
                out[row:row + sides] = hit[1] if hit is not None and hit[0] is dev else _side_counts(dev)
        out[o_deck_size] = view.deck_size
        if view.deck_top is not None:
            out[o_deck_top + _side(view.deck_top)] = 1
        for i, v in _camp_writes(view.camp):
            out[i] = v
        return [(o_scores + (s - seat) % n, pts) for s, pts in enumerate(view.scores) if pts]  # may be negative

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
    at = {p.name: p.offset for p in Observation(layout, _no_encoder).segments_at()}
    o_seat, o_peoples, o_phase, o_to_act, o_must = at["seat"], at["peoples"], at["phase"], at["to_act"], \
        at["must_draw_deck"]
    o_cards, o_backs, o_deck_size, o_deck_top = at["cards"], at["hand_backs"], at["deck_size"], at["deck_top"]
    o_central, o_owned, o_owned_count, o_developed = at["central"], at["owned"], at["owned_count"], at["developed"]
    o_camp_size, o_camp_top, o_scores = at["camp_size"], at["camp_top"], at["scores"]
    camp_memo: dict[int, tuple[Any, list[tuple[int, int]]]] = {}
    cards_span, owned_span = DECK_SIZE * width, OWN_SHOWN * _SLOT

    def _camp_writes(camp: tuple[tuple[int, ...], ...]) -> list[tuple[int, int]]:
        """The sizes and top squads of the camp piles as writes, remembered by the camp's identity."""
        hit = camp_memo.get(id(camp))
        if hit is not None and hit[0] is camp:
            return hit[1]
        if len(camp_memo) >= 1024:
            camp_memo.clear()
        writes = [w for k, pile in enumerate(camp) if pile
                  for w in ((o_camp_size + k, len(pile)), (o_camp_top + k * 10 + CARDS[pile[-1]].strength, 1))]
        camp_memo[id(camp)] = (camp, writes)
        return writes

    if compiled and speedups is not None:
        spec = (seats, width, o_seat, o_peoples, o_phase, o_to_act, o_must, o_cards, o_backs, o_deck_size, o_deck_top,
                o_central, o_owned, o_owned_count, o_developed, o_camp_size, o_camp_top, o_scores, sides, OWN_SHOWN,
                CENTRAL_MINES, _SLOT, len(PEOPLES), _STRENGTHS, _PHASES, _SIDE_ID, _side,
                bytes(c.strength for c in CARDS))
        return Encoding(Actions(size, index, label, index_all=index_all),
                        Observation.filled(layout, partial(speedups.fill_kings, spec)))
    return Encoding(Actions(size, index, label, index_all=index_all), Observation.filled(layout, fill))


def _no_encoder(view: Any, seat: int) -> dict[str, Any]:
    return {}


#: A phase's index by its identity (an enum member's hash is a Python-level call).
_PHASE_INDEX = {id(p): i for i, p in enumerate(_PHASES)}
#: A mine side's index by the identity of the game's own Mine objects (an attrs hash costs more than the lookup).
_SIDE_ID = {id(m): _SIDE[m] for m in (*MINE_SIDES, *(c.mine for c in CARDS))}  # every object, not a set of them
_KEEP = (MINE_SIDES, CARDS)  # the objects whose identities key _SIDE_ID stay alive with this module
_COUNTS_OF: dict[int, tuple[tuple[Mine, ...], bytes]] = {}


def _side(m: Mine) -> int:
    side = _SIDE_ID.get(id(m))
    return _SIDE[m] if side is None else side


def _side_counts(mines: tuple[Mine, ...]) -> bytes:
    """How many of ``mines`` show each side, as a row of bytes, remembered by the tuple's identity (views share them)."""
    hit = _COUNTS_OF.get(id(mines))
    if hit is not None and hit[0] is mines:
        return hit[1]
    if len(_COUNTS_OF) >= 4096:
        _COUNTS_OF.clear()
    row = bytearray(len(SIDES))
    by_id = _SIDE_ID
    for m in mines:
        side = by_id.get(id(m))
        row[_SIDE[m] if side is None else side] += 1
    _COUNTS_OF[id(mines)] = (mines, bytes(row))
    return _COUNTS_OF[id(mines)][1]


_COLUMNS: dict[int, tuple[Any, bytes]] = {}


def _column(cards: Any, piles: bool) -> bytes:
    """1 at each card of ``cards`` (or of each pile of it, with ``piles``), remembered by its identity."""
    hit = _COLUMNS.get(id(cards))
    if hit is not None and hit[0] is cards:
        return hit[1]
    if len(_COLUMNS) >= 1024:
        _COLUMNS.clear()
    column = bytearray(DECK_SIZE)
    for c in (c for pile in cards for c in pile) if piles else cards:
        column[c] = 1
    _COLUMNS[id(cards)] = (cards, bytes(column))
    return _COLUMNS[id(cards)][1]


#: Per mine on the table (by identity: views share them): its slot in the observation, as bytes.
_MINE_SLOTS: Table[int, tuple[MineView, bytes]] = Table("kings: observed mine slots", limit=256)


def _mine_slot(m: MineView) -> bytes:
    """A mine's slot in the observation: one-hot side, squads on it, one-hot strength of the top squad."""
    hit = _MINE_SLOTS.get(id(m))
    if hit is not None and hit[0] is m:
        return hit[1]
    row = bytearray(_SLOT)
    row[_side(m.mine)] = 1
    stack = m.stack
    if stack:
        row[len(SIDES)] = len(stack)
        row[len(SIDES) + 1 + CARDS[stack[-1]].strength] = 1
    return _MINE_SLOTS.put(id(m), (m, bytes(row)))[1]


class Plan:
    """What the observation and the action ids read of the mines on the table, worked out once per table.

    ``stacks`` is 1 at every card in a mine's stack (a column of the
    ``cards`` segment); ``central`` the slots of the first central mines,
    back to back; ``owned`` by owner (the seat, not yet turned to an
    observer), how many mines it owns and the slots of its first
    :data:`OWN_SHOWN`; ``numbers`` the central mines' numbers and each
    owner's, in number order (a mine's slot is its place there). ``rows``
    (the shown slots by owner, None for the central ones) and ``places``
    (per mine of the table, its owner and its place among that owner's)
    let the plan of the next table be patched from this one.
    """

    __slots__ = ("_slots", "central", "numbers", "owned", "places", "rows", "stacks")

    def __init__(self, stacks: bytes, rows: dict[int | None, list[bytes]], numbers: dict[int | None, list[int]],
                 places: tuple[tuple[int | None, int], ...], slots: dict[int, dict[int, int]] | None = None) -> None:
        self.stacks, self.rows, self.numbers, self.places = stacks, rows, numbers, places
        self.central = b"".join(rows.get(None, ()))
        self.owned = {owner: (len(numbers[owner]), b"".join(row)) for owner, row in rows.items() if owner is not None}
        self._slots: dict[int, dict[int, int]] = {} if slots is None else slots

    def slot_of(self, seat: int) -> dict[int, int]:
        """Mine number -> slot for ``seat``: the central mines 0..3 in number order, then its own from 4."""
        found = self._slots.get(seat)
        if found is None:
            found = {number: i for i, number in enumerate(self.numbers.get(None, ())) if i < CENTRAL_MINES}
            found.update({number: CENTRAL_MINES + j for j, number in enumerate(self.numbers.get(seat, ()))})
            self._slots[seat] = found
        return found


_PLANS: Table[int, tuple[tuple[MineView, ...], Plan]] = Table("kings: observed tables of mines", limit=256)
#: The table of the plan made last and that plan: a play changes one mine of it, so the next plan is patched from it.
_LAST: list[tuple[tuple[MineView, ...], Plan]] = []


def _plan(mines: tuple[MineView, ...]) -> Plan:
    """The :class:`Plan` of the view's ``mines``, remembered by the tuple's identity (views share it)."""
    hit = _PLANS.get(id(mines))
    if hit is not None and hit[0] is mines:
        return hit[1]
    plan = _patched(mines) if _LAST else None
    if plan is None:
        plan = _made(mines)
    _PLANS.put(id(mines), (mines, plan))
    _LAST[:] = ((mines, plan),)
    return plan


def _patched(mines: tuple[MineView, ...]) -> Plan | None:
    """The plan of ``mines`` from the last plan made, where they differ in one mine, its number and owner kept.

    The numbers and places stay those of the last plan (its slots by seat
    too, shared); the changed mine's cards leave the stacks column and its
    new ones enter it (a card lies in one stack at most), and its row is
    replaced where it is shown. None where the tables differ otherwise.
    """
    old, last = _LAST[0]
    changed = changed_one(old, mines)
    if changed < 0:
        return None
    was, now = old[changed], mines[changed]
    if was.number != now.number or was.owner != now.owner:
        return None
    stacks = bytearray(last.stacks)
    for c in was.stack:
        stacks[c] = 0
    for c in now.stack:
        stacks[c] = 1
    owner, k = last.places[changed]
    rows = last.rows
    if k < len(rows[owner]):
        rows = dict(rows)
        row = rows[owner] = list(rows[owner])
        row[k] = _mine_slot(now)
    return Plan(bytes(stacks), rows, last.numbers, last.places, last._slots)


def _made(mines: tuple[MineView, ...]) -> Plan:
    """The plan of ``mines``, worked out mine by mine."""
    stacks = bytearray(DECK_SIZE)
    numbers: dict[int | None, list[int]] = {}
    rows: dict[int | None, list[bytes]] = {}
    places: list[tuple[int | None, int]] = []
    for m in mines:
        for c in m.stack:
            stacks[c] = 1
        owner = m.owner
        got = numbers.get(owner)
        if got is None:
            got = numbers[owner] = []
            rows[owner] = []
        places.append((owner, len(got)))
        got.append(m.number)
        if len(got) <= (CENTRAL_MINES if owner is None else OWN_SHOWN):
            rows[owner].append(_mine_slot(m))
    return Plan(bytes(stacks), rows, numbers, tuple(places))


#: Per table of mines (by identity): mine number -> slot, by seat. What the action ids read of the table.
_SLOT_MAPS: Table[int, tuple[tuple[MineView, ...], dict[int, dict[int, int]]]] = Table(
    "kings: action slots of tables of mines", limit=256)
#: The table whose slots were asked for last, and its slots by seat: a play changes one mine of it.
_LAST_SLOTS: list[tuple[tuple[MineView, ...], dict[int, dict[int, int]]]] = []


def _slots_of(mines: tuple[MineView, ...], seat: int) -> dict[int, int]:
    """Mine number -> slot for ``seat``: the central mines 0..3 in number order, then its own from 4.

    Remembered by the table's identity; a table that differs from the last
    one asked about in one mine, its number and owner kept (a squad played
    onto it), shares that table's slots.
    """
    hit = _SLOT_MAPS.get(id(mines))
    if hit is None or hit[0] is not mines:
        by_seat: dict[int, dict[int, int]] = {}
        if _LAST_SLOTS:
            old, kept = _LAST_SLOTS[0]
            i = changed_one(old, mines)
            if i >= 0 and old[i].number == mines[i].number and old[i].owner == mines[i].owner:
                by_seat = kept
        hit = _SLOT_MAPS.put(id(mines), (mines, by_seat))
        _LAST_SLOTS[:] = (hit,)
    found = hit[1].get(seat)
    if found is None:
        found = hit[1][seat] = {}
        central = own = 0
        for m in mines:
            if m.owner is None:
                if central < CENTRAL_MINES:
                    found[m.number] = central
                central += 1
            elif m.owner == seat:
                found[m.number] = CENTRAL_MINES + own
                own += 1
    return found
