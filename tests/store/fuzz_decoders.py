"""A coverage-guided fuzzer (atheris) for every log and message decoder.

Not part of the test run (atheris is not a dependency); run it by hand::

    pip install atheris
    PYTHONPATH=src:examples python tests/store/fuzz_decoders.py --seed-corpus /tmp/corpus
    PYTHONPATH=src:examples python tests/store/fuzz_decoders.py /tmp/corpus -max_total_time=300

The first form writes a corpus of real logs (one per bundled game and the
example); the second fuzzes from it. The input is read as a log
(``read_log``, ``Match.from_bytes``, ``verify``, ``replay``), then again with
its hash chain recomputed (so mutations reach the decoders behind the chain,
as a forger's would), and as msgpack primitives for each game's
``Codec.command``, ``Codec.event`` and ``Codec.structure(state)``. Any
exception that is not a ``MeepleError`` is a finding.
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import Any


def _games() -> list[Any]:
    import meeple
    from meeple.engine import get_game

    out = []
    for gid in meeple.available():
        try:
            out.append(get_game(gid))
        except Exception:  # a game that does not load is not fuzzed
            continue
    return out


def write_corpus(directory: Path) -> None:
    """Write one short real log per game into ``directory``."""
    from meeple.testing import playout

    directory.mkdir(parents=True, exist_ok=True)
    for game in _games():
        seats = max(game.info.min_seats, min(3, game.info.max_seats))
        for steps in (0, 5, 40):
            data = playout(game, seats, seed=3, bot_seed=1, max_steps=steps).match.to_bytes()
            (directory / f"{game.info.id}-{steps}.meeple").write_bytes(data)


def fix_chain(data: bytes) -> bytes:
    """``data`` with every frame's hash recomputed (frames found by their length prefixes)."""
    from meeple.engine.log import HASH_SIZE, LENGTH, MAGIC, frame

    out = [data[: len(MAGIC)]]
    prev = MAGIC
    pos = len(MAGIC)
    while pos + 4 <= len(data):
        (length,) = LENGTH.unpack_from(data, pos)
        end = pos + 4 + length
        if length <= HASH_SIZE or end > len(data):
            break
        fr, prev = frame(data[pos + 4 : end - HASH_SIZE], prev)
        out.append(fr)
        pos = end
    out.append(data[pos:])
    return b"".join(out)


def main() -> None:
    import atheris  # type: ignore[import-untyped, import-not-found, unused-ignore]

    with atheris.instrument_imports():
        import msgpack

        import liars_dice  # noqa: F401
        import meeple
        from meeple import MeepleError
        from meeple.engine import codec_for, read_log

    if len(sys.argv) > 2 and sys.argv[1] == "--seed-corpus":
        write_corpus(Path(sys.argv[2]))
        return
    games = _games()
    codecs = [(g, codec_for(g)) for g in games]

    def one(data: bytes) -> None:
        as_log(data)
        as_log(fix_chain(data))
        as_prims(data)

    def as_log(data: bytes) -> None:
        try:
            log = read_log(data)
            log.to_match()
        except MeepleError:
            pass
        report = meeple.verify(data)
        assert report.ok or report.first_divergence is not None
        with contextlib.suppress(MeepleError):
            list(meeple.replay(data))

    def as_prims(data: bytes) -> None:
        try:
            prim = msgpack.unpackb(data, raw=False, strict_map_key=False)
        except Exception:
            return
        for game, codec in codecs:
            for decode in (codec.command, codec.event, lambda p, g=game, c=codec: c.structure(p, g.state_type)):
                with contextlib.suppress(MeepleError):
                    decode(prim)

    atheris.Setup(sys.argv, one)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
