"""The rules of Gophers: set-up, the turn, collecting, the book, gifts, baskets, the end.

Read top to bottom it follows the seed text's order: set-up ("Подготовка к
игре"), the turn ("Ход игры": roll, walk, portals, dig cards), collecting
("Сбор припасов"), gifts, scoring ("Подсчёт очков"), then the variants'
differences (which are hooks on :class:`~.options.GophersOptions`).
``docs/rules/gophers.md`` is the rules page with every designed choice.

Read top to bottom: the game's facts, then :class:`GophersRules` (set-up,
the legal commands, decide and one small rule per command, the end), then
where the pawns stand, the walks and the collections, and last one small
evolver per event. The values made once, the copiers and the memos of the
walks and collection steps are in :mod:`.tables`. Some rules read the state
after their own first events, so ``decide`` folds those as it goes and
:meth:`GophersRules.decide_and_fold` hands the state it reached to the engine.

This module knows nothing of views, text or bots: :mod:`.game` puts the
game object together from the rules, :mod:`.view`, :mod:`.render` and :mod:`.bot`.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from typing import Any

from meeple.engine import ENGINE, Code, Command, Event, Game, Outcome, Rng
from meeple.engine.memo import cached

from . import tables
from .combos import (
    Step,
    bank_steps,
    can_collect_bank,
    can_collect_hand,
    hand_steps,
    laid_sum,
    short_complete,
    short_steps,
)
from .commands import COMMANDS, Add, Collect, Deal, Dig, Move, OpenBook, Pass, Place, Roll, Subtract, TakeGift
from .data import (
    BANK_CHANGE,
    BANK_TAKE,
    CARD_NAMED,
    DIE,
    DIG,
    DIG_CARDS,
    DIG_REMOVED_SIMPLIFIED,
    END_HAND,
    GIFT_CARDS,
    HAND_SIZE,
    HOLES,
    MAX_BOOK_ROLLS,
    MAX_EXTRA_MOVES,
    RANK,
    STALL_ROUNDS,
    STALL_ROUNDS_BEGINNER,
    SUPPLY_KINDS,
    VALUES_REMOVED_SIMPLIFIED,
    Card,
    Kind,
    Label,
    LabelKind,
    beginner_bank,
    sort_cards,
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
    CardLaid,
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
from .info import INFO
from .options import GophersOptions, Variant
from .state import (
    COLLECT,
    DEAL,
    GIFT,
    MOVE,
    NEW_TURN,
    OPEN,
    OVER,
    PLACE,
    START,
    Cards,
    Phase,
    State,
    new_state,
    replace_state,
    replace_table,
)
from .state import Table as Piles
from .tables import (
    ADD,
    COLLECT_CMD,
    DIG_CMD,
    GIFT_LABEL,
    LABELS,
    LAST_STEPS,
    MOVE_CMDS,
    MOVES,
    ORDER,
    PASS_CMD,
    PLACE_CMDS,
    PORTAL_LABEL,
    START_CMDS,
    SUBTRACT,
    TAKE,
    book_rolled,
    by_hole,
    card_drawn,
    card_laid,
    collected,
    collection_opened,
    dig_played,
    gift_offered,
    gift_taken,
    moved,
    passed,
    rolled,
    turn_ended,
)
from .walk import walk_ends

#: Names of the supplies in end messages.
PLURAL = {Kind.ACORN: "acorns", Kind.BERRY: "berries", Kind.WHEAT: "wheat ears"}


class GophersRules(Game[State, GophersOptions]):
    """The rules of Gophers ("Проныры"), all four rule sets; :class:`~.game.Gophers` adds views, text and bots."""

    info = INFO
    options_type = GophersOptions
    state_type = State
    commands = COMMANDS
    events = EVENTS

    def hides_information(self, options: GophersOptions) -> bool:
        """The hands and the deck are secret; the beginner rules have neither (an open bank), so hide nothing.

        >>> from meeple.games.gophers import GAME
        >>> GAME.hides_information(GophersOptions(Variant.BEGINNER)), GAME.hides_information(GophersOptions())
        (False, True)
        """
        return not options.beginner

    # -- set-up ------------------------------------------------------------------
    def initial_state(self, seats: int, options: GophersOptions) -> State:
        """The box before the deal."""
        return new_state(seats, options)

    def to_act(self, state: State) -> tuple[int, ...]:
        """ENGINE deals and opens the book; then the player to move, or the next collector."""
        phase = state.phase
        if phase is COLLECT:
            return state.collectors[:1]
        if phase is DEAL or phase is OPEN:
            return (ENGINE,)
        if phase is OVER:
            return ()
        return (state.current,)

    def auto_command(self, state: State) -> Command:
        """The engine deals, then opens the book."""
        return Deal() if state.phase is DEAL else OpenBook()

    # -- legal commands ------------------------------------------------------------
    def legal_commands(self, state: State, seat: int) -> Sequence[Command]:
        """Every command ``seat`` may play now (empty when it may not act)."""
        phase = state.phase
        if phase is COLLECT:
            if not state.collectors or seat != state.collectors[0]:
                return ()
            turn = state.turn
            out: list[Command] = [(SUBTRACT if sub else ADD)[c] for c, sub in collect_steps(state, seat)]
            if turn.added:
                if laid_sum(turn.added, turn.subtracted) == label_at(state, seat).count or short_laid(state, seat):
                    out.append(COLLECT_CMD)
            elif not turn.subtracted:
                out.append(PASS_CMD)
            return out
        if seat != state.current or phase is DEAL or phase is OPEN or phase is OVER:
            return ()  # the engine's turn, or not this seat's
        if phase is START:
            return START_CMDS[can_dig(state, seat)]
        if phase is MOVE:
            moves = legal_moves(state, seat)
            return (*moves, DIG_CMD) if can_dig(state, seat) else moves
        if phase is PLACE:
            taken = state.positions
            return [p for p in PLACE_CMDS if p.hole not in taken]
        if phase is GIFT:
            return [TAKE[c] for c in sort_cards(list(set(state.turn.offer)))]
        return ()

    # -- decide ---------------------------------------------------------------------
    def decide(self, state: State, seat: int, command: Command, rng: Rng) -> tuple[Event, ...]:
        """Check ``command`` against the rules and return its events.

        Each command has its phase and one small rule below (``_on_roll``,
        ``_on_move``, ...), looked up by the command's type.
        """
        return tuple(self._decided(state, seat, command, rng).events)

    def decide_and_fold(self, state: State, seat: int, command: Command, rng: Rng) -> tuple[tuple[Event, ...], State]:
        """``decide``'s events and the state after them (see ``Game.decide_and_fold``).

        Some rules read the state after the events before them (where a walk
        ends, who is asked to collect), so the events are folded as the rules
        go; the state they reached, folded on through the last events, goes
        to the engine here, and each event is folded once.
        """
        tx = self._decided(state, seat, command, rng)
        return tuple(tx.events), tx.state

    def _decided(self, state: State, seat: int, command: Command, rng: Rng) -> _Tx:
        rule = _RULES.get(type(command))
        if rule is None:
            raise self.illegal(f"{command!r} is not a gophers command", Code.UNKNOWN_COMMAND, command)
        phases, apply = rule
        if state.phase not in phases:
            wanted = " or ".join(p.value for p in phases)
            raise self.illegal(f"{type(command).__name__} is for the {wanted} phase; the game is in the "
                               f"{state.phase.value} phase", Code.WRONG_PHASE, command)
        tx = _Tx(state)
        apply(self, tx, state, seat, command, rng)
        return tx

    def _on_roll(self, tx: _Tx, state: State, seat: int, command: Roll, rng: Rng) -> None:
        tx.emit(rolled(seat, rng.die(DIE)))

    def _on_move(self, tx: _Tx, state: State, seat: int, command: Move, rng: Rng) -> None:
        moves = legal_moves(state, seat)
        if command not in moves:  # (a legal command is one of them: ``in`` finds it by identity first)
            raise self.illegal(
                f"no walk of {state.roll} steps along the tunnels of spread {state.spread} ends on hole "
                f"{command.dest} jumping {list(command.jumped)}; see the legal moves", Code.RULE, command)
        tx.emit(moved(seat, command.dest, command.jumped))
        if command.dest == state.positions[seat]:
            self._open_collection(tx)  # a blocked pawn stays: its hole's portal or gift does not act
        else:
            self._arrive(tx, rng)

    def _on_lay(self, tx: _Tx, state: State, seat: int, command: Add | Subtract, rng: Rng) -> None:
        sub = command.__class__ is Subtract
        card = self._named(command.card, command)
        self._check_lay(state, seat, card, sub, command)
        tx.emit(card_laid(seat, card, sub))

    def _on_collect(self, tx: _Tx, state: State, seat: int, command: Collect, rng: Rng) -> None:
        turn = state.turn
        lab = label_at(state, seat)
        made = laid_sum(turn.added, turn.subtracted)
        if not turn.added or (made != lab.count and not short_laid(state, seat)):
            raise self.illegal(f"the laid cards make {made}; the hole needs exactly {lab.count}: lay more cards",
                               Code.RULE, command)
        tx.emit(collected(seat, turn.added, turn.subtracted, made))
        self._after_collector(tx)

    def _on_pass(self, tx: _Tx, state: State, seat: int, command: Pass, rng: Rng) -> None:
        if state.turn.added or state.turn.subtracted:
            raise self.illegal("you have laid cards: finish the collection", Code.RULE, command)
        tx.emit(passed(seat))
        self._after_collector(tx)

    def _on_dig(self, tx: _Tx, state: State, seat: int, command: Dig, rng: Rng) -> None:
        if not can_dig(state, seat):
            raise self.illegal("you have no dig card", Code.NOT_IN_HAND, command)
        self._dig(tx, rng, from_gift=False)

    def _on_take_gift(self, tx: _Tx, state: State, seat: int, command: TakeGift, rng: Rng) -> None:
        card = self._named(command.card, command)
        if card not in state.turn.offer:
            raise self.illegal(f"{command.card} is not among the gift cards {list(state.turn.offer)}",
                               Code.BAD_ARGUMENT, command)
        self._take_gift(tx, rng, card)

    def _named(self, name: str, command: Command) -> Card:
        """The card of the box with that name, or IllegalCommand."""
        found = CARD_NAMED.get(name)
        if found is None:
            raise self.illegal(f"{name!r} names no card of the box: write A7, B10, W1 or D", Code.BAD_ARGUMENT,
                               command)
        return found

    def _on_place(self, tx: _Tx, state: State, seat: int, command: Place, rng: Rng) -> None:
        hole = command.hole
        if not 0 <= hole < HOLES:
            raise self.illegal(f"holes are numbered 0..{HOLES - 1}, not {hole}", Code.BAD_ARGUMENT, command)
        if hole in state.positions:
            raise self.illegal(f"hole {hole} already holds a pawn: choose an empty hole", Code.RULE, command)
        tx.emit(Placed(seat, hole))

    def _on_deal(self, tx: _Tx, state: State, seat: int, command: Deal, rng: Rng) -> None:
        self._deal(tx, rng)

    def _on_open(self, tx: _Tx, state: State, seat: int, command: OpenBook, rng: Rng) -> None:
        tx.emit(BookOpened(rng.die(DIE)))

    def _deal(self, tx: _Tx, rng: Rng) -> None:
        """Set-up: six cards to each player (beginner: the open bank), rest is the deck."""
        s = tx.state
        opts = s.options
        if opts.beginner:
            tx.emit(Dealt((), ((),) * s.seats))
            tx.emit(BankLaid(beginner_bank(opts.removed_values, opts.bank)))
            return
        deck = rng.shuffled(build_deck(opts))
        hands = tuple(sort_cards(list(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE])) for i in range(s.seats))
        tx.emit(Dealt(deck[s.seats * HAND_SIZE :], hands))

    def _book_roll(self, tx: _Tx, rng: Rng) -> bool:
        """Roll for the spread; turn the book unless the die shows the open spread."""
        s = tx.state
        r = rng.die(DIE)
        tx.emit(book_rolled(s.current, r, r != s.spread))
        return r != s.spread

    def _dig(self, tx: _Tx, rng: Rng, from_gift: bool) -> None:
        tx.emit(dig_played(tx.state.current, from_gift))
        if self._book_roll(tx, rng):
            self._arrive(tx, rng)
        else:
            self._open_collection(tx)

    def _arrive(self, tx: _Tx, rng: Rng) -> None:
        """Resolve the mover's hole: portals roll again (chaining), a gift offers cards or another move."""
        while True:
            s = tx.state
            lab = label_at(s, s.current)
            turn = s.turn
            if lab.kind is PORTAL_LABEL and turn.book_rolls < MAX_BOOK_ROLLS:
                if self._book_roll(tx, rng):
                    continue
            elif lab.kind is GIFT_LABEL:
                if s.options.beginner:
                    if turn.extra_moves < MAX_EXTRA_MOVES:
                        tx.emit(ExtraMove(s.current))
                        return
                elif not turn.gift_used and s.cards.deck:
                    tx.emit(gift_offered(s.current, s.cards.deck[:GIFT_CARDS]))
                    return
            break
        self._open_collection(tx)

    def _take_gift(self, tx: _Tx, rng: Rng, card: Card) -> None:
        s = tx.state
        offer = s.turn.offer
        index = offer.index(card)
        tx.emit(gift_taken(s.current, card, index, (*offer[:index], *offer[index + 1 :])))
        if card == DIG:
            self._dig(tx, rng, from_gift=True)
        else:
            self._open_collection(tx)

    def _open_collection(self, tx: _Tx) -> None:
        """Ask the mover to collect; after a turn of the book, everybody, in turn order.

        With hands every seat on a supply or store is asked, able or not: at
        a table "cannot" and "will not" look the same, and the record must
        not tell hands apart. Only a seat with no card at all (its hand size
        is public) is not asked. The beginner rules hide nothing, so only
        seats that can collect are asked there.
        """
        s = tx.state
        current = s.current
        order = ORDER[s.seats][current] if s.turn.turned else (current,)
        if s.options.beginner:
            who = tuple([x for x in order if can_collect(s, x)])
        else:
            hands, takes, positions = s.cards.hands, _TAKES[s.spread], s.positions
            who = tuple([x for x in order if hands[x] and takes[positions[x]]])  # a hand, and a hole that takes cards
        if who:
            tx.emit(collection_opened(who))
        else:
            self._end_turn(tx)

    def _check_lay(self, state: State, seat: int, card: Card, sub: bool, cmd: Command) -> None:
        """Refuse a card that may not be laid next, naming the rule it breaks."""
        if card is DIG:
            raise self.illegal("a dig card is not part of a collection", Code.BAD_ARGUMENT, cmd)
        if (card, sub) in collect_steps(state, seat):
            return
        lab = label_at(state, seat)
        opts = state.options
        turn = state.turn
        kinds = supply_of(lab)
        if not kinds:
            raise self.illegal(f"there are no supplies at hole {state.positions[seat]}: pass", Code.RULE, cmd)
        if card.kind not in kinds:
            raise self.illegal(f"hole {state.positions[seat]} takes {', '.join(k.value for k in kinds)} only",
                               Code.RULE, cmd)
        if sub and not opts.subtraction:
            raise self.illegal("the simplified rules use addition only", Code.RULE, cmd)
        if opts.beginner:
            if sub and card not in state.plus[seat]:
                raise self.illegal("change comes from your own supplies: you do not hold that card",
                                   Code.NOT_IN_HAND, cmd)
            if not sub and card not in state.bank:
                raise self.illegal("the bank does not hold that card", Code.NOT_IN_HAND, cmd)
            laid = (*turn.added, *turn.subtracted)
            if laid and laid[0].kind is not card.kind:
                raise self.illegal("take (and give change in) one kind of supply", Code.RULE, cmd)
            if (not sub and len(turn.added) >= BANK_TAKE) or (sub and len(turn.subtracted) >= BANK_CHANGE):
                raise self.illegal(f"take at most {BANK_TAKE} cards and give at most {BANK_CHANGE} as change",
                                   Code.RULE, cmd)
            if card in (turn.subtracted if not sub else turn.added):
                raise self.illegal("a value may not be both taken and given back: that would change nothing",
                                   Code.RULE, cmd)
        elif card not in state.hands[seat]:
            raise self.illegal("you do not hold that card", Code.NOT_IN_HAND, cmd)
        last = max([(RANK[c], False) for c in turn.added] + [(RANK[c], True) for c in turn.subtracted], default=None)
        if last is not None and (RANK[card], sub) < last:
            raise self.illegal("lay cards in order: acorns, berries, wheat ears, each by value, and for one value "
                               "the added cards before the subtracted ones", Code.RULE, cmd)
        raise self.illegal(f"with that card the count {lab.count} can no longer be made", Code.RULE, cmd)

    def _after_collector(self, tx: _Tx) -> None:
        if not tx.state.collectors:
            self._end_turn(tx)

    def _end_turn(self, tx: _Tx) -> None:
        """Unproductive turns draw a card; baskets change hands; check the end."""
        s = tx.state
        mover = s.current
        opts = s.options
        turn = s.turn
        drew = False
        deck = s.cards.deck
        if not turn.productive and not opts.beginner and deck:
            tx.emit(card_drawn(mover, deck[0]))
            drew = True
        if opts.baskets and turn.productive:
            for victim in turn.jumped:
                owners = tuple(o for o, holder in enumerate(tx.state.baskets) if holder == victim)
                if owners:
                    tx.emit(BasketsTaken(mover, victim, owners))
            holder = tx.state.baskets[mover]
            if holder != mover:
                tx.emit(BasketRedeemed(mover, holder, turn.haul[0], turn.haul[1]))
        idle = 0 if turn.productive or drew else s.idle + 1
        tx.emit(turn_ended(mover, turn.productive, (mover + 1) % s.seats, idle))
        reason = self._end_reason(tx.state, mover)
        if reason:
            tx.emit(GameEnded(reason))

    def _end_reason(self, s: State, mover: int) -> str:
        """Why the game ends after ``mover``'s turn, or "".

        With ``end="round"`` the seed's end is checked only after the last
        seat's turn, so every seat has had as many turns; the stall guard
        acts after any turn.
        """
        if s.options.end == "turn" or mover == s.seats - 1:
            if s.options.beginner:
                for k in SUPPLY_KINDS:
                    if not any(c.kind is k for c in s.bank):
                        return f"the bank ran out of {PLURAL[k]}"
            elif not s.cards.deck:
                for seat, hand in enumerate(s.cards.hands):
                    if len(hand) <= END_HAND:
                        return f"the deck is empty and seat {seat} holds {len(hand)} cards"
        rounds = STALL_ROUNDS_BEGINNER if s.options.beginner else STALL_ROUNDS
        if s.idle >= rounds * s.seats:
            return f"{rounds} rounds passed without a productive turn or a draw"
        return ""

    # -- evolve -------------------------------------------------------------------
    def evolve(self, state: State, event: Event) -> State:
        """Fold one event into the state (pure; never draws): its evolver, one small function per event (below)."""
        return evolve(state, event)

    # -- outcome -----------------------------------------------------------------
    def outcome(self, state: State) -> Outcome | None:
        """Scores once the game is over; the best score wins, then the tie-break (see :func:`tie_break`)."""
        if state.phase is not OVER:
            return None
        scores = tuple(score(state, s) for s in range(state.seats))
        ranks = [(scores[s], tie_break(state, s)) for s in range(state.seats)]
        best = max(ranks)
        winners = tuple(s for s in range(state.seats) if ranks[s] == best)
        return Outcome(winners, scores, state.end_reason)


