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
from dualtrace.text import entities
with Memory(sys.argv[1], embedder=FakeEmbedder()) as mem:
    before = jieba.dt.initialized, entities._posseg.cache_info().currsize
    mem.warm_up()
    print(*before, jieba.dt.initialized, entities._posseg.cache_info().currsize)
"""


def test_warm_up_loads_the_chinese_word_segmenter_and_tagger(tmp_path: Path) -> None:
    # the tagger (names in Chinese questions) took ~2 s on the first Chinese question
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path / "m.db")],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert out.stdout.split() == ["False", "0", "True", "1"]
