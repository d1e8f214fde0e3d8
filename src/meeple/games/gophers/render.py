"""Text pictures of a Gophers position, and short names of commands.

The open spread is drawn as its grid of holes: each hole shows its number,
its label and the pawn on it; tunnels join holes, blanks are walls. Under
the board a key (:data:`KEY`, :data:`CARD_KEY`) explains every symbol the
picture uses.
"""

from __future__ import annotations

from meeple.engine import Command

from .commands import Add, Collect, Deal, Dig, Move, OpenBook, Pass, Place, Roll, Subtract, TakeGift
from .data import COLS, ROWS, Card, spread
from .rules import score
from .state import Phase, State
from .text import PICTURE, reason

_CELL = 9

#: Every symbol drawn on the board, with its meaning, in the order the key prints them.
KEY: tuple[tuple[str, str], ...] = (
    ("07", "hole number"),
    ("A5", "5 acorns"),
    ("B5", "5 berries"),
    ("W5", "5 wheat ears"),
    ("S9", "store: 9 of any kind"),
    ("P", "portal"),
    ("G", "gift"),
    (".", "nothing"),
    ("@1", "seat 1's pawn"),
    ("-", "tunnel to the right"),
    ("|", "tunnel below"),
    ("blank", "wall"),
)

#: What the lines under the board use: card names and the two piles.
CARD_KEY: tuple[tuple[str, str], ...] = (
    ("A7 B7 W7", "acorn, berry, wheat-ear card of value 7"),
    ("D", "dig card"),
    ("?", "a card you have not seen"),
    ("+[...]", "face-up pile (added cards and gifts)"),
    ("-[...]", "face-down pile (subtracted cards)"),
)


def legend(width: int = 78, baskets: bool = False, lang: str = "en") -> str:
    """The key printed under the board, wrapped to ``width`` columns, in ``lang``.

    >>> print(legend(40).splitlines()[0])
    Key: 07 hole number; A5 5 acorns;
    """
    w = PICTURE.word
    entries = [f"{w(lang, sym)} {w(lang, meaning)}" for sym, meaning in (*KEY, *CARD_KEY)]
    if baskets:
        entries.append(w(lang, "baskets [0, 2] the owners whose baskets a seat holds"))
    lines: list[str] = []
    head = line = w(lang, "Key:")
    for e in entries:
        piece = f" {e};"
        if len(line) + len(piece) > width and line != head:
            lines.append(line)
            line = "    "
        line += piece
    lines.append(line.rstrip(";"))
    return "\n".join(lines)


def _cards(cards: tuple[Card | None, ...]) -> str:
    return " ".join("?" if c is None else repr(c) for c in cards) if cards else "-"


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


def render(state: State, seat: int | None = None, lang: str = "en") -> str:
    """The position as ``seat`` sees it (None: the referee, who sees every hand), in ``lang``."""
    _ = PICTURE
    opts = state.options
    lines = [_(lang, "Gophers ({variant}), {n} players", variant=_.word(lang, opts.variant.value), n=state.seats)]
    if state.phase is Phase.DEAL:
        return "\n".join([*lines, _.word(lang, "  (not dealt yet)")])
    if state.spread:
        lines.append(_(lang, "Spread {n} of 6", n=state.spread))
        lines.append(draw_spread(state.spread, state.positions))
    else:
        placed = [_(lang, "seat {n} on hole {hole}", n=s, hole=h) for s, h in enumerate(state.positions) if h >= 0]
        lines.append(_(lang, "The book is not open yet; pawns: {pawns}", pawns=", ".join(placed) or _.word(lang, "none placed")))
    lines.append(legend(baskets=opts.baskets, lang=lang))
    turn = state.turn
    for s in range(state.seats):
        you = _.word(lang, " (you)") if s == seat else ""
        if opts.beginner:
            hand = _(lang, "dig cards {n}", n=state.own_digs[s])
        elif seat is None or s == seat:
            hand = _(lang, "hand {cards}", cards=_cards(state.hands[s]))
        else:
            known = [c for c, m in zip(state.hands[s], state.seen[s]) if m >> seat & 1]
            hand = _(lang, "hand {n} cards", n=len(state.hands[s])) + (
                _(lang, " (you know {cards})", cards=_cards(tuple(known))) if known else "")
        basket = ""
        if opts.baskets:
            held = [o for o, h in enumerate(state.baskets) if h == s]
            basket = _(lang, "; baskets {held}", held=held)
        up, down = " ".join(map(repr, state.plus[s])), " ".join(map(repr, state.minus[s]))
        lines.append(_(lang, "seat {n}{you}: hole {hole}; score {score}; {hand}; pile +[{up}] -[{down}]", n=s, you=you,
                       hole=state.positions[s], score=score(state, s), hand=hand, up=up, down=down) + basket)
    if opts.beginner:
        lines.append(_(lang, "bank: {cards}", cards=_cards(state.bank)))
    else:
        deck = _(lang, "deck: {n} cards", n=len(state.deck))
        if seat is not None:
            known_deck = [_(lang, "{card} {n}{nth} from the top", card=repr(c), n=i + 1, nth=_.word(lang, _nth(i + 1)))
                          for i, (c, m) in enumerate(zip(state.deck, state.deck_seen)) if m >> seat & 1]
            if known_deck:
                deck += _(lang, " (you know: {cards})", cards=", ".join(known_deck))
        lines.append(deck)
    match state.phase:
        case Phase.PLACE:
            lines.append(_(lang, "seat {n} places a pawn", n=state.current))
        case Phase.START:
            lines.append(_(lang, "seat {n} to roll (or dig)", n=state.current))
        case Phase.MOVE:
            lines.append(_(lang, "seat {n} rolled {roll}: walk (or dig)", n=state.current, roll=state.roll))
        case Phase.GIFT:
            if seat is None or seat == state.current:
                offer = _cards(turn.offer)
            else:
                offer = _cards(tuple(c if m >> seat & 1 else None for c, m in zip(turn.offer, turn.offer_seen)))
            lines.append(_(lang, "seat {n} chooses a gift: {cards}", n=state.current, cards=offer))
        case Phase.COLLECT:
            who = state.collectors[0]
            laid = ""
            if turn.added or turn.subtracted:
                laid = _(lang, ", has laid {cards}", cards=_collection(turn.added, turn.subtracted))
            then = ", ".join(map(str, state.collectors[1:]))
            lines.append(_(lang, "seat {n} may collect", n=who) + laid + (_(lang, " (then seat {then})", then=then) if then else ""))
        case Phase.OVER:
            lines.append(_(lang, "game over: {reason}", reason=reason(lang, state.end_reason)))
    return "\n".join(lines)


def _nth(n: int) -> str:
    return "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def _collection(plus: tuple[Card, ...], minus: tuple[Card, ...]) -> str:
    return " + ".join(map(repr, plus)) + "".join(f" - {c!r}" for c in minus)


def describe(command: Command) -> str:
    """A short human name of a command (no Gophers command carries a secret).

    >>> from .data import card
    >>> describe(Subtract("A2"))
    'lay A2, subtracted'
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
        case Move(dest=d):
            j = command.jumped
            return f"walk to hole {d}" + (f" jumping {', '.join(f'seat {s}' for s in j)}" if j else "")
        case TakeGift(card=c):
            return f"keep gift {c}"
        case Add(card=c):
            return f"lay {c}, added"
        case Subtract(card=c):
            return f"lay {c}, subtracted"
        case Collect():
            return "collect with the laid cards"
        case Pass():
            return "pass (do not collect)"
    return repr(command)
