"""Undo/redo tooling: a cursor over records, branches, and player undo barriers.

    python examples/undo_redo.py
"""

from __future__ import annotations

import liars_dice as ld
import meeple


def main() -> None:
    """Walk through undo, redo, a new branch and a refused player undo."""
    m = meeple.Match.start("liars-dice", 2, seed=99, options={"dice": 3})
    m.play(0, ld.Bid(2, 4))
    m.play(1, ld.Bid(3, 4))
    print("after two bids:", m.state.bids)

    print("can seat 1 undo its bid?", bool(m.can_undo(1)))
    m.undo(1)
    print("after seat 1's undo:", m.state.bids)
    m.redo()
    print("after redo:", m.state.bids)

    m.undo()  # tooling undo: unrestricted
    m.play(1, ld.Bid(2, 6))  # a new branch: the old redo is gone
    print("new branch:", m.state.bids, "can redo?", m.can_redo())

    check = m.can_undo(0)
    print("can seat 0 undo now?", bool(check), "-", check.reason)

    m.seek(1)  # straight to the position after the deal
    print("seek(1):", m.state.bids, "records:", len(m))
    branch = m.fork()
    branch.play(0, ld.Bid(1, 1))
    print("fork plays on alone:", branch.state.bids, "parent:", m.state.bids)


if __name__ == "__main__":
    main()
