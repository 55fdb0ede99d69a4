"""A question in one language finds a fact stated in the other, through the public API.

The fake embedder's vectors carry no meaning across languages, so what is found here is
found by the lexicon: the query's words translated, and the turns' glosses (their words in
the other language, in a full-text column of their own).
"""

from __future__ import annotations

from pathlib import Path

from dualtrace import Memory, MemoryConfig
from dualtrace.embed.fake import FakeEmbedder

TURNS = [
    ("e1", "Parking is tight: my space in the underground garage is only 5.2 m long."),
    ("e2", "We adopted a grey cat from the shelter last spring."),
    ("e3", "I'm allergic to penicillin, found out the hard way."),
    ("e4", "The neighbours' dog barks every morning at six."),
    ("z1", "我女儿每周六上午去学小提琴。"),
    ("z2", "我上个月把手机套餐换成了无限流量的。"),
    ("z3", "我们打算明年夏天从杭州搬到上海。"),
    ("z4", "楼下新开了一家面包店，周末排长队。"),
]


def _mem(path: Path, **config: object) -> Memory:
    # the fake embedder's vectors only add noise here: the full-text channels alone
    settings = MemoryConfig(dense_weight=0.0, **config)  # type: ignore[arg-type]
    mem = Memory(path, embedder=FakeEmbedder(), config=settings)
    mem.add([{"role": "user", "content": text, "id": tid} for tid, text in TURNS], user_id="u")
    return mem


def _top3(mem: Memory, question: str) -> list[str]:
    hits = mem.search(question, user_id="u", limit=3, reinforce=False)
    return [s.external_id or "" for h in hits for s in h.sources]


def _matched(mem: Memory, question: str, turn: str) -> set[str]:
    """The full-text channels through which a turn (or a memory drawn from it) was found."""
    hits = mem.search(question, user_id="u", limit=10, reinforce=False, explain=True)
    return {
        channel
        for h in hits
        if turn in [s.external_id for s in h.sources]
        for channel in h.scores
        if channel in ("lexical", "crosslingual", "gloss")
    }


def test_a_chinese_question_finds_an_english_fact(tmp_path: Path) -> None:
    with _mem(tmp_path / "m.db") as mem:
        assert "e1" in _top3(mem, "我的车位有多长？")
        assert "e3" in _top3(mem, "我对什么过敏？")
        assert "e2" in _top3(mem, "我们家的猫是从哪里来的？")


def test_an_english_question_finds_a_chinese_fact(tmp_path: Path) -> None:
    with _mem(tmp_path / "m.db") as mem:
        assert "z1" in _top3(mem, "What instrument is my daughter learning?")
        assert "z3" in _top3(mem, "Are we moving to Shanghai?")
        assert "z2" in _top3(mem, "What did I change my phone plan to?")


def test_the_lexicon_is_what_finds_them(tmp_path: Path) -> None:
    """The control: with the channel and the glosses off, no full-text channel reaches the
    fact in the other language."""
    with _mem(tmp_path / "on.db") as mem:
        assert {"crosslingual", "gloss"} <= _matched(mem, "我对什么过敏？", "e3")
        assert "gloss" in _matched(mem, "What instrument is my daughter learning?", "z1")
    with _mem(tmp_path / "off.db", crosslingual_weight=0.0, crosslingual_glosses=False) as mem:
        assert not _matched(mem, "我对什么过敏？", "e3")
        assert not _matched(mem, "What instrument is my daughter learning?", "z1")


def test_a_slot_question_finds_a_relative_named_in_the_other_language(tmp_path: Path) -> None:
    """ "my cousin" and 表妹 are one relation: the cousin's job, said in Chinese, leads the
    English question about it, ahead of another relative's."""
    turns = ["我表妹在杭州当幼儿园老师。", "我表哥在成都开了家火锅店。", "My sister is a nurse."]
    with Memory(tmp_path / "kin.db", embedder=FakeEmbedder()) as mem:
        mem.add([{"role": "user", "content": t} for t in turns], user_id="u")
        hits = mem.search("What does my cousin do for a living?", user_id="u", limit=3)
        assert "幼儿园老师" in hits[0].text
