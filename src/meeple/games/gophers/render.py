"""Text pictures of a Gophers position, and short names of commands.

The open spread is drawn as its grid of holes: each hole shows its number,
its label (``A5`` acorns, ``B7`` berries, ``W3`` wheat ears, ``S9`` a store,
``P`` a portal, ``G`` a gift, ``.`` nothing) and the pawn on it (``@0`` is
seat 0's pawn). ``---`` and ``|`` are tunnels; blanks are walls.
"""

from __future__ import annotations

from meeple.engine import Command

from .commands import Collect, Deal, Dig, Move, OpenBook, Pass, Place, Roll, TakeGift
from .data import COLS, ROWS, Card, spread
from .state import Phase, State

_CELL = 9
#: The key printed under the spread.
LEGEND = "(A acorns, B berries, W wheat ears, S store: any kind, P portal, G gift; @n: seat n's pawn)"


def _cards(cards: tuple[Card, ...]) -> str:
    return " ".join(map(repr, cards)) if cards else "-"


def draw_spread(number: int, positions: tuple[int, ...] = ()) -> str:
    """Draw spread ``number`` with pawns at ``positions`` (indexed by seat; -1: not placed).

    >>> print(draw_spread(1).splitlines()[0])
    00 .     -01 .     -02 G     -03 P     -04 W11
    """
    sp = spread(number)
    pawn = {h: s for s, h in enumerate(positions) if h >= 0}
    lines = []
    for r in range(ROWS):
        row = ""
        below = ""
        for c in range(COLS):
            h = r * COLS + c
            mark = f"@{pawn[h]}" if h in pawn else ""
            cell = f"{h:02d} {sp.labels[h]!s:<3}{mark}"
            right = c + 1 < COLS and sp.connected(h, h + 1)
            row += cell.ljust(_CELL) + ("-" if right else " ") if c + 1 < COLS else cell
            down = r + 1 < ROWS and sp.connected(h, h + COLS)
            below += ("|" if down else " ").ljust(_CELL + 1)
        lines.append(row.rstrip())
        if r + 1 < ROWS:
            lines.append(below.rstrip())
    return "\n".join(lines)


def render(state: State, seat: int | None = None) -> str:
    """The position as ``seat`` sees it (None: the referee, who sees every hand)."""
    opts = state.options
    lines = [f"Gophers ({opts.variant.value}), {state.seats} players"]
    if state.phase in (Phase.DEAL,):
        return "\n".join([*lines, "  (not dealt yet)"])
    if state.spread:
        lines.append(f"Spread {state.spread} of 6")
        lines.append(draw_spread(state.spread, state.positions))
        lines.append(LEGEND)
    else:
        placed = [f"seat {s} on hole {h}" for s, h in enumerate(state.positions) if h >= 0]
        lines.append("The book is not open yet; pawns: " + (", ".join(placed) or "none placed"))
    from .rules import score

    for s in range(state.seats):
        you = " (you)" if s == seat else ""
        if opts.beginner:
            hand = f"dig cards {state.own_digs[s]}"
        elif seat is None or s == seat:
            hand = f"hand {_cards(state.hands[s])}"
        else:
            hand = f"hand {len(state.hands[s])} cards"
        basket = ""
        if opts.baskets:
            held = [o for o, h in enumerate(state.baskets) if h == s]
            basket = f"; baskets {held}"
        lines.append(f"seat {s}{you}: hole {state.positions[s]}; score {score(state, s)}; {hand}; "
                     f"pile +[{_cards(state.plus[s])}] -[{_cards(state.minus[s])}]{basket}")
    if opts.beginner:
        lines.append(f"bank: {_cards(state.bank)}")
    else:
        lines.append(f"deck: {len(state.deck)} cards")
    match state.phase:
        case Phase.PLACE:
            lines.append(f"seat {state.current} places a pawn")
        case Phase.START:
            lines.append(f"seat {state.current} to roll (or dig)")
        case Phase.MOVE:
            lines.append(f"seat {state.current} rolled {state.roll}: walk (or dig)")
        case Phase.GIFT:
            offer = _cards(state.gift_offer) if seat is None or seat == state.current else f"{len(state.gift_offer)} cards"
            lines.append(f"seat {state.current} chooses a gift: {offer}")
        case Phase.COLLECT:
            lines.append(f"seat {state.collectors[0]} may collect (then {list(state.collectors[1:])})")
        case Phase.OVER:
            lines.append(f"game over: {state.end_reason}")
    return "\n".join(lines)


def describe(command: Command) -> str:
    """A short human name of a command.

    >>> from .data import card
    >>> describe(Collect((card("A9"),), (card("A2"),)))
    'collect A9 - A2'
    """
    match command:
        case Deal():
            return "deal"
        case OpenBook():
            return "open the book"
        case Place(hole=h):
            return f"place pawn on hole {h}"
        case Roll():
            return "roll the die"
        case Dig():
            return "play a dig card"
        case Move(dest=d, jumped=j):
            return f"walk to hole {d}" + (f" jumping {', '.join(f'seat {s}' for s in j)}" if j else "")
        case TakeGift(card=c):
            return f"keep gift {c!r}"
        case Collect(plus=p, minus=m):
            text = " + ".join(map(repr, p))
            return "collect " + text + "".join(f" - {c!r}" for c in m)
        case Pass():
            return "pass (do not collect)"
    return repr(command)
