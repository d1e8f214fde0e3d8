"""Saboteur for ``meeple.rl``: actions by hand slot, board position and target, and a tensor of one seat's view.

**Actions.** A card is named by its *slot*: the first place of the seat's
(sorted) hand that holds a card of that kind, ``0 .. SLOTS - 1``. Board
positions are those of a bounded window around the start, columns
``COLS`` by rows ``ROWS`` (the start at (0, 0), the goals at column 8); a
placement outside it has no action id and raises ``EncodingError`` (in 30
measured matches of random and heuristic play every legal placement lay
within columns -9..11 and rows -11..9). In this order:

==================  =========================================  ==============================
block               one action per                             commands
==================  =========================================  ==============================
``path``            slot x position x (unturned, turned)       ``PlayPath``
``rockfall``        position                                   ``Rockfall``
``map``             goal (0 top, 1 middle, 2 bottom)           ``PeekGoal``
``on_seat``         slot x target seat                         ``BreakTool``, ``TargetAction``,
                                                               ``SwapHand``, ``Inspect``
``repair``          slot x target seat x tool                  ``RepairTool``
``discard``         set of 1-3 slots (a bit mask of slots)     ``Discard``
``clear``           pair of slots x card in front removed      ``ClearFront`` (Deluxe)
``take``            gold card value 1, 2, 3                    ``TakeGold``
``steal``           target seat                                ``Steal``
==================  =========================================  ==============================

Target seats are absolute (seat numbers), as in the commands.

**Observation.** Seats are counted from the observer (0 is itself, 1 the
next seat, and so on); the board is the same window as the actions.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from itertools import combinations
from typing import Any, cast

from meeple.engine import Command, get_game
from meeple.games.saboteur.board import shape
from meeple.games.saboteur.commands import (
    BreakTool,
    ClearFront,
    Discard,
    Inspect,
    PeekGoal,
    PlayPath,
    RepairTool,
    Rockfall,
    Steal,
    SwapHand,
    TakeGold,
    TargetAction,
)
from meeple.games.saboteur.data import DELUXE_ROLES, GOLD_CARDS, KINDS, Action, GoalKind, Role, Tool, base_roles, deck
from meeple.games.saboteur.state import Edition, Front, Phase, SaboteurOptions
from meeple.games.saboteur.view import View

from ..encoding import Actions, ByIdentity, Encoding, EncodingError, Observation, Segment, Steps

#: Hand slots an action may name (no hand holds more than six cards).
SLOTS = 6
#: The board window: columns and rows (inclusive bounds).
COLS = (-14, 18)
ROWS = (-16, 16)
_WIDTH, _HEIGHT = COLS[1] - COLS[0] + 1, ROWS[1] - ROWS[0] + 1
POSITIONS = _WIDTH * _HEIGHT
_TOOLS = (Tool.PICKAXE, Tool.LANTERN, Tool.CART)
_FRONTS = tuple(Front)
_ROLES = tuple(Role)
_PHASES = tuple(Phase)
_GOALS = (None, GoalKind.GOLD, GoalKind.COAL_A, GoalKind.COAL_B)
#: Discards: every set of one to three slots, as bit masks, in increasing order.
_DISCARDS = tuple(m for m in range(1, 1 << SLOTS) if bin(m).count("1") <= 3)
_DISCARD_ID = {m: i for i, m in enumerate(_DISCARDS)}
_PAIRS = tuple(combinations(range(SLOTS), 2))
_PAIR_ID = {p: i for i, p in enumerate(_PAIRS)}
_HARM = (Action.BREAK, Action.TRAPPED)
_HELP = (Action.REPAIR, Action.FREE)
#: Cell channels of the board segment.
_CHANNELS = ("card", "north", "east", "south", "west", "through")
_DEPTH, _NKINDS, _NGOALS, _NFRONTS, _NROLES = len(_CHANNELS), len(KINDS), len(_GOALS), len(_FRONTS), len(_ROLES)


def _position(col: int, row: int) -> int:
    if not (COLS[0] <= col <= COLS[1] and ROWS[0] <= row <= ROWS[1]):
        raise EncodingError(f"saboteur: ({col}, {row}) lies outside the action window, columns {COLS[0]}..{COLS[1]} "
                            f"and rows {ROWS[0]}..{ROWS[1]}")
    return (col - COLS[0]) * _HEIGHT + (row - ROWS[0])


def _slot(hand: Sequence[int], kind: int) -> int:
    try:
        slot = hand.index(kind)
    except ValueError:
        raise EncodingError(f"saboteur: the hand holds no card of kind {kind}") from None
    if slot >= SLOTS:
        raise EncodingError(f"saboteur: a hand of more than {SLOTS} cards has no action ids")
    return slot


def _slots(hand: Sequence[int], cards: Sequence[int]) -> list[int]:
    """The slots of ``cards`` (sorted kinds), each copy in the next slot of its kind."""
    out: list[int] = []
    for kind in sorted(set(cards)):
        first = _slot(hand, kind)
        out += range(first, first + cards.count(kind))
    if out and max(out) >= SLOTS:
        raise EncodingError(f"saboteur: a hand of more than {SLOTS} cards has no action ids")
    return sorted(out)


def encoding(seats: int, options: SaboteurOptions) -> Encoding:
    """The fixed action space and the observation layout of Saboteur at ``seats`` (see the module)."""
    n = seats
    blocks = (("path", SLOTS * POSITIONS * 2), ("rockfall", POSITIONS), ("map", 3), ("on_seat", SLOTS * n),
              ("repair", SLOTS * n * 3), ("discard", len(_DISCARDS)), ("clear", len(_PAIRS) * len(_FRONTS)),
              ("take", 3), ("steal", n))
    start: dict[str, int] = {}
    size = 0
    for name, count in blocks:
        start[name] = size
        size += count

    def index(command: Command, view: View, seat: int) -> int:
        hand = view.hand
        match command:
            case PlayPath(card=card, col=col, row=row, rotated=rotated):
                return start["path"] + (_slot(hand, card) * POSITIONS + _position(col, row)) * 2 + int(rotated)
            case Rockfall(col=col, row=row):
                return start["rockfall"] + _position(col, row)
            case PeekGoal(goal=goal):
                return start["map"] + goal
            case BreakTool(card=card, target=t) | TargetAction(card=card, target=t) | SwapHand(card=card, target=t) \
                    | Inspect(card=card, target=t):
                return start["on_seat"] + _slot(hand, card) * n + t
            case RepairTool(card=card, target=t, tool=tool):
                return start["repair"] + (_slot(hand, card) * n + t) * 3 + _TOOLS.index(tool)
            case Discard(cards=cards):
                return start["discard"] + _DISCARD_ID[sum(1 << s for s in _slots(hand, cards))]
            case ClearFront(cards=cards, removed=removed):
                a, b = _slots(hand, cards)
                return start["clear"] + _PAIR_ID[a, b] * len(_FRONTS) + _FRONTS.index(removed)
            case TakeGold(value=value):
                return start["take"] + value - 1
            case Steal(target=t):
                return start["steal"] + t
        raise EncodingError(f"saboteur: {command!r} has no action id")

    def label(action: int) -> str:
        name = next(b for b, _ in reversed(blocks) if start[b] <= action)
        return f"{name} #{action - start[name]}"

    deluxe = options.edition is Edition.DELUXE
    cards = len(deck(deluxe))
    roles = len(DELUXE_ROLES if deluxe else base_roles(n))

    c0, r0 = COLS[0], ROWS[0]
    # per command (by identity; the entry holds it): its card kind and its id in each slot, or None and its
    # one id whatever the hand, or (None, None) where ``index`` must say (a placement outside the window)
    by_command: dict[int, tuple[Command, int | None, Any]] = {}

    def ids_of(command: Command) -> tuple[Command, int | None, Any]:
        what, c = type(command), cast(Any, command)
        entry: tuple[Command, int | None, Any] = (command, None, None)
        if what is PlayPath:
            col, row = c.col - c0, c.row - r0
            if 0 <= col < _WIDTH and 0 <= row < _HEIGHT:
                cell = (col * _HEIGHT + row) * 2 + (1 if c.rotated else 0)
                entry = (command, c.card, tuple(o_path + s * POSITIONS * 2 + cell for s in range(SLOTS)))
        elif what is Discard and len(c.cards) == 1:
            entry = (command, c.cards[0], tuple(o_discard + _DISCARD_ID[1 << s] for s in range(SLOTS)))
        elif what in _ON_SEAT:
            entry = (command, c.card, tuple(o_on_seat + s * n + c.target for s in range(SLOTS)))
        elif what is RepairTool:
            tool = _TOOLS.index(c.tool)
            entry = (command, c.card, tuple(o_repair + (s * n + c.target) * 3 + tool for s in range(SLOTS)))
        elif what is Rockfall:
            col, row = c.col - c0, c.row - r0
            if 0 <= col < _WIDTH and 0 <= row < _HEIGHT:
                entry = (command, None, o_rockfall + col * _HEIGHT + row)
        elif what is PeekGoal:
            entry = (command, None, start["map"] + c.goal)
        elif what is TakeGold:
            entry = (command, None, start["take"] + c.value - 1)
        elif what is Steal:
            entry = (command, None, start["steal"] + c.target)
        if len(by_command) >= 1 << 16:
            by_command.clear()
        by_command[id(command)] = entry
        return entry

    def index_all(commands: Sequence[Command], view: View, seat: int) -> list[int]:
        first: dict[int, int] = {}  # card kind -> the first slot holding it, worked out once for all the commands
        for i, kind in enumerate(view.hand[:SLOTS]):
            first.setdefault(kind, i)
        out: list[int] = []
        get = by_command.get
        for command in commands:
            entry = get(id(command))
            if entry is None:
                entry = ids_of(command)
            _, card, ids = entry
            if card is not None:
                slot = first.get(card)
                out.append(ids[slot] if slot is not None else index(command, view, seat))  # no slot: raises
            elif ids is not None:
                out.append(ids)
            else:
                out.append(index(command, view, seat))
        return out

    board_memo: list[Any] = [()]  # the last cells encoded (their bytes: board_bytes, written over in place)
    board_bytes = bytearray(_WIDTH * _HEIGHT * len(_CHANNELS))
    deeds_memo: list[Any] = [None, {}]  # the last deeds counted, and their counts

    def _deed_counts(deeds: tuple[Any, ...], before: Any, counted: dict[tuple[int, int, int], int]
                     ) -> dict[tuple[int, int, int], int]:
        """How often each seat harmed or helped each seat, by (segment offset, seat, target), in ``deeds``.

        The deeds of a round only grow: when ``before`` (counted as ``counted``) begins ``deeds``, only the
        new ones are counted, and ``counted`` itself is the answer when none of them harms or helps.
        """
        if before is not None and len(before) <= len(deeds) and deeds[:len(before)] == before:
            counts, new = counted, deeds[len(before):]
        else:
            counts, new = {}, deeds
        for d in new:
            if d.card is not None and d.target is not None:
                action = KINDS[d.card].action
                table = o_harmed if action in _HARM else o_helped if action in _HELP else None
                if table is not None:
                    key = (table, d.seat, d.target)
                    if counts is counted:
                        counts = dict(counted)
                    counts[key] = counts.get(key, 0) + 1
        return counts

    def deeds_part(seat: int, counts: dict[tuple[int, int, int], int]) -> bytes:
        """The segments ``harmed`` and ``helped`` (one after the other) of the counts, for ``seat``."""
        out = bytearray(2 * n * n)
        for (table, s, t), count in counts.items():
            out[table - o_harmed + (s - seat) % n * n + (t - seat) % n] = min(3, count)
        return bytes(out)

    deeds_of = ByIdentity(deeds_part)

    def fill(view: View, seat: int, out: bytearray) -> None:
        out[o_seat + seat] = 1
        if 0 <= view.round < 4:
            out[o_round + view.round] = 1
        phase = view.phase
        out[o_phase + _PHASES.index(phase)] = 1
        if phase is Phase.PLAY:
            out[o_to_act + (view.turn - seat) % n] = 1
        elif phase is Phase.CHOOSE and view.chooser >= 0:
            out[o_to_act + (view.chooser - seat) % n] = 1
        elif phase is Phase.THEFT and view.theft_queue:
            out[o_to_act + (view.theft_queue[0] - seat) % n] = 1
        if view.role is not None:
            out[o_role + _ROLES.index(view.role)] = 1
        for i, kind in enumerate(view.hand[:SLOTS]):
            out[o_hand + i * _NKINDS + kind] = 1
        board = view.board
        cells = board.cells
        if board_memo[0] is not cells:  # the cells change only when a card is laid or removed
            _board_bytes(cells, board_memo[0], board_bytes)
            board_memo[0] = cells
        out[o_board:o_goals] = board_bytes
        known = dict(view.known_goals) if view.known_goals else {}
        for i, g in enumerate(board.goals):
            out[o_goals + i * _NGOALS + _GOALS.index(g.kind if g.kind is not None else known.get(i))] = 1
        for s, items in enumerate(view.front):
            if items:
                row = o_front + (s - seat) % n * _NFRONTS
                for f in items:
                    out[row + _FRONTS.index(f)] = 1
        for t, seen in view.inspected:
            out[o_inspected + (t - seat) % n * _NROLES + _ROLES.index(seen)] = 1
        deeds = view.deeds
        if deeds:
            if deeds_memo[0] is not deeds:
                deeds_memo[:] = [deeds, _deed_counts(deeds, deeds_memo[0], deeds_memo[1])]
            counts = deeds_memo[1]
            if counts:
                part = deeds_of.get((seat, id(counts)))
                out[o_harmed:o_hand_sizes] = part if part is not None else deeds_of.add(seat, counts)
        seats_in_order = order[seat]
        sizes, discards, holds = view.hand_sizes, view.discard_counts, view.holds_gold
        if len(sizes) == len(discards) == n:
            out[o_hand_sizes:o_discards] = bytes([sizes[s] for s in seats_in_order])
            out[o_discards:o_pile] = bytes([discards[s] for s in seats_in_order])
        else:
            for r, s in enumerate(seats_in_order):
                if s < len(sizes):
                    out[o_hand_sizes + r] = sizes[s]
                if s < len(discards):
                    out[o_discards + r] = discards[s]
        if holds is not None:
            for r, s in enumerate(seats_in_order):
                if holds[s]:
                    out[o_holds + r] = 1
        out[o_pile] = view.pile_size
        out[o_leftover] = view.leftover_roles_count
        out[o_my_gold] = min(view.my_gold or 0, 50)
        if view.offer:
            for k, v in enumerate((1, 2, 3)):
                out[o_offer + k] = view.offer.count(v)

    layout = (
        Segment("seat", n, doc="one-hot: the observer's seat at the table"),
        Segment("round", 4, doc="one-hot: the round, 1..3 (0 before the first deal)"),
        Segment("phase", len(_PHASES), doc="one-hot: deal, play, settle, choose, theft, over"),
        Segment("to_act", n, doc="one-hot: the seat to act, from the observer"),
        Segment("role", len(_ROLES), doc="one-hot: the observer's dwarf card (miner, saboteur, green, blue, boss, "
                                         "profiteer, geologist)"),
        Segment("hand", (SLOTS, len(KINDS)), doc="per hand slot, one-hot: the card kind there (all 0: empty slot)"),
        Segment("board", (_WIDTH, _HEIGHT, len(_CHANNELS)),
                doc=f"per window cell (column {COLS[0]}.., row {ROWS[0]}..): a path card lies there, its open "
                    "edges N, E, S, W, and whether a tunnel passes through it (0: a dead end)"),
        Segment("goals", (3, len(_GOALS)), doc="per goal (top, middle, bottom), one-hot: unknown, gold, coal A, "
                                               "coal B (turned, or looked at by the observer)"),
        Segment("front", (n, len(_FRONTS)), doc="per seat, the cards in front of it: broken pickaxe, lantern, cart, "
                                                "trapped, theft"),
        Segment("inspected", (n, len(_ROLES)), doc="per seat, one-hot: the role the observer saw with Inspection"),
        Segment("harmed", (n, n), high=3, doc="this round, how often seat i broke a tool of (or trapped) seat j, up to 3"),
        Segment("helped", (n, n), high=3, doc="this round, how often seat i repaired (or freed) seat j, up to 3"),
        Segment("hand_sizes", n, high=SLOTS, doc="per seat, cards in hand"),
        Segment("discards", n, high=cards, doc="per seat, cards it discarded face down this round"),
        Segment("pile", (), high=cards, doc="cards left in the pile"),
        Segment("leftover_roles", (), high=roles, doc="dwarf cards not dealt (Swap Your Hats draws from them)"),
        Segment("my_gold", (), high=50, doc="the observer's nuggets (up to 50)"),
        Segment("holds_gold", n, doc="Deluxe: per seat, whether it holds any gold (the thieves' targets)"),
        Segment("offer", 3, high=len(GOLD_CARDS), doc="base payout, to the chooser: gold cards of value 1, 2, 3 on offer"),
    )
    at = {p.name: p.offset for p in Observation(layout, _no_encoder).segments_at()}
    o_seat, o_round, o_phase, o_to_act, o_role, o_hand = at["seat"], at["round"], at["phase"], at["to_act"], \
        at["role"], at["hand"]
    o_board, o_goals, o_front, o_inspected, o_harmed, o_helped = at["board"], at["goals"], at["front"], \
        at["inspected"], at["harmed"], at["helped"]
    o_hand_sizes, o_discards, o_pile, o_leftover, o_my_gold, o_holds, o_offer = at["hand_sizes"], at["discards"], \
        at["pile"], at["leftover_roles"], at["my_gold"], at["holds_gold"], at["offer"]
    order = [tuple((r + seat) % n for r in range(n)) for seat in range(n)]  # per seat, the seats from it
    o_path, o_on_seat, o_discard = start["path"], start["on_seat"], start["discard"]
    o_rockfall, o_repair = start["rockfall"], start["repair"]
    return Encoding(Actions(size, index, label, index_all=index_all), Observation.filled(layout, fill),
                    steps=step_space(n))


#: The blocks of the step space, in id order: (name, how many ids, what an id names).
def _step_blocks(seats: int) -> tuple[tuple[str, int, str], ...]:
    return (
        ("card", SLOTS, "the card in hand slot k: played (then its cell, seat or goal), or one of a pass's cards"),
        ("discard", SLOTS, "pass, discarding the card in hand slot k"),
        ("discard_many", 2, "pass with 2 or 3 cards (then their slots as `card` steps, in order)"),
        ("cell", POSITIONS, "a board cell of the window (column-major, as in the flat space)"),
        ("turned", 2, "the path card unturned or turned"),
        ("goal", 3, "a goal card: top, middle, bottom"),
        ("seat", seats, "a target seat (absolute)"),
        ("tool", len(_TOOLS), "the tool repaired: pickaxe, lantern, cart"),
        ("clear", 1, "Deluxe: clear a card in front (then two `card` steps and a `front` step)"),
        ("front", len(_FRONTS), "the card in front removed"),
        ("take", 3, "take the gold card of value 1, 2, 3"),
        ("steal", 1, "steal (then a `seat` step)"),
    )


def step_space(seats: int) -> Steps:
    """Saboteur's step space: a command given as its card's slot, then its cell and turn, seat, goal or tool.

    Every step id means one thing whatever the position (``card`` 3 is hand
    slot 3, ``cell`` 40 one window cell), and a command's steps are:

    ==================  ==============================================
    ``PlayPath``        card, cell, turned
    ``Rockfall``        card, cell
    ``PeekGoal``        card, goal
    ``BreakTool`` ...   card, seat (also ``TargetAction``, ``SwapHand``, ``Inspect``)
    ``RepairTool``      card, seat, tool
    ``Discard``         discard (one card), or discard_many, card, card[, card]
    ``ClearFront``      clear, card, card, front
    ``TakeGold``        take
    ``Steal``           steal, seat
    ==================  ==============================================

    The slot of a card is the first slot of the (sorted) hand holding its
    kind, as in the flat space, so each step's legal ids are exactly the
    next steps of the legal commands.
    """
    blocks = _step_blocks(seats)
    at: dict[str, int] = {}
    total = 0
    for name, count, _ in blocks:
        at[name] = total
        total += count
    card, cell, seat_at = at["card"], at["cell"], at["seat"]

    def tokens(command: Command, view: View, seat: int) -> tuple[int, ...]:
        hand = view.hand
        match command:
            case PlayPath(card=c, col=col, row=row, rotated=rotated):
                return card + _slot(hand, c), cell + _position(col, row), at["turned"] + int(rotated)
            case Rockfall(card=c, col=col, row=row):
                return card + _slot(hand, c), cell + _position(col, row)
            case PeekGoal(card=c, goal=goal):
                return card + _slot(hand, c), at["goal"] + goal
            case BreakTool(card=c, target=t) | TargetAction(card=c, target=t) | SwapHand(card=c, target=t) \
                    | Inspect(card=c, target=t):
                return card + _slot(hand, c), seat_at + t
            case RepairTool(card=c, target=t, tool=tool):
                return card + _slot(hand, c), seat_at + t, at["tool"] + _TOOLS.index(tool)
            case Discard(cards=cards):
                slots = _slots(hand, cards)
                if len(slots) == 1:
                    return (at["discard"] + slots[0],)
                return (at["discard_many"] + len(slots) - 2, *(card + s for s in slots))
            case ClearFront(cards=cards, removed=removed):
                a, b = _slots(hand, cards)
                return at["clear"], card + a, card + b, at["front"] + _FRONTS.index(removed)
            case TakeGold(value=value):
                return (at["take"] + value - 1,)
            case Steal(target=t):
                return at["steal"], seat_at + t
        raise EncodingError(f"saboteur: {command!r} has no steps")

    def label(step: int) -> str:
        name = next(b for b, _, _ in reversed(blocks) if at[b] <= step)
        return f"{name} #{step - at[name]}"

    return Steps(total, tokens, label)


def _no_encoder(view: Any, seat: int) -> dict[str, Any]:
    return {}


_ON_SEAT = frozenset((BreakTool, TargetAction, SwapHand, Inspect))


def _board_bytes(cells: tuple[Any, ...], before: tuple[Any, ...], out: bytearray) -> None:
    """Make ``out``, the board segment of ``before``, that of ``cells``: per window cell, its channels.

    Where ``cells`` are ``before`` and more (cards laid), only the new cells are written.
    """
    if len(before) <= len(cells) and cells[:len(before)] == before:
        new = cells[len(before):]
    else:
        out[:] = bytes(len(out))
        new = cells
    for cell in new:
        if COLS[0] <= cell.col <= COLS[1] and ROWS[0] <= cell.row <= ROWS[1]:
            at = ((cell.col - COLS[0]) * _HEIGHT + cell.row - ROWS[0]) * _DEPTH
            out[at:at + _DEPTH] = _planes(cell.kind, cell.rotated)


@functools.cache
def _planes(kind: int, rotated: bool) -> bytes:
    """The board channels of a path card: it lies there, its open edges N, E, S, W, a tunnel through it."""
    tile = shape(kind, rotated)
    edges = tile.edges
    return bytes((1, edges & 1, edges >> 1 & 1, edges >> 2 & 1, edges >> 3 & 1, int(bool(tile.groups))))


def describe(command: Command) -> str:
    """The game's own short description of a command (for labels)."""
    return get_game("saboteur").describe(command)
