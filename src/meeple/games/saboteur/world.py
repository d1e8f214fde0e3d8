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
from collections.abc import Callable, Sequence

import attrs

from meeple.engine import Rng
from meeple.engine.copies import own_dict
from meeple.engine.memo import Last, cached

from . import data
from .board import Board, Cell, GoalCard
from .bot import NEARER, Suspicion, digger_choice, digger_turn, goal_targets, left_reach, saboteur_tempting
from .commands import PlayPath
from .data import GOLD_CARDS, KINDS, Action, Category, GoalKind, Role
from .rules import BLOCKING, exact_payment, reveal_goals
from .state import (
    Deal,
    Deed,
    Edition,
    Front,
    Inspection,
    Knowledge,
    Phase,
    Purse,
    RoundResult,
    SpentRole,
    State,
    replace,
)
from .view import View, _redeal_goals, _redeal_roles, determinize

#: How much a point of suspicion multiplies the odds that a player holds a saboteur card, as a power of e.
SUSPICION_WEIGHT = 0.5
#: Uniform deals of the unseen roles among which :func:`world` takes one by those odds.
ROLE_DRAWS = 8
#: Replays of the finished gold payouts among which :func:`world` looks for one that gives the seat its own total.
GOLD_DRAWS = 32
#: Deals of the goals the seat did not see among which :func:`world` looks for one other players' maps agree with.
GOAL_DRAWS = 8
#: How many of each other player's latest turns :func:`_read_hands` reads its hand from.
READ_TURNS = 3


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
    sampled = _peeked_consistently(_suspected(determinize(skeleton, me, rng), view, me, rng), me, rng)
    return _read_hands(sampled, view, me, rng)


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


# -- what other players' turns say of their hands ---------------------------------------


@attrs.frozen
class _Turn:
    """One of another player's latest turns, as :func:`_read_hands` reads it.

    ``board``: the table before the turn (goals turned then, face up);
    ``maps``: the maps the player had played before it this round;
    ``deed``: what it did; ``front``: the cards in front of it then;
    ``back``: 1 for its last turn, 2 for the one before, and so on (the
    cards it has drawn since).
    """

    seat: int
    board: Board
    maps: int
    deed: Deed
    front: frozenset[Front]
    back: int


@cached("saboteur: other players' latest turns", limit=16)
def _latest_turns(cells: tuple[Cell, ...], goals: tuple[GoalCard, ...], deeds: tuple[Deed, ...],
                  front: tuple[frozenset[Front], ...], me: int | None) -> tuple[_Turn, ...]:
    """Each other player's latest ``READ_TURNS`` turns this round that its hand now can be read against.

    The tables before them are rebuilt from the deeds, newest first: a
    path card laid is taken back, one a rockfall took is put back, and the
    goals face up now are turned again where the tunnel then reached them.
    A player's earlier turns are not read once a card was played on it
    since (its cards in front, its role or its hand may have changed),
    nor once it swapped hands.
    """
    placeholder = tuple(g.kind or GoalKind.COAL_A for g in goals)  # those face down now were never reached
    down = tuple(GoalCard(g.col, g.row) for g in goals)
    turned = any(g.kind is not None for g in goals)
    maps = Counter(d.seat for d in deeds if d.card is not None and KINDS[d.card].action is Action.MAP)
    laid = list(cells)
    unread: set[int] = set()
    read: Counter[int] = Counter()
    out: list[_Turn] = []
    for deed in reversed(deeds):
        card, cell, seat = deed.card, deed.cell, deed.seat
        action = KINDS[card].action if card is not None else None
        if action is Action.MAP:
            maps[seat] -= 1
        if card is not None and cell is not None:
            if KINDS[card].category is Category.PATH:
                laid.remove(cell)
            else:
                laid.append(cell)  # a rockfall took it
        if deed.target is not None:
            unread.add(deed.target)
            if action is Action.SWAP_HAND:
                unread.add(seat)
        if seat == me or seat in unread or read[seat] >= READ_TURNS:
            continue
        read[seat] += 1
        board = Board(tuple(laid), down)
        if turned:
            board = reveal_goals(board, placeholder)[0]
        out.append(_Turn(seat, board, maps[seat], deed, front[seat], read[seat]))
    return tuple(out)


