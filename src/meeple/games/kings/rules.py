"""The rules of Underground Kings: legal moves, decide, evolve and the end.

Read top to bottom it follows the rulebook (``docs/rules/kings.md``):
the ordering rule, where a squad may go, capture, work and development,
drawing, the stuck hand, and the end of the game. These are plain functions
of the state; :mod:`.game` assembles them with the views, the text and the
bots into the game object.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from meeple.engine import ENGINE, Code, Command, Event, IllegalCommand, Outcome, Rng

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
)
from .scoring import scores, winners
from .state import KingsOptions, MineSlot, Phase, State

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
    targets = [m for m in state.mines if m.owner is None or m.owner == seat]
    return tuple(
        (card, m.number) for card in state.hands[seat] for m in targets if play_problem(state, seat, card, m) is None
    )


def capturer(state: State, seat: int, card: int) -> int:
    """The seat that captures a mine when ``seat`` plays ``card`` as its last squad.

    The mine goes to the people of that squad; if no player is that people,
    to the player who played it.
    """
    owner = state.seat_of(CARDS[card].people)
    return seat if owner is None else owner


def developed_after(slot: MineSlot, card: int) -> bool:
    """True if playing ``card`` onto the owned ``slot`` develops it.

    A mine is developed at its depth in workers, or, if it needs an overseer,
    when that overseer is played on top of them.
    """
    mine = CARDS[slot.card].mine
    return len(slot.stack) + 1 == mine.depth + (1 if mine.overseer else 0)


# -- the turn ----------------------------------------------------------------------------


def initial_state(seats: int, options: KingsOptions) -> State:
    """The empty table; the engine's :class:`SetUp` deals it."""
    return State(seats=seats, options=options)


def to_act(state: State) -> tuple[int, ...]:
    """``(ENGINE,)`` before set-up, ``()`` once over, else the player whose turn it is."""
    if state.phase is Phase.SETUP:
        return (ENGINE,)
    if state.phase is Phase.OVER:
        return ()
    return (state.turn,)


def legal_commands(state: State, seat: int) -> Sequence[Command]:
    """Every play (or, with none, every retreat), or every draw, for ``seat``."""
    if state.phase not in (Phase.PLAY, Phase.DRAW) or seat != state.turn:
        return ()
    if state.phase is Phase.PLAY:
        plays = playable(state, seat)
        if plays:
            return tuple(Play(card, mine) for card, mine in plays)
        return tuple(Retreat(card) for card in state.hands[seat])
    out: list[Command] = [DrawDeck()]
    if not state.retreated:
        out.extend(DrawCamp(p) for p, pile in zip(PEOPLES, state.camp) if pile)
    return tuple(out)


# -- decide -----------------------------------------------------------------------------------


def decide(state: State, seat: int, command: Command, rng: Rng) -> tuple[Event, ...]:
    """Check ``command`` by ``seat`` against the rules and return its events, or raise :class:`IllegalCommand`."""
    match command:
        case SetUp():
            if state.phase is not Phase.SETUP:
                raise IllegalCommand(Code.WRONG_PHASE, "the table is already set up", command)
            return _set_up(state, rng)
        case Play(card=card, mine=number):
            _expect(state, seat, Phase.PLAY, command)
            _check_card(state, seat, card, command)
            slot = state.mine(number) if _is_int(number) else None
            if slot is None:
                on_table = ", ".join(str(m.number) for m in state.mines)
                raise IllegalCommand(Code.BAD_ARGUMENT, f"there is no mine {number!r} on the table; mines: {on_table}", command)
            problem = play_problem(state, seat, card, slot)
            if problem is not None:
                raise IllegalCommand(Code.RULE, problem, command)
            return _play(state, seat, card, slot)
        case Retreat(card=card):
            _expect(state, seat, Phase.PLAY, command)
            _check_card(state, seat, card, command)
            if playable(state, seat):
                raise IllegalCommand(Code.RULE, "you can play a squad onto a mine, so you may not retreat", command)
            return (Retreated(seat, card, state.hands[seat]),)
        case DrawDeck():
            _expect(state, seat, Phase.DRAW, command)
            return _draw_deck(state, seat)
        case DrawCamp(people=people):
            _expect(state, seat, Phase.DRAW, command)
            if not isinstance(people, People):
                raise IllegalCommand(Code.BAD_ARGUMENT, f"{people!r} is not a people", command)
            if state.retreated:
                raise IllegalCommand(Code.RULE, "after a retreat you must draw from the deck", command)
            pile = state.camp[PEOPLES.index(people)]
            if not pile:
                raise IllegalCommand(
                    Code.RULE, f"the {people.value} camp pile is empty; draw from the deck or another pile", command
                )
            return (DrewFromCamp(seat, people, pile[-1]),)
    raise IllegalCommand(Code.UNKNOWN_COMMAND, f"unknown command {command!r}", command)


