"""warm_up loads what the first request would otherwise wait for (in a fresh process, so
that no other test has loaded it already)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = """
import sys
import jieba
from dualtrace import Memory
from dualtrace.embed.fake import FakeEmbedder
with Memory(sys.argv[1], embedder=FakeEmbedder()) as mem:
    before = jieba.dt.initialized
    mem.warm_up()
    print(before, jieba.dt.initialized)
"""


def test_warm_up_loads_the_chinese_word_segmenter(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path / "m.db")],
        capture_output=True, text=True, check=True, timeout=120,
    )  # fmt: skip
    assert out.stdout.split() == ["False", "True"]
