"""Consolidation: knowledge updates supersede (never delete), repeats reinforce, some values
merge, others accumulate; every decision is in history and can be undone."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from dualtrace import Memory
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.errors import ConflictError, NotFoundError
from dualtrace.models import Item

JAN, MAR, JUN = "2024-01-10T09:00:00Z", "2024-03-05T09:00:00Z", "2024-06-01T09:00:00Z"
LATER = datetime(2024, 7, 1, tzinfo=UTC)


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[Memory]:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as memory:
        yield memory


def _say(mem: Memory, text: str, when: str, user: str = "u", session: str = "s") -> list:
    return mem.add(
        {"role": "user", "content": text}, user_id=user, session_id=session, timestamp=when
    ).events


def _facts(mem: Memory, user: str = "u", *, include_invalid: bool = False) -> list[Item]:
    return mem.get_all(
        user_id=user, kinds=["fact", "preference", "event"], include_invalid=include_invalid
    )


def _one(items: list[Item], word: str) -> Item:
    found = [i for i in items if word in i.text]
    assert len(found) == 1, (word, [i.text for i in items])
    return found[0]


def _three_sessions_en(mem: Memory) -> None:
    _say(mem, "I live in Hangzhou. I work at a hospital. I really like hiking.", JAN, session="s1")
    _say(mem, "I just moved to Shanghai. I also like swimming.", MAR, session="s2")
    _say(mem, "My budget is 300k.", MAR, session="s2")
    _say(mem, "I want to raise my budget from 300k to 350k.", JUN, session="s3")


def test_knowledge_update_en_current_value_first_old_value_kept(mem: Memory) -> None:
    _three_sessions_en(mem)
    valid = _facts(mem)
    assert not [i for i in valid if "Hangzhou" in i.text]  # invalid now
    shanghai = _one(valid, "Shanghai")
    hangzhou = _one(_facts(mem, include_invalid=True), "Hangzhou")
    assert hangzhou.superseded_by == shanghai.id and hangzhou.invalidated_at is not None
    assert hangzhou.valid_to == shanghai.valid_from  # closed when the new value began
    hits = mem.search(
        "Hangzhou or Shanghai", user_id="u", now=LATER, kinds=["fact"], reinforce=False
    )
    assert "Shanghai" in hits[0].text and all("Hangzhou" not in h.text for h in hits)
    then = mem.search(
        "Hangzhou or Shanghai",
        user_id="u",
        as_of="2024-02-01T00:00:00Z",
        kinds=["fact"],
        reinforce=False,
    )
    assert "Hangzhou" in then[0].text and all("Shanghai" not in h.text for h in then)
    budget = [i.text for i in valid if "budget" in i.text]
    assert budget == ["The user wants to raise the user's budget from 300k to 350k."]


def test_multi_valued_accumulate_and_unrelated_facts_survive(mem: Memory) -> None:
    _three_sessions_en(mem)
    valid = _facts(mem)
    assert _one(valid, "hiking") and _one(valid, "swimming")  # likes: both hold
    assert _one(valid, "hospital").valid_to is None  # same subject, other predicate: untouched


def test_invalidation_is_scoped_to_the_user(mem: Memory) -> None:
    _say(mem, "I live in Hangzhou.", JAN, user="other")
    _three_sessions_en(mem)
    assert _one(_facts(mem, "other"), "Hangzhou").valid_to is None


def test_a_question_about_the_past_reaches_the_superseded_value(mem: Memory) -> None:
    _three_sessions_en(mem)
    hits = mem.search(
        "where did the user live before?", user_id="u", now=LATER, kinds=["fact"], reinforce=False
    )
    assert any("Hangzhou" in h.text for h in hits)


def test_knowledge_update_zh(mem: Memory) -> None:
    _say(mem, "我住在杭州。我的预算是30万。我喜欢爬山。", JAN, session="s1")
    _say(mem, "我们搬到上海了。我也喜欢游泳。", MAR, session="s2")
    _say(mem, "预算从30万提到35万。", JUN, session="s3")
    valid = _facts(mem)
    assert _one(valid, "上海") and _one(valid, "35万")
    assert not [i for i in valid if "杭州" in i.text or ("30万" in i.text and "35万" not in i.text)]
    old = _facts(mem, include_invalid=True)
    assert _one(old, "杭州").superseded_by == _one(valid, "上海").id
    assert _one(valid, "爬山") and _one(valid, "游泳")
    then = mem.search(
        "预算", user_id="u", as_of="2024-02-01T00:00:00Z", kinds=["fact"], reinforce=False
    )
    assert then and "30万" in then[0].text


def test_a_loose_reading_closes_no_value_the_slot_catalogue_read(mem: Memory) -> None:
    # "我是十年有效的" (of a passport) reads as "I am …" to the loose triple table, not as a
    # role to the catalogue: the role the catalogue read stays
    _say(mem, "我是一名儿科护士，在市一医院上班", JAN, session="s1")
    _say(mem, "护照办好了！我是十年有效的 哈哈", MAR, session="s2")
    assert {(v.attribute, v.value) for v in mem.profile("u").values} >= {("occupation", "儿科护士")}
    assert _one(_facts(mem, include_invalid=True), "儿科护士").superseded_by is None


def test_an_older_value_learned_late_is_stored_closed(mem: Memory) -> None:
    _say(mem, "I just moved to Shanghai.", MAR)
    events = _say(mem, "I live in Hangzhou.", JAN)  # an old conversation imported later
    assert [e[1] for e in events] == ["ADD", "SUPERSEDE"]
    assert "Shanghai" in _one(_facts(mem), "Shanghai").text
    hangzhou = _one(_facts(mem, include_invalid=True), "Hangzhou")
    assert hangzhou.valid_to is not None and hangzhou.superseded_by is not None


def test_same_object_again_reinforces(mem: Memory) -> None:
    first = _say(mem, "I live in Hangzhou.", JAN)
    again = _say(mem, "We now live in Hangzhou, by the way.", MAR)
    assert [e[1] for e in again] == ["REINFORCE"] and again[0][0] == first[0][0]
    item = mem.get(first[0][0], user_id="u")
    assert len(item.sources) == 2 and item.importance is not None and item.importance > 0.5


def test_another_dimension_merges_into_one_memory(mem: Memory) -> None:
    first = _say(mem, "I care a lot about fuel consumption.", JAN)
    merged = _say(mem, "I'm also worried about boot space.", MAR)
    assert merged[0][:2] == (first[0][0], "MERGE")
    item = mem.get(first[0][0], user_id="u")
    assert "fuel consumption and boot space" in item.text and len(item.sources) == 2
    assert len(_facts(mem)) == 1


def test_every_decision_is_in_history_and_can_be_undone(mem: Memory) -> None:
    _three_sessions_en(mem)
    hangzhou = _one(_facts(mem, include_invalid=True), "Hangzhou")
    (entry,) = [h for h in mem.history(hangzhou.id, user_id="u") if h.event == "SUPERSEDE"]
    assert "Shanghai" in (entry.new_text or "") and entry.detail["by"] == hangzhou.superseded_by
    mem.revert(entry.id, user_id="u")
    back = mem.get(hangzhou.id, user_id="u")
    assert back.valid_to is None and back.superseded_by is None
    assert _one(_facts(mem), "Hangzhou") and _one(_facts(mem), "Shanghai")
    with pytest.raises(ConflictError, match="already undone"):
        mem.revert(entry.id, user_id="u")
    assert mem.history(hangzhou.id, user_id="u")[-1].event == "REVERT"


def test_undoing_a_merge_splits_the_values(mem: Memory) -> None:
    first = _say(mem, "I care a lot about fuel consumption.", JAN)
    _say(mem, "I'm also worried about boot space.", MAR)
    (entry,) = [h for h in mem.history(first[0][0], user_id="u") if h.event == "MERGE"]
    mem.revert(entry.id, user_id="u")
    texts = sorted(i.text for i in _facts(mem))
    assert texts == [
        "The user cares a lot about fuel consumption.",
        "The user is also worried about boot space.",
    ]
    assert len(mem.get(first[0][0], user_id="u").sources) == 1
    hits = mem.search("boot space", user_id="u", kinds=["fact"], reinforce=False)
    assert "boot space" in hits[0].text


def test_undoing_an_add_deletes_it_and_restores_what_it_superseded(mem: Memory) -> None:
    _say(mem, "I live in Hangzhou.", JAN)
    (added, _) = _say(mem, "I just moved to Shanghai.", MAR)
    (entry,) = [h for h in mem.history(added[0], user_id="u") if h.event == "ADD"]
    mem.revert(entry.id, user_id="u")
    with pytest.raises(NotFoundError):
        mem.get(added[0], user_id="u")
    assert _one(_facts(mem), "Hangzhou").valid_to is None


def test_undo_is_scoped_to_the_user(mem: Memory) -> None:
    _three_sessions_en(mem)
    hangzhou = _one(_facts(mem, include_invalid=True), "Hangzhou")
    entry = mem.history(hangzhou.id, user_id="u")[-1]
    with pytest.raises(NotFoundError, match="no history entry"):
        mem.revert(entry.id, user_id="intruder")
    assert mem.get(hangzhou.id, user_id="u").valid_to is not None


def test_within_one_call_repeats_and_merges_make_one_memory(mem: Memory) -> None:
    events = mem.add(
        [
            "I care a lot about fuel consumption.",
            "I'm also worried about boot space.",
            "I live in Hangzhou.",
            "I live in Hangzhou.",
        ],
        user_id="u",
        timestamp=JAN,
    ).events
    assert [e[1] for e in events] == ["ADD", "MERGE", "ADD"]  # one Hangzhou draft, two turns
    cares = _one(_facts(mem), "fuel consumption")
    assert "fuel consumption and boot space" in cares.text and len(cares.sources) == 2
    assert [h.event for h in mem.history(cares.id, user_id="u")] == ["ADD"]
    assert len(_one(_facts(mem), "Hangzhou").sources) == 2


def test_two_plain_values_said_in_one_turn_both_stand(mem: Memory) -> None:
    # One turn gives the place the user lives two values, neither said as a change (the team's
    # city is read as the user's): neither is newer than the other, so nothing is closed.
    events = _say(mem, "My team is based in Berlin, but I live in Potsdam.", JAN)
    assert "SUPERSEDE" not in [e[1] for e in events]
    facts = _facts(mem)
    assert _one(facts, "Berlin").valid_to is None and _one(facts, "Potsdam").valid_to is None
    assert len(_facts(mem, include_invalid=True)) == len(facts)
    # a later turn's plain value still closes both
    _say(mem, "I live in Leipzig.", MAR)
    assert {i.text for i in _facts(mem) if "live" in i.text} == {"The user lives in Leipzig."}


def test_a_change_said_in_one_turn_still_closes_the_old_value(mem: Memory) -> None:
    _say(mem, "I lived in Ningbo for ten years. Now I live in Xiamen.", JAN)
    ningbo = _one(_facts(mem, include_invalid=True), "Ningbo")
    xiamen = _one(_facts(mem), "Xiamen")
    assert ningbo.id not in {i.id for i in _facts(mem)}
    assert [h.event for h in mem.history(ningbo.id, user_id="u")] == ["ADD", "SUPERSEDE"]
    assert mem.history(ningbo.id, user_id="u")[1].detail["by"] == xiamen.id


def test_a_value_closed_in_the_batch_that_stored_it_has_history_in_time_order(
    mem: Memory,
) -> None:
    mem.add(
        [
            {"role": "user", "content": "I live in Hangzhou.", "timestamp": JAN},
            {"role": "user", "content": "I just moved to Shanghai.", "timestamp": MAR},
        ],
        user_id="u",
        session_id="s",
    )
    hangzhou = _one(_facts(mem, include_invalid=True), "Hangzhou")
    entries = mem.history(hangzhou.id, user_id="u")
    assert [h.event for h in entries] == ["ADD", "SUPERSEDE"]
    assert entries[0].at <= entries[1].at, [(h.event, h.at) for h in entries]
    for item in _facts(mem, include_invalid=True):
        times = [h.at for h in mem.history(item.id, user_id="u")]
        assert times == sorted(times)