def _expect(state: State, seat: int, phase: Phase, command: Command) -> None:
    if state.phase is not phase or seat != state.turn:
        step = "play a squad (or retreat)" if state.phase is Phase.PLAY else "draw a card"
        raise IllegalCommand(Code.WRONG_PHASE, f"now is not the time for that: seat {state.turn} must {step}", command)


def _check_card(state: State, seat: int, card: object, command: Command) -> None:
    hand = state.hands[seat]
    if not _is_int(card) or card not in hand:
        raise IllegalCommand(Code.NOT_IN_HAND, f"card {card!r} is not in your hand; your hand: {list(hand)}", command)


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
    events: list[Event] = [SquadPlayed(seat, card, slot.number)]
    mine = CARDS[slot.card].mine
    squads = (*slot.stack, card)
    if slot.owner is None:
        if len(squads) >= mine.defence:
            events.append(MineCaptured(slot.number, capturer(state, seat, card), CARDS[card].people, squads))
            top = state.deck[0]
            events.append(MineTurned(state.next_number, top, CARDS[top].mine))
            if len(state.deck) == 1:
                events.append(GameEnded("the last card of the deck was turned up as a new mine"))
    elif developed_after(slot, card):
        events.append(MineDeveloped(seat, slot.number, mine.value, squads))
    return tuple(events)


def _draw_deck(state: State, seat: int) -> tuple[Event, ...]:
    top = state.deck[0]
    events: list[Event] = [DrewFromDeck(seat, top, CARDS[top].mine)]
    if len(state.deck) == 1:
        events.append(GameEnded("the last card of the deck was drawn"))
    return tuple(events)


# -- the end ------------------------------------------------------------------------------------


def outcome(state: State) -> Outcome | None:
    """Scores and winners once the deck is exhausted, else None."""
    if state.phase is not Phase.OVER:
        return None
    pts = scores(state)
    win = winners(state)
    best = pts[win[0]]
    if len(win) == 1:
        reason = f"the deck ran out; seat {win[0]} has the most points ({best})"
    else:
        reason = f"the deck ran out; seats {', '.join(map(str, win))} tie on {best} points and developed mines"
    return Outcome(win, pts, reason)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# -- evolve, one small function per event ------------------------------------------------


def evolve(state: State, event: Event) -> State:
    """Fold one event into the state (one small step per event type)."""
    fn = _EVOLVE.get(type(event))
    if fn is None:
        raise TypeError(f"kings: unknown event {event!r}")
    return fn(state, event)


def _replace_mine(state: State, slot: MineSlot) -> tuple[MineSlot, ...]:
    return tuple(slot if m.number == slot.number else m for m in state.mines)


