"""End-to-end QA with an LLM: answer each question from a method's context, grade the answer
with the benchmark's judge.

Every method gets the same answer prompt — the full-history baseline too, so its figure is
the same model reading everything. Judges:

- LongMemEval: the prompts of its `src/evaluation/evaluate_qa.py` (MIT licence, © 2024 Di
  Wu), one per question type and one for abstention; the answer is correct when the judge's
  reply contains "yes", as there.
- LoCoMo ships no judge (its own metric is token F1, reported here too): the LLM-as-a-judge
  prompt of the Mem0 paper (Chhikara et al., 2025), which later LoCoMo results use; the
  reply's label is read from its JSON, or its last CORRECT / WRONG.

Reasoning models' `<think>` blocks are dropped from answers and verdicts (a "yes" mulled
over in the reasoning is not the judge's verdict). A call that fails after the client's
retries is counted as a failure and left unscored
(None), so a long run is not lost to one timeout; the report says how many failed.
"""

from __future__ import annotations

import logging
import re
import threading
from collections import Counter
from dataclasses import dataclass, field

from dualtrace.bench.dataset import Question
from dualtrace.bench.longmemeval import ABSTENTION
from dualtrace.bench.metrics import token_f1
from dualtrace.errors import LLMError
from dualtrace.llm.base import LLM, ChatMessage
from dualtrace.llm.json_output import parse_json_object, strip_reasoning

log = logging.getLogger(__name__)

# room for a reasoning model's <think> block before its answer; others stop long before
QA_WORKERS = 4  # LLM calls at a time, by default
ANSWER_TOKENS = 1024
JUDGE_TOKENS = 1024

ANSWER_SYSTEM = (
    "You are a helpful assistant with a memory of your earlier conversations with the user. "
    "Answer from the memory given in the message; it is all you remember."
)
ANSWER_PROMPT = """Memory:
{context}

Current date: {now}
Question: {question}

Answer the question from the memory above in a short phrase or sentence. If the memory \
does not hold the answer, say that you do not know."""

# LongMemEval's judge prompts (src/evaluation/evaluate_qa.py), by question type.
_LME_CORE = (
    "I will give you a question, a correct answer, and a response from a model. Please answer "
    "yes if the response contains the correct answer. Otherwise, answer no. If the response is "
    "equivalent to the correct answer or contains all the intermediate steps to get the "
    "correct answer, you should also answer yes. If the response only contains a subset of the "
    "information required by the answer, answer no."
)
_LME_TAIL = (
    "\n\nQuestion: {question}\n\nCorrect Answer: {answer}\n\nModel Response: {response}\n\n"
    "Is the model response correct? Answer yes or no only."
)
LONGMEMEVAL_JUDGE = {
    "default": _LME_CORE + " " + _LME_TAIL,
    "temporal-reasoning": _LME_CORE
    + " In addition, do not penalize off-by-one errors for the number of days. If the question "
    "asks for the number of days/weeks/months, etc., and the model makes off-by-one errors "
    "(e.g., predicting 19 days when the answer is 18), the model's response is still correct. "
    + _LME_TAIL,
    "knowledge-update": (
        "I will give you a question, a correct answer, and a response from a model. Please "
        "answer yes if the response contains the correct answer. Otherwise, answer no. If the "
        "response contains some previous information along with an updated answer, the "
        "response should be considered as correct as long as the updated answer is the "
        "required answer." + _LME_TAIL
    ),
    "single-session-preference": (
        "I will give you a question, a rubric for desired personalized response, and a "
        "response from a model. Please answer yes if the response satisfies the desired "
        "response. Otherwise, answer no. The model does not need to reflect all the points in "
        "the rubric. The response is correct as long as it recalls and utilizes the user's "
        "personal information correctly.\n\nQuestion: {question}\n\nRubric: {answer}\n\n"
        "Model Response: {response}\n\nIs the model response correct? Answer yes or no only."
    ),
    ABSTENTION: (
        "I will give you an unanswerable question, an explanation, and a response from a "
        "model. Please answer yes if the model correctly identifies the question as "
        "unanswerable. The model could say that the information is incomplete, or some other "
        "information is given but the asked information is not.\n\nQuestion: {question}\n\n"
        "Explanation: {answer}\n\nModel Response: {response}\n\nDoes the model correctly "
        "identify the question as unanswerable? Answer yes or no only."
    ),
}

