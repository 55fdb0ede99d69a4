"""LoCoMo loading shared by the benchmarks: sessions with dates, turns, questions, evidence."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from dualtrace import Memory

DIA = re.compile(r"D\d+:\d+")


def session_turns(conv: dict[str, Any]) -> list[tuple[str, datetime, list[dict[str, Any]]]]:
    """(session id, date, turns) for each session, in order."""
    out = []
    n = 1
    while f"session_{n}" in conv:
        when = datetime.strptime(conv[f"session_{n}_date_time"], "%I:%M %p on %d %B, %Y")
        out.append((f"session_{n}", when, conv[f"session_{n}"]))
        n += 1
    return out


def turn_text(turn: dict[str, Any]) -> str:
    """A turn's words, with the caption of a shared photo when there is one."""
    caption = turn.get("blip_caption")
    return turn["text"] + (f" [shares a photo: {caption}]" if caption else "")


def ingest(mem: Memory, user: str, conv: dict[str, Any]) -> int:
    """Add every turn with its session date, speaker and dia_id; returns the number of turns."""
    total = 0
    for sid, when, turns in session_turns(conv):
        msgs = [{"id": t["dia_id"], "name": t["speaker"], "content": turn_text(t)} for t in turns]
        mem.add(msgs, user_id=user, session_id=sid, timestamp=when)
        total += len(msgs)
    return total


def questions(conv: dict[str, Any]) -> list[tuple[str, set[str], int, str]]:
    """(question, evidence dia_ids, category, answer) for categories 1-4 (ids repaired)."""
    out = []
    for qa in conv["qa"]:
        if qa["category"] == 5:
            continue
        evidence = {m for e in qa["evidence"] for m in DIA.findall(e.replace("D:", "D"))}
        if evidence:
            out.append((qa["question"], evidence, int(qa["category"]), str(qa.get("answer", ""))))
    return out


def last_session_date(conv: dict[str, Any]) -> datetime:
    """When the conversation's last session took place (questions are asked after it)."""
    return session_turns(conv)[-1][1]
