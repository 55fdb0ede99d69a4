"""The retriever keeps alias indexes for a bounded number of users, each rebuilt as soon as
its user's entities differ from those it was built from."""

from __future__ import annotations

from pathlib import Path

import pytest

from dualtrace import Memory
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.models import EntityMention
from dualtrace.recall import retriever
from dualtrace.recall.retriever import AliasCache
from dualtrace.store.base import EntityRow

MEL = EntityMention("Mel", "mel", "person")


def _row(name: str) -> EntityRow:
    norm = name.lower()
    return EntityRow(name, norm, "person", norm)


def test_an_index_follows_its_users_entities() -> None:
    cache = AliasCache(users=4)
    before = (_row("Melanie"), _row("Bob"))
    assert cache.index("u", before).canonical(MEL).norm == "melanie"
    assert cache.index("u", before) is cache.index("u", before)  # kept while they stand
    # Melanie deleted, Melissa added: as many entities as before, the same last one
    after = (_row("Melissa"), _row("Bob"))
    assert cache.index("u", after).canonical(MEL).norm == "melissa"
    assert cache.index("v", ()).canonical(MEL).norm == "mel"  # another user's are their own


def test_it_keeps_the_users_asked_about_last() -> None:
    cache = AliasCache(users=2)
    rows = (_row("Melanie"),)
    first = cache.index("a", rows)
    cache.index("b", rows)
    assert cache.index("a", rows) is first  # asked again: now the most recent
    cache.index("c", rows)  # b, the least recent, goes
    assert len(cache) == 2
    assert cache.index("a", rows) is first
    assert cache.index("b", rows) is not first and len(cache) == 2


def test_a_service_with_many_users_stays_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(retriever, "ALIAS_CACHE_USERS", 3)
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        for n in range(6):
            user = f"user{n}"
            mem.add("I had lunch with Melanie in Lyon.", user_id=user)
            assert mem.search("What did Mel say?", user_id=user)
        cache = mem._searcher._retriever._aliases
        assert len(cache) == 3 and cache.users == 3
