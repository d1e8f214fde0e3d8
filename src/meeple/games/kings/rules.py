"""The rules of Underground Kings: set-up, legal moves, decide, the end and evolve.

Read top to bottom it follows the rulebook (``docs/rules/kings.md``):
set-up and whose turn it is, the legal commands, then the ordering rule and
where a squad may go, capture, work and development, drawing, the stuck
hand, the end of the game, and one small evolver per event. These are plain
functions of the state; :mod:`.game` assembles them with the views, the text
and the bots into the game object. The values made once (the commands, the
cards by id, what a mine takes by its top squad) and the state's copier are
in :mod:`.tables`.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from itertools import compress
from typing import Any

from meeple.engine import Code, Command, Event, IllegalCommand, Outcome, Rng

from .commands import DrawCamp, DrawDeck, Play, Retreat, SetUp
from .data import CAMP_START, CARDS, CENTRAL_MINES, DECK_SIZE, HAND_SIZE, PEOPLES, TOP_STRENGTH, People, backs
from .events import (
    CampLaid,
    DeckShuffled,
    DrewFromCamp,
    DrewFromDeck,
    GameEnded,
    HandDealt,
    KingsDealt,
    MineCaptured,
    MineDeveloped,
    MineTurned,
    Retreated,
    SquadPlayed,
    TurnEnded,
)
from .scoring import scores, winners
from .state import KingsOptions, MineSlot, Phase, State
from .tables import (
    DRAW_CAMP,
    DRAW_DECK,
    EMPTY,
    ENGINE_ACTS,
    MINE,
    NOTHING,
    NUMBER,
    PILE,
    PLAYS_ONTO,
    RETREATS,
    SEAT_ACTS,
    STRENGTH,
    changed,
    plays_onto,
    replace,
    set_item,
    squad_tables,
)

#: The phases, looked up once: on Python 3.11 an enum member looked up on its class costs
#: several times a plain name, and the rules ask for them several times per command.
_SETUP, _PLAY, _DRAW, _OVER = Phase.SETUP, Phase.PLAY, Phase.DRAW, Phase.OVER


# -- set-up and who acts -----------------------------------------------------------------


def initial_state(seats: int, options: KingsOptions) -> State:
    """The empty table; the engine's :class:`SetUp` deals it."""
    return State(seats=seats, options=options)


def to_act(state: State) -> tuple[int, ...]:
    """``(ENGINE,)`` before set-up, ``()`` once over, else the player whose turn it is."""
    phase = state.phase
    if phase is _PLAY or phase is _DRAW:
        return SEAT_ACTS[state.turn]
    return ENGINE_ACTS if phase is _SETUP else ()


def auto_command(state: State) -> Command:
    """The engine's only command: set up the table."""
    return SetUp()


# -- the legal commands -------------------------------------------------------------------


def legal_commands(state: State, seat: int) -> Sequence[Command]:
    """Every play (or, with none, every retreat), or every draw, for ``seat``."""
    if seat != state.turn:
        return ()
    phase = state.phase
    if phase is _PLAY:
        plays = _plays(state, seat)
        if plays:
            return tuple(plays)
        return tuple([RETREATS[card] for card in state.hands[seat]])
    if phase is _DRAW:
        if state.retreated:
            return (DRAW_DECK,)
        return (DRAW_DECK, *compress(DRAW_CAMP, state.camp))  # the piles that hold a squad
    return ()


# -- the ordering rule and where a squad may go ------------------------------------


def beats(strength: int, top: int | None) -> bool:
    """True if a squad of ``strength`` may be played on a stack whose top squad is ``top``.

    It must be stronger; the one exception is that a 0 beats a 9. An empty
    stack (``top`` None) takes any squad.

    >>> beats(5, 4), beats(4, 4), beats(0, 9), beats(9, 0), beats(0, None)
    (True, False, True, True, True)
    """
    if top is None:
        return True
    return strength > top or (strength == 0 and top == TOP_STRENGTH)


def top_strength(slot: MineSlot) -> int | None:
    """The strength of the top squad on a mine, or None if it holds none."""
    return CARDS[slot.stack[-1]].strength if slot.stack else None


#: What a mine takes, by the strength of its top squad (index ``EMPTY``: an empty mine), as sets of
#: card ids worked out once from the ordering rule: any squad (a central mine), the squads foreign to
#: a people (the workers of its king's mines), the squads of a people (their overseers).
_ANY, _FOREIGN, _OWN = squad_tables(beats)


