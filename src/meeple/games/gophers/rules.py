"""The rules of Gophers: set-up, the turn, collecting, the book, gifts, baskets, the end.

Read top to bottom it follows the seed text's order: set-up ("Подготовка к
игре"), the turn ("Ход игры": roll, walk, portals, dig cards), collecting
("Сбор припасов"), gifts, scoring ("Подсчёт очков"), then the variants'
differences (which are hooks on :class:`~.options.GophersOptions`).
``docs/rules/gophers.md`` is the rules page with every designed choice.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import attrs

from meeple.engine import ENGINE, Code, Command, Event, Game, GameInfo, Outcome, Rng

from . import render as _render
from . import view as _view
from .combos import Combination, bank_combinations, hand_combinations
from .commands import COMMANDS, Collect, Deal, Dig, Move, OpenBook, Pass, Place, Roll, TakeGift
from .data import (
    DIE,
    DIG,
    DIG_CARDS,
    DIG_REMOVED_SIMPLIFIED,
    END_HAND,
    GIFT_CARDS,
    HAND_SIZE,
    HOLES,
    SUPPLY_KINDS,
    VALUES_REMOVED_SIMPLIFIED,
    Card,
    Kind,
    Label,
    LabelKind,
    sort_cards,
    spread,
    supply_cards,
)
from .events import (
    EVENTS,
    BankLaid,
    BasketRedeemed,
    BasketsTaken,
    BookOpened,
    BookRolled,
    CardDrawn,
    Collected,
    CollectionOpened,
    Dealt,
    DigPlayed,
    ExtraMove,
    GameEnded,
    GiftOffered,
    GiftTaken,
    Moved,
    Passed,
    Placed,
    Rolled,
    TurnEnded,
)
from .options import GophersOptions, Variant
from .state import Phase, State
from .walk import Walk, walks

INFO = GameInfo(
    id="gophers",
    title="Gophers (Проныры)",
    rules_version=1,
    min_seats=2,
    max_seats=4,
    variants=tuple(v.value for v in Variant),
    summary="Ground squirrels walk a six-spread burrow book and collect supplies with signed card sums.",
)

#: Names of the supplies in end messages.
PLURAL = {Kind.ACORN: "acorns", Kind.BERRY: "berries", Kind.WHEAT: "wheat ears"}
#: Book rolls allowed in one turn (designed: a safety stop for portal chains;
#: a chain this long has probability below 10**-6).
MAX_BOOK_ROLLS = 12
#: Unproductive turns in a row without drawing a card after which the game
#: ends (designed: five full rounds of nobody collecting means nobody can).
STALL_ROUNDS = 5
#: Beginner rules: most cards taken from the bank and given back as change in
#: one collection (seed text: "одной картой, можно двумя-тремя ... со сдачей").
BANK_TAKE = 3
BANK_CHANGE = 2


def build_deck(options: GophersOptions) -> tuple[Card, ...]:
    """Return the box's cards for ``options``, in a fixed order (before shuffling).

    >>> len(build_deck(GophersOptions())), len(build_deck(GophersOptions(Variant.SIMPLIFIED)))
    (67, 47)
    """
    removed = tuple(options.removed_values)
    digs = DIG_CARDS
    if options.variant is Variant.SIMPLIFIED:
        removed = (*removed, *VALUES_REMOVED_SIMPLIFIED)
        digs -= DIG_REMOVED_SIMPLIFIED
    return supply_cards(removed) + (DIG,) * digs


def label_at(state: State, seat: int) -> Label:
    """The label of ``seat``'s hole on the open spread."""
    return spread(state.spread).labels[state.positions[seat]]


def other_pawns(state: State, seat: int) -> dict[int, int]:
    """Map each hole holding another seat's pawn to that seat."""
    return {h: s for s, h in enumerate(state.positions) if s != seat and h >= 0}


def legal_walks(state: State, seat: int) -> frozenset[Walk]:
    """Every walk outcome ``seat`` may choose for the rolled number."""
    return walks(spread(state.spread), state.positions[seat], state.roll, other_pawns(state, seat))


