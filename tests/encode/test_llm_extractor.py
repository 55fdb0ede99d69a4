"""Tests for LLMExtractor and FallbackExtractor, with a scripted chat server on loopback."""

from __future__ import annotations

import json
import socket
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from scripted_chat import ScriptedLLM, ScriptedServer, start

from dualtrace.encode.base import Extraction, Extractor, Usage, Window
from dualtrace.encode.llm_extractor import (
    MEMORY_SCHEMA,
    FallbackExtractor,
    LLMExtractor,
    LLMExtractorConfig,
)
from dualtrace.errors import ConfigError, RateLimitedError
from dualtrace.llm.openai import OpenAIChatConfig, OpenAIChatLLM
from dualtrace.models import EntityMention, Episode, MemoryDraft

SESSION = datetime(2023, 5, 8, 19, 10, tzinfo=UTC)  # a Monday


def episode(turn: str, speaker: str | None, text: str, minutes: int = 0) -> Episode:
    """A stored turn with external id `turn`, said `minutes` after the session start."""
    return Episode(
        id=f"ep_{turn}",
        user_id="u1",
        session_id="s1",
        agent_id=None,
        seq=minutes,
        role="user" if speaker else "assistant",
        speaker=speaker,
        text=text,
        occurred_at=SESSION + timedelta(minutes=minutes),
        recorded_at=SESSION,
        external_id=turn,
        metadata={},
        content_hash=f"hash_{turn}",
    )


CONTEXT = (episode("c0", "Alice", "Hi there! Shall we talk about the car?"),)
NEW = (
    episode("a1", "Alice", "I live in Hangzhou near the West Lake.", 1),
    episode("a2", None, "Hangzhou is lovely in spring.", 2),
    episode("a3", "Alice", "My budget for the car is 300k yuan. I want to buy it this week.", 3),
    episode("a4", "Alice", "我不喜欢白色的车，喜欢深蓝色。", 4),
)
WINDOW = Window(episodes=NEW, context=CONTEXT, participants=("Alice", "assistant"))


def memory(**fields: Any) -> dict[str, Any]:
    """One memory item as the model would write it, with grounded defaults."""
    item: dict[str, Any] = {
        "kind": "fact",
        "text": "Alice lives in Hangzhou near the West Lake.",
        "scene": "On Monday 8 May 2023, Alice told the assistant she lives in Hangzhou.",
        "subject": "Alice",
        "predicate": "lives_in",
        "object": "Hangzhou",
        "topic": "home",
        "importance": 0.8,
        "valid_from": None,
        "expires": None,
        "entities": [{"name": "Hangzhou", "type": "place"}],
        "source_turn_ids": ["a1"],
    }
    item.update(fields)
    return item


def answer(*items: dict[str, Any]) -> str:
    """The model's answer text for these memory items."""
    return json.dumps({"memories": list(items)})


def chat_body(content: str, *, prompt: int = 321, completion: int = 45) -> str:
    """An OpenAI-compatible chat completion carrying content."""
    return json.dumps(
        {
            "model": "fake-chat",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion},
        }
    )


# A scripted chat server on loopback -------------------------------------------------------


@pytest.fixture
def server(loopback: Callable[[ScriptedServer], None]) -> ScriptedServer:
    """Run a scripted chat server on a free loopback port for one test."""
    return start(loopback)


@pytest.fixture
def llm(server: ScriptedServer) -> Iterator[OpenAIChatLLM]:
    """A chat client for the scripted server that gives up quickly."""
    config = OpenAIChatConfig(
        f"http://127.0.0.1:{server.server_address[1]}/v1",
        "fake-chat",
        max_retries=1,
        backoff_s=0.001,
        timeout_s=5.0,
    )
    with OpenAIChatLLM(config) as client:
        yield client


# An in-process scripted LLM, for checks that need no HTTP ---------------------------------


class StubExtractor:
    """A deterministic extractor: one draft quoting the first new turn."""

    name = "stub"

    def extract(self, window: Window) -> Extraction:
        first = window.episodes[0]
        draft = MemoryDraft("fact", f"Stub: {first.text}", "stub scene", (first.id,))
        return Extraction([draft], self.name, Usage(calls=0))


