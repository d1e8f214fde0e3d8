"""Text for people: a picture of the table (mines and their stacks, the camp, hands, scores) and commands in words."""

from __future__ import annotations

from meeple.engine import Command

from .commands import DrawCamp, DrawDeck, Play, Retreat, SetUp
from .data import CARDS, DECK_SIZE, PEOPLES, People
from .scoring import winners
from .state import Phase, State
from .view import view


def _squads(cards: tuple[int, ...]) -> str:
    return " ".join(f"{CARDS[c].people.value[:2]}{CARDS[c].strength}" for c in cards) or "-"


#: What the abbreviations of the picture mean.
LEGEND = (
    "Key: 3pt def2 dep1+O a mine worth 3 points, taken by 2 squads (defence), developed by 1 worker (depth),",
    "     +O needing an overseer too; or2 go5 dw7 gi0 a squad: its people (orcs, goblins, dwarves, giants)",
    "     and its strength",
)


def render(state: State, seat: int | None = None) -> str:
    """Return the table as ``seat`` sees it (None: the referee, who sees every hand).

    Squads are written as the people's first two letters and the strength
    (``go7`` is a goblin 7); mines as ``value pt, defence, depth, +O`` for an
    overseer.
    """
    if state.phase is Phase.SETUP:
        return f"Underground Kings, {state.seats} players: not set up yet"
    v = view(state, seat)
    lines = [f"Underground Kings, {state.seats} players" + (f" (you are seat {seat})" if seat is not None else "")]
    top = v.deck_top.label() if v.deck_top is not None else "-"
    lines.append(f"Deck: {v.deck_size} cards, top mine {top}")
    lines.append("Central mines:")
    for m in v.mines:
        if m.owner is None:
            lines.append(f"  mine {m.number:<3} {m.mine.label():<18} squads {len(m.stack)}/{m.mine.defence}: {_squads(m.stack)}")
    lines.append("Camp (bottom to top): " + "; ".join(f"{p.value} {_squads(pile)}" for p, pile in zip(PEOPLES, v.camp)))
    lines.extend(LEGEND)
    if v.discard:
        lines.append(f"Discard: {_squads(v.discard)}")
    for s, people in enumerate(v.peoples):
        marker = "*" if s == v.turn and v.phase is not Phase.OVER else " "
        lines.append(f"{marker}Seat {s} ({people.value} king), score {v.scores[s]}")
        for m in v.mines:
            if m.owner == s:
                need = f"{m.mine.depth}+overseer" if m.mine.overseer else str(m.mine.depth)
                lines.append(f"    mine {m.number:<3} {m.mine.label():<18} workers {len(m.stack)}/{need}: {_squads(m.stack)}")
        if v.developed[s]:
            lines.append("    developed: " + ", ".join(d.label() for d in v.developed[s]))
        if seat is None or seat == s:
            hand = state.hands[s]
            lines.append("    hand: " + ", ".join(f"{CARDS[c].squad_label()} [{CARDS[c].mine.label()}]" for c in hand))
        else:
            lines.append("    hand backs: " + ", ".join(b.label() for b in v.hand_backs[s]))
            if v.open_hands[s]:
                lines.append("    seen by all: " + ", ".join(CARDS[c].squad_label() for c in v.open_hands[s]))
    if v.phase is Phase.OVER:
        best = winners(state)
        names = " and ".join(f"seat {s} ({state.peoples[s].value})" for s in best)
        lines.append(f"Game over: the deck ran out. {'Winners' if len(best) > 1 else 'Winner'}: {names}.")
    elif v.phase is Phase.DRAW:
        lines.append(f"Seat {v.turn} draws" + (" from the deck (after a retreat)" if v.must_draw_deck else ""))
    else:
        lines.append(f"Seat {v.turn} plays a squad")
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
