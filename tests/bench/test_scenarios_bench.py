"""The scenarios harness: loading, the context measures, and a run on a tiny file."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from scripted_chat import ScriptedServer, memories_reply, start, user_memory

from dualtrace.bench.scenarios import (
    Question,
    context_measures,
    load_scenarios,
    profile_measures,
    run_scenarios,
)
from dualtrace.cli import cli
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.errors import ValidationError
from dualtrace.llm.base import ChatMessage, Completion
from dualtrace.models import Profile, ProfileValue

SCENARIO = {
    "id": "t01",
    "lang": "en",
    "user": "Kim",
    "now": "2026-06-01T10:00:00+00:00",
    "sessions": [
        {
            "date": "2026-03-01T18:00:00+00:00",
            "turns": [
                {"role": "user", "text": "I live in Ghent and I keep two cats."},
                {"role": "assistant", "text": "Lovely, Ghent is a nice city!"},
            ],
        },
        {
            "date": "2026-05-01T18:00:00+00:00",
            "turns": [{"role": "user", "text": "We moved to Leuven last week."}],
        },
    ],
    "questions": [
        {"question": "Which city do I live in?", "current": ["Leuven"], "earlier": ["Ghent"]}
    ],
    "profile": {"current": ["Leuven", "cats"], "stale": ["Ghent"]},
}


def test_context_measures_read_lines_in_order_and_count_marks():
    q = Question("where?", "current", ("Leuven",), ("Ghent",))
    assert context_measures("moved to Leuven\nlived in Ghent (earlier)", q) == {
        "context": True,
        "stale_lines": 1,
        "marked_lines": 1,
    }
    assert context_measures("lived in Ghent\nmoved to Leuven", q)["context"] is False
    assert context_measures("nothing here", q)["context"] is False


def test_a_bad_line_is_named(tmp_path: Path):
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps({**SCENARIO, "questions": [{"question": "x"}]}) + "\n")
    with pytest.raises(ValidationError, match=r"bad\.jsonl:1"):
        load_scenarios(path)


def test_a_run_writes_its_report_with_the_profile(tmp_path: Path):
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(SCENARIO) + "\n", encoding="utf-8")
    results = run_scenarios(path, tmp_path / "out", embedder=FakeEmbedder())
    dual = results["engines"]["dualtrace"]
    assert len(dual["rows"]) == 1 and len(dual["profiles"]) == 1
    assert dual["profiles"][0]["expected"] == 2
    assert results["engines"]["turns only"]["profiles"] == []
    report = Path(results["report"]).read_text(encoding="utf-8")
    assert "profile precision" in report and "first_hit" in report


class _ReadingModel:
    """A stand-in extraction model: for each new turn it knows, the memory it states as a
    triple; anything else it is asked (the judge) gets an answer the judge refuses."""

    id = "reading-model"

    def __init__(self, said: dict[str, tuple[str, str, str]]) -> None:
        self.said = said

    def complete(self, messages: list[ChatMessage], **_: object) -> Completion:
        prompt = messages[-1].content
        if "NEW turns" not in prompt:
            return Completion("{}", 10, 2, self.id)
        new = prompt.split("NEW turns", 1)[1]
        memories = [
            user_memory(text, predicate, value)
            for turn, (text, predicate, value) in self.said.items()
            if turn in new
        ]
        return Completion(json.dumps({"memories": memories}), 10, 10, self.id)


def test_with_a_model_the_profile_is_the_models_reading(tmp_path: Path) -> None:
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(SCENARIO) + "\n", encoding="utf-8")
    model = _ReadingModel(
        {
            "I live in Ghent": ("The user lives in Ghent.", "lives_in", "Ghent"),
            "keep two cats": ("The user keeps two cats.", "pet", "cats"),
            "moved to Leuven": ("The user moved to Leuven.", "lives_in", "Leuven"),
        }
    )
    results = run_scenarios(path, tmp_path / "out", embedder=FakeEmbedder(), llm=model)
    (profile,) = results["engines"]["dualtrace"]["profiles"]
    assert (profile["right"], profile["expected"], profile["wrong_values"]) == (2, 2, [])
    assert results["extractor"] == "llm:reading-model"
    assert "extracted by: llm:reading-model" in Path(results["report"]).read_text("utf-8")


def test_the_command_runs_with_a_model_at_an_endpoint(
    tmp_path: Path, loopback: Callable[[ScriptedServer], None]
) -> None:
    server = start(loopback)
    server.script.replies += [
        memories_reply(user_memory("The user lives in Ghent.", "lives_in", "Ghent")),
        memories_reply(user_memory("The user moved.", "lives_in", "Leuven")),
        memories_reply(),  # the judge's answer decides nothing: the slot's own rule does
    ]
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(SCENARIO) + "\n", encoding="utf-8")
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    base = ["bench", "scenarios", "--cases", str(path), "--out", str(tmp_path / "o")]
    alone = CliRunner().invoke(cli, [*base, "--llm", url])
    assert alone.exit_code == 2 and "go together" in alone.output
    ran = CliRunner().invoke(cli, ["--json", *base, "--llm", url, "--llm-model", "m"])
    assert ran.exit_code == 0, ran.output
    assert json.loads(ran.stdout)["dualtrace"]["profile"]["recall"] == 0.5  # Leuven, no cats
    assert [b["model"] for b in server.script.bodies] == ["m", "m", "m"]


class _OneProfile:
    """A memory that answers `profile` with fixed values (the measure reads nothing else)."""

    def __init__(self, *values: tuple[str, str]) -> None:
        self.values = [
            ProfileValue(attribute="works_at", value=v, text=t, memory_id=str(i), since=None)
            for i, (v, t) in enumerate(values)
        ]

    def profile(self, user_id: str, *, as_of: object = None) -> Profile:
        return Profile(user_id=user_id, text="", tokens=0, values=self.values)


def test_a_stale_value_named_only_in_the_statement_is_strictly_wrong(tmp_path: Path) -> None:
    path = tmp_path / "one.jsonl"
    case = {**SCENARIO, "profile": {"current": ["Oxfam"], "stale": ["Unicef"]}}
    path.write_text(json.dumps(case) + "\n", encoding="utf-8")
    scenario = load_scenarios(path)[0]
    mem = _OneProfile(("Oxfam", "Left Unicef, joined Oxfam."), ("Unicef", "Works at Unicef."))
    measured = profile_measures(mem, scenario)  # type: ignore[arg-type]
    assert (measured["shown"], measured["right"], measured["right_strict"]) == (2, 1, 0)


def test_the_user_s_name_is_right_wherever_the_profile_learnt_it(tmp_path: Path) -> None:
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(SCENARIO) + "\n", encoding="utf-8")
    scenario = load_scenarios(path)[0]  # Kim never says "Kim": not expected
    mem = _OneProfile(("Kim", "The user's name is Kim."), ("Bruges", "Lives in Bruges."))
    measured = profile_measures(mem, scenario)  # type: ignore[arg-type]
    assert (measured["shown"], measured["right"], measured["expected"]) == (2, 1, 2)


SHIPPED = Path(__file__).parents[2] / "src" / "dualtrace" / "bench" / "cases"


@pytest.mark.parametrize("path", sorted(SHIPPED.glob("scenarios_*.jsonl")), ids=lambda p: p.stem)
def test_every_shipped_scenario_set_loads_and_names_its_values_in_its_turns(path: Path) -> None:
    """A value no turn says could never be found: every expected, earlier and planned value
    is said in its user's turns, and the user's sessions come in order."""
    for scenario in load_scenarios(path):
        said = " ".join(t["text"] for _, turns in scenario.sessions for t in turns).casefold()
        values = {*scenario.profile_current, *scenario.profile_stale}
        for q in scenario.questions:
            values |= {*q.current, *q.earlier, *q.not_yet}
        assert [v for v in values if v.casefold() not in said] == [], scenario.id
        dates = [start for start, _ in scenario.sessions]
        assert dates == sorted(dates) and dates[-1] <= scenario.now, scenario.id
