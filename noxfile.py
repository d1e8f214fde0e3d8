"""Developer sessions: ``nox -s tests typecheck lint demo screenshots bench paired server_load server_attacks seat_balance search_bots saboteur_ceiling rl_env``."""

from __future__ import annotations

import nox

nox.options.sessions = ["tests", "typecheck", "lint"]
nox.options.reuse_existing_virtualenvs = True


@nox.session
def tests(session: nox.Session) -> None:
    """The whole test suite (doctests included), on two workers."""
    session.install("-e", ".[dev]")
    session.run("python", "-m", "pytest", "-n", "2", *session.posargs)


@nox.session
def quick(session: nox.Session) -> None:
    """The quick tier: every test but those marked ``slow``, on two workers (CI runs every tier)."""
    session.install("-e", ".[dev]")
    session.run("python", "-m", "pytest", "-n", "2", "-m", "not slow", *session.posargs)


@nox.session
def typecheck(session: nox.Session) -> None:
    """mypy --strict on the package."""
    session.install("-e", ".[dev]")
    session.run("mypy", "--strict", "src/meeple")


@nox.session
def lint(session: nox.Session) -> None:
    """ruff on the package, the tests, the examples and the benchmarks."""
    session.install("ruff")
    session.run("ruff", "check", "src", "tests", "examples", "benchmarks", "noxfile.py")


@nox.session
def screenshots(session: nox.Session) -> None:
    """The pictures of docs/web.md (docs/images): every page in Chromium, desktop and phone, English and Russian."""
    session.install("-e", ".[dev,server]")
    session.run("python", "scripts/screenshots.py", *session.posargs)


@nox.session
def demo(session: nox.Session) -> None:
    """The main job: play, save, replay and verify a match of every game."""
    session.install("-e", ".")
    session.run("meeple", "demo", *session.posargs)


@nox.session
def bench(session: nox.Session) -> None:
    """The benchmark suite (JSON lines and a table); ``-- --quick`` for a short run.

    The ``bench`` extra (eventsourcing, OpenSpiel) is installed when the
    platform has it; without it those comparisons print "not installed".
    """
    session.install("-e", ".[dev]")
    session.run("python", "-m", "pip", "install", "-q", "-e", ".[bench]", success_codes=[0, 1])
    session.run("python", "benchmarks/run.py", *session.posargs)


@nox.session
def docs(session: nox.Session) -> None:
    """The API reference from the docstrings (Sphinx), warnings as errors, into docs/_build/."""
    session.install("-e", ".[dev]")
    session.run("python", "-m", "sphinx", "-W", "--keep-going", "-b", "html", "docs", "docs/_build/html")


@nox.session
def server_load(session: nox.Session) -> None:
    """Load on the server over loopback: commands/s and latency on SQLite and PostgreSQL (``-- --quick``)."""
    session.install("-e", ".[dev]")
    session.run("python", "benchmarks/server_load.py", *session.posargs)


@nox.session
def server_attacks(session: nox.Session) -> None:
    """Attacks on a real meeple serve: the server's memory and a bystander's latency (benchmarks/server_attacks.py)."""
    session.install("-e", ".[dev]")
    session.run("python", "benchmarks/server_attacks.py", *session.posargs)


@nox.session
def seat_balance(session: nox.Session) -> None:
    """Seat win rates of heuristic self-play under each end option (benchmarks/seat_balance.py)."""
    session.install("-e", ".")
    session.run("python", "benchmarks/seat_balance.py", *session.posargs)


@nox.session
def paired(session: nox.Session) -> None:
    """Playouts and bot matches against a base commit, timed in interleaved pairs (``-- --base COMMIT``)."""
    session.install("-e", ".[dev]")
    session.run("python", "benchmarks/paired.py", *session.posargs)


@nox.session
def search_bots(session: nox.Session) -> None:
    """The search bots' win rates against other bots, with 95 % intervals (benchmarks/search_bots.py)."""
    session.install("-e", ".[dev]")
    session.run("python", "benchmarks/search_bots.py", *session.posargs)


@nox.session
def saboteur_ceiling(session: nox.Session) -> None:
    """What an oracle search reaches in Saboteur, per role (benchmarks/saboteur_ceiling.py)."""
    session.install("-e", ".[dev]")
    session.run("python", "benchmarks/saboteur_ceiling.py", *session.posargs)


@nox.session
def rl_env(session: nox.Session) -> None:
    """Environment actions per CPU-second beside PettingZoo's tictactoe_v3 (benchmarks/rl_env.py)."""
    session.install("-e", ".[dev]")
    session.run("python", "benchmarks/rl_env.py", *session.posargs)


@nox.session
def mordred_fitted(session: nox.Session) -> None:
    """Mordred's fitted weights against the heuristic bot, and the search that found them."""
    session.install("-e", ".")
    session.run("python", "benchmarks/mordred_fitted.py", *session.posargs)
