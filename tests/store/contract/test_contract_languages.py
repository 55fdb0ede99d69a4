"""SearchIndex: dense search within each key language, standardised, with the cross-lingual
embedder's vectors stored beside the main ones (`search_dense_languages`)."""

from __future__ import annotations

import numpy as np
import pytest

from contract.rows import ACTOR, episode, key, vec
from dualtrace.store.base import SearchScope, Store
from dualtrace.store.languages import PRIOR_KEYS
from dualtrace.store.ports.records import LanguageQuery

XDIM = 5  # the cross-lingual vectors' own dimension, unlike the main ones'


def xvec(*weights: float) -> np.ndarray:
    v = np.zeros(XDIM, dtype=np.float32)
    v[: len(weights)] = weights
    return (v / np.linalg.norm(v)).astype(np.float32)


# (id, text, language, main vector weights, cross-lingual vector weights or None)
KEYS = [
    ("en1", "apples in the orchard", "en", (1,), (1,)),
    ("en2", "pears on the tree", "en", (1, 1), (0, 1)),
    ("en3", "tea in Lyon", "en", (0, 1), (0, 0, 1)),
    ("zh1", "果园里的苹果", "zh", (0.3, 0, 1), (1, 0.2)),
    ("zh2", "树上的梨", "zh", (0, 0, 1, 1), (0, 0, 0, 1)),
    ("zh3", "里昂的茶", "zh", (1, 0, 0, 0, 1), (0, 0, 0, 0, 1)),
]


def _fill(store: Store, user: str = "u", *, without: str | None = None) -> None:
    store.insert_episodes(
        user,
        [episode(user, f"{user}-{i}", text, seq=n) for n, (i, text, *_) in enumerate(KEYS)],
        [
            key(
                f"{user}-{i}",
                text,
                vector=vec(*main),
                xvector=None if i == without else xvec(*cross),
                language=language,
            )
            for i, text, language, main, cross in KEYS
        ],
        ACTOR,
    )


def _z(values: list[float], every: list[float]) -> np.ndarray:
    """z-scores among `values`, their mean and variance weighed against those of `every`
    (all the user's keys) as `PRIOR_KEYS` keys."""
    array, wide = np.array(values, dtype=np.float64), np.array(every, dtype=np.float64)
    n, k = len(array), PRIOR_KEYS
    mean = (n * array.mean() + k * wide.mean()) / (n + k)
    spread = np.sqrt((n * array.var() + k * wide.var()) / (n + k))
    return (array - mean) / spread


def _cosines(query: np.ndarray, vectors: list[np.ndarray]) -> list[float]:
    return [float(query @ v) for v in vectors]


def test_each_language_scores_its_keys_as_z_scores_among_them(store: Store) -> None:
    _fill(store)
    q, xq = vec(1), xvec(1)
    found = store.search_dense_languages(
        "u", {"en": LanguageQuery(q), "zh": LanguageQuery(q, xq)}, 10, SearchScope()
    )
    en = {c.record_id: c.score for c in found["en"].candidates}
    every = _cosines(q, [vec(*k[3]) for k in KEYS])
    expected = _z(_cosines(q, [vec(*k[3]) for k in KEYS[:3]]), every)
    assert list(en) == ["u-en1", "u-en2", "u-en3"]  # best first
    assert np.allclose([en[f"u-en{i}"] for i in (1, 2, 3)], expected, atol=2e-3)
    # the other language: both embedders' z-scores, evenly by default
    zh = {c.record_id: c.score for c in found["zh"].candidates}
    main = _z(_cosines(q, [vec(*k[3]) for k in KEYS[3:]]), _cosines(q, [vec(*k[3]) for k in KEYS]))
    cross = _z(
        _cosines(xq, [xvec(*k[4]) for k in KEYS[3:]]), _cosines(xq, [xvec(*k[4]) for k in KEYS])
    )
    assert np.allclose([zh[f"u-zh{i}"] for i in (1, 2, 3)], (main + cross) / 2, atol=2e-3)
    assert next(iter(zh)) == "u-zh1"  # by the cross-lingual vectors; zh3 is nearer in main
    assert (found["en"].keys, found["zh"].keys, found["zh"].missing) == (3, 3, 0)


@pytest.mark.parametrize("share", [0.0, 0.75, 1.0])
def test_the_cross_lingual_share_weighs_the_two_z_scores(store: Store, share: float) -> None:
    _fill(store)
    q, xq = vec(1), xvec(1)
    found = store.search_dense_languages(
        "u", {"zh": LanguageQuery(q, xq, share)}, 10, SearchScope()
    )
    zh = {c.record_id: c.score for c in found["zh"].candidates}
    main = _z(_cosines(q, [vec(*k[3]) for k in KEYS[3:]]), _cosines(q, [vec(*k[3]) for k in KEYS]))
    cross = _z(
        _cosines(xq, [xvec(*k[4]) for k in KEYS[3:]]), _cosines(xq, [xvec(*k[4]) for k in KEYS])
    )
    expected = (1 - share) * main + share * cross
    assert np.allclose([zh[f"u-zh{i}"] for i in (1, 2, 3)], expected, atol=2e-3)
    # all main: zh3 is nearest to the question; all cross-lingual: zh1
    assert next(iter(zh)) == ("u-zh3" if share == 0.0 else "u-zh1")