def _to_camp(camp: tuple[tuple[int, ...], ...], cards: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    piles = list(camp)
    for c in cards:
        i = PEOPLES.index(CARDS[c].people)
        piles[i] = (*piles[i], c)
    return tuple(piles)


def _kings_dealt(state: State, e: KingsDealt) -> State:
    return attrs.evolve(
        state,
        peoples=e.peoples,
        hands=tuple(() for _ in e.peoples),
        open_cards=tuple(() for _ in e.peoples),
        developed=tuple(() for _ in e.peoples),
    )


def _deck_shuffled(state: State, e: DeckShuffled) -> State:
    assert e.order is not None, "a redacted event cannot be folded"
    return attrs.evolve(state, deck=e.order)


def _mine_turned(state: State, e: MineTurned) -> State:
    assert e.card is not None, "a redacted event cannot be folded"
    return attrs.evolve(
        state,
        deck=state.deck[1:],
        mines=(*state.mines, MineSlot(e.number, e.card)),
        next_number=e.number + 1,
    )


def _camp_laid(state: State, e: CampLaid) -> State:
    return attrs.evolve(state, deck=state.deck[len(e.cards) :], camp=_to_camp(state.camp, e.cards))


def _hand_dealt(state: State, e: HandDealt) -> State:
    assert e.cards is not None, "a redacted event cannot be folded"
    hands = list(state.hands)
    hands[e.seat] = e.cards
    phase = Phase.PLAY if e.seat == state.seats - 1 else state.phase
    return attrs.evolve(state, deck=state.deck[len(e.cards) :], hands=tuple(hands), phase=phase)


def _without(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    return tuple(c for c in hand if c != card)


def _from_hand(state: State, seat: int, card: int) -> dict[str, Any]:
    hands = list(state.hands)
    hands[seat] = _without(hands[seat], card)
    open_cards = list(state.open_cards)
    open_cards[seat] = _without(open_cards[seat], card)
    return {"hands": tuple(hands), "open_cards": tuple(open_cards)}


def _squad_played(state: State, e: SquadPlayed) -> State:
    slot = state.mine(e.mine)
    assert slot is not None
    slot = attrs.evolve(slot, stack=(*slot.stack, e.card))
    return attrs.evolve(state, mines=_replace_mine(state, slot), phase=Phase.DRAW, **_from_hand(state, e.seat, e.card))


def _mine_captured(state: State, e: MineCaptured) -> State:
    slot = state.mine(e.mine)
    assert slot is not None
    slot = attrs.evolve(slot, owner=e.owner, stack=())
    return attrs.evolve(state, mines=_replace_mine(state, slot), camp=_to_camp(state.camp, e.squads))


def _mine_developed(state: State, e: MineDeveloped) -> State:
    slot = state.mine(e.mine)
    assert slot is not None
    developed = list(state.developed)
    developed[e.seat] = (*developed[e.seat], slot.card)
    mines = tuple(m for m in state.mines if m.number != e.mine)
    if state.options.developed_cards == "camp":
        return attrs.evolve(state, mines=mines, developed=tuple(developed), camp=_to_camp(state.camp, e.squads))
    return attrs.evolve(state, mines=mines, developed=tuple(developed), discard=(*state.discard, *e.squads))


def _retreated(state: State, e: Retreated) -> State:
    changes = _from_hand(state, e.seat, e.card)
    open_cards = list(changes["open_cards"])
    open_cards[e.seat] = changes["hands"][e.seat]  # the rest of the shown hand is known to all
    changes["open_cards"] = tuple(open_cards)
    return attrs.evolve(state, camp=_to_camp(state.camp, (e.card,)), phase=Phase.DRAW, retreated=True, **changes)


def _next_turn(state: State, seat: int, card: int, **changes: Any) -> State:
    hands = list(state.hands)
    hands[seat] = tuple(sorted((*hands[seat], card)))
    return attrs.evolve(
        state, hands=tuple(hands), phase=Phase.PLAY, retreated=False, turn=(seat + 1) % state.seats, **changes
    )


def _drew_from_deck(state: State, e: DrewFromDeck) -> State:
    assert e.card is not None, "a redacted event cannot be folded"
    return _next_turn(state, e.seat, e.card, deck=state.deck[1:])


def _drew_from_camp(state: State, e: DrewFromCamp) -> State:
    i = PEOPLES.index(e.people)
    camp = list(state.camp)
    camp[i] = camp[i][:-1]
    open_cards = list(state.open_cards)
    open_cards[e.seat] = tuple(sorted((*open_cards[e.seat], e.card)))
    return _next_turn(state, e.seat, e.card, camp=tuple(camp), open_cards=tuple(open_cards))


def _game_ended(state: State, e: GameEnded) -> State:
    return attrs.evolve(state, phase=Phase.OVER)


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
    GameEnded: _game_ended,
}