class FailingStub(StubExtractor):
    """A stub that always reports a failure."""

    name = "broken"

    def extract(self, window: Window) -> Extraction:
        return Extraction([], self.name, Usage(), error="RuntimeError: stub broke")


# Extraction over HTTP ---------------------------------------------------------------------


def test_scripted_reply_becomes_drafts(server: ScriptedServer, llm: OpenAIChatLLM) -> None:
    reply = answer(
        memory(
            predicate="Lives In", importance=1.7, entities=[{"name": "Hangzhou", "type": "city"}]
        ),
        memory(
            kind="event",
            text="Alice plans to buy a car between 8 May 2023 and 14 May 2023.",
            scene="On Monday 8 May 2023, Alice told the assistant her car budget is 300k yuan.",
            predicate="plans_to",
            object="buy a car",
            valid_from="2023-05-08",
            expires="2023-05-14",
            entities=[],
            source_turn_ids=["[a3]", "c0", "zz"],
        ),
        memory(kind="preference", text="Alice likes dark blue cars.", source_turn_ids=["a4"]),
    )
    server.script.replies = [(200, chat_body(f"```json\n{reply}\n```"))]
    extractor: Extractor = LLMExtractor(llm)
    extraction = extractor.extract(WINDOW)
    assert extraction.error is None
    assert extraction.extractor == "llm:openai:fake-chat"
    assert extraction.usage == Usage(calls=1, prompt_tokens=321, completion_tokens=45)
    home, plan, colour = extraction.drafts
    assert [d.kind for d in extraction.drafts] == ["fact", "event", "preference"]
    assert home.source_episode_ids == ("ep_a1",)
    assert home.predicate == "lives_in"
    assert home.importance == 1.0
    assert home.entities == (EntityMention("Hangzhou", "hangzhou", "place"),)
    assert home.scene.startswith("On Monday 8 May 2023, Alice told")
    assert plan.source_episode_ids == ("ep_a3",)  # context and unknown ids are dropped
    assert plan.valid_from == datetime(2023, 5, 8, tzinfo=UTC)
    assert plan.expire_at == datetime(2023, 5, 14, tzinfo=UTC)
    assert colour.source_episode_ids == ("ep_a4",)


def test_prompt_lists_turns_and_session_date(server: ScriptedServer, llm: OpenAIChatLLM) -> None:
    server.script.replies = [(200, chat_body('{"memories": []}'))]
    extraction = LLMExtractor(llm).extract(WINDOW)
    assert extraction.drafts == []
    assert extraction.error is None
    (body,) = server.script.bodies
    system, user = body["messages"]
    assert system["role"] == "system"
    assert "third-person" in system["content"]
    prompt = user["content"]
    assert "Session date: 2023-05-08 (Monday)" in prompt
    context_part, new_part = prompt.split("NEW turns")
    assert "[c0] 2023-05-08 Mon 19:10 Alice: Hi there!" in context_part
    assert "do not extract" in context_part
    assert "[a1] 2023-05-08 Mon 19:11 Alice: I live in Hangzhou" in new_part
    assert "[a2] 2023-05-08 Mon 19:12 assistant: Hangzhou is lovely" in new_part
    assert "[c0]" not in new_part
    assert body["max_tokens"] == 1500
    assert body["temperature"] == 0.0
    assert body["response_format"]["json_schema"]["schema"] == MEMORY_SCHEMA


def test_invented_scene_detail_is_replaced(server: ScriptedServer, llm: OpenAIChatLLM) -> None:
    invented = "On Monday 8 May 2023, Alice said in Shanghai that her car budget is 300k yuan."
    server.script.replies = [
        (200, chat_body(answer(memory(scene=invented, source_turn_ids=["a3"]))))
    ]
    extractor = LLMExtractor(llm)
    (draft,) = extractor.extract(WINDOW).drafts
    assert draft.scene == (
        'On Mon 8 May 2023, in a conversation between Alice and assistant, Alice said: "My '
        'budget for the car is 300k yuan. I want to buy it this week."'
    )
    assert extractor.scene_rejected == 1


