"""Text pictures of a Mordred position and short descriptions of commands.

The map is drawn on its grid (north at the top, England to the east): each
cell shows the area code, its terrain (``f`` forest, ``m`` mountains), ``*``
for a black-bordered area, and what stands there (``V2`` a village of seat 2,
``T`` a town, ``C`` a castle, ``W`` a warrior of Mordred). Areas side by side
on the grid are neighbours; the two pairs of neighbours that meet corner to
corner are joined by ``/`` or ``\\`` between the rows (:data:`~.data.DIAGONALS`).
A key under the map names every symbol.
"""

from __future__ import annotations

from .commands import Attack, Build, EndTurn, Place, Roll, Start
from .data import (
    AREA_INDEX,
    AREAS,
    ATTACK_COST,
    BORDER,
    BUILDINGS,
    CASTLE_AREA,
    DIAGONALS,
    MONEY,
    SURCHARGE,
    Kind,
    Row,
    Terrain,
    build_price,
)
from .rules import buildings_on_map, pieces_left, points, used_up, warriors_on_map
from .state import Phase, State
from .text import PICTURE, TEXTS

_LETTER = {Kind.VILLAGE: "V", Kind.TOWN: "T", Kind.CASTLE: "C"}
_CELL = 14
_MARGIN = 2


def _cell(state: State, code: str, lang: str = "en") -> str:
    area = AREAS[code]
    w = PICTURE.word
    if code == CASTLE_AREA:
        return f"{code} {w(lang, 'MORDRED')}".ljust(_CELL)
    terrain = w(lang, "f" if area.terrain is Terrain.FOREST else "m")
    mark = "*" if area.border else " "
    b = state.buildings[AREA_INDEX[code]]
    if state.warriors[AREA_INDEX[code]]:
        what = w(lang, "W")
    elif b is not None:
        what = f"{w(lang, _LETTER[b.kind])}{b.owner}"
    else:
        what = "."
    return f"{code} {terrain}{mark} {what}".ljust(_CELL)


def _links(row: int) -> str:
    """The line between grid rows ``row`` and ``row + 1``: a ``\\`` or ``/`` for each corner-to-corner pair."""
    line = [" "] * (_MARGIN + _CELL * (1 + max(a.col for a in AREAS.values())))
    for a, b in DIAGONALS:
        north, south = AREAS[a], AREAS[b]
        if north.row == row:
            line[_MARGIN + _CELL * max(north.col, south.col) - 2] = "\\" if south.col > north.col else "/"
    return "".join(line).rstrip()


def render_map(state: State, lang: str = "en") -> list[str]:
    """Return the map as lines of text, a line per grid row (and one for corner-to-corner neighbours)."""
    rows = max(a.row for a in AREAS.values()) + 1
    cols = max(a.col for a in AREAS.values()) + 1
    grid = [[" " * _CELL for _ in range(cols)] for _ in range(rows)]
    for code, area in AREAS.items():
        grid[area.row][area.col] = _cell(state, code, lang)
    out = []
    for r, line in enumerate(grid):
        out.append(" " * _MARGIN + "".join(line).rstrip())
        links = _links(r)
        if links:
            out.append(links)
    return out


def legend(lang: str = "en") -> list[str]:
    """The key to every symbol of :func:`render_map` and :func:`render_road`, in ``lang``."""
    w = PICTURE.word
    diagonal = ", ".join(f"{TEXTS.word(lang, AREAS[a].name)}-{TEXTS.word(lang, AREAS[b].name)}" for a, b in DIAGONALS)
    return [
        w(lang, "key: f forest, m mountains, * black-bordered (the border with England), . empty area,"),
        w(lang, "     W a warrior of Mordred, V/T/C a village/town/castle with its owner's seat (T2: a town of seat 2),"),
        w(lang, "     CAS MORDRED: Mordred himself in his castle on Anglesey."),
        PICTURE(lang, "     Areas side by side are neighbours; so are those joined by / or \\ ({pairs}).", pairs=diagonal),
        w(lang, "road: D the dragon space (0), - a space, the seat's number its marker; pieces left: V villages, T towns, C castles"),
    ]


def render_road(state: State, lang: str = "en") -> list[str]:
    """Return Mordred's road: each seat's marker counted from the dragon space (0)."""
    back, forward = state.options.road_back, state.options.road_forward
    dragon = PICTURE.word(lang, "D")
    out = [PICTURE(lang, "Mordred's road: spaces -{back} .. 0 (dragon) .. +{forward}", back=back, forward=forward)]
    for s, pos in enumerate(state.road):
        track = "".join(
            str(s) if i == pos else (dragon if i == 0 else "-") for i in range(-back, forward + 1)
        )
        out.append(PICTURE(lang, "  seat {n}: [{track}] {pos}", n=s, track=track, pos=f"{pos:+d}"))
    return out


