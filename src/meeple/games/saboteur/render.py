"""Text pictures: the tunnel board as a grid, the table, hands, and short command descriptions.

Each card is drawn in a 3 x 3 box. Open edges joined through the card are
``|`` (north, south) and ``-`` (east, west); dead-end stubs are ``:`` and
``.``. The centre shows what the card is:

====  ==========================================
``S``  the start (it shows a ladder)
``?``  a face-down goal;  ``$`` gold;  ``c`` coal
``+``  a tunnel;  ``x``  a dead end
``#``  a bridge;  ``%`` a double curve (two separate tunnels)
``H``  a ladder;  ``g`` / ``b``  a green / blue door
====  ==========================================

A ``*`` in the top-left corner marks a crystal. A hand shows each path card
in the same box, the way it lies unturned. A seat's picture is drawn from its
view alone (what it may know); the referee's (seat None) adds the hidden
parts. Every line fits a terminal of :data:`WIDTH` columns.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping, Sequence

from meeple.engine import Command

from .board import Board, Tile, goal_tile, shape
from .commands import (
    BreakTool,
    ClearFront,
    DealRound,
    Discard,
    Inspect,
    PeekGoal,
    PlayPath,
    RepairTool,
    Rockfall,
    SettleRound,
    Steal,
    SwapHand,
    TakeGold,
    TargetAction,
)
from .data import KINDS, START_POSITION, Category, E, GoalKind, N, S, W
from .state import Deed, Front, Phase, State
from .text import PICTURE, TEXTS, team_words
from .view import View, view

#: The widest line any picture has (a terminal of 100 columns).
WIDTH = 100
LEGEND = (
    "S start  ? goal  $ gold  c coal  + tunnel  x dead end  # bridge  % double curve  H ladder",
    "g/b green/blue door  * crystal  | - open edge  : . dead-end stub  (a card may be turned 180 degrees)",
)
GOAL_NAMES = ("top", "middle", "bottom")
FRONT_NAMES = {
    Front.BROKEN_PICKAXE: "broken pickaxe",
    Front.BROKEN_LANTERN: "broken lantern",
    Front.BROKEN_CART: "broken cart",
    Front.TRAPPED: "trapped",
    Front.THEFT: "theft",
}
_BLANK = ("   ", " . ", "   ")


def _box(tile: Tile, centre: str, crystal: bool = False) -> tuple[str, str, str]:
    joined = 0
    for g in tile.groups:
        joined |= g

    def edge(bit: int, open_char: str, stub_char: str) -> str:
        if not tile.edges & bit:
            return " "
        return open_char if joined & bit else stub_char

    top = ("*" if crystal else " ") + edge(N, "|", ":") + " "
    mid = edge(W, "-", ".") + centre + edge(E, "-", ".")
    bottom = " " + edge(S, "|", ":") + " "
    return (top, mid, bottom)


def _centre(kind: int) -> str:
    k = KINDS[kind]
    if k.ladder:
        return "H"
    if k.door is not None:
        return k.door.value[0]
    if len(k.groups) == 2:
        return "#" if k.name == "bridge" else "%"
    return "+" if k.groups else "x"


def card_box(kind: int, rotated: bool = False) -> tuple[str, str, str]:
    """The 3 x 3 picture of path card ``kind`` (its open edges, stubs and what it is).

    >>> from .data import kind_id
    >>> card_box(kind_id("curve-a"))
    ('   ', ' +-', ' | ')
    """
    return _box(shape(kind, rotated), _centre(kind), KINDS[kind].crystals > 0)


def board_lines(board: Board, seen: Mapping[int, GoalKind] | None = None) -> list[str]:
    """Draw the board as a grid of 3 x 3 boxes, with column and row numbers.

    A face-down goal is ``???``; one in ``seen`` (goal index to kind, what a
    map showed the seat) shows what it is in its centre (``?$?`` or ``?c?``).
    A board wider than :data:`WIDTH` is drawn in bands of columns, one under
    the other.
    """
    boxes: dict[tuple[int, int], tuple[str, str, str]] = {}
    boxes[START_POSITION] = _box(board.network.tiles[START_POSITION], "S")
    seen = seen or {}
    for i, g in enumerate(board.goals):
        if g.kind is not None:
            boxes[(g.col, g.row)] = _box(goal_tile(g.kind, g.rotated), "$" if g.kind is GoalKind.GOLD else "c")
        elif i in seen:
            boxes[(g.col, g.row)] = ("???", f"?{'$' if seen[i] is GoalKind.GOLD else 'c'}?", "???")
        else:
            boxes[(g.col, g.row)] = ("???", "???", "???")
    for c in board.cells:
        boxes[(c.col, c.row)] = card_box(c.kind, c.rotated)
    cols = [p[0] for p in boxes]
    rows = [p[1] for p in boxes]
    c0, c1, r0, r1 = min(cols) - 1, max(cols) + 1, min(rows) - 1, max(rows) + 1
    band = (WIDTH - 5) // 3  # columns that fit beside the row numbers; a wider board is drawn in bands
    lines: list[str] = []
    for start in range(c0, c1 + 1, band):
        span = range(start, min(start + band, c1 + 1))
        lines.append("     " + "".join(f"{c:^3}" for c in span))
        for r in range(r0, r1 + 1):
            for i in range(3):
                label = f"{r:>4} " if i == 1 else "     "
                lines.append(label + "".join(boxes.get((c, r), _BLANK)[i] for c in span))
    return lines


def hand_lines(hand: Sequence[int], title: str = "your hand", lang: str = "en") -> list[str]:
    """A hand: each path card's shape drawn above its number, then every card by number and name.

    >>> from .data import kind_id
    >>> print("\\n".join(hand_lines([kind_id("crossroads"), kind_id("map")])))
    your hand:  1
                |
               -+-
                |
      1 crossroads, 2 map
    """
    title = PICTURE.word(lang, title)
    if not hand:
        return [f"{title}: {PICTURE.word(lang, '(empty)')}"]
    head = f"{title}: "
    pad = " " * len(head)
    paths = [(i, card_box(k)) for i, k in enumerate(hand, 1) if KINDS[k].category is Category.PATH]
    lines: list[str] = []
    if paths:
        lines.append(head + "".join(f"{i:^3}  " for i, _ in paths).rstrip())
        for row in range(3):
            lines.append(pad + "".join(f"{box[row]}  " for _, box in paths).rstrip())
    names = ", ".join(f"{i} {TEXTS.word(lang, KINDS[k].name)}" for i, k in enumerate(hand, 1))
    lines += _wrap("  ", names) if paths else _wrap(head, names)
    return lines


def _wrap(prefix: str, text: str, indent: str = "    ") -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=prefix, subsequent_indent=indent, break_on_hyphens=False)


def _front_text(front: Iterable[Front], lang: str = "en") -> str:
    return ", ".join(PICTURE.word(lang, FRONT_NAMES[f]) for f in sorted(front, key=lambda f: f.value))


def describe_deed(deed: Deed, lang: str = "en") -> str:
    """One turn of the round as the table saw it, e.g. ``seat 2 laid dead-curve-a at (3, 1)``, in ``lang``."""
    _ = PICTURE
    who = _(lang, "seat {n}", n=deed.seat)
    if deed.card is None:
        return _(lang, "{who} discarded two cards to clear a card in front" if deed.target is not None else "{who} passed",
                 who=who)
    name = TEXTS.word(lang, KINDS[deed.card].name)
    if deed.cell is not None:
        at = f"({deed.cell.col}, {deed.cell.row})"
        if KINDS[deed.card].category is Category.PATH:
            return _(lang, "{who} laid {card} at {at} turned" if deed.cell.rotated else "{who} laid {card} at {at}",
                     who=who, card=name, at=at)
        return _(lang, "{who} removed {card} at {at} with a rockfall", who=who,
                 card=TEXTS.word(lang, KINDS[deed.cell.kind].name), at=at)
    if deed.target is not None:
        return _(lang, "{who} played {card} on seat {target}", who=who, card=name, target=deed.target)
    return _(lang, "{who} played {card}", who=who, card=name)


def render(state: State, seat: int | None = None, lang: str = "en") -> str:
    """The table as ``seat`` sees it, drawn from its view (None: the referee sees everything), in ``lang``."""
    return render_view(view(state, seat), referee=state if seat is None else None, lang=lang)


def render_view(v: View, referee: State | None = None, lang: str = "en") -> str:
    """The table as the seat of view ``v`` sees it, in ``lang``; ``referee`` adds the hidden parts of that state."""
    _, word = PICTURE, TEXTS.word
    ed = _.word(lang, "Deluxe" if v.edition.value == "deluxe" else "base game")
    lines = [_(lang, "Saboteur ({edition}), {n} players, round {round} of 3, {phase}", edition=ed, n=v.seats,
               round=v.round, phase=_.word(lang, v.phase.value))]
    if v.round == 0:
        return lines[0]
    lines += board_lines(v.board, dict(v.known_goals))
    lines += [_.word(lang, line) for line in LEGEND]
    aside = _(lang, ", {n} set aside", n=v.set_aside_count) if v.edition.value == "deluxe" else ""
    passes = _(lang, ", {n} passed in a row", n=v.passes) if v.passes else ""
    lines.append(_(lang, "pile: {n} cards", n=v.pile_size) + aside + passes)
    for s in range(v.seats):
        role = ""
        if referee is not None:
            role = f" [{word(lang, referee.deal.roles[s].value)}]"
        elif s == v.seat and v.role is not None:
            role = _(lang, " [you: {role}]", role=word(lang, v.role.value))
        marks = f" | {_front_text(v.front[s], lang)}" if v.front[s] else ""
        who = _.word(lang, "  <- to play") if v.phase is Phase.PLAY and v.turn == s else ""
        lines.append(_(lang, "seat {n}", n=s) + role + _(lang, ": {n} cards", n=v.hand_sizes[s]) + marks + who)
    if referee is not None:
        for s in range(v.seats):
            lines += _wrap(_(lang, "  hand {n}: ", n=s),
                           ", ".join(word(lang, KINDS[k].name) for k in referee.hands[s]) or _.word(lang, "(empty)"))
        kinds = ", ".join(word(lang, k.value) for k in referee.deal.goal_kinds)
        lines += _wrap("  ", _(lang, "goals: {kinds}; gold: {gold}", kinds=kinds, gold=list(referee.purse.gold)))
    elif v.seat is not None:
        lines += hand_lines(v.hand, lang=lang)
        for i, kind in v.known_goals:
            lines.append(_(lang, "you saw the {goal} goal: {kind}", goal=word(lang, GOAL_NAMES[i]), kind=word(lang, kind.value)))
        for t, r in v.inspected:
            lines.append(_(lang, "you saw seat {n}'s dwarf card: {role}", n=t, role=word(lang, r.value)))
        for k in v.known_hands:
            names = ", ".join(word(lang, KINDS[c].name) for c in k.cards)
            if k.sure == len(k.cards):
                lines += _wrap("", _(lang, "you know seat {n} holds {cards}", n=k.holder, cards=names))
            else:
                lines += _wrap("", _(lang, "you know seat {n} holds at least {sure} of {cards}", n=k.holder, sure=k.sure,
                                     cards=names))
        for t, old in v.put_away:
            if old is not None:
                lines.append(_(lang, "seat {n} put away the dwarf card {role}", n=t, role=word(lang, old.value)))
        if v.my_gold is not None:
            lines.append(_(lang, "your gold: {n}", n=v.my_gold))
        if v.offer:
            lines.append(_(lang, "gold on offer: {gold}", gold=sorted(v.offer, reverse=True)))
    recent = v.deeds[-v.seats :]
    if recent:
        lines += _wrap(_.word(lang, "last turns: "), "; ".join(describe_deed(d, lang) for d in recent))
    for res in v.results:
        roles = ", ".join(f"{s} {word(lang, r.value)}" for s, r in enumerate(res.roles))
        lines += _wrap("", _(lang, "round {n}: {team} won (winners {winners}); roles: {roles}", n=res.number,
                             team=team_words(lang, res.team), winners=list(res.winners), roles=roles))
    if v.gold is not None:
        lines.append(_(lang, "final gold: {gold}", gold=list(v.gold)))
    return "\n".join(lines)


def describe(command: Command) -> str:
    """A short description of a command; secret fields of a redacted command (None) are not told.

    >>> describe(Discard(None))  # type: ignore[arg-type]
    'pass, discarding face down'
    """
    match command:
        case PlayPath(card=k, col=c, row=r, rotated=rot):
            return f"lay {KINDS[k].name} at ({c}, {r}){' turned' if rot else ''}"
        case BreakTool(card=k, target=t):
            return f"{KINDS[k].name} on seat {t}"
        case RepairTool(card=k, target=t, tool=tool):
            return f"{KINDS[k].name}: repair seat {t}'s {tool.value}"
        case Rockfall(col=c, row=r):
            return f"rockfall on ({c}, {r})"
        case PeekGoal(goal=g):
            return f"map: look at the {GOAL_NAMES[g] if 0 <= g < 3 else g} goal"
        case Discard(cards=None):
            return "pass, discarding face down"
        case Discard(cards=cards):
            return "pass, discarding " + ", ".join(KINDS[k].name for k in cards)
        case ClearFront(cards=None, removed=f):
            return f"discard two cards to remove your {f.value}"
        case ClearFront(cards=cards, removed=f):
            return f"discard {', '.join(KINDS[k].name for k in cards)} to remove your {f.value}"
        case TargetAction(card=k, target=t):
            return f"{KINDS[k].name} on seat {t}"
        case SwapHand(target=t):
            return f"swap your hand with seat {t}"
        case Inspect(target=t):
            return f"inspect seat {t}'s dwarf card"
        case TakeGold(value=None):
            return "take a gold card"
        case TakeGold(value=v):
            return f"take a gold card worth {v}"
        case Steal(target=t):
            return f"steal a gold piece from seat {t}"
        case DealRound():
            return "deal a round"
        case SettleRound():
            return "pay the round"
    return repr(command)


__all__ = ["LEGEND", "WIDTH", "board_lines", "card_box", "describe", "describe_deed", "hand_lines", "render",
           "render_view"]
