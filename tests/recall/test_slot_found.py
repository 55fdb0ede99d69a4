"""A question that says a slot's words but asks something else does not put the slot's
values first: they lead only where a channel found them or the turns they were drawn from
(`current._found`), unless the question names the member it asks for."""

from __future__ import annotations

from dualtrace.recall.current import SlotView, rerank
from dualtrace.recall.retriever import Scored
from dualtrace.text.slots import ask

# "When does my passport run out?" says the exercise slot's word ("run")
SWIM = SlotView(
    current=("m_swim",),
    said=frozenset({"e_swim"}),
    stale=frozenset(),
    attributes={"m_swim": "exercise"},
    sources={"m_swim": ("e_swim",)},
)


def _first(pool: list[Scored], view: SlotView) -> str:
    return rerank(pool, view, 1.0, join=True)[0].record_id


def test_a_value_no_channel_found_does_not_lead() -> None:
    assert "exercise" in {q.attribute for q in ask("When does my passport run out?")}
    pool = [Scored("e_passport", 1.0, {}), Scored("e_boiler", 0.4, {})]
    ranked = [s.record_id for s in rerank(pool, SWIM, 1.0, join=True)]
    assert ranked == ["e_passport", "e_boiler"]  # the swimming is not joined


def test_a_value_found_however_low_leads() -> None:
    # a slot question's answer said implicitly is often found far below the best hit
    low = [Scored("e_passport", 1.0, {}), Scored("m_swim", 0.05, {})]
    assert _first(low, SWIM) == "m_swim"
    by_its_turn = [Scored("e_passport", 1.0, {}), Scored("e_swim", 0.05, {})]
    assert _first(by_its_turn, SWIM) == "m_swim"


def test_a_question_naming_the_member_keeps_its_value_first() -> None:
    named = SlotView(
        current=("m_son",),
        said=frozenset(),
        stale=frozenset(),
        attributes={"m_son": "family"},
        sources={"m_son": ()},
        named=True,
    )
    assert _first([Scored("e_name", 1.0, {})], named) == "m_son"
