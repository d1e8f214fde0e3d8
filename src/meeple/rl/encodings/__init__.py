"""The encodings of the bundled games, one module per game: ``meeple.rl.encodings.<game>``.

A module here declares a bundled game's fixed action space and observation
layout with a function ``encoding(seats, options) ->``
:class:`~meeple.rl.encoding.Encoding`, built on the game's public view and
command classes; :func:`meeple.rl.encoding.encoding_factory` finds it by the
game's id (``-`` written ``_``). A game's own package cannot hold it, since
a game imports only the engine. ``docs/rl.md`` documents each layout.
"""
