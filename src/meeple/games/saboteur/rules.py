"""Saboteur's rules: set-up, turns, the tunnel board, round ends and payouts.

The rule texts are ``shared/seeds/000`` (Russian, base and Deluxe: S0) and
``shared/seeds/001`` (Armenian, base: S1); the numbers and rulings come from
``saboteur-facts.md``. ``docs/rules/saboteur.md`` states every rule as
implemented, with its source.

Read top to bottom: the game's facts, then :class:`SaboteurRules` (set-up,
the legal commands, decide, evolve, the end), then where each card may be
played, the turn's rules, and one small evolver per event. The values made
once and the memos the rules read are in :mod:`.tables`; the fused fold of
the commonest turns, which the game object uses, in :mod:`.fastfold`.

>>> import meeple
>>> m = meeple.Match.start("saboteur", seats=4, seed=1)
>>> m.to_act
(0,)
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Sequence
from itertools import combinations_with_replacement
from typing import Any

from meeple.engine import ENGINE, Code, Command, ConfigError, Event, Game, Outcome, Rng
from meeple.engine.copies import own_dict
from meeple.engine.memo import derived

from . import data, tables
from .board import NEAR_GOALS, Board, Hole, Network, coal_rotation, fitting, route_free_of, shape, symmetric
from .commands import (
    COMMANDS,
    BreakTool,
    ClearFront,
    DealRound,
    Discard,
    Inspect,
    PeekGoal,
    PlayPath,
    RepairTool,
    Rockfall,
    SettleRound,
    Steal,
    SwapHand,
    TakeGold,
    TargetAction,
)
from .data import KINDS, Action, Category, Door, GoalKind, Role
from .events import (
    EVENTS,
    ActionPlayed,
    CardDrawn,
    CardsDiscarded,
    FrontCleared,
    GoalPeeked,
    GoalRevealed,
    GoldOffered,
    GoldPaid,
    GoldTaken,
    HandsSwapped,
    HatSwapped,
    PathPlayed,
    PathRemoved,
    PayoutDone,
    RoleInspected,
    RoundDealt,
    RoundEnded,
    Stolen,
    ThievesReady,
    ToolBroken,
    ToolRepaired,
    TurnEnded,
)
from .info import INFO
from .state import (
    BROKEN,
    Deal,
    Deed,
    Edition,
    Front,
    GoldMove,
    Inspection,
    Knowledge,
    KnownHand,
    Phase,
    Purse,
    RoundResult,
    SaboteurOptions,
    SpentRole,
    State,
)

#: Cards in front of a player that forbid path cards (broken tools; Deluxe: Trapped!).
BLOCKING = frozenset({Front.BROKEN_PICKAXE, Front.BROKEN_LANTERN, Front.BROKEN_CART, Front.TRAPPED})
DIGGERS = frozenset({Role.MINER, Role.GREEN, Role.BLUE})
#: The commands of a player's turn (the others deal, pay out or steal).
_TURN_KINDS = frozenset(COMMANDS) - {DealRound, SettleRound, TakeGold, Steal}
# Enum members read on every turn, looked up once (reading one from its class is slow on CPython 3.11).
_THEFT, _TRAPPED = Front.THEFT, Front.TRAPPED
_PLAY, _OVER = Phase.PLAY, Phase.OVER

class SaboteurRules(Game[State, SaboteurOptions]):
    """Saboteur's rules, base game (3-10 players) and Deluxe edition (2-12).

    What each seat sees, the renderer and the bots are added by
    :class:`meeple.games.saboteur.game.Saboteur`, the game object the engine
    runs.
    """

    info = INFO
    options_type = SaboteurOptions
    state_type = State
    commands = COMMANDS
    events = EVENTS

    # -- set-up -----------------------------------------------------------------
    def initial_state(self, seats: int, options: SaboteurOptions) -> State:
        """The state before the first deal: no cards out, nobody has gold."""
        deluxe = options.edition is Edition.DELUXE
        return own_dict(State(seats=seats, options=options,
                              purse=Purse(gold=(0,) * seats, deck=() if deluxe else data.GOLD_CARDS)))

    def to_act(self, state: State) -> tuple[int, ...]:
        """The engine deals and settles; players play, choose gold or steal."""
        phase = state.phase
        if phase is _PLAY:  # nearly every position: asked several times per command
            return tables.ALONE[state.turn]
        match phase:
            case Phase.PLAY:
                return (state.turn,)
            case Phase.DEAL | Phase.SETTLE:
                return (ENGINE,)
            case Phase.CHOOSE:
                return (state.purse.chooser,)
            case Phase.THEFT:
                return (state.purse.theft_queue[0],)
        return ()

    def auto_command(self, state: State) -> Command:
        """Deal a round, or settle one."""
        return DealRound() if state.phase is Phase.DEAL else SettleRound()

    # -- legal commands ------------------------------------------------------------
    def legal_commands(self, state: State, seat: int) -> Sequence[Command]:
        """Every command ``seat`` may play now, cards named by kind, each kind once."""
        if state.phase is _PLAY:  # the common case, without asking to_act
            return self._turn_commands(state, seat) if seat == state.turn and seat != ENGINE else ()
        if seat == ENGINE or seat not in self.to_act(state):
            return ()
        if state.phase is Phase.CHOOSE:
            return [TakeGold(v) for v in sorted(set(state.purse.offer))]
        if state.phase is Phase.THEFT:
            gold = state.purse.gold
            return [Steal(t) for t in range(state.seats) if t != seat and gold[t] > 0]
        return self._turn_commands(state, seat)

    def _turn_commands(self, state: State, seat: int) -> list[Command]:
        hand = state.hands[seat]
        kinds = dict.fromkeys(hand)  # the hand is sorted: each kind once, in order
        out: list[Command] = []
        mine = state.front[seat]
        can_dig = not mine or mine.isdisjoint(BLOCKING)
        board = state.board
        for kind in kinds:  # in the hand's order, by kind
            lister = _LISTS[kind]
            if lister is not None:
                out += lister(state, seat, kind)
            elif can_dig:
                out += path_commands(board, kind)
        out += map(tables.DISCARD_ONE.__getitem__, kinds)  # a pass with one card of each kind
        most = state.options.pass_discards  # 1 unless the Deluxe option says 3 (the options are checked)
        if most > 1:
            for size in range(2, min(most, len(hand)) + 1):
                out.extend(Discard(c) for c in sorted(set(combinations_with_replacement(kinds, size)))
                           if holds(hand, c))
        if mine and state.deluxe and len(hand) >= 2:
            pairs = [c for c in combinations_with_replacement(kinds, 2) if holds(hand, c)]
            for item in sorted(mine, key=lambda f: f.value):
                out.extend(ClearFront(c, item) for c in pairs)
        return out

    # -- decide ------------------------------------------------------------------------
    def decide(self, state: State, seat: int, command: Command, rng: Rng) -> tuple[Event, ...]:
        """Check ``command`` against the rules and return its events (see the rules page)."""
        if command.__class__ in _TURN_KINDS and state.phase is _PLAY and seat == state.turn:
            return self._decide_turn(state, seat, command, rng)  # nearly every command: a turn, in turn
        match command:
            case DealRound():
                if state.phase is not Phase.DEAL or seat != ENGINE:
                    raise self.illegal("no round is waiting to be dealt", Code.WRONG_PHASE, command)
                return self._deal(state, rng)
            case SettleRound():
                if state.phase is not Phase.SETTLE or seat != ENGINE:
                    raise self.illegal("no round is waiting to be paid", Code.WRONG_PHASE, command)
                return self._settle(state, rng)
            case TakeGold(value=value):
                purse = state.purse
                if state.phase is not Phase.CHOOSE or seat != purse.chooser:
                    raise self.illegal("it is not your turn to take a gold card", Code.WRONG_PHASE, command)
                if value not in purse.offer:
                    raise self.illegal(
                        f"no gold card of value {value} is on offer; choose one of {sorted(set(purse.offer))}",
                        Code.BAD_ARGUMENT, command,
                    )
                return self._take_gold(state, seat, value)
            case Steal(target=target):
                purse = state.purse
                if state.phase is not Phase.THEFT or not purse.theft_queue or seat != purse.theft_queue[0]:
                    raise self.illegal("it is not your turn to steal", Code.WRONG_PHASE, command)
                if not self._valid_seat(state, target) or target == seat or purse.gold[target] <= 0:
                    raise self.illegal("steal from another player who holds gold", Code.BAD_ARGUMENT, command)
                events: tuple[Event, ...] = (Stolen(seat, target),)
                after = self._fold(state, events)
                if not after.purse.theft_queue:
                    events += (self._payout_done(after),)
                return events
        if state.phase is not _PLAY or seat != state.turn:
            raise self.illegal("it is not your turn to play a card", Code.WRONG_PHASE, command)
        return self._decide_turn(state, seat, command, rng)

    @staticmethod
    def _valid_seat(state: State, target: int) -> bool:
        return isinstance(target, int) and not isinstance(target, bool) and 0 <= target < state.seats

    def _card(self, state: State, seat: int, card: int, command: Command, *want: Action | Category) -> data.CardKind:
        if card not in state.hands[seat]:
            raise self.illegal(f"you hold no card of kind {card}; play a card from your hand", Code.NOT_IN_HAND, command)
        k = KINDS[card]
        if k.category not in want and k.action not in want:
            raise self.illegal(f"{k.name} cannot be played this way", Code.BAD_ARGUMENT, command)
        return k

    def _target(self, state: State, target: int, command: Command, *, other_than: int | None = None) -> None:
        if not self._valid_seat(state, target):
            raise self.illegal(f"there is no seat {target}; seats are 0..{state.seats - 1}", Code.BAD_ARGUMENT, command)
        if target == other_than:
            raise self.illegal("choose another player, not yourself", Code.BAD_ARGUMENT, command)

    def _decide_turn(self, state: State, seat: int, command: Command, rng: Rng) -> tuple[Event, ...]:
        front = state.front
        match command:  # the commonest turn first: a pass
            case Discard(cards=cards):
                most = state.options.pass_discards  # 1 unless the Deluxe option says 3 (the options are checked)
                if not 1 <= len(cards) <= most or (len(cards) > 1 and list(cards) != sorted(cards)):
                    raise self.illegal(
                        f"discard {'one card' if most == 1 else f'1 to {most} cards, listed in ascending order'}",
                        Code.BAD_ARGUMENT, command,
                    )
                if not (cards[0] in state.hands[seat] if len(cards) == 1 else holds(state.hands[seat], cards)):
                    raise self.illegal("you can discard only cards you hold", Code.NOT_IN_HAND, command)
                if len(cards) == 1:
                    discarded = tables.ONE_DISCARDED[seat][cards[0]]
                else:
                    discarded = tables.new_cards_discarded(seat, len(cards), cards)
                return self._end_turn(state, seat, (discarded,), rng, spent=len(cards), draws=len(cards), passed=True)
            case PlayPath(card=card, col=col, row=row, rotated=rotated):
                self._card(state, seat, card, command, Category.PATH)
                if front[seat] and not front[seat].isdisjoint(BLOCKING):
                    what = ", ".join(sorted(f.value for f in front[seat] & BLOCKING))
                    raise self.illegal(
                        f"you may not lay path cards while {what} lies in front of you; "
                        "play an action card or discard", Code.RULE, command,
                    )
                why = path_allowed(state.board, card, col, row, rotated)
                if why is not None:
                    raise self.illegal(why, Code.RULE, command)
                return self._after_path(state, seat, tables.new_path_played(seat, card, col, row, rotated), rng)
            case BreakTool(card=card, target=target):
                k = self._card(state, seat, card, command, Action.BREAK)
                self._target(state, target, command)
                (tool,) = k.tools
                if BROKEN[tool] in front[target]:
                    raise self.illegal(f"seat {target} already has a broken {tool.value}", Code.RULE, command)
                return self._end_turn(state, seat, (ToolBroken(seat, card, target),), rng)
            case RepairTool(card=card, target=target, tool=tool):
                k = self._card(state, seat, card, command, Action.REPAIR)
                self._target(state, target, command)
                if tool not in k.tools:
                    raise self.illegal(f"{k.name} does not repair a {tool.value}", Code.RULE, command)
                if BROKEN[tool] not in front[target]:
                    raise self.illegal(f"seat {target} has no broken {tool.value} to repair", Code.RULE, command)
                return self._end_turn(state, seat, (ToolRepaired(seat, card, target, tool),), rng)
            case Rockfall(card=card, col=col, row=row):
                self._card(state, seat, card, command, Action.ROCKFALL)
                if state.board.cell_at(col, row) is None:
                    raise self.illegal(
                        f"no path card to remove at ({col}, {row}); a rockfall never removes the start or a goal",
                        Code.RULE, command,
                    )
                return self._end_turn(state, seat, (PathRemoved(seat, card, col, row),), rng)
            case PeekGoal(card=card, goal=goal):
                self._card(state, seat, card, command, Action.MAP)
                goals = state.board.goals
                if not (isinstance(goal, int) and 0 <= goal < len(goals)) or goals[goal].kind is not None:
                    raise self.illegal("look at a face-down goal: 0 (top), 1 (middle) or 2 (bottom)",
                                       Code.BAD_ARGUMENT, command)
                peek = GoalPeeked(seat, card, goal, state.deal.goal_kinds[goal])
                return self._end_turn(state, seat, (peek,), rng)
            case ClearFront(cards=cards, removed=removed):
                if not state.deluxe:
                    raise self.illegal("only the Deluxe edition lets you discard two cards to clear one",
                                       Code.RULE, command)
                if len(cards) != 2 or list(cards) != sorted(cards) or not holds(state.hands[seat], cards):
                    raise self.illegal("discard exactly two cards you hold, listed in ascending order",
                                       Code.BAD_ARGUMENT, command)
                if removed not in front[seat]:
                    raise self.illegal(f"no {removed.value} card lies in front of you", Code.RULE, command)
                return self._end_turn(state, seat, (FrontCleared(seat, cards, removed),), rng, spent=2)
            case TargetAction(card=card, target=target):
                return self._target_action(state, seat, command, card, target, rng)
            case SwapHand(card=card, target=target):
                self._card(state, seat, card, command, Action.SWAP_HAND)
                self._target(state, target, command, other_than=seat)
                given = remove_cards(state.hands[seat], (card,))
                taken = state.hands[target]
                sizes = [len(h) for h in state.hands]
                sizes[seat], sizes[target] = len(taken), len(given)
                ev = HandsSwapped(seat, card, target, given, taken)
                return self._end_turn(state, seat, (ev,), rng, drawer=target, sizes=sizes)
            case Inspect(card=card, target=target):
                self._card(state, seat, card, command, Action.INSPECTION)
                self._target(state, target, command, other_than=seat)
                seen = RoleInspected(seat, card, target, state.deal.roles[target])
                return self._end_turn(state, seat, (seen,), rng)
        raise self.illegal(f"{type(command).__name__} is not a turn in saboteur", Code.UNKNOWN_COMMAND, command)

    def _target_action(
        self, state: State, seat: int, command: Command, card: int, target: int, rng: Rng
    ) -> tuple[Event, ...]:
        k = self._card(state, seat, card, command, Action.THEFT, Action.HANDS_OFF, Action.SWAP_HATS,
                       Action.TRAPPED, Action.FREE)
        self._target(state, target, command)
        front = state.front[target]
        events: tuple[Event, ...] = (ActionPlayed(seat, card, target),)
        match k.action:
            case Action.THEFT:
                if target != seat:
                    raise self.illegal("Theft is laid in front of yourself", Code.RULE, command)
                if Front.THEFT in front:
                    raise self.illegal("a Theft card already lies in front of you", Code.RULE, command)
            case Action.HANDS_OFF:
                if Front.THEFT not in front:
                    raise self.illegal(f"seat {target} has no Theft card to remove", Code.RULE, command)
            case Action.TRAPPED:
                if target == seat:
                    raise self.illegal("Trapped! is played on another player", Code.RULE, command)
                if Front.TRAPPED in front:
                    raise self.illegal(f"seat {target} is already trapped", Code.RULE, command)
            case Action.FREE:
                if Front.TRAPPED not in front:
                    raise self.illegal(f"seat {target} is not trapped", Code.RULE, command)
            case Action.SWAP_HATS:
                left = state.deal.leftover_roles
                if not left:
                    raise self.illegal("no dwarf cards are left to draw from", Code.RULE, command)
                pick = left[rng.below(len(left))]
                events += (HatSwapped(target, state.deal.roles[target], pick),)
        return self._end_turn(state, seat, events, rng)

    # -- turn flow -----------------------------------------------------------------
    def _fold(self, state: State, events: Iterable[Event]) -> State:
        for e in events:
            state = self.evolve(state, e)
        return state

    def _after_path(self, state: State, seat: int, played: PathPlayed, rng: Rng) -> tuple[Event, ...]:
        # the board after the card, which the fold of the event takes from the board's table of boards laid
        board = state.board.lay(tables.new_cell(played.col, played.row, played.card, played.rotated))
        if not board.network.arrivals:
            return self._end_turn(state, seat, (played,), rng)  # the card reaches no face-down goal
        board, reveals = reveal_goals(board, state.deal.goal_kinds)
        events: tuple[Event, ...] = (played, *reveals)
        if any(r.kind is GoalKind.GOLD for r in reveals):
            if state.deluxe:
                teams = deluxe_teams(board, state.deal.roles[seat])
                team = "+".join(teams) if teams else "saboteurs"
            else:
                team = "miners"
            return (*events, RoundEnded(team, seat, seat, state.deal.roles, round_winners(state, team)))
        return self._end_turn(state, seat, events, rng)

    def _end_turn(
        self, state: State, seat: int, events: tuple[Event, ...], rng: Rng, *, spent: int = 1, draws: int = 1,
        drawer: int | None = None, sizes: list[int] | None = None, passed: bool = False,
    ) -> tuple[Event, ...]:
        """Draw (while the pile lasts), then pass the turn or end the round.

        ``spent`` cards left the player's hand (``sizes``: every hand size
        after the turn's cards moved, where the caller has it); ``draws`` are
        drawn by ``drawer`` (default: the player); ``passed``: the turn was a pass.
        """
        n = state.seats
        who = seat if drawer is None else drawer
        pile = state.pile
        out = list(events)
        drawn = 0
        if pile and draws:
            if draws == 1:
                out.append(tables.DRAWS[who][pile[rng.below(len(pile))]])
            else:
                left = list(pile)
                for _ in range(min(draws, len(left))):
                    out.append(tables.DRAWS[who][left.pop(rng.below(len(left)))])
            drawn = min(draws, len(pile))
        after_seat = seat + 1 if seat + 1 < n else 0
        nxt: int | None = after_seat
        if sizes is not None or after_seat == who or not state.hands[after_seat]:  # else they hold what they held
            if sizes is None:
                sizes = [len(h) for h in state.hands]
                sizes[seat] -= spent
            sizes[who] += drawn
            nxt = next((t for t in ((seat + i) % n for i in range(1, n + 1)) if sizes[t]), None)  # who holds cards
        lap = state.options.round_end == "lap" and passes_after(state, seat, nxt, passed) >= n
        if nxt is None or lap:
            after = self._fold(state, events)  # a card in front may have changed: winners exclude the trapped
            out.append(RoundEnded("saboteurs", seat, -1, after.deal.roles, round_winners(after, "saboteurs")))
        else:
            out.append(tables.TURNS_ENDED[seat][nxt])
        return tuple(out)

    # -- dealing -----------------------------------------------------------------
    def _deal(self, state: State, rng: Rng) -> tuple[Event, ...]:
        n = state.seats
        number = state.round + 1
        if number == 1:
            starter = 0
        elif state.options.next_starter == "ender":
            starter = last_path_layer(state.deeds, state.results[-1].ender)
        else:
            starter = (state.results[-1].ender + 1) % n
        goals = rng.shuffled(data.GOALS)
        roles = rng.shuffled(data.DELUXE_ROLES if state.deluxe else data.base_roles(n))
        cards = rng.shuffled(data.deck(state.deluxe))
        aside = data.DELUXE_SET_ASIDE if state.deluxe else 0
        size = hand_size(state)
        hands = tuple(tuple(sorted(cards[aside + i * size : aside + (i + 1) * size])) for i in range(n))
        pile = tuple(sorted(cards[aside + n * size :]))
        return (
            RoundDealt(
                round=number,
                starter=starter,
                goals=goals,
                roles=roles[:n],
                leftover_roles=tuple(sorted(roles[n:], key=lambda r: r.value)),
                hands=hands,
                pile=pile,
                set_aside=tuple(sorted(cards[:aside])),
            ),
        )

    # -- payouts -------------------------------------------------------------------
    def _settle(self, state: State, rng: Rng) -> tuple[Event, ...]:
        result = state.results[-1]
        return self._settle_deluxe(state, result) if state.deluxe else self._settle_base(state, result, rng)

    def _eligible_miners(self, state: State) -> list[int]:
        forfeit = state.options.broken_tools_forfeit
        return [
            s for s in range(state.seats)
            if state.deal.roles[s] is Role.MINER and not (forfeit and state.front[s] & BLOCKING)
        ]

    def _next_chooser(self, state: State, after: int) -> int:
        """The nearest eligible miner after ``after`` in the passing direction (``after`` itself last)."""
        eligible = self._eligible_miners(state)
        n = state.seats
        step = 1 if state.options.gold_pass == "clockwise" else -1
        return next(s for s in ((after + step * (i + 1)) % n for i in range(n)) if s in eligible)

    def _settle_base(self, state: State, result: RoundResult, rng: Rng) -> tuple[Event, ...]:
        n = state.seats
        deck = list(state.purse.deck)
        if result.team == "miners":
            eligible = self._eligible_miners(state)
            if not eligible:
                return (self._payout_done(state),)
            count = min(n, 9) if state.options.gold_cards == "players" else len(result.winners)
            values = [deck.pop(rng.below(len(deck))) for _ in range(min(count, len(deck)))]
            if not values:
                return (self._payout_done(state),)
            finder = result.finisher
            first = finder if finder in eligible else self._next_chooser(state, finder)
            return (GoldOffered(len(values), tuple(values), first),)
        saboteurs = result.winners
        pay = data.SABOTEUR_PAY.get(len(saboteurs), 0)
        events: list[Event] = []
        for s in saboteurs:
            if state.options.saboteur_pay == "cards":  # S0: so many gold cards, drawn at random
                cards = tuple(deck.pop(rng.below(len(deck))) for _ in range(min(pay, len(deck))))
                events.append(GoldPaid(s, sum(cards), cards))
            else:  # R1: so many nuggets, in cards that add up
                cards = exact_payment(deck, pay)
                for c in cards:
                    deck.remove(c)
                events.append(GoldPaid(s, pay, cards))
        after = self._fold(state, events)
        return (*events, self._payout_done(after))

    def _take_gold(self, state: State, seat: int, value: int) -> tuple[Event, ...]:
        rest = remove_cards(state.purse.offer, (value,))
        nxt = self._next_chooser(state, seat) if rest else -1
        events: tuple[Event, ...] = (GoldTaken(seat, value, nxt),)
        if not rest:
            events += (self._payout_done(self._fold(state, events)),)
        return events

    def _settle_deluxe(self, state: State, result: RoundResult) -> tuple[Event, ...]:
        n = state.seats
        roles = state.deal.roles
        events: list[Event] = []
        share = data.deluxe_share(len(result.winners))
        for s in result.winners:
            cut = {Role.BOSS: 1, Role.PROFITEER: 2}.get(roles[s], 0)
            amount = max(0, share - cut)
            if amount:
                events.append(GoldPaid(s, amount, None))
        geologists = [s for s in range(n) if roles[s] is Role.GEOLOGIST]
        if geologists:
            crystals = state.board.crystals()
            each = crystals // len(geologists) if state.options.geologists == "split" else crystals
            for s in geologists:
                if each and Front.TRAPPED not in state.front[s]:
                    events.append(GoldPaid(s, each, None))
        free = [t for t in state.thieves if Front.TRAPPED not in state.front[t]]
        if free:
            last = free[-1]  # the last thief to play Theft steals first, then clockwise
            events.append(ThievesReady(tuple(sorted(free, key=lambda t: (t - last) % n))))
        after = self._fold(state, events)
        if after.phase is not Phase.THEFT:
            events.append(self._payout_done(after))
        return tuple(events)

    def _payout_done(self, state: State) -> PayoutDone:
        over = state.round >= data.ROUNDS
        return PayoutDone(over, state.purse.gold if over else None)

    # -- evolve ------------------------------------------------------------------------
    def evolve(self, state: State, event: Event) -> State:
        """Fold one event into the state (never draws, never fails on a decided event)."""
        return _fold_one(state, event)

    # -- the end -----------------------------------------------------------------------
    def outcome(self, state: State) -> Outcome | None:
        """After three rounds: the most gold wins; tied players share the win."""
        if state.phase is not _OVER:
            return None
        gold = state.purse.gold
        best = max(gold)
        winners = tuple(s for s in range(state.seats) if gold[s] == best)
        names = ", ".join(f"seat {s}" for s in winners)
        verb = "holds" if len(winners) == 1 else "share"
        return Outcome(winners, gold, f"after three rounds {names} {verb} the most gold ({best} nuggets)")

    def interim(self, state: State) -> Outcome | None:
        """Between rounds (a round paid, the next not dealt): the most gold so far leads; else None."""
        if state.phase is not Phase.DEAL or state.round < 1:
            return None
        gold = state.purse.gold
        best = max(gold)
        winners = tuple(s for s in range(state.seats) if gold[s] == best)
        return Outcome(winners, gold, f"after round {state.round} the most gold is {best} nuggets")

    def variant_options(self, variant: str) -> dict[str, Any]:
        """``standard`` is the base game; ``deluxe`` is ``{"edition": "deluxe"}``."""
        if variant == "standard":
            return {}
        if variant == "deluxe":
            return {"edition": "deluxe"}
        raise ConfigError(f"saboteur has no variant {variant!r}; variants: standard, deluxe")

# -- where a path card may go: the one rule, and the commands it gives -------------------------


def path_rotations(board: Board, kind: int, col: int, row: int) -> tuple[bool, ...]:
    """The ways (``rotated``) path card ``kind`` may lie at (``col``, ``row``) now; ``()`` if it may not lie there.

    A card goes in a hole (an empty square next to a face-up card) and must
    match every face-up neighbour, open to open and wall to wall (R2, F§6);
    it must join a tunnel the start reaches, except a ladder, which is joined
    to the start anyway but may not lie next to a goal (F§11). A card that
    looks the same turned lies unturned only. :func:`~.board.fitting` is the
    table of what fits each kind of hole.
    """
    hole = board.network.holes.get((col, row))
    if hole is None or (KINDS[kind].ladder and (col, row) in NEAR_GOALS):
        return ()
    return fitting(hole).get(kind, ())


def path_commands(board: Board, kind: int) -> tuple[PlayPath, ...]:
    """Every ``PlayPath`` of path card ``kind`` on ``board``, by position: :func:`path_rotations` of every hole.

    Only holes a reached tunnel comes into can take a card other than a
    ladder, so those are the only ones asked for it. Each hole's commands
    come from a table by hole and kind (:data:`.tables.PLAYS`), and the answer
    is kept with the board's network.
    """
    memo = derived(board.network.memo, path_commands)
    found: tuple[PlayPath, ...] | None = memo.get(kind)
    if found is None:
        out: list[PlayPath] = []
        for at, by_kind in _holes_for(board.network, KINDS[kind].ladder):
            plays = by_kind.get(kind)
            if plays is None:
                (col, row), hole = at
                plays = by_kind[kind] = tuple(tables.play_path(kind, col, row, r) for r in fitting(hole).get(kind, ()))
            if plays:
                out += plays
        found = memo[kind] = tuple(out)
    return found


def _holes_for(net: Network, ladder: bool) -> tuple[tuple[tuple[tuple[int, int], Hole], dict[int, tuple[PlayPath, ...]]], ...]:
    """The holes :func:`path_rotations` may allow a ladder (or any other card) in, each with its commands by kind."""
    memo = derived(net.memo, _holes_for)
    found: tuple[tuple[tuple[tuple[int, int], Hole], dict[int, tuple[PlayPath, ...]]], ...] | None = memo.get(ladder)
    if found is None:
        holes = [at for at in net.sorted_holes() if at[0] not in NEAR_GOALS] if ladder else net.frontier()
        found = memo[ladder] = tuple([(at, _plays_at(at)) for at in holes])
    return found


def _plays_at(at: tuple[tuple[int, int], Hole]) -> dict[int, tuple[PlayPath, ...]]:
    """The (growing) table of the commands for square and hole ``at``, by kind."""
    found = tables.PLAYS.get(at)
    return tables.PLAYS.put(at, {}) if found is None else found


def rockfall_commands(board: Board, kind: int) -> tuple[Rockfall, ...]:
    """Every ``Rockfall`` of card ``kind`` on ``board``, by position: any path card may be removed (F§8)."""
    memo = derived(board.network.memo, rockfall_commands)
    found: tuple[Rockfall, ...] | None = memo.get(kind)
    if found is None:
        squares = sorted([(c.col, c.row) for c in board.cells])
        found = memo[kind] = tuple([_rockfall(kind, *q) for q in squares])
    return found


def _rockfall(kind: int, col: int, row: int) -> Rockfall:
    """``Rockfall(kind, col, row)``, the one kept in :data:`.tables.ROCKFALLS`."""
    found = tables.ROCKFALLS.get((kind, col, row))
    if found is None:
        found = tables.ROCKFALLS.put((kind, col, row), Rockfall(kind, col, row))
    return found


# -- where each action card may be played: one small function per action, players in seat order --


def _on_fronts(front: tuple[frozenset[Front], ...]) -> dict[int, tuple[Command, ...]]:
    """The (growing) table of the break and repair commands for the cards ``front``, by kind."""
    found = tables.LAST_FRONT.get(front)
    if found is None:
        found = tables.ON_FRONTS.get(front)
        if found is None:
            found = tables.ON_FRONTS.put(front, {})
        tables.LAST_FRONT.put(front, found)
    return found


def _breaks(front: tuple[frozenset[Front], ...], kind: int) -> tuple[Command, ...]:
    """Break card ``kind`` on every player whose tool it breaks is whole."""
    broken, on = tables.BREAKS[kind], tables.ON_PLAYER[kind]
    return tuple([on[t] for t in range(len(front)) if broken not in front[t]])


def _repairs(front: tuple[frozenset[Front], ...], kind: int) -> tuple[Command, ...]:
    """Repair card ``kind`` on every broken tool it mends, players in seat order."""
    repairs = tables.REPAIRS[kind]
    return tuple([c for t, f in enumerate(front) if f for broken, c in repairs[t] if broken in f])


def _on_tools(state: State, seat: int, kind: int) -> tuple[Command, ...]:
    """:func:`_breaks` or :func:`_repairs` of card ``kind``: they read the cards in front alone."""
    front = state.front
    table = _on_fronts(front)
    found = table.get(kind)
    if found is None:
        found = table[kind] = _breaks(front, kind) if kind in tables.BREAKS else _repairs(front, kind)
    return found


def _rockfalls(state: State, seat: int, kind: int) -> Sequence[Command]:
    return rockfall_commands(state.board, kind)


def _peeks(state: State, seat: int, kind: int) -> Sequence[Command]:
    goals = state.board.goals
    table = tables.LAST_GOALS.get(goals)
    if table is None:
        table = tables.LAST_GOALS.put(goals, {})
    found = table.get(kind)
    if found is None:
        peeks = tables.PEEKS[kind]
        found = table[kind] = tuple([peeks[i] for i, g in enumerate(goals) if g.kind is None])
    return found


def _thefts(state: State, seat: int, kind: int) -> list[Command]:
    return [] if _THEFT in state.front[seat] else [tables.ON_PLAYER[kind][seat]]  # laid in front of yourself


def _hands_offs(state: State, seat: int, kind: int) -> list[Command]:
    front, on = state.front, tables.ON_PLAYER[kind]
    return [on[t] for t in range(state.seats) if _THEFT in front[t]]


def _on_others(state: State, seat: int, kind: int) -> Sequence[Command]:
    on = tables.ON_PLAYER[kind]
    return on[:seat] + on[seat + 1 : state.seats]


def _hat_swaps(state: State, seat: int, kind: int) -> Sequence[Command]:
    return tables.ON_PLAYER[kind][: state.seats] if state.deal.leftover_roles else ()


def _traps(state: State, seat: int, kind: int) -> list[Command]:
    front, on = state.front, tables.ON_PLAYER[kind]
    return [on[t] for t in range(state.seats) if t != seat and _TRAPPED not in front[t]]


def _frees(state: State, seat: int, kind: int) -> list[Command]:
    front, on = state.front, tables.ON_PLAYER[kind]
    return [on[t] for t in range(state.seats) if _TRAPPED in front[t]]


_LISTERS: dict[Action, Callable[[State, int, int], Sequence[Command]]] = {
    Action.BREAK: _on_tools,
    Action.REPAIR: _on_tools,
    Action.ROCKFALL: _rockfalls,
    Action.MAP: _peeks,
    Action.THEFT: _thefts,
    Action.HANDS_OFF: _hands_offs,
    Action.SWAP_HAND: _on_others,
    Action.INSPECTION: _on_others,
    Action.SWAP_HATS: _hat_swaps,
    Action.TRAPPED: _traps,
    Action.FREE: _frees,
}
#: The lister of every action card kind (path card kinds: None), looked up by kind on every turn.
_LISTS: tuple[Callable[[State, int, int], Sequence[Command]] | None, ...] = tuple(
    None if k.action is None else _LISTERS[k.action] for k in KINDS
)

# -- the turn's rules -------------------------------------------------------------------------


def hand_size(state: State) -> int:
    """Cards dealt per player this edition and player count."""
    return data.DELUXE_HAND_SIZE if state.deluxe else data.base_hand_size(state.seats)


def blocked(state: State, seat: int) -> bool:
    """True if ``seat`` may not lay path cards (a broken tool or Trapped! in front)."""
    return bool(state.front[seat] & BLOCKING)


def path_allowed(state: State | Board, kind: int, col: int, row: int, rotated: bool) -> str | None:
    """Return why path card ``kind`` may not lie at (col, row) turned ``rotated``, or None: :func:`path_rotations` says."""
    board = state.board if isinstance(state, State) else state
    if rotated in path_rotations(board, kind, col, row):
        return None
    return _why_not_path(board, kind, col, row, rotated)


def _why_not_path(board: Board, kind: int, col: int, row: int, rotated: bool) -> str:
    """What to tell a player whose path card :func:`path_rotations` refuses (the message only)."""
    net = board.network
    pos = (col, row)
    if rotated and symmetric(kind):
        return "this card looks the same turned: play it with rotated=False"
    if pos in net.tiles or pos in net.goals:
        return f"a card already lies at ({col}, {row})"
    hole = net.holes.get(pos)
    if hole is None:
        return "a ladder must touch a card on the table" if KINDS[kind].ladder else \
            "the card must join a tunnel that leads back to the start"
    if KINDS[kind].ladder and pos in NEAR_GOALS:
        return "a ladder may not lie next to a goal card"
    if not hole.fits(shape(kind, rotated).edges):
        return "the card does not fit its neighbours (open edge against wall); try turning it"
    return "the card must join a tunnel that leads back to the start"

def reveal_goals(board: Board, kinds: Sequence[GoalKind]) -> tuple[Board, list[GoalRevealed]]:
    """Turn every goal the start now reaches (coal turned to fit), until no more are reached.

    Returns the board after and the reveals, in goal order per step (a card
    next to two goals turns both; a turned coal card carries the tunnel on).
    """
    out: list[GoalRevealed] = []
    while board.network.arrivals:
        arrivals = board.network.arrivals
        for i in sorted(arrivals):
            kind = kinds[i]
            rot = False if kind is GoalKind.GOLD else coal_rotation(kind, arrivals[i])
            out.append(GoalRevealed(i, kind, rot))
            board = board.turn_goal(i, kind, rot)
    return board, out


def deluxe_teams(board: Board, role: Role) -> tuple[str, ...]:
    """Which digger teams win when a player of ``role`` reached the gold on ``board`` (doors checked).

    The "at least one route" rule (facts section 14, as BGA words it): a team can
    use the gold if some route from the start passes no door of the other colour.
    """
    gold = next((g.col, g.row) for g in board.goals if g.kind is GoalKind.GOLD)
    green_ok = route_free_of(board, gold, Door.BLUE)
    blue_ok = route_free_of(board, gold, Door.GREEN)
    if role is Role.GREEN:
        return ("green",) if green_ok else ("blue",) if blue_ok else ()
    if role is Role.BLUE:
        return ("blue",) if blue_ok else ("green",) if green_ok else ()
    return tuple(t for t, ok in (("green", green_ok), ("blue", blue_ok)) if ok)


def last_path_layer(deeds: Sequence[Deed], ender: int) -> int:
    """Who starts the next round under ``next_starter="ender"``: the seat that laid the round's last path card.

    Seed 001: «Խաղացողը, ով կխաղա վերջին ուղու քարտը, սկսում է նոր փուլը»
    ("the player who plays the last path card starts the new round"). A
    rockfall removes a path card and lays none; if no path card was laid in
    the round, the ``ender`` (who played or discarded the card that ended it)
    starts [designed].
    """
    for deed in reversed(deeds):
        if deed.cell is not None and deed.card is not None and KINDS[deed.card].category is Category.PATH:
            return deed.seat
    return ender


def round_winners(state: State, team: str) -> tuple[int, ...]:
    """The seats that win a round won by ``team`` (Deluxe: trapped players do not count)."""
    roles = state.deal.roles
    if not state.deluxe:
        want = Role.MINER if team == "miners" else Role.SABOTEUR
        return tuple(s for s in range(state.seats) if roles[s] is want)
    if team == "saboteurs":
        wanted = {Role.SABOTEUR, Role.PROFITEER}
    else:
        wanted = {Role.BOSS, Role.PROFITEER}
        if "green" in team:
            wanted.add(Role.GREEN)
        if "blue" in team:
            wanted.add(Role.BLUE)
    return tuple(s for s in range(state.seats) if roles[s] in wanted and Front.TRAPPED not in state.front[s])


def exact_payment(deck: Sequence[int], amount: int) -> tuple[int, ...]:
    """Gold cards from ``deck`` that add up to ``amount``, fewest cards first.

    If no combination is exact (facts section 15, gap 6), the largest cards
    that do not exceed ``amount`` are taken and the bank makes up the rest.
    """
    counts = {v: deck.count(v) for v in (3, 2, 1)}
    best: tuple[int, ...] | None = None
    for threes in range(min(counts[3], amount // 3), -1, -1):
        rest = amount - 3 * threes
        for twos in range(min(counts[2], rest // 2), -1, -1):
            ones = rest - 2 * twos
            if ones <= counts[1]:
                cand = (3,) * threes + (2,) * twos + (1,) * ones
                if best is None or len(cand) < len(best):
                    best = cand
    if best is not None:
        return best
    out: list[int] = []
    left = amount
    for v in (3, 2, 1):
        while counts[v] and v <= left:
            out.append(v)
            counts[v] -= 1
            left -= v
    return tuple(out)


def passes_after(state: State, seat: int, nxt: int | None, passed: bool) -> int:
    """Players who passed in a row since the pile ran out, after ``seat``'s turn (option ``round_end="lap"``).

    A pass made with the pile already empty counts, and so does every player
    skipped for holding no cards; any other turn starts the count again.
    """
    if not passed or state.pile:
        return 0
    n = state.seats
    skipped = n - 1 if nxt is None else (nxt - seat - 1) % n
    return state.passes + 1 + skipped

# -- hands: sorted tuples of card kinds --------------------------------------------------------------
# changed in a list and made again once: two new objects, where slicing and joining made four or five
# (hands, the pile and the discards change on every turn)


def remove_card(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    """Return ``hand`` without one copy of ``card`` (order kept); :class:`ValueError` if it holds none."""
    cards = list(hand)
    cards.remove(card)
    return tuple(cards)


def remove_cards(hand: tuple[int, ...], cards: Iterable[int]) -> tuple[int, ...]:
    """Return ``hand`` without one copy of each of ``cards`` (order kept)."""
    for c in cards:
        hand = remove_card(hand, c)
    return hand


def add_card(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    """Return the sorted ``hand`` with ``card`` put in its place (after any equal cards)."""
    cards = list(hand)
    bisect.insort(cards, card)
    return tuple(cards)


def swap_card(hand: tuple[int, ...], out: int, into: int) -> tuple[int, ...]:
    """Return the sorted ``hand`` with one ``out`` taken away and ``into`` put in its place.

    The same as ``add_card(remove_card(hand, out), into)``, in one list.
    """
    cards = list(hand)
    cards.remove(out)
    bisect.insort(cards, into)
    return tuple(cards)


def holds(hand: Sequence[int], cards: Sequence[int]) -> bool:
    """True if ``hand`` holds every card of ``cards`` (with multiplicity)."""
    return all(hand.count(c) >= cards.count(c) for c in set(cards))


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    items = list(t)
    items[i] = v
    return tuple(items)

# -- evolve, one small function per event ---------------------------------------------------


def _dealt(s: State, e: RoundDealt) -> State:
    n = s.seats
    assert e.goals is not None and e.leftover_roles is not None and e.pile is not None and e.set_aside is not None
    return own_dict(State(
        seats=n,
        options=s.options,
        round=e.round,
        phase=Phase.PLAY,
        turn=e.starter,
        passes=0,
        hands=tuple(tuple(sorted(h)) for h in e.hands if h is not None),
        pile=e.pile,
        discards=((),) * n,
        board=Board.new(),
        front=(frozenset(),) * n,
        thieves=(),
        deeds=(),
        deal=Deal(
            starter=e.starter,
            roles=tuple(r for r in e.roles if r is not None),
            leftover_roles=e.leftover_roles,
            spent_roles=(),
            goal_kinds=e.goals,
            set_aside=e.set_aside,
        ),
        known=Knowledge(goals=(frozenset(),) * n),
        purse=tables.purse_closed(s.purse, (), -1, ()),
        results=s.results,
    ))


def _take(s: State, seat: int, card: int) -> tuple[tuple[int, ...], ...]:
    return _set(s.hands, seat, remove_card(s.hands[seat], card))


def _front(s: State, seat: int, add: Front | None = None, drop: Front | None = None) -> tuple[frozenset[Front], ...]:
    f = s.front[seat]
    if add is not None:
        f = f | {add}
    if drop is not None:
        f = f - {drop}
    return _set(s.front, seat, f)


def _played(s: State, deed: Deed, front: tuple[frozenset[Front], ...] | None = None,
            thieves: tuple[int, ...] | None = None) -> State:
    """The state after ``deed.seat`` played ``deed.card`` face up from its hand (a card laid in front: ``front``, ``thieves``)."""
    assert deed.card is not None
    hands, deeds = _take(s, deed.seat, deed.card), s.deeds + (deed,)  # noqa: RUF005 - quicker than unpacking
    known = _known_after_play(s.known, deed.seat, deed.card)
    if front is None:
        return tables.with_play(s, hands, deeds, 0, known)
    if thieves is None:
        return tables.with_front(s, hands, deeds, 0, known, front)
    return tables.with_front_thieves(s, hands, deeds, 0, known, front, thieves)


def _path_played(s: State, e: PathPlayed) -> State:
    cell = tables.new_cell(e.col, e.row, e.card, e.rotated)
    seat, card = e.seat, e.card
    return tables.with_path(s, _take(s, seat, card), (*s.deeds, tables.new_deed(seat, card, None, cell)), 0,
                      _known_after_play(s.known, seat, card), s.board.lay(cell))


def _goal_revealed(s: State, e: GoalRevealed) -> State:
    return tables.with_board(s, s.board.turn_goal(e.goal, e.kind, e.rotated))


def _tool_broken(s: State, e: ToolBroken) -> State:
    (tool,) = KINDS[e.card].tools
    return _played(s, tables.new_deed(e.seat, e.card, e.target, None), front=_front(s, e.target, add=BROKEN[tool]))


def _tool_repaired(s: State, e: ToolRepaired) -> State:
    return _played(s, tables.new_deed(e.seat, e.card, e.target, None), front=_front(s, e.target, drop=BROKEN[e.tool]))


def _path_removed(s: State, e: PathRemoved) -> State:
    seat, card = e.seat, e.card
    return tables.with_path(s, _take(s, seat, card), (*s.deeds, tables.new_deed(seat, card, None, s.board.cell_at(e.col, e.row))), 0,
                      _known_after_play(s.known, seat, card), s.board.remove(e.col, e.row))


def _goal_peeked(s: State, e: GoalPeeked) -> State:
    s = _played(s, Deed(e.seat, e.card))
    known = s.known
    return tables.with_known(s, tables.with_goals_seen(known, _set(known.goals, e.seat, known.goals[e.seat] | {e.goal})))


def _face_down(s: State, seat: int, cards: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], Knowledge]:
    """The hands, the face-down discards and the knowledge after ``seat`` discards ``cards`` face down."""
    if len(cards) == 1:  # nearly every pass
        (card,) = cards
        hand, pile = remove_card(s.hands[seat], card), add_card(s.discards[seat], card)
    else:
        hand, pile = remove_cards(s.hands[seat], cards), s.discards[seat]
        for c in cards:
            pile = add_card(pile, c)
    return _set(s.hands, seat, hand), _set(s.discards, seat, pile), _known_after_discard(s.known, seat, len(cards))


def _discarded(s: State, e: CardsDiscarded) -> State:
    cards, seat = e.cards, e.seat
    assert cards is not None
    passes = s.passes + 1 if s.options.round_end == "lap" and not s.pile else 0
    return tables.with_discard(s, (*s.deeds, tables.PASSED[seat]), passes, *_face_down(s, seat, cards))


def _front_cleared(s: State, e: FrontCleared) -> State:
    assert e.cards is not None
    thieves = tuple(t for t in s.thieves if t != e.seat) if e.removed is Front.THEFT else s.thieves
    return tables.with_cleared(s, (*s.deeds, Deed(e.seat, None, e.seat)), 0, _front(s, e.seat, drop=e.removed), thieves,
                         *_face_down(s, e.seat, e.cards))


def _drawn(s: State, e: CardDrawn) -> State:
    card = e.card
    assert card is not None
    return tables.with_draw(s, remove_card(s.pile, card), _set(s.hands, e.seat, add_card(s.hands[e.seat], card)))


def _action_played(s: State, e: ActionPlayed) -> State:
    deed = Deed(e.seat, e.card, e.target)
    match KINDS[e.card].action:
        case Action.THEFT:
            return _played(s, deed, front=_front(s, e.target, add=Front.THEFT), thieves=(*s.thieves, e.target))
        case Action.HANDS_OFF:
            thieves = tuple(t for t in s.thieves if t != e.target)
            return _played(s, deed, front=_front(s, e.target, drop=Front.THEFT), thieves=thieves)
        case Action.TRAPPED:
            return _played(s, deed, front=_front(s, e.target, add=Front.TRAPPED))
        case Action.FREE:
            return _played(s, deed, front=_front(s, e.target, drop=Front.TRAPPED))
    return _played(s, deed)


def _hands_swapped(s: State, e: HandsSwapped) -> State:
    assert e.given is not None and e.taken is not None
    s = _played(s, Deed(e.seat, e.card, e.target))
    hands = _set(_set(s.hands, e.seat, tuple(sorted(e.taken))), e.target, tuple(sorted(e.given)))
    return tables.with_swap(s, hands, _known_after_swap(s.known, e.seat, e.target, e.given, e.taken))


def _role_inspected(s: State, e: RoleInspected) -> State:
    assert e.role is not None
    s = _played(s, Deed(e.seat, e.card, e.target))
    return tables.with_known(s, tables.with_roles_seen(s.known, (*s.known.roles, Inspection(e.seat, e.target, e.role))))


def _hat_swapped(s: State, e: HatSwapped) -> State:
    assert e.role is not None and e.old is not None
    deal, known = s.deal, s.known
    left = list(deal.leftover_roles)
    left.remove(e.role)
    # the old card leaves play; those who saw it with Inspection know what it shows, and that no longer
    # tells them the target's role
    saw = frozenset({e.target} | {i.viewer for i in known.roles if i.target == e.target})
    deal = tables.with_role_spent(deal, _set(deal.roles, e.target, e.role), tuple(left),
                            (*deal.spent_roles, SpentRole(e.target, e.old, saw)))
    known = tables.with_roles_seen(known, tuple(i for i in known.roles if i.target != e.target))
    return tables.with_deal_known(s, deal, known)


def _turn_ended(s: State, e: TurnEnded) -> State:
    if s.passes and not s.pile and s.options.round_end == "lap":
        return tables.with_turn_passes(s, e.next, s.passes + (e.next - e.seat - 1) % s.seats)
    return tables.with_turn(s, e.next)


def _round_ended(s: State, e: RoundEnded) -> State:
    result = RoundResult(s.round, e.team, e.ender, e.finisher, e.roles, e.winners)
    return tables.with_result(s, Phase.SETTLE, (*s.results, result))


def _gold_offered(s: State, e: GoldOffered) -> State:
    assert e.values is not None
    return tables.with_phase_purse(s, Phase.CHOOSE, tables.purse_offered(s.purse, e.values, e.chooser, remove_cards(s.purse.deck, e.values)))


def _gold_taken(s: State, e: GoldTaken) -> State:
    assert e.value is not None
    p = s.purse
    gold = _set(p.gold, e.seat, p.gold[e.seat] + e.value)
    ledger = (*p.ledger, GoldMove(s.round, e.seat, (e.value,), e.value, True))
    return tables.with_purse(s, tables.purse_taken(p, remove_cards(p.offer, (e.value,)), gold, e.next, ledger))


def _gold_paid(s: State, e: GoldPaid) -> State:
    assert e.amount is not None
    p = s.purse
    gold = _set(p.gold, e.seat, p.gold[e.seat] + e.amount)
    if e.cards is None:  # Deluxe: tokens from the bank
        return tables.with_purse(s, tables.purse_gold(p, gold))
    ledger = (*p.ledger, GoldMove(s.round, e.seat, e.cards, e.amount, False))
    return tables.with_purse(s, tables.purse_paid(p, gold, remove_cards(p.deck, e.cards), ledger))


def _ready_thieves(gold: tuple[int, ...], queue: tuple[int, ...]) -> tuple[int, ...]:
    """Drop thieves at the head of the queue who have nobody to steal from."""
    while queue and not any(t != queue[0] and g > 0 for t, g in enumerate(gold)):
        queue = queue[1:]
    return queue


def _thieves_ready(s: State, e: ThievesReady) -> State:
    queue = _ready_thieves(s.purse.gold, e.order)
    return tables.with_phase_purse(s, Phase.THEFT if queue else s.phase, tables.purse_queue(s.purse, queue))


def _stolen(s: State, e: Stolen) -> State:
    p = s.purse
    gold = _set(_set(p.gold, e.target, p.gold[e.target] - 1), e.seat, p.gold[e.seat] + 1)
    return tables.with_purse(s, tables.purse_robbed(p, gold, _ready_thieves(gold, p.theft_queue[1:])))


def _payout_done(s: State, e: PayoutDone) -> State:
    return tables.with_phase_purse(s, Phase.OVER if e.game_over else Phase.DEAL, tables.purse_closed(s.purse, (), -1, ()))


_EVOLVE: dict[type[Event], Callable[[State, Any], State]] = {
    RoundDealt: _dealt,
    PathPlayed: _path_played,
    GoalRevealed: _goal_revealed,
    ToolBroken: _tool_broken,
    ToolRepaired: _tool_repaired,
    PathRemoved: _path_removed,
    GoalPeeked: _goal_peeked,
    CardsDiscarded: _discarded,
    FrontCleared: _front_cleared,
    CardDrawn: _drawn,
    ActionPlayed: _action_played,
    HandsSwapped: _hands_swapped,
    RoleInspected: _role_inspected,
    HatSwapped: _hat_swapped,
    TurnEnded: _turn_ended,
    RoundEnded: _round_ended,
    GoldOffered: _gold_offered,
    GoldTaken: _gold_taken,
    GoldPaid: _gold_paid,
    ThievesReady: _thieves_ready,
    Stolen: _stolen,
    PayoutDone: _payout_done,
}


def _fold_one(s: State, e: Event) -> State:
    """``e`` folded into ``s`` by its function in :data:`_EVOLVE`; :class:`TypeError` for an event not Saboteur's."""
    handler = _EVOLVE.get(e.__class__)
    if handler is None:
        raise TypeError(f"saboteur cannot fold {e!r}")
    return handler(s, e)


