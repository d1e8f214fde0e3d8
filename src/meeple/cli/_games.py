"""``meeple games``: the games there are, or everything one game offers."""

from __future__ import annotations

import argparse
import json

from ..catalog import GameDescription, catalog, describe_game
from ._base import check_config, emit


def _seats(low: int, high: int) -> str:
    return f"{low}-{high}" if low != high else str(low)


def cmd_games(args: argparse.Namespace) -> int:
    """List the games with their seat ranges per variant, or describe one game fully."""
    if args.game:
        info = check_config(describe_game, args.game)
        if args.json:
            emit(info.to_json())
        else:
            _print_game(info)
        return 0
    found = catalog()
    if args.json:
        emit([g.to_json() if isinstance(g, GameDescription) else {"id": g[0], "error": g[1]} for g in found])
        return 0
    for g in found:
        if not isinstance(g, GameDescription):
            print(f"{g[0]:12} (unavailable: {g[1]})")
            continue
        variants = ", ".join(f"{v.name} ({_seats(v.min_seats, v.max_seats)})" for v in g.variants)
        print(f"{g.id:12} {g.title:30} {_seats(g.min_seats, g.max_seats)} players  variants: {variants}")
    return 0


def _print_game(g: GameDescription) -> None:
    print(f"{g.id}: {g.title} (rules version {g.rules_version})")
    if g.summary:
        print(f"  {g.summary}")
    facts = ["chance" if g.has_chance else "no chance", "hidden information" if g.hidden_information else
             "open information"]
    print(f"  {_seats(g.min_seats, g.max_seats)} players; {', '.join(facts)}")
    print("variants:")
    for v in g.variants:
        sets = ", ".join(f"{k}={json.dumps(val)}" for k, val in v.options.items()) or "no options"
        open_play = "; open information" if g.hidden_information and not v.hidden_information else ""
        print(f"  {v.name:12} {_seats(v.min_seats, v.max_seats):>5} players   ({sets}){open_play}")
    print("options (--option NAME=VALUE):")
    if not g.options:
        print("  none")
    for o in g.options:
        allowed = f", one of {', '.join(json.dumps(c) for c in o.choices)}" if o.choices else ""
        print(f"  {o.name} ({o.type}, default {json.dumps(o.default)}{allowed})")
        print(f"      {o.help or '(no help text)'}")
    print(f"bots (--bots): {', '.join(g.bots)}")