def collections(state: State, seat: int) -> Iterator[Combination]:
    """Yield every (plus, minus) with which ``seat`` may collect at its hole now."""
    lab = label_at(state, seat)
    if lab.kind is LabelKind.SUPPLY:
        assert lab.supply is not None
        kinds: tuple[Kind, ...] = (lab.supply,)
    elif lab.kind is LabelKind.STORE:
        kinds = SUPPLY_KINDS
    else:
        return
    opts = state.options
    if opts.beginner:
        for k in kinds:
            yield from bank_combinations(state.bank, state.plus[seat], lab.count, k, BANK_TAKE, BANK_CHANGE)
    else:
        yield from hand_combinations(state.hands[seat], lab.count, opts.subtraction, frozenset(kinds))


def can_collect(state: State, seat: int) -> bool:
    """True if ``seat`` has at least one way to collect at its hole now."""
    return next(collections(state, seat), None) is not None


def can_dig(state: State, seat: int) -> bool:
    """True if ``seat`` holds a dig card (beginner: still owns its one dig card)."""
    if state.options.beginner:
        return state.own_digs[seat] > 0
    return DIG in state.hands[seat]


def score(state: State, seat: int) -> int:
    """The seat's score so far.

    Standard rules: the face-up pile's values minus the face-down pile's.
    Beginner rules: the total of the kind the seat has least of.
    """
    if state.options.beginner:
        return min(sum(c.value for c in state.plus[seat] if c.kind is k) for k in SUPPLY_KINDS)
    return sum(c.value for c in state.plus[seat]) - sum(c.value for c in state.minus[seat])


def tie_break(state: State, seat: int) -> int:
    """The second key of the ranking (designed; see the rules page).

    Standard rules: fewer subtracted points wins (returned negated).
    Beginner rules: more supplies in total wins.
    """
    if state.options.beginner:
        return sum(c.value for c in state.plus[seat])
    return -sum(c.value for c in state.minus[seat])


def _contains(pool: Sequence[Card], cards: Sequence[Card]) -> bool:
    need = Counter(cards)
    have = Counter(pool)
    return all(have[c] >= n for c, n in need.items())


def _remove(pool: tuple[Card, ...], cards: Sequence[Card]) -> tuple[Card, ...]:
    out = list(pool)
    for c in cards:
        out.remove(c)
    return tuple(out)


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return (*t[:i], v, *t[i + 1 :])


class _Tx:
    """The events of one command, folded as they are emitted so later rules see them."""

    def __init__(self, game: Gophers, state: State) -> None:
        self.game = game
        self.state = state
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = self.game.evolve(self.state, event)