def takes(state: State, seat: int, slot: MineSlot) -> frozenset[int]:
    """The cards ``seat`` may play onto ``slot`` now (whether in its hand or not).

    A central mine takes any squad, an own mine foreign workers until its
    depth is reached, then, if it needs one, an overseer of the owner's own
    people; another player's mine takes nothing. The ordering rule holds
    everywhere. :func:`play_problem` says in words why a card is not among them.
    """
    own = state.peoples[seat].index
    return _takes(slot, seat, _FOREIGN[own], _OWN[own])


def _takes(
    slot: MineSlot, seat: int, workers: tuple[frozenset[int], ...], overseers: tuple[frozenset[int], ...]
) -> frozenset[int]:
    stack = slot.stack
    top = STRENGTH[stack[-1]] if stack else EMPTY
    if slot.owner is None:
        return _ANY[top]
    if slot.owner != seat:
        return NOTHING
    mine = MINE[slot.card]
    if len(stack) < mine.depth:
        return workers[top]
    if mine.overseer and len(stack) == mine.depth:
        return overseers[top]
    return NOTHING


def play_problem(state: State, seat: int, card: int, slot: MineSlot) -> str | None:
    """Return why ``seat`` may not play ``card`` onto ``slot``, or None if it may.

    On a central mine any squad goes; on an own mine only foreign squads work,
    until the depth is reached; an overseer mine then takes one squad of the
    owner's own people. The ordering rule holds everywhere.
    """
    squad = CARDS[card]
    mine = CARDS[slot.card].mine
    if slot.owner is not None:
        if slot.owner != seat:
            return f"mine {slot.number} belongs to seat {slot.owner}: only its owner may send squads there"
        own = state.peoples[seat]
        if squad.people is own:
            if not mine.overseer:
                return f"your own {own.value} do not work your mines; mine {slot.number} needs no overseer"
            if len(slot.stack) < mine.depth:
                return (
                    f"mine {slot.number} needs {mine.depth} foreign workers before its overseer; "
                    f"it has {len(slot.stack)}"
                )
        elif len(slot.stack) >= mine.depth:
            return f"mine {slot.number} has all {mine.depth} workers; it waits for an overseer of your own people"
    top = top_strength(slot)
    if not beats(squad.strength, top):
        return f"a {squad.strength} does not beat the {top} on top of mine {slot.number} (play higher, or a 0 on a 9)"
    return None


def playable(state: State, seat: int) -> tuple[tuple[int, int], ...]:
    """Every (card, mine number) pair ``seat`` may play now, in hand then mine order."""
    return tuple((play.card, play.mine) for play in _plays(state, seat))


def _plays(state: State, seat: int) -> list[Play]:
    """Every play ``seat`` may make now, in hand then mine order (the commands themselves)."""
    own = state.peoples[seat].index
    workers, overseers = _FOREIGN[own], _OWN[own]
    targets = []
    for m in state.mines:
        owner = m.owner
        if owner is None:
            allowed = _ANY[STRENGTH[m.stack[-1]] if m.stack else EMPTY]
        elif owner == seat:
            allowed = _takes(m, seat, workers, overseers)
        else:
            continue
        if allowed:
            number = m.number
            targets.append((allowed, PLAYS_ONTO[number] if number < len(PLAYS_ONTO) else plays_onto(number)))
    return [plays[card] for card in state.hands[seat] for allowed, plays in targets if card in allowed]


def capturer(state: State, seat: int, card: int) -> int:
    """The seat that captures a mine when ``seat`` plays ``card`` as its last squad.

    The mine goes to the people of that squad; if no player is that people,
    to the player who played it.
    """
    owner = state.seat_of(CARDS[card].people)
    return seat if owner is None else owner


# -- decide -----------------------------------------------------------------------------------


def decide(state: State, seat: int, command: Command, rng: Rng) -> tuple[Event, ...]:
    """Check ``command`` by ``seat`` against the rules and return its events, or raise :class:`IllegalCommand`."""
    step = _DECIDE.get(type(command))
    if step is None:
        raise IllegalCommand(Code.UNKNOWN_COMMAND, f"unknown command {command!r}", command)
    return step(state, seat, command, rng)


def _decide_set_up(state: State, seat: int, command: SetUp, rng: Rng) -> tuple[Event, ...]:
    if state.phase is not _SETUP:
        raise IllegalCommand(Code.WRONG_PHASE, "the table is already set up", command)
    return _set_up(state, rng)


