"""The game protocol: what a game gives the engine.

A game is an object with declared facts (:class:`GameInfo`), an options
class, its command, event, state and view classes, and pure functions::

    initial_state(seats, options)        -> State
    to_act(state)                        -> tuple of seats (ENGINE when set-up or
                                            end-of-round work is due; () when over)
    auto_command(state)                  -> the engine's own Command when ENGINE acts
    legal_commands(state, seat)          -> every legal Command for seat
    decide(state, seat, command, rng)    -> tuple of Events, or raise IllegalCommand
    evolve(state, event)                 -> State
    fold(state, events)                  -> State after every event of one record
                                            (optional: the default evolves them one by one)
    decide_and_fold(state, seat, command, rng)
                                         -> (decide's events, the State after them)
                                            (optional: the default decides, then folds)
    view(state, seat)                    -> what seat may know (seat None: a spectator)
    redact(event, seat)                  -> the event as seat sees it, or None
    redact_command(command, actor, seat) -> the command of actor as seat sees it
    outcome(state)                       -> Outcome, or None while the game goes on
    hides_information(options)           -> whether such a match hides anything from a seat
    world(view, seat, rng)               -> a full State sampled from seat's view alone
                                            (optional: search bots need it)
    render(state, seat)                  -> text for a terminal

Subclass :class:`Game` and fill those in; the engine (``Match``, logs,
``verify``) handles turn guards, atomicity, randomness, undo and storage for
every game alike.
"""

from __future__ import annotations

import abc
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

import attrs

from .errors import Code, ConfigError, IllegalCommand, MeepleError
from .rng import Rng

#: The engine's own seat: it acts for set-up and end-of-round steps (deals,
#: shuffles, payouts) when a game's ``to_act`` returns it.
ENGINE = -1

Seat = int


class Message:
    """Base of commands and events: frozen attrs classes with a stable ``tag``.

    ``tag`` names the type on the wire (renaming the class changes no byte);
    ``schema`` is its version, raised whenever its fields change, with an
    upcaster from the previous version registered on the game.
    """

    __slots__ = ()
    tag: ClassVar[str]
    schema: ClassVar[int] = 1


class Command(Message):
    """An intent of a seat (or of the engine).

    ``barrier`` declares that a command of this type reveals hidden
    information to its player even without drawing randomness (e.g. peeking
    at a card), so a player may not undo it. Commands that draw randomness are
    barriers anyway.

    ``secret`` names the fields that only the acting seat may see (the cards
    of a face-down discard, a hidden guess): to every other seat and to a
    spectator they read None (see :meth:`Game.redact_command`).
    """

    __slots__ = ()
    barrier: ClassVar[bool] = False
    secret: ClassVar[tuple[str, ...]] = ()


class Event(Message):
    """A fact that happened; states are folds of events.

    ``barrier`` declares that an event of this type reveals hidden information
    to a player (a card turned up, a card drawn into a hand), so the record
    holding it cannot be undone by a player even when it drew no randomness.
    """

    __slots__ = ()
    barrier: ClassVar[bool] = False


def _pairs(options: Mapping[str, Any] | tuple[tuple[str, Any], ...]) -> tuple[tuple[str, Any], ...]:
    items = options.items() if isinstance(options, Mapping) else options
    return tuple(sorted((str(k), v) for k, v in items))


@attrs.frozen
class OlderRules:
    """An older rules version the library still plays, exactly: today's rules under fixed options.

    ``options`` are option values that reproduce version ``version``; those
    options did not exist then, so that version's log headers leave them out
    (and a header of that version that names one is refused). ``types`` are
    the tags of today's message types the version did not have: its logs'
    type tables leave them out, and its matches never write them. So today's
    options class must differ from the version's by those fields only (in the
    same order otherwise), and the state must hold the options in a field
    named ``options``: a state checkpoint of the version is then the hash of
    today's state with those fields left out of its options. ``changes`` says
    what the next version changed. See ``docs/game-authoring-notes.md``.

    >>> OlderRules(2, {"end": "card"}).fixed
    {'end': 'card'}
    """

    version: int
    options: tuple[tuple[str, Any], ...] = attrs.field(converter=_pairs)
    types: tuple[str, ...] = ()
    changes: str = ""

    @property
    def fixed(self) -> dict[str, Any]:
        """The options that reproduce the version, as a map."""
        return dict(self.options)


