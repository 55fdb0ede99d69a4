"""An assistant's turn replies to the user's words: it answers a question only when the
question asks what the assistant said ("the book you recommended"). Otherwise the user's own
statement comes first, and an assistant's echo of it is no newer word on the user's value."""

from __future__ import annotations

from dataclasses import fields
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hit_builders import said_hit

from dualtrace import Memory, MemoryConfig
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.models import Hit, Item, Source
from dualtrace.recall.current import newest_first
from dualtrace.recall.question import analyse
from dualtrace.recall.ranking import ASSISTANT_SHARE, rank
from dualtrace.recall.retriever import Scored
from dualtrace.text.question_cues import asks_assistant

NOW = datetime(2026, 6, 1, 9, tzinfo=UTC)
APRIL = datetime(2026, 4, 2, 18, tzinfo=UTC)
MAY = datetime(2026, 5, 20, 18, tzinfo=UTC)


@pytest.mark.parametrize(
    "question",
    [
        "What was the name of the podcast you recommended for my commute?",
        "Which stretch did you suggest for my lower back?",
        "You suggested three stretches for my back, which was the second one?",
        "In our previous chat we talked about tents, which brand did your list start with?",
        "We discussed budget airlines earlier, which one flies to Porto?",
        "你上次推荐的那本小说叫什么？",
        "你给我列的那几个健身动作里第三个是什么？",
        "我们之前聊过的那家火锅店在哪条街？",
    ],
)
def test_questions_about_what_the_assistant_said(question: str) -> None:
    assert asks_assistant(question)
    assert analyse(question, NOW).asks_assistant


@pytest.mark.parametrize(
    "question",
    [
        "Where do I work these days?",
        "Can you tell me which city I moved to?",
        "Do you know what my dog is called?",
        "What car does Priya drive now?",
        "我现在住在哪个城市？",
        "你知道我女儿叫什么吗？",
    ],
)
def test_questions_about_the_users_own_matters(question: str) -> None:
    assert not asks_assistant(question)


def _reply(i: str, text: str, said: datetime, score: float) -> Hit:
    hit = said_hit(i, "episode", text, said, score=score)
    hit.sources = [Source(f"{i}-t", None, None, said, "assistant", text, role="assistant")]
    return hit


def test_an_assistants_echo_is_no_newer_word_on_the_users_value() -> None:
    # the user's statement of a new employer, then the assistant's reply a month later that
    # shares the attribute's words: the statement leads
    said = said_hit(
        "e1",
        "episode",
        "Big news: I got the job, I work at the Halden studio now!",
        APRIL,
        score=0.7,
    )
    echo = _reply("e2", "Glad the new job is working out so well, Mira!", MAY, 0.9)
    question = analyse("Where do I work now?", NOW)
    assert [s.attribute for s in question.own_slots] == ["works_at"]
    assert newest_first([echo, said], question)[0].id == "e1"


def test_the_users_statement_comes_before_the_assistants_reply() -> None:
    # the assistant's reply repeats the user's words (its full-text key holds the turn
    # before): it matched a little better, and its share puts it after the statement
    said = said_hit("e1", "episode", "I bought an old steel road bike for the summer.", APRIL)
    reply = _reply("e2", "An old road bike for the summer, lovely! Want a route?", APRIL, 0.0)
    pool = [Scored("e2", 0.9, {"lexical": 0.9}), Scored("e1", 0.8, {"lexical": 0.8})]
    items = {
        h.id: Item(**{f.name: getattr(h, f.name) for f in fields(Item)}) for h in (said, reply)
    }
    config = MemoryConfig(recency_weight=0.0, importance_weight=0.0)
    mine = rank(pool, items, analyse("Which bike do I ride this summer?", NOW), config)
    assert [h.id for h in mine] == ["e1", "e2"]
    theirs = rank(pool, items, analyse("Which route did you suggest?", NOW), config)
    assert [h.id for h in theirs] == ["e2", "e1"]


def _memory(path: Path) -> Memory:
    # lexical channels only: the fake embedder's scores would decide the order by chance
    config = MemoryConfig(dense_weight=0.0)
    return Memory(path, embedder=FakeEmbedder(), config=config)


TURNS = [
    ("user", "My sister lent me her old road bike, a steel frame one, for the summer."),
    ("assistant", "A steel road bike is a lovely summer bike! Do you want a route for it?"),
    ("user", "Yes please, something flat along the river."),
    ("assistant", "Try the river path to Weir Bridge: flat, 18 km, and a bike cafe halfway."),
]


def test_an_assistants_turn_is_lowered_unless_asked_what_it_said(tmp_path: Path) -> None:
    with _memory(tmp_path / "m.db") as mem:
        messages = [{"role": role, "content": text} for role, text in TURNS]
        mem.add(messages, user_id="u", session_id="s1", extract=False)
        hits = mem.search("Which road bike do I ride this summer?", user_id="u", explain=True)
        reply = next(h for h in hits if h.text == TURNS[1][1])
        assert reply.scores["reply_share"] == ASSISTANT_SHARE
        assert "reply_share" not in next(h for h in hits if h.text == TURNS[0][1]).scores
        # asked what the assistant said, its turn is ranked on its words alone
        asked = mem.search("Which cafe was on the way you suggested?", user_id="u", explain=True)
        assert asked[0].text == TURNS[3][1]
        assert all("reply_share" not in h.scores for h in asked)
