"""The HTTP lobby: games, creating, listing and joining matches, spectating; every refusal a JSON error."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from typing import Any

import httpx
import pytest
from serverkit import ThreadServer


def _error(response: httpx.Response) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


def test_a_fresh_server_answers_at_the_root(server: ThreadServer) -> None:
    page = httpx.get(server.base + "/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "lobby.js" in page.text
    r = httpx.get(server.base + "/api")
    assert r.status_code == 200
    body = r.json()
    assert body["name"] == "meeple" and body["protocol"] == 2 and body["protocols"] == [1, 2] and body["matches"] == "/api/matches"
    assert httpx.get(server.base + "/api/matches").json() == []


def test_games_list_variants_seat_ranges_options_and_bots(server: ThreadServer) -> None:
    games = {g["id"]: g for g in httpx.get(server.base + "/api/games").json()}
    assert {"saboteur", "kings", "gophers", "mordred", "liars-dice"} <= set(games)
    sab = games["saboteur"]
    assert {v["name"]: (v["min_seats"], v["max_seats"]) for v in sab["variants"]} == {"standard": (3, 10),
                                                                                       "deluxe": (2, 12)}
    assert {v["name"]: v["options"] for v in sab["variants"]}["deluxe"] == {"edition": "deluxe"}
    options = {o["name"]: o for o in sab["options"]}
    assert options["edition"]["schema"] == {"enum": ["base", "deluxe"]} and options["edition"]["default"] == "base"
    assert {"random", "heuristic"} <= set(sab["bots"]) and sab["default_fallback_bot"] == "heuristic"
    commands = {c["properties"]["type"]["const"]: c for c in sab["commands"]}
    assert commands["discard"]["secret"] == ["cards"]
    assert games["liars-dice"]["bots"] == ["random"]
    assert {v["name"]: v["hidden_information"] for v in games["gophers"]["variants"]} == {
        "standard": True, "simplified": True, "advanced": True, "beginner": False}  # the beginner bank is open
    one = httpx.get(server.base + "/api/games/kings").json()
    assert one == games["kings"]
    assert _error(httpx.get(server.base + "/api/games/chess")) == (404, "unknown_game")


@pytest.mark.parametrize(("spec", "status", "code"), [
    ({}, 400, "bad_message"),
    ({"game": "chess"}, 404, "unknown_game"),
    ({"game": "saboteur", "variant": "extreme"}, 400, "bad_config"),
    ({"game": "saboteur", "seats": 2}, 400, "bad_config"),
    ({"game": "saboteur", "seats": 11, "variant": "deluxe"}, 201, None),
    ({"game": "kings", "seats": "2"}, 400, "bad_config"),
    ({"game": "kings", "seats": 2, "options": {"speed": "fast"}}, 400, "bad_config"),
    ({"game": "kings", "seats": 2, "options": []}, 400, "bad_config"),
    ({"game": "kings", "seats": 2, "bots": {"2": "random"}}, 400, "unknown_seat"),
    ({"game": "kings", "seats": 2, "bots": {"-1": "random"}}, 400, "unknown_seat"),
    ({"game": "kings", "seats": 2, "bots": {"1": "genius"}}, 400, "unknown_bot"),
    ({"game": "kings", "seats": 2, "fallback_bot": "genius"}, 400, "unknown_bot"),
    ({"game": "kings", "seats": 2, "clock": 0}, 400, "bad_config"),
    ({"game": "kings", "seats": 2, "clock": True}, 400, "bad_config"),
    ({"game": "kings", "seats": 2, "clock": 30}, 201, None),
    ({"game": "kings", "seats": 2, "seed": 7}, 400, "bad_message"),  # a seed chosen by a client is no secret
    ({"game": "kings", "seats": 2, "name": "tab\there"}, 400, "bad_config"),
])
def test_creating_a_match_checks_everything(server: ThreadServer, spec: dict[str, Any], status: int,
                                            code: str | None) -> None:
    r = httpx.post(server.base + "/api/matches", json=spec)
    assert r.status_code == status, r.text
    if code is not None:
        assert r.json()["error"]["code"] == code and r.json()["error"]["message"]
    else:
        assert r.json()["status"] == "in_progress"


def test_bodies_that_are_not_json_objects_or_too_large_are_refused(small_server: ThreadServer) -> None:
    base = small_server.base + "/api/matches"
    as_json = {"Content-Type": "application/json"}
    assert _error(httpx.post(base, content=b"{nope", headers=as_json)) == (400, "bad_json")
    assert _error(httpx.post(base, content=b"[1]", headers=as_json)) == (400, "bad_json")
    assert _error(httpx.post(base, content=json.dumps({"game": "kings", "name": "x" * 4000}), headers=as_json)) == (
        413, "too_large")


def test_matches_are_listed_newest_first_and_filtered(server: ThreadServer) -> None:
    lobby = server.lobby
    kings = lobby.create(game="kings", seats=2, name="first")
    dice = lobby.create(game="liars-dice", seats=2, bots={"1": "random"})
    bots = lobby.create(game="mordred", seats=3, bots={"0": "random", "1": "random", "2": "random"})
    listed = lobby.matches()
    assert [m["id"] for m in listed][-1] == kings["id"] and {m["id"] for m in listed} == {kings["id"], dice["id"], bots["id"]}
    assert [m["id"] for m in lobby.matches(game="kings")] == [kings["id"]]
    assert {m["id"] for m in lobby.matches(open=True)} == {kings["id"], dice["id"]}
    assert len(lobby.matches(limit=1)) == 1 and len(lobby.matches(limit=2, offset=2)) == 1
    lobby.join(dice["id"])
    assert {m["id"] for m in lobby.matches(open=True)} == {kings["id"]}
    one = lobby.match(kings["id"])
    assert one["name"] == "first" and one["open_seats"] == [0, 1] and one["cursor"] >= 1
    assert [p["kind"] for p in lobby.match(dice["id"])["players"]] == ["human", "bot"]
    for query, code in [("?status=done", "bad_message"), ("?open=yes", "bad_message"), ("?limit=0", "bad_message"),
                        ("?limit=x", "bad_message"), ("?colour=red", "bad_message")]:
        assert _error(httpx.get(server.base + "/api/matches" + query)) == (400, code)
    assert _error(httpx.get(server.base + "/api/matches/nope")) == (404, "unknown_match")


def test_joining_gives_a_secret_token_of_which_only_a_hash_is_kept(server: ThreadServer) -> None:
    lobby = server.lobby
    m = lobby.create(game="kings", seats=3, bots={"2": "heuristic"})
    url = f"{server.base}/api/matches/{m['id']}/join"
    first = httpx.post(url, json={"name": "Ann"})
    assert first.status_code == 201 and first.headers["cache-control"] == "no-store"
    joined = first.json()
    assert joined["seat"] == 0 and len(joined["token"]) >= 43 and joined["ws"] == f"/api/matches/{m['id']}/ws"
    assert _error(httpx.post(url, json={"seat": 0})) == (409, "seat_taken")
    assert _error(httpx.post(url, json={"seat": 2})) == (409, "seat_taken")  # a bot's
    assert _error(httpx.post(url, json={"seat": 3})) == (400, "unknown_seat")
    assert _error(httpx.post(url, json={"seat": "1"})) == (400, "unknown_seat")
    assert _error(httpx.post(url, json={"name": "\x07bell"})) == (400, "bad_message")
    assert _error(httpx.post(url, json={"seat": 1, "colour": "red"})) == (400, "bad_message")
    second = httpx.post(url, json={}).json()
    assert second["seat"] == 1 and second["token"] != joined["token"]
    assert _error(httpx.post(url, json={})) == (409, "no_free_seat")
    assert _error(httpx.post(f"{server.base}/api/matches/nope/join", json={})) == (404, "unknown_match")
    players = lobby.match(m["id"])["players"]
    assert [(p["name"], p["taken"]) for p in players] == [("Ann", True), (None, True), (None, True)]
    # the database holds hashes of the tokens, never the tokens
    with open(server.store, "rb") as f:
        raw = f.read()
    with sqlite3.connect(server.store) as db:
        stored = {row[0] for row in db.execute("SELECT token FROM server_seats WHERE token IS NOT NULL")}
    assert stored == {hashlib.sha256(t.encode()).hexdigest() for t in (joined["token"], second["token"])}
    assert joined["token"].encode() not in raw


def test_spectating_over_http_shows_the_spectators_view(server: ThreadServer) -> None:
    m = server.lobby.create(game="liars-dice", seats=2)
    seen = server.lobby.view(m["id"])
    assert seen["view"]["seat"] is None and seen["view"]["my_dice"] == [] and seen["cursor"] == 1
    assert len(seen["head"]) == 32 and seen["outcome"] is None


def test_unknown_routes_and_methods_get_json_errors(server: ThreadServer) -> None:
    assert _error(httpx.get(server.base + "/api/nothing")) == (404, "not_found")
    assert _error(httpx.delete(server.base + "/api/matches")) == (405, "method_not_allowed")