@attrs.frozen
class GameInfo:
    """Declared facts about a game, read before any of its code runs."""

    id: str
    title: str
    rules_version: int
    min_seats: int
    max_seats: int
    variants: tuple[str, ...] = ("standard",)
    has_chance: bool = True
    #: True if some match of the game hides something from a seat; a game
    #: whose variants differ says which do in :meth:`Game.hides_information`.
    hidden_information: bool = True
    summary: str = ""
    #: Seat ranges of variants that differ from ``min_seats..max_seats``, as
    #: ``(variant, min, max)``; options validation enforces them.
    variant_seats: tuple[tuple[str, int, int], ...] = ()
    #: Older rules versions whose logs the library still loads, verifies and continues (:class:`OlderRules`).
    older_rules: tuple[OlderRules, ...] = ()

    def older(self, version: int) -> OlderRules | None:
        """How version ``version`` is played, if it is one of :attr:`older_rules` (else None)."""
        for older in self.older_rules:
            if older.version == version:
                return older
        return None

    def plays(self, version: int) -> bool:
        """True if the library plays rules version ``version`` of this game (today's or an older one)."""
        return version == self.rules_version or self.older(version) is not None

    def seat_range(self, variant: str | None = None) -> tuple[int, int]:
        """The ``(min, max)`` seats of ``variant`` (None: the whole game)."""
        for name, low, high in self.variant_seats:
            if name == variant:
                return low, high
        return self.min_seats, self.max_seats


@attrs.frozen
class Outcome:
    """The result of a finished match.

    ``winners`` are the winning seats (several when they share the win, none
    for a draw where nobody wins), ``scores`` one number per seat, ``reason``
    a sentence naming the end condition.
    """

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    reason: str


@attrs.frozen
class Options:
    """Base of option classes: frozen attrs, every field with a default.

    Override :meth:`validate` to reject combinations that make no game; it
    receives the seat count and raises :class:`ConfigError`.
    """

    def validate(self, seats: int) -> None:
        """Raise :class:`ConfigError` if these options make no game for ``seats``."""


class NoWorldSampling(MeepleError, NotImplementedError):
    """The game cannot build a state from a seat's view (:meth:`Game.world`), so search bots cannot play it.

    ``game`` is the game's id.
    """

    def __init__(self, game: str) -> None:
        super().__init__(
            f"{game} cannot sample a world from a seat's view (Game.world), so search bots cannot play it"
        )
        self.game = game


S = TypeVar("S")
O = TypeVar("O", bound=Options)  # noqa: E741 - the options type parameter

#: ``upcasters[(tag, version)]`` turns the field list of a record of schema
#: ``version`` into the field list of ``version + 1``.
Upcaster = Callable[[list[Any]], list[Any]]