def test_malformed_reply_is_an_error_not_an_exception(
    server: ScriptedServer, llm: OpenAIChatLLM
) -> None:
    server.script.replies = [(200, chat_body("I found nothing worth remembering."))]
    extraction = LLMExtractor(llm).extract(WINDOW)
    assert extraction.drafts == []
    assert extraction.error is not None
    assert extraction.error.startswith("MalformedOutputError: ")
    assert extraction.usage == Usage(calls=1, prompt_tokens=321, completion_tokens=45)


def test_missing_memories_list_is_an_error(server: ScriptedServer, llm: OpenAIChatLLM) -> None:
    server.script.replies = [(200, chat_body('{"facts": ["Alice lives in Hangzhou"]}'))]
    extraction = LLMExtractor(llm).extract(WINDOW)
    assert extraction.drafts == []
    assert extraction.error is not None
    assert "'memories'" in extraction.error


def test_server_down_is_an_error() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = OpenAIChatConfig(f"http://127.0.0.1:{port}/v1", "m", max_retries=1, backoff_s=0.001)
    with OpenAIChatLLM(config) as client:
        extraction = LLMExtractor(client).extract(WINDOW)
    assert extraction.drafts == []
    assert extraction.error is not None
    assert extraction.error.startswith("UnavailableError: ")
    assert extraction.usage == Usage(calls=1)


def test_fallback_runs_after_primary_fails(server: ScriptedServer, llm: OpenAIChatLLM) -> None:
    server.script.replies = [(200, chat_body("<think>hmm</think> no idea"))]
    extractor = FallbackExtractor(LLMExtractor(llm), StubExtractor())
    extraction = extractor.extract(WINDOW)
    assert [d.text for d in extraction.drafts] == ["Stub: I live in Hangzhou near the West Lake."]
    assert extraction.extractor == "stub (after llm:openai:fake-chat failed)"
    assert extraction.error is not None
    assert extraction.error.startswith("MalformedOutputError: ")
    assert extraction.usage == Usage(calls=1, prompt_tokens=321, completion_tokens=45)
    assert extractor.failures == 1


def test_fallback_not_used_when_primary_succeeds(
    server: ScriptedServer, llm: OpenAIChatLLM
) -> None:
    server.script.replies = [(200, chat_body(answer(memory())))]
    extractor = FallbackExtractor(LLMExtractor(llm), StubExtractor())
    extraction = extractor.extract(WINDOW)
    assert extraction.extractor == "llm:openai:fake-chat"
    assert extraction.error is None
    assert [d.text for d in extraction.drafts] == ["Alice lives in Hangzhou near the West Lake."]
    assert extractor.failures == 0


# Item validation and scene grounding (in process) -----------------------------------------


def extract_one(item: dict[str, Any]) -> tuple[list[MemoryDraft], LLMExtractor]:
    """Run an extractor whose model answers with this one item."""
    extractor = LLMExtractor(ScriptedLLM(answer(item)))
    return extractor.extract(WINDOW).drafts, extractor


@pytest.mark.parametrize(
    "scene",
    [
        "On Monday 8 May 2023, Alice told the assistant she lives in Hangzhou.",
        "At 19:11 on Mon 8 May, Alice's chat with the assistant turned to the West Lake.",
        "During a talk about the car on 2023-05-08, Alice gave her budget as 300k yuan.",
        "On 8 May 2023 Alice said she prefers 深蓝色 cars to white ones.",
    ],
)
def test_grounded_scene_is_kept(scene: str) -> None:
    (draft,), extractor = extract_one(memory(scene=scene))
    assert draft.scene == scene
    assert extractor.scene_rejected == 0


@pytest.mark.parametrize(
    "scene",
    [
        "On Monday 8 May 2023, Alice, who had moved from Shanghai, mentioned her home.",
        "On Monday 8 May 2023, Alice said her car budget is 500k yuan.",
        "On Monday 8 May 2023, Alice told her friend Bob about Hangzhou.",
        "On 9 May 2023 Alice said she lives in Hangzhou.",
        "On Monday 8 May 2023 Alice said she moved from 上海.",
        "",
        None,
    ],
)
def test_ungrounded_or_missing_scene_is_replaced(scene: str | None) -> None:
    (draft,), extractor = extract_one(memory(scene=scene))
    assert draft.scene.startswith("On Mon 8 May 2023, in a conversation between Alice and")
    assert 'Alice said: "I live in Hangzhou near the West Lake."' in draft.scene
    assert extractor.scene_rejected == 1