# The Mem0 paper's LLM-as-a-judge prompt for LoCoMo.
LOCOMO_JUDGE = """Your task is to label an answer to a question as 'CORRECT' or 'WRONG'. You \
will be given the following data:
    (1) a question (posed by one user to another user),
    (2) a 'gold' (ground truth) answer,
    (3) a generated answer
which you will score as CORRECT/WRONG.

The point of the question is to ask about something one user should know about the other \
user based on their prior conversations.
The gold answer will usually be a concise and short answer that includes the referenced \
topic, for example:
Question: Do you remember what I got the last time I went to Hawaii?
Gold answer: A shell necklace
The generated answer might be much longer, but you should be generous with your grading - \
as long as it touches on the same topic as the gold answer, it should be counted as CORRECT.

For time related questions, the gold answer will be a specific date, month, year, etc. The \
generated answer might be much longer or use relative time references (like "last Tuesday" \
or "next month"), but you should be generous with your grading - as long as it refers to \
the same date or time period as the gold answer, it should be counted as CORRECT. Even if \
the format differs (e.g., "May 7th" vs "7 May"), consider it CORRECT if it's the same date.

Now it's time for the real question:
Question: {question}
Gold answer: {answer}
Generated answer: {response}

First, provide a short (one sentence) explanation of your reasoning, then finish with \
CORRECT or WRONG.
Do NOT include both CORRECT and WRONG in your response, or it will break the evaluation \
script.

Just return the label CORRECT or WRONG in a json format with the key as "label"."""

_LABEL = re.compile(r"\b(CORRECT|WRONG)\b")
JUDGES = ("longmemeval", "locomo")


@dataclass(frozen=True)
class Graded:
    """One answer and its grade: `correct` 1.0 / 0.0, None when a call failed."""

    response: str | None
    correct: float | None
    f1: float | None


@dataclass
class QAGrader:
    """Answers with `answerer` from a context, grades with `judge` using `benchmark`'s judge
    prompt (`JUDGES`). Counts calls and failures; failures leave the question unscored.
    `grade` may run in several threads at once (the clients must allow it; OpenAIChatLLM
    does)."""

    answerer: LLM
    judge: LLM
    benchmark: str
    calls: Counter[str] = field(default_factory=Counter)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        if self.benchmark not in JUDGES:
            raise ValueError(f"no judge for benchmark {self.benchmark!r}; known: {JUDGES}")

    def grade(self, question: Question, context: str) -> Graded:
        """Answer `question` from `context` and judge the answer against the gold answer."""
        if question.answer is None:  # nothing to grade against (LoCoMo adversarial)
            return Graded(None, None, None)
        prompt = ANSWER_PROMPT.format(
            context=context, now=f"{question.now:%Y-%m-%d (%a) %H:%M}", question=question.text
        )
        response = self._call(
            self.answerer,
            [ChatMessage("system", ANSWER_SYSTEM), ChatMessage("user", prompt)],
            ANSWER_TOKENS,
            "answer",
        )
        if response is None:
            return Graded(None, None, None)
        verdict = self._call(
            self.judge,
            [ChatMessage("user", judge_prompt(self.benchmark, question, response))],
            JUDGE_TOKENS,
            "judge",
        )
        correct = None if verdict is None else read_verdict(self.benchmark, verdict)
        return Graded(response, correct, token_f1(response, question.answer))

    def _call(
        self, llm: LLM, messages: list[ChatMessage], max_tokens: int, what: str
    ) -> str | None:
        with self._lock:
            self.calls[what] += 1
        try:
            reply = llm.complete(messages, max_tokens=max_tokens, temperature=0.0).text
            return strip_reasoning(reply)  # a reasoning model's "<think>" is not its answer
        except LLMError as exc:
            with self._lock:
                self.calls[f"{what} failed"] += 1
            log.warning("QA %s call failed (%s); the question is left unscored", what, exc)
            return None


def judge_prompt(benchmark: str, question: Question, response: str) -> str:
    """The benchmark's judge prompt for this question and model response."""
    answer = question.answer or ""
    if benchmark == "locomo":
        return LOCOMO_JUDGE.format(question=question.text, answer=answer, response=response)
    template = LONGMEMEVAL_JUDGE.get(question.category, LONGMEMEVAL_JUDGE["default"])
    return template.format(question=question.text, answer=answer, response=response)


def read_verdict(benchmark: str, reply: str) -> float:
    """1.0 when the judge's reply says correct: LongMemEval's rule ("yes" anywhere in it), or
    LoCoMo's label (the JSON "label", else the last CORRECT / WRONG; neither: wrong)."""
    if benchmark == "longmemeval":
        return 1.0 if "yes" in reply.lower() else 0.0
    try:
        label = str(parse_json_object(reply).get("label", ""))
    except LLMError:  # no JSON object: read the words
        label = ""
    if not _LABEL.fullmatch(label.strip().upper()):
        found = _LABEL.findall(reply.upper())
        label = found[-1] if found else "WRONG"
    return 1.0 if label.strip().upper() == "CORRECT" else 0.0
