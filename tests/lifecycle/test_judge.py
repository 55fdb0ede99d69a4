"""Tests for the LLM consolidation judge, with a scripted chat server on loopback."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from scripted_chat import ScriptedServer, start

from dualtrace.encode.base import Usage
from dualtrace.errors import ConfigError, ValidationError
from dualtrace.lifecycle.judge import (
    JudgedDecision,
    Judgement,
    LLMJudge,
    LLMJudgeConfig,
    build_judge_prompt,
)
from dualtrace.llm.openai import OpenAIChatConfig, OpenAIChatLLM
from dualtrace.models import MemoryRecord


def record(memory_id: str, text: str, day: str, **fields: Any) -> MemoryRecord:
    """A memory of user u1 valid from day (YYYY-MM-DD)."""
    start = datetime.fromisoformat(day).replace(tzinfo=UTC)
    fields.setdefault("kind", "fact")
    return MemoryRecord(id=memory_id, user_id="u1", text=text, valid_from=start, **fields)


# Long ids, as the store makes them: the prompt must not carry them.
HOME = record(
    "mem_01HZX3K9Q4T7HANGZHOU000001",
    "Alice lives in Hangzhou.",
    "2023-05-08",
    subject="Alice",
    predicate="lives_in",
    object="Hangzhou",
)
JOB = record(
    "mem_01HZX3K9Q4T7ALIBABA0000002",
    "Alice works at Alibaba.",
    "2023-05-08",
    subject="Alice",
    predicate="works_at",
    object="Alibaba",
)
TEA = record(
    "mem_01HZX3K9Q4T7GREENTEA000003",
    "Alice likes green tea.",
    "2023-05-08",
    kind="preference",
    subject="Alice",
    predicate="likes",
)
EXISTING = [HOME, JOB, TEA]

MOVED = record(
    "mem_01HZY0000000000SHANGHAI0001",
    "Alice moved to Shanghai.",
    "2023-06-01",
    metadata={"slot": "residence"},
)
QUIT = record("mem_01HZY0000000000QUITJOB00002", "Alice quit her job at Alibaba.", "2023-06-01")
TEA_AGAIN = record("mem_01HZY0000000000TEAAGAIN0003", "Alice enjoys green tea.", "2023-06-01")
HIKING = record("mem_01HZY0000000000HIKING000004", "Alice likes hiking.", "2023-06-01")
NEW = [MOVED, QUIT, TEA_AGAIN, HIKING]


def decision(new: str, action: str, target: str | None = None, reason: str = "") -> dict[str, Any]:
    """One decision item as the model would write it."""
    return {"new": new, "action": action, "target": target, "reason": reason or None}


def answer(*items: dict[str, Any]) -> str:
    """The model's answer text for these decisions."""
    return json.dumps({"decisions": list(items)}, ensure_ascii=False)


def chat_body(content: str, *, prompt: int = 400, completion: int = 60) -> str:
    """An OpenAI-compatible chat completion carrying content."""
    return json.dumps(
        {
            "model": "fake-chat",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion},
        }
    )


FOUR_WAYS = answer(
    decision("n1", "UPDATE", "m1", "moved"),
    decision("n2", "INVALIDATE", "m2", "quit"),
    decision("n3", "NOOP", "m3", "same"),
    decision("n4", "ADD"),
)


# A scripted chat server on loopback -------------------------------------------------------


@pytest.fixture
def server(loopback: Callable[[ScriptedServer], None]) -> ScriptedServer:
    """Run a scripted chat server on a free loopback port for one test."""
    return start(loopback)


@pytest.fixture
def judge(server: ScriptedServer) -> Iterator[LLMJudge]:
    """A judge whose chat client talks to the scripted server and gives up quickly."""
    config = OpenAIChatConfig(
        f"http://127.0.0.1:{server.server_address[1]}/v1",
        "fake-chat",
        max_retries=1,
        backoff_s=0.001,
        timeout_s=5.0,
    )
    with OpenAIChatLLM(config) as client:
        yield LLMJudge(client)


def assert_failed(judgement: Judgement, *fragments: str) -> None:
    """The judgement carries an error naming every fragment, and no decisions."""
    assert judgement.decisions == {}
    assert judgement.error is not None
    for fragment in fragments:
        assert fragment in judgement.error


# Decisions -------------------------------------------------------------------------------


