"""Fusing ranked lists from several retrieval channels into one score per record."""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def minmax(scores: Mapping[str, float], min_spread: float = 0.0) -> dict[str, float]:
    """Scale scores to [0, 1] (best = 1) by the list's range.

    The range is at least `min_spread`, so a near-flat list (a handful of candidates that
    differ by noise) is not stretched into a full 0-to-1 ranking. A flat list scores 1.
    """
    if not scores:
        return {}
    low, high = min(scores.values()), max(scores.values())
    spread = max(high - low, min_spread)
    if spread <= 1e-12:
        return {key: 1.0 for key in scores}
    return {key: 1.0 - (high - value) / spread for key, value in scores.items()}


def weighted_fusion(
    channels: Mapping[str, Mapping[str, float]],
    weights: Mapping[str, float],
    min_spreads: Mapping[str, float] | None = None,
    absolute: frozenset[str] = frozenset(),
) -> tuple[dict[str, float], dict[str, dict[str, float]]]:
    """Weighted sum of min–max normalised channel scores (absent from a channel: 0).

    Channels named in `absolute` already score on a fixed [0, 1] scale and are used as they
    are: stretching them would let a weak match look as strong as a perfect one.

    Returns the fused score per record and each record's normalised per-channel scores.
    """
    fused: dict[str, float] = {}
    parts: dict[str, dict[str, float]] = {}
    for channel, scores in channels.items():
        weight = weights.get(channel, 0.0)
        spread = (min_spreads or {}).get(channel, 0.0)
        normalised = dict(scores) if channel in absolute else minmax(scores, spread)
        for key, value in normalised.items():
            fused[key] = fused.get(key, 0.0) + weight * value
            parts.setdefault(key, {})[channel] = value
    return fused, parts


def rrf_fusion(
    channels: Mapping[str, Sequence[str]], k: int = 60
) -> tuple[dict[str, float], dict[str, dict[str, float]]]:
    """Reciprocal-rank fusion: sum over channels of 1 / (k + rank), rank from 1."""
    fused: dict[str, float] = {}
    parts: dict[str, dict[str, float]] = {}
    for channel, ranked in channels.items():
        for rank, key in enumerate(ranked, start=1):
            value = 1.0 / (k + rank)
            fused[key] = fused.get(key, 0.0) + value
            parts.setdefault(key, {})[channel] = value
    return fused, parts
