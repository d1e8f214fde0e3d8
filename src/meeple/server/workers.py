"""Engine workers: the threads that host matches, and the one way to run an operation on one.

Every operation that touches a match or the databases runs in the *engine
worker* that hosts the match, one operation at a time: the store's and the
lobby's connections belong to that worker's thread, a match needs no lock,
and the order in which operations run is the order in which clients are
told about them. A match belongs to one worker, chosen by a hash of its id
(the same in every process), so several workers let the database commit
for several matches at once.

:meth:`Worker.run` is the frame of every operation: it marks the thread as
the worker's (:func:`current`) and, when the operation ends, hands what it
sent to the event loop in one go (:class:`~meeple.server.connection.Outbox`).
:func:`operation` declares a method of the hub as an operation: its body is
written once, for the worker's thread, and calling it from the event loop
runs it there and returns its result.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import ctypes
import functools
import hashlib
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

from .connection import Client, Outbox
from .stores import Opened
from .table import Table

T = TypeVar("T")
P = ParamSpec("P")

_local = threading.local()


class Worker:
    """One engine thread: its own connections to the store and the lobby, and the matches it hosts."""

    def __init__(self, index: int) -> None:
        self.index = index
        name = f"meeple-engine-{index}"
        self.executor = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix=name, initializer=name_thread,
                                                              initargs=(name,))
        self.opened: Opened | None = None
        #: least recently used first (for the memory budget)
        self.tables: OrderedDict[str, Table] = OrderedDict()
        self.outbox: Outbox | None = None
        #: the store's notifications for this worker's matches (commits, and other processes' lobby notes),
        #: waiting to be read in one go, in order (meeple.server.peers)
        self.inbox: list[tuple[str, range | str]] = []
        self.inbox_lock = threading.Lock()
        self.draining = False
        #: commands waiting for the next group commit: (future, operation); the loop appends (meeple.server.group)
        self.queue: list[tuple[asyncio.Future[Any], Callable[[], Any]]] = []
        self.queue_lock = threading.Lock()
        self.scheduled = False
        #: inside a group commit: the lobby writes to make after it, the tables it moved, whom to tell if it fails
        self.batching = False
        self.deferred: list[Callable[[], Any]] = []
        self.touched: dict[str, Table] = {}
        self.requesters: list[tuple[Client, Any]] = []
        #: how many group commits and commands this worker made (for tests and tools)
        self.commits = 0
        self.commands = 0

    def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run one operation in this worker's thread; hand what it sends to the loop when it is done."""
        outbox = self.outbox
        assert outbox is not None
        outbox.thread = threading.get_ident()
        _local.worker = self
        try:
            return fn(*args)
        finally:
            outbox.flush()

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` as an operation of this worker, from the event loop; its result."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, self.run, fn, *args)

    def submit(self, fn: Callable[..., Any], *args: Any) -> None:
        """Queue ``fn(*args)`` as an operation of this worker (from any thread), not waiting for it."""
        self.executor.submit(self.run, fn, *args)

    @property
    def store(self) -> Opened:
        """The store and lobby of this worker (open between the hub's start and close)."""
        assert self.opened is not None, "the hub is not started"
        return self.opened


#: prctl's option that names the calling thread (Linux)
_PR_SET_NAME = 15


def name_thread(name: str) -> None:
    """Name the calling thread for the operating system too, where it can (Linux: at most 15 bytes).

    Tools that look at a process from outside see it then (``top -H``,
    ``/proc/<pid>/task/<tid>/comm``; ``benchmarks/server_load.py`` splits the
    server's CPU time by thread with it). Elsewhere it does nothing.
    """
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_NAME, ctypes.c_char_p(name.encode()[:15]), 0, 0, 0)
    except (OSError, AttributeError):  # no C library to call: the thread keeps the process's name
        pass


def current() -> Worker:
    """The worker whose thread this is (inside an operation)."""
    worker: Worker = _local.worker
    return worker


def worker_of(workers: Sequence[Worker], match_id: str) -> Worker:
    """The worker that hosts ``match_id`` (by a hash of the id: the same in every process)."""
    if len(workers) == 1:
        return workers[0]
    h = hashlib.blake2b(match_id.encode("utf-8", "surrogatepass"), digest_size=4).digest()
    return workers[int.from_bytes(h, "big") % len(workers)]


class Runs(Protocol):
    """What :func:`operation` needs of the object whose methods it declares."""

    async def submit(self, match_id: str | None, fn: Callable[[], T], *, grouped: bool = False) -> T:
        """Run ``fn()`` on the worker of ``match_id`` (None: the first), in a group commit if ``grouped``."""


H = TypeVar("H", bound=Runs)


def operation(route: Callable[..., str | None], grouped: Callable[..., bool] | None = None) -> Callable[
        [Callable[Concatenate[H, P], T]], Callable[Concatenate[H, P], Coroutine[Any, Any, T]]]:
    """Declare a method as an operation of the worker that ``route(*args)`` names (a match id; None: the first).

    The decorated method's body runs in that worker's thread (in the next
    group commit when ``grouped(*args)`` holds); the method, called on the
    event loop, awaits it and returns its result.
    """
    def declare(body: Callable[Concatenate[H, P], T]) -> Callable[Concatenate[H, P], Coroutine[Any, Any, T]]:
        async def call(self: H, /, *args: P.args, **kwargs: P.kwargs) -> T:
            run = functools.partial(body, self, *args, **kwargs)
            return await self.submit(route(*args, **kwargs), run,
                                     grouped=grouped is not None and grouped(*args, **kwargs))

        functools.update_wrapper(call, body)
        return call
    return declare
