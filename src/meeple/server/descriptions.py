"""What the lobby says of games and matches (``GET /api/games``, ``GET /api/matches``, docs/protocol.md)."""

from __future__ import annotations

from typing import Any

from ..catalog import variant_hides_information
from ..engine.game import Game
from ..engine.wire import Json, describe, to_wire
from ..store.errors import StoreError
from .bots import bot_factories, default_fallback
from .lobby import MatchRow, SeatRow
from .table import Table
from .workers import current


def game_info(game: Game[Any, Any]) -> dict[str, Json]:
    """What the lobby says of a game: seats, variants, options, bots, and the wire schema of its commands."""
    import attrs

    info = game.info
    options_type = game.options_type
    attrs.resolve_types(options_type)
    defaults = options_type()
    options = [
        {"name": f.name, "schema": describe(f.type), "default": to_wire(getattr(defaults, f.name)),
         "help": str(f.metadata.get("help", ""))}
        for f in attrs.fields(options_type)
    ]
    variants = []
    for v in info.variants:
        low, high = info.seat_range(v)
        variants.append({"name": v, "min_seats": low, "max_seats": high, "options": to_wire(game.variant_options(v)),
                         "hidden_information": variant_hides_information(game, v)})
    return {
        "id": info.id,
        "title": info.title,
        "summary": info.summary,
        "rules_version": info.rules_version,
        "min_seats": info.min_seats,
        "max_seats": info.max_seats,
        "hidden_information": info.hidden_information,
        "has_chance": info.has_chance,
        "variants": variants,
        "options": options,
        "bots": sorted(bot_factories(game)),
        "default_fallback_bot": default_fallback(game),
        "commands": [describe(c) | {"secret": list(c.secret)} for c in game.commands],
        "view": describe(game.view_type) if game.view_type is not None else {},
    }


def match_info(row: MatchRow, seats: list[SeatRow], table: Table | None) -> Json:
    """What the lobby says of a match: from its hosted ``table`` where there is one, else from the lobby's rows."""
    out: dict[str, Json] = {
        "id": row.id,
        "name": row.name,
        "game": row.game,
        "variant": row.variant,
        "seats": row.seats,
        "options": row.options,
        "clock": row.clock,
        "fallback_bot": row.fallback,
        "status": row.status,
        "created": row.created,
        "open_seats": [s.seat for s in seats if s.kind == "human" and not s.taken],
    }
    if table is not None:
        out["players"] = table.players()
        out["cursor"] = table.match.cursor
        outcome = table.match.outcome
        out["outcome"] = None if outcome is None else to_wire(outcome)
    else:  # a listing: what the lobby knows
        out["players"] = [{"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name, "taken": s.taken}
                          for s in seats]
    return out


def progress(match_id: str) -> dict[str, Json]:
    """How far a listed match is, for the lobby's rows: records, last activity, winners, who is to act.

    From the store's listing of the match (no log is read); ``to_act`` only
    where this worker hosts the match now (else None: not known without
    reading its log).
    """
    worker = current()
    try:
        info = worker.store.store.info(match_id)
    except StoreError:
        return {"records": None, "updated": None, "winners": None, "to_act": None}
    table = worker.tables.get(match_id)
    to_act = None if table is None else [s for s in table.match.to_act if s >= 0]
    return {"records": info.records, "updated": info.updated.isoformat(timespec="seconds"),
            "winners": None if info.winners is None else list(info.winners), "to_act": to_act}
