"""A change dated ahead takes effect on its date (its validity begins then), and
`Session.end` supersedes as `add` does. Sentences are our own, not from a case file."""

from __future__ import annotations

from pathlib import Path

from dualtrace import Memory
from dualtrace.embed.fake import FakeEmbedder


def test_a_move_next_month_holds_from_that_month_and_ends_the_old_city_then(
    tmp_path: Path,
) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        mem.add("I live in Ghent.", user_id="u", timestamp="2026-01-05T10:00:00Z")
        mem.add("I'm moving to Antwerp next month.", user_id="u", timestamp="2026-02-05T10:00:00Z")
        rows = mem.store.memories_by_predicate("u", ["lives_in"], include_invalid=True)
    by_city = {("Ghent" if "Ghent" in m.text else "Antwerp"): m for m in rows}
    assert by_city["Antwerp"].valid_from is not None
    assert by_city["Antwerp"].valid_from.isoformat() == "2026-03-01T00:00:00+00:00"
    assert by_city["Ghent"].valid_to == by_city["Antwerp"].valid_from


def test_session_end_supersedes_like_add(tmp_path: Path) -> None:
    with Memory(tmp_path / "s.db", embedder=FakeEmbedder()) as mem:
        for day, text in (("01", "I live in Ghent."), ("20", "I moved to Antwerp last week.")):
            chat = mem.session(user_id="u")
            chat.add("user", text, timestamp=f"2026-01-{day}T10:00:00Z")
            chat.end(now=f"2026-01-{day}T11:00:00Z")
        valid = [i.text for i in mem.get_all(user_id="u") if i.kind not in ("episode", "summary")]
    assert any("Antwerp" in t for t in valid)
    assert not any("Ghent" in t for t in valid)
