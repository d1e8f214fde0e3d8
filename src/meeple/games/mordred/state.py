"""Mordred's options and state: frozen values the rules fold events into."""

from __future__ import annotations

import enum
from typing import Protocol

import attrs

from meeple.engine import ConfigError, Options

from .data import AREA_CODES, KIND_INDEX, LAND, ROAD_BACK, ROAD_FORWARD, WARRIORS, Kind, Row


class Phase(enum.Enum):
    """Where a match is: set-up, then each turn's roll, placing warriors and spending."""

    SETUP = "setup"
    ROLL = "roll"
    PLACE = "place"
    SPEND = "spend"
    OVER = "over"


class End(enum.Enum):
    """The four end conditions of the rules ("Конец игры", a to d).

    ``WARRIORS``: every warrior of Mordred is on the map (a).
    ``BUILDINGS``: at the start of a turn a player has every building of one type on the map (b);
    by default checked at the start of that player's own turn (see :class:`UsedUp`).
    ``ROAD``: a marker cannot move the number of spaces it must (c).
    ``MORDRED``: a player beat Mordred in his castle on Anglesey (d).
    """

    WARRIORS = "warriors"
    BUILDINGS = "buildings"
    ROAD = "road"
    MORDRED = "mordred"


class UsedUp(enum.Enum):
    """When end (b), "a player has every building of one type on the map", is checked.

    ``OWN_TURN`` (the default): at the start of that player's own next turn,
    so the others get a round to take one of those buildings back (the
    published reading, facts C.2). ``NEXT_TURN``: at the start of the very
    next turn, whoever's it is (the seed read word for word: "в начале хода").
    """

    OWN_TURN = "own-turn"
    NEXT_TURN = "next-turn"


class SiegeTargets(enum.Enum):
    """Whose buildings a warrior taken from a roll may be placed on (a siege, phase 3).

    ``OTHERS`` (the default): other players' buildings only; the roller's own
    only when every area the warrior could go to holds one of them (designed:
    a warrior is never kept back, see ``docs/rules/mordred.md``). The seed's
    "…he may try to remove *another* player's building once more" and the
    public summaries ("to attack other players' buildings", facts C.2).
    ``ANY``: anybody's, the roller's own too (the seed's first sentence,
    "a building of some player", read alone; rules version 2).
    """

    OTHERS = "others"
    ANY = "any"


@attrs.frozen
class MordredOptions(Options):
    """``warriors`` in Mordred's supply, the road's length past (``road_forward``) and behind
    (``road_back``) the dragon, when a used-up building type ends the game (``used_up``), and
    whose buildings a warrior may besiege (``siege``)."""

    warriors: int = attrs.field(default=WARRIORS, metadata={"help": "warriors in Mordred's supply, 4..32"})
    road_forward: int = attrs.field(default=ROAD_FORWARD,
                                    metadata={"help": "spaces of the road ahead of the dragon, 4..40"})
    road_back: int = attrs.field(default=ROAD_BACK, metadata={"help": "spaces of the road behind the dragon, 0..10"})
    used_up: UsedUp = attrs.field(default=UsedUp.OWN_TURN, metadata={
        "help": "when a player with every building of one type on the map ends the game: at the start of "
                "its 'own-turn' (the published reading) or of the 'next-turn', whoever's (the seed word for word)"})
    siege: SiegeTargets = attrs.field(default=SiegeTargets.OTHERS, metadata={
        "help": "whose buildings the roller's warriors may besiege: 'others' (other players'; the roller's own "
                "only when nothing else is in reach) or 'any' (the roller's own too; rules version 2)"})

    def validate(self, seats: int) -> None:
        """Warriors 4..32 (never more than the land areas), road 4..40 forward and 0..10 back."""
        if not 4 <= self.warriors <= len(LAND):
            raise ConfigError(f"mordred: warriors must be 4..{len(LAND)}, not {self.warriors}")
        if not 4 <= self.road_forward <= 40:
            raise ConfigError(f"mordred: road_forward must be 4..40, not {self.road_forward}")
        if not 0 <= self.road_back <= 10:
            raise ConfigError(f"mordred: road_back must be 0..10, not {self.road_back}")


@attrs.frozen
class Building:
    """A player's building standing on an area."""

    owner: int
    kind: Kind


@attrs.frozen
class LastRoll:
    """The last income roll: who rolled, on which row, the dice, and what they gave."""

    seat: int
    row: Row
    dice: tuple[int, int]
    money: int
    warriors: int


def _no_buildings() -> tuple[Building | None, ...]:
    return (None,) * len(AREA_CODES)


def count_standing(state: State) -> tuple[tuple[int, int, int], ...]:
    """Count each seat's villages, towns and castles on the map (what ``State.standing`` holds)."""
    counts = [[0, 0, 0] for _ in range(state.seats)]
    for b in state.buildings:
        if b is not None:
            counts[b.owner][KIND_INDEX[b.kind]] += 1
    return tuple((v, t, c) for v, t, c in counts)


@attrs.frozen
class State:
    """The whole state of a match (Mordred has no hidden information).

    ``buildings`` and ``warriors`` are indexed like :data:`~.data.AREA_CODES`;
    ``standing`` counts each seat's villages, towns and castles on the map
    (derived from ``buildings``: ``evolve`` keeps it, and a state built by
    hand without it counts it); ``road`` holds each seat's marker (0 is the
    dragon space); ``hand`` is the number of warriors the player on turn
    still has to place.
    """

    seats: int
    options: MordredOptions
    phase: Phase = Phase.SETUP
    turn: int = 0
    first: int = 0
    buildings: tuple[Building | None, ...] = attrs.field(factory=_no_buildings)
    standing: tuple[tuple[int, int, int], ...] = attrs.field(default=attrs.Factory(count_standing, takes_self=True))
    warriors: tuple[bool, ...] = (False,) * len(AREA_CODES)
    supply: int = WARRIORS
    hand: int = 0
    money: tuple[int, ...] = ()
    road: tuple[int, ...] = ()
    turns: int = 0
    last_roll: LastRoll | None = None
    ended: End | None = None


class Board(Protocol):
    """What the rule helpers read: a :class:`State` or a view (same field names)."""

    @property
    def options(self) -> MordredOptions: ...

    @property
    def buildings(self) -> tuple[Building | None, ...]: ...

    @property
    def standing(self) -> tuple[tuple[int, int, int], ...]: ...

    @property
    def warriors(self) -> tuple[bool, ...]: ...
