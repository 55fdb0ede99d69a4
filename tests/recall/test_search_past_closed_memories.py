"""A fact changed many times still leaves a full page of hits.

Each change closes the old value; the closed values keep their keys (for `as_of` and
history), so they rank at the top of every channel for a question about that fact. Were
they filtered only after each channel's top keys, they would crowd out the valid records
and a search would come back short (2 hits of 10 were seen after 120 changes).
"""

from __future__ import annotations

from pathlib import Path

from dualtrace import Memory
from dualtrace.embed.fake import FakeEmbedder

OTHERS = [
    "I love hiking in the mountains.",
    "My sister lives in Paris.",
    "I work as a nurse.",
    "My budget for travel is tight this year.",
    "I drive a blue Toyota.",
    "My cat is named Tom.",
    "I play the piano.",
    "Our family budget covers groceries.",
    "I am learning Spanish.",
    "I prefer tea over coffee.",
    "My favourite city is Kyoto.",
    "My brother plays chess.",
    "I grow tomatoes on the balcony.",
]
MEMORY_KINDS = ["fact", "preference", "event"]


def test_120_changes_of_one_fact_leave_a_full_page_of_memories(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        mem.add(OTHERS, user_id="u", session_id="other", timestamp="2024-01-01T09:00:00Z")
        for i in range(120):
            said = f"2024-02-01T09:{i // 60:02d}:{i % 60:02d}Z"
            mem.add(
                f"My monthly budget is now {1000 + 10 * i} dollars.",
                user_id="u",
                session_id="budget",
                timestamp=said,
            )
        everything = mem.get_all(user_id="u", kinds=MEMORY_KINDS, include_invalid=True)
        valid = mem.get_all(user_id="u", kinds=MEMORY_KINDS)
        assert len(everything) - len(valid) >= 100  # the closed values are there
        assert len(valid) >= 10
        hits = mem.search("budget", user_id="u", limit=10, kinds=MEMORY_KINDS, reinforce=False)
        assert len(hits) == 10
        assert {h.id for h in hits} <= {v.id for v in valid}
        assert len(mem.search("budget", user_id="u", limit=10, reinforce=False)) == 10
        current = [h for h in hits if "monthly budget" in h.text]
        assert [h.text for h in current] == ["The user's monthly budget is now 2190 dollars."]