def _decide_play(state: State, seat: int, command: Play, rng: Rng) -> tuple[Event, ...]:
    if state.phase is not _PLAY or seat != state.turn:
        raise _wrong_time(state, command)
    card, number = command.card, command.mine
    if type(card) is not int or card not in state.hands[seat]:
        raise _not_in_hand(state, seat, card, command)
    i = state.mine_index(number) if type(number) is int else None
    if i is None:
        on_table = ", ".join(str(m.number) for m in state.mines)
        raise IllegalCommand(Code.BAD_ARGUMENT, f"there is no mine {number!r} on the table; mines: {on_table}", command)
    slot = state.mines[i]
    own = state.peoples[seat].index
    if card not in _takes(slot, seat, _FOREIGN[own], _OWN[own]):
        problem = play_problem(state, seat, card, slot) or f"mine {slot.number} takes no squad now"
        raise IllegalCommand(Code.RULE, problem, command)
    return _play(state, seat, card, slot)


def _decide_retreat(state: State, seat: int, command: Retreat, rng: Rng) -> tuple[Event, ...]:
    if state.phase is not _PLAY or seat != state.turn:
        raise _wrong_time(state, command)
    card = command.card
    if type(card) is not int or card not in state.hands[seat]:
        raise _not_in_hand(state, seat, card, command)
    if _plays(state, seat):
        raise IllegalCommand(Code.RULE, "you can play a squad onto a mine, so you may not retreat", command)
    retreated = Retreated(seat, card, state.hands[seat])
    if not state.deck:  # the last round: nothing to draw
        return (retreated, *_last_turn(state, seat))
    return (retreated,)


def _decide_draw_deck(state: State, seat: int, command: DrawDeck, rng: Rng) -> tuple[Event, ...]:
    if state.phase is not _DRAW or seat != state.turn:
        raise _wrong_time(state, command)
    return _draw_deck(state, seat)


def _decide_draw_camp(state: State, seat: int, command: DrawCamp, rng: Rng) -> tuple[Event, ...]:
    if state.phase is not _DRAW or seat != state.turn:
        raise _wrong_time(state, command)
    people = command.people
    if not isinstance(people, People):
        raise IllegalCommand(Code.BAD_ARGUMENT, f"{people!r} is not a people", command)
    if state.retreated:
        raise IllegalCommand(Code.RULE, "after a retreat you must draw from the deck", command)
    pile = state.camp[people.index]
    if not pile:
        raise IllegalCommand(Code.RULE, f"the {people.value} camp pile is empty; draw from the deck or another pile", command)
    return (DrewFromCamp(seat, people, pile[-1]),)


_DECIDE: dict[type[Command], Callable[[State, int, Any, Rng], tuple[Event, ...]]] = {
    SetUp: _decide_set_up,
    Play: _decide_play,
    Retreat: _decide_retreat,
    DrawDeck: _decide_draw_deck,
    DrawCamp: _decide_draw_camp,
}


def _wrong_time(state: State, command: Command) -> IllegalCommand:
    step = "play a squad (or retreat)" if state.phase is _PLAY else "draw a card"
    return IllegalCommand(Code.WRONG_PHASE, f"now is not the time for that: seat {state.turn} must {step}", command)


def _not_in_hand(state: State, seat: int, card: object, command: Command) -> IllegalCommand:
    hand = state.hands[seat]
    return IllegalCommand(Code.NOT_IN_HAND, f"card {card!r} is not in your hand; your hand: {list(hand)}", command)


def _set_up(state: State, rng: Rng) -> tuple[Event, ...]:
    peoples = rng.shuffled(PEOPLES)[: state.seats]
    order = rng.shuffled(range(DECK_SIZE))
    events: list[Event] = [KingsDealt(peoples), DeckShuffled(order)]
    for i in range(CENTRAL_MINES):
        events.append(MineTurned(i, order[i], CARDS[order[i]].mine))
    pos = CENTRAL_MINES
    events.append(CampLaid(order[pos : pos + CAMP_START]))
    pos += CAMP_START
    for s in range(state.seats):
        cards = tuple(sorted(order[pos : pos + HAND_SIZE]))
        events.append(HandDealt(s, cards, backs(cards)))
        pos += HAND_SIZE
    return tuple(events)