class Gophers(Game[State, GophersOptions]):
    """Gophers ("Проныры") on the meeple protocol, with all four rule sets as a ``variant`` option."""

    info = INFO
    options_type = GophersOptions
    state_type = State
    view_type = _view.View
    commands = COMMANDS
    events = EVENTS

    # -- set-up ------------------------------------------------------------------
    def initial_state(self, seats: int, options: GophersOptions) -> State:
        """The box before the deal."""
        return State(seats=seats, options=options)

    def to_act(self, state: State) -> tuple[int, ...]:
        """ENGINE deals and opens the book; then the player to move, or the next collector."""
        match state.phase:
            case Phase.DEAL | Phase.OPEN:
                return (ENGINE,)
            case Phase.COLLECT:
                return state.collectors[:1]
            case Phase.OVER:
                return ()
        return (state.current,)

    def auto_command(self, state: State) -> Command:
        """The engine deals, then opens the book."""
        return Deal() if state.phase is Phase.DEAL else OpenBook()

    # -- legal commands ------------------------------------------------------------
    def legal_commands(self, state: State, seat: int) -> Sequence[Command]:
        """Every command ``seat`` may play now (empty when it may not act)."""
        if seat not in self.to_act(state) or seat == ENGINE:
            return ()
        match state.phase:
            case Phase.PLACE:
                taken = set(state.positions)
                return [Place(h) for h in range(HOLES) if h not in taken]
            case Phase.START:
                return [Roll(), Dig()] if can_dig(state, seat) else [Roll()]
            case Phase.MOVE:
                out: list[Command] = [Move(d, j) for d, j in sorted(legal_walks(state, seat))]
                if can_dig(state, seat):
                    out.append(Dig())
                return out
            case Phase.GIFT:
                return [TakeGift(c) for c in sort_cards(list(set(state.gift_offer)))]
            case Phase.COLLECT:
                return [*(Collect(p, m) for p, m in collections(state, seat)), Pass()]
        return ()

    # -- decide ---------------------------------------------------------------------
    def decide(self, state: State, seat: int, command: Command, rng: Rng) -> tuple[Event, ...]:
        """Check ``command`` against the rules and return its events (see the module docstring)."""
        tx = _Tx(self, state)
        match command:
            case Deal():
                self._need(state, Phase.DEAL, command)
                self._deal(tx, rng)
            case OpenBook():
                self._need(state, Phase.OPEN, command)
                tx.emit(BookOpened(rng.die(DIE)))
            case Place(hole=hole):
                self._need(state, Phase.PLACE, command)
                if not 0 <= hole < HOLES:
                    raise self.illegal(f"holes are numbered 0..{HOLES - 1}, not {hole}", Code.BAD_ARGUMENT, command)
                if hole in state.positions:
                    raise self.illegal(f"hole {hole} already holds a pawn: choose an empty hole", Code.RULE, command)
                tx.emit(Placed(seat, hole))
            case Roll():
                self._need(state, Phase.START, command)
                tx.emit(Rolled(seat, rng.die(DIE)))
            case Dig():
                if state.phase not in (Phase.START, Phase.MOVE):
                    raise self.illegal("a dig card is played instead of walking, before or after the roll",
                                       Code.WRONG_PHASE, command)
                if not can_dig(state, seat):
                    raise self.illegal("you have no dig card", Code.NOT_IN_HAND, command)
                self._dig(tx, rng, from_gift=False)
            case Move(dest=dest, jumped=jumped):
                self._need(state, Phase.MOVE, command)
                if (dest, jumped) not in legal_walks(state, seat):
                    raise self.illegal(
                        f"no walk of {state.roll} steps along the tunnels of spread {state.spread} ends on hole "
                        f"{dest} jumping {list(jumped)}; see the legal moves", Code.RULE, command)
                tx.emit(Moved(seat, dest, jumped))
                if dest == state.positions[seat]:
                    self._open_collection(tx)  # a blocked pawn stays: its hole's portal or gift does not act
                else:
                    self._arrive(tx, rng)
            case TakeGift(card=card):
                self._need(state, Phase.GIFT, command)
                if card not in state.gift_offer:
                    raise self.illegal(f"{card!r} is not among the gift cards {list(state.gift_offer)}",
                                       Code.BAD_ARGUMENT, command)
                self._take_gift(tx, rng, card)
            case Collect():
                self._need(state, Phase.COLLECT, command)
                self._check_collect(state, seat, command)
                lab = label_at(state, seat)
                tx.emit(Collected(seat, command.plus, command.minus, lab.count))
                self._after_collector(tx)
            case Pass():
                self._need(state, Phase.COLLECT, command)
                tx.emit(Passed(seat))
                self._after_collector(tx)
            case _:
                raise self.illegal(f"{command!r} is not a gophers command", Code.UNKNOWN_COMMAND, command)
        return tuple(tx.events)

    def _need(self, state: State, phase: Phase, command: Command) -> None:
        if state.phase is not phase:
            raise self.illegal(f"{type(command).__name__} is for the {phase.value} phase; the game is in the "
                               f"{state.phase.value} phase", Code.WRONG_PHASE, command)

    def _deal(self, tx: _Tx, rng: Rng) -> None:
        """Set-up: six cards to each player (beginner: the open bank), rest is the deck."""
        s = tx.state
        opts = s.options
        if opts.beginner:
            tx.emit(Dealt((), ((),) * s.seats))
            tx.emit(BankLaid(sort_cards(list(supply_cards(opts.removed_values)))))
            return
        deck = rng.shuffled(build_deck(opts))
        hands = tuple(sort_cards(list(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE])) for i in range(s.seats))
        tx.emit(Dealt(deck[s.seats * HAND_SIZE :], hands))

    def _book_roll(self, tx: _Tx, rng: Rng) -> bool:
        """Roll for the spread; turn the book unless the die shows the open spread."""
        s = tx.state
        r = rng.die(DIE)
        tx.emit(BookRolled(s.current, r, r != s.spread))
        return r != s.spread

    def _dig(self, tx: _Tx, rng: Rng, from_gift: bool) -> None:
        tx.emit(DigPlayed(tx.state.current, from_gift))
        if self._book_roll(tx, rng):
            self._arrive(tx, rng)
        else:
            self._open_collection(tx)

    def _arrive(self, tx: _Tx, rng: Rng) -> None:
        """Resolve the mover's hole: portals roll again (chaining), a gift offers cards."""
        while True:
            s = tx.state
            lab = label_at(s, s.current)
            if lab.kind is LabelKind.PORTAL and s.book_turns < MAX_BOOK_ROLLS:
                if self._book_roll(tx, rng):
                    continue
            elif lab.kind is LabelKind.GIFT and not s.gift_used:
                if s.options.beginner:
                    tx.emit(ExtraMove(s.current))
                    return
                if s.deck:
                    tx.emit(GiftOffered(s.current, s.deck[:GIFT_CARDS]))
                    return
            break
        self._open_collection(tx)

    def _take_gift(self, tx: _Tx, rng: Rng, card: Card) -> None:
        s = tx.state
        returned = list(s.gift_offer)
        returned.remove(card)
        tx.emit(GiftTaken(s.current, card, tuple(returned)))
        if card == DIG:
            self._dig(tx, rng, from_gift=True)
        else:
            self._open_collection(tx)

    def _open_collection(self, tx: _Tx) -> None:
        """The mover may collect; after a turn of the book everybody may, in turn order."""
        s = tx.state
        order = [(s.current + i) % s.seats for i in range(s.seats)]
        who = tuple(x for x in order if (x == s.current or s.turned) and can_collect(s, x))
        if who:
            tx.emit(CollectionOpened(who))
        else:
            self._end_turn(tx)

    def _check_collect(self, state: State, seat: int, cmd: Collect) -> None:
        lab = label_at(state, seat)
        if lab.kind not in (LabelKind.SUPPLY, LabelKind.STORE):
            raise self.illegal(f"there are no supplies at hole {state.positions[seat]}: pass", Code.RULE, cmd)
        plus, minus = cmd.plus, cmd.minus
        if not plus:
            raise self.illegal("add at least one card", Code.BAD_ARGUMENT, cmd)
        if sort_cards(list(plus)) != plus or sort_cards(list(minus)) != minus:
            raise self.illegal("list the cards in sorted order (acorns, berries, wheat; then by value)",
                               Code.BAD_ARGUMENT, cmd)
        allowed = SUPPLY_KINDS if lab.kind is LabelKind.STORE else (lab.supply,)
        if any(c.kind not in allowed for c in (*plus, *minus)):
            raise self.illegal(f"hole {state.positions[seat]} takes {', '.join(k.value for k in allowed if k)} only",
                               Code.RULE, cmd)
        if {c.value for c in plus} & {c.value for c in minus}:
            raise self.illegal("a value may not be both added and subtracted (they cancel out)", Code.RULE, cmd)
        total = sum(c.value for c in plus) - sum(c.value for c in minus)
        if total != lab.count:
            raise self.illegal(f"the cards make {total}, the hole needs exactly {lab.count}", Code.RULE, cmd)
        if state.options.beginner:
            if len({c.kind for c in plus} | {c.kind for c in minus}) != 1:
                raise self.illegal("take (and give change in) one kind of supply", Code.RULE, cmd)
            if len(plus) > BANK_TAKE or len(minus) > BANK_CHANGE:
                raise self.illegal(f"take at most {BANK_TAKE} cards and give at most {BANK_CHANGE} as change",
                                   Code.RULE, cmd)
            if not _contains(state.bank, plus):
                raise self.illegal("the bank does not hold those cards", Code.NOT_IN_HAND, cmd)
            if not _contains(state.plus[seat], minus):
                raise self.illegal("change comes from your own supplies: you do not hold those cards",
                                   Code.NOT_IN_HAND, cmd)
            return
        if minus and not state.options.subtraction:
            raise self.illegal("the simplified rules use addition only", Code.RULE, cmd)
        if not _contains(state.hands[seat], (*plus, *minus)):
            raise self.illegal("you do not hold those cards", Code.NOT_IN_HAND, cmd)

    def _after_collector(self, tx: _Tx) -> None:
        if not tx.state.collectors:
            self._end_turn(tx)

    def _end_turn(self, tx: _Tx) -> None:
        """Unproductive turns draw a card; baskets change hands; check the end."""
        s = tx.state
        mover = s.current
        opts = s.options
        drew = False
        if not s.productive and not opts.beginner and s.deck and len(s.hands[mover]) < opts.hand_limit:
            tx.emit(CardDrawn(mover, s.deck[0]))
            drew = True
        if opts.baskets and s.productive:
            for victim in s.jumped:
                owners = tuple(o for o, holder in enumerate(tx.state.baskets) if holder == victim)
                if owners:
                    tx.emit(BasketsTaken(mover, victim, owners))
            holder = tx.state.baskets[mover]
            if holder != mover:
                tx.emit(BasketRedeemed(mover, holder, s.haul[0], s.haul[1]))
        idle = 0 if s.productive or drew else s.idle + 1
        tx.emit(TurnEnded(mover, s.productive, (mover + 1) % s.seats, idle))
        reason = self._end_reason(tx.state)
        if reason:
            tx.emit(GameEnded(reason))

    def _end_reason(self, s: State) -> str:
        if s.options.beginner:
            for k in SUPPLY_KINDS:
                if not any(c.kind is k for c in s.bank):
                    return f"the bank ran out of {PLURAL[k]}"
        else:
            if not s.deck:
                for seat, hand in enumerate(s.hands):
                    if len(hand) <= END_HAND:
                        return f"the deck is empty and seat {seat} holds {len(hand)} cards"
        if s.idle >= STALL_ROUNDS * s.seats:
            return f"{STALL_ROUNDS} rounds passed without a productive turn or a draw"
        return ""

    # -- evolve -------------------------------------------------------------------
    def evolve(self, state: State, event: Event) -> State:
        """Fold one event into the state (pure; never draws)."""
        s = state
        match event:
            case Dealt(deck=deck, hands=hands):
                n = s.seats
                return attrs.evolve(
                    s, phase=Phase.PLACE, deck=deck or (), hands=tuple(h or () for h in hands),
                    positions=(-1,) * n, plus=((),) * n, minus=((),) * n, baskets=tuple(range(n)),
                    own_digs=(0,) * n, current=0)
            case BankLaid(bank=bank):
                return attrs.evolve(s, bank=bank, own_digs=(1,) * s.seats)
            case Placed(seat=seat, hole=hole):
                nxt = seat + 1
                return attrs.evolve(s, positions=_set(s.positions, seat, hole),
                                    current=nxt % s.seats, phase=Phase.PLACE if nxt < s.seats else Phase.OPEN)
            case BookOpened(roll=roll):
                return attrs.evolve(s, spread=roll, phase=Phase.START, current=0)
            case Rolled(roll=roll):
                return attrs.evolve(s, roll=roll, phase=Phase.MOVE)
            case Moved(seat=seat, dest=dest, jumped=jumped):
                return attrs.evolve(s, positions=_set(s.positions, seat, dest), jumped=(*s.jumped, *jumped))
            case DigPlayed(seat=seat, from_gift=from_gift):
                if from_gift:
                    return s
                if s.options.beginner:
                    return attrs.evolve(s, own_digs=_set(s.own_digs, seat, s.own_digs[seat] - 1))
                return attrs.evolve(s, hands=_set(s.hands, seat, _remove(s.hands[seat], (DIG,))))
            case BookRolled(roll=roll, turned=turned):
                if turned:
                    return attrs.evolve(s, spread=roll, turned=True, book_turns=s.book_turns + 1)
                return attrs.evolve(s, book_turns=s.book_turns + 1)
            case GiftOffered(cards=cards):
                cards = cards or ()
                return attrs.evolve(s, phase=Phase.GIFT, gift_offer=cards, deck=s.deck[len(cards) :],
                                    gift_used=True)
            case GiftTaken(seat=seat, card=card, returned=returned):
                s = attrs.evolve(s, gift_offer=(), deck=s.deck + (returned or ()))
                if card == DIG:
                    return s
                return attrs.evolve(s, plus=_set(s.plus, seat, sort_cards([*s.plus[seat], card])),
                                    productive=True, haul=((*s.haul[0], card), s.haul[1]))
            case ExtraMove():
                return attrs.evolve(s, phase=Phase.START, roll=0, gift_used=True)
            case CollectionOpened(collectors=who):
                return attrs.evolve(s, phase=Phase.COLLECT, collectors=who)
            case Collected(seat=seat, plus=plus, minus=minus):
                s = attrs.evolve(s, collectors=s.collectors[1:])
                if s.options.beginner:
                    pile = sort_cards([*_remove(s.plus[seat], minus), *plus])
                    s = attrs.evolve(s, bank=sort_cards([*_remove(s.bank, plus), *minus]),
                                     plus=_set(s.plus, seat, pile))
                else:
                    s = attrs.evolve(
                        s, hands=_set(s.hands, seat, _remove(s.hands[seat], (*plus, *minus))),
                        plus=_set(s.plus, seat, sort_cards([*s.plus[seat], *plus])),
                        minus=_set(s.minus, seat, sort_cards([*s.minus[seat], *minus])))
                if seat == s.current:
                    s = attrs.evolve(s, productive=True, haul=((*s.haul[0], *plus), (*s.haul[1], *minus)))
                return s
            case Passed():
                return attrs.evolve(s, collectors=s.collectors[1:])
            case CardDrawn(seat=seat, card=card):
                assert card is not None
                return attrs.evolve(s, hands=_set(s.hands, seat, sort_cards([*s.hands[seat], card])),
                                    deck=s.deck[1:])
            case BasketsTaken(seat=seat, owners=owners):
                return attrs.evolve(s, baskets=tuple(seat if o in owners else h for o, h in enumerate(s.baskets)))
            case BasketRedeemed(owner=owner, holder=holder, plus=plus, minus=minus):
                return attrs.evolve(
                    s,
                    plus=_set(_set(s.plus, owner, _remove(s.plus[owner], plus)), holder,
                              sort_cards([*s.plus[holder], *plus])),
                    minus=_set(_set(s.minus, owner, _remove(s.minus[owner], minus)), holder,
                               sort_cards([*s.minus[holder], *minus])),
                    baskets=_set(s.baskets, owner, owner))
            case TurnEnded(next=nxt, idle=idle):
                return attrs.evolve(
                    s, phase=Phase.START, current=nxt, roll=0, turned=False, book_turns=0, gift_used=False,
                    gift_offer=(), collectors=(), jumped=(), productive=False, haul=((), ()), idle=idle)
            case GameEnded(reason=reason):
                return attrs.evolve(s, phase=Phase.OVER, end_reason=reason)
        raise TypeError(f"gophers cannot fold {event!r}")

    # -- outcome -----------------------------------------------------------------
    def outcome(self, state: State) -> Outcome | None:
        """Scores once the game is over; the best score wins, then the tie-break (see :func:`tie_break`)."""
        if state.phase is not Phase.OVER:
            return None
        scores = tuple(score(state, s) for s in range(state.seats))
        ranks = [(scores[s], tie_break(state, s)) for s in range(state.seats)]
        best = max(ranks)
        winners = tuple(s for s in range(state.seats) if ranks[s] == best)
        return Outcome(winners, scores, state.end_reason)

    # -- views, text, bots --------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> _view.View:
        """What ``seat`` may know (see :mod:`.view`)."""
        return _view.view(state, seat)

    def redact(self, event: Event, seat: int | None) -> Event | None:
        """Hide other seats' cards and the deck order (see :mod:`.view`)."""
        return _view.redact(event, seat)

    def determinize(self, state: State, seat: int | None, rng: Rng) -> State:
        """Re-deal every card ``seat`` cannot see (see :mod:`.view`)."""
        return _view.determinize(state, seat, rng)

    def render(self, state: State, seat: int | None = None) -> str:
        """Draw the open spread, the pawns, the labels and the piles (see :mod:`.render`)."""
        return _render.render(state, seat)

    def describe(self, command: Command) -> str:
        """A short text for a command, e.g. ``collect A9 - A2``."""
        return _render.describe(command)

    def bots(self) -> Mapping[str, Any]:
        """``random`` and ``heuristic`` bot factories."""
        from meeple.engine import RandomBot

        from .bot import HeuristicBot

        return {"random": lambda seed: RandomBot(seed), "heuristic": lambda seed: HeuristicBot(seed)}


GAME = Gophers()