class Game(abc.ABC, Generic[S, O]):
    """A game the engine can run. Subclass it; see the module docstring."""

    info: ClassVar[GameInfo]
    options_type: ClassVar[type[Options]] = Options
    state_type: ClassVar[type[Any]]
    view_type: ClassVar[type[Any] | None] = None
    commands: ClassVar[tuple[type[Command], ...]]
    events: ClassVar[tuple[type[Event], ...]]
    upcasters: ClassVar[Mapping[tuple[str, int], Upcaster]] = {}

    # -- options ---------------------------------------------------------
    def check_seats(self, seats: int) -> None:
        """Raise :class:`ConfigError` unless ``seats`` is within the game's range."""
        info = self.info
        if isinstance(seats, bool) or not isinstance(seats, int):
            raise ConfigError(f"{info.id}: seats must be an integer, not {seats!r}")
        if not info.min_seats <= seats <= info.max_seats:
            raise ConfigError(
                f"{info.id} is for {info.min_seats}-{info.max_seats} players, not {seats}"
            )

    # -- the rules -------------------------------------------------------
    @abc.abstractmethod
    def initial_state(self, seats: int, options: O) -> S:
        """Return the state before any command (set-up is done by ENGINE commands)."""

    @abc.abstractmethod
    def to_act(self, state: S) -> tuple[Seat, ...]:
        """Return the seats that may act now: ``(ENGINE,)``, players, or ``()`` when over."""

    def auto_command(self, state: S) -> Command:
        """Return the command the engine issues when ``to_act`` is ``(ENGINE,)``."""
        raise NotImplementedError(f"{self.info.id} has no engine commands")

    @abc.abstractmethod
    def legal_commands(self, state: S, seat: Seat) -> Sequence[Command]:
        """Return every command ``seat`` may play now (empty if it may not act)."""

    @abc.abstractmethod
    def decide(self, state: S, seat: Seat, command: Command, rng: Rng) -> tuple[Event, ...]:
        """Check ``command`` by ``seat`` against ``state`` and return its events.

        Raise :class:`IllegalCommand` if the rules forbid it. Draw randomness
        only from ``rng`` and write every outcome into the events.
        """

    @abc.abstractmethod
    def evolve(self, state: S, event: Event) -> S:
        """Return the state after ``event``; never draws, never fails on a decided event."""

    def fold(self, state: S, events: Sequence[Event]) -> S:
        """Return the state after ``events`` (one record's), folded in order.

        The default evolves them one by one. A game may override it to skip
        the states between them (one copy of the state for a common turn of
        several events), as long as it returns a state equal to folding them
        one by one, for any events, and raises where that would raise: the
        engine folds records with it (play, seek, load, replay, verify), and
        :func:`meeple.testing.check_fold_and_verify` holds it to the
        one-by-one fold.
        """
        evolve = self.evolve
        for e in events:
            state = evolve(state, e)
        return state

    def decide_and_fold(self, state: S, seat: Seat, command: Command, rng: Rng) -> tuple[tuple[Event, ...], S]:
        """Return ``decide``'s events and the state they lead to: ``(events, fold(state, events))``.

        The engine plays every command through it (``Match.play``,
        ``verify``). The default decides, then folds. A game whose ``decide``
        folds its events as it goes (a later rule reads the state after the
        earlier events) overrides it to hand over the state it reached, so
        that the engine does not fold the same events a second time; it must
        raise as ``decide`` raises, return the events ``decide`` returns and
        a state equal to their fold: :func:`meeple.testing.check_decide_and_fold`
        holds it to that. The state is handed over here, in the return
        value, and nowhere else: no game keeps it for a later ``evolve``.
        """
        events = self.decide(state, seat, command, rng)
        if type(events) is not tuple:
            events = tuple(events)
        return events, self.fold(state, events)

    @abc.abstractmethod
    def view(self, state: S, seat: Seat | None) -> Any:
        """Return what ``seat`` may know (``None``: a spectator) as a frozen attrs value."""

    def redact(self, event: Event, seat: Seat | None) -> Event | None:
        """Return ``event`` as ``seat`` sees it, or None if it sees nothing of it.

        The default shows every event; games with hidden information override it.
        """
        return event

    def redact_command(self, command: Command, actor: Seat, seat: Seat | None) -> Command:
        """Return ``command``, played by ``actor``, as ``seat`` sees it (``None``: a spectator).

        The actor sees its own command whole; every other seat and a
        spectator see the fields the command's class declares ``secret`` as
        None. Override it for finer rules (a field some other seats may see);
        never return more than the actor's own command. Only the referee (the
        log itself) sees every command unredacted.
        """
        secret = command.secret
        if not secret or seat == actor:
            return command
        hidden: Command = attrs.evolve(typing.cast(Any, command), **dict.fromkeys(secret))
        return hidden

    @abc.abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """Return the :class:`Outcome` once the match is over, else None."""

    def interim(self, state: S) -> Outcome | None:
        """The standings at a break in play (a round just paid, the next not dealt) as an :class:`Outcome`; else None.

        What the match's outcome would be if it stopped there: search bots may
        end a playout at the first break instead of playing the match out
        (``PIMC(horizon=True)``). The default has no breaks: None everywhere.
        """
        return None

    def variant_options(self, variant: str) -> dict[str, Any]:
        """Return the options that select ``variant`` (one of ``info.variants``).

        The default: the first variant is the plain game (no options), any
        other is ``{"variant": name}``. Raise :class:`ConfigError` for an
        unknown name.
        """
        if variant not in self.info.variants:
            raise ConfigError(
                f"{self.info.id} has no variant {variant!r}; variants: {', '.join(self.info.variants)}"
            )
        return {} if variant == self.info.variants[0] else {"variant": variant}

    def command_space(self, state: S, seat: Seat) -> Sequence[Command] | None:
        """Every command ``seat`` could name at ``state``, legal or not, where that set is finite; else None.

        Optional, for the conformance kit: where a game lists a space, the
        kit's :func:`meeple.testing.check_legal_is_decide` hands each of its
        commands to :meth:`decide` and holds the answer to
        :meth:`legal_commands`; without one (the default) it tries variations
        of the legal commands instead. A space only needs to cover the
        commands near the legal ones (fields one step out of range, a bid
        too low), not every value a field's type allows.
        """
        return None

    def hides_information(self, options: O) -> bool:
        """Whether a match with ``options`` hides anything from some seat (``info.hidden_information``).

        A game that hides information in some of its variants only (an open
        rule set for children, say) answers per options, so that the
        conformance kit expects ``determinize`` to re-deal something exactly
        where something is hidden.
        """
        return self.info.hidden_information

    def determinize(self, state: S, seat: Seat | None, rng: Rng) -> S:
        """Return a state ``seat`` cannot tell from ``state``: hidden parts re-dealt at random.

        Everything ``seat`` cannot see (other hands, roles, deck order, face-down
        cards) is resampled from what is consistent with its knowledge, so
        ``view(determinize(s, seat, rng), seat) == view(s, seat)``. The
        conformance kit checks views with it. It reads the true state, so it
        is the referee's tool: search bots sample with :meth:`world`, from a
        view alone. Games without hidden information keep the default (the
        state itself).
        """
        return state

    def world(self, view: Any, seat: Seat | None, rng: Rng) -> S:
        """Return a full state sampled from what ``seat`` knows: ``view`` alone, never the true state.

        Everything the view hides (other hands, roles, the deck's order,
        face-down cards) is dealt at random from ``rng``, consistently with
        what the view shows; everything it shows is kept. So, for the state
        ``w`` returned, ``view(w, seat) == view``, ``to_act(w)`` and
        ``legal_commands(w, seat)`` are those of the true state, and any
        legal command can be played in ``w``. This is how search bots sample
        the hidden part (DESIGN invariant 9): they never see the true state
        or the match's RNG. The view must therefore carry every public fact
        a state needs (the seat count, the options, sizes of hidden piles).

        A deal uniform over what is consistent with the view is enough; it
        need not weigh what other seats' play revealed. Draw only from
        ``rng``. ``meeple.testing.check_worlds`` checks an implementation.

        The default serves games without hidden information whose view is
        the state itself; any other game raises :class:`NoWorldSampling`
        until it implements this method.
        """
        if not self.info.hidden_information and isinstance(view, self.state_type):
            state: S = view
            return state
        raise NoWorldSampling(self.info.id)

    def render(self, state: S, seat: Seat | None = None) -> str:
        """Return a text picture of ``state`` as ``seat`` sees it (None: the referee).

        A game that draws it in other languages too takes a keyword ``lang``
        (``meeple.engine.text.LANGUAGES``) after ``seat``; :meth:`Match.render
        <meeple.engine.match.Match.render>` passes it only to such a game.
        """
        return repr(self.view(state, seat) if seat is not None else state)

    def describe(self, command: Command) -> str:
        """Return a short human description of a command (for menus and replays).

        It may be handed a redacted command (:meth:`redact_command`), whose
        secret fields are None: describe those without the secret ("discards
        a card").
        """
        return repr(command)

    def text(self, command: Command, events: Sequence[Event] | None = None, lang: str = "en") -> str:
        """Return what a player reads, in ``lang`` (``meeple.engine.text.LANGUAGES``): a command or a record.

        With ``events`` None, ``command`` is a legal command as its button
        reads; otherwise it is a record's command and ``events`` its events,
        both as one seat saw them (redacted), told as a sentence. Build it
        from those arguments alone: they are all the seat may know. The
        default is :meth:`describe`, in English.
        """
        return self.describe(command)

    def outcome_text(self, outcome: Outcome, lang: str = "en") -> str:
        """Return why the match ended (``outcome.reason``) as a player reads it in ``lang``.

        The default is the reason itself, in English; a game that speaks other
        languages says it in them (see :func:`meeple.engine.text.reword`).
        """
        return outcome.reason

    def bots(self) -> Mapping[str, Callable[[int], Any]]:
        """Return this game's bot factories by name (``factory(seed) -> Bot``)."""
        return {}

    # -- helpers for game code --------------------------------------------
    @staticmethod
    def illegal(message: str, code: Code = Code.RULE, command: Any = None) -> IllegalCommand:
        """Build an :class:`IllegalCommand` (``raise self.illegal("...")``)."""
        return IllegalCommand(code, message, command)