def test_valid_from_date_may_appear_in_scene() -> None:
    scene = "On Monday 8 May 2023 Alice said she would buy the car by 14 May 2023."
    (kept,), _ = extract_one(memory(scene=scene, valid_from="2023-05-14"))
    (replaced,), _ = extract_one(memory(scene=scene, valid_from=None))
    assert kept.scene == scene
    assert replaced.scene != scene


def test_unknown_kind_and_missing_text_are_skipped() -> None:
    items = [memory(kind="opinion"), memory(text="  "), "not an object", memory(kind=" Event ")]
    extractor = LLMExtractor(ScriptedLLM(json.dumps({"memories": items})))
    extraction = extractor.extract(WINDOW)
    assert [d.kind for d in extraction.drafts] == ["event"]
    assert extractor.items_skipped == 3


def test_loose_fields_are_tidied() -> None:
    item = memory(
        source_turn_ids=["c0", "nope"],
        valid_from="not a date",
        expires="2023-05-14T18:00:00+08:00",
        importance="high",
        subject="",
        object=300000,
        topic="null",
        entities=[
            {"name": " Alice ", "type": "Person"},
            {"name": "alice", "type": "person"},
            {"name": "Acme", "type": "company"},
            {"name": "Thing", "type": "gizmo"},
            "West Lake",
            {"type": "place"},
        ],
    )
    (draft,), _ = extract_one(item)
    assert draft.source_episode_ids == tuple(e.id for e in NEW)  # none usable: all new turns
    assert draft.valid_from is None
    assert draft.expire_at == datetime(2023, 5, 14, 10, 0, tzinfo=UTC)
    assert draft.importance == 0.5
    assert (draft.subject, draft.object, draft.topic) == (None, "300000", None)
    assert draft.entities == (
        EntityMention("Alice", "alice", "person"),
        EntityMention("Acme", "acme", "org"),
        EntityMention("Thing", "thing", "other"),
        EntityMention("West Lake", "west lake", "other"),
    )


def test_lone_memory_object_is_accepted() -> None:
    extractor = LLMExtractor(ScriptedLLM(json.dumps(memory())))
    assert [d.text for d in extractor.extract(WINDOW).drafts] == [memory()["text"]]


def test_llm_error_is_reported_with_zero_tokens() -> None:
    extractor = LLMExtractor(ScriptedLLM(RateLimitedError("slow down")))
    extraction = extractor.extract(WINDOW)
    assert extraction == Extraction(
        [], "llm:scripted", Usage(calls=1), error="RateLimitedError: slow down"
    )


def test_empty_window_makes_no_call() -> None:
    model = ScriptedLLM()
    extraction = LLMExtractor(model).extract(Window(episodes=()))
    assert extraction == Extraction([], "llm:scripted")
    assert model.calls == []


def test_long_turns_are_cut_in_the_prompt() -> None:
    long_turn = episode("x1", "Alice", "word " * 1000)
    model = ScriptedLLM('{"memories": []}')
    LLMExtractor(model, LLMExtractorConfig(max_turn_chars=50)).extract(Window((long_turn,)))
    (line,) = [ln for ln in model.calls[0][1].content.splitlines() if ln.startswith("[x1]")]
    assert line.endswith("…")
    assert len(line) < 120


def test_fallback_failure_is_reported_too() -> None:
    primary = LLMExtractor(ScriptedLLM(RateLimitedError("slow down")))
    extraction = FallbackExtractor(primary, FailingStub()).extract(WINDOW)
    assert extraction.drafts == []
    assert extraction.error == (
        "RateLimitedError: slow down; fallback broken also failed: RuntimeError: stub broke"
    )


@pytest.mark.parametrize(
    ("overrides", "needle"),
    [
        ({"max_output_tokens": 0}, "max_output_tokens"),
        ({"max_turn_chars": -1}, "max_turn_chars"),
        ({"temperature": 3.0}, "temperature"),
    ],
)
def test_config_validation(overrides: dict[str, Any], needle: str) -> None:
    with pytest.raises(ConfigError, match=f"set {needle}="):
        LLMExtractorConfig(**overrides)
