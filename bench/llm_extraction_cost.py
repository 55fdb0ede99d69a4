"""What the LLM extractor would send for LoCoMo: calls and prompt tokens per 100 turns.

No model is needed (none runs on our 2-core machines): a counting stand-in answers every call
with an empty memory list, and each prompt the real extractor builds is measured in
cl100k_base tokens. Completion tokens depend on the model and are not estimated. Turns are
ingested as in the other LoCoMo benchmarks: one `add` call, hence one window, per session.

    .venv/bin/python bench/llm_extraction_cost.py --data path/to/locomo
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

from locomo_data import ingest

from dualtrace import Memory
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.encode.llm_extractor import LLMExtractor
from dualtrace.llm.base import ChatMessage, Completion
from dualtrace.text.tokens import count_tokens


class CountingLLM:
    """Answers `{"memories": []}` and counts what it was sent."""

    calls = 0
    prompt_tokens = 0

    @property
    def id(self) -> str:
        return "counting"

    def complete(
        self,
        messages: list[ChatMessage],
        *,
        json_schema: dict[str, Any] | None = None,
        max_tokens: int = 1024,
        temperature: float = 0.0,
    ) -> Completion:
        tokens = sum(count_tokens(m.content) for m in messages)
        tokens += count_tokens(json.dumps(json_schema)) if json_schema else 0
        CountingLLM.calls += 1
        CountingLLM.prompt_tokens += tokens
        return Completion('{"memories": []}', tokens, 0, self.id)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True, type=Path, help="folder of LoCoMo *.json")
    args = parser.parse_args(argv)
    db = Path(tempfile.mkdtemp()) / "cost.db"
    turns = 0
    extractor = LLMExtractor(CountingLLM())
    with Memory(db, embedder=FakeEmbedder(), extractor=extractor) as mem:
        for f in sorted(args.data.glob("*.json")):
            turns += ingest(mem, f.stem, json.loads(f.read_text()))
    calls, tokens = CountingLLM.calls, CountingLLM.prompt_tokens
    print("| turns | calls | calls / 100 turns | prompt tokens / 100 turns | per call |")
    print("|---|---|---|---|---|")
    print(
        f"| {turns} | {calls} | {100 * calls / turns:.1f} | {100 * tokens / turns:,.0f} "
        f"| {tokens / calls:,.0f} |"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
