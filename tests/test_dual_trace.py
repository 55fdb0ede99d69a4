"""Dual-trace encoding end to end: typed memories, scene traces, structure, provenance, LLM."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from datetime import date, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from dualtrace import Memory, MemoryConfig
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.llm.openai import OpenAIChatConfig, OpenAIChatLLM
from dualtrace.recall.query import analyse

MAY_8 = "2023-05-08T13:56:00+00:00"  # a Monday
TALK = [
    {"id": "D1:1", "name": "Melanie", "content": "Hey Caroline! How was the museum trip?"},
    {
        "id": "D1:2",
        "name": "Caroline",
        "content": "I went to a LGBTQ support group yesterday and it was so powerful.",
    },
    {"id": "D1:3", "name": "Melanie", "content": "I love painting landscapes in Boston."},
    {"id": "D1:4", "name": "Caroline", "content": "Thanks Mel! I moved to Boston last year."},
]


@pytest.fixture
def talk(mem: Memory) -> Memory:
    res = mem.add(TALK, user_id="u", session_id="s1", timestamp=MAY_8)
    assert [e[1] for e in res.events] == ["ADD"] * 3 and res.warnings == []
    return mem


def test_memories_are_third_person_typed_dated_and_sourced(talk: Memory) -> None:
    facts = {i.text: i for i in talk.get_all(user_id="u") if i.kind != "episode"}
    event = facts[
        "Caroline went to a LGBTQ support group yesterday and it was so powerful. "
        "(yesterday = Sun 7 May 2023)"
    ]
    assert event.kind == "event" and event.valid_from is not None
    assert event.valid_from.date() == date(2023, 5, 7)
    assert [s.external_id for s in event.sources] == ["D1:2"]
    assert event.scene is not None and event.scene.startswith("On Mon 8 May 2023")
    assert "How was the museum trip" in event.scene  # what led to it
    assert facts["Melanie loves painting landscapes in Boston."].kind == "preference"


def test_both_traces_are_searchable(talk: Memory, db_path: Path) -> None:
    # "museum" is only in the scene (the question before Caroline's answer), not in the fact
    hit = talk.search("museum trip", user_id="u", kinds=["event"])[0]
    assert hit.text.startswith("Caroline went to a LGBTQ support group")
    assert hit.sources[0].external_id == "D1:2"
    config = replace(talk.config, search_traces=("episode", "fact"))
    with Memory(db_path, embedder=FakeEmbedder(), config=config) as facts_only:
        found = facts_only.search("museum trip", user_id="u", kinds=["event"])
        assert all(h.scores.get("lexical", 0) == 0 for h in found)


def test_aliases_join_and_feed_the_entity_channel(talk: Memory) -> None:
    rows = {r.norm: r.canonical for r in talk.store.entity_rows("u")}
    assert rows["melanie"] == "melanie" and rows["boston"] == "boston"
    hits = talk.search("What does Mel like?", user_id="u", explain=True)
    melanie = next(h for h in hits if h.text.startswith("Melanie loves"))
    assert melanie.scores["entity"] > 0


def test_memories_sharing_a_place_are_linked(talk: Memory) -> None:
    rows = talk.store._read("SELECT src_id, dst_id, kind FROM links WHERE user_id = 'u'")  # type: ignore[attr-defined]
    texts = {i.id: i.text for i in talk.get_all(user_id="u")}
    pairs = {(texts[r[0]][:20], texts[r[1]][:20], r[2]) for r in rows}
    assert ("Caroline moved to Bo", "Melanie loves painti", "related") in pairs


def test_query_analysis_finds_entities_and_time_window() -> None:
    now = datetime(2023, 5, 10, 12)  # a Wednesday
    q = analyse("What did Caroline do last weekend in Boston?", now)
    assert {e.norm for e in q.entities} >= {"caroline", "boston"}
    assert q.window == (date(2023, 5, 6), date(2023, 5, 7))
    assert analyse("上次我们说的那个方案", now).window is None
    assert analyse("上次我们说的那个方案", now).refers_to_past


# -- with an LLM over real HTTP -------------------------------------------------------------


class _Server(ThreadingHTTPServer):
    replies: list[tuple[int, str]]
    bodies: list[dict[str, object]]


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", 0))
        self.server.bodies.append(json.loads(self.rfile.read(length)))
        status, body = self.server.replies.pop(0) if self.server.replies else (500, "{}")
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        return


@pytest.fixture
def llm_server(loopback: Callable[[_Server], None]) -> _Server:
    server = _Server(("127.0.0.1", 0), _Handler)
    server.replies, server.bodies = [], []
    loopback(server)
    return server


def _llm(server: _Server) -> OpenAIChatLLM:
    host, port = server.server_address[:2]
    return OpenAIChatLLM(
        OpenAIChatConfig(f"http://{host!s}:{port}/v1", "scripted", max_retries=0, backoff_s=0)
    )


def _chat(content: dict[str, object]) -> str:
    return json.dumps(
        {
            "choices": [{"message": {"role": "assistant", "content": json.dumps(content)}}],
            "usage": {"prompt_tokens": 120, "completion_tokens": 40},
        }
    )


def test_llm_extractor_writes_the_memories(llm_server: _Server, db_path: Path) -> None:
    llm_server.replies.append(
        (
            200,
            _chat(
                {
                    "memories": [
                        {
                            "kind": "event",
                            "text": "Caroline attended an LGBTQ support group on 7 May 2023.",
                            "scene": "On Mon 8 May 2023 Caroline told Melanie about the "
                            "LGBTQ support group.",
                            "valid_from": "2023-05-07",
                            "entities": [{"name": "Caroline", "type": "person"}],
                            "source_turn_ids": ["D1:2"],
                            "importance": 0.8,
                        }
                    ]
                }
            ),
        )
    )
    with Memory(db_path, embedder=FakeEmbedder(), llm=_llm(llm_server)) as mem:
        res = mem.add(TALK, user_id="u", session_id="s1", timestamp=MAY_8)
        assert res.warnings == []
        assert [e[2] for e in res.events] == [
            "Caroline attended an LGBTQ support group on 7 May 2023."
        ]
        item = mem.get(res.events[0][0], user_id="u")
        assert [s.external_id for s in item.sources] == ["D1:2"]
        assert item.metadata["extractor"].startswith("llm:")
        assert mem.writer.stats.usage.calls == 1 and mem.writer.stats.usage.prompt_tokens == 120
    prompt = json.dumps(llm_server.bodies[0], ensure_ascii=False)
    assert "D1:2" in prompt and "2023-05-08" in prompt


def test_llm_failure_keeps_episodes_falls_back_and_says_so(
    llm_server: _Server, db_path: Path
) -> None:
    llm_server.replies.append((500, '{"error": "boom"}'))
    with Memory(db_path, embedder=FakeEmbedder(), llm=_llm(llm_server)) as mem:
        res = mem.add(TALK, user_id="u", session_id="s1", timestamp=MAY_8)
        assert len(res.episodes) == 4
        assert len(res.events) == 3  # the rules extractor covered the window
        assert res.warnings and "extraction degraded" in res.warnings[0]
        assert mem.writer.stats.failures == 1


def test_extraction_can_be_switched_off(db_path: Path) -> None:
    config = MemoryConfig(extract=False)
    with Memory(db_path, embedder=FakeEmbedder(), config=config) as mem:
        assert mem.add(TALK, user_id="u").events == []
        assert {i.kind for i in mem.get_all(user_id="u")} == {"episode"}


def test_near_duplicate_facts_reinforce_the_first(mem: Memory) -> None:
    mem.writer.similar_threshold = 0.85  # the fake embedder's scale, not e5's
    first = mem.add("I love hiking in the mountains.", user_id="u")
    second = mem.add("Honestly I love hiking in the mountains.", user_id="u")
    ((mid, event, _),) = second.events
    assert (mid, event) == (first.events[0][0], "REINFORCE")
    item = mem.get(mid, user_id="u")
    assert [s.episode_id for s in item.sources] == [first.episodes[0], second.episodes[0]]
    assert len(mem.get_all(user_id="u", kinds=["preference", "fact"])) == 1


def _extracted(text: str, turn: str, when: str) -> tuple[int, str]:
    return 200, _chat(
        {
            "memories": [
                {
                    "kind": "fact",
                    "text": text,
                    "scene": f"On {when} the user said it.",
                    "valid_from": when,
                    "source_turn_ids": [turn],
                    "importance": 0.7,
                }
            ]
        }
    )


def test_with_an_llm_the_judge_decides_and_its_failure_keeps_the_offline_rule(
    llm_server: _Server, db_path: Path
) -> None:
    llm_server.replies += [
        _extracted("The user works at Alibaba.", "t1", "2025-03-03"),
        _extracted("The user now works at ByteDance.", "t2", "2025-05-05"),
        (
            200,
            _chat(
                {
                    "decisions": [
                        {"new": "n1", "action": "UPDATE", "target": "m1", "reason": "changed jobs"}
                    ]
                }
            ),
        ),
        _extracted("The user works at Meituan.", "t3", "2025-06-06"),
        (500, '{"error": "boom"}'),
    ]
    with Memory(db_path, embedder=FakeEmbedder(), llm=_llm(llm_server)) as mem:
        first = mem.add(
            {"role": "user", "content": "I work at Alibaba.", "id": "t1"},
            user_id="u",
            timestamp="2025-03-03T10:00:00Z",
        )
        old = first.events[0][0]
        res = mem.add(
            {"role": "user", "content": "Now at ByteDance.", "id": "t2"},
            user_id="u",
            timestamp="2025-05-05T10:00:00Z",
        )
        assert res.warnings == []
        assert (old, "SUPERSEDE") in [(e[0], e[1]) for e in res.events]
        closing = [h for h in mem.history(old, user_id="u") if h.event == "SUPERSEDE"]
        assert closing[0].detail["decided_by"] == "llm"
        assert closing[0].detail["reason"] == "changed jobs"
        assert closing[0].detail["by"] == res.events[0][0]  # the newer memory
        assert mem.writer.stats.judge_usage.calls == 1
        mem.revert(closing[0].id, user_id="u")  # the judge's decision is undone like any
        assert mem.get(old, user_id="u").valid_to is None
        failed = mem.add(
            {"role": "user", "content": "I work at Meituan.", "id": "t3"},
            user_id="u",
            timestamp="2025-06-06T10:00:00Z",
        )
        assert any("consolidation judge failed" in w for w in failed.warnings)
        assert [e[2] for e in failed.events if e[1] == "ADD"] == ["The user works at Meituan."]
    body = json.dumps(llm_server.bodies[2], ensure_ascii=False)
    assert "n1" in body and "m1" in body and "mem_" not in body
