"""The game-agnostic kernel: protocol, Match, RNG, codec, log, replay and verify."""

from .assembly import assemble
from .bot import Bot, RandomBot
from .codec import Codec, canonical, digest, readable, unstructure
from .errors import (
    BadPosition,
    Code,
    ConfigError,
    CorruptLog,
    DecodeError,
    ForeignFile,
    IllegalCommand,
    LogError,
    MeepleError,
    TruncatedLog,
    UnknownGame,
    UnsupportedLog,
)
from .game import ENGINE, Command, Event, Game, GameInfo, Message, NoWorldSampling, OlderRules, Options, Outcome, Seat
from .match import Match, SeedHidden, UndoCheck, codec_for
from .reader import Divergence, LoadedLog, Step, VerifyReport, load, read_log, read_path, replay, verify
from .records import Record, SeenRecord, seen_by
from .registry import available, get_game, register, resolve
from .rng import Rng
from .wire import Wire, to_wire, wire_for

__all__ = [
    "ENGINE",
    "BadPosition",
    "Bot",
    "Code",
    "Codec",
    "Command",
    "ConfigError",
    "CorruptLog",
    "DecodeError",
    "Divergence",
    "Event",
    "ForeignFile",
    "Game",
    "GameInfo",
    "IllegalCommand",
    "LoadedLog",
    "LogError",
    "Match",
    "MeepleError",
    "Message",
    "NoWorldSampling",
    "OlderRules",
    "Options",
    "Outcome",
    "RandomBot",
    "Record",
    "Rng",
    "Seat",
    "SeedHidden",
    "SeenRecord",
    "Step",
    "TruncatedLog",
    "UndoCheck",
    "UnknownGame",
    "UnsupportedLog",
    "VerifyReport",
    "Wire",
    "assemble",
    "available",
    "canonical",
    "codec_for",
    "digest",
    "get_game",
    "load",
    "read_log",
    "read_path",
    "readable",
    "register",
    "replay",
    "resolve",
    "seen_by",
    "to_wire",
    "unstructure",
    "verify",
    "wire_for",
]