#: Each command's phases and rule (see :meth:`GophersRules.decide`).
_RULES: dict[type[Command], tuple[tuple[Phase, ...], Callable[..., None]]] = {
    Roll: ((START,), GophersRules._on_roll),
    Move: ((MOVE,), GophersRules._on_move),
    Add: ((COLLECT,), GophersRules._on_lay),
    Subtract: ((COLLECT,), GophersRules._on_lay),
    Collect: ((COLLECT,), GophersRules._on_collect),
    Pass: ((COLLECT,), GophersRules._on_pass),
    Dig: ((START, MOVE), GophersRules._on_dig),
    TakeGift: ((GIFT,), GophersRules._on_take_gift),
    Place: ((PLACE,), GophersRules._on_place),
    Deal: ((DEAL,), GophersRules._on_deal),
    OpenBook: ((OPEN,), GophersRules._on_open),
}


# -- where the pawns stand, walks, collections, digs and scores ----------------------------------


@cached("gophers: the box's cards", limit=64)
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
    return LABELS[state.spread][state.positions[seat]]


def supply_of(label: Label) -> tuple[Kind, ...]:
    """The kinds of card a label takes: its own kind for a supply, any for a store, none otherwise."""
    if label.kind is LabelKind.SUPPLY:
        assert label.supply is not None
        return (label.supply,)
    if label.kind is LabelKind.STORE:
        return SUPPLY_KINDS
    return ()