def test_a_language_of_a_few_far_keys_scores_below_the_users_average(store: Store) -> None:
    # ten English keys from far to near the query, two Chinese ones far from it: among
    # themselves the nearer of two scores +1 whatever it says; drawn towards all twelve
    # keys it scores below their mean
    english = [
        key(f"en{i}", f"note {i}", vector=vec(1, 1.5 - i / 6), language="en") for i in range(10)
    ]
    chinese = [key(f"zh{i}", f"闲聊{i}", vector=vec(0.1 * i, 1), language="zh") for i in (1, 2)]
    keys = english + chinese
    store.insert_episodes(
        "u", [episode("u", k.record_id, k.body, seq=n) for n, k in enumerate(keys)], keys, ACTOR
    )
    found = store.search_dense_languages("u", {"zh": LanguageQuery(vec(1))}, 5, SearchScope())
    assert found["zh"].keys == 2
    assert max(c.score for c in found["zh"].candidates) < 0


def test_keys_without_a_cross_lingual_vector_are_counted_and_left_out(store: Store) -> None:
    _fill(store, without="zh1")
    q = vec(1)
    found = store.search_dense_languages(
        "u", {"zh": LanguageQuery(q, xvec(1)), "en": LanguageQuery(q)}, 10, SearchScope()
    )
    assert (found["zh"].keys, found["zh"].missing) == (3, 1)
    assert "u-zh1" not in [c.record_id for c in found["zh"].candidates]
    assert found["en"].missing == 0
    # the main embedder alone still scores it
    alone = store.search_dense_languages("u", {"zh": LanguageQuery(q)}, 10, SearchScope())
    assert "u-zh1" in [c.record_id for c in alone["zh"].candidates]


def test_add_vectors_gives_a_missing_cross_lingual_vector_and_keeps_given_ones(
    store: Store,
) -> None:
    _fill(store, without="zh1")
    rebuilt = [
        key(f"u-{i}", text, vector=vec(*main), xvector=xvec(0, 0, 0, 0, 1), language=language)
        for i, text, language, main, _ in KEYS
    ]
    assert store.add_vectors("u", rebuilt) == 1  # only the key that had none
    found = store.search_dense_languages(
        "u", {"zh": LanguageQuery(vec(1), xvec(0, 0, 0, 0, 1))}, 10, SearchScope()
    )
    assert found["zh"].missing == 0
    # zh3's own cross-lingual vector was kept: it and zh1 (given this one) lead together
    assert {c.record_id for c in found["zh"].candidates[:2]} == {"u-zh1", "u-zh3"}


def test_add_vectors_relabels_a_key_given_its_cross_lingual_vector(store: Store) -> None:
    # a key written before keys had their own language: labelled by its full-text body
    store.insert_episodes(
        "u",
        [episode("u", "old", "[2026-01-09 Fri] user: 今天下雨")],
        [key("old", "[2026-01-09 Fri] user: 今天下雨", vector=vec(1), language="en")],
        ACTOR,
    )
    assert store.key_languages("u").get("zh", 0) == 0
    rebuilt = key(
        "old", "[2026-01-09 Fri] user: 今天下雨", vector=vec(1), xvector=xvec(1), language="zh"
    )
    assert store.add_vectors("u", [rebuilt]) == 1
    assert (store.key_languages("u").get("en", 0), store.key_languages("u").get("zh", 0)) == (0, 1)


def test_languages_read_one_user_and_the_scope(store: Store) -> None:
    _fill(store, "u")
    _fill(store, "v")
    q = vec(1)
    found = store.search_dense_languages("u", {"en": LanguageQuery(q)}, 10, SearchScope())
    assert {c.record_id for c in found["en"].candidates} == {"u-en1", "u-en2", "u-en3"}
    assert found["en"].keys == 3
    none = store.search_dense_languages(
        "u", {"en": LanguageQuery(q)}, 10, SearchScope(kinds=("fact",))
    )
    assert none["en"].candidates == [] and none["en"].keys == 3
    assert (
        store.search_dense_languages("nobody", {"en": LanguageQuery(q)}, 5, SearchScope())[
            "en"
        ].candidates
        == []
    )
    two = store.search_dense_languages("u", {"en": LanguageQuery(q)}, 2, SearchScope())
    assert len(two["en"].candidates) == 2


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_language_with_no_keys_finds_nothing(store: Store, language: str) -> None:
    store.insert_episodes(
        "u", [episode("u", "e", "x")], [key("e", "x", vector=vec(1), language="en")], ACTOR
    )
    other = "zh" if language == "en" else "en"
    found = store.search_dense_languages(
        "u", {other: LanguageQuery(vec(1), xvec(1))}, 5, SearchScope()
    )
    if other == "en":  # the one key, without a cross-lingual vector
        assert (found["en"].candidates, found["en"].missing) == ([], 1)
    else:
        assert (found["zh"].candidates, found["zh"].keys) == ([], 0)


def test_key_languages_counts_one_users_keys_with_a_vector(store: Store) -> None:
    _fill(store, "u")
    _fill(store, "v")
    store.insert_episodes(
        "u", [episode("u", "u-bare", "没有向量")], [key("u-bare", "没有向量", language="zh")], ACTOR
    )
    counts = store.key_languages("u")
    assert (counts.get("en", 0), counts.get("zh", 0)) == (3, 3)  # the bare key has no vector
    assert not any(store.key_languages("nobody").values())
