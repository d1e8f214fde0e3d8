"""Worlds for search bots: a full Saboteur state built from one seat's view alone (``Game.world``).

The view gives the public table (board, cards in front, the round's deeds,
hand, pile and discard sizes, results) and what the seat learned (its role,
hand and face-down discards, goals it looked at, roles it inspected, hands
it saw in a swap, dwarf cards it saw put away). :func:`world` lays out a
*skeleton* state from those facts, with the unseen cards, roles and goal
kinds dealt in any order that fits the sizes, then lets
:func:`~.view.determinize` re-deal every hidden part at random under the
constraints the seat knows. The deck and the role deck are fixed by the
edition and the seat count, so the unseen cards are the deck less every
card played face up this round (``deeds``), the seat's own hand and its own
discards.

Roles are not dealt uniformly: a seat has watched the round, and a player
who laid dead ends across the tunnel is likelier the saboteur. Among a few
uniform deals of the roles the seat cannot see, :func:`world` takes one with
odds that grow with the heuristic bot's suspicion of each player dealt a
saboteur (:class:`~.bot.Suspicion`, read from the view's deeds: ``e`` to the
power ``SUSPICION_WEIGHT`` times the score), so a search over worlds plays
against the saboteurs the table's deeds point at, as the heuristic bot does.

What other seats learned in secret is only partly rebuilt: their
Inspections are replayed from the deeds (the roles they saw follow the
world's roles); the goals they looked at are taken to be those the
heuristic bot would have chosen, one per map they played, and the world's
gold lies where none of them would have played a map after seeing it
(:func:`_peeks`); the hands a swap showed them are not rebuilt (that
changes nothing anyone may play). Base-game gold: the
seat knows its own total, and the view does not keep which gold cards went
where; every finished payout is replayed on a shuffled gold deck from the
public results (who won, who found the gold, the passing order), until a
replay gives the seat its own total, so that other totals and the deck left
vary from world to world as the true ones may (:func:`_base_gold`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from meeple.engine import Rng
from meeple.engine.copies import own_dict

from . import data
from .board import GoalCard
from .bot import Suspicion
from .data import GOLD_CARDS, KINDS, Action, GoalKind, Role
from .rules import exact_payment
from .state import Deal, Edition, Inspection, Knowledge, Phase, Purse, RoundResult, SpentRole, State
from .view import View, _redeal_goals, _redeal_roles, determinize

#: How much a point of suspicion multiplies the odds that a player holds a saboteur card, as a power of e.
SUSPICION_WEIGHT = 0.5
#: Uniform deals of the unseen roles among which :func:`world` takes one by those odds.
ROLE_DRAWS = 8
#: Replays of the finished gold payouts among which :func:`world` looks for one that gives the seat its own total.
GOLD_DRAWS = 32
#: Deals of the goals the seat did not see among which :func:`world` looks for one other players' maps agree with.
GOAL_DRAWS = 8


def world(view: View, seat: int | None, rng: Rng) -> State:
    """A state ``seat`` cannot tell from the true one, sampled from ``view`` alone.

    >>> import meeple
    >>> from meeple.engine import Rng
    >>> m = meeple.Match.start("saboteur", seats=4, seed=2)
    >>> w = world(m.view(1), 1, Rng(5))
    >>> m.game.view(w, 1) == m.view(1), w.hands[1] == m.state.hands[1]
    (True, True)
    """
    n = view.seats
    me = seat if seat is not None and 0 <= seat < n else None
    deluxe = view.edition is Edition.DELUXE
    if view.round == 0:  # before the first deal nothing is hidden
        return own_dict(State(seats=n, options=view.options,
                              purse=Purse(gold=(0,) * n, deck=() if deluxe else GOLD_CARDS)))
    hands, pile, aside, discards = _cards(view, me, rng, deluxe)
    roles, leftover, spent, inspections = _roles(view, me)
    skeleton = own_dict(State(
        seats=n,
        options=view.options,
        round=view.round,
        phase=view.phase,
        turn=view.turn,
        passes=view.passes,
        hands=hands,
        pile=pile,
        discards=discards,
        board=view.board,
        front=view.front,
        thieves=view.thieves,
        deeds=view.deeds,
        deal=Deal(starter=_starter(view), roles=roles, leftover_roles=leftover, spent_roles=spent,
                  goal_kinds=_goal_kinds(view), set_aside=aside),
        known=Knowledge(
            goals=_peeks(view, me),
            roles=inspections,
            hands=view.known_hands,
        ),
        purse=_purse(view, me, rng, deluxe),
        results=view.results,
    ))
    return _peeked_consistently(_suspected(determinize(skeleton, me, rng), view, me, rng), me, rng)


def _peek_order(goals: Sequence[GoalCard]) -> list[int]:
    """The face-down goals in the order the heuristic bot looks at them with maps: the middle one first."""
    return sorted((i for i, g in enumerate(goals) if g.kind is None), key=lambda i: (abs(i - 1), i))


def _peeks(view: View, me: int | None) -> tuple[frozenset[int], ...]:
    """The goals each seat looked at: the seat's own as it knows them, others' as the heuristic bot would choose.

    Which goal a map showed is secret (the round's deeds show the map
    only), so another player's ``k`` maps are taken to have shown the first
    ``k`` face-down goals in the heuristic bot's order (middle, then left,
    then right); a goal turned since then is public anyway.
    """
    order = _peek_order(view.board.goals)
    maps = Counter(d.seat for d in view.deeds if d.card is not None and KINDS[d.card].action is Action.MAP)
    return tuple(frozenset(i for i, _ in view.known_goals) if s == me else frozenset(order[: maps[s]])
                 for s in range(view.seats))


def _peeked_consistently(state: State, me: int | None, rng: Rng) -> State:
    """``state`` with the goals the seat did not see dealt again until no player looked on past the gold.

    A player who saw the gold has no use for another map (the heuristic bot
    plays none), so in a world where another player's first map showed the
    gold and it played a second, the goals are drawn again (``GOAL_DRAWS``
    times at most; the last draw stands).
    """
    if state.phase is not Phase.PLAY:
        return state
    order = _peek_order(state.board.goals)
    looked_on = [set(order[: len(seen) - 1]) for s, seen in enumerate(state.known.goals) if s != me and len(seen) > 1]
    if not looked_on:
        return state
    for _ in range(GOAL_DRAWS):
        kinds = state.deal.goal_kinds
        if not any(kinds[i] is GoalKind.GOLD for past in looked_on for i in past):
            break
        state = _redeal_goals(state, me, rng)
    return state


def _suspected(state: State, view: View, me: int | None, rng: Rng) -> State:
    """``state`` with the unseen roles dealt again, saboteur cards likelier to players the seat suspects.

    Takes one of ``ROLE_DRAWS`` deals (``state``'s own and uniform re-deals)
    with a weight of ``exp(SUSPICION_WEIGHT * score)`` for each player dealt
    a saboteur, the score being the heuristic bot's suspicion of that player
    as the seat itself would read the round (an Inspection's answer is kept
    as it is: those roles are not dealt again).
    """
    if me is None or state.phase is not Phase.PLAY or not view.deeds:
        return state
    suspicion = Suspicion()
    suspicion.update(view, me_digger=view.role is not Role.SABOTEUR)
    scores = {s: v for s, v in suspicion.others(view, me).items() if v}
    if not scores:
        return state
    deals = [state, *(_redeal_roles(state, me, rng) for _ in range(ROLE_DRAWS - 1))]
    weights = [math.exp(SUSPICION_WEIGHT * sum(v for s, v in scores.items() if d.deal.roles[s] is Role.SABOTEUR))
               for d in deals]
    pick = rng.below(1 << 30) / (1 << 30) * sum(weights)
    for d, w in zip(deals, weights, strict=True):
        pick -= w
        if pick < 0:
            return d
    return deals[-1]


def _cards(view: View, me: int | None, rng: Rng, deluxe: bool) -> tuple[
        tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Hands, pile, set-aside cards and discards: the seat's own as it knows them, the unseen cards dealt to size."""
    n = view.seats
    unseen = Counter(data.deck(deluxe))
    unseen.subtract(d.card for d in view.deeds if d.card is not None)
    if me is not None:
        unseen.subtract(view.hand)
        unseen.subtract(view.discarded)
    if any(v < 0 for v in unseen.values()):
        raise ValueError("saboteur: this view shows more cards of a kind than the deck holds")
    pool = list(rng.shuffled(sorted(unseen.elements())))
    hands: list[tuple[int, ...]] = []
    discards: list[tuple[int, ...]] = []
    for s in range(n):
        if s == me:
            hands.append(view.hand)
            discards.append(view.discarded)
            continue
        for table, size in ((hands, view.hand_sizes[s]), (discards, view.discard_counts[s])):
            table.append(tuple(sorted(pool[:size])))
            pool = pool[size:]
    aside = tuple(sorted(pool[: view.set_aside_count]))
    pile = tuple(sorted(pool[view.set_aside_count:]))
    if len(pile) != view.pile_size:
        raise ValueError(f"saboteur: the view's sizes leave {len(pile)} cards for a pile of {view.pile_size}")
    return tuple(hands), pile, aside, tuple(discards)


def _roles(view: View, me: int | None) -> tuple[
        tuple[Role, ...], tuple[Role, ...], tuple[SpentRole, ...], tuple[Inspection, ...]]:
    """Dwarf cards (public once a round is over), leftovers, cards put away, and every seat's Inspections."""
    n = view.seats
    deck = list(data.DELUXE_ROLES if view.edition is Edition.DELUXE else data.base_roles(n))
    # Inspections and who saw a card put away, replayed from the round's deeds (targets are public)
    looks: list[tuple[int, int]] = []
    saw: list[frozenset[int]] = []
    for d in view.deeds:
        if d.card is None or d.target is None:
            continue
        action = KINDS[d.card].action
        if action is Action.INSPECTION:
            looks.append((d.seat, d.target))
        elif action is Action.SWAP_HATS:
            saw.append(frozenset({d.target} | {v for v, t in looks if t == d.target}))
            looks = [(v, t) for v, t in looks if t != d.target]
    seen = dict(view.inspected)
    over = view.phase is not Phase.PLAY and bool(view.results) and view.results[-1].number == view.round
    fixed: dict[int, Role] = dict(enumerate(view.results[-1].roles)) if over else dict(seen)
    if me is not None and view.role is not None:
        fixed[me] = view.role
    roles = [fixed.get(s, Role.MINER) for s in range(n)]
    left = Counter(deck)
    left.subtract(fixed.values())
    left.subtract(r for _, r in view.put_away if r is not None)
    free = sorted(left.elements(), key=lambda r: r.value)
    for s in range(n):
        if s not in fixed:
            roles[s] = free.pop()
    spent = []
    for (owner, role), known_by in zip(view.put_away, saw, strict=False):
        spent.append(SpentRole(owner, role if role is not None else free.pop(), known_by))
    leftover = tuple(sorted(free[: view.leftover_roles_count], key=lambda r: r.value))
    inspections = tuple(Inspection(v, t, seen[t] if v == me else roles[t]) for v, t in looks)
    return tuple(roles), leftover, tuple(spent), inspections


def _goal_kinds(view: View) -> tuple[GoalKind, ...]:
    """Turned goals and the ones the seat looked at as they are; the rest in any order (re-dealt later)."""
    kinds: list[GoalKind | None] = [g.kind for g in view.board.goals]
    for i, kind in view.known_goals:
        kinds[i] = kind
    rest = Counter(data.GOALS)
    rest.subtract(k for k in kinds if k is not None)
    free = sorted(rest.elements(), key=lambda k: k.value)
    return tuple(k if k is not None else free.pop() for k in kinds)


def _starter(view: View) -> int:
    """The round's starter: the seat of its first deed (every turn leaves one), else the seat on turn."""
    if view.round < 1:
        return 0
    return view.deeds[0].seat if view.deeds else view.turn


def _purse(view: View, me: int | None, rng: Rng, deluxe: bool) -> Purse:
    """The gold: the seat's own total, others' drawn from the public results, an offer drawn where unseen."""
    n = view.seats
    deck: list[int] = list(GOLD_CARDS)
    if view.gold is not None:
        gold = list(view.gold)
    elif deluxe:
        gold = [0] * n
        for r in _paid(view):
            for s in r.winners:
                gold[s] += data.deluxe_share(len(r.winners))
        if me is not None and view.my_gold is not None:
            gold[me] = view.my_gold
        if view.holds_gold is not None:
            gold = [max(g, 1) if holds else 0 for g, holds in zip(gold, view.holds_gold, strict=True)]
    else:
        gold, deck = _base_gold(view, me, rng)
    if deluxe:
        return Purse(gold=tuple(gold), chooser=view.chooser, theft_queue=view.theft_queue)
    if view.gold is not None:
        spent = sum(min(n, 9) if r.team == "miners" else 2 for r in view.results if r.winners)
        deck = list(rng.shuffled(GOLD_CARDS))[: max(0, len(GOLD_CARDS) - spent)]
    offer = view.offer
    if offer:
        deck = _without(deck, offer)
    deck = list(rng.shuffled(sorted(deck)))
    if view.offer_size and not offer:
        offer, deck = tuple(sorted(deck[: view.offer_size])), deck[view.offer_size:]
        offer += (1,) * (view.offer_size - len(offer))
    return Purse(gold=tuple(gold), deck=tuple(sorted(deck)), offer=offer, chooser=view.chooser,
                 theft_queue=view.theft_queue)


def _paid(view: View) -> list[RoundResult]:
    """The round results whose payout is over (a payout under way is not counted twice)."""
    return [r for r in view.results
            if r.winners and not (r.number == view.round and view.phase in (Phase.SETTLE, Phase.CHOOSE, Phase.THEFT))]


def _without(deck: list[int], cards: Sequence[int]) -> list[int]:
    """``deck`` less ``cards`` (those it holds)."""
    left = Counter(deck)
    left.subtract(cards)
    return sorted((+left).elements())


def _base_gold(view: View, me: int | None, rng: Rng) -> tuple[list[int], list[int]]:
    """Base game: every total and the gold deck left, the finished payouts replayed on a shuffled gold deck.

    Which gold cards a miners' payout drew is hidden, and so is what each
    winner took; who won, who found the gold and the passing order are
    public. Each payout is replayed from a shuffled deck, every winner
    taking the largest card on offer (as the heuristic bot does), and a
    replay that does not give the seat its own total is drawn again
    (``GOLD_DRAWS`` times at most; the last keeps the seat's total as the
    view shows it). A payout under way (the view's offer) is left to the caller.
    """
    n = view.seats
    opts = view.options
    step = 1 if opts.gold_pass == "clockwise" else -1
    paid = _paid(view)
    mine = view.my_gold if me is not None else None
    gold: list[int] = [0] * n
    deck: list[int] = []
    for _ in range(GOLD_DRAWS):
        gold, deck = [0] * n, list(rng.shuffled(GOLD_CARDS))
        for r in paid:
            if r.team == "miners":
                count = min(n, 9) if opts.gold_cards == "players" else len(r.winners)
                offer, deck = sorted(deck[:count]), deck[count:]
                chooser = r.finisher if r.finisher in r.winners else _after(r.finisher, r.winners, n, step)
                while offer:
                    gold[chooser] += offer.pop()  # the largest
                    chooser = _after(chooser, r.winners, n, step)
                continue
            pay = data.SABOTEUR_PAY.get(len(r.winners), 0)
            for s in r.winners:
                if opts.saboteur_pay == "cards":
                    cards, deck = deck[:pay], deck[pay:]
                    gold[s] += sum(cards) + (pay - len(cards))
                else:
                    for c in exact_payment(deck, pay):
                        deck.remove(c)
                    gold[s] += pay
        if me is None or mine is None or gold[me] == mine:
            break
    if me is not None and mine is not None:
        gold[me] = mine
    return gold, deck


def _after(seat: int, winners: Sequence[int], n: int, step: int) -> int:
    """The nearest of ``winners`` after ``seat`` in the passing direction (``seat`` itself last)."""
    return next((s for s in ((seat + step * (i + 1)) % n for i in range(n)) if s in winners), seat)
