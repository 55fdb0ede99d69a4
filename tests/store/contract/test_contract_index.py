"""SearchIndex: dense, lexical, time and entity channels, scopes, key reuse and rebuilds."""

from __future__ import annotations

import numpy as np

from contract.rows import ACTOR, at, episode, fact_key, key, memory, vec
from dualtrace.models import Candidate
from dualtrace.store.base import EntityRow, MemoryGraph, SearchScope, Store


def _ids(found: list[Candidate]) -> list[str]:
    return [c.record_id for c in found]


def _corpus(store: Store) -> None:
    """Three turns in two sessions and two memories, each with a key along one or two axes."""
    store.insert_episodes(
        "u",
        [
            episode("u", "ep1", "apples in the orchard", minutes=0, metadata={"topic": "fruit"}),
            episode("u", "ep2", "pears on the tree", seq=1, minutes=10),
            episode("u", "ep3", "tea in Lyon", session_id="s2", minutes=60),
        ],
        [
            key("ep1", "apples in the orchard", vector=vec(1)),
            key("ep2", "pears on the tree", vector=vec(1, 2)),
            key("ep3", "tea in Lyon", session_id="s2", vector=vec(0, 1)),
        ],
        ACTOR,
    )
    apples = memory(
        "u",
        "m1",
        "Ann grows apples",
        valid_from=at(5),
        session_id="s1",
        source_episode_ids=("ep1",),
    )
    tea = memory("u", "m2", "Ann likes tea", kind="preference", valid_from=at(70))
    store.insert_memories(
        "u",
        [apples, tea],
        [
            fact_key(apples, vec(2, 0, 1)),
            fact_key(tea, vec(0, 0, 0, 1)),
            key(
                "m2",
                "a cup in the morning",
                trace="scene",
                kind="preference",
                session_id=None,
                vector=vec(0, 0, 0, 0, 1),
            ),
        ],
        ACTOR,
    )


def test_dense_search_ranks_by_cosine_best_key_per_record(store: Store) -> None:
    _corpus(store)
    found = store.search_dense("u", vec(1), 10, SearchScope())
    assert _ids(found)[:3] == ["ep1", "m1", "ep2"]
    assert abs(found[0].score - 1.0) < 1e-3 and abs(found[1].score - 2 / 5**0.5) < 1e-3  # float16
    assert found[0].trace == "episode"
    assert len(_ids(found)) == len(set(_ids(found)))  # one candidate per record
    assert _ids(store.search_dense("u", vec(0, 0, 0, 0, 1), 1, SearchScope())) == ["m2"]
    assert store.search_dense("u", vec(0, 0, 0, 0, 1), 1, SearchScope())[0].trace == "scene"
    assert len(store.search_dense("u", vec(1), 2, SearchScope())) == 2


def test_dense_search_for_many_vectors_finds_what_each_finds_alone(store: Store) -> None:
    _corpus(store)
    queries = [vec(1), vec(0, 1), vec(0, 0, 0, 1)]
    scope = SearchScope(kinds=("episode",))
    assert store.search_dense_many("u", queries, 2, scope) == [
        store.search_dense("u", q, 2, scope) for q in queries
    ]
    assert store.search_dense_many("u", [], 2, scope) == []


def test_scopes_filter_every_channel(store: Store) -> None:
    _corpus(store)
    window = (at(0), at(120))
    cases = [
        (SearchScope(), {"ep1", "ep2", "ep3", "m1", "m2"}),
        (SearchScope(kinds=("preference",)), {"m2"}),
        (SearchScope(kinds=("episode",), session_id="s1"), {"ep1", "ep2"}),
        (SearchScope(session_id="s2"), {"ep3"}),
        (SearchScope(occurred_before=at(5)), {"ep1", "m1", "m2"}),
        (SearchScope(metadata={"topic": "fruit"}), {"ep1"}),
        (SearchScope(traces=("fact",)), {"m1", "m2"}),  # keys: not the time channel's
    ]
    terms = ["apples", "pears", "tea", "Lyon", "morning"]
    axes = [vec(*[0.0] * i, 1.0) for i in range(5)]
    for scope, allowed in cases:
        dense = {c.record_id for v in axes for c in store.search_dense("u", v, 10, scope)}
        assert dense <= allowed and {"ep1", "m2"} & allowed <= dense, scope
        assert set(_ids(store.search_lexical("u", terms, 10, scope))) == allowed, scope
        if scope.traces is None:
            assert set(_ids(store.search_time("u", *window, 10, scope))) == allowed, scope