def test_reply_is_mapped_to_memory_ids(server: ScriptedServer, judge: LLMJudge) -> None:
    server.script.replies = [(200, chat_body(f"```json\n{FOUR_WAYS}\n```"))]
    judgement = judge.judge(NEW, EXISTING)
    assert judgement.error is None
    assert judgement.decisions == {
        MOVED.id: JudgedDecision("UPDATE", HOME.id, "moved"),
        QUIT.id: JudgedDecision("INVALIDATE", JOB.id, "quit"),
        TEA_AGAIN.id: JudgedDecision("NOOP", TEA.id, "same"),
        HIKING.id: JudgedDecision("ADD", None, None),
    }


def test_handles_and_actions_are_read_loosely(server: ScriptedServer, judge: LLMJudge) -> None:
    reply = answer(
        {"new": " N1 ", "action": "update", "target": "[M1]"},
        decision("n2", "ADD", "null"),
        decision("n3", "Noop", "m3"),
        decision("n4", "ADD", "m3"),  # an ADD's target is dropped
    )
    server.script.replies = [(200, chat_body("<think>m1 is the old city</think>" + reply))]
    judgement = judge.judge(NEW, EXISTING)
    assert judgement.error is None
    assert judgement.decisions[MOVED.id] == JudgedDecision("UPDATE", HOME.id)
    assert judgement.decisions[QUIT.id] == JudgedDecision("ADD")
    assert judgement.decisions[TEA_AGAIN.id] == JudgedDecision("NOOP", TEA.id)
    assert judgement.decisions[HIKING.id] == JudgedDecision("ADD")


def test_chinese_facts(server: ScriptedServer, judge: LLMJudge) -> None:
    old = record("mem_01HZZ00000000000VEGETARIAN01", "小李吃素。", "2023-03-01")
    new = record("mem_01HZZ00000000000NOTVEGGIE002", "小李不再吃素了。", "2023-07-01")
    server.script.replies = [(200, chat_body(answer(decision("n1", "INVALIDATE", "m1", "不再"))))]
    judgement = judge.judge([new], [old])
    assert judgement.decisions == {new.id: JudgedDecision("INVALIDATE", old.id, "不再")}
    (body,) = server.script.bodies
    prompt = body["messages"][1]["content"]
    assert "m1 | 2023-03-01..now | fact | 小李吃素。" in prompt
    assert "n1 | 2023-07-01..now | fact | 小李不再吃素了。" in prompt


# Failures --------------------------------------------------------------------------------


def test_unknown_target_fails_the_whole_reply(server: ScriptedServer, judge: LLMJudge) -> None:
    reply = answer(
        decision("n1", "UPDATE", "m1"),
        decision("n2", "INVALIDATE", "m9"),
        decision("n3", "NOOP", "m3"),
        decision("n4", "ADD"),
    )
    server.script.replies = [(200, chat_body(reply))]
    judgement = judge.judge(NEW, EXISTING)
    assert_failed(judgement, "MalformedOutputError", "'m9'", "n2")
    assert judgement.usage == Usage(calls=1, prompt_tokens=400, completion_tokens=60)


@pytest.mark.parametrize(
    ("item", "fragment"),
    [
        (decision("n2", "UPDATE"), "target None"),  # UPDATE needs a target
        (decision("n2", "UPDATE", "n1"), "'n1'"),  # a new fact is not a target
        (decision("n2", "UPDATE", HOME.id), HOME.id),  # the long id was never offered
        (decision("n2", "DELETE", "m2"), "'DELETE'"),
        (decision("n7", "ADD"), "'n7'"),
        (decision("n1", "ADD"), "twice"),
    ],
)
def test_invalid_decisions_fail(
    server: ScriptedServer, judge: LLMJudge, item: dict[str, Any], fragment: str
) -> None:
    others = [decision(h, "ADD") for h in ("n1", "n3", "n4")]
    server.script.replies = [(200, chat_body(answer(*others, item)))]
    assert_failed(judge.judge(NEW, EXISTING), fragment)


def test_missing_answer_fails(server: ScriptedServer, judge: LLMJudge) -> None:
    reply = answer(decision("n1", "UPDATE", "m1"), decision("n3", "NOOP", "m3"))
    server.script.replies = [(200, chat_body(reply))]
    assert_failed(judge.judge(NEW, EXISTING), "unanswered", "'n2'", "'n4'")


