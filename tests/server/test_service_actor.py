"""History and the audit log name the API key that made each change ("key:<id>"), a user
key's and an admin key's apart; the library default stays `MemoryConfig.actor`."""

from __future__ import annotations

from pathlib import Path

from service_live import Server

from dualtrace import Memory
from dualtrace.access import PREFIX
from dualtrace.embed.fake import FakeEmbedder


def _key_id(token: str) -> str:
    return token.removeprefix(PREFIX).split("_")[0]


def _audit(db: Path, user_id: str) -> list[tuple[str, str]]:
    with Memory(db, embedder=FakeEmbedder(), resume=False) as mem:
        return [(r["action"], r["actor"]) for r in mem.store.audit_entries(user_id)]


def test_history_and_audit_name_the_key_that_made_each_change(server: Server) -> None:
    user_actor = f"key:{_key_id(server.keys['alice'])}"
    admin_actor = f"key:{_key_id(server.keys['admin'])}"
    assert user_actor != admin_actor
    before = len(_audit(server.db, "alice"))  # the session's server: other tests' rows
    with server.as_("alice") as c:
        r = c.post(
            "/v1/memories",
            json={
                "messages": [
                    {"role": "user", "content": "I moved to Porto and I work at Farfetch now."}
                ]
            },
        )
        assert r.status_code == 201, r.text
        memory_id, turn_id = r.json()["events"][0]["memory_id"], r.json()["episodes"][0]
        history = c.get(f"/v1/memories/{memory_id}/history").json()["entries"]
        assert [e["actor"] for e in history] == [user_actor] * len(history)
        assert c.get(f"/v1/memories/{turn_id}/history").json()["entries"][0]["actor"] == (
            user_actor
        )
    with server.as_("admin") as c:
        r = c.patch(
            f"/v1/memories/{memory_id}",
            params={"user_id": "alice"},
            json={"text": "Alice works at Farfetch in Porto."},
        )
        assert r.status_code == 200, r.text
        history = c.get(f"/v1/memories/{memory_id}/history", params={"user_id": "alice"})
        assert history.json()["entries"][-1]["actor"] == admin_actor
    with server.as_("alice") as c:
        assert c.delete(f"/v1/memories/{turn_id}").status_code == 200
    audit = _audit(server.db, "alice")[before:]
    assert {actor for _, actor in audit} <= {user_actor, admin_actor}, audit
    assert user_actor in {actor for _, actor in audit}
    assert any(actor == admin_actor for _, actor in audit), audit


def test_the_library_takes_an_actor_per_call_and_keeps_the_default(mem: Memory) -> None:
    res = mem.add("I moved to Porto and I work at Farfetch now.", user_id="u", actor="job:7")
    memory_id = res.events[0][0]
    assert [e.actor for e in mem.history(memory_id, user_id="u")] == ["job:7"]
    mem.update(memory_id, "U works at Farfetch in Porto.", user_id="u")
    assert [e.actor for e in mem.history(memory_id, user_id="u")] == ["job:7", "api"]
    mem.delete(res.episodes[0], user_id="u", actor="job:8")
    assert "job:8" in {r["actor"] for r in mem.store.audit_entries("u")}


def test_session_routes_name_the_key_too(server: Server) -> None:
    actor = f"key:{_key_id(server.keys['bob'])}"
    with server.as_("bob") as c:
        sid = c.post("/v1/sessions", json={}).json()["session_id"]
        turn = c.post(
            f"/v1/sessions/{sid}/turns",
            json={"content": "I moved to Lyon and I work at Sanofi now."},
        )
        assert turn.status_code == 201, turn.text
        ended = c.post(f"/v1/sessions/{sid}/end", json={}).json()
        assert ended["events"], ended
        for record in (turn.json()["episode_id"], ended["events"][0]["memory_id"]):
            entries = c.get(f"/v1/memories/{record}/history").json()["entries"]
            assert {e["actor"] for e in entries} == {actor}, entries
