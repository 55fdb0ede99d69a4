"""Every `/v1` route against a real `dualtrace serve` process, with a user key."""

from __future__ import annotations

import re
from typing import Any

import httpx
from service_live import Server, new_key

TURNS = [
    {"id": "r1", "role": "user", "name": "Carol", "content": "I live in Hangzhou by West Lake."},
    {"id": "r2", "role": "assistant", "content": "Hangzhou is lovely in spring."},
    {"id": "r3", "role": "user", "name": "Carol", "content": "My budget for the car is 300k yuan."},
    {"id": "r4", "role": "user", "name": "Carol", "content": "我不喜欢白色的车，喜欢深蓝色。"},
]


def _seed(server: Server, user: str) -> dict[str, Any]:
    key = server.keys.get(user)
    if key is None:
        key = server.keys[user] = new_key(server.db, "--user", user)
    with server.client(key) as c:
        r = c.post(
            "/v1/memories",
            json={"messages": TURNS, "session_id": "s1", "timestamp": "2026-03-02T19:10:00+08:00"},
        )
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def test_add_returns_episodes_events_and_warnings(server: Server) -> None:
    body = _seed(server, "carol")
    assert len(body["episodes"]) == 4 and body["warnings"] == []
    assert any(e["event"] == "ADD" for e in body["events"])
    again = _seed(server, "carol")  # the same message ids: nothing new
    assert again["episodes"] == body["episodes"]


def test_search_and_context_find_what_was_said(server: Server) -> None:
    _seed(server, "carol")
    with server.as_("carol") as c:
        hits = c.post("/v1/search", json={"query": "car budget", "limit": 3}).json()["hits"]
        assert any("300k" in h["text"] for h in hits)
        first = hits[0]
        assert {"id", "kind", "text", "occurred_at", "valid_from", "sources", "score"} <= set(first)
        explained = c.post("/v1/search", json={"query": "car budget", "explain": True}).json()
        assert "dense_raw" in explained["hits"][0]["scores"]
        ctx = c.post("/v1/context", json={"query": "what car colour?", "max_tokens": 200}).json()
        assert "深蓝色" in ctx["text"] and 0 < ctx["tokens"] <= 200 and ctx["items"]


def test_list_pages_with_a_cursor_never_skip_or_repeat(server: Server) -> None:
    _seed(server, "carol")
    seen: list[str] = []
    cursor = None
    with server.as_("carol") as c:
        everything = c.get("/v1/memories", params={"limit": 500}).json()["items"]
        while True:
            params: dict[str, Any] = {"limit": 2, **({"cursor": cursor} if cursor else {})}
            page = c.get("/v1/memories", params=params).json()
            seen += [i["id"] for i in page["items"]]
            cursor = page["next_cursor"]
            if cursor is None:
                break
        assert seen == [i["id"] for i in everything] and len(set(seen)) == len(seen)
        bad = c.get("/v1/memories", params={"cursor": "not-a-cursor"})
        assert bad.status_code == 422 and bad.json()["error"]["type"] == "ValidationError"


def test_get_patch_history_revert_delete_a_record(server: Server) -> None:
    body = _seed(server, "dave")
    memory_id = next(e["memory_id"] for e in body["events"] if "Hangzhou" in e["text"])
    with server.as_("dave") as c:
        got = c.get(f"/v1/memories/{memory_id}").json()
        assert got["kind"] != "episode" and got["sources"][0]["text"].startswith("I live")
        assert {"subject", "predicate", "object", "entities", "links", "supersedes"} <= set(got)
        assert any(e["name"] == "Hangzhou" for e in got["entities"])
        changed = c.patch(f"/v1/memories/{memory_id}", json={"text": "Carol lives in Suzhou."})
        assert changed.status_code == 200 and changed.json()["text"] == "Carol lives in Suzhou."
        entries = c.get(f"/v1/memories/{memory_id}/history").json()["entries"]
        update = next(e for e in entries if e["event"] == "UPDATE")
        assert c.post(f"/v1/history/{update['id']}/revert").json() == {"ok": True}
        assert "Hangzhou" in c.get(f"/v1/memories/{memory_id}").json()["text"]
        assert c.delete(f"/v1/memories/{memory_id}").json() == {"ok": True, "deleted": memory_id}
        gone = c.get(f"/v1/memories/{memory_id}")
        assert gone.status_code == 404 and gone.json()["error"]["type"] == "NotFoundError"
        again = c.post(f"/v1/history/{update['id']}/revert")
        assert again.status_code == 404


