"""Benchmark metrics: recall, NDCG, session recall, answer normalisation, percentiles."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from dualtrace.bench.metrics import (
    answer_forms,
    answer_in_context,
    distinct,
    evidence_recall,
    mean,
    ndcg_at_k,
    normalise_answer,
    percentile,
    recall_at_k,
    session_recall,
    summarise,
)


def test_evidence_recall_is_the_share_of_evidence_cited() -> None:
    assert evidence_recall({"D1:1", "D1:2"}, ["D1:2", "D3:3"]) == 0.5
    assert evidence_recall({"D1:1"}, []) == 0.0
    assert evidence_recall(set(), ["D1:1"]) is None  # nothing to find: not measured


def test_recall_at_k_uses_the_sources_of_the_top_k_hits() -> None:
    ranked = [["a"], ["b", "c"], ["d"]]
    assert recall_at_k({"c", "d"}, ranked, 1) == 0.0
    assert recall_at_k({"c", "d"}, ranked, 2) == 0.5
    assert recall_at_k({"c", "d"}, ranked, 3) == 1.0


def test_ndcg_is_one_for_a_perfect_ranking_and_discounts_later_hits() -> None:
    assert ndcg_at_k({"a", "b"}, ["a", "b", "c"]) == 1.0
    assert ndcg_at_k({"a"}, ["x", "a"]) == 1 / math.log2(3)
    assert ndcg_at_k({"a"}, ["x"] * 10 + ["a"]) == 0.0  # beyond the cut-off
    assert ndcg_at_k(set(), ["a"]) is None
    # more evidence than the cut-off: the ideal fills all k places
    assert ndcg_at_k({str(i) for i in range(20)}, [str(i) for i in range(10)], 10) == 1.0


@given(
    st.sets(st.sampled_from("abcdefgh"), min_size=1),
    st.lists(st.sampled_from("abcdefghij"), unique=True),
)
def test_ranking_metrics_stay_in_the_unit_interval(evidence: set[str], ranked: list[str]) -> None:
    ndcg = ndcg_at_k(evidence, ranked)
    recall = recall_at_k(evidence, [[t] for t in ranked], 5)
    assert ndcg is not None and 0.0 <= ndcg <= 1.0 + 1e-12
    assert recall is not None and 0.0 <= recall <= 1.0


def test_session_recall_any_and_all() -> None:
    assert session_recall({"s1", "s2"}, ["s1", "s9"]) == (1.0, 0.0)
    assert session_recall({"s1", "s2"}, ["s2", "s1"]) == (1.0, 1.0)
    assert session_recall({"s1"}, []) == (0.0, 0.0)
    assert session_recall(set(), ["s1"]) is None


def test_normalisation_drops_case_punctuation_articles_and_spacing() -> None:
    assert normalise_answer("The  Blue Vase!") == "blue vase"
    assert normalise_answer("An apple, a day") == "apple day"
    assert normalise_answer("7 May 2023.") == "7 may 2023"
    assert normalise_answer("“Quoted” — text") == "quoted text"
    assert normalise_answer("theatre") == "theatre"  # articles only as whole words
    assert normalise_answer("Under the user’s bed") == normalise_answer("under my bed")
    assert normalise_answer("the users of the app") == "users of app"


def test_answer_in_context_matches_whole_words_only() -> None:
    context = "- [2023-05-08 Mon] Alice: I made A blue vase, for my mother."
    assert answer_in_context("a blue vase", context) == 1.0
    assert answer_in_context("Blue Vase.", context) == 1.0
    assert answer_in_context("2", "in 2023 we met") == 0.0
    assert answer_in_context("red vase", context) == 0.0
    assert answer_in_context(None, context) is None
    assert answer_in_context("!!", context) is None


def test_an_answer_that_names_an_acceptable_other_form_matches_either() -> None:
    gold = "17 days ago. 18 days (including the last day) is also acceptable."
    assert answer_forms(gold) == ["17 days ago", "18 days"]
    assert answer_in_context(gold, "It was 18 days before the trip.") == 1.0
    assert answer_in_context(gold, "That was 17 days ago.") == 1.0
    assert answer_in_context(gold, "That was 17 days later.") == 0.0
    assert answer_forms("24 days. 25 days is also acceptable") == ["24 days", "25 days"]
    assert answer_forms("Paris. Lyon was the other.") == ["Paris. Lyon was the other."]


def test_percentile_mean_and_summary() -> None:
    assert percentile([3.0, 1.0, 2.0], 50) == 2.0
    assert percentile([1.0, 2.0, 3.0, 4.0], 95) == 3.85
    assert percentile([], 50) is None
    assert mean([1.0, None, 0.0]) == 0.5
    assert mean([None]) is None
    assert summarise([{"r": 1.0, "a": None}, {"r": 0.0}]) == {"r": 0.5, "a": None}


def test_distinct_keeps_first_seen_order_without_none() -> None:
    assert distinct(["b", None, "a", "b"]) == ["b", "a"]