#: The kinds each hole of each spread takes (``_TAKES[spread][hole]``), worked out once.
_TAKES = by_hole(supply_of)


def takes_at(state: State, seat: int) -> tuple[Kind, ...]:
    """The kinds of card ``seat`` may collect with at its hole now (none off supplies and stores)."""
    return _TAKES[state.spread][state.positions[seat]]


def legal_moves(state: State, seat: int) -> tuple[Move, ...]:
    """Every walk ``seat`` may choose for the rolled number, as ``Move`` commands (sorted).

    The book never changes, so the walks of each position are worked out
    once and remembered (the most recent few thousand positions).
    """
    positions = state.positions
    key = (state.spread, state.roll, seat, positions)
    found = MOVES.get(key)
    if found is None:
        pawns = {h: s for s, h in enumerate(positions) if s != seat and h >= 0}
        found = MOVES.put(key, tuple([MOVE_CMDS[end] for end in walk_ends(state.spread, positions[seat], state.roll, pawns)]))
    return found


def collect_steps(state: State, seat: int) -> tuple[Step, ...]:
    """The cards ``seat`` may lay next for its collection (see :mod:`.combos`).

    The answers for the last state asked about are remembered by seat:
    ``decide`` asks again for the state that ``legal_commands`` was just asked about.
    """
    by_seat = LAST_STEPS.get(state)
    if by_seat is None:
        by_seat = LAST_STEPS.put(state, {})
    else:
        known = by_seat.get(seat)
        if known is not None:
            return known
    kinds = takes_at(state, seat)
    steps: tuple[Step, ...] = ()
    if kinds:
        lab = label_at(state, seat)
        turn = state.turn
        if state.options.beginner:
            found = bank_steps(state.bank, state.plus[seat], kinds, lab.count, turn.added, turn.subtracted)
            if state.options.short_till:
                found += short_steps(state.bank, kinds, lab.count, turn.added, turn.subtracted)
            steps = tuple(found)
        else:
            steps = tuple(hand_steps(state.cards.hands[seat], kinds, lab.count, state.options.subtraction,
                                     turn.added, turn.subtracted))
    by_seat[seat] = steps
    return steps


