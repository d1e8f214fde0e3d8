"""Compare two logs: where they part, what their headers say differently, and whether one descends from the other.

A fork (:meth:`Match.fork`) keeps its parent's first records and either the
parent's seed schedule (it continues the same random stream) or that schedule
cut at the fork point with a new seed from there on. :func:`diff_logs` reads
that relation back from two decoded logs:

* ``identical``: the same header and the same records;
* ``prefix``: one log's records are the start of the other's, with the same
  seeds (``longer`` names the log that goes on: a continuation, or a fork
  that has not played since);
* ``fork``: the logs share their first ``common`` records and then part.
  With a new seed, ``reseeded_at`` is the record from which the child
  (``child``: ``"a"`` or ``"b"``) draws from its own seed; with the same
  seeds, either log may be the fork of the other (or both of a common
  ancestor), so ``child`` is None;
* ``unrelated``: another game, rules version, seat count or options, or
  other seeds from the first record on (a fork at record 0 with a new seed
  is a new match).

>>> import meeple
>>> from meeple.engine import read_log
>>> a = meeple.Match.start("kings", seats=2, seed=1)
>>> for _ in range(6):
...     _ = a.play(a.to_act[0], a.legal(a.to_act[0])[0])
>>> b = a.fork(at=4, seed=99)
>>> d = diff_logs(read_log(a.to_bytes()), read_log(b.to_bytes()))
>>> d.relation, d.common, d.reseeded_at, d.child
('fork', 4, 4, 'b')
"""

from __future__ import annotations

from typing import Any, Literal

import attrs

from .engine import LoadedLog, Record, readable

Relation = Literal["identical", "prefix", "fork", "unrelated"]

#: The header fields compared, in the order they are reported.
HEADER_FIELDS = ("game", "rules", "seats", "options", "seeds", "commitment", "checkpoint_every", "engine", "format",
                 "meta")
#: The header fields two logs of one match (or of a fork and its parent) share.
SAME_MATCH = ("game", "rules", "seats", "options")


@attrs.frozen
class HeaderDifference:
    """One header field whose values differ (as JSON-ready data)."""

    field: str
    a: Any
    b: Any


@attrs.frozen
class LogDiff:
    """What :func:`diff_logs` found; see the module docstring for ``relation``."""

    relation: Relation
    common: int
    records_a: int
    records_b: int
    header: tuple[HeaderDifference, ...]
    first_difference: int | None
    longer: Literal["a", "b"] | None = None
    child: Literal["a", "b"] | None = None
    reseeded_at: int | None = None

    def summary(self) -> str:
        """One sentence for a person."""
        if self.relation == "identical":
            return f"identical: the same header and {self.common} records"
        if self.relation == "prefix":
            if self.longer is None:
                return f"the same {self.common} records (the headers differ)"
            other = "a" if self.longer == "b" else "b"
            return f"{self.longer} continues {other}: {other}'s {self.common} records are the start of {self.longer}"
        if self.relation == "fork":
            if self.child is not None:
                parent = "a" if self.child == "b" else "b"
                return (f"{self.child} is a fork of {parent} with a new seed from record {self.reseeded_at}; "
                        f"they share {self.common} records")
            return (f"they share {self.common} records and the same seeds, then part at record {self.first_difference} "
                    "(one is a fork of the other, or both of a common ancestor)")
        fields = ", ".join(d.field for d in self.header if d.field in (*SAME_MATCH, "seeds", "commitment"))
        return f"unrelated: different matches ({fields or 'seeds'} differ)"

    def to_json(self) -> dict[str, Any]:
        """The diff as JSON-ready data (the field names of ``meeple diff --json``)."""
        return {
            "relation": self.relation, "summary": self.summary(), "common": self.common,
            "records": {"a": self.records_a, "b": self.records_b},
            "first_difference": self.first_difference, "longer": self.longer, "child": self.child,
            "reseeded_at": self.reseeded_at,
            "header": [{"field": d.field, "a": d.a, "b": d.b} for d in self.header],
        }


def diff_logs(a: LoadedLog, b: LoadedLog) -> LogDiff:
    """Compare two decoded logs (see the module docstring)."""
    ha, hb = a.header.to_prim(), b.header.to_prim()
    header = tuple(HeaderDifference(f, _plain(ha[f]), _plain(hb[f])) for f in HEADER_FIELDS if ha[f] != hb[f])
    common = _common_prefix(a.records, b.records)
    na, nb = len(a.records), len(b.records)
    first = None if common == na == nb else common
    same_match = all(ha[f] == hb[f] for f in SAME_MATCH)
    if not same_match:
        return LogDiff("unrelated", common, na, nb, header, first)
    seeds_a, seeds_b = a.seeds, b.seeds
    same_seeds = seeds_a == seeds_b if seeds_a is not None and seeds_b is not None else ha["commitment"] == hb["commitment"]
    if same_seeds:
        if common == na == nb:
            rel: Relation = "identical" if not header else "prefix"
            return LogDiff(rel, common, na, nb, header, None)
        if common in (na, nb):
            return LogDiff("prefix", common, na, nb, header, common, longer="a" if na > nb else "b")
        return LogDiff("fork", common, na, nb, header, common)
    if seeds_a is not None and seeds_b is not None:
        for child, parent, kid in (("b", seeds_a, seeds_b), ("a", seeds_b, seeds_a)):
            at = _reseeded_at(parent, kid)
            if at is not None and at <= common:
                return LogDiff("fork", common, na, nb, header, first, child=child, reseeded_at=at)  # type: ignore[arg-type]
    return LogDiff("unrelated", common, na, nb, header, first)


def _plain(value: Any) -> Any:
    """A header value as JSON-ready data: byte strings as hex."""
    value = readable(value)
    return value.hex() if isinstance(value, bytes) else value


def _common_prefix(a: list[Record], b: list[Record]) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def _reseeded_at(parent: tuple[tuple[int, int], ...], child: tuple[tuple[int, int], ...]) -> int | None:
    """The record at which ``child``'s seed schedule leaves ``parent``'s for a new seed (:meth:`Match.fork`), or None."""
    if not child:
        return None
    at, _ = child[-1]
    if at > 0 and child[:-1] == tuple(s for s in parent if s[0] < at) and child[-1] not in parent:
        return at
    return None
