"""Holding a game's encodings to their declaration, over random matches (no NumPy needed)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine import ENGINE, Match, RandomBot
from ..engine.registry import resolve
from .encoding import Encoding, EncodingError, encoding_for


def _flat(value: Any) -> list[float]:
    if hasattr(value, "tolist"):  # a NumPy array or scalar
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return [x for v in value for x in _flat(v)]
    return [float(value)]


def observe(encoding: Encoding, view: Any, seat: int, game: str = "") -> list[float]:
    """The flat observation of ``view``, each segment checked for its size and its bounds; :class:`EncodingError` if not."""
    obs = encoding.observation
    values = obs.encode(view, seat)
    unknown = set(values) - {s.name for s in obs.segments}
    if unknown:
        raise EncodingError(f"{game}: the encoder fills segments it does not declare: {sorted(unknown)}")
    out: list[float] = []
    for s in obs.segments:
        v = values.get(s.name)
        flat = [0.0] * s.size if v is None else _flat(v)
        if len(flat) != s.size:
            raise EncodingError(f"{game}: segment {s.name!r} has {len(flat)} values, not {s.size} (shape {s.shape})")
        bad = [x for x in flat if not (math.isfinite(x) and s.low <= x <= s.high)]
        if bad:
            raise EncodingError(f"{game}: segment {s.name!r} holds {bad[0]!r}, outside {s.low:g}..{s.high:g}")
        out.extend(flat)
    return out


def _check_steps(enc: Encoding, legal: Sequence[Any], view: Any, seat: int) -> None:
    steps = enc.steps
    assert steps is not None
    seen: dict[tuple[int, ...], Any] = {}
    for cmd in legal:
        tokens = tuple(steps.tokens(cmd, view, seat))
        if not tokens or any(isinstance(t, bool) or not isinstance(t, int) or not 0 <= t < steps.size for t in tokens):
            raise EncodingError(f"{cmd!r} has steps {tokens!r}: one or more, each in 0..{steps.size - 1}")
        for t in tokens:
            steps.label(t)
        seen[tokens] = cmd
    if len(seen) != len(legal):
        raise EncodingError("two legal commands have the same steps")
    for tokens, cmd in seen.items():
        for k in range(1, len(tokens)):
            if tokens[:k] in seen:
                raise EncodingError(f"the steps of {seen[tokens[:k]]!r} begin those of {cmd!r}")


def check_encoding(
    game: Any,
    seats: int,
    options: Mapping[str, Any] | None = None,
    seeds: Sequence[int] | range = range(3),
    max_steps: int = 2000,
) -> int:
    """Play random matches and check a game's encodings at every step; return the number of steps checked.

    At every position, for every seat: the observation has each segment's
    size, within its bounds, and is the same for the same view; for the
    seat to act, every legal command has an action id in the space, no two
    legal commands share one, and every id has a label; where the game
    declares a step space, every legal command has steps in it, none the
    beginning of another's, each with a label. Raises
    :class:`EncodingError` naming the game, the seed and the step.
    """
    g = resolve(game)
    gid = g.info.id
    checked = 0
    for seed in seeds:
        m = Match.start(g, seats, seed=seed, options=options)
        enc = encoding_for(g, seats, m.options)
        bot = RandomBot(seed)
        for step in range(max_steps):
            where = f"{gid} seed {seed} step {step}"
            try:
                for seat in range(seats):
                    view = m.view(seat)
                    if observe(enc, view, seat, where) != observe(enc, m.view(seat), seat, where):
                        raise EncodingError(f"{where}: two observations of one view differ")
                acting = [s for s in m.to_act if s != ENGINE]
                if not acting:
                    break
                seat = acting[0]
                view = m.view(seat)
                legal = m.legal(seat)
                ids: dict[int, Any] = {}
                for cmd in legal:
                    a = enc.actions.index(cmd, view, seat)
                    if isinstance(a, bool) or not isinstance(a, int) or not 0 <= a < enc.actions.size:
                        raise EncodingError(f"{where}: {cmd!r} has action id {a!r}, outside 0..{enc.actions.size - 1}")
                    if a in ids:
                        raise EncodingError(f"{where}: {ids[a]!r} and {cmd!r} share action id {a}")
                    ids[a] = cmd
                    enc.actions.label(a)
                if enc.steps is not None:
                    _check_steps(enc, legal, view, seat)
            except EncodingError as e:
                if str(e).startswith(where):
                    raise
                raise EncodingError(f"{where}: {e}") from e
            m.play(seat, bot.choose(view, legal, seat))
            checked += 1
    return checked
