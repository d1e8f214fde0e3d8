"""What each seat may know: ``view``, ``redact`` and ``determinize``.

A seat sees its own role and hand, what it learned (maps, Inspection, a
swapped hand), the public table (board, turned goals, cards in front of
players, pile and hand sizes), and its own gold. Roles of others appear in
``results`` when a round ends; gold totals when the game ends.
"""

from __future__ import annotations

import attrs

from meeple.engine import Event, Rng

from .data import GoalKind, Role
from .events import (
    CardDrawn,
    CardsDiscarded,
    FrontCleared,
    GoalPeeked,
    GoldOffered,
    GoldPaid,
    GoldTaken,
    HandsSwapped,
    HatSwapped,
    RoleInspected,
    RoundDealt,
)
from .state import Cell, Edition, Front, Phase, RoundResult, State


@attrs.frozen
class GoalView:
    """A goal card as the table sees it: ``kind`` only once turned over."""

    col: int
    row: int
    kind: GoalKind | None
    rotated: bool


@attrs.frozen
class View:
    """One seat's knowledge (``seat`` None: a spectator, who sees only public facts)."""

    seat: int | None
    edition: Edition
    seats: int
    round: int
    phase: Phase
    turn: int
    role: Role | None
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    pile_size: int
    set_aside_count: int
    leftover_roles_count: int
    cells: tuple[Cell, ...]
    goals: tuple[GoalView, ...]
    known_goals: tuple[tuple[int, GoalKind], ...]
    inspected: tuple[tuple[int, Role], ...]
    front: tuple[frozenset[Front], ...]
    thieves: tuple[int, ...]
    my_gold: int | None
    holds_gold: tuple[bool, ...] | None
    offer: tuple[int, ...]
    offer_size: int
    chooser: int
    theft_queue: tuple[int, ...]
    results: tuple[RoundResult, ...]
    gold: tuple[int, ...] | None


def view(state: State, seat: int | None) -> View:
    """Return what ``seat`` may know of ``state``."""
    mine = seat is not None and 0 <= seat < state.seats and state.round > 0
    goals = tuple(GoalView(g.col, g.row, g.kind if g.revealed else None, g.rotated) for g in state.goals)
    known: tuple[tuple[int, GoalKind], ...] = ()
    inspected: tuple[tuple[int, Role], ...] = ()
    if mine:
        assert seat is not None
        known = tuple((i, state.goals[i].kind) for i in sorted(state.known_goals[seat]))
        inspected = tuple((t, r) for v, t, r in state.inspections if v == seat)
    over = state.phase is Phase.OVER
    return View(
        seat=seat,
        edition=state.options.edition,
        seats=state.seats,
        round=state.round,
        phase=state.phase,
        turn=state.turn,
        role=state.roles[seat] if mine and seat is not None else None,
        hand=state.hands[seat] if mine and seat is not None else (),
        hand_sizes=tuple(len(h) for h in state.hands),
        pile_size=len(state.pile),
        set_aside_count=len(state.set_aside),
        leftover_roles_count=len(state.leftover_roles),
        cells=state.cells,
        goals=goals,
        known_goals=known,
        inspected=inspected,
        front=state.front,
        thieves=state.thieves,
        my_gold=state.gold[seat] if seat is not None and 0 <= seat < state.seats else None,
        holds_gold=tuple(g > 0 for g in state.gold) if state.deluxe else None,
        offer=state.offer if seat is not None and seat == state.chooser else (),
        offer_size=len(state.offer),
        chooser=state.chooser,
        theft_queue=state.theft_queue,
        results=state.results,
        gold=state.gold if over else None,
    )


def redact(event: Event, seat: int | None) -> Event | None:
    """Return ``event`` with what ``seat`` may not see set to None."""
    match event:
        case RoundDealt():
            return attrs.evolve(
                event,
                goals=None,
                roles=tuple(r if s == seat else None for s, r in enumerate(event.roles)),
                leftover_roles=None,
                hands=tuple(h if s == seat else None for s, h in enumerate(event.hands)),
                pile=None,
                set_aside=None,
            )
        case GoalPeeked() if event.seat != seat:
            return attrs.evolve(event, kind=None)
        case CardsDiscarded() | FrontCleared() if event.seat != seat:
            return attrs.evolve(event, cards=None)
        case CardDrawn() if event.seat != seat:
            return attrs.evolve(event, card=None)
        case HandsSwapped() if seat not in (event.seat, event.target):
            return attrs.evolve(event, given=None, taken=None)
        case RoleInspected() if event.seat != seat:
            return attrs.evolve(event, role=None)
        case HatSwapped() if event.target != seat:
            return attrs.evolve(event, old=None, role=None)
        case GoldOffered() if event.chooser != seat:
            return attrs.evolve(event, values=None)
        case GoldTaken() if event.seat != seat:
            return attrs.evolve(event, value=None)
        case GoldPaid() if event.seat != seat:
            return attrs.evolve(event, amount=None, cards=None)
    return event


def determinize(state: State, seat: int | None, rng: Rng) -> State:
    """Re-deal what ``seat`` cannot see, keeping what it knows.

    Other hands, the pile, the cards set aside and others' face-down discards
    are re-dealt from their pooled cards (sizes kept); during play, the roles
    of other seats and the leftover dwarf cards are reshuffled (a role ``seat``
    inspected and that has not changed since stays); face-down goals ``seat``
    has not seen are reshuffled among themselves.
    """
    if state.round == 0:
        return state
    n = state.seats
    me = seat if seat is not None and 0 <= seat < n else None
    others = [s for s in range(n) if s != me]
    # cards
    pool: list[int] = list(state.pile) + list(state.set_aside)
    for s in others:
        pool += list(state.hands[s]) + list(state.discards[s])
    pool = list(rng.shuffled(pool))
    hands = list(state.hands)
    discards = list(state.discards)
    for s in others:
        k = len(hands[s])
        hands[s], pool = tuple(pool[:k]), pool[k:]
        k = len(discards[s])
        discards[s], pool = tuple(pool[:k]), pool[k:]
    k = len(state.set_aside)
    set_aside, pool = tuple(sorted(pool[:k])), pool[k:]
    pile = tuple(sorted(pool))
    # roles (public once the round has ended)
    roles, leftover = state.roles, state.leftover_roles
    if state.phase is Phase.PLAY:
        fixed = {t for v, t, r in state.inspections if v == me and state.roles[t] is r}
        hidden = [s for s in others if s not in fixed]
        rpool = rng.shuffled([state.roles[s] for s in hidden] + list(leftover))
        new_roles = list(roles)
        for i, s in enumerate(hidden):
            new_roles[s] = rpool[i]
        roles = tuple(new_roles)
        leftover = tuple(sorted(rpool[len(hidden) :], key=lambda r: r.value))
    # goals
    known = state.known_goals[me] if me is not None else frozenset()
    unknown = [i for i, g in enumerate(state.goals) if not g.revealed and i not in known]
    kinds = rng.shuffled([state.goals[i].kind for i in unknown])
    goals = list(state.goals)
    for i, kind in zip(unknown, kinds, strict=True):
        goals[i] = attrs.evolve(goals[i], kind=kind)
    return attrs.evolve(
        state,
        hands=tuple(hands),
        discards=tuple(discards),
        set_aside=set_aside,
        pile=pile,
        roles=roles,
        leftover_roles=leftover,
        goals=tuple(goals),
    )