def _play(state: State, seat: int, card: int, slot: MineSlot) -> tuple[Event, ...]:
    played = SquadPlayed(seat, card, slot.number)
    mine = MINE[slot.card]
    on_it = len(slot.stack) + 1
    events: tuple[Event, ...] = (played,)
    if slot.owner is None:
        if on_it >= mine.defence:
            captured = MineCaptured(slot.number, capturer(state, seat, card), CARDS[card].people, (*slot.stack, card))
            if not state.deck:  # the last round (end="round"): no card is left to turn up
                events = (played, captured)
            else:
                top = state.deck[0]
                events = (played, captured, MineTurned(state.next_number, top, MINE[top]))
                if len(state.deck) == 1:
                    return (*events, *_deck_gone(state, seat, "the last card of the deck was turned up as a new mine"))
    elif on_it == mine.depth + mine.overseer:  # developed: its workers, and its overseer if it needs one
        events = (played, MineDeveloped(seat, slot.number, mine.value, (*slot.stack, card)))
    if not state.deck:
        return (*events, *_last_turn(state, seat))
    return events


def _last_turn(state: State, seat: int) -> tuple[Event, ...]:
    """A turn of the last round (the deck is gone, ``end="round"``) ends without a draw; the last seat's ends the match."""
    if seat == state.seats - 1:
        return (TurnEnded(seat), GameEnded("the round in which the deck ran out is over"))
    return (TurnEnded(seat),)


def _deck_gone(state: State, seat: int, reason: str) -> tuple[Event, ...]:
    """The events after ``seat`` took the deck's last card while playing: the end, or (``end="round"``) the last round."""
    if state.options.end == "card":
        return (GameEnded(reason),)
    return _last_turn(state, seat)


def _draw_deck(state: State, seat: int) -> tuple[Event, ...]:
    top = state.deck[0]
    drawn = DrewFromDeck(seat, top, MINE[top])
    if len(state.deck) == 1 and (state.options.end == "card" or seat == state.seats - 1):
        return (drawn, GameEnded("the last card of the deck was drawn"))
    return (drawn,)


# -- the end ------------------------------------------------------------------------------------


def outcome(state: State) -> Outcome | None:
    """Scores and winners once the deck is exhausted, else None."""
    if state.phase is not _OVER:
        return None
    pts = scores(state)
    win = winners(state)
    best = pts[win[0]]
    if len(win) == 1:
        reason = f"the deck ran out; seat {win[0]} has the most points ({best})"
    else:
        reason = f"the deck ran out; seats {', '.join(map(str, win))} tie on {best} points and developed mines"
    return Outcome(win, pts, reason)


# -- evolve, one small function per event ------------------------------------------------


def evolve(state: State, event: Event) -> State:
    """Fold one event into the state (one small step per event type)."""
    try:
        fold = _EVOLVE[type(event)]
    except KeyError:
        raise TypeError(f"kings: unknown event {event!r}") from None
    return fold(state, event)


