"""Saboteur's cards and tables, as data apart from the rule code.

Every card *kind* (a card face) is one :class:`CardKind`; hands, the draw
pile and commands name cards by kind id (the index in :data:`KINDS`), so two
identical crossroads are the same value. Counts come from the reference file
``saboteur-facts.md``: base cards from sections 3-6, the Deluxe expansion from
sections 9-12, with the cards the sources leave open designed here (see
``docs/rules/saboteur.md``).

Edges are bit masks: N=1, E=2, S=4, W=8 (N is the card's top; the start is on
the left and the goals on the right). A path card's ``groups`` are the sets of
edges joined through the card; an open edge in no group is a dead-end stub.
"""

from __future__ import annotations

import enum
import functools

import attrs

N, E, S, W = 1, 2, 4, 8
ALL_EDGES = N | E | S | W
#: (edge, column step, row step, opposite edge); rows grow downwards (south).
DIRECTIONS: tuple[tuple[int, int, int, int], ...] = ((N, 0, -1, S), (E, 1, 0, W), (S, 0, 1, N), (W, -1, 0, E))


def turn180(mask: int) -> int:
    """Return an edge mask turned by 180 degrees (N<->S, E<->W)."""
    return ((mask << 2) | (mask >> 2)) & ALL_EDGES


class Category(enum.Enum):
    """What a card is: a tunnel (path) card or an action card."""

    PATH = "path"
    ACTION = "action"


class Tool(enum.Enum):
    """The three tools a broken-tool card can break (members hash by identity: they are singletons)."""

    __hash__ = object.__hash__

    PICKAXE = "pickaxe"
    LANTERN = "lantern"
    CART = "cart"


class Action(enum.Enum):
    """The effect of an action card."""

    BREAK = "break"
    REPAIR = "repair"
    ROCKFALL = "rockfall"
    MAP = "map"
    THEFT = "theft"
    HANDS_OFF = "hands_off"
    SWAP_HAND = "swap_hand"
    INSPECTION = "inspection"
    SWAP_HATS = "swap_hats"
    TRAPPED = "trapped"
    FREE = "free"


class Door(enum.Enum):
    """The colour of a door on a path card."""

    GREEN = "green"
    BLUE = "blue"


@attrs.frozen
class CardKind:
    """One card face: its shape or effect and how many are in each edition's deck.

    ``base`` cards are in the base game and in Deluxe; ``extra`` cards are
    added by the Deluxe expansion.
    """

    name: str
    category: Category
    base: int
    extra: int = 0
    edges: int = 0
    groups: tuple[int, ...] = ()
    ladder: bool = False
    door: Door | None = None
    crystals: int = 0
    action: Action | None = None
    tools: frozenset[Tool] = frozenset()


def _path(name: str, base: int, extra: int, edges: int, *groups: int, ladder: bool = False,
          door: Door | None = None, crystals: int = 0) -> CardKind:
    return CardKind(name, Category.PATH, base, extra, edges, tuple(groups), ladder, door, crystals)


def _act(name: str, base: int, extra: int, action: Action, *tools: Tool) -> CardKind:
    return CardKind(name, Category.ACTION, base, extra, action=action, tools=frozenset(tools))


P, L, C = Tool.PICKAXE, Tool.LANTERN, Tool.CART
G, B = Door.GREEN, Door.BLUE

