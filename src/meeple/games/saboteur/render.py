"""Text pictures: the tunnel board as a grid, the table, and short command descriptions.

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

A ``*`` in the top-left corner marks a crystal.
"""

from __future__ import annotations

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
from .data import KINDS, START_POSITION, E, GoalKind, N, S, W
from .state import Front, Phase, State
from .view import view

LEGEND = ("S start  ? goal  $ gold  c coal  + tunnel  x dead end  # bridge  % double curve  "
          "H ladder  g/b door  * crystal  |- open  :. stub")
GOAL_NAMES = ("top", "middle", "bottom")


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


def board_lines(state: State, seat: int | None = None) -> list[str]:
    """Draw the board as a grid of 3 x 3 boxes, with column and row numbers.

    A face-down goal is ``???``; one that ``seat`` saw with a map shows what
    it is in its centre (``?$?`` or ``?c?``), for that seat only.
    """
    boxes: dict[tuple[int, int], tuple[str, str, str]] = {}
    board = Board(state.cells, state.goals)
    boxes[START_POSITION] = _box(board.tiles[START_POSITION], "S")
    seen = state.known_goals[seat] if seat is not None and state.known_goals else frozenset()
    for i, g in enumerate(state.goals):
        mark = "$" if g.kind is GoalKind.GOLD else "c"
        if g.revealed:
            boxes[(g.col, g.row)] = _box(goal_tile(g.kind, g.rotated), mark)
        elif i in seen:
            boxes[(g.col, g.row)] = ("???", f"?{mark}?", "???")
        else:
            boxes[(g.col, g.row)] = ("???", "???", "???")
    for c in state.cells:
        boxes[(c.col, c.row)] = _box(shape(c.kind, c.rotated), _centre(c.kind), KINDS[c.kind].crystals > 0)
    cols = [p[0] for p in boxes]
    rows = [p[1] for p in boxes]
    c0, c1, r0, r1 = min(cols) - 1, max(cols) + 1, min(rows) - 1, max(rows) + 1
    lines = ["     " + "".join(f"{c:^3}" for c in range(c0, c1 + 1))]
    for r in range(r0, r1 + 1):
        for i in range(3):
            label = f"{r:>4} " if i == 1 else "     "
            lines.append(label + "".join(boxes.get((c, r), ("   ", " . ", "   "))[i] for c in range(c0, c1 + 1)))
    return lines


def render(state: State, seat: int | None = None) -> str:
    """The table as ``seat`` sees it (None: the referee sees everything)."""
    v = view(state, seat)
    ed = "Deluxe" if state.deluxe else "base game"
    lines = [f"Saboteur ({ed}), {state.seats} players, round {state.round} of 3, {state.phase.value}"]
    if state.round == 0:
        return lines[0]
    lines += board_lines(state, seat)
    lines.append(LEGEND)
    lines.append(f"pile: {v.pile_size} cards" + (f", {v.set_aside_count} set aside" if state.deluxe else ""))
    for s in range(state.seats):
        marks = " ".join(sorted(f.value for f in state.front[s]))
        who = "  <- to play" if state.phase is Phase.PLAY and state.turn == s else ""
        role = ""
        if seat is None:
            role = f" [{state.roles[s].value}]"
        elif s == seat and v.role is not None:
            role = f" [you: {v.role.value}]"
        lines.append(f"seat {s}{role}: {v.hand_sizes[s]} cards{(' | ' + marks) if marks else ''}{who}")
    if seat is None:
        for s in range(state.seats):
            lines.append(f"  hand {s}: {', '.join(KINDS[k].name for k in state.hands[s])}")
        lines.append(f"  goals: {', '.join(g.kind.value for g in state.goals)}; gold: {list(state.gold)}")
    else:
        lines.append(f"your hand: {', '.join(KINDS[k].name for k in v.hand) or '(empty)'}")
        for i, kind in v.known_goals:
            lines.append(f"you saw the {GOAL_NAMES[i]} goal: {kind.value}")
        for t, r in v.inspected:
            lines.append(f"you saw seat {t}'s dwarf card: {r.value}")
        if v.my_gold is not None:
            lines.append(f"your gold: {v.my_gold}")
        if v.offer:
            lines.append(f"gold on offer: {sorted(v.offer, reverse=True)}")
    for res in state.results:
        lines.append(f"round {res.number}: {res.team} won (winners {list(res.winners)}); "
                     f"roles {[r.value for r in res.roles]}")
    if v.gold is not None:
        lines.append(f"final gold: {list(v.gold)}")
    return "\n".join(lines)


def describe(command: Command) -> str:
    """A short description of a command."""
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
        case Discard(cards=cards):
            return "pass, discarding " + ", ".join(KINDS[k].name for k in cards)
        case ClearFront(cards=cards, removed=f):
            return f"discard {', '.join(KINDS[k].name for k in cards)} to remove your {f.value}"
        case TargetAction(card=k, target=t):
            return f"{KINDS[k].name} on seat {t}"
        case SwapHand(target=t):
            return f"swap your hand with seat {t}"
        case Inspect(target=t):
            return f"inspect seat {t}'s dwarf card"
        case TakeGold(value=v):
            return f"take a gold card worth {v}"
        case Steal(target=t):
            return f"steal a gold piece from seat {t}"
        case DealRound():
            return "deal a round"
        case SettleRound():
            return "pay the round"
    return repr(command)


__all__ = ["Front", "board_lines", "describe", "render"]
