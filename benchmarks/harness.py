"""Timing and reporting helpers of the benchmark suite.

Every figure is the median of several repeats (the machines are noisy); each
repeat runs its workload for at least a minimum time so that timer resolution
and one-off pauses do not dominate. Time is the process's CPU time, so other
processes on the machine slow a figure less than they would in wall time.
Comparisons are medians of ratios of repeats run back to back
(:func:`paired_ratio`). Figures are printed as one JSON line each
as they are measured, and collected for the table printed at the end.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class Budget:
    """How long to measure: ``repeats`` runs of at least ``min_time`` seconds each."""

    repeats: int
    min_time: float
    matches: int  # matches in a corpus (replay, verify, play)
    long_records: int  # records of the long match (undo, redo, seek)
    bot_matches: int = 4  # matches per batch of a bot's matches/s (each batch its own seeds)


QUICK = Budget(repeats=3, min_time=0.05, matches=12, long_records=10_000, bot_matches=4)
FULL = Budget(repeats=5, min_time=0.25, matches=40, long_records=10_000, bot_matches=8)


def rate(work: Callable[[], int], budget: Budget) -> float:
    """Median of ``budget.repeats`` rates (units per second) of ``work``.

    ``work()`` does one batch and returns how many units it did; it is called
    as often as needed to fill ``budget.min_time`` per repeat.
    """
    work()  # warm caches (codecs, generated hooks) outside the timing
    return statistics.median(_one_rate(work, budget.min_time) for _ in range(budget.repeats))


def _one_rate(work: Callable[[], int], min_time: float) -> float:
    units = 0
    start = time.process_time()
    elapsed = 0.0
    while elapsed < min_time or units == 0:
        units += work()
        elapsed = time.process_time() - start
    return units / elapsed


def paired_ratio(a: Callable[[], int], b: Callable[[], int], budget: Budget, scale: float = 1.0) -> float:
    """Median over ``budget.repeats`` of rate(a) / rate(b), the two measured back to back.

    Interleaving the repeats puts both sides of a comparison under the same
    load, so the ratio is steadier than one of two medians taken minutes apart.
    """
    a()
    b()
    ratios = []
    for i in range(budget.repeats):
        if i % 2:  # alternate which side goes first
            rb = _one_rate(b, budget.min_time)
            ra = _one_rate(a, budget.min_time)
        else:
            ra = _one_rate(a, budget.min_time)
            rb = _one_rate(b, budget.min_time)
        ratios.append(ra / rb * scale)
    return statistics.median(ratios)


def latency(op: Callable[[], object], budget: Budget, setup: Callable[[], object] | None = None, inner: int = 50) -> float:
    """Median time of one ``op()`` in seconds (``setup()`` runs untimed before each call)."""
    samples = []
    for _ in range(budget.repeats):
        total = 0.0
        for _ in range(inner):
            if setup is not None:
                setup()
            t0 = time.process_time()
            op()
            total += time.process_time() - t0
        samples.append(total / inner)
    return statistics.median(samples)


@dataclass
class Figure:
    """One measured number: what, of which subject, its value and unit."""

    name: str
    subject: str
    value: float | None
    unit: str
    seats: int | None = None
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def line(self) -> str:
        """The figure as one JSON line."""
        d = asdict(self)
        if not d["extra"]:
            del d["extra"]
        return json.dumps(d, sort_keys=True)


class Report:
    """Collects figures, prints each as a JSON line, and prints a table at the end."""

    def __init__(self, out: Any = None, json_lines: bool = True) -> None:
        self.figures: list[Figure] = []
        #: the workloads behind key figures, by (subject, key), for paired ratios
        self.works: dict[tuple[str, str], Callable[[], int]] = {}
        self.out = out or sys.stdout
        self.json_lines = json_lines

    def add(self, fig: Figure) -> Figure:
        """Record ``fig`` and print its JSON line."""
        self.figures.append(fig)
        if self.json_lines:
            print(fig.line(), file=self.out, flush=True)
        return fig

    def note(self, name: str, subject: str, note: str) -> Figure:
        """Record a figure that could not be measured, with the reason."""
        return self.add(Figure(name, subject, None, "", note=note))

    def find(self, name: str, subject: str, seats: int | None = None) -> Figure | None:
        """The first figure with that name and subject (and seats, if given)."""
        for f in self.figures:
            if f.name == name and f.subject == subject and (seats is None or f.seats == seats):
                return f
        return None

    def table(self) -> str:
        """A readable table of every figure."""
        rows = [("subject", "seats", "figure", "value", "unit / note")]
        for f in self.figures:
            value = "-" if f.value is None else fmt(f.value)
            rows.append((f.subject, "" if f.seats is None else str(f.seats), f.name, value, f.note if f.value is None else (f.unit + (f"  ({f.note})" if f.note else ""))))
        widths = [max(len(r[i]) for r in rows) for i in range(4)]
        lines = []
        for i, r in enumerate(rows):
            lines.append("  ".join(r[j].ljust(widths[j]) if j != 3 else r[j].rjust(widths[j]) for j in range(4)) + "  " + r[4])
            if i == 0:
                lines.append("-" * (sum(widths) + 8 + 20))
        return "\n".join(lines)


def fmt(v: float) -> str:
    """A figure's value for a table: thousands separated, two decimals, or three significant digits."""
    if v == 0:
        return "0"
    if abs(v) >= 100:
        return f"{v:,.0f}"
    if abs(v) >= 1:
        return f"{v:.2f}"
    return f"{v:.3g}"
