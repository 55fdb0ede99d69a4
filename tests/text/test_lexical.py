"""Lexical analysis: Chinese segmentation, stop words, stemming left to FTS5."""

from __future__ import annotations

from dualtrace import Memory
from dualtrace.text.lexical import index_text, query_terms


def test_chinese_is_segmented_for_the_index() -> None:
    assert "预算" in index_text("我的预算是三十万").split()


def test_query_terms_drop_stop_words() -> None:
    assert query_terms("What is the budget for the car?") == ["budget", "car"]
    assert "预算" in query_terms("我的预算是多少？")
    assert "的" not in query_terms("我的预算是多少？")


def test_english_stemming_and_chinese_words_match(mem: Memory) -> None:
    # separate sessions: a turn's key also quotes the turn before it in its session
    mem.add("She adopted two puppies last spring.", user_id="u", session_id="a")
    mem.add("我们决定搬到上海。", user_id="u", session_id="b")
    mem.add("The weather was mild all week.", user_id="u", session_id="c")
    episodes = ["episode"]
    assert mem.search("adopting a puppy", user_id="u", kinds=episodes)[0].text.startswith(
        "She adopted"
    )
    assert mem.search("搬到哪里", user_id="u", kinds=episodes)[0].text == "我们决定搬到上海。"