def test_lexical_search_matches_any_term(store: Store) -> None:
    _corpus(store)
    assert set(_ids(store.search_lexical("u", ["apples"], 10, SearchScope()))) == {"ep1", "m1"}
    assert set(_ids(store.search_lexical("u", ["orchard", "tea"], 10, SearchScope()))) == {
        "ep1",
        "ep3",
        "m2",
    }
    assert _ids(store.search_lexical("u", ["morning"], 10, SearchScope())) == ["m2"]
    assert store.search_lexical("u", ["morning"], 10, SearchScope())[0].trace == "scene"
    assert store.search_lexical("u", [], 10, SearchScope()) == []
    assert store.search_lexical("u", ['"quoted" words'], 10, SearchScope()) == []
    assert len(store.search_lexical("u", ["apples", "tea"], 1, SearchScope())) == 1


def test_time_search_finds_what_happened_in_the_window(store: Store) -> None:
    _corpus(store)
    assert _ids(store.search_time("u", at(0), at(30), 10, SearchScope())) == ["ep2", "m1", "ep1"]
    assert _ids(store.search_time("u", at(0), at(30), 1, SearchScope())) == ["ep2"]
    among = store.search_time("u", at(0), at(30), 1, SearchScope(), among=["ep1", "ep3"])
    assert _ids(among) == ["ep1", "ep2"]  # `among` judged by time, then `limit` more
    assert store.search_time("u", at(200), at(300), 10, SearchScope()) == []


def test_entity_search_scores_rare_entities_and_follows_links(store: Store) -> None:
    alice = EntityRow("Alice", "alice", "person", "alice")
    lyon = EntityRow("Lyon", "lyon", "place", "lyon")
    memories = [memory("u", f"m{i}", f"fact {i}") for i in range(40)]
    mentions = [(f"m{i}", alice) for i in range(40)] + [("m0", lyon), ("m1", lyon)]
    graph = MemoryGraph(tuple(mentions), (("m2", "m0", "related", 1.0),))
    store.insert_memories("u", memories, [], ACTOR, graph)
    found = {
        c.record_id: c.score
        for c in store.search_entities("u", ["alice", "lyon"], 10, SearchScope())
    }
    assert found == {"m0": 1.0, "m1": 1.0, "m2": 0.5}  # Alice is everywhere: no signal
    assert store.search_entities("u", ["alice"], 10, SearchScope()) == []
    assert store.search_entities("u", [], 10, SearchScope()) == []
    scoped = store.search_entities("u", ["lyon"], 10, SearchScope(kinds=("event",)))
    assert scoped == []


def test_vectors_are_reused_by_content_hash(store: Store) -> None:
    v = vec(1, 2, 3)
    store.insert_episodes(
        "u", [episode("u", "ep1", "x")], [key("ep1", "x", vector=v, content_hash="h1")], ACTOR
    )
    found = store.vectors_by_hash("u", ["h1", "h2"])
    assert list(found) == ["h1"] and np.allclose(found["h1"], v, rtol=1e-3, atol=1e-4)
    assert found["h1"].dtype == np.float32 and found["h1"].shape == (8,)
    assert store.vectors_by_hash("u", []) == {}


def test_cross_lingual_vectors_are_reused_by_content_hash(store: Store) -> None:
    x = vec(0, 1, 1)
    store.insert_episodes(
        "u",
        [episode("u", "ep1", "x"), episode("u", "ep2", "y", seq=1)],
        [
            key("ep1", "x", vector=vec(1), xvector=x, content_hash="h1"),
            key("ep2", "y", vector=vec(2), content_hash="h2"),  # no cross-lingual vector
        ],
        ACTOR,
    )
    found = store.xvectors_by_hash("u", ["h1", "h2", "h3"])
    assert list(found) == ["h1"] and np.allclose(found["h1"], x, rtol=1e-3, atol=1e-3)
    assert found["h1"].dtype == np.float32
    assert store.xvectors_by_hash("u", []) == {}
    assert store.xvectors_by_hash("other", ["h1"]) == {}  # one user's


def test_replace_keys_rebuilds_a_records_keys(store: Store) -> None:
    _corpus(store)
    plums = vec(0, 0, 0, 0, 0, 1)
    store.replace_keys("u", "ep1", [key("ep1", "plums in the basket", vector=plums)])
    assert _ids(store.search_lexical("u", ["orchard"], 10, SearchScope())) == []
    assert _ids(store.search_lexical("u", ["plums"], 10, SearchScope())) == ["ep1"]
    dense = store.search_dense("u", plums, 1, SearchScope())
    assert _ids(dense) == ["ep1"] and dense[0].score > 0.99
    assert "ep1" not in _ids(store.search_dense("u", vec(1), 10, SearchScope()))[:1]
    assert store.get_episodes("u", ["ep1"])["ep1"].text == "apples in the orchard"
    store.replace_keys("u", "ep1", [])
    assert "ep1" not in _ids(store.search_lexical("u", ["plums"], 10, SearchScope()))


