"""Text for people: a picture of the table (mines and their stacks, the camp, hands, scores) and commands in words."""

from __future__ import annotations

from meeple.engine import Command

from .commands import DrawCamp, DrawDeck, Play, Retreat, SetUp
from .data import CARDS, DECK_SIZE, PEOPLES, Mine, People
from .scoring import winners
from .state import Phase, State
from .text import PICTURE, TEXTS
from .view import view


def _squads(cards: tuple[int, ...], lang: str = "en") -> str:
    return " ".join(f"{_people(CARDS[c].people, lang)}{CARDS[c].strength}" for c in cards) or "-"


def _people(people: People, lang: str) -> str:
    """A people's two-letter mark in a squad's short text (``go`` for goblins; ``гб`` in Russian)."""
    return PICTURE.word(lang, people.value[:2])


def _mine(mine: Mine, lang: str) -> str:
    """A mine's short text (``5pt def2 dep3+O``) in ``lang``."""
    return PICTURE(lang, "{value}pt def{defence} dep{depth}", value=mine.value, defence=mine.defence, depth=mine.depth) + (
        PICTURE.word(lang, "+O") if mine.overseer else "")


def _squad(card: int, lang: str) -> str:
    return f"{TEXTS.word(lang, CARDS[card].people.value)} {CARDS[card].strength}"


#: What the abbreviations of the picture mean.
LEGEND = (
    "Key: 3pt def2 dep1+O a mine worth 3 points, taken by 2 squads (defence), developed by 1 worker (depth),",
    "     +O needing an overseer too; or2 go5 dw7 gi0 a squad: its people (orcs, goblins, dwarves, giants)",
    "     and its strength",
)


def render(state: State, seat: int | None = None, lang: str = "en") -> str:
    """Return the table as ``seat`` sees it (None: the referee, who sees every hand), in ``lang``.

    Squads are written as the people's first two letters and the strength
    (``go7`` is a goblin 7); mines as ``value pt, defence, depth, +O`` for an
    overseer.
    """
    _ = PICTURE
    if state.phase is Phase.SETUP:
        return _(lang, "Underground Kings, {n} players: not set up yet", n=state.seats)
    v = view(state, seat)
    lines = [_(lang, "Underground Kings, {n} players", n=state.seats)
             + (_(lang, " (you are seat {n})", n=seat) if seat is not None else "")]
    top = _mine(v.deck_top, lang) if v.deck_top is not None else "-"
    lines.append(_(lang, "Deck: {n} cards, top mine {top}", n=v.deck_size, top=top))
    lines.append(_.word(lang, "Central mines:"))
    for m in v.mines:
        if m.owner is None:
            lines.append(_(lang, "  mine {n} {mine} squads {stack}/{need}: {squads}", n=f"{m.number:<3}",
                           mine=f"{_mine(m.mine, lang):<18}", stack=len(m.stack), need=m.mine.defence,
                           squads=_squads(m.stack, lang)))
    lines.append(_.word(lang, "Camp (bottom to top): ")
                 + "; ".join(f"{TEXTS.word(lang, p.value)} {_squads(pile, lang)}" for p, pile in zip(PEOPLES, v.camp)))
    lines.extend(_.word(lang, line) for line in LEGEND)
    if v.discard:
        lines.append(_(lang, "Discard: {squads}", squads=_squads(v.discard, lang)))
    for s, people in enumerate(v.peoples):
        marker = "*" if s == v.turn and v.phase is not Phase.OVER else " "
        lines.append(marker + _(lang, "Seat {n} ({people} king), score {score}", n=s, people=TEXTS.word(lang, people.value),
                                score=v.scores[s]))
        for m in v.mines:
            if m.owner == s:
                need = _(lang, "{n}+overseer", n=m.mine.depth) if m.mine.overseer else str(m.mine.depth)
                lines.append(_(lang, "    mine {n} {mine} workers {stack}/{need}: {squads}", n=f"{m.number:<3}",
                               mine=f"{_mine(m.mine, lang):<18}", stack=len(m.stack), need=need,
                               squads=_squads(m.stack, lang)))
        if v.developed[s]:
            lines.append(_.word(lang, "    developed: ") + ", ".join(_mine(d, lang) for d in v.developed[s]))
        if seat is None or seat == s:
            hand = state.hands[s]
            lines.append(_.word(lang, "    hand: ")
                         + ", ".join(f"{_squad(c, lang)} [{_mine(CARDS[c].mine, lang)}]" for c in hand))
        else:
            lines.append(_.word(lang, "    hand backs: ") + ", ".join(_mine(b, lang) for b in v.hand_backs[s]))
            if v.open_hands[s]:
                lines.append(_.word(lang, "    seen by all: ") + ", ".join(_squad(c, lang) for c in v.open_hands[s]))
    if v.phase is Phase.OVER:
        best = winners(state)
        names = _.word(lang, " and ").join(
            _(lang, "seat {n} ({people})", n=s, people=TEXTS.word(lang, state.peoples[s].value)) for s in best)
        lines.append(_(lang, "Game over: the deck ran out. Winners: {names}." if len(best) > 1 else
                       "Game over: the deck ran out. Winner: {names}.", names=names))
    elif v.phase is Phase.DRAW:
        lines.append(_(lang, "Seat {n} draws from the deck (after a retreat)" if v.must_draw_deck else "Seat {n} draws",
                       n=v.turn))
    else:
        lines.append(_(lang, "Seat {n} plays a squad", n=v.turn))
    return "\n".join(lines)


def describe(command: Command) -> str:
    """A short description of a command, e.g. ``play goblins 7 (card 27) on mine 3``.

    Kings commands carry no secret, but a field read as None (a redacted or
    a hand-made command) is described without it.

    >>> describe(Play(27, 3)), describe(Play(None, 3))  # type: ignore[arg-type]
    ('play goblins 7 (card 27) on mine 3', 'play a squad on mine 3')
    """
    match command:
        case Play(card=card, mine=mine):
            squad = f"{CARDS[card].squad_label()} (card {card})" if _is_card(card) else "a squad"
            return f"play {squad} on mine {mine}" if mine is not None else f"play {squad}"
        case Retreat(card=card):
            squad = f"{CARDS[card].squad_label()} (card {card})" if _is_card(card) else "a squad"
            return f"show the hand and retreat {squad} to the camp"
        case DrawDeck():
            return "draw from the deck"
        case DrawCamp(people=people):
            return f"draw from the {people.value} camp pile" if isinstance(people, People) else "draw from a camp pile"
        case SetUp():
            return "set up the table"
    return repr(command)


def _is_card(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < DECK_SIZE
