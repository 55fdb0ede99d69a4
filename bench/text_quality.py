"""Text quality of the memories the rules extractor writes, counted per 1,000 memories.

Runs the rules extractor directly on conversation turns (no store, no embeddings): every
turn of the LoCoMo dev conversations, the user turns of a stratified subset of LongMemEval-S
dev (`--lme-limit` questions, round-robin over question types; 0 = all), and a small probe
set of EN/ZH turns written for this check. Each memory text is checked by detectors written
here, independently of the extractor's own rewriting (no function is shared with it):

  agreement    "the user are/have/were" (not "Jo and the user are"), "ares", "the user and
               Jo is" (not "… and the user is", two clauses), "用户等人", an article
               dropped after "works as" / "works at"
  dangling     a memory that opens with a pronoun (He, She, Her, They, 他, 她, …)
  filler       a memory that opens with a greeting or discourse opener (Hi, Also, Big news:,
               Anyway, 对了, 哈哈, …)
  smalltalk    a memory that opens with an acknowledgement or small talk (Thanks, Not yet,
               Sure, 还行, 好的, …)
  glued date   a date note, "(Fri 4 December 2026)" or "(tomorrow = Fri 4 December 2026; …)",
               with sentence text after it, or written against a Chinese character with no
               space between (a note set off at the end of the text is not glued)
  recurring    a date given to a day the memory says recurs ("every Monday and Friday …
               (Friday = …)", "每周三和周五 (Fri …)"); a note on another phrase is not
  second person  "you", "your" (no one to a later reader)
  no subject   a statement opening on a verb whose subject chat left out ("Started …")
  addressed    a greeting and a name before the fact, or a name called after it ("…, Jon!")

    PYTHONPATH=src .venv/bin/python bench/text_quality.py \
        --locomo path/to/locomo \
        --lme path/to/longmemeval_s_dev.json.gz --examples 3
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from dualtrace.bench.longmemeval import parse_date, read_items, stratified_sample
from dualtrace.encode.base import Window
from dualtrace.encode.rules import RulesExtractor
from dualtrace.models import Episode

_DAY = r"(?:[A-Z][a-z]{2} )?(?:\d{1,2} )?[A-Z][a-z]+ \d{4}"
_LABEL = rf"{_DAY}(?: – {_DAY})?"
_NOTE = rf"\((?:[^()=;]+ = )?{_LABEL}(?:; [^()=;]+ = {_LABEL})*\)"
_PRONOUN = r"(?:he|she|her|his|him|they|them|their)"
_WEEKDAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_DAY_ZH = r"(?:周|星期|礼拜)[一二三四五六日天]"
# a habit's days: "every Monday, Wednesday and Friday", "on Fridays", "每周三和周五"
_HABIT = re.compile(
    rf"\b(?:every|each)\s+{_WEEKDAY}(?:\W+(?:(?:and|or)\s+)?{_WEEKDAY})*\b"
    rf"|\bon\s+{_WEEKDAY}s(?:\W+(?:(?:and|or)\s+)?{_WEEKDAY}s)*\b"
    r"|每个?(?:周|星期|礼拜)[一二三四五六日天](?:[和跟与或、及,，\s]*(?:周|星期|礼拜)?[一二三四五六日天])*",
    re.I,
)
_HABIT_DAY = re.compile(rf"({_WEEKDAY})|(?:周|星期|礼拜|[、和或及，,])([一二三四五六日天])", re.I)
_NOTE_LABEL = re.compile(r"(?:\(|; )([^()=;]+) = ")


def _days(text: str) -> set[str]:
    return {(en or zh).casefold() for en, zh in _HABIT_DAY.findall(text)}


class _Recurring:
    """A date given to a day that the memory says recurs: a note right after the habit
    ("每周三和周五 (Fri 4 December 2026)"), or one whose label is a day of it ("every Monday
    and Friday … (Friday = Fri 26 May 2023)"); a note on another phrase of the memory
    ("a weekly class … (a month ago = …)") is not."""

    def search(self, text: str) -> bool:
        days: set[str] = set()
        for habit in _HABIT.finditer(text):
            if re.match(rf"\s*{_NOTE}", text[habit.end() :]):
                return True
            days |= _days(habit.group())
        labels = {d for label in _NOTE_LABEL.findall(text) for d in _days(label.strip())}
        return bool(days & labels)


DETECTORS: dict[str, re.Pattern[str] | _Recurring] = {
    "agreement": re.compile(
        # "Matt and the user are" agrees; "… and the user is …" joins two clauses
        r"(?<!\band )\bthe user(?:'s)? (?:are|were|have|am|do|don't|'re|'m|'ve)\b"
        r"|\b(?:ares|ams|weres|haves|wases)\b"
        r"|\bthe user and (?:[A-Z]\w+|others|(?:his|her|their|a|the user's) \w+)"
        r" (?:is|has|was|does|loves|likes|wants)\b"
        # a subject opens its clause: "bought at Sephora and the user has" joins two
        r"|(?:^|[.!?;:]\s+)[A-Z]\w+ and the user (?:is|has|was|does)\b"
        r"|用户等人"
        r"|\bworks? (?:as|at) (?!a\b|an\b|the\b|[A-Z0-9]|home\b|night|\w+ing\b)[a-z]"
    ),
    "dangling": re.compile(rf"^\s*(?:{_PRONOUN}\b|他们|她们|他|她|它)", re.I),
    "filler": re.compile(
        r"^\s*(?:hi|hey|hello|also|anyway|anyways|well|oh|so|wow|haha+|lol|big news|guess what"
        r"|by the way|btw|yeah|yep|um+|ah|okay so|ok so)\b\s*[,!:.…-]"
        r"|^\s*(?:对了|哈哈+|嗯+|啊|哦|另外|话说|其实吧|好消息)[，,！!：:。\s]",
        re.I,
    ),
    "smalltalk": re.compile(
        r"^\s*(?:thanks|thank you|not yet|sure|no problem|sounds good|great|awesome|cool"
        r"|congrat\w*|nice to meet you|that's (?:great|awesome|cool|amazing|so \w+)"
        r"|yes|no|nope|ok|okay|of course|good luck|same here)\b"
        r"\s*(?:[,!.…]|$)"
        r"|^\s*(?:还行|好的|好吧|谢谢|没问题|没事|不客气|还没|是的|对啊|对|行|可以)(?:[，,。！!…\s]|$)",
        re.I,
    ),
    "glued date": re.compile(rf"[\u4e00-\u9fff]{_NOTE}|{_NOTE}(?!\s*[.!?。！？]?\s*$)"),
    # "you" read later by someone else is no one ("Your talk inspired Jo")
    "second person": re.compile(r"\byou(?:r|rs|rself|['’](?:re|ve|ll|d))?\b", re.I),
    # a statement whose subject chat left out ("Started a new job today.")
    "no subject": re.compile(
        r"^\s*(?:(?:just|finally|also|recently|really|so)\s+)*(?:been|gonna|gotta"
        r"|(?:went|got|had|made|took|sold|bought|moved|started|finished|joined|quit|signed"
        r"|booked|tried|visited|decided|loved|spent|learned|picked|adopted|passed)\b)",
        re.I,
    ),
    # whom the speaker addressed, kept in the fact ("Hey Jon, my shop opened", "…, Jon!")
    "addressed": re.compile(
        r"^\s*(?:hi|hey|hello|yeah|wow|thanks)\s+[A-Z][a-z]+\s*[,!]"
        r"|,\s*[A-Z][a-z]+\s*[!?]+$"
    ),
    "recurring": _Recurring(),
}

# Turns written for this check (not from any data set): EN and ZH, with the shapes above.
PROBES: tuple[tuple[str, str], ...] = (
    ("Sam", "Jo and I are flying to Tokyo next week for the conference."),
    ("Sam", "Hi, I'm starting to look for a new flat in Leipzig."),
    ("Sam", "Big news: I accepted the offer from the bakery on Main Street!"),
    ("Sam", "Also, I work as a nurse at the children's hospital."),
    ("Sam", "Not yet, I will measure the living room tomorrow."),
    ("Sam", "Thanks! I really appreciate the help with my garden."),
    ("Sam", "My brother Tom lives in Porto; his birthday is on 3 March."),
    ("Sam", "I go climbing every Thursday evening with my colleagues."),
    ("Sam", "We moved to Graz last month and we love the old town."),
    ("Sam", "Anyway, my daughter starts school next Monday."),
    ("Sam", "对了，我下个月15号要去成都出差。"),
    ("Sam", "还行，就是最近工作太忙了。"),
    ("Sam", "我每周三和周五早上去游泳。"),
    ("Sam", "我们上周末去了杭州看西湖。"),
    ("Sam", "哈哈，我昨天终于考完驾照了。"),
    ("Sam", "好的，我明天把合同发给你。"),
    ("Sam", "我姐姐住在广州，她下周六过生日。"),
    ("Sam", "我和小李打算明年一起去日本旅游。"),
)


@dataclass(frozen=True)
class Turn:
    """One turn to extract from, with the turn before it as context."""

    source: str
    speaker: str
    role: str
    text: str
    when: datetime


def _episode(turn: Turn, seq: int) -> Episode:
    when = turn.when.replace(tzinfo=UTC) if turn.when.tzinfo is None else turn.when
    return Episode(
        id=f"{turn.source}:{seq}",
        user_id="bench",
        session_id=turn.source,
        agent_id=None,
        seq=seq,
        role=turn.role,
        speaker=turn.speaker,
        text=turn.text,
        occurred_at=when,
        recorded_at=when,
        external_id=None,
        metadata={},
        content_hash=str(seq),
    )


def locomo_sessions(folder: Path) -> Iterator[list[Turn]]:
    """Every LoCoMo session, each speaker's turn as a user turn (as `bench locomo` adds them)."""
    for path in sorted(folder.glob("*.json")):
        conv = json.loads(path.read_text(encoding="utf-8"))
        n = 1
        while f"session_{n}" in conv:
            when = datetime.strptime(conv[f"session_{n}_date_time"], "%I:%M %p on %d %B, %Y")
            yield [
                Turn(f"{path.stem}-s{n}", t["speaker"], "user", t["text"], when)
                for t in conv[f"session_{n}"]
            ]
            n += 1


def lme_sessions(path: Path, limit: int) -> Iterator[list[Turn]]:
    """Sessions of a stratified subset of LongMemEval-S dev (each session once)."""
    items = read_items(path)
    if limit:
        items = stratified_sample(items, lambda i: str(i["question_type"]), limit)
    seen: set[str] = set()
    for item in items:
        for sid, day, turns in zip(
            item["haystack_session_ids"],
            item["haystack_dates"],
            item["haystack_sessions"],
            strict=True,
        ):
            if sid in seen:
                continue
            seen.add(sid)
            when = parse_date(day)
            yield [
                Turn(
                    str(sid),
                    "user" if t["role"] == "user" else "assistant",
                    t["role"],
                    str(t["content"]),
                    when,
                )
                for t in turns
                if str(t.get("content", "")).strip()
            ]


def probe_sessions() -> Iterator[list[Turn]]:
    when = datetime(2026, 11, 28, 10, 0)
    yield [Turn("probe", speaker, "user", text, when) for speaker, text in PROBES]


def memories(sessions: Iterable[list[Turn]]) -> Iterator[tuple[str, str]]:
    """(turn text, memory text) for every memory the rules derive, turn by turn."""
    extractor = RulesExtractor()
    for turns in sessions:
        episodes = [_episode(t, i) for i, t in enumerate(turns)]
        names = tuple(dict.fromkeys(t.speaker for t in turns))
        for i, episode in enumerate(episodes):
            if episode.role != "user":
                continue
            context = tuple(episodes[max(0, i - 1) : i])
            window = Window(episodes=(episode,), context=context, participants=names)
            for draft in extractor.extract(window).drafts:
                yield episode.text, draft.text


def measure(pairs: Iterable[tuple[str, str]], examples: int) -> dict[str, Any]:
    total = 0
    counts = dict.fromkeys(DETECTORS, 0)
    shown: dict[str, list[str]] = {name: [] for name in DETECTORS}
    for _turn, text in pairs:
        total += 1
        for name, pattern in DETECTORS.items():
            if pattern.search(text):
                counts[name] += 1
                if len(shown[name]) < examples:
                    shown[name].append(text)
    per_k = {n: round(1000 * c / total, 1) if total else 0.0 for n, c in counts.items()}
    return {"memories": total, "counts": counts, "per_1000": per_k, "examples": shown}


def _print(label: str, result: dict[str, Any]) -> None:
    print(f"{label}: {result['memories']} memories")
    for name, value in result["per_1000"].items():
        print(f"  {name:<11} {value:>7} per 1,000  ({result['counts'][name]})")
        for text in result["examples"][name]:
            print(f"      e.g. {text[:140]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--locomo", type=Path)
    parser.add_argument("--lme", type=Path)
    parser.add_argument("--lme-limit", type=int, default=20)
    parser.add_argument("--examples", type=int, default=2)
    parser.add_argument("--out", type=Path, help="write the figures as JSON")
    args = parser.parse_args()
    results: dict[str, Any] = {}
    if args.locomo:
        results["locomo"] = measure(memories(locomo_sessions(args.locomo)), args.examples)
    if args.lme:
        lme = lme_sessions(args.lme, args.lme_limit)
        results["longmemeval"] = measure(memories(lme), args.examples)
    results["probes"] = measure(memories(probe_sessions()), args.examples)
    for label, result in results.items():
        _print(label, result)
    if args.out:
        args.out.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