def test_a_language_offset_lifts_keys_of_that_language_only(store: Store) -> None:
    near, far = vec(1), vec(1, 1)  # cosine 1.0 and ~0.71 to the query
    store.insert_episodes(
        "u",
        [
            episode("u", "en", "my space is in the basement garage", minutes=0),
            episode("u", "zh", "我的 车位 在 地下 二层", seq=1, minutes=1),
        ],
        [
            key("en", "my space is in the basement garage", vector=near),
            key("zh", "我的 车位 在 地下 二层", vector=far),
        ],
        ACTOR,
    )
    plain = store.search_dense("u", vec(1), 2, SearchScope())
    assert _ids(plain) == ["en", "zh"]
    lifted = store.search_dense("u", vec(1), 2, SearchScope(), language_offset={"zh": 0.5})
    assert _ids(lifted) == ["zh", "en"]
    assert abs(lifted[0].score - (plain[1].score + 0.5)) < 1e-6
    assert abs(lifted[1].score - plain[0].score) < 1e-6  # English keys keep their cosine
    many = store.search_dense_many("u", [vec(1)], 2, SearchScope(), language_offset={"en": 0.1})
    assert _ids(many[0]) == ["en", "zh"] and abs(many[0][0].score - 1.1) < 1e-6


def test_lexical_ranking_weighs_a_rare_term_above_a_common_one(store: Store) -> None:
    turns = [episode("u", f"ep{i}", "x", seq=i) for i in range(9)]
    keys = [key(f"ep{i}", "tea in the morning and tea at noon") for i in range(8)]
    keys.append(key("ep8", "saffron in the rice"))
    store.insert_episodes("u", turns, keys, ACTOR)
    found = store.search_lexical("u", ["tea", "saffron"], 9, SearchScope())
    assert _ids(found)[0] == "ep8" and len(found) == 9  # BM25's idf: saffron is rare


def test_lexical_scores_are_shares_of_a_full_match(store: Store) -> None:
    """A key holding every word of the question scores near 1 and one holding only a word
    most keys hold near 0, whatever the question's length: scores compare across
    questions (the retriever trusts a weak list less in a store of two languages)."""
    texts = [f"the weather was grey on day {i}" for i in range(12)]
    texts += ["a heron nests by the mill pond", "grey heron seen near the old mill"]
    store.insert_episodes(
        "u",
        [episode("u", f"e{i}", t, seq=i) for i, t in enumerate(texts)],
        [key(f"e{i}", t) for i, t in enumerate(texts)],
        ACTOR,
    )
    found = store.search_lexical("u", ["grey", "heron", "mill"], 20, SearchScope())
    score = {c.record_id: c.score for c in found}
    assert set(_ids(found)[:2]) == {"e12", "e13"}  # the rare words
    assert 0.6 < score["e13"] < 1.5
    assert score["e0"] < 0.2  # only "grey", in most keys
    longer = store.search_lexical(
        "u", ["grey", "heron", "mill", "otter", "kayak"], 20, SearchScope()
    )
    assert {c.record_id: c.score for c in longer}["e13"] < score["e13"]  # two words unmatched


def test_term_rarity_is_counted_among_the_users_own_keys(store: Store) -> None:
    """ "kiwi" is rare for u and common for v: v's keys do not make it common for u."""
    texts = {"a": "kiwi stone", "b": "mango stone", "c": "mango sand", "d": "plum sand"}
    store.insert_episodes(
        "u",
        [episode("u", f"e{n}", t, seq=i) for i, (n, t) in enumerate(texts.items())],
        [key(f"e{n}", t, vector=vec(1)) for n, t in texts.items()],
        ACTOR,
    )
    before = _ids(store.search_lexical("u", ["mango", "kiwi"], 10, SearchScope()))
    assert before[0] == "ea" and set(before) == {"ea", "eb", "ec"}
    store.insert_episodes(
        "v",
        [episode("v", f"v{i}", f"kiwi pie {i}", seq=i) for i in range(40)],
        [key(f"v{i}", f"kiwi pie {i}", vector=vec(1)) for i in range(40)],
        ACTOR,
    )
    assert _ids(store.search_lexical("u", ["mango", "kiwi"], 10, SearchScope())) == before


def test_metadata_filters_match_keys_with_quotes_and_other_awkward_characters(
    store: Store,
) -> None:
    awkward = ['say "hi"', "a\\b", "a.b", "$[0]", "", "é 名", "'"]
    store.insert_episodes(
        "u",
        [
            episode("u", f"ep{n}", f"turn {n}", seq=n, minutes=n, metadata={k: n, "null": None})
            for n, k in enumerate(awkward)
        ],
        [key(f"ep{n}", f"turn {n}", vector=vec(1)) for n in range(len(awkward))],
        ACTOR,
    )
    for n, k in enumerate(awkward):
        for scope, want in [
            (SearchScope(metadata={k: n}), {f"ep{n}"}),
            (SearchScope(metadata={k: n + 1}), set()),
            (SearchScope(metadata={k: n, "null": None}), {f"ep{n}"}),
        ]:
            assert set(_ids(store.search_dense("u", vec(1), 20, scope))) == want, (k, scope)
            assert set(_ids(store.search_lexical("u", ["turn"], 20, scope))) == want, (k, scope)
