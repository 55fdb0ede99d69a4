"""Fusing ranked lists from several retrieval channels into one score per record."""

from __future__ import annotations

from collections.abc import Mapping


def minmax(scores: Mapping[str, float]) -> dict[str, float]:
    """Scale scores to [0, 1] (best = 1) by the list's range; a flat list scores 1."""
    if not scores:
        return {}
    low, high = min(scores.values()), max(scores.values())
    spread = high - low
    if spread <= 1e-12:
        return {key: 1.0 for key in scores}
    return {key: 1.0 - (high - value) / spread for key, value in scores.items()}


def weighted_fusion(
    channels: Mapping[str, Mapping[str, float]],
    weights: Mapping[str, float],
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
        normalised = dict(scores) if channel in absolute else minmax(scores)
        for key, value in normalised.items():
            fused[key] = fused.get(key, 0.0) + weight * value
            parts.setdefault(key, {})[channel] = value
    return fused, parts
