"""API keys bound to users: 401 without a valid key, 403 for another user's id, admin
routes, revocation, and two keys that never see each other's data."""

from __future__ import annotations

from collections.abc import Callable

import httpx
from service_live import Server, cli, cli_key


def test_no_key_or_a_wrong_one_is_401(server: Server) -> None:
    for headers in ({}, {"Authorization": "Bearer dt_nope_nope"}, {"Authorization": "Basic x"}):
        r = httpx.post(f"{server.base}/v1/search", json={"query": "x"}, headers=headers)
        assert r.status_code == 401, r.text
        assert r.json()["error"]["type"] == "AuthError"
        assert r.headers["www-authenticate"] == "Bearer"


def test_a_user_key_naming_another_user_is_403(server: Server) -> None:
    with server.as_("alice") as c:
        for r in (
            c.post("/v1/search", json={"user_id": "bob", "query": "x"}),
            c.post("/v1/memories", json={"user_id": "bob", "messages": [{"content": "hi"}]}),
            c.get("/v1/memories", params={"user_id": "bob"}),
            c.get("/v1/turns", params={"user_id": "bob"}),
            c.delete("/v1/users/bob"),
        ):
            assert r.status_code == 403, r.text
            assert r.json()["error"]["type"] == "ForbiddenError"
        assert c.post("/v1/search", json={"user_id": "alice", "query": "x"}).status_code == 200


def test_an_admin_key_names_any_user_and_must_name_one(server: Server) -> None:
    with server.as_("admin") as c:
        assert c.post("/v1/search", json={"user_id": "bob", "query": "x"}).status_code == 200
        r = c.post("/v1/search", json={"query": "x"})
        assert r.status_code == 422 and "user_id is required" in r.json()["error"]["message"]


def test_two_keys_never_see_each_others_data(server: Server) -> None:
    secret = {"alice": "ALICEONLYWORD zebra", "bob": "BOBONLYWORD zebra"}
    for user, text in secret.items():
        with server.as_(user) as c:
            assert c.post("/v1/memories", json={"messages": [{"content": text}]}).status_code == 201
    for user, other in (("alice", "bob"), ("bob", "alice")):
        with server.as_(user) as c:
            found = str(c.post("/v1/search", json={"query": "zebra", "limit": 50}).json())
            found += str(c.get("/v1/memories", params={"limit": 500}).json())
            found += str(c.get("/v1/turns", params={"limit": 500}).json())
            found += str(c.post("/v1/context", json={"query": "zebra", "max_tokens": 2000}).json())
            assert f"{user.upper()}ONLYWORD" in found and f"{other.upper()}ONLYWORD" not in found
            ids = [i["id"] for i in c.get("/v1/memories", params={"limit": 500}).json()["items"]]
        with server.as_(other) as c:  # the other user's ids are not found, not forbidden
            assert all(c.get(f"/v1/memories/{i}").status_code == 404 for i in ids[:5])
            assert all(c.delete(f"/v1/memories/{i}").status_code == 404 for i in ids[:5])


def test_a_revoked_key_gets_401(server: Server) -> None:
    key = cli_key(server.db, "--user", "frank", "--label", "laptop")
    with server.client(key) as c:
        assert c.post("/v1/search", json={"query": "x"}).status_code == 200
        listed = cli(server.db, "--json", "keys", "list")
        key_id = key.split("_")[1]
        assert key_id in listed.stdout and key not in listed.stdout
        assert cli(server.db, "keys", "revoke", key_id).returncode == 0
        r = c.post("/v1/search", json={"query": "x"})
        assert r.status_code == 401 and r.json()["error"]["type"] == "AuthError"
    assert cli(server.db, "keys", "revoke", key_id).returncode == 3  # not found


def test_keys_are_stored_hashed(server: Server) -> None:
    key = server.keys["alice"]
    assert key.encode() not in server.db.read_bytes()


def test_serve_refuses_to_start_without_keys_or_dev_off_loopback(
    tmp_path: object, servers: Callable[..., Server]
) -> None:
    from pathlib import Path

    db = Path(str(tmp_path)) / "empty.db"
    refused = cli(db, "serve", "--port", "1")
    assert refused.returncode == 4 and "no API key" in refused.stderr
    exposed = cli(db, "serve", "--dev", "--host", "0.0.0.0", "--port", "1")
    assert exposed.returncode == 4 and "loopback" in exposed.stderr
    dev = servers("--dev")
    with httpx.Client(base_url=dev.base) as c:
        assert c.post("/v1/search", json={"user_id": "u", "query": "x"}).status_code == 200
    assert "dev mode" in dev.log.read_text()
