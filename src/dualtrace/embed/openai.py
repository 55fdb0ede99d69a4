"""Embedder for any OpenAI-compatible ``POST /embeddings`` endpoint (OpenAI, Ollama, vLLM, TEI)."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Self

import httpx
import numpy as np

from dualtrace.embed.base import Matrix, normalise_rows
from dualtrace.endpoint_checks import check_base_url, check_seconds
from dualtrace.errors import ConfigError, EmbeddingError, ValidationError
from dualtrace.http_post import Endpoint, post_json
from dualtrace.inputs import is_count

__all__ = ["OpenAIEmbedder", "OpenAIEmbedderConfig"]


@dataclass(frozen=True)
class OpenAIEmbedderConfig:
    """Settings for an OpenAI-compatible embeddings endpoint; validated on construction.

    ``dimensions`` is declared by the user and checked against every answer; it is never
    sent to the server. ``api_key`` is kept out of ``repr`` so it cannot leak into logs.
    """

    base_url: str
    model: str
    dimensions: int
    api_key: str | None = field(default=None, repr=False)
    max_batch: int = 64
    timeout_s: float = 30.0
    max_retries: int = 3
    backoff_s: float = 0.5
    query_prefix: str = ""
    passage_prefix: str = ""

    def __post_init__(self) -> None:
        """Raise ConfigError for any setting that cannot work."""
        check_base_url("OpenAIEmbedderConfig", self.base_url)
        if not isinstance(self.model, str) or not self.model.strip():
            raise ConfigError(
                f"OpenAIEmbedderConfig.model is {self.model!r}; "
                "set model= to the embedding model name the server serves "
                "(e.g. 'nomic-embed-text' or 'text-embedding-3-small')"
            )
        _check_int("dimensions", self.dimensions, 1, "the vector size the model returns (e.g. 768)")
        _check_int("max_batch", self.max_batch, 1, "a positive batch size (e.g. 64)")
        _check_int("max_retries", self.max_retries, 0, "0 or more retries (e.g. 3)")
        check_seconds(
            "OpenAIEmbedderConfig", "timeout_s", self.timeout_s, allow_zero=False, example="30"
        )
        check_seconds(
            "OpenAIEmbedderConfig", "backoff_s", self.backoff_s, allow_zero=True, example="0.5"
        )
        for name in ("query_prefix", "passage_prefix"):
            if not isinstance(getattr(self, name), str):
                raise ConfigError(
                    f"OpenAIEmbedderConfig.{name} is {getattr(self, name)!r}; "
                    f"set {name}= to a string ('' for none)"
                )


def _check_int(name: str, value: object, minimum: int, fix: str) -> None:
    """Raise ConfigError unless value is an int (not bool) of at least minimum."""
    if not is_count(value, least=minimum):
        raise ConfigError(
            f"OpenAIEmbedderConfig.{name} is {value!r} but must be an integer >= {minimum}; "
            f"set {name}= to {fix}"
        )


class OpenAIEmbedder:
    """Embeds texts through an OpenAI-compatible ``POST {base_url}/embeddings`` endpoint.

    One ``httpx.Client`` per embedder; call ``close()`` or use it as a context manager.
    Inputs are sent in batches of ``max_batch``; transient failures (connection errors,
    timeouts, 429, 5xx) are retried with exponential backoff. Texts are never logged.
    """

    language_gap = 0.0  # not measured for a served model (see `Embedder`)

    def __init__(self, config: OpenAIEmbedderConfig) -> None:
        """Open an HTTP client for the configured endpoint."""
        self._config = config
        self._url = config.base_url.rstrip("/") + "/embeddings"
        headers = {"Accept": "application/json"}
        if config.api_key:
            headers["Authorization"] = f"Bearer {config.api_key}"
        self._client = httpx.Client(timeout=config.timeout_s, headers=headers)
        self._endpoint = Endpoint(
            "embedding request",
            self._url,
            config.max_retries,
            config.backoff_s,
            error=EmbeddingError,
            reject_hint=f"check model={config.model!r}, api_key and base_url",
            unavailable=EmbeddingError,
            malformed=EmbeddingError,
        )

    @property
    def id(self) -> str:
        """Model identity, independent of the host serving it."""
        return f"openai:{self._config.model}"

    @property
    def dimensions(self) -> int:
        """Declared vector size."""
        return self._config.dimensions

    @property
    def max_batch(self) -> int:
        """Most texts sent in one request."""
        return self._config.max_batch

    @property
    def config(self) -> OpenAIEmbedderConfig:
        """The settings this embedder was built with."""
        return self._config

    def embed_passages(self, texts: list[str]) -> Matrix:
        """Embed stored texts (with passage_prefix); returns shape (len(texts), dimensions)."""
        return self._embed(_prefixed(self._config.passage_prefix, texts))

    def embed_queries(self, texts: list[str]) -> Matrix:
        """Embed search queries (with query_prefix); returns shape (len(texts), dimensions)."""
        return self._embed(_prefixed(self._config.query_prefix, texts))

    def close(self) -> None:
        """Close the underlying HTTP client."""
        self._client.close()

    def __enter__(self) -> Self:
        """Return self; the client is closed on exit."""
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Close the HTTP client."""
        self.close()

    def _embed(self, texts: list[str]) -> Matrix:
        """Embed texts batch by batch and return unit-length float32 rows."""
        if not texts:
            return np.zeros((0, self._config.dimensions), dtype=np.float32)
        size = self._config.max_batch
        parts = [self._embed_batch(texts[i : i + size]) for i in range(0, len(texts), size)]
        return normalise_rows(np.vstack(parts).astype(np.float32))

    def _embed_batch(self, batch: list[str]) -> Matrix:
        """Send one request and return its vectors in input order."""
        payload = self._post({"model": self._config.model, "input": batch})
        embeddings = _ordered_embeddings(payload, len(batch), self._url)
        rows = [self._vector(embedding) for embedding in embeddings]
        return np.stack(rows)

    def _post(self, body: dict[str, Any]) -> Any:
        """POST body, retrying transient failures; return the decoded JSON answer."""
        return post_json(self._client, self._endpoint, body)

    def _vector(self, embedding: object) -> Matrix:
        """Check one embedding has exactly `dimensions` finite floats; return it as float32."""
        expected = self._config.dimensions
        if not isinstance(embedding, list):
            raise EmbeddingError(
                f"{self._url} returned an embedding of type {type(embedding).__name__}, "
                "expected a list of floats; use a server that answers encoding_format 'float'"
            )
        if len(embedding) != expected:
            raise EmbeddingError(
                f"model {self._config.model!r} at {self._url} returned {len(embedding)}-"
                f"dimensional vectors but dimensions={expected} was declared; "
                f"set dimensions={len(embedding)} to match the model"
            )
        try:
            row = np.asarray(embedding, dtype=np.float32)
        except (TypeError, ValueError) as exc:
            raise EmbeddingError(
                f"{self._url} returned an embedding that is not a list of numbers; "
                "check base_url points at an embeddings endpoint"
            ) from exc
        if row.shape != (expected,) or not bool(np.all(np.isfinite(row))):
            raise EmbeddingError(
                f"{self._url} returned an embedding with non-finite or nested values; "
                "check the model and server"
            )
        return row


