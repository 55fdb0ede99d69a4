"""In a store of two languages, a weak full-text match counts for less (the retriever's
LEXICAL_TRUST_SHARE): min–max scaling would make the best of a weak list score 1."""

from __future__ import annotations

from pathlib import Path

import pytest

from dualtrace import Memory
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.recall import retriever

ENGLISH = [
    "The weather was grey again this morning.",
    "We had a grey sky all weekend.",
    "My heron sketch won a prize at the mill gallery.",
]
CHINESE = "我的自行车是蓝色的。"


def _relevance(path: Path, turns: list[str], question: str) -> dict[str, float]:
    with Memory(path, embedder=FakeEmbedder()) as mem:
        for i, text in enumerate(turns):
            mem.add(text, user_id="u", session_id=f"s{i}", extract=False)
        hits = mem.search(question, user_id="u", limit=10, kinds=["episode"], explain=True)
        return {h.text: h.scores["relevance"] for h in hits}


def _both(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, turns: list[str], question: str):
    trusted = _relevance(tmp_path / "a.db", turns, question)
    monkeypatch.setattr(retriever, "LEXICAL_TRUST_SHARE", 1e-9)  # every list trusted fully
    full = _relevance(tmp_path / "b.db", turns, question)
    return trusted, full


def test_a_weak_match_counts_less_in_a_store_of_two_languages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    weak = "Was the sky grey on the coast, and did the ferry leave on time?"
    trusted, full = _both(tmp_path, monkeypatch, [*ENGLISH, CHINESE], weak)
    sky = ENGLISH[1]  # the best full-text match: "grey" and "sky" of the question's words
    assert trusted[sky] < full[sky]  # a weak list, trusted less
    strong = "Did my heron sketch win a prize at the mill gallery?"
    trusted, full = _both(tmp_path / "strong", monkeypatch, [*ENGLISH, CHINESE], strong)
    assert trusted[ENGLISH[2]] == pytest.approx(full[ENGLISH[2]])  # a full match: as before


def test_a_store_of_one_language_trusts_every_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    weak = "Was the sky grey on the coast, and did the ferry leave on time?"
    trusted, full = _both(tmp_path, monkeypatch, ENGLISH, weak)
    assert trusted == pytest.approx(full)


def test_a_weak_match_of_the_questions_translated_words_counts_less(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # "天气" translates to "weather": one word of a long question, the best of a weak list
    question = "海边那天天气怎么样，渡轮准点开了吗，票价贵不贵？"
    turns = [*ENGLISH, "The weather turned on the drive home.", CHINESE]
    trusted = _relevance(tmp_path / "a.db", turns, question)
    monkeypatch.setattr(retriever, "CROSSLINGUAL_TRUST_SHARE", 1e-9)  # trusted fully
    full = _relevance(tmp_path / "b.db", turns, question)
    weather = turns[3]
    assert trusted[weather] < full[weather]