def test_restore_brings_back_an_archived_memory(server: Server) -> None:
    body = _seed(server, "erin")
    memory_id = body["events"][0]["memory_id"]
    with server.as_("erin") as c:
        not_archived = c.post(f"/v1/memories/{memory_id}/restore")
        assert not_archived.status_code == 422, not_archived.text
    with server.as_("admin") as c:  # years without use: the memories fade and are archived
        report = c.post("/v1/maintain", json={"user_id": "erin", "now": "2040-01-01T00:00:00Z"})
        assert report.json()["report"]["archived"] > 0, report.text
    with server.as_("erin") as c:
        listed = c.get("/v1/memories", params={"include_invalid": True, "limit": 500}).json()
        archived = [i["id"] for i in listed["items"] if i["archived"]]
        restored = c.post(f"/v1/memories/{archived[0]}/restore")
        assert restored.status_code == 200 and restored.json()["archived"] is False


def test_turns_in_conversation_order_with_their_memories(server: Server) -> None:
    _seed(server, "carol")
    with server.as_("carol") as c:
        first = c.get("/v1/turns", params={"limit": 2}).json()
        rest = c.get("/v1/turns", params={"limit": 50, "cursor": first["next_cursor"]}).json()
    turns = first["turns"] + rest["turns"]
    assert [t["external_id"] for t in turns[:4]] == ["r1", "r2", "r3", "r4"]
    assert turns[0]["memory_ids"] and turns[1]["memory_ids"] == []
    assert turns[3]["text"] == "我不喜欢白色的车，喜欢深蓝色。"


def test_users_lists_only_the_callers_own_user(server: Server) -> None:
    _seed(server, "carol")
    with server.as_("carol") as c:
        users = c.get("/v1/users").json()["users"]
    assert [u["user_id"] for u in users] == ["carol"] and users[0]["turns"] >= 4
    with server.as_("admin") as c:
        every = {u["user_id"] for u in c.get("/v1/users").json()["users"]}
    assert "carol" in every


def test_sessions_start_add_context_and_end(server: Server) -> None:
    with server.as_("alice") as c:
        opened = c.post("/v1/sessions", json={}).json()
        sid = opened["session_id"]
        assert opened["user_id"] == "alice" and opened["ended"] is False
        for text in ("Let's plan the trip to Kyoto", "My budget for the trip is 2000 dollars"):
            r = c.post(f"/v1/sessions/{sid}/turns", json={"role": "user", "content": text})
            assert r.status_code == 201 and r.json()["episode_id"].startswith("ep_")
        ctx = c.post(f"/v1/sessions/{sid}/context", json={"max_tokens": 500}).json()
        assert "Kyoto" in ctx["text"] and set(ctx["sections"]) == {"memories", "summary", "turns"}
        ended = c.post(f"/v1/sessions/{sid}/end", json={}).json()
        assert len(ended["episodes"]) == 2
        resumed = c.post("/v1/sessions", json={"session_id": sid}).json()
        assert resumed["ended"] is True
        closed = c.post(f"/v1/sessions/{sid}/turns", json={"content": "one more"})
        assert closed.status_code == 422


def test_maintain_and_metrics_need_an_admin_key(server: Server) -> None:
    with server.as_("alice") as c:
        assert c.post("/v1/maintain", json={}).status_code == 403
        assert c.get("/metrics").status_code == 403
    with server.as_("admin") as c:
        report = c.post("/v1/maintain", json={"user_id": "alice"}).json()["report"]
        assert "pending_extracted" in report
        text = c.get("/metrics").text
    assert 'dualtrace_http_requests_total{method="POST",route="/v1/maintain",status="200"}' in text
    assert "dualtrace_http_request_seconds_bucket" in text and "dualtrace_store_turns" in text


def test_health_and_request_ids(server: Server) -> None:
    for path in ("/health/live", "/health/ready"):
        r = httpx.get(server.base + path)
        assert r.json() == {"status": "ok"} and len(r.headers["x-request-id"]) == 32
    echoed = httpx.get(server.base + "/health/live", headers={"X-Request-ID": "trace-42"})
    assert echoed.headers["x-request-id"] == "trace-42"
    missing = httpx.get(server.base + "/v1/nothing-here")
    assert missing.status_code == 404 and "x-request-id" in missing.headers
    assert missing.json()["error"]["type"] == "NotFound"


