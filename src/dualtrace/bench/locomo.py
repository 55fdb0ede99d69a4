"""LoCoMo loader: one user per conversation, sessions with their dates, questions with evidence.

Files are `*.json` in one folder (snap-research/locomo, one conversation per file): speaker_a,
speaker_b, session_N (turns {speaker, dia_id, text, blip_caption?}), session_N_date_time
("1:56 pm on 8 May, 2023") and qa ({question, answer | adversarial_answer, evidence,
category}). Categories 1-4 are scored; 5 (adversarial, unanswerable) is reported apart.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from dualtrace.bench.dataset import Benchmark, Question, Session, Turn, Unit
from dualtrace.errors import ValidationError

DATE_FORMAT = "%I:%M %p on %d %B, %Y"
CATEGORIES = {
    1: "1 multi-hop",
    2: "2 temporal",
    3: "3 open-domain",
    4: "4 single-hop",
    5: "5 adversarial",
}
UNSCORED = frozenset({5})
DIA_ID = re.compile(r"D(\d+):(\d+)")
SESSION_KEY = re.compile(r"session_(\d+)")


def repair_evidence(raw: Iterable[object]) -> list[str]:
    """Evidence dia_ids, repaired: "D8:6; D9:17" splits in two, "D:11:26" becomes "D11:26",
    and anything without a turn number ("D") is dropped. Order kept, duplicates removed.

    >>> repair_evidence(["D8:6; D9:17", "D:11:26", "D", "D1:3"])
    ['D8:6', 'D9:17', 'D11:26', 'D1:3']
    """
    found: list[str] = []
    for item in raw:
        text = str(item).replace("D:", "D")
        found.extend(f"D{m[1]}:{m[2]}" for m in DIA_ID.finditer(text))
    return list(dict.fromkeys(found))


def parse_session_date(text: str) -> datetime:
    """A LoCoMo session date such as "1:56 pm on 8 May, 2023" (naive, read as UTC)."""
    try:
        return datetime.strptime(text.strip(), DATE_FORMAT)
    except ValueError as exc:
        raise ValidationError(
            f"LoCoMo session date {text!r} does not match {DATE_FORMAT!r}"
        ) from exc


def turn_text(turn: dict[str, Any]) -> str:
    """A turn's words, with the caption of a shared photo when there is one."""
    caption = turn.get("blip_caption")
    return str(turn["text"]) + (f" [shares a photo: {caption}]" if caption else "")


def sessions(conv: dict[str, Any]) -> tuple[Session, ...]:
    """The conversation's sessions in number order, each with its date and turns."""
    numbers = sorted(int(m[1]) for k in conv if (m := SESSION_KEY.fullmatch(k)))
    out = []
    for n in numbers:
        turns = tuple(
            Turn(
                external_id=str(t["dia_id"]),
                role="user",
                speaker=str(t["speaker"]),
                text=turn_text(t),
            )
            for t in conv[f"session_{n}"]
            if str(t.get("text", "")).strip() or t.get("blip_caption")
        )
        if turns:
            when = parse_session_date(conv[f"session_{n}_date_time"])
            out.append(Session(f"session_{n}", when, turns))
    return tuple(out)


def questions(
    name: str, conv: dict[str, Any], known: set[str], now: datetime
) -> tuple[list[Question], int, int]:
    """The conversation's questions; also how many evidence entries were repaired or dropped."""
    out: list[Question] = []
    repaired = dropped = 0
    for index, qa in enumerate(conv.get("qa", [])):
        raw = [str(e) for e in qa.get("evidence", [])]
        ids = repair_evidence(raw)
        repaired += sum(1 for e in raw if not DIA_ID.fullmatch(e))
        dropped += sum(1 for e in ids if e not in known)
        category = int(qa["category"])
        # category 5 has no answer (a few stray "answer" keys excepted): nothing to look for
        answer = None if category in UNSCORED else qa.get("answer")
        out.append(
            Question(
                qid=f"{name}:{index}",
                text=str(qa["question"]),
                answer=None if answer is None else str(answer),
                category=CATEGORIES.get(category, str(category)),
                evidence=frozenset(e for e in ids if e in known),
                now=now,
                scored=category not in UNSCORED,
            )
        )
    return out, repaired, dropped


def load_locomo(folder: Path, *, limit: int | None = None) -> Benchmark:
    """Load the first `limit` conversations (files sorted by name) of a LoCoMo folder.

    Each conversation is its own user ("locomo-<file stem>"); questions are asked the day
    after the conversation's last session.
    """
    files = sorted(Path(folder).glob("*.json"))
    if not files:
        raise ValidationError(f"no LoCoMo *.json files in {folder}; pass the data folder")
    units: list[Unit] = []
    repaired = dropped = 0
    for path in files[:limit]:
        conv = json.loads(path.read_text(encoding="utf-8"))
        history = sessions(conv)
        if not history:
            raise ValidationError(f"{path}: no session_N turns found")
        now = max(s.when for s in history) + timedelta(days=1)
        known = {t.external_id for s in history for t in s.turns}
        qs, rep, drop = questions(path.stem, conv, known, now)
        repaired, dropped = repaired + rep, dropped + drop
        units.append(Unit(f"locomo-{path.stem}", history, tuple(qs)))
    notes = (
        f"{len(units)} conversations from {folder}; questions asked the day after the last "
        "session; category 5 (adversarial) reported apart, not in the overall figures.",
        f"{repaired} malformed evidence entries repaired; {dropped} evidence ids dropped "
        "(no such turn).",
    )
    return Benchmark("locomo", tuple(units), tuple(CATEGORIES.values()), notes)