#: Every card kind. Base counts: facts section 3 (tunnels) and 5 (actions);
#: extra counts: facts sections 11 and 12, plus the designed cards.
KINDS: tuple[CardKind, ...] = (
    # -- base tunnels, connected (31) and dead ends (9): facts section 3
    _path("crossroads", 5, 1, N | E | S | W, N | E | S | W),
    _path("t-vertical", 5, 1, N | S | E, N | S | E),
    _path("t-horizontal", 5, 1, E | W | N, E | W | N),
    _path("straight-vertical", 4, 1, N | S, N | S),
    _path("straight-horizontal", 3, 1, E | W, E | W),
    _path("curve-a", 4, 1, S | E, S | E),
    _path("curve-b", 5, 0, S | W, S | W),
    _path("dead-crossroads", 1, 0, N | E | S | W),
    _path("dead-t-vertical", 1, 0, N | S | E),
    _path("dead-t-horizontal", 1, 0, E | W | N),
    _path("dead-straight-vertical", 1, 0, N | S),
    _path("dead-straight-horizontal", 1, 0, E | W),
    _path("dead-curve-a", 1, 0, S | E),
    _path("dead-curve-b", 1, 0, S | W),
    _path("dead-stub-vertical", 1, 0, N),
    _path("dead-stub-horizontal", 1, 0, E),
    # -- base actions (27): facts section 5
    _act("broken-pickaxe", 3, 0, Action.BREAK, P),
    _act("broken-lantern", 3, 0, Action.BREAK, L),
    _act("broken-cart", 3, 0, Action.BREAK, C),
    _act("repair-pickaxe", 2, 0, Action.REPAIR, P),
    _act("repair-lantern", 2, 0, Action.REPAIR, L),
    _act("repair-cart", 2, 0, Action.REPAIR, C),
    _act("repair-pickaxe-lantern", 1, 0, Action.REPAIR, P, L),
    _act("repair-pickaxe-cart", 1, 0, Action.REPAIR, P, C),
    _act("repair-lantern-cart", 1, 0, Action.REPAIR, L, C),
    _act("rockfall", 3, 0, Action.ROCKFALL),
    _act("map", 6, 0, Action.MAP),
    # -- Deluxe path cards (30): facts section 11, C5's 24 plus 6 designed
    #    (one more of each of six base connected shapes, counted in `extra` above)
    _path("crystal-stub-horizontal", 0, 1, W, crystals=1),
    _path("crystal-stub-vertical", 0, 1, N, crystals=1),
    _path("crystal-crossroads", 0, 1, N | E | S | W, N | E | S | W, crystals=1),
    _path("crystal-t-horizontal", 0, 3, E | W | N, E | W | N, crystals=1),
    _path("crystal-t-vertical", 0, 1, N | S | E, N | S | E, crystals=1),
    _path("crystal-t-vertical-stub-w", 0, 1, N | E | S | W, N | E | S, crystals=1),
    _path("crystal-t-horizontal-stub-s", 0, 1, N | E | S | W, W | N | E, crystals=1),
    _path("crystal-straight-horizontal-stub-n", 0, 1, W | E | N, W | E, crystals=1),
    _path("blue-door-horizontal", 0, 1, W | E, W | E, door=B),
    _path("blue-door-vertical", 0, 1, N | S, N | S, door=B),
    _path("blue-door-curve-b", 0, 1, S | W, S | W, door=B),
    _path("green-door-horizontal", 0, 1, W | E, W | E, door=G),
    _path("green-door-vertical-stub-w", 0, 1, N | S | W, N | S, door=G),
    _path("green-door-curve-a", 0, 1, N | W, N | W, door=G),
    _path("ladder-stub-horizontal", 0, 1, W, W, ladder=True),
    _path("ladder-stub-vertical", 0, 1, N, N, ladder=True),
    _path("ladder-curve-a", 0, 1, N | W, N | W, ladder=True),
    _path("ladder-curve-b", 0, 1, S | W, S | W, ladder=True),
    _path("double-curve", 0, 2, N | E | S | W, W | N, E | S),
    _path("bridge", 0, 2, N | E | S | W, W | E, N | S),
    # -- Deluxe actions (21): facts section 12 (20) plus one designed Hands Off
    _act("theft", 0, 4, Action.THEFT),
    _act("hands-off", 0, 4, Action.HANDS_OFF),
    _act("swap-your-hand", 0, 2, Action.SWAP_HAND),
    _act("inspection", 0, 2, Action.INSPECTION),
    _act("swap-your-hats", 0, 2, Action.SWAP_HATS),
    _act("trapped", 0, 3, Action.TRAPPED),
    _act("free-at-last", 0, 4, Action.FREE),
)

KIND_BY_NAME: dict[str, int] = {k.name: i for i, k in enumerate(KINDS)}


