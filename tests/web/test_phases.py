"""What the play page shows between moves: a round's summary, the turn clock, and the end screen.

The matches here run on a tiny turn clock: the person's seat is played by
the match's fallback bot whenever its time runs out, so a whole round or
match goes by without clicks, and the tests wait for what the page shows
(never for a time). What the page shows is checked against what the seat
was sent (its frames): the round's roles and gold goal, the record the
clock played, the final view.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from positions import whole
from serverkit import ThreadServer
from webkit import http_json

#: Desktop and phone.
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
#: The page shows the end of the match.
OVER = "document.body.dataset.over === 'true'"


@pytest.fixture(params=list(SIZES))
def sized(request: Any, browser: Any) -> Iterator[Any]:
    """A page at desktop or phone size; fails the test on any script error the page met."""
    phone = request.param == "phone"
    context = browser.new_context(viewport=SIZES[request.param], has_touch=phone, is_mobile=phone, locale="en-GB")
    context.set_default_timeout(60_000)
    page = context.new_page()
    page.frames_seen, page.errors_seen = [], []
    page.on("pageerror", lambda e: page.errors_seen.append(f"page error: {e}"))
    page.on("console", lambda m: page.errors_seen.append(m.text) if m.type == "error" else None)
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: page.frames_seen.append(f if isinstance(f, str) else f.decode())))
    page.size = request.param
    yield page
    errors = [e for e in page.errors_seen if "Failed to load resource" not in e]
    context.close()
    assert not errors, errors


def _timed(page: Any, server: ThreadServer, game: str, seats: int, clock: float, variant: str | None = None) -> str:
    """A match of ``game`` with random bots beside seat 0 and a per-move ``clock``; this page takes seat 0."""
    spec: dict[str, Any] = {"game": game, "seats": seats, "bots": {str(s): "random" for s in range(1, seats)},
                            "clock": clock, "fallback_bot": "random"}
    if variant is not None:
        spec["variant"] = variant
    match = http_json(server.base, "/api/matches", spec)
    page.goto(f"{server.base}/play/{match['id']}")
    page.click("#join button.join")
    page.wait_for_selector("body[data-seat='0']")
    return str(match["id"])


def _frames(page: Any) -> list[dict[str, Any]]:
    """Every message the page's socket received (a ``sized`` page's or a ``page`` fixture's)."""
    raw = page.frames_seen if hasattr(page, "frames_seen") else page.recorder.frames
    return whole(raw)


def _events(page: Any, kind: str | None) -> list[dict[str, Any]]:
    """The events of type ``kind`` (None: all) in the records this page was sent, in order (by record seq)."""
    records: dict[int, dict[str, Any]] = {}
    for msg in _frames(page):
        for r in msg.get("records", []):
            records[r["seq"]] = r
    return [e for _, r in sorted(records.items()) for e in r["events"] if kind is None or e["type"] == kind]


def _seq_of(page: Any, kind: str) -> int:
    """The seq of the first record this page was sent with an event of type ``kind``."""
    return min(r["seq"] for m in _frames(page) for r in m.get("records", []) if any(e["type"] == kind for e in r["events"]))


@pytest.mark.parametrize(("variant", "seats"), [("standard", 3), ("deluxe", 4)])
def test_a_saboteur_round_end_shows_a_summary_that_waits_for_the_player(sized: Any, web_server: ThreadServer,
                                                                         variant: str, seats: int) -> None:
    page = sized
    _timed(page, web_server, "saboteur", seats, 0.05, variant)
    page.wait_for_selector("#summary:not([hidden])")
    text = page.inner_text("#summary")
    ended = _events(page, "round_ended")[0]
    assert "Round 1 is over" in text
    assert f"the {ended['team'].replace('+', ' + ')} won" in text
    roles = page.eval_on_selector_all("#summary .round-table td.role", "(tds) => tds.map((td) => td.textContent)")
    assert roles == [r.replace("-", " ") for r in ended["roles"]]  # every dwarf card, as the round's end showed them
    everything = _events(page, None)
    round_one = everything[:everything.index(ended)]
    revealed = [e for e in round_one if e["type"] == "goal_revealed" and e["kind"] == "gold"]
    if revealed:
        place = ("top", "middle", "bottom")[revealed[0]["goal"]]
        assert f"The gold was under the goal: {place}." in text
    else:
        assert "Nobody reached the gold" in text
    won = page.eval_on_selector_all("#summary tr.winner", "(trs) => trs.map((tr) => Number(tr.dataset.seat))")
    assert won == ended["winners"]
    payout = everything[everything.index(ended):]
    payout = payout[:next((i for i, e in enumerate(payout) if e["type"] == "dealt"), len(payout))]
    own = sum((e.get("value") or 0) + (e.get("amount") or 0) for e in payout
              if e["type"] in ("gold_paid", "gold_taken") and e["seat"] == 0)
    own += sum(1 if e["seat"] == 0 else -1 for e in payout if e["type"] == "stolen" and 0 in (e["seat"], e["target"]))
    assert page.inner_text("#summary tr[data-seat='0'] td.total") == str(own)  # seat 0 sees its own gold
    assert "secret" not in page.inner_text("#summary tr[data-seat='0'] td.gold")
    for s in range(1, seats):  # the others' stays secret until the end
        assert page.inner_text(f"#summary tr[data-seat='{s}'] td.total") == "secret"
    box = page.eval_on_selector("#summary", "(e) => e.getBoundingClientRect().right")
    assert box <= SIZES[page.size]["width"]

    paid = _seq_of(page, "payout_done")
    page.wait_for_function(f"(c) => Number(document.body.dataset.cursor) > c + 2 || {OVER}", arg=paid)
    assert int(page.get_attribute("body", "data-cursor") or 0) > paid + 2  # the board went on with round 2
    assert "Round 1 is over" in page.inner_text("#summary") and page.is_visible("#summary")  # the summary stayed
    page.click("#summary button.dismiss")
    assert page.is_hidden("#summary") or "Round 2 is over" in page.inner_text("#summary")  # the next one waits its turn
    page.reload()
    page.wait_for_selector("body[data-seat='0']")
    page.wait_for_function("(c) => Number(document.body.dataset.cursor) > c", arg=paid)
    assert page.is_hidden("#summary") or "Round 1" not in page.inner_text("#summary")  # dismissed for good


