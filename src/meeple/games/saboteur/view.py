"""What each seat may know: ``view``, ``redact`` and ``determinize``.

A seat sees its own role and hand, what it learned in secret (goals by map,
roles by Inspection, hands by Swap Your Hand, a dwarf card it put away), the
public table (the board, turned goals, cards in front of players, the round's
deeds, pile and hand sizes), and its own gold. Roles of others appear in
``results`` when a round ends; gold totals when the game ends.
"""

from __future__ import annotations

from collections import Counter

import attrs

from meeple.engine import Event, Rng
from meeple.engine.copies import filler

from .board import Board, Cell, GoalCard
from .data import GOLD_CARDS, GoalKind, Role
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
from .rules import exact_payment
from .state import (
    Deed,
    Edition,
    Front,
    GoldMove,
    Inspection,
    KnownHand,
    Phase,
    RoundResult,
    SaboteurOptions,
    State,
    replace,
)


@attrs.frozen(slots=False)  # a dict-backed instance: view() fills it in one dict update (one view per decision)
class View:
    """One seat's knowledge (``seat`` None: a spectator, who sees only public facts).

    ``known_hands`` is what hand swaps showed this seat of other hands;
    ``put_away`` lists each dwarf card Swap Your Hats put out of play, as
    ``(seat, role)``, the role shown only to a seat that knows it.
    ``discarded`` is the seat's own face-down discards this round (sorted),
    ``discard_counts`` how many cards each seat discarded face down (public).
    """

    seat: int | None
    edition: Edition
    options: SaboteurOptions
    seats: int
    round: int
    phase: Phase
    turn: int
    passes: int
    role: Role | None
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    pile_size: int
    set_aside_count: int
    leftover_roles_count: int
    board: Board
    known_goals: tuple[tuple[int, GoalKind], ...]
    inspected: tuple[tuple[int, Role], ...]
    known_hands: tuple[KnownHand, ...]
    put_away: tuple[tuple[int, Role | None], ...]
    front: tuple[frozenset[Front], ...]
    thieves: tuple[int, ...]
    deeds: tuple[Deed, ...]
    my_gold: int | None
    holds_gold: tuple[bool, ...] | None
    offer: tuple[int, ...]
    offer_size: int
    chooser: int
    theft_queue: tuple[int, ...]
    results: tuple[RoundResult, ...]
    gold: tuple[int, ...] | None
    discarded: tuple[int, ...] = ()
    discard_counts: tuple[int, ...] = ()

    @property
    def cells(self) -> tuple[Cell, ...]:
        """The path cards on the board."""
        return self.board.cells

    @property
    def goals(self) -> tuple[GoalCard, ...]:
        """The goal cards as the table sees them (a kind only once turned)."""
        return self.board.goals


_new_view = filler(View)  # View(**fields) for a dict display of every field, in order: it becomes the View's dict
_OVER, _DELUXE = Phase.OVER, Edition.DELUXE  # read from a module constant, an enum member costs less


def view(state: State, seat: int | None) -> View:
    """Return what ``seat`` may know of ``state``."""
    n = state.seats
    player = seat is not None and 0 <= seat < n
    mine = player and state.round > 0
    deal, known, purse = state.deal, state.known, state.purse
    known_goals: tuple[tuple[int, GoalKind], ...] = ()
    inspected: tuple[tuple[int, Role], ...] = ()
    known_hands: tuple[KnownHand, ...] = ()
    role = None
    hand: tuple[int, ...] = ()
    if mine:
        assert seat is not None
        if known.goals[seat]:
            known_goals = tuple((i, deal.goal_kinds[i]) for i in sorted(known.goals[seat]))
        if known.roles:
            inspected = tuple((i.target, i.role) for i in known.roles if i.viewer == seat)
        if known.hands:
            known_hands = tuple(k for k in known.hands if k.viewer == seat)
        role = deal.roles[seat]
        hand = state.hands[seat]
    over = state.phase is _OVER
    return _new_view({
        "seat": seat,
        "edition": state.options.edition,
        "options": state.options,
        "seats": n,
        "round": state.round,
        "phase": state.phase,
        "turn": state.turn,
        "passes": state.passes,
        "role": role,
        "hand": hand,
        "hand_sizes": tuple(map(len, state.hands)),
        "pile_size": len(state.pile),
        "set_aside_count": len(deal.set_aside),
        "leftover_roles_count": len(deal.leftover_roles),
        "board": state.board,
        "known_goals": known_goals,
        "inspected": inspected,
        "known_hands": known_hands,
        "put_away": tuple((sp.seat, sp.role if seat in sp.known_by else None) for sp in deal.spent_roles)
        if deal.spent_roles else (),
        "front": state.front,
        "thieves": state.thieves,
        "deeds": state.deeds,
        "my_gold": purse.gold[seat] if player and seat is not None else None,
        "holds_gold": tuple(g > 0 for g in purse.gold) if state.options.edition is _DELUXE else None,
        "offer": purse.offer if seat is not None and seat == purse.chooser else (),
        "offer_size": len(purse.offer),
        "chooser": purse.chooser,
        "theft_queue": purse.theft_queue,
        "results": state.results,
        "gold": purse.gold if over else None,
        "discarded": state.discards[seat] if mine and seat is not None else (),
        "discard_counts": tuple(map(len, state.discards)),
    })


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