def render(state: State, seat: int | None = None, lang: str = "en") -> str:
    """Return the whole position as text (everything is public; ``seat`` marks "you"), in ``lang``."""
    _ = PICTURE
    head = _(lang, "Mordred, {n} players", n=state.seats)
    if state.phase is Phase.OVER:
        head += _(lang, " - game over ({end})", end=_.word(lang, state.ended.value) if state.ended else "")
    elif state.phase is not Phase.SETUP:
        head += _(lang, " - turn {turn}, seat {n} to {phase}", turn=state.turns, n=state.turn,
                  phase=_.word(lang, state.phase.value))
        if state.phase is Phase.PLACE:
            head += _(lang, " ({n} warrior(s) in hand)", n=state.hand)
    lines = [head, *render_map(state, lang), *legend(lang), *render_road(state, lang)]
    lines.append(_(lang, "Mordred: {warriors} warriors on the map, {supply} in his supply; {buildings} buildings on the map",
                   warriors=warriors_on_map(state), supply=state.supply, buildings=buildings_on_map(state)))
    for s in range(state.seats):
        left = " ".join(f"{_.word(lang, _LETTER[k])}{pieces_left(state, s, k)}" for k in Kind)
        you = _.word(lang, " (you)") if s == seat else ""
        pts = points(state, s)
        line = _(lang, "  seat {n}{you}: £{money}, {points} point, pieces left {left}" if pts == 1 else
                 "  seat {n}{you}: £{money}, {points} points, pieces left {left}",
                 n=s, you=you, money=state.money[s], points=pts, left=left)
        kind = used_up(state, s)
        if kind is not None and state.phase is not Phase.OVER:
            line += _(lang, "; every {kind} on the map (the game ends at the start of its turn if it still has)",
                      kind=TEXTS.word(lang, kind.value))
        lines.append(line)
    if state.last_roll is not None:
        r = state.last_roll
        lines.append(_(lang, "last roll: seat {n} row {row} dice {a} {b}: £{money}, {warriors} warrior(s)", n=r.seat,
                       row=r.row.value, a=r.dice[0], b=r.dice[1], money=r.money, warriors=r.warriors))
    return "\n".join(lines)


def describe(command: object) -> str:
    """Return a short human description of a Mordred command.

    No Mordred command has a secret field, but a command whose fields read
    None (as a redacted command would) is still described, without them.

    >>> describe(Place("CON"))
    'place a warrior on Conwy (CON)'
    >>> describe(Place(None))  # type: ignore[arg-type]
    'place a warrior'
    """
    match command:
        case Start():
            return "roll for the first player"
        case Roll(row=Row() as row):
            cells = " ".join(f"£{c.money}+W{c.warriors}" if c.black else f"£{c.money}" for c in MONEY[row])
            return f"declare row {row.value} and roll ({cells})"
        case Roll():
            return "declare a row and roll"
        case Place(area=area):
            return f"place a warrior{_on(area)}"
        case Build(area=area, kind=Kind() as kind):
            pts = BUILDINGS[kind].points
            return f"build a {kind.value} ({pts} pt){_on(area)}{_price(area, kind)}"
        case Build(area=area):
            return f"build{_on(area)}"
        case Attack(source=source, target=target):
            where = f" from {_name(source)}" if source is not None else ""
            if target == CASTLE_AREA:
                return f"attack Mordred in his castle{where} (£{ATTACK_COST})"
            what = f"the warrior on {_name(target)}" if target is not None else "a warrior"
            return f"attack {what}{where} (£{ATTACK_COST})"
        case EndTurn():
            return "end the turn"
    return repr(command)


def _price(area: object, kind: Kind) -> str:
    """The table price of ``kind`` on ``area``, and when the surcharge applies (it depends on the position)."""
    if not isinstance(area, str) or area not in AREAS or area == CASTLE_AREA:
        return ""
    price = build_price(kind, AREAS[area].terrain)
    if price is None:
        return ""
    if area in BORDER:
        return f", £{price}"
    return f", £{price} (£{price + SURCHARGE} with none of yours next to it)"


def _on(area: object) -> str:
    return f" on {_name(area)}" if area is not None else ""


def _name(code: object) -> str:
    area = AREAS.get(code) if isinstance(code, str) else None
    return f"{area.name} ({code})" if area is not None else repr(code)
