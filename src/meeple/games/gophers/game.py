"""The Gophers game object: the rules, with their views, worlds, text and bots, put together.

This is where the parts meet, so that the imports run one way: data ->
state -> rules -> view, world, render, bot -> game.

>>> import meeple
>>> m = meeple.Match.start("gophers", seats=2, seed=3)
>>> m.to_act, m.game.describe(m.legal(0)[0])
((0,), 'place pawn on hole 0')
"""

from __future__ import annotations

from meeple.engine import RandomBot, assemble

from . import render, text, view, world
from .bot import HeuristicBot
from .rules import GophersRules

#: Gophers ("Проныры") on the meeple protocol, with all four rule sets as a ``variant`` option.
Gophers = assemble(
    "Gophers", GophersRules, module=__name__,
    doc='Gophers ("Проныры") on the meeple protocol, with all four rule sets as a ``variant`` option.',
    view_type=view.View, view=view.view, redact=view.redact, determinize=view.determinize, world=world.world,
    render=render.render, describe=render.describe, text=text.text, outcome_text=text.outcome_text,
    bots={"random": RandomBot, "heuristic": HeuristicBot},
)

#: The game object the registry finds (``meeple.games.gophers:GAME``).
GAME = Gophers()