JSON = {"content-type": "application/json"}


def test_bad_requests_are_4xx_in_the_error_shape(server: Server) -> None:
    with server.as_("alice") as c:
        cases = [
            c.post("/v1/search", content=b"{not json", headers=JSON),
            c.post("/v1/search", json={"query": 5}),
            c.post("/v1/search", json={"query": "x", "limit": -1}),
            c.post("/v1/search", json={"query": "x", "unknown": 1}),
            c.post("/v1/memories", json={"messages": [{"role": "robot", "content": "x"}]}),
            c.post("/v1/memories", json={"messages": [{"content": ""}]}),
            c.post("/v1/context", json={"query": "x", "max_tokens": 0}),
            c.post("/v1/search", json={"query": "x", "now": "not a date"}),
            c.get("/v1/memories", params={"limit": 0}),
            c.post("/v1/history/99999999999999999999/revert"),
        ]
    for r in cases:
        assert 400 <= r.status_code < 500, (r.status_code, r.text)
        assert set(r.json()["error"]) >= {"type", "message"}, r.text
    assert cases[0].status_code == 400


def _cited_labels(text: str) -> set[str]:
    """The source labels a context's lines end with ("… [1, 2]")."""
    return {
        label.strip()
        for tag in re.findall(r"\[([^\]]+)\]\s*$", text, re.M)
        for label in tag.split(",")
    }


def test_context_references_map_each_cited_label_to_a_stored_turn(server: Server) -> None:
    """Turns added without ids are cited by short labels ([1], [2]); the JSON maps each one
    to the stored turn, which the API then reads by that id."""
    if "dave" not in server.keys:
        server.keys["dave"] = new_key(server.db, "--user", "dave")
    with server.as_("dave") as c:
        for text in (
            "I live in Hangzhou by West Lake.",
            "My car budget is 300k yuan.",
            "我不喜欢白色的车，喜欢深蓝色。",
        ):
            added = c.post("/v1/memories", json={"messages": [{"role": "user", "content": text}]})
            assert added.status_code == 201, added.text
        ctx = c.post("/v1/context", json={"query": "car budget colour", "max_tokens": 300}).json()
        references = ctx["references"]
        assert references and _cited_labels(ctx["text"]) == set(references)
        assert all(len(label) <= 4 for label in references)  # "[12]", not "[ep_…]"
        for item in ctx["items"]:
            assert item["refs"] and set(item["refs"]) <= set(references)
            for label, source in zip(item["refs"], item["sources"], strict=False):
                assert references[label] == source["episode_id"]
        for turn_id in references.values():
            stored = c.get(f"/v1/memories/{turn_id}").json()
            assert stored["id"] == turn_id and stored["kind"] == "episode"
        sid = c.post("/v1/sessions", json={}).json()["session_id"]
        c.post(f"/v1/sessions/{sid}/turns", json={"content": "Which car colour do I like?"})
        session = c.post(
            f"/v1/sessions/{sid}/context", json={"query": "car colour", "max_tokens": 400}
        ).json()
        assert session["references"]
        assert _cited_labels(session["text"]) >= set(session["references"])
        assert set(session["references"].values()) <= set(references.values())
    with server.as_("bob") as c:  # another user cannot read them
        assert all(c.get(f"/v1/memories/{t}").status_code == 404 for t in references.values())


def _importance(c: httpx.Client) -> dict[str, float]:
    items = c.get("/v1/memories", params={"limit": 500}).json()["items"]
    return {i["id"]: i["importance"] for i in items}


def test_search_and_context_with_reinforce_false_leave_importance_alone(
    server: Server,
) -> None:
    _seed(server, "rita")
    with server.as_("rita") as c:
        before = _importance(c)
        for path, body in (
            ("/v1/search", {"query": "car budget"}),
            ("/v1/context", {"query": "car budget", "max_tokens": 300}),
        ):
            r = c.post(path, json={**body, "reinforce": False})
            assert r.status_code == 200, r.text
        assert _importance(c) == before
        c.post("/v1/search", json={"query": "car budget"})
        after = _importance(c)
        assert any(after[k] > v for k, v in before.items())  # the default still reinforces