def _to_camp(camp: tuple[tuple[int, ...], ...], cards: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    piles = list(camp)
    for c in cards:
        i = PILE[c]
        piles[i] = (*piles[i], c)
    return tuple(piles)


def _kings_dealt(state: State, e: KingsDealt) -> State:
    none = tuple(() for _ in e.peoples)
    return replace(state, peoples=e.peoples, hands=none, open_cards=none, developed=none)


def _deck_shuffled(state: State, e: DeckShuffled) -> State:
    assert e.order is not None, "a redacted event cannot be folded"
    return replace(state, deck=e.order)


def _mine_turned(state: State, e: MineTurned) -> State:
    assert e.card is not None, "a redacted event cannot be folded"
    mines = (*state.mines, MineSlot(e.number, e.card))
    return changed(state, {"deck": state.deck[1:], "mines": mines, "next_number": e.number + 1})


def _camp_laid(state: State, e: CampLaid) -> State:
    return replace(state, deck=state.deck[len(e.cards) :], camp=_to_camp(state.camp, e.cards))


def _hand_dealt(state: State, e: HandDealt) -> State:
    assert e.cards is not None, "a redacted event cannot be folded"
    phase = _PLAY if e.seat == state.seats - 1 else state.phase
    return replace(state, deck=state.deck[len(e.cards) :], hands=set_item(state.hands, e.seat, e.cards), phase=phase)


def _without(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    if card not in hand:
        return hand
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


def _at(mines: tuple[MineSlot, ...], number: int) -> int:
    """Where mine ``number`` is in ``mines`` (in number order), for an event that names a mine on the table."""
    i = bisect.bisect_left(mines, number, key=NUMBER)
    if i == len(mines) or mines[i].number != number:
        raise ValueError(f"kings: an event names mine {number}, which is not on the table")
    return i


def _squad_played(state: State, e: SquadPlayed) -> State:
    mines = state.mines
    i = _at(mines, e.mine)
    slot = mines[i]
    changes = _from_hand(state, e.seat, e.card)
    changes["mines"] = set_item(mines, i, MineSlot(slot.number, slot.card, slot.owner, (*slot.stack, e.card)))
    changes["phase"] = _DRAW
    return changed(state, changes)


def _from_hand(state: State, seat: int, card: int) -> dict[str, Any]:
    """The changes of ``card`` leaving the hand of ``seat`` (and its known cards, if it was one)."""
    hand = state.hands[seat]
    i = hand.index(card)
    changes = {"hands": set_item(state.hands, seat, hand[:i] + hand[i + 1 :])}
    if card in state.open_cards[seat]:
        changes["open_cards"] = set_item(state.open_cards, seat, _without(state.open_cards[seat], card))
    return changes


def _mine_captured(state: State, e: MineCaptured) -> State:
    mines = state.mines
    i = _at(mines, e.mine)
    slot = MineSlot(e.mine, mines[i].card, e.owner, ())
    return changed(state, {"mines": set_item(mines, i, slot), "camp": _to_camp(state.camp, e.squads)})


def _mine_developed(state: State, e: MineDeveloped) -> State:
    mines = state.mines
    i = _at(mines, e.mine)
    developed = set_item(state.developed, e.seat, (*state.developed[e.seat], mines[i].card))
    mines = mines[:i] + mines[i + 1 :]
    if state.options.developed_cards == "camp":
        return replace(state, mines=mines, developed=developed, camp=_to_camp(state.camp, e.squads))
    return replace(state, mines=mines, developed=developed, discard=(*state.discard, *e.squads))


def _retreated(state: State, e: Retreated) -> State:
    rest = _without(state.hands[e.seat], e.card)
    return replace(
        state,
        camp=_to_camp(state.camp, (e.card,)),
        phase=_DRAW,
        retreated=True,
        hands=set_item(state.hands, e.seat, rest),
        open_cards=set_item(state.open_cards, e.seat, rest),  # the rest of the shown hand is known to all
    )


def _next_turn(state: State, seat: int, card: int) -> dict[str, Any]:
    """The changes of ``seat`` taking ``card`` into its hand, which ends its turn."""
    hand = state.hands[seat]
    i = bisect.bisect(hand, card)  # hands are sorted
    return {"hands": set_item(state.hands, seat, (*hand[:i], card, *hand[i:])), "phase": _PLAY, "retreated": False,
            "turn": (seat + 1) % state.seats}


def _drew_from_deck(state: State, e: DrewFromDeck) -> State:
    assert e.card is not None, "a redacted event cannot be folded"
    changes = _next_turn(state, e.seat, e.card)
    changes["deck"] = state.deck[1:]
    return changed(state, changes)


def _drew_from_camp(state: State, e: DrewFromCamp) -> State:
    changes = _next_turn(state, e.seat, e.card)
    i = e.people.index
    changes["camp"] = set_item(state.camp, i, state.camp[i][:-1])
    known = state.open_cards[e.seat]
    j = bisect.bisect(known, e.card)
    changes["open_cards"] = set_item(state.open_cards, e.seat, (*known[:j], e.card, *known[j:]))
    return changed(state, changes)


def _turn_ended(state: State, e: TurnEnded) -> State:
    return replace(state, phase=_PLAY, retreated=False, turn=(e.seat + 1) % state.seats)


def _game_ended(state: State, e: GameEnded) -> State:
    return replace(state, phase=_OVER)


_EVOLVE: dict[type[Event], Callable[[State, Any], State]] = {
    KingsDealt: _kings_dealt,
    DeckShuffled: _deck_shuffled,
    MineTurned: _mine_turned,
    CampLaid: _camp_laid,
    HandDealt: _hand_dealt,
    SquadPlayed: _squad_played,
    MineCaptured: _mine_captured,
    MineDeveloped: _mine_developed,
    Retreated: _retreated,
    DrewFromDeck: _drew_from_deck,
    DrewFromCamp: _drew_from_camp,
    TurnEnded: _turn_ended,
    GameEnded: _game_ended,
}
