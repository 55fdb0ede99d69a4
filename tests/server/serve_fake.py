"""`dualtrace …` with the deterministic fake embedder: the real CLI (and so the real
`dualtrace serve`) in a process of its own, without loading the bundled model.

    python tests/server/serve_fake.py --db memory.db serve --port 8800 --dev
"""

from __future__ import annotations

import sys

import dualtrace.memory
from dualtrace.cli import main
from dualtrace.embed.fake import FakeEmbedder

dualtrace.memory._default_embedder = FakeEmbedder  # type: ignore[assignment]

if __name__ == "__main__":
    sys.argv = ["dualtrace", *sys.argv[1:]]
    main()
