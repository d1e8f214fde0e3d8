"""Group commit: the commands waiting for a worker share one store transaction.

Commands (``play`` requests and bot moves) do not each wait for a commit of
their own: they queue for their worker (:func:`enqueue`), which takes every
command waiting (up to :data:`GROUP_MAX`), plays them one after the other
inside one store transaction (:meth:`meeple.store.SqliteStore.batch`),
commits once, and only then hands what they send (acknowledgements and
updates) to the event loop. While a commit is on its way to the disk the
next commands gather, so the busier the server, the more commands share a
commit. If the commit fails, nothing of the batch was acknowledged: its
matches are read again from the store, their clients brought back to it,
and each requester told.

The lobby is written after the commit (:func:`lobby_write`): the group's
transaction holds the database while it runs.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from ..engine.wire import Json
from ..store.errors import StoreError
from . import messages
from .connection import Client
from .protocol import ErrorCode, ServerError
from .table import Table
from .workers import Worker, current

log = logging.getLogger("meeple.server")

#: The most commands one group commit takes. Larger groups share an fsync among more commands, but every
#: command of a group waits for the last one before it is acknowledged, and the event loop waits for the
#: group to end before it sends anything: past a few commands, matches then move in lock-step with the
#: engine instead of beside it (measured in benchmarks/server_load.py --anchor, docs/server.md).
GROUP_MAX = 8


def enqueue(worker: Worker, fn: Callable[[], Any], refresh: Callable[[Table], None]) -> asyncio.Future[Any]:
    """Queue ``fn`` for ``worker``'s next group commit (from the loop); the future settles once it is committed.

    ``refresh`` reads a match again from the store (after a failed commit).
    """
    done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    with worker.queue_lock:
        worker.queue.append((done, fn))
        start = not worker.scheduled
        worker.scheduled = True
    if start:
        worker.submit(_commit, refresh)
    return done


def _commit(refresh: Callable[[Table], None]) -> None:
    """Run every queued command in one store transaction; send what they say once it is committed."""
    worker = current()
    with worker.queue_lock:
        items, worker.queue = worker.queue[:GROUP_MAX], worker.queue[GROUP_MAX:]
        if worker.queue:  # the rest in the next group, after what else waits for this thread
            worker.submit(_commit, refresh)
        else:
            worker.scheduled = False
    outcomes: list[tuple[bool, Any]] = []

    def run_all() -> None:
        for _, fn in items:
            try:
                outcomes.append((True, fn()))
            except Exception as e:
                outcomes.append((False, e))

    worker.batching, worker.deferred, worker.touched, worker.requesters = True, [], {}, []
    try:
        with worker.store.store.batch():
            run_all()
        worker.commits += 1
        worker.commands += len(items)
    except StoreError as e:
        if not outcomes:  # the transaction did not begin: each command on its own, as without grouping
            worker.batching = False
            run_all()
        else:  # the commit failed: nothing of the batch is stored, nothing was sent
            log.error("a group commit of %d commands failed: %s", len(items), e)
            _undo(worker, e, refresh)
    finally:
        worker.batching = False
        deferred, worker.deferred = worker.deferred, []
        worker.touched, worker.requesters = {}, []
    for write in deferred:  # the lobby's side of the commands, now that they are stored
        try:
            write()
        except StoreError as e:
            log.error("the lobby could not note a committed command (%s); it is corrected on reload", e)
    outbox = worker.outbox
    assert outbox is not None
    settled = [(done, *outcome) for (done, _), outcome in zip(items, outcomes, strict=True)]
    outbox.flush(lambda: _settle(settled))  # what they say, then their answers: one wake-up of the loop


def _undo(worker: Worker, error: StoreError, refresh: Callable[[Table], None]) -> None:
    """A group's commit failed: nothing it sent goes out; its matches and every requester are brought back.

    Every request of the group is answered ``store_error``, the refused ones
    too (their refusals were among what is not sent), and every client of the
    matches it touched gets the stored position anew.
    """
    outbox = worker.outbox
    assert outbox is not None
    outbox.discard()
    worker.deferred = []
    worker.batching = False
    tables = dict(worker.touched)
    tables.update((c.table.id, c.table) for c, _ in worker.requesters if c.table is not None)
    for table in tables.values():
        refresh(table)
        for client in list(table.clients):  # what the group told them was never sent
            table.sync(client)
    refused = ServerError(ErrorCode.STORE_ERROR, f"the store could not commit the command: {error}")
    for client, ref in worker.requesters:
        client.send(messages.error(refused, ref))


def _settle(items: list[tuple[asyncio.Future[Any], bool, Any]]) -> None:
    for done, ok, value in items:
        if done.done():
            continue
        if ok:
            done.set_result(value)
        else:
            done.set_exception(value)


def lobby_write(fn: Callable[..., Any], *args: Any) -> None:
    """Write to the lobby now, or after the group commit under way (its transaction holds the database)."""
    worker = current()
    if worker.batching:
        worker.deferred.append(lambda: fn(*args))
    else:
        fn(*args)


def requested(client: Client, ref: Json) -> None:
    """Note a client's request run in the group under way: if its commit fails, it is answered ``store_error``."""
    worker = current()
    if worker.batching:
        worker.requesters.append((client, ref))


def committed(table: Table) -> None:
    """Note that a command of ``table`` was written in the group under way (to read again if its commit fails)."""
    worker = current()
    if worker.batching:
        worker.touched[table.id] = table
