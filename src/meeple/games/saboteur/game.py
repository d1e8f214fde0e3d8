"""The Saboteur game object: the rules, with what each seat sees, the worlds, the text and the bots.

This is where the parts meet, so the imports run one way: data -> board ->
state -> tables -> rules -> fastfold / view / world / render / bot -> game.

>>> import meeple
>>> m = meeple.Match.start("saboteur", seats=5, seed=3, options={"edition": "deluxe"})
>>> len(m.view(0).hand), sorted(GAME.bots())
(6, ['heuristic', 'random'])
"""

from __future__ import annotations

from meeple.engine import RandomBot, assemble

from . import fastfold, render, text, view, world
from .bot import HeuristicBot
from .rules import SaboteurRules

#: Saboteur, base game (3-10 players) and Deluxe edition (2-12), on the meeple protocol.
Saboteur = assemble(
    "Saboteur", SaboteurRules, module=__name__,
    doc="Saboteur, base game (3-10 players) and Deluxe edition (2-12), on the meeple protocol.",
    view_type=view.View, view=view.view, redact=view.redact, determinize=view.determinize, world=world.world,
    render=render.render, describe=render.describe, text=text.text, outcome_text=text.outcome_text,
    # one record's events folded as fastfold folds them (a turn in one copy); the kit holds it to one by one
    fold=fastfold.fold,
    bots={"random": RandomBot, "heuristic": HeuristicBot},
)

#: The game object the registry finds (``meeple.games.saboteur:GAME``).
GAME = Saboteur()