def short_laid(state: State, seat: int) -> bool:
    """True if ``seat`` has laid a whole short collection (the full beginner bank ran short of the kind)."""
    turn = state.turn
    return state.options.short_till and short_complete(state.bank, label_at(state, seat).count, turn.added,
                                                        turn.subtracted)


def can_collect(state: State, seat: int) -> bool:
    """True if ``seat`` could collect at its hole now (with nothing laid yet)."""
    kinds = takes_at(state, seat)
    if not kinds:
        return False
    lab = label_at(state, seat)
    if state.options.beginner:
        if state.options.short_till and short_steps(state.bank, kinds, lab.count, (), ()):
            return True
        return can_collect_bank(state.bank, state.plus[seat], kinds, lab.count)
    return can_collect_hand(state.hands[seat], kinds, lab.count, state.options.subtraction)


def can_dig(state: State, seat: int) -> bool:
    """True if ``seat`` holds a dig card (beginner: still owns its one dig card)."""
    if state.options.beginner:
        return state.own_digs[seat] > 0
    return DIG in state.cards.hands[seat]


def score(state: State, seat: int) -> int:
    """The seat's score so far, from its piles.

    Standard rules: the face-up pile's values minus the face-down pile's
    (S "Подсчёт очков"). Beginner rules: the total of the kind the seat has
    least of. The fold keeps the same figures in ``state.table.scores``.
    """
    return pile_score(state.options.beginner, state.plus[seat], state.minus[seat])


