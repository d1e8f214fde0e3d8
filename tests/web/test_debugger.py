"""The replay debugger in a real browser: open a saved log and walk it, see it as a seat, undo and redo,
fork and continue the fork, find where a tampered log fails, and diff two logs."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from serverkit import ThreadServer
from webkit import click_through, forge, http_json, played, save

import meeple
from meeple.engine import ENGINE, seen_by
from meeple.server.debugger import describe


def cli(*args: str | Path) -> str:
    """What ``meeple ARGS`` prints (stdout)."""
    return subprocess.run([sys.executable, "-m", "meeple", *map(str, args)], capture_output=True, text=True,
                          timeout=120).stdout


def open_file(page: Any, base: str, path: Path) -> None:
    page.goto(base + "/debug")
    page.wait_for_selector("body[data-ready=true]")
    page.set_input_files("#file", str(path))
    page.wait_for_selector("body[data-log][data-loading=false]")


def at(page: Any) -> int:
    return int(page.get_attribute("body", "data-at") or -1)


def wait_at(page: Any, n: int) -> None:
    page.wait_for_selector(f"body[data-at='{n}'][data-loading=false]")


def test_a_saved_log_opens_and_steps_as_the_referee_and_as_a_seat(page: Any, web_server: ThreadServer,
                                                                   tmp_path: Path, screenshots: Path | None) -> None:
    m = played("saboteur", 4, seed=11, limit=60)
    path = save(tmp_path / "game.meeple", m.to_bytes())
    open_file(page, web_server.base, path)
    assert "verify: ok" in page.inner_text("#verdict")
    wait_at(page, m.cursor)  # a log that verifies opens at its end
    assert page.locator("#timeline .tick").count() == m.cursor
    page.click("#first")
    wait_at(page, 0)
    for n in (1, 2, 3):
        page.click("#next")
        wait_at(page, n)
    record = m.records[2]
    assert m.game.describe(record.command) in page.inner_text("#record")
    assert page.locator("#timeline .tick.current").get_attribute("data-seq") == "2"
    # jump, scrub by keys, and the referee's state shows what no seat sees
    page.fill("#jump", "40")
    page.dispatch_event("#jump", "change")
    wait_at(page, 40)
    page.click("#where")  # away from the input: the arrow keys step
    page.keyboard.press("ArrowLeft")
    wait_at(page, 39)
    page.fill("#scrub", "12")  # the slider
    wait_at(page, 12)
    page.click("#timeline .tick[data-seq='29']")  # a record on the timeline: the position after it
    wait_at(page, 30)
    page.fill("#jump", "39")
    page.dispatch_event("#jump", "change")
    wait_at(page, 39)
    m.seek(39)
    assert "pile" in page.inner_text("#board")  # the referee's state, as a tree
    # seen as seat 2: its board, its own hand, and others' secret commands redacted
    page.select_option("#as", "2")
    page.wait_for_selector("#board svg.saboteur")
    wait_at(page, 39)
    assert page.locator("#board g.card[data-slot]").count() == len(m.view(2).hand)
    texts = page.locator("#records li").all_inner_texts()
    for r, text in zip(m.records, texts):
        assert describe(m.game, seen_by(m.game, r, 2).command) in text
    if screenshots is not None:
        page.locator("main").screenshot(path=str(screenshots / "debugger.png"))
    # undo and redo go by whole commands, engine steps included, as Match.undo and Match.redo do
    m.undo()
    page.click("#undo")
    wait_at(page, m.cursor)
    m.redo()
    page.click("#redo")
    wait_at(page, m.cursor)


def test_a_fork_continues_on_the_server_against_bots(page: Any, web_server: ThreadServer, tmp_path: Path) -> None:
    m = played("kings", 2, seed=5, limit=30)
    k = next(i for i in range(20, 0, -1) if (m.seek(i) or True) and 0 in m.to_act)
    m.seek(m.cursor if False else 30)
    path = save(tmp_path / "kings.meeple", m.to_bytes())
    open_file(page, web_server.base, path)
    page.fill("#jump", str(k))
    page.dispatch_event("#jump", "change")
    wait_at(page, k)
    page.select_option("#fork-seats select[data-seat='1']", "bot:random")
    page.click("#fork")
    page.wait_for_url("**/play/**")
    page.wait_for_selector("body[data-cursor]")
    match_id = page.url.rsplit("/play/", 1)[1]
    assert int(page.get_attribute("body", "data-cursor") or 0) >= k
    click_through(page, seed=2, max_clicks=6, until=lambda n: n >= 6)
    desc = http_json(web_server.base, f"/api/matches/{match_id}")
    assert desc["cursor"] > k
    # the fork's first k records are the log's
    opened = http_json(web_server.base, "/api/debug/logs", raw=path.read_bytes())
    fork_records = http_json(web_server.base, f"/api/debug/logs/{opened['id']}/records?as=referee")["records"][:k]
    m.seek(30)
    assert [r["seq"] for r in fork_records] == list(range(k))


def test_a_tampered_log_fails_verify_at_its_first_bad_record(page: Any, web_server: ThreadServer,
                                                             tmp_path: Path) -> None:
    m = played("kings", 2, seed=9, limit=50)
    bad = 23

    def skip_a_draw(bodies: list[Any]) -> list[Any]:
        bodies[bad][4] += 1  # the RNG counter after record 23, re-chained: only re-deciding catches it
        return bodies

    path = save(tmp_path / "forged.meeple", forge(m.to_bytes(), skip_a_draw))
    assert not meeple.verify(path).ok
    open_file(page, web_server.base, path)
    page.wait_for_selector("body[data-verified=failed]")
    assert "verify: FAILED" in page.inner_text("#verdict")
    wait_at(page, bad + 1)  # it opens at the bad record
    tick = page.locator(f"#timeline .tick[data-seq='{bad}']")
    assert "bad" in (tick.get_attribute("class") or "")
    assert page.locator("#timeline .tick.unverified").count() == m.cursor - bad - 1
    assert "RNG counter differs" in page.inner_text("#records li.bad")
    # one numbering: the debugger names the bad record as meeple verify does, counted from 0 as the log is
    assert page.inner_text("#goto-bad") == f"show record {bad}"
    assert f"(record {bad}, byte " in cli("verify", path)
    assert page.evaluate("document.querySelector('#records li.bad').value") == bad
    assert page.inner_text("#record-title").startswith(f"Record {bad} ")
    assert "verify failed here" in page.inner_text("#record")
    assert page.locator("#fork").is_disabled()  # the records after a bad one are not forked
    # bytes changed in place: the chain breaks there, and what comes before still reads
    data = bytearray(m.to_bytes())
    from meeple.engine.log import iter_frames

    frames = list(iter_frames(bytes(data)))
    data[frames[31].offset + 10] ^= 0x40  # inside record 30's frame
    path2 = save(tmp_path / "flipped.meeple", bytes(data))
    open_file(page, web_server.base, path2)
    page.wait_for_selector("body[data-verified=failed]")
    assert "hash chain" in page.inner_text("#verdict")
    assert "bad" in (page.locator("#timeline .tick[data-seq='30']").get_attribute("class") or "")
    assert page.locator("#timeline .tick").count() == 31


def test_diff_shows_where_two_logs_part(page: Any, web_server: ThreadServer, tmp_path: Path) -> None:
    m = played("gophers", 2, seed=4, limit=40)
    other = m.fork(at=25, seed=12345)
    while other.cursor < 40 and not other.is_over:
        seat = other.to_act[0]
        other.play(seat, other.legal(seat)[-1])
    open_file(page, web_server.base, save(tmp_path / "a.meeple", m.to_bytes()))
    page.set_input_files("#diff-file", str(save(tmp_path / "b.meeple", other.to_bytes())))
    page.wait_for_selector("body[data-diff]")
    text = page.inner_text("#diff")
    first = next(i for i, (x, y) in enumerate(zip(m.records, other.records)) if x != y)
    assert f"part at record {first}." in text and "seeds differs" in text
    said = re.search(r"first difference, record (\d+)", cli("diff", tmp_path / "a.meeple", tmp_path / "b.meeple"))
    assert said is not None and int(said.group(1)) == first  # the same number as meeple diff
    page.click("#goto-diff")
    wait_at(page, first + 1)  # position first + 1: the table after record first
    assert page.inner_text("#record-title").startswith(f"Record {first} ")
    current = page.locator("#records li.current")
    assert current.get_attribute("data-seq") == str(first) and current.evaluate("(li) => li.value") == first


def test_a_finished_match_of_the_server_opens_from_its_page(page: Any, web_server: ThreadServer) -> None:
    created = web_server.lobby.create(game="mordred", seats=3, bots={"0": "random", "1": "random", "2": "random"})
    page.goto(f"{web_server.base}/play/{created['id']}")
    page.wait_for_selector("body[data-over=true]", timeout=60_000)
    page.click("#outcome a")
    page.wait_for_selector("body[data-log][data-loading=false]")
    assert "verify: ok" in page.inner_text("#verdict")
    assert page.locator("#timeline .tick").count() > 0
    assert ENGINE == -1
