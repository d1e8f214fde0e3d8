"""meeple: an event-sourced engine for tabletop games.

Every action is an immutable event folded into state by pure reducers, with a
seeded portable RNG and msgpack logs, so any match can be replayed, forked or
verified deterministically.

>>> import meeple
>>> m = meeple.Match.start("kings", seats=2, seed=1)
>>> m.to_act
(0,)
>>> seat = m.to_act[0]
>>> events = m.play(seat, m.legal(seat)[0])
>>> meeple.verify(m.to_bytes()).ok
True
"""

from ._version import __version__
from .engine import (
    ENGINE,
    Code,
    Command,
    ConfigError,
    CorruptLog,
    DecodeError,
    Event,
    ForeignFile,
    Game,
    GameInfo,
    IllegalCommand,
    LogError,
    Match,
    MeepleError,
    Options,
    Outcome,
    RandomBot,
    Rng,
    SeedHidden,
    TruncatedLog,
    UnknownGame,
    UnsupportedLog,
    VerifyReport,
    Wire,
    available,
    get_game,
    load,
    register,
    replay,
    to_wire,
    verify,
    wire_for,
)

__all__ = [
    "ENGINE", "Code", "Command", "ConfigError", "CorruptLog", "DecodeError", "Event", "ForeignFile", "Game",
    "GameInfo", "IllegalCommand", "LogError", "Match", "MeepleError", "Options", "Outcome", "RandomBot", "Rng",
    "SeedHidden", "TruncatedLog", "UnknownGame", "UnsupportedLog", "VerifyReport", "Wire", "__version__",
    "available", "get_game", "load", "register", "replay", "to_wire", "verify", "wire_for",
]