def tie_break(state: State, seat: int) -> int:
    """The second key of the ranking (designed; see the rules page).

    Standard rules: fewer subtracted points wins (returned negated).
    Beginner rules: more supplies in total wins.
    """
    if state.options.beginner:
        return sum(c.value for c in state.plus[seat])
    return -sum(c.value for c in state.minus[seat])


class _Tx:
    """The events of one command; ``state`` is the state after those emitted so far.

    The events are folded only when a later rule reads ``state``, so a
    command whose rules read nothing after emitting (a roll, a laid card)
    folds nothing on its way; :meth:`GophersRules.decide_and_fold` hands the
    state after all of them to the engine, which then folds nothing again.
    """

    __slots__ = ("_state", "events", "folded")

    def __init__(self, state: State) -> None:
        self._state = state
        self.events: list[Event] = []
        self.folded = 0

    @property
    def state(self) -> State:
        """The state after every event emitted so far."""
        events = self.events
        while self.folded < len(events):
            self._state = evolve(self._state, events[self.folded])
            self.folded += 1
        return self._state

    def emit(self, event: Event) -> None:
        self.events.append(event)


# -- evolve: one small evolver per event -------------------------------------------------------
# -- cards and who knows them ------------------------------------------------------


def add_card(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    """``cards`` (sorted) with ``card`` put in its place."""
    i = bisect.bisect_right(cards, RANK[card], key=RANK.__getitem__)
    return (*cards[:i], card, *cards[i:])


def add_cards(cards: tuple[Card, ...], more: Sequence[Card]) -> tuple[Card, ...]:
    """``cards`` (sorted) with ``more`` put in their places."""
    return sort_cards([*cards, *more]) if more else cards


def remove_cards(cards: tuple[Card, ...], gone: Sequence[Card]) -> tuple[Card, ...]:
    """``cards`` without one copy of each of ``gone``."""
    out = list(cards)
    for c in gone:
        out.remove(c)
    return tuple(out)


def hand_add(hand: tuple[Card, ...], seen: tuple[int, ...], card: Card, mask: int) -> tuple[tuple[Card, ...], tuple[int, ...]]:
    """``hand`` and its masks with ``card`` added, known to the seats of ``mask``."""
    i = bisect.bisect_right(hand, RANK[card], key=RANK.__getitem__)
    return (*hand[:i], card, *hand[i:]), (*seen[:i], mask, *seen[i:])


def hand_drop(hand: tuple[Card, ...], seen: tuple[int, ...], card: Card) -> tuple[tuple[Card, ...], tuple[int, ...]]:
    """``hand`` and its masks with one copy of ``card`` gone (it was shown: laid or played).

    Copies of a card are alike, so a seat that knew of ``k`` copies in this
    hand knows of ``k - 1`` afterwards: the shown one may have been any.
    """
    i = hand.index(card)
    j = i + 1
    while j < len(hand) and hand[j] is card:
        j += 1
    masks = seen[i:j]
    rest = masks[1:]
    if any(masks):
        known = [0] * (j - i - 1)
        union = 0
        for m in masks:
            union |= m
        bit = 0
        while union >> bit:
            if union >> bit & 1:
                for k in range(sum(m >> bit & 1 for m in masks) - 1):
                    known[k] |= 1 << bit
            bit += 1
        rest = tuple(known)
    return (*hand[:i], *hand[i + 1 :]), (*seen[:i], *rest, *seen[j:])


def pile_score(beginner: bool, plus: tuple[Card, ...], minus: tuple[Card, ...]) -> int:
    """The score of one seat's piles (see :func:`score`).

    Standard rules: the face-up pile's values minus the face-down pile's.
    Beginner rules: the total of the kind the seat has least of.
    """
    if beginner:
        totals = [0, 0, 0]
        for c in plus:
            totals[RANK[c] // 10] += c.value
        return min(totals)
    return sum(c.value for c in plus) - sum(c.value for c in minus)


def _piles(s: State, t: Piles, seats: Sequence[int], plus: tuple[tuple[Card, ...], ...],
           minus: tuple[tuple[Card, ...], ...], **more: Any) -> Piles:
    """The table with new piles, the scores of ``seats`` worked out again."""
    beginner = s.options.beginner
    scores = t.scores
    for seat in seats:
        scores = tables.set_item(scores, seat, pile_score(beginner, plus[seat], minus[seat]))
    if more:
        return replace_table(t, plus=plus, minus=minus, scores=scores, **more)
    return tables.table_piles(t, plus, minus, scores)


# -- the turn ---------------------------------------------------------------------


def _rolled(s: State, e: Rolled) -> State:
    return tables.with_roll(s, MOVE, e.roll)


def _moved(s: State, e: Moved) -> State:
    positions = tables.set_item(s.positions, e.seat, e.dest)
    if not e.jumped:
        return tables.with_positions(s, positions)
    turn = s.turn
    return tables.with_walk(s, positions, tables.turn_jumped(turn, (*turn.jumped, *e.jumped)))


def _book_rolled(s: State, e: BookRolled) -> State:
    turn = s.turn
    if e.turned:
        return tables.with_spread(s, e.roll, tables.turn_turned(turn, True, turn.book_rolls + 1))
    return tables.with_turn(s, tables.turn_rolls(turn, turn.book_rolls + 1))


def _dig_played(s: State, e: DigPlayed) -> State:
    if e.from_gift:
        return s
    seat = e.seat
    if s.options.beginner:
        t = s.table
        return replace_state(s, table=replace_table(t, own_digs=tables.set_item(t.own_digs, seat, t.own_digs[seat] - 1)))
    return tables.with_cards(s, _hand_without(s.cards, seat, DIG))


def _gift_offered(s: State, e: GiftOffered) -> State:
    c = s.cards
    cards = e.cards or ()
    n = len(cards)
    mine = 1 << e.seat
    offer_seen = tuple(m | mine for m in c.deck_seen[:n])
    return tables.with_gift(s, GIFT, tables.cards_deck(c, c.deck[n:], c.deck_seen[n:]), tables.turn_offer(s.turn, True, cards, offer_seen))


def _gift_taken(s: State, e: GiftTaken) -> State:
    turn, c = s.turn, s.cards
    offer, seen, i = turn.offer, turn.offer_seen, e.index
    assert i is not None, "only a redacted GiftTaken hides the place, and the state folds the referee's events"
    cards = tables.cards_deck(c, (*c.deck, *offer[:i], *offer[i + 1 :]),  # under the deck, in the order drawn
                        (*c.deck_seen, *seen[:i], *seen[i + 1 :]))
    if e.card is DIG:
        return tables.with_laid(s, cards, tables.turn_offer_gone(turn, (), ()))
    t = s.table
    plus = tables.set_item(t.plus, e.seat, add_card(t.plus[e.seat], e.card))
    haul = ((*turn.haul[0], e.card), turn.haul[1])
    return tables.with_gift_kept(s, cards, _piles(s, t, (e.seat,), plus, t.minus), tables.turn_gift_kept(turn, (), (), True, haul))


def _extra_move(s: State, e: ExtraMove) -> State:
    turn = s.turn
    return tables.with_roll_turn(s, START, 0, tables.turn_extra(turn, turn.extra_moves + 1))


def _turn_ended(s: State, e: TurnEnded) -> State:
    return tables.with_next_turn(s, START, e.next, 0, (), NEW_TURN, e.idle)


# -- collecting -------------------------------------------------------------------


def _collection_opened(s: State, e: CollectionOpened) -> State:
    return tables.with_collectors(s, COLLECT, e.collectors)


def _card_laid(s: State, e: CardLaid) -> State:
    turn, seat, card = s.turn, e.seat, e.card
    laid = tables.turn_subtracted(turn, (*turn.subtracted, card)) if e.subtracted else tables.turn_added(turn, (*turn.added, card))
    if not s.options.beginner:
        return tables.with_laid(s, _hand_without(s.cards, seat, card), laid)
    t = s.table
    if e.subtracted:  # change, from the seat's pile
        plus = tables.set_item(t.plus, seat, remove_cards(t.plus[seat], (card,)))
        return tables.with_table_turn(s, _piles(s, t, (seat,), plus, t.minus), laid)
    return tables.with_table_turn(s, replace_table(t, bank=remove_cards(t.bank, (card,))), laid)


def _collected(s: State, e: Collected) -> State:
    turn, seat, t = s.turn, e.seat, s.table
    if seat == s.current:
        haul = ((*turn.haul[0], *e.plus), (*turn.haul[1], *e.minus))
        nxt = tables.turn_collected(turn, (), (), True, haul)
    else:
        nxt = tables.turn_cleared(turn, (), ())
    plus = tables.set_item(t.plus, seat, add_cards(t.plus[seat], e.plus))
    if s.options.beginner:  # the taken cards to the pile, the change to the bank
        table = _piles(s, t, (seat,), plus, t.minus, bank=add_cards(t.bank, e.minus))
    else:
        table = _piles(s, t, (seat,), plus, tables.set_item(t.minus, seat, add_cards(t.minus[seat], e.minus)))
    return tables.with_collected(s, s.collectors[1:], table, nxt)


def _passed(s: State, e: Passed) -> State:
    return tables.with_asked(s, s.collectors[1:])


def _card_drawn(s: State, e: CardDrawn) -> State:
    assert e.card is not None
    c, seat = s.cards, e.seat
    hand, seen = hand_add(c.hands[seat], c.seen[seat], e.card, c.deck_seen[0] & ~(1 << seat))
    return tables.with_cards(s, tables.new_cards(tables.set_item(c.hands, seat, hand), tables.set_item(c.seen, seat, seen), c.deck[1:], c.deck_seen[1:]))


def _hand_without(c: Cards, seat: int, card: Card) -> Cards:
    hand, seen = hand_drop(c.hands[seat], c.seen[seat], card)
    return tables.new_cards(tables.set_item(c.hands, seat, hand), tables.set_item(c.seen, seat, seen), c.deck, c.deck_seen)


# -- baskets ----------------------------------------------------------------------


def _baskets_taken(s: State, e: BasketsTaken) -> State:
    t = s.table
    return replace_state(s, table=replace_table(t, baskets=tuple(e.seat if o in e.owners else h
                                                                 for o, h in enumerate(t.baskets))))


def _basket_redeemed(s: State, e: BasketRedeemed) -> State:
    owner, holder, t = e.owner, e.holder, s.table
    plus = tables.set_item(tables.set_item(t.plus, owner, remove_cards(t.plus[owner], e.plus)), holder, add_cards(t.plus[holder], e.plus))
    minus = tables.set_item(tables.set_item(t.minus, owner, remove_cards(t.minus[owner], e.minus)), holder,
                 add_cards(t.minus[holder], e.minus))
    return replace_state(s, table=_piles(s, t, (owner, holder), plus, minus, baskets=tables.set_item(t.baskets, owner, owner)))


# -- set-up and the end --------------------------------------------------------------


def _dealt(s: State, e: Dealt) -> State:
    n = s.seats
    deck = e.deck or ()
    hands = tuple(h or () for h in e.hands)
    return replace_state(s, phase=PLACE, positions=(-1,) * n, current=0,
                         cards=Cards(hands, tuple((0,) * len(h) for h in hands), deck, (0,) * len(deck)),
                         table=Piles(((),) * n, ((),) * n, (), (0,) * n, tuple(range(n)), (0,) * n))


def _bank_laid(s: State, e: BankLaid) -> State:
    return replace_state(s, table=replace_table(s.table, bank=e.bank, own_digs=(1,) * s.seats))


def _placed(s: State, e: Placed) -> State:
    after = e.seat + 1
    return replace_state(s, positions=tables.set_item(s.positions, e.seat, e.hole), current=after % s.seats,
                         phase=PLACE if after < s.seats else OPEN)


def _book_opened(s: State, e: BookOpened) -> State:
    return replace_state(s, spread=e.roll, phase=START, current=0)


def _game_ended(s: State, e: GameEnded) -> State:
    return replace_state(s, phase=OVER, end_reason=e.reason)


#: The evolver of each event type.
_EVOLVE: dict[type[Event], Callable[[State, Any], State]] = {
    Rolled: _rolled, Moved: _moved, BookRolled: _book_rolled, DigPlayed: _dig_played,
    GiftOffered: _gift_offered, GiftTaken: _gift_taken, ExtraMove: _extra_move, TurnEnded: _turn_ended,
    CollectionOpened: _collection_opened, CardLaid: _card_laid, Collected: _collected, Passed: _passed,
    CardDrawn: _card_drawn, BasketsTaken: _baskets_taken, BasketRedeemed: _basket_redeemed, Dealt: _dealt,
    BankLaid: _bank_laid, Placed: _placed, BookOpened: _book_opened, GameEnded: _game_ended,
}


def evolve(state: State, event: Event) -> State:
    """The state after ``event`` (``Game.evolve``): pure, it never draws and never fails on an event ``decide`` made."""
    step = _EVOLVE.get(type(event))
    if step is None:
        raise TypeError(f"gophers cannot fold {event!r}")
    return step(state, event)
