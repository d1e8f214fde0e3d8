"""No clipped or overlapping text on any board, and nothing offered under something else, in Chromium.

Each board (Saboteur base and Deluxe, Kings, Gophers standard and beginner,
Mordred) is measured at desktop (1280x800) and phone (390x844) size, in
English and in Russian, at a few positions of one match played by seeded
random choices: its start, its middle, a position chosen per game for what
it draws only then (Gophers' collect buttons beside the known deck, Kings'
fullest hand), and its end. A position is hosted as a fork of that match
(``/api/debug/logs/{id}/fork``) whose seats are all open: the browser takes
the seat to act and nothing moves until it clicks, so every position is the
same on every run. Where the board lets a card be picked first, one is, and
what it then offers is measured too. On every drawing (:data:`MEASURE`):

* a text of the SVG lies inside the shape it is drawn on (the smallest card,
  cell or panel under its centre; the drawing's own box where none is);
* no shape drawn later covers a text, and no two texts overlap (the last moves' seat tags,
  an overlay on a corner of what they mark, are not part of the layout);
* every offered element (``.act``) is the topmost element at its centre;
* no block of the page's panels is wider than its box where it does not scroll.

At desktop size every text of the drawing is also read at no less than
:data:`MIN_TEXT_PX` CSS pixels (its font size times the drawing's scale on
the page; :data:`SMALLEST`).

The debugger's diff box is measured the same way with a diff of two long logs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from serverkit import ThreadServer
from webkit import click, http_json, played, save, settle

import meeple

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
LOCALES = {"en": "en-GB", "ru": "ru-RU"}
#: (id, game, variant, seats, seed of the match)
BOARDS = [
    ("saboteur", "saboteur", "standard", 4, 3),
    ("saboteur-deluxe", "saboteur", "deluxe", 5, 4),
    ("kings", "kings", "standard", 2, 5),
    ("gophers", "gophers", "standard", 2, 6),
    ("gophers-beginner", "gophers", "beginner", 2, 7),
    ("mordred", "mordred", "standard", 3, 8),
]
#: Every problem of the drawing in #board and of the panels beside it, as sentences; [] when there is none.
MEASURE = """() => {
  const out = [];
  const SLACK = 1.5;
  const shown = (e) => e.getClientRects().length > 0 && (!e.checkVisibility || e.checkVisibility({ visibilityProperty: true }));
  const say = (e) => {
    const cls = (e.getAttribute('class') || '').trim().replace(/\\s+/g, '.');
    const data = Object.entries(e.dataset || {}).map(([k, v]) => `${k}=${v}`).join(',');
    const text = (e.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
    return `<${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}${cls ? '.' + cls : ''}${data ? ' ' + data : ''}>${text ? ' "' + text + '"' : ''}`;
  };
  const box = (e) => e.getBoundingClientRect();
  const inside = (a, b) => a.left >= b.left - SLACK && a.right <= b.right + SLACK && a.top >= b.top - SLACK && a.bottom <= b.bottom + SLACK;
  // the body of a line of text: its box without the line's leading above and below
  const band = (r) => ({ left: r.left + 1, right: r.right - 1, top: r.top + r.height * 0.2, bottom: r.bottom - r.height * 0.2 });
  const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  const filled = (s) => {
    const st = getComputedStyle(s);
    if (st.fill === 'none' || Number(st.fillOpacity) === 0 || Number(st.opacity) === 0) return false;
    const m = /rgba\\([^)]*,\\s*([\\d.]+)\\)/.exec(st.fill);
    return !(m && Number(m[1]) < 0.5);
  };
  const before = (a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
  for (const root of document.querySelectorAll('#board svg')) {
    // the last moves' seat tags (js/highlight.js) are laid over a corner of what they mark on purpose, until the
    // seat's next move: an overlay, not part of the drawing's layout
    const drawn = (e) => !e.closest('.touch-tag');
    const texts = [...root.querySelectorAll('text')].filter((t) => t.textContent.trim() && shown(t) && drawn(t));
    const shapes = [...root.querySelectorAll('rect, circle, ellipse, path, polygon')].filter((s) => shown(s) && filled(s) && drawn(s));
    const ctm = root.getScreenCTM();
    const vb = root.viewBox.baseVal;
    const drawing = { left: ctm.e + vb.x * ctm.a, top: ctm.f + vb.y * ctm.d, right: ctm.e + (vb.x + vb.width) * ctm.a, bottom: ctm.f + (vb.y + vb.height) * ctm.d };
    for (const t of texts) {
      const r = box(t);
      const cx = (r.left + r.right) / 2, cy = (r.top + r.bottom) / 2;
      let home = null, area = Infinity;
      for (const s of shapes) {
        if (!before(s, t)) continue;
        const b = box(s);
        if (s.tagName === 'path' && b.width * b.height < r.width * r.height) continue;
        if (cx >= b.left && cx <= b.right && cy >= b.top && cy <= b.bottom && b.width * b.height < area) { home = s; area = b.width * b.height; }
      }
      const frame = home ? box(home) : drawing;
      if (!inside(r, frame)) {
        out.push(`text ${say(t)} (${Math.round(r.width)}x${Math.round(r.height)} px) overflows ${home ? say(home.parentNode) + ' ' + home.tagName : 'the drawing'} (${Math.round(frame.right - frame.left)}x${Math.round(frame.bottom - frame.top)} px)`);
      }
      for (const s of shapes) {
        if (before(t, s) && meet(band(r), box(s))) { out.push(`${say(s.parentNode)} ${s.tagName} covers text ${say(t)}`); break; }
      }
    }
    for (let i = 0; i < texts.length; i++) {
      for (let j = i + 1; j < texts.length; j++) {
        if (meet(band(box(texts[i])), band(box(texts[j])))) out.push(`texts ${say(texts[i])} and ${say(texts[j])} overlap`);
      }
    }
  }
  // the page's panels: a block wider than its box where it does not scroll spills over its neighbours
  for (const e of document.querySelectorAll('main *')) {
    if (e.closest('svg') || !shown(e)) continue;
    const st = getComputedStyle(e);
    if (st.display.startsWith('inline') || st.display === 'contents') continue;
    if (st.overflowX === 'visible' && e.scrollWidth > e.clientWidth + 1) out.push(`${say(e)} is ${e.scrollWidth} px wide in a box of ${e.clientWidth} px`);
  }
  // what the board offers: the topmost element at its centre
  for (const a of document.querySelectorAll('.act')) {
    if (!shown(a)) continue;
    a.scrollIntoView({ block: 'center', inline: 'center' });
    const r = box(a);
    const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(hit === a || a.contains(hit))) out.push(`offered ${say(a)} is covered at its centre by ${hit ? say(hit) : 'nothing (outside the window)'}`);
  }
  return [...new Set(out)];
}"""


#: The least size, in CSS pixels, at which a text of a board is read at desktop size.
MIN_TEXT_PX = 9.0
#: The smallest text of the drawing in #board as the page shows it: [font size times the drawing's scale, its text].
SMALLEST = """() => {
  let least = null;
  for (const root of document.querySelectorAll('#board svg')) {
    const scale = root.getScreenCTM().a;
    for (const t of root.querySelectorAll('text')) {
      if (!t.textContent.trim() || t.getClientRects().length === 0) continue;
      if (t.checkVisibility && !t.checkVisibility({ visibilityProperty: true })) continue;
      const px = parseFloat(getComputedStyle(t).fontSize) * scale;
      if (least === null || px < least[0]) least = [Math.round(px * 100) / 100, t.textContent.trim().slice(0, 40)];
    }
  }
  return least;
}"""


def _positions(game: str, m: meeple.Match) -> dict[str, int]:
    """Where to look: record counts at which a seat is to act (the end aside), by name."""
    acting = [i for i, r in enumerate(m.records) if r.actor is not None and r.actor >= 0]
    chosen = {"start": acting[0], "middle": acting[len(acting) // 2], "end": len(m.records)}
    if game == "gophers":  # the collect buttons, beside the longest line of what the seat knows of the deck
        passes = [i for i in acting if type(m.records[i].command).__name__ == "Pass"]
        if passes:
            chosen["collecting"] = max(passes, key=lambda i: len(m.fork(i, seed=1).view(m.records[i].actor).known_deck))
    if game == "kings":  # the fullest hand of the seat to act
        chosen["fullest hand"] = max(acting, key=lambda i: len(m.fork(i, seed=1).view(m.records[i].actor).hand))
    return chosen


def _host(page: Any, base: str, log: str, at: int, seat: int | None) -> None:
    """Host the match at record ``at`` as a fork with every seat open; this page takes ``seat`` and shows it."""
    created = http_json(base, f"/api/debug/logs/{log}/fork", {"at": at})
    if seat is not None:
        joined = http_json(base, f"/api/matches/{created['id']}/join", {"seat": seat})
        page.evaluate("([id, seat, token]) => localStorage.setItem('meeple.seats', JSON.stringify({[id]: {seat, token}}))",
                      [created["id"], joined["seat"], joined["token"]])
    page.goto(f"{base}/play/{created['id']}")
    page.wait_for_selector("#board svg")
    settle(page, "body[data-busy=false][data-acting=true], body[data-over=true]")


def _problems(page: Any) -> list[str]:
    return list(page.evaluate(MEASURE))


@pytest.mark.parametrize("lang", list(LOCALES))
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize(("name", "game", "variant", "seats", "seed"), BOARDS, ids=[b[0] for b in BOARDS])
def test_no_board_clips_or_covers_its_text_or_targets(browser: Any, web_server: ThreadServer, tmp_path: Path,
                                                       name: str, game: str, variant: str, seats: int, seed: int,
                                                       size: str, lang: str) -> None:
    m = played(game, seats, seed, options=meeple.get_game(game).variant_options(variant))
    opened = http_json(web_server.base, "/api/debug/logs", raw=m.to_bytes())
    context = browser.new_context(viewport=SIZES[size], locale=LOCALES[lang], has_touch=size == "phone",
                                  is_mobile=size == "phone")
    context.set_default_timeout(30_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    found: dict[str, list[str]] = {}
    try:
        page.goto(web_server.base + "/")
        for where, at in _positions(game, m).items():
            fork = m.fork(at, seed=1)
            _host(page, web_server.base, opened["id"], at, fork.to_act[0] if fork.to_act else None)
            found[where] = _problems(page)
            picks = page.query_selector_all("#board .act:not(.target)")
            if picks:  # a card picked first: what the board then offers for it
                picks[0].click()
                page.wait_for_selector("#board .selected, #choices:not([hidden])")
                settle(page, "body[data-busy=false]")
                found[f"{where}, a card picked"] = _problems(page)
    finally:
        context.close()
    assert errors == []
    bad = {where: problems for where, problems in found.items() if problems}
    assert bad == {}, json.dumps(bad, ensure_ascii=False, indent=1)


@pytest.mark.parametrize("lang", list(LOCALES))
@pytest.mark.parametrize("size", list(SIZES))
def test_the_debuggers_diff_box_keeps_to_its_panel(browser: Any, web_server: ThreadServer, tmp_path: Path,
                                                    size: str, lang: str) -> None:
    m = played("gophers", 2, seed=4, limit=40)
    other = m.fork(at=25, seed=12345)
    while other.cursor < 40 and not other.is_over:
        other.play(other.to_act[0], other.legal(other.to_act[0])[-1])
    context = browser.new_context(viewport=SIZES[size], locale=LOCALES[lang])
    context.set_default_timeout(30_000)
    page = context.new_page()
    try:
        page.goto(web_server.base + "/debug")
        page.wait_for_selector("body[data-ready=true]")
        page.set_input_files("#file", str(save(tmp_path / "a.meeple", m.to_bytes())))
        page.wait_for_selector("body[data-log][data-loading=false]")
        page.set_input_files("#diff-file", str(save(tmp_path / "b.meeple", other.to_bytes())))
        page.wait_for_selector("body[data-diff]")
        settle(page, "body[data-loading=false]")
        problems = page.evaluate(MEASURE)
    finally:
        context.close()
    assert problems == []


def test_kings_offers_every_mine_a_seat_owns_on_the_drawing(browser: Any, web_server: ThreadServer) -> None:
    # a seat that owns 17 mines may play onto the last of them: drawn in one line, it lay far past the
    # drawing's right edge (clipped), its centre under the side column, where the record took its clicks
    m = played("kings", 2, 103)
    at = 169
    fork = m.fork(at, seed=1)
    view = fork.view(0)
    owned = [x for x in view.mines if x.owner is not None]
    assert fork.to_act == (0,) and max(sum(1 for x in owned if x.owner == s) for s in (0, 1)) == 17
    opened = http_json(web_server.base, "/api/debug/logs", raw=m.to_bytes())
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="ru-RU")
    context.set_default_timeout(30_000)
    page = context.new_page()
    found: dict[str, list[str]] = {}
    try:
        page.goto(web_server.base + "/")
        _host(page, web_server.base, opened["id"], at, 0)
        card = 38  # it may go to any of 15 mines, the last mine of seat 0's seventeen among them
        click(page, page.query_selector(f"#board .squad[data-card='{card}']"))
        page.wait_for_selector(f"#board .squad.selected[data-card='{card}']")
        settle(page, "body[data-busy=false]")
        found[f"card {card}"] = _problems(page)
        offered = page.eval_on_selector_all("#board .mine.act", "(gs) => gs.map((g) => Number(g.dataset.mine))")
        click(page, page.query_selector("#board .mine.act[data-mine='27']"))  # drawn off the board before: the click reaches it
        page.wait_for_function("(at) => Number(document.body.dataset.cursor) > at", arg=at)
    finally:
        context.close()
    assert sorted(offered) == [1, 5, 9, 10, 11, 16, 18, 19, 22, 25, 26, 27, 28, 29, 30]
    assert {card: problems for card, problems in found.items() if problems} == {}


@pytest.mark.parametrize("lang", list(LOCALES))
@pytest.mark.parametrize(("name", "game", "variant", "seats", "seed"), BOARDS, ids=[b[0] for b in BOARDS])
def test_every_board_reads_at_desktop_size(browser: Any, web_server: ThreadServer,
                                            name: str, game: str, variant: str, seats: int, seed: int, lang: str) -> None:
    # drawings 630-1050 units wide were shrunk to the window's height: their small text read at 5-8 px
    m = played(game, seats, seed, options=meeple.get_game(game).variant_options(variant))
    opened = http_json(web_server.base, "/api/debug/logs", raw=m.to_bytes())
    context = browser.new_context(viewport=SIZES["desktop"], locale=LOCALES[lang])
    context.set_default_timeout(30_000)
    page = context.new_page()
    smallest: dict[str, tuple[float, str]] = {}
    try:
        page.goto(web_server.base + "/")
        for where, at in _positions(game, m).items():
            fork = m.fork(at, seed=1)
            _host(page, web_server.base, opened["id"], at, fork.to_act[0] if fork.to_act else None)
            least = page.evaluate(SMALLEST)
            assert least is not None, f"no text on the board at {where}"
            smallest[where] = (least[0], least[1])
    finally:
        context.close()
    print(name, lang, min(px for px, _ in smallest.values()))
    small = {where: least for where, least in smallest.items() if least[0] < MIN_TEXT_PX}
    assert small == {}, json.dumps(small, ensure_ascii=False)