# -- what hand swaps taught: Knowledge.hands ------------------------------------------------


def _known_after_play(known: Knowledge, holder: int, card: int) -> Knowledge:
    """``holder`` played ``card`` face up: it leaves what others know of the hand."""
    if not known.hands:
        return known
    out = []
    for k in known.hands:
        if k.holder == holder and card in k.cards:
            k = tables.hand_played(k, remove_cards(k.cards, (card,)), max(0, k.sure - 1))
        if k.cards:
            out.append(k)
    return tables.with_hands_seen(known, tuple(out))


def _known_after_discard(known: Knowledge, holder: int, count: int) -> Knowledge:
    """``holder`` discarded ``count`` cards face down: others are sure of fewer of the cards they knew.

    The cards are still known to be in the hand or among the discards of the
    players who held the hand since (``KnownHand.discarded_by``).
    """
    if not known.hands:
        return known
    out = []
    for k in known.hands:
        if k.holder == holder and k.sure:
            spill = k.discarded_by if holder in k.discarded_by else tuple(sorted((*k.discarded_by, holder)))
            k = tables.hand_spilled(k, max(0, k.sure - count), spill)
        out.append(k)
    return tables.with_hands_seen(known, tuple(out))


def _known_after_swap(known: Knowledge, seat: int, target: int, given: tuple[int, ...],
                      taken: tuple[int, ...]) -> Knowledge:
    """``seat`` gave ``given`` to ``target`` and took ``taken``: what anyone knew moves with the hands."""
    moved = {seat: target, target: seat}
    out = []
    for k in known.hands:
        holder = moved.get(k.holder, k.holder)
        if k.viewer in (seat, target) and holder in (seat, target):
            continue  # replaced below: the two now know each other's hand exactly
        out.append(tables.hand_moved(k, holder) if holder != k.holder else k)
    if given:
        out.append(KnownHand(seat, target, tuple(sorted(given)), len(given), ()))
    if taken:
        out.append(KnownHand(target, seat, tuple(sorted(taken)), len(taken), ()))
    return tables.with_hands_seen(known, tuple(sorted(out, key=lambda k: (k.viewer, k.holder))))