def test_non_json_reply_fails(server: ScriptedServer, judge: LLMJudge) -> None:
    server.script.replies = [(200, chat_body("n1 updates m1, the rest are new."))]
    assert_failed(judge.judge(NEW, EXISTING), "MalformedOutputError", "no JSON")


def test_answer_without_decisions_list_fails(server: ScriptedServer, judge: LLMJudge) -> None:
    server.script.replies = [(200, chat_body('{"n1": "UPDATE m1"}'))]
    assert_failed(judge.judge(NEW, EXISTING), "no 'decisions' list")


def test_http_500_fails(server: ScriptedServer, judge: LLMJudge) -> None:
    server.script.replies = [(500, "{}"), (500, "{}")]
    judgement = judge.judge(NEW, EXISTING)
    assert_failed(judgement, "UnavailableError")
    assert judgement.usage == Usage(calls=1)
    assert len(server.script.bodies) == 2  # one retry, then given up


# Cost and request ------------------------------------------------------------------------


def test_usage_and_prompt_tokens_per_decision(server: ScriptedServer, judge: LLMJudge) -> None:
    server.script.replies = [(200, chat_body(FOUR_WAYS, prompt=480, completion=70))]
    judgement = judge.judge(NEW, EXISTING)
    assert judgement.usage == Usage(calls=1, prompt_tokens=480, completion_tokens=70)
    assert judgement.usage.prompt_tokens > 0
    assert judgement.new_facts == 4
    assert judgement.prompt_tokens_per_decision == 120.0


def test_request_carries_schema_and_handles_not_ids(
    server: ScriptedServer, judge: LLMJudge
) -> None:
    server.script.replies = [(200, chat_body(FOUR_WAYS))]
    judge.judge(NEW, EXISTING)
    (body,) = server.script.bodies
    schema = body["response_format"]["json_schema"]["schema"]
    item = schema["properties"]["decisions"]["items"]["properties"]
    assert item["new"]["enum"] == ["n1", "n2", "n3", "n4"]
    assert item["action"]["enum"] == ["ADD", "UPDATE", "NOOP", "INVALIDATE"]
    assert item["target"]["enum"] == ["m1", "m2", "m3", None]
    system, user = body["messages"]
    assert "bi-temporal" in system["content"]
    prompt = user["content"]
    assert "m1 | 2023-05-08..now | slot=lives_in | fact | Alice lives in Hangzhou." in prompt
    assert "n1 | 2023-06-01..now | slot=residence | fact | Alice moved to Shanghai." in prompt
    assert "mem_" not in json.dumps(body)


def test_nothing_to_judge_makes_no_call(server: ScriptedServer, judge: LLMJudge) -> None:
    judgement = judge.judge(NEW[:2], [])
    assert judgement.decisions == {MOVED.id: JudgedDecision("ADD"), QUIT.id: JudgedDecision("ADD")}
    assert judgement.usage == Usage()
    assert judge.judge([], EXISTING) == Judgement({}, Usage(), None, 0)
    assert judgement.prompt_tokens_per_decision == 0.0
    assert server.script.bodies == []


def test_existing_memory_offered_twice_gets_one_handle() -> None:
    _, user = build_judge_prompt([MOVED], [HOME, HOME, JOB])
    assert "m2 | 2023-05-08..now | slot=works_at" in user.content
    assert "m3" not in user.content


def test_repeated_new_id_is_rejected(judge: LLMJudge) -> None:
    with pytest.raises(ValidationError, match="same new memory id twice"):
        judge.judge([MOVED, MOVED], EXISTING)


def test_long_text_is_cut_in_the_prompt() -> None:
    long = record("mem_long", "Alice " + "really " * 100 + "likes tea.", "2023-05-08")
    _, user = build_judge_prompt([long], [HOME], max_text_chars=40)
    assert "…" in user.content
    assert "likes tea" not in user.content


@pytest.mark.parametrize(
    "settings",
    [{"max_output_tokens": 0}, {"max_text_chars": True}, {"temperature": 3.0}],
)
def test_bad_config_is_rejected(settings: dict[str, Any]) -> None:
    with pytest.raises(ConfigError, match="LLMJudgeConfig"):
        LLMJudgeConfig(**settings)
