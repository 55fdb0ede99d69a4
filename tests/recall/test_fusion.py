"""Score fusion properties."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from dualtrace.recall.fusion import minmax, weighted_fusion

scores = st.dictionaries(
    st.text(min_size=1, max_size=4), st.floats(-100, 100, allow_nan=False), max_size=20
)


@given(scores)
def test_minmax_bounds_and_order(values: dict[str, float]) -> None:
    norm = minmax(values)
    assert set(norm) == set(values)
    assert all(-1e-9 <= v <= 1 + 1e-9 for v in norm.values())
    if values:
        assert max(norm.values()) == 1.0
    for a in values:
        for b in values:
            if values[a] > values[b]:
                assert norm[a] >= norm[b]


def test_minmax_stretches_a_list_to_its_range() -> None:
    assert minmax({"a": 0.80, "b": 0.79, "c": 0.795}) == {"a": 1.0, "b": 0.0, "c": 0.5}
    assert minmax({"a": 0.3, "b": 0.3}) == {"a": 1.0, "b": 1.0}


@given(scores, scores, st.floats(0, 1))
def test_weighted_fusion_is_bounded_and_monotone(
    dense: dict[str, float], lexical: dict[str, float], w: float
) -> None:
    fused, parts = weighted_fusion(
        {"dense": dense, "lexical": lexical}, {"dense": w, "lexical": 1 - w}
    )
    assert set(fused) == set(dense) | set(lexical)
    assert all(-1e-9 <= v <= 1 + 1e-9 for v in fused.values())
    for key in fused:
        assert (
            abs(
                fused[key]
                - sum((w if ch == "dense" else 1 - w) * v for ch, v in parts[key].items())
            )
            < 1e-9
        )


def test_both_channels_beat_one() -> None:
    fused, _ = weighted_fusion(
        {"dense": {"a": 0.9, "b": 0.9, "c": 0.1}, "lexical": {"a": 5.0, "c": 1.0}},
        {"dense": 0.6, "lexical": 0.4},
    )
    assert fused["a"] > fused["b"] > fused["c"]
