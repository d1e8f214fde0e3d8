"""Shared test set-up: hypothesis profiles for CI, and a real PostgreSQL server for the tests that need one."""

from __future__ import annotations

import glob
import importlib.util
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", deadline=None, max_examples=30, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("ci", deadline=None, max_examples=30, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
settings.register_profile("thorough", deadline=None, max_examples=500, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default"))


# -- the tiers ------------------------------------------------------------------------------------------
#
# A test marked ``slow`` takes seconds or more; ``pytest -m "not slow"`` (``nox
# -s quick``) leaves them out, CI runs them all. Besides the marks in the test
# files, every test that starts a real browser or database server through one
# of these fixtures is slow.

#: Fixtures that start a real program (Chromium, a PostgreSQL cluster): a test using one is slow.
SLOW_FIXTURES = frozenset({"browser", "postgres_server", "new_postgres_server"})


@pytest.hookimpl(tryfirst=True)  # before ``-m`` selects by marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``slow`` every test that uses a fixture of :data:`SLOW_FIXTURES`."""
    for item in items:
        if SLOW_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


# -- a real PostgreSQL server for the tests that need one ---------------------------------------------
#
# `postgres_server` (session scope) starts a throw-away cluster of the Debian
# `postgresql` package: initdb and pg_ctl in a temporary directory, listening
# on a Unix socket in that directory only, stopped and removed at the end. Under
# pytest-xdist each worker starts its own. As root, the server runs as the
# `postgres` system user (initdb refuses root). Where PostgreSQL is missing the
# fixture skips with the reason, and fails in CI (the `CI` variable set):
# `scripts/system-deps.sh` installs it.


def _postgres_bindir() -> Path | None:
    """The newest installed PostgreSQL's bin directory (Debian layout first, then the PATH)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: [int(x) if x.isdigit() else 0 for x in Path(p).parts[-3].split(".")])
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb and shutil.which("pg_ctl") else None


def _unavailable(reason: str) -> None:
    message = f"PostgreSQL tests need a server: {reason} (run scripts/system-deps.sh)"
    if os.environ.get("CI"):
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


class PostgresServer:
    """A PostgreSQL cluster in a temporary directory, reachable on a Unix socket in it."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        # a short path: a Unix socket path has at most 107 bytes, wherever TMPDIR points
        self.root = Path(tempfile.mkdtemp(prefix="meeple-pg-", dir="/tmp" if os.path.isdir("/tmp") else None))
        self.data = self.root / "data"
        self.port = 5432
        self._as: list[str] = []
        if os.geteuid() == 0:  # initdb refuses to run as root: run the server as the postgres user
            try:
                import pwd

                user = pwd.getpwnam("postgres")
            except KeyError:
                shutil.rmtree(self.root, ignore_errors=True)
                _unavailable("running as root, and there is no 'postgres' user to run the server as")
            os.chown(self.root, user.pw_uid, user.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"] if shutil.which("runuser") else [
                "setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--init-groups"]

    @property
    def dsn(self) -> str:
        """A libpq connection string for the superuser ``postgres`` and database ``postgres``."""
        return f"host={self.root} port={self.port} user=postgres dbname=postgres"

    def url(self, dbname: str = "postgres", **params: str) -> str:
        """The same as a ``postgresql://`` URL (with extra query parameters, e.g. ``schema=``)."""
        query = "&".join(f"{k}={quote(v, safe='')}" for k, v in
                         {"host": str(self.root), "port": str(self.port), "user": "postgres", **params}.items())
        return f"postgresql:///{dbname}?{query}"

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*self._as, *args], capture_output=True, text=True, check=check, timeout=120)

    def init(self) -> None:
        """Run initdb (superuser ``postgres``, trusted local connections)."""
        try:
            self._run(str(self.bindir / "initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust",
                      "-E", "UTF8", "--locale=C", "--no-sync")
        except subprocess.CalledProcessError as e:
            raise RuntimeError(f"initdb failed: {e.stderr.strip() or e.stdout.strip()}") from None

    def start(self) -> None:
        """Start the server and wait until it accepts connections."""
        options = f"-k {self.root} -c listen_addresses='' -p {self.port} -c max_connections=60"
        r = self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-l", str(self.root / "server.log"),
                      "-o", options, "-w", "-t", "60", "start", check=False)
        if r.returncode:
            log = (self.root / "server.log").read_text(errors="replace")[-2000:] if (self.root / "server.log").exists() else ""
            raise RuntimeError(f"pg_ctl start failed: {r.stderr.strip()} {log}")

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``mode="immediate"`` is a crash: no shutdown checkpoint, recovery on start)."""
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop", check=False)

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)


def _started_server() -> PostgresServer:
    if importlib.util.find_spec("psycopg") is None:
        _unavailable("the psycopg package is not installed (pip install -e '.[postgres]')")
    bindir = _postgres_bindir()
    if bindir is None:
        _unavailable("initdb and pg_ctl are not installed (Debian: apt-get install postgresql)")
    assert bindir is not None
    server = PostgresServer(bindir)
    try:
        server.init()
        server.start()
    except BaseException:
        server.remove()
        raise
    return server


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server for this test session (one per xdist worker), stopped at the end."""
    server = _started_server()
    yield server
    server.remove()


@pytest.fixture(scope="session")
def postgres_dsn(postgres_server: PostgresServer) -> str:
    """The libpq connection string of :func:`postgres_server` (superuser, database ``postgres``)."""
    return postgres_server.dsn


@pytest.fixture
def new_postgres_server() -> Iterator[Callable[[], PostgresServer]]:
    """Start servers of one's own (for tests that crash them); each is removed after the test."""
    made: list[PostgresServer] = []

    def make() -> PostgresServer:
        made.append(_started_server())
        return made[-1]

    yield make
    for server in made:
        server.remove()
