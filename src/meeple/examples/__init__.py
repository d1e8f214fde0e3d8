"""Example games that ship with meeple, importable wherever meeple is installed.

:mod:`meeple.examples.liars_dice` is the game of the tutorial
(docs/tutorial.md): importing it registers ``"liars-dice"`` and its
encodings for :mod:`meeple.rl`. It imports only the engine and the
encoding declarations (:mod:`meeple.rl.encoding`, which needs no NumPy).
"""