def _tempted(turn: _Turn, role: Role, kinds: Sequence[GoalKind]) -> Callable[[int], bool]:
    """Whether the heuristic bot in ``role`` would have played a card sooner than what it did on ``turn``.

    A digger makes its choices in a fixed order (:func:`~.bot.digger_choice`):
    a card it holds that offers a sooner one than the turn's
    (:func:`~.bot.digger_turn`) would have been played instead; so would a
    path card that brings the tunnel nearer than the one it laid. It aims at
    the goals its maps showed, taken to be the first ones in its order of
    looking (:func:`_peek_order`). A saboteur's first choice is the path card
    that takes the tunnel farthest (:func:`~.bot.saboteur_tempting`); a turn
    that did not take it as far says it held none; its other choices are not
    read.
    """
    board, front = turn.board, turn.front
    order = _peek_order(board.goals)
    peeked = {i: kinds[i] for i in order[: turn.maps]}
    targets = goal_targets(board.goals, peeked)
    if role is Role.SABOTEUR:
        if front & BLOCKING:
            return lambda card: False
        now, left = left_reach(board, targets, _laid(turn.deed))
        bound = max(now, left)
        return lambda card: saboteur_tempting(board, targets, card, bound)
    rank, left = digger_turn(board, targets, turn.deed)
    looking = GoalKind.GOLD not in peeked.values() and len(order) > turn.maps

    def tempted(card: int) -> bool:
        choice, after = digger_choice(board, targets, card, front, looking, role)
        return choice < rank or (choice == rank == NEARER and after < left)

    return tempted


def _laid(deed: Deed) -> PlayPath | None:
    """The path card ``deed`` laid, as its command; None if it laid none."""
    card, cell = deed.card, deed.cell
    if card is None or cell is None or KINDS[card].category is not Category.PATH:
        return None
    return PlayPath(card, cell.col, cell.row, cell.rotated)


class _Reader:
    """One other player's latest turns, read: how many, and the first turn back each card would have been played on.

    ``back(card)`` is ``k`` if the heuristic bot would have played ``card``
    ahead of what the player did ``k`` turns back (the least such ``k``),
    0 if on none of them; worked out once per card kind.
    """

    __slots__ = ("_checks", "_known", "turns")

    def __init__(self, checks: Sequence[Callable[[int], bool]]) -> None:
        self._checks = checks
        self._known: dict[int, int] = {}
        self.turns = len(checks)

    def back(self, card: int) -> int:
        """The first turn back ``card`` would have been played on, 0 if none."""
        found = self._known.get(card)
        if found is None:
            found = self._known[card] = next((k + 1 for k, tempted in enumerate(self._checks) if tempted(card)), 0)
        return found

    def overfull(self, back: Sequence[int]) -> int:
        """The first ``k`` for which more than ``k`` cards (of ``back``, a hand read) would have been played ``k`` turns back or later; 0 if none."""
        return next((k for k in range(1, self.turns + 1) if sum(1 for b in back if 0 < b <= k) > k), 0)


def _readers(state: State, view: View, me: int | None) -> dict[int, _Reader]:
    """Each other player whose hand its latest turns can be read against, with those turns read (latest first)."""
    turns = _turns_of(view, me)
    shown = {k.holder for k in state.known.hands if k.viewer == me}
    checks: dict[int, list[Callable[[int], bool]]] = {}
    for t in turns:
        if t.seat not in shown:
            checks.setdefault(t.seat, []).append(_tempted(t, state.deal.roles[t.seat], state.deal.goal_kinds))
    return {s: _Reader(c) for s, c in checks.items()}


_LAST_TURNS: Last[View, tuple[int | None, tuple[_Turn, ...]]] = Last("saboteur: the view whose turns were read last")