# -- determinize -----------------------------------------------------------------------


def determinize(state: State, seat: int | None, rng: Rng) -> State:
    """Re-deal what ``seat`` cannot see, keeping what it knows.

    * Cards: other hands, the pile, the cards set aside and others' face-down
      discards are re-dealt from their pooled cards, sizes kept. What a hand
      swap showed ``seat`` stays true: the holder keeps at least ``sure`` of
      the known cards and the rest lie in the discards of the players who held
      that hand (:class:`~.state.KnownHand`). What hand swaps showed *other*
      players is drawn again from the re-dealt hands and discards.
    * Roles, during play: other players' dwarf cards, the leftovers and the
      cards put away by Swap Your Hats are reshuffled together, except the
      cards ``seat`` saw (its own, a current Inspection, a card it knows was
      put away). Other players' Inspections show the re-dealt roles.
    * Goals: the face-down goals ``seat`` has not looked at are reshuffled
      among themselves.
    * Gold, base game: the gold cards other players took are drawn again
      where ``seat`` did not see them (see :func:`_redeal_gold`), and every
      total follows. Deluxe shares are public arithmetic, so they stay.

    Public facts (the board, cards in front, deeds, sizes, results) stay as
    they are.
    """
    if state.round == 0:
        return state
    n = state.seats
    me = seat if seat is not None and 0 <= seat < n else None
    state = _redeal_cards(state, me, rng)
    if state.phase is Phase.PLAY:
        state = _redeal_roles(state, me, rng)
    state = _redeal_gold(state, me, rng)
    return _redeal_goals(state, me, rng)


def _sample(rng: Rng, cards: list[int], k: int) -> tuple[list[int], list[int]]:
    """``k`` of ``cards`` at random, and the rest."""
    shuffled = list(rng.shuffled(cards))
    return shuffled[:k], shuffled[k:]


def _redeal_cards(state: State, me: int | None, rng: Rng) -> State:
    deal = state.deal
    others = [s for s in range(state.seats) if s != me]
    pool: list[int] = [*state.pile, *deal.set_aside]
    for s in others:
        pool += state.hands[s]
        pool += state.discards[s]
    in_hand: dict[int, list[int]] = {s: [] for s in others}
    in_discards: dict[int, list[int]] = {s: [] for s in others}
    room = {s: len(state.discards[s]) for s in others}
    for k in state.known.hands:  # what a swap showed me stays true in every world
        if k.viewer != me or k.holder == me:
            continue
        for c in k.cards:
            pool.remove(c)
        held, gone = _sample(rng, list(k.cards), k.sure)
        in_hand[k.holder] += held
        for c in gone:
            spots = [p for p in k.discarded_by if p in room and room[p] > 0]
            p = spots[rng.below(len(spots))]
            room[p] -= 1
            in_discards[p].append(c)
    pool = list(rng.shuffled(pool))
    hands, discards = list(state.hands), list(state.discards)
    for s in others:
        for table, fixed, size in ((hands, in_hand[s], len(state.hands[s])),
                                   (discards, in_discards[s], len(state.discards[s]))):
            need = size - len(fixed)
            table[s] = tuple(sorted((*fixed, *pool[:need])))
            pool = pool[need:]
    aside = len(deal.set_aside)
    set_aside, pile = tuple(sorted(pool[:aside])), tuple(sorted(pool[aside:]))
    known = state.known
    if any(k.viewer != me for k in known.hands):  # what others learned, drawn from the new cards
        redrawn = []
        for k in known.hands:
            if k.viewer != me:
                held, _ = _sample(rng, list(hands[k.holder]), k.sure)
                spill = [c for p in k.discarded_by for c in discards[p]]
                gone, _ = _sample(rng, spill, len(k.cards) - k.sure)
                k = replace(k, cards=tuple(sorted(held + gone)))
            redrawn.append(k)
        known = replace(known, hands=tuple(redrawn))
    return replace(state, hands=tuple(hands), pile=pile, discards=tuple(discards), known=known,
                   deal=replace(deal, set_aside=set_aside))