def _prefixed(prefix: str, texts: list[str]) -> list[str]:
    """Check texts are strings and prepend prefix to each."""
    if not isinstance(texts, list):
        raise ValidationError(f"texts must be a list of str, got {type(texts).__name__}")
    for position, text in enumerate(texts):
        if not isinstance(text, str):
            raise ValidationError(
                f"texts[{position}] is a {type(text).__name__}, not str; pass only strings"
            )
    return [prefix + text for text in texts] if prefix else list(texts)


def _ordered_embeddings(payload: Any, expected: int, url: str) -> list[object]:
    """Return the `embedding` of each item in `payload['data']`, sorted by `index`."""
    data = payload.get("data") if isinstance(payload, dict) else None
    if not isinstance(data, list):
        raise EmbeddingError(
            f"{url} answered without a 'data' list; check base_url points at an "
            "OpenAI-compatible API root (usually ending in /v1)"
        )
    if len(data) != expected:
        raise EmbeddingError(
            f"{url} returned {len(data)} embeddings for {expected} inputs; "
            "check the server supports batched input or lower max_batch"
        )
    keyed: list[tuple[int, object]] = []
    for position, item in enumerate(data):
        index = item.get("index", position) if isinstance(item, dict) else None
        if not isinstance(index, int) or isinstance(index, bool) or "embedding" not in item:
            raise EmbeddingError(
                f"{url} returned data[{position}] without an integer 'index' and an "
                "'embedding'; check the server speaks the OpenAI embeddings protocol"
            )
        keyed.append((index, item["embedding"]))
    keyed.sort(key=lambda pair: pair[0])
    if [index for index, _ in keyed] != list(range(expected)):
        raise EmbeddingError(
            f"{url} returned embedding indices that are not 0..{expected - 1}; "
            "check the server speaks the OpenAI embeddings protocol"
        )
    return [embedding for _, embedding in keyed]
