"""QA with an LLM in a benchmark run, against an OpenAI-compatible server on loopback.

The server plays a reader that answers only what its context holds (the gold answer when the
normalised gold occurs in the prompt's memory, else "I do not know") and a judge that checks
the answer against the gold in the prompt it is sent. So a method's QA accuracy must equal
its answer-in-context figure question by question, and each judge prompt must be the
benchmark's.
"""

from __future__ import annotations

import gzip
import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, cast

import pytest
from click.testing import CliRunner

from dualtrace.bench import run_locomo, run_longmemeval
from dualtrace.bench import runner as bench_runner
from dualtrace.bench.dataset import Question
from dualtrace.bench.metrics import answer_in_context, normalise_answer
from dualtrace.bench.qa import QAGrader, judge_prompt, read_verdict
from dualtrace.cli import cli
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.errors import ConfigError
from dualtrace.llm.base import ChatMessage, Completion
from dualtrace.llm.openai import OpenAIChatConfig, OpenAIChatLLM

DATA = Path(__file__).parent / "data"
LME_GOLD = {
    "Which city did I move to for my new job?": "Rotterdam",
    "How many violins do I own?": "The information provided is not enough.",
}
LOCOMO_GOLD = {
    "What is the name of Bob's kitten?": "Pepper",
    "What did Alice make in her pottery class?": "a blue vase",
    "Where is Alice flying for the conference?": "Lisbon",
}
_MEMORY = re.compile(r"Memory:\n(.*)\n\nCurrent date: .*\nQuestion: (.*?)\n\n", re.DOTALL)
_LME_JUDGED = re.compile(
    r"(?:Correct Answer|Rubric|Explanation): (.*?)\n\nModel Response: (.*?)\n\n", re.DOTALL
)
_LOCOMO_JUDGED = re.compile(r"Gold answer: ([^\n]*)\nGenerated answer: (.*?)\n\nFirst,", re.DOTALL)


@dataclass
class Calls:
    """What the server was asked, by model, and which of its replies should fail."""

    prompts: dict[str, list[str]] = field(default_factory=dict)
    fail_models: set[str] = field(default_factory=set)
    lock: threading.Lock = field(default_factory=threading.Lock)
    active: int = 0
    peak: int = 0  # most requests in flight at once


class ReaderServer(ThreadingHTTPServer):
    daemon_threads = True
    calls: Calls


class Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        calls = cast(ReaderServer, self.server).calls
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        model, prompt = body["model"], body["messages"][-1]["content"]
        with calls.lock:
            calls.prompts.setdefault(model, []).append(prompt)
            calls.active += 1
            calls.peak = max(calls.peak, calls.active)
        try:
            self._answer(calls, model, prompt)
        finally:
            with calls.lock:
                calls.active -= 1

    def _answer(self, calls: Calls, model: str, prompt: str) -> None:
        time.sleep(0.02)  # a model takes a while: parallel calls overlap
        if model in calls.fail_models:
            self._send(500, {"error": {"message": "model overloaded"}})
            return
        text = reply(model, prompt)
        message = {"role": "assistant", "content": text}
        usage = {"prompt_tokens": len(prompt) // 4, "completion_tokens": 5, "total_tokens": 0}
        self._send(
            200, {"model": model, "choices": [{"index": 0, "message": message}], "usage": usage}
        )

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""


def reply(model: str, prompt: str) -> str:
    """The reader answers from its memory only; the judges compare with the gold."""
    if model == "reader":
        found = _MEMORY.search(prompt)
        assert found, prompt[-300:]
        memory, question = found.groups()
        gold = {**LME_GOLD, **LOCOMO_GOLD}[question]
        return f"It was {gold}." if answer_in_context(gold, memory) else "I do not know."
    if "Answer yes or no only." in prompt:  # LongMemEval's judge
        gold, response = _LME_JUDGED.findall(prompt)[-1]
        if "unanswerable" in prompt:
            return "Yes." if "do not know" in response else "No."
        return "Yes." if normalise_answer(gold) in normalise_answer(response) else "No."
    gold, response = _LOCOMO_JUDGED.findall(prompt)[-1]
    right = normalise_answer(gold) in normalise_answer(response)
    return 'Same topic. {"label": "CORRECT"}' if right else 'No. {"label": "WRONG"}'


@pytest.fixture
def server(loopback: Callable[[ReaderServer], None]) -> ReaderServer:
    httpd = ReaderServer(("127.0.0.1", 0), Handler)
    httpd.calls = Calls()
    loopback(httpd)
    return httpd


def url(httpd: ReaderServer) -> str:
    return f"http://127.0.0.1:{httpd.server_address[1]}/v1"


def client(httpd: ReaderServer, model: str) -> OpenAIChatLLM:
    return OpenAIChatLLM(OpenAIChatConfig(url(httpd), model, max_retries=0, timeout_s=30))


def lme_file(tmp_path: Path) -> Path:
    path = tmp_path / "lme.json.gz"
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.write((DATA / "longmemeval_tiny.json").read_text())
    return path


def per_question(report: Path) -> list[dict[str, Any]]:
    lines = (report.parent / "questions.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def test_longmemeval_qa_equals_what_each_context_holds(
    server: ReaderServer, tmp_path: Path
) -> None:
    reader, judge = client(server, "reader"), client(server, "judge")
    report = run_longmemeval(
        lme_file(tmp_path),
        budgets=(12, 3000),
        ks=(5,),
        out=tmp_path / "out",
        cache=tmp_path / "cache.sqlite",
        embedder=FakeEmbedder,
        progress=False,
        llm=reader,
        judge_llm=judge,
    )
    records = per_question(report)
    scored = [r for r in records if r["qid"] == "q_user_1"]
    assert len(scored) == 5  # every method, the full history included
    for record in scored:
        for budget in (12, 3000):
            assert record[f"qa@{budget}"] == record[f"answer@{budget}"], record
            assert record["responses"][f"qa@{budget}"].startswith(("It was", "I do not know"))
    assert {r[f"qa@{b}"] for r in scored for b in (12, 3000)} == {0.0, 1.0}  # both happen
    full = next(r for r in scored if r["method"] == "full history")
    assert full["qa@12"] == full["qa@3000"] == 1.0 and full["f1@12"] == pytest.approx(0.5)
    abstained = [r for r in records if r["qid"] == "q_multi_2_abs"]
    assert all(r["qa@3000"] == 1.0 for r in abstained)  # "I do not know" is right here
    # one answer per question for the full history, one per budget for the others
    assert len(server.calls.prompts["reader"]) == len(server.calls.prompts["judge"]) == 2 + 4 * 4
    judged = server.calls.prompts["judge"]
    assert sum("correctly identify the question as unanswerable" in p for p in judged) == 9
    assert sum(p.startswith("I will give you a question, a correct answer") for p in judged) == 9
    text = report.read_text()
    assert "QA accuracy (LLM judge)" in text and "`openai:reader` answers" in text
    assert "`openai:judge` grades with its judge prompts" in text and "0 failed" in text
    data = json.loads((report.parent / "results.json").read_text())
    assert data["qa"]["calls"] == {"answer": 18, "judge": 18}
    assert server.calls.peak > 1  # qa_workers=4: calls ran side by side


def test_locomo_qa_from_the_cli_with_the_locomo_judge(
    server: ReaderServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bench_runner, "_default_embedder", FakeEmbedder)
    out = tmp_path / "out"
    args = [
        "bench",
        "locomo",
        "--data",
        str(DATA / "locomo"),
        "--budgets",
        "300,4000",
        "--k",
        "5",
        "--out",
        str(out),
        "--cache",
        str(tmp_path / "c.sqlite"),
        "--llm",
        url(server),
        "--llm-model",
        "reader",
        "--judge-model",
        "judge",
        "--qa-budgets",
        "4000",
        "--llm-workers",
        "2",
    ]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    records = per_question(out / "report.md")
    for record in records:
        assert "qa@300" not in record
        assert record.get("qa@4000") == record["answer@4000"]
    assert any(r["qa@4000"] == 1.0 for r in records if r["method"] == "dualtrace")
    # 3 scored questions; the adversarial one has no gold answer and is not asked
    assert len(server.calls.prompts["reader"]) == 5 * 3
    assert all("CORRECT or WRONG" in p for p in server.calls.prompts["judge"])
    assert "Mem0's LLM-as-a-judge prompt" in (out / "report.md").read_text()


def test_failed_calls_leave_questions_unscored_and_are_counted(
    server: ReaderServer, tmp_path: Path
) -> None:
    server.calls.fail_models.add("judge")
    report = run_locomo(
        DATA / "locomo",
        budgets=(4000,),
        ks=(5,),
        out=tmp_path / "out",
        cache=tmp_path / "cache.sqlite",
        embedder=FakeEmbedder,
        progress=False,
        llm=client(server, "reader"),
        judge_llm=client(server, "judge"),
    )
    scored = [r for r in per_question(report) if "qa@4000" in r and r["answer@4000"] is not None]
    assert scored and all(r["qa@4000"] is None for r in scored)
    assert all(r["responses"]["qa@4000"] for r in scored)  # the answers are kept
    assert "15 failed (those questions unscored)" in report.read_text()


def test_qa_budgets_must_be_measured_budgets(server: ReaderServer, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"qa budgets \[700\] are not among"):
        run_locomo(
            DATA / "locomo",
            budgets=(500,),
            out=tmp_path / "out",
            cache=tmp_path / "c.sqlite",
            embedder=FakeEmbedder,
            progress=False,
            llm=client(server, "reader"),
            qa_budgets=(700,),
        )


def test_cli_llm_options_need_each_other(tmp_path: Path) -> None:
    base = ["bench", "locomo", "--data", str(DATA / "locomo"), "--out", str(tmp_path / "o")]
    alone = CliRunner().invoke(cli, [*base, "--llm", "http://127.0.0.1:9/v1"])
    assert alone.exit_code == 2 and "needs --llm-model NAME" in alone.output
    orphan = CliRunner().invoke(cli, [*base, "--llm-model", "reader"])
    assert orphan.exit_code == 2 and "need --llm URL" in orphan.output


def question(category: str, answer: str = "Lisbon") -> Question:
    from datetime import UTC, datetime

    return Question("q", "Where?", answer, category, frozenset(), datetime(2024, 1, 1, tzinfo=UTC))


def test_judge_prompt_follows_the_question_type() -> None:
    temporal = judge_prompt("longmemeval", question("temporal-reasoning"), "Lisbon")
    assert "off-by-one errors" in temporal and "Correct Answer: Lisbon" in temporal
    update = judge_prompt("longmemeval", question("knowledge-update"), "Lisbon")
    assert "updated answer" in update and "off-by-one" not in update
    rubric = judge_prompt("longmemeval", question("single-session-preference"), "x")
    assert "Rubric: Lisbon" in rubric
    assert "Gold answer: Lisbon\nGenerated answer: x" in judge_prompt("locomo", question("2"), "x")


@pytest.mark.parametrize(
    ("benchmark", "reply_text", "expected"),
    [
        ("longmemeval", "Yes.", 1.0),
        ("longmemeval", "no", 0.0),
        ("locomo", '{"label": "CORRECT"}', 1.0),
        ("locomo", 'It refers to another date. {"label": "WRONG"}', 0.0),
        ("locomo", "Both name the city, so: CORRECT", 1.0),
        ("locomo", "I cannot tell.", 0.0),
    ],
)
def test_read_verdict(benchmark: str, reply_text: str, expected: float) -> None:
    assert read_verdict(benchmark, reply_text) == expected


@dataclass
class Thinker:
    """A reasoning model (unit-test fake): each reply opens with a <think> block."""

    replies: list[str]

    @property
    def id(self) -> str:
        return "fake:thinker"

    def complete(self, messages: list[ChatMessage], **_: Any) -> Completion:
        return Completion(self.replies.pop(0), 10, 5, "thinker")


def test_reasoning_blocks_are_neither_answer_nor_verdict() -> None:
    reader = Thinker(
        [
            "<think>It could be Porto, or yes, Lisbon.</think>Lisbon.",
            "<think>Yes, it is Lisbon, unless",
        ]
    )
    judge = Thinker(
        [
            "<think>Lisbon is the gold; yes.</think>Yes.",
            "<think>An empty answer; yes or no? The answer is</think>No.",
        ]
    )
    grader = QAGrader(reader, judge, "longmemeval")
    first = grader.grade(question("single-session-user"), "Ann flies to Lisbon.")
    assert (first.response, first.correct, first.f1) == ("Lisbon.", 1.0, 1.0)
    cut_off = grader.grade(question("single-session-user"), "Ann flies to Lisbon.")
    assert (cut_off.response, cut_off.correct) == ("", 0.0)  # never finished thinking


def test_qa_workers_must_be_a_positive_count(server: ReaderServer, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="qa_workers=0"):
        run_locomo(
            DATA / "locomo",
            budgets=(500,),
            out=tmp_path / "out",
            cache=tmp_path / "c.sqlite",
            embedder=FakeEmbedder,
            progress=False,
            llm=client(server, "reader"),
            qa_workers=0,
        )