def _redeal_roles(state: State, me: int | None, rng: Rng) -> State:
    deal, known = state.deal, state.known
    fixed = {me} | {i.target for i in known.roles if i.viewer == me}
    hidden = [s for s in range(state.seats) if s not in fixed]
    spent = [i for i, sp in enumerate(deal.spent_roles) if me not in sp.known_by]
    pool = list(rng.shuffled([deal.roles[s] for s in hidden] + [deal.spent_roles[i].role for i in spent]
                             + list(deal.leftover_roles)))
    roles = list(deal.roles)
    for s in hidden:
        roles[s] = pool.pop()
    spent_roles = list(deal.spent_roles)
    for i in spent:
        spent_roles[i] = replace(spent_roles[i], role=pool.pop())
    inspections = tuple(i if i.viewer == me else Inspection(i.viewer, i.target, roles[i.target]) for i in known.roles)
    deal = replace(deal, roles=tuple(roles), spent_roles=tuple(spent_roles),
                   leftover_roles=tuple(sorted(pool, key=lambda r: r.value)))
    return replace(state, deal=deal, known=replace(known, roles=inspections))


def _redeal_goals(state: State, me: int | None, rng: Rng) -> State:
    deal = state.deal
    seen = state.known.goals[me] if me is not None else frozenset()
    unknown = [i for i, g in enumerate(state.board.goals) if g.kind is None and i not in seen]
    if len(unknown) < 2:
        return state
    kinds = list(deal.goal_kinds)
    for i, kind in zip(unknown, rng.shuffled([kinds[i] for i in unknown]), strict=True):
        kinds[i] = kind
    return replace(state, deal=replace(deal, goal_kinds=tuple(kinds)))


def _redeal_gold(state: State, me: int | None, rng: Rng) -> State:
    """Base game: draw again the values of the gold cards ``me`` did not see taken.

    What ``me`` knows, per payout: its own cards; in a miners' payout, the
    cards left in the offer each time it chose (so the cards the others took
    between two of its picks, as a lot, and after its last pick); the amount
    each saboteur was paid. The world replays the payouts in order on a fresh
    gold deck: cards ``me`` never saw come from the deck less what it knows
    is still to come, the lots it saw are shared out again among the picks
    they cover, and saboteurs are paid by the rule from that deck.
    """
    purse = state.purse
    if state.deluxe or state.phase is Phase.OVER or not (purse.ledger or purse.offer):
        return state  # Deluxe shares are public arithmetic; at the end every total is shown
    rounds: dict[int, list[GoldMove]] = {}
    for m in purse.ledger:
        rounds.setdefault(m.round, []).append(m)
    if purse.offer:
        rounds.setdefault(state.round, [])
    # the offer still on the table belongs to this round's miners' payout
    plans: dict[int, tuple[list[int], list[int]]] = {}
    reserved: Counter[int] = Counter()
    for rnd, moves in rounds.items():
        if moves and not moves[0].picked:
            reserved.update(c for m in moves if m.seat == me for c in m.cards)
            continue
        values = [m.cards[0] for m in moves] + list(purse.offer if rnd == state.round else ())
        looks = [i for i, m in enumerate(moves) if m.seat == me]
        if rnd == state.round and purse.offer and purse.chooser == me:
            looks.append(len(moves))  # it sees the offer now
        plans[rnd] = (values, looks)
        reserved.update(values[looks[0]:] if looks else ())
    deck: Counter[int] = Counter(GOLD_CARDS)

    def draw(k: int) -> list[int]:
        free = list(rng.shuffled(sorted((deck - reserved).elements())))
        got = free[:k]
        deck.subtract(got)
        return got + [1] * (k - len(got))  # more than the deck holds: the bank's single nuggets

    ledger: list[GoldMove] = []
    offer = purse.offer
    for rnd, moves in rounds.items():
        if rnd not in plans:  # saboteurs' pay
            for m in moves:
                if m.seat == me:
                    cards, amount = m.cards, m.amount
                    reserved.subtract(cards)
                    deck.subtract(cards)
                elif state.options.saboteur_pay == "cards":
                    cards = tuple(draw(len(m.cards)))
                    amount = sum(cards)
                else:
                    cards, amount = exact_payment(sorted((deck - reserved).elements()), m.amount), m.amount
                    deck.subtract(cards)
                ledger.append(replace(m, cards=cards, amount=amount))
            continue
        values, looks = plans[rnd]
        first = looks[0] if looks else len(values)
        world = draw(first) + values[first:]
        reserved.subtract(values[first:])
        deck.subtract(values[first:])
        for j, look in enumerate(looks):  # the lots between its looks go round again among their picks
            if look >= len(moves):
                break  # it is choosing now: it sees the offer as it lies
            end = looks[j + 1] if j + 1 < len(looks) else len(values)
            world[look + 1 : end] = rng.shuffled(world[look + 1 : end])
        ledger += [replace(m, cards=(v,), amount=v) for m, v in zip(moves, world, strict=False)]
        if rnd == state.round and purse.offer:
            offer = tuple(world[len(moves):])
    gold = [0] * state.seats
    for m in ledger:
        gold[m.seat] += m.amount
    if me is not None:
        gold[me] = purse.gold[me]
    deck = +deck
    return replace(state, purse=replace(purse, gold=tuple(gold), deck=tuple(sorted(deck.elements())), offer=offer,
                                        ledger=tuple(ledger)))