def _turns_of(view: View, me: int | None) -> tuple[_Turn, ...]:
    """:func:`_latest_turns` of ``view`` for ``me``; the same view asked again (every world of a search) is not read again."""
    last = _LAST_TURNS.get(view)
    if last is not None and last[0] == me:
        return last[1]
    turns = _latest_turns(view.board.cells, view.board.goals, view.deeds, view.front, me)
    _LAST_TURNS.put(view, (me, turns))
    return turns


def misread_hands(state: State, view: View, seat: int | None) -> list[int]:
    """The players whose hands in ``state`` disagree with their latest turns as ``seat`` saw them in ``view``.

    A hand disagrees when it holds more cards that the heuristic bot, in
    the player's role in ``state``, would have played ahead of what the
    player did ``k`` turns back than the ``k`` cards it has drawn since (see
    :func:`_read_hands`). In a match of heuristic bots the true hands never
    do; a world :func:`world` samples does only where no unseen card was
    left to trade.
    """
    if state.phase is not Phase.PLAY or not view.deeds:
        return []
    me = seat if seat is not None and 0 <= seat < view.seats else None
    return [s for s, reader in sorted(_readers(state, view, me).items())
            if reader.overfull([reader.back(c) for c in state.hands[s]])]


def _read_hands(state: State, view: View, me: int | None, rng: Rng) -> State:
    """``state`` with other players' hands made to agree with their latest turns, as the heuristic bot plays.

    The heuristic bot makes its choices in a fixed order (a digger: a path
    card that brings the tunnel nearer, its own tools mended, ..., a goal
    looked at, ..., a pass; a saboteur: first the path card that takes it
    farthest), so a card it would have played ahead of what a player did
    on a turn was not in that player's hand then (:func:`_tempted`). Of a
    hand read against its player's last ``K`` turns, ``K`` cards taken at
    random stand for the cards drawn since (the one drawn after the last
    turn is free; the one drawn after the turn before must not have tempted
    on the last; and so on) and the rest were held on every turn read. Each
    card that breaks what its place asks changes places with an unseen card
    elsewhere, drawn from those that keep it (in the pile, the cards set
    aside, or another player's face-down discards, except those that may
    hold a card a hand swap showed the seat), so that every place holds
    any card it may, at random. Players read so are those the seat cannot
    have seen a hand of (no hand swap showed it), in their roles of the world.
    """
    if state.phase is not Phase.PLAY or not view.deeds:
        return state
    readers = _readers(state, view, me)
    if not readers:
        return state
    kept = {me} | {s for k in state.known.hands if k.viewer == me for s in k.discarded_by}
    hands = list(state.hands)
    # the unseen cards a hand may trade with, in one list: the pile, the cards set aside, others' discards
    places = [state.pile, state.deal.set_aside, *(d for s, d in enumerate(state.discards) if s not in kept)]
    spare = [c for place in places for c in place]
    changed = False
    for seat, reader in sorted(readers.items()):
        hand = list(hands[seat])
        # the places of the cards drawn since each turn read (the latest first), the rest held since before them all
        since = [reader.turns] * len(hand)
        for drawn, i in enumerate(rng.shuffled(list(range(len(hand))))[: reader.turns]):
            since[i] = drawn
        for i, card in enumerate(hand):
            back = reader.back(card)
            if not 0 < back <= since[i]:
                continue
            clean = [j for j, c in enumerate(spare) if not 0 < reader.back(c) <= since[i]]
            if clean:
                j = clean[rng.below(len(clean))]
                hand[i], spare[j] = spare[j], card
                changed = True
        hands[seat] = tuple(sorted(hand))
    if not changed:
        return state
    cut: list[tuple[int, ...]] = []
    for place in places:
        cut.append(tuple(sorted(spare[: len(place)])))
        spare = spare[len(place):]
    pile, aside, *rest = cut
    discards = list(state.discards)
    for s in range(state.seats):
        if s not in kept:
            discards[s] = rest.pop(0)
    return replace(state, hands=tuple(hands), pile=pile, discards=tuple(discards),
                   deal=replace(state.deal, set_aside=aside))
