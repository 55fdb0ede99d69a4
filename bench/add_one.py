"""One message at a time: `Memory.add` of each turn of a LoCoMo conversation, as an agent
adds them, with the bundled embedder and rules extraction; prints p50 / p95 per call.

    python bench/add_one.py --data path/to/locomo/26.json --turns 150 [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import tempfile
import time
from datetime import datetime
from pathlib import Path

from timing import p50_p95_ms

from dualtrace import Memory


def turns_of(path: Path) -> list[tuple[str, datetime, dict[str, str]]]:
    """(session id, time, turn) of every turn, in order (a second apart within a session)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    conversation = data.get("conversation", data)
    found = []
    for n in range(1, 100):
        session = conversation.get(f"session_{n}")
        if not session:
            continue
        day = datetime.strptime(conversation[f"session_{n}_date_time"], "%I:%M %p on %d %B, %Y")
        for i, turn in enumerate(session):
            found.append((f"s{n}", day.replace(second=min(59, i)), turn))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="a LoCoMo conversation file")
    parser.add_argument("--turns", type=int, default=150, help="turns to add")
    parser.add_argument("--profile", action="store_true", help="print a cProfile summary")
    args = parser.parse_args()
    times: list[float] = []
    with tempfile.TemporaryDirectory() as folder, Memory(Path(folder) / "m.db") as mem:
        mem.add("warm up", user_id="warm-up")  # the model, tokenizer and segmenter load
        profile = cProfile.Profile() if args.profile else None
        if profile is not None:
            profile.enable()
        for session_id, at, turn in turns_of(args.data)[: args.turns]:
            message = {"role": "user", "name": turn["speaker"], "content": turn["text"]}
            start = time.perf_counter()
            mem.add(
                [{**message, "id": turn["dia_id"]}],
                user_id="u",
                session_id=session_id,
                timestamp=at.isoformat() + "+00:00",
            )
            times.append(time.perf_counter() - start)
        if profile is not None:
            profile.disable()
            pstats.Stats(profile).sort_stats("cumulative").print_stats(25)
    p50, p95 = p50_p95_ms(times)
    print(
        f"turns {len(times)}  p50 {p50:.1f} ms  "
        f"p95 {p95:.1f} ms  turns/s {len(times) / sum(times):.1f}"
    )


if __name__ == "__main__":
    main()