def kind_id(name: str) -> int:
    """Return the kind id of the card called ``name``.

    >>> KINDS[kind_id("map")].action
    <Action.MAP: 'map'>
    """
    return KIND_BY_NAME[name]


@functools.cache
def deck(deluxe: bool) -> tuple[int, ...]:
    """Return the draw deck of an edition (kind ids, unshuffled; worked out once per edition)."""
    out: list[int] = []
    for i, k in enumerate(KINDS):
        out.extend([i] * (k.base + (k.extra if deluxe else 0)))
    return tuple(out)


# -- goals and the start --------------------------------------------------------


class GoalKind(enum.Enum):
    """What a goal card shows once turned: gold (a crossroads) or coal (a curve)."""

    GOLD = "gold"
    COAL_A = "coal-a"  # S-E, or N-W turned
    COAL_B = "coal-b"  # S-W, or N-E turned


#: Open edges of the goal cards (facts section 4); all edges of a goal are joined.
GOAL_EDGES: dict[GoalKind, int] = {GoalKind.GOLD: N | E | S | W, GoalKind.COAL_A: S | E, GoalKind.COAL_B: S | W}
GOALS: tuple[GoalKind, ...] = (GoalKind.GOLD, GoalKind.COAL_A, GoalKind.COAL_B)
#: Goal positions (column, row): facts section 7, "layout".
GOAL_POSITIONS: tuple[tuple[int, int], ...] = ((8, -2), (8, 0), (8, 2))
START_POSITION = (0, 0)
START_EDGES = N | E | S | W

# -- roles ------------------------------------------------------------------------


class Role(enum.Enum):
    """A dwarf card: base miners and saboteurs, and the Deluxe roles."""

    MINER = "miner"
    SABOTEUR = "saboteur"
    GREEN = "green-miner"
    BLUE = "blue-miner"
    BOSS = "boss"
    PROFITEER = "profiteer"
    GEOLOGIST = "geologist"


#: Base role deck per player count: (saboteurs, miners); facts section 2.
BASE_ROLES: dict[int, tuple[int, int]] = {
    3: (1, 3), 4: (1, 4), 5: (2, 4), 6: (2, 5), 7: (3, 5), 8: (3, 6), 9: (3, 7), 10: (4, 7),
}
#: The 15 Deluxe dwarf cards, dealt from all 15 at any count; facts section 10.
DELUXE_ROLES: tuple[Role, ...] = (
    (Role.GREEN,) * 4 + (Role.BLUE,) * 4 + (Role.BOSS, Role.PROFITEER) + (Role.GEOLOGIST,) * 2 + (Role.SABOTEUR,) * 3
)


def base_roles(seats: int) -> tuple[Role, ...]:
    """Return the base role deck for ``seats`` players (one card more than players)."""
    sab, miners = BASE_ROLES[seats]
    return (Role.SABOTEUR,) * sab + (Role.MINER,) * miners


# -- hands, gold and payouts --------------------------------------------------------


def base_hand_size(seats: int) -> int:
    """Cards dealt per player in the base game: 6 / 5 / 4 (facts section 7)."""
    return 6 if seats <= 5 else 5 if seats <= 7 else 4


DELUXE_HAND_SIZE = 6
#: Cards set aside unseen before each Deluxe round (facts section 13).
DELUXE_SET_ASIDE = 10
#: Base gold cards: 16 ones, 8 twos, 4 threes (facts section 6).
GOLD_CARDS: tuple[int, ...] = (1,) * 16 + (2,) * 8 + (3,) * 4
#: Nuggets each saboteur earns, by number of saboteurs (facts section 8).
SABOTEUR_PAY: dict[int, int] = {1: 4, 2: 3, 3: 3, 4: 2}
#: Deluxe share per winner by number of winners (facts section 14); 5 or more get 1.
DELUXE_SHARE: dict[int, int] = {1: 5, 2: 4, 3: 3, 4: 2}
ROUNDS = 3


def deluxe_share(winners: int) -> int:
    """Gold pieces per winner in Deluxe for a number of winners (0 winners: 0)."""
    if winners <= 0:
        return 0
    return DELUXE_SHARE.get(winners, 1)
