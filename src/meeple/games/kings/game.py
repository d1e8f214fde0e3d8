"""The game object of Underground Kings: its declared facts, and the parts assembled.

The rules (:mod:`.rules`), what each seat sees (:mod:`.view`), the worlds
of search bots (:mod:`.world`), the text (:mod:`.render`) and the bots
(:mod:`.bot`) meet here and nowhere else, so the rules depend on none of
the others.

>>> import meeple
>>> m = meeple.Match.start("kings", seats=2, seed=1)
>>> m.to_act, len(m.view(0).hand)
((0,), 6)
"""

from __future__ import annotations

from meeple.engine import RandomBot, assemble

from . import commands, events, render, rules, text, view, world
from .bot import HeuristicBot
from .info import INFO, VARIANTS
from .state import KingsOptions, State

#: Underground Kings (Kings Under Mountains) on the meeple protocol.
KingsGame = assemble(
    "KingsGame", rules, module=__name__,
    doc="Underground Kings (Kings Under Mountains) on the meeple protocol.",
    info=INFO, options=KingsOptions, state=State, variants=VARIANTS,
    commands=commands.COMMANDS,
    events=events.EVENTS,
    view_type=view.KingsView, view=view.view, redact=view.redact, determinize=view.determinize, world=world.world,
    render=render.render, describe=render.describe, text=text.text, outcome_text=text.outcome_text,
    bots={"random": RandomBot, "heuristic": HeuristicBot},
)

#: The game object the registry loads (``meeple.Match.start("kings", ...)``).
GAME = KingsGame()
