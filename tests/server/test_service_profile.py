"""`GET /v1/profile` against a real `dualtrace serve` process: the user from the key, the
current values with their sources, `as_of`, `max_tokens`, `history`, and bad input named."""

from __future__ import annotations

import httpx
from service_live import Server, new_key

TURNS = [
    {
        "id": "p1",
        "role": "user",
        "content": "I live in Lyon with my partner.",
        "timestamp": "2025-01-05T10:00:00Z",
    },
    {
        "id": "p2",
        "role": "user",
        "content": "We have a dog named Rex.",
        "timestamp": "2025-01-05T10:01:00Z",
    },
    {
        "id": "p3",
        "role": "user",
        "content": "我们搬到了波尔多。",
        "timestamp": "2025-03-01T10:00:00Z",
    },
    {
        "id": "p4",
        "role": "user",
        "content": "My brother lives in Oslo.",
        "timestamp": "2025-03-01T10:05:00Z",
    },
]


def _client(server: Server, user: str) -> httpx.Client:
    if user not in server.keys:
        server.keys[user] = new_key(server.db, "--user", user)
        with server.as_(user) as c:
            r = c.post("/v1/memories", json={"messages": TURNS})
            assert r.status_code == 201, r.text
    return server.as_(user)


def test_the_profile_of_the_keys_user(server: Server) -> None:
    with _client(server, "pia") as c:
        body = c.get("/v1/profile").json()
        assert body["user_id"] == "pia"
        values = {v["attribute"]: v["value"] for v in body["values"]}
        assert values == {"lives_in": "波尔多", "pet": "dog named Rex"}
        people = [(v["subject"], v["attribute"], v["value"]) for v in body["people"]]
        assert people == [("the user's brother", "lives_in", "Oslo")]
        assert body["text"].index("Oslo") > body["text"].index("波尔多")
        home = next(v for v in body["values"] if v["attribute"] == "lives_in")
        assert home["since"].startswith("2025-03-01") and home["replaced"] == []
        assert home["city"] is None  # a city, not a district of one
        turn = c.get(f"/v1/memories/{home['sources'][0]}").json()
        assert turn["text"] == "我们搬到了波尔多。"
        assert "Lyon" not in body["text"] and body["tokens"] > 0
        with_history = c.get("/v1/profile", params={"history": "true"}).json()
        home = next(v for v in with_history["values"] if v["attribute"] == "lives_in")
        assert [r["value"] for r in home["replaced"]] == ["Lyon"]
        then = c.get("/v1/profile", params={"as_of": "2025-02-01T00:00:00Z"}).json()
        assert {v["value"] for v in then["values"]} == {"Lyon", "dog named Rex"}
        small = c.get("/v1/profile", params={"max_tokens": 25}).json()
        assert 0 < small["tokens"] <= 25 < body["tokens"]


def test_a_user_key_reads_only_its_own_profile(server: Server) -> None:
    _client(server, "pia").close()
    with _client(server, "quinn") as c:
        assert c.get("/v1/profile", params={"user_id": "pia"}).status_code == 403


def test_bad_parameters_are_named(server: Server) -> None:
    with _client(server, "pia") as c:
        for params, name in (
            ({"max_tokens": 0}, "max_tokens"),
            ({"as_of": "soon"}, "as_of"),
            ({"asof": "2025-01-01"}, "asof"),
        ):
            r = c.get("/v1/profile", params=params)
            assert r.status_code == 422 and name in r.text, r.text
