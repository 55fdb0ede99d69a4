"""The Embedder port: text in, unit-length float32 vectors out."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

Matrix = npt.NDArray[np.float32]


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised vectors.

    ``id`` names the model and its variant; it is stored with every vector so a store
    can refuse to mix models. ``dimensions`` and ``max_batch`` are declared, not probed.
    Queries and passages are embedded separately because asymmetric models (e5) need
    different prefixes for each. ``language_gap`` is declared too (see below); a class that
    subclasses `Embedder` inherits its default of none.
    """

    @property
    def id(self) -> str: ...

    @property
    def dimensions(self) -> int: ...

    @property
    def max_batch(self) -> int: ...

    @property
    def language_gap(self) -> float:
        """How much higher (in cosine) the model scores text in a query's own language than
        text in the other one (English vs Chinese), whatever the texts say. Search adds it
        back to keys in the other language (`dense_language_balance`). 0.0: none known."""
        return 0.0

    def embed_passages(self, texts: list[str]) -> Matrix:
        """Embed stored texts; returns shape (len(texts), dimensions)."""
        ...

    def embed_queries(self, texts: list[str]) -> Matrix:
        """Embed search queries; returns shape (len(texts), dimensions)."""
        ...


def normalise_rows(matrix: Matrix) -> Matrix:
    """Scale each row to unit length (rows of zeros stay zero)."""
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    scaled: Matrix = (matrix / norms).astype(np.float32)
    return scaled
