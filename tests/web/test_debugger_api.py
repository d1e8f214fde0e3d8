"""The replay debugger's API over HTTP: what each seat is shown, where undo and redo lead, forks, and every refusal."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from serverkit import ThreadServer, scan
from webkit import forge, played

import meeple
from meeple.engine import seen_by, to_wire
from meeple.server import debugger


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> ThreadServer:
    s = ThreadServer(str(tmp_path_factory.mktemp("debugger") / "debugger.db"))
    yield s  # type: ignore[misc]
    s.stop()


@pytest.fixture(scope="module")
def saboteur_log() -> bytes:
    return played("saboteur", 4, seed=3, limit=80).to_bytes()


@pytest.fixture
def saboteur(saboteur_log: bytes) -> meeple.Match:
    return meeple.Match.from_bytes(saboteur_log)


def upload(server: ThreadServer, data: bytes, name: str = "t") -> httpx.Response:
    return httpx.post(f"{server.base}/api/debug/logs", content=data, params={"name": name},
                      headers={"Content-Type": "application/octet-stream"})


def opened(server: ThreadServer, m: meeple.Match) -> str:
    r = upload(server, m.to_bytes())
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def error(r: httpx.Response) -> str:
    return str(r.json()["error"]["code"])


def test_a_seat_is_shown_its_view_and_the_records_as_it_sees_them(server: ThreadServer, saboteur: meeple.Match) -> None:
    m = saboteur
    log = opened(server, m)
    for seat in (None, 0, 3):
        who = "spectator" if seat is None else str(seat)
        records = httpx.get(f"{server.base}/api/debug/logs/{log}/records", params={"as": who}).json()["records"]
        assert [r["command"] for r in records] == [to_wire(seen_by(m.game, r, seat).command) for r in m.records]
        assert [r["events"] for r in records] == [[to_wire(e) for e in seen_by(m.game, r, seat).events] for r in m.records]
        assert all("rng" not in r for r in records)
        for n in (0, 17, len(records)):
            p = httpx.get(f"{server.base}/api/debug/logs/{log}/at/{n}", params={"as": who}).json()
            m.seek(n)
            assert p["view"] == to_wire(m.view(seat))
            assert p["legal"] == ([] if seat is None else [to_wire(c) for c in m.legal(seat)])


@pytest.mark.slow
def test_nothing_a_seat_is_shown_holds_what_it_may_not_know(server: ThreadServer, saboteur: meeple.Match) -> None:
    m = saboteur
    log = opened(server, m)
    for seat in (None, 1, 2):
        who = "spectator" if seat is None else str(seat)
        texts = [httpx.get(f"{server.base}/api/debug/logs/{log}/records", params={"as": who}).text]
        for n in range(0, m.cursor + 1, 7):
            p = httpx.get(f"{server.base}/api/debug/logs/{log}/at/{n}", params={"as": who}).json()
            texts.append(json.dumps({"view": p["view"], "legal": p["legal"], "records": [p["record"]] if p["record"] else []},
                                    separators=(",", ":")))
        assert scan(texts, m, seat) == []


def test_the_referee_sees_the_raw_records_and_the_state(server: ThreadServer, saboteur: meeple.Match) -> None:
    m = saboteur
    log = opened(server, m)
    records = httpx.get(f"{server.base}/api/debug/logs/{log}/records", params={"as": "referee"}).json()["records"]
    assert [r["command"] for r in records] == [to_wire(r.command) for r in m.records]
    assert [r["rng"] for r in records] == [r.rng for r in m.records]
    p = httpx.get(f"{server.base}/api/debug/logs/{log}/at/30").json()
    m.seek(30)
    assert p["view"] == to_wire(m.state)


def test_undo_and_redo_lead_where_the_match_would_go(server: ThreadServer, saboteur: meeple.Match) -> None:
    m = saboteur
    log = opened(server, m)
    end = m.cursor
    for n in (1, 12, 40, end):
        p = httpx.get(f"{server.base}/api/debug/logs/{log}/at/{n}").json()
        m.seek(n)
        if m.can_undo():
            m.undo()
            assert p["undo_to"] == m.cursor
        else:
            assert p["undo_to"] is None
        m.seek(n)
        if m.can_redo():
            m.redo()
            assert p["redo_to"] == m.cursor
        else:
            assert p["redo_to"] is None


def test_a_fork_is_hosted_with_the_records_before_it(server: ThreadServer) -> None:
    m = played("kings", 2, seed=8, limit=40)
    log = opened(server, m)
    r = httpx.post(f"{server.base}/api/debug/logs/{log}/fork", json={"at": 21, "bots": {"1": "random"}})
    assert r.status_code == 201, r.text
    made = r.json()
    assert made["game"] == "kings" and made["open_seats"] == [0] and made["cursor"] >= 21
    copy = server.lobby.view(made["id"])
    assert copy["cursor"] >= 21
    again = httpx.post(f"{server.base}/api/debug/logs/{log}/fork", json={"at": 21, "new_seed": True}).json()
    assert again["id"] != made["id"]


@pytest.mark.parametrize(("data", "code"), [(b"", "bad_log"), (b"not a log at all", "bad_log"),
                                           (b"MEEPLE\x00\x01garbage", "bad_log")])
def test_what_is_not_a_log_is_refused(server: ThreadServer, data: bytes, code: str) -> None:
    r = upload(server, data)
    assert r.status_code == 422 and error(r) == code


def test_a_log_too_large_is_refused(server: ThreadServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(debugger, "MAX_LOG_BYTES", 100)
    r = upload(server, played("kings", 2, seed=1, limit=20).to_bytes())
    assert r.status_code == 413 and error(r) == "too_large"


def test_an_unknown_log_and_a_bad_seat_are_refused(server: ThreadServer, saboteur: meeple.Match) -> None:
    r = httpx.get(f"{server.base}/api/debug/logs/nope/at/0")
    assert r.status_code == 404 and error(r) == "unknown_log"
    log = opened(server, saboteur)
    r = httpx.get(f"{server.base}/api/debug/logs/{log}/at/0", params={"as": "9"})
    assert r.status_code == 400 and error(r) == "unknown_seat"
    r = httpx.get(f"{server.base}/api/debug/logs/{log}/at/100000")
    assert r.status_code == 400


def test_a_match_being_played_does_not_open(server: ThreadServer) -> None:
    made = server.lobby.create(game="kings", seats=2)
    r = httpx.post(f"{server.base}/api/debug/logs", json={"match": made["id"]})
    assert r.status_code == 409 and error(r) == "match_in_progress"
    r = httpx.post(f"{server.base}/api/debug/logs", json={"match": "no-such-match"})
    assert r.status_code == 404 and error(r) == "unknown_match"


def test_a_log_that_hides_its_seed_replays_but_does_not_fork(server: ThreadServer) -> None:
    m = played("kings", 2, seed=2, limit=30)
    r = upload(server, m.to_bytes(hide_seed=True))
    assert r.status_code == 201
    body = r.json()
    assert body["seed_hidden"] and not body["verify"]["ok"]
    r = httpx.post(f"{server.base}/api/debug/logs/{body['id']}/fork", json={"at": 3})
    assert r.status_code == 409 and error(r) == "seed_hidden"


def test_a_forged_log_opens_with_its_first_bad_record_and_forks_only_before_it(server: ThreadServer) -> None:
    m = played("kings", 2, seed=6, limit=40)

    def edit(bodies: list[Any]) -> list[Any]:
        bodies[17][4] += 1
        return bodies

    body = upload(server, forge(m.to_bytes(), edit)).json()
    assert body["verify"]["first_bad"]["record"] == 17 and body["readable"] == 40
    log = body["id"]
    r = httpx.post(f"{server.base}/api/debug/logs/{log}/fork", json={"at": 18})
    assert r.status_code == 400 and error(r) == "bad_config"
    assert httpx.post(f"{server.base}/api/debug/logs/{log}/fork", json={"at": 17}).status_code == 201


def test_the_oldest_log_is_closed_to_make_room(server: ThreadServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(debugger, "MAX_LOGS", 2)
    m = played("kings", 2, seed=1, limit=10)
    first, second, third = (opened(server, m) for _ in range(3))
    assert httpx.get(f"{server.base}/api/debug/logs/{first}").status_code == 404
    assert httpx.get(f"{server.base}/api/debug/logs/{third}").status_code == 200
    assert second != third


def test_a_log_downloads_cut_at_any_record(server: ThreadServer) -> None:
    m = played("mordred", 3, seed=4, limit=30)
    log = opened(server, m)
    data = httpx.get(f"{server.base}/api/debug/logs/{log}/log", params={"at": 12}).content
    cut = meeple.Match.from_bytes(data)
    assert cut.records == m.records[:12] and meeple.verify(data).ok
    assert httpx.get(f"{server.base}/api/debug/logs/{log}/log").content == m.to_bytes()


def test_a_seats_legal_commands_come_with_the_games_text_in_the_asked_language(server: ThreadServer,
                                                                                saboteur: meeple.Match) -> None:
    m = saboteur
    log = opened(server, m)
    n = m.cursor
    m.seek(n)
    while 1 not in m.to_act:  # the last position at which seat 1 may act
        n -= 1
        m.seek(n)
    for lang in ("en", "ru"):
        p = httpx.get(f"{server.base}/api/debug/logs/{log}/at/{n}", params={"as": "1", "lang": lang}).json()
        assert p["legal_text"] == [m.game.text(c, None, lang) for c in m.legal(1)]
    russian = httpx.get(f"{server.base}/api/debug/logs/{log}/at/{n}", params={"as": "1", "lang": "ru-RU"}).json()
    english = httpx.get(f"{server.base}/api/debug/logs/{log}/at/{n}", params={"as": "1"}).json()
    assert russian["legal_text"] != english["legal_text"]  # English unless asked
    assert httpx.get(f"{server.base}/api/debug/logs/{log}/at/{n}", params={"as": "spectator"}).json()["legal_text"] == []
