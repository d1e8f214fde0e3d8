"""Mordred's speed layer: commands made once, and whole-map forms of the rules' per-area checks.

Nothing here is a rule of its own. :mod:`.rules` states each rule for one
area (:func:`~.rules.placement_targets`, :func:`~.rules.build_site`); the
functions here give the same answers for the whole map at once, from the
tables of :mod:`.data`, for ``legal_commands`` and the bot, which ask them
for every position. ``tests/games/mordred`` holds each equal to the rule it
mirrors.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import compress

from meeple.engine import Command

from .commands import Attack, Build, EndTurn, Place, Roll
from .data import (
    AREA_CODES,
    BORDER_INDICES,
    BUILDINGS,
    CASTLE_INDEX,
    KINDS,
    LAND_INDICES,
    NEIGHBOURS,
    PRICES,
    SURCHARGE,
    Row,
)
from .state import Board, Building, State

#: Each area's index, once per area in map order (what ``compress`` selects from).
INDICES = range(len(AREA_CODES))
#: Pieces of each building type, in :data:`~.data.KINDS` order.
PIECES = tuple(BUILDINGS[kind].pieces for kind in KINDS)

# Commands are frozen values, so the legal lists share one instance of each.
ROLLS: tuple[Command, ...] = tuple(Roll(row) for row in Row)
PLACES: tuple[Place, ...] = tuple(Place(code) for code in AREA_CODES)
BUILDS: tuple[tuple[Build, ...], ...] = tuple(tuple(Build(code, kind) for kind in KINDS) for code in AREA_CODES)
ATTACKS: Mapping[tuple[int, int], Attack] = {
    (i, n): Attack(AREA_CODES[i], AREA_CODES[n]) for i in LAND_INDICES for n in NEIGHBOURS[i]
}
END_TURN = EndTurn()

#: ``OFFERS[i]``: ``(type index, price, Build command)`` for each type that may stand on area ``i``.
OFFERS: tuple[tuple[tuple[int, int, Build], ...], ...] = tuple(
    tuple((k, price, BUILDS[i][k]) for k, price in enumerate(PRICES[i]) if price is not None) for i in range(len(AREA_CODES))
)


def targets(warriors: tuple[bool, ...]) -> list[int]:
    """The indices of :func:`~.rules.placement_targets`, in map order."""
    reach = set(NEIGHBOURS[CASTLE_INDEX])
    for i in compress(INDICES, warriors):
        reach.update(NEIGHBOURS[i])
    reach.difference_update(compress(INDICES, warriors))
    reach.discard(CASTLE_INDEX)
    return sorted(reach)


def spare_own(found: list[int], buildings: tuple[Building | None, ...], seat: int) -> list[int]:
    """``found`` without the areas holding ``seat``'s own buildings, unless that leaves none (``siege="others"``)."""
    kept = [i for i in found if (b := buildings[i]) is None or b.owner != seat]
    return kept if kept else found


def next_to_warrior(warriors: tuple[bool, ...], i: int) -> bool:
    """True if area ``i`` is next to a warrior or to Mordred's castle."""
    return any(n == CASTLE_INDEX or warriors[n] for n in NEIGHBOURS[i])


def build_sites(board: Board, seat: int) -> list[tuple[int, int]]:
    """Every ``(area index, surcharge)`` where :func:`~.rules.build_site` lets ``seat`` build, in map order.

    The same rule, asked of the whole map at once: the candidates are the
    black-bordered areas, ``seat``'s own buildings and every area next to a
    building; those with a warrior or another player's building drop out.
    """
    buildings, warriors = board.buildings, board.warriors
    candidates = set(BORDER_INDICES)
    near_own: set[int] = set()
    for i in compress(INDICES, buildings):
        near = NEIGHBOURS[i]
        candidates.update(near)
        if buildings[i].owner == seat:  # type: ignore[union-attr]  # compress kept the buildings only
            candidates.add(i)
            near_own.update(near)
    candidates.discard(CASTLE_INDEX)
    out = []
    for i in sorted(candidates):
        if warriors[i]:
            continue
        here = buildings[i]
        if here is not None and here.owner != seat:
            continue
        out.append((i, 0 if i in BORDER_INDICES or i in near_own else SURCHARGE))
    return out


def builds(state: State, seat: int, cash: int) -> list[Command]:
    """Every build ``seat`` can pay for: a site (:func:`build_sites`), a piece left, a type not already there."""
    left = [pieces - on_map for pieces, on_map in zip(PIECES, state.standing[seat])]
    if not any(left):
        return []
    buildings = state.buildings
    out: list[Command] = []
    for i, surcharge in build_sites(state, seat):
        budget = cash - surcharge
        here = buildings[i]
        for k, price, build in OFFERS[i]:
            if price <= budget and left[k] and (here is None or here.kind is not build.kind):
                out.append(build)
    return out