def test_the_clock_counts_down_and_marks_the_move_it_played(sized: Any, web_server: ThreadServer) -> None:
    page = sized
    _timed(page, web_server, "liars-dice", 2, 1.5)
    page.wait_for_selector("#clock[data-mine=true]:visible")
    shown = page.inner_text("#clock")
    assert "left for your move" in shown and ":0" in shown
    page.wait_for_selector("#log .by-clock", state="attached")  # on a phone the record may be folded away
    page.wait_for_selector(".toast:has-text('Time ran out: a move was played for you.')")
    timed = next(m for m in _frames(page) if m.get("type") == "update" and m.get("cause") == "clock")
    record = timed["records"][0]
    assert record["by_clock"] is True and record["actor"] == 0
    mark = page.text_content(f"#log li[value='{record['seq']}'] .by-clock")
    assert mark == "time ran out: played for you"
    others = page.eval_on_selector_all("#log li", "(lis) => lis.filter((li) => !li.querySelector('.by-clock')).length")
    assert others >= 1  # the bot's and the engine's records carry no mark


#: (game, variant, seats, what the rule line must say, the breakdown's column heads)
ENDS = [
    ("kings", None, 2, "each developed mine scores plus its value", ["developed", "owned, not developed", "points"]),
    ("gophers", None, 2, "the face-up pile counts plus, the face-down pile minus", ["face-up pile", "face-down pile", "score"]),
    ("mordred", "short", 3, "Mordred", None),
    ("saboteur", None, 3, "After three rounds the most gold wins", ["round 1", "round 2", "round 3", "gold in all"]),
]


@pytest.mark.parametrize(("game", "variant", "seats", "rule", "heads"), ENDS, ids=[e[0] for e in ENDS])
def test_the_end_screen_says_how_the_winner_was_decided(page: Any, web_server: ThreadServer, game: str,
                                                        variant: str | None, seats: int, rule: str,
                                                        heads: list[str] | None) -> None:
    _timed(page, web_server, game, seats, 0.05, variant)
    page.wait_for_selector("#outcome:not([hidden])", timeout=240_000)
    outcome = [m for m in _frames(page) if m.get("outcome")][-1]["outcome"]
    title = page.inner_text("#outcome h2")
    assert title != "Over"
    assert title.startswith("You won") if 0 in outcome["winners"] else title.startswith("You lost")
    reason = page.inner_text("#outcome .reason")
    assert reason != outcome["reason"] and reason.endswith(".") and reason[0].isupper()  # read by the page
    how = page.inner_text("#outcome .how")
    assert rule in how
    rows = page.eval_on_selector_all("#outcome table.breakdown tr[data-seat]",
                                     "(trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent))")
    assert len(rows) == seats
    found = page.eval_on_selector_all("#outcome table.breakdown th", "(ths) => ths.map((th) => th.textContent)")
    view = [m for m in _frames(page) if m.get("view")][-1]["view"]
    if game == "mordred":
        mordred = sum(1 for w in view["warriors"] if w) > sum(1 for b in view["buildings"] if b is not None)
        assert ("least advanced on his road" in how) == mordred and ("King Arthur wins" in how) != mordred
        heads = ["road (lowest wins)", "building points", "money"] if mordred else ["building points", "money", "road"]
        first = [int(r[1]) for r in rows]
        assert first == (view["road"] if mordred else outcome["scores"])
    assert found[1:-1] == heads
    for s, row in enumerate(rows):
        if game == "kings":
            developed = sum(m["value"] for m in view["developed"][s])
            owned = sum(m["mine"]["value"] for m in view["mines"] if m["owner"] == s)
            assert row[1].endswith(f"+{developed}") and row[2].endswith(f"−{owned}")
            assert int(row[3]) == outcome["scores"][s] == developed - owned
        elif game == "gophers":
            plus, minus = (sum(c["value"] for c in view[k][s]) for k in ("plus", "minus"))
            assert row[1].endswith(f"+{plus}") and row[2].endswith(f"−{minus}")
            assert int(row[3]) == outcome["scores"][s]
        elif game == "saboteur":
            assert int(row[4]) == outcome["scores"][s] == view["gold"][s]
        assert (row[-1] == "winner") == (s in outcome["winners"])
