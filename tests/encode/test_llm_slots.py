"""An LLM's memory fills the catalogue's slot its triple names, as a rule's statement does,
and only with a value a person's turn says."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from scripted_chat import ScriptedLLM

from dualtrace.encode.base import Window
from dualtrace.encode.llm_extractor import LLMExtractor, build_prompt
from dualtrace.models import Episode, MemoryDraft

WHEN = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def turn(turn_id: str, text: str, *, speaker: str | None = None, role: str = "user") -> Episode:
    return Episode(
        id=f"ep_{turn_id}",
        user_id="u1",
        session_id="s1",
        agent_id=None,
        seq=int(turn_id[1:]),
        role=role,
        speaker=speaker,
        text=text,
        occurred_at=WHEN + timedelta(minutes=int(turn_id[1:])),
        recorded_at=WHEN,
        external_id=turn_id,
        metadata={},
        content_hash=f"hash_{turn_id}",
    )


TURNS = (
    turn("t1", "we finally moved to  Porto!! my daughter Inês starts school in Foz next week"),
    turn("t2", "Porto is a lovely city, congratulations!", role="assistant"),
    turn("t3", "也在学葡萄牙语，我家猫叫年糕"),
)


def item(
    subject: str | None, predicate: str, value: str | None, turn_id: str = "t1", **flags: Any
) -> dict[str, Any]:
    return {
        "kind": "fact",
        "text": f"{subject} {predicate} {value}",
        "scene": "On Monday 2 March 2026 the user said so.",
        "subject": subject,
        "predicate": predicate,
        "object": value,
        "source_turn_ids": [turn_id],
        **flags,
    }


def drafts(*items: dict[str, Any], turns: tuple[Episode, ...] = TURNS) -> list[MemoryDraft]:
    extractor = LLMExtractor(ScriptedLLM(json.dumps({"memories": list(items)})))
    return extractor.extract(Window(episodes=turns)).drafts


def test_an_attribute_as_predicate_fills_the_users_slot() -> None:
    (draft,) = drafts(item("The user", "lives_in", "Porto"))
    assert draft.slot == {
        "attribute": "lives_in",
        "value": "Porto",
        "subject": None,
        "qualifier": None,
        "ended": False,
        "hedged": False,
        "cue": None,
        "many": False,
    }
    # written as the rules write the speaker, so both extractors' memories of it meet
    assert (draft.subject, draft.predicate, draft.object) == ("the user", "lives_in", "Porto")


def test_a_named_speaker_keeps_their_name() -> None:
    named = (turn("t1", "I work at Northwind now", speaker="Alice"),)
    (draft,) = drafts(item("alice", "works_at", "northwind"), turns=named)
    assert draft.slot is not None and draft.slot["subject"] is None
    assert draft.subject == "Alice"


@pytest.mark.parametrize(
    ("subject", "whose"),
    [("The user's daughter", "daughter"), ("my daughter", "daughter"), ("用户的女儿", "女儿")],
)
def test_another_persons_value_keeps_whose_it_is(subject: str, whose: str) -> None:
    (draft,) = drafts(item(subject, "studies_at", "Foz"))
    assert draft.slot is not None and draft.slot["subject"] == whose
    assert draft.subject == subject


def test_a_many_valued_attribute_is_marked_so_and_chinese_is_read_alike() -> None:
    pet, language = drafts(
        item("用户", "pet", "年糕", "t3"), item("用户", "language", "葡萄牙语", "t3")
    )
    assert pet.slot is not None and (pet.slot["value"], pet.slot["many"]) == ("年糕", True)
    assert language.slot is not None and language.slot["attribute"] == "language"


@pytest.mark.parametrize("value", ["porto", "PORTO", "Ｐｏｒｔｏ"])
def test_the_value_is_matched_up_to_case_width_and_spacing(value: str) -> None:
    (draft,) = drafts(item("The user", "lives_in", value))
    assert draft.slot is not None and draft.slot["value"] == value


def test_a_value_no_persons_turn_says_fills_no_slot() -> None:
    model = ScriptedLLM(
        json.dumps(
            {
                "memories": [
                    item("The user", "lives_in", "Oporto"),  # paraphrased
                    item("The user", "lives_in", "Porto", "t2"),  # only the assistant says it
                    item("The user", "likes", "Porto"),  # no attribute of the catalogue
                ]
            }
        )
    )
    extractor = LLMExtractor(model)
    found = extractor.extract(Window(episodes=TURNS)).drafts
    assert [d.slot for d in found] == [None, None, None]
    assert [d.predicate for d in found] == ["lives_in", "lives_in", "likes"]  # kept as said
    assert extractor.slots_refused == 2


def test_an_end_may_leave_the_value_unnamed_a_value_may_not() -> None:
    quit_job = (turn("t1", "handed in my notice today, last day friday"),)
    ended, unnamed = drafts(
        item("The user", "works_at", None, ended=True),
        item("The user", "works_at", None),
        turns=quit_job,
    )
    assert ended.slot is not None and ended.slot["ended"] and ended.slot["value"] is None
    assert unnamed.slot is None


def test_a_maybe_is_a_hedge() -> None:
    (draft,) = drafts(item("The user", "lives_in", "Porto", maybe=True))
    assert draft.slot is not None and draft.slot["hedged"] is True


def test_the_prompt_lists_the_attributes_and_the_flags() -> None:
    system = build_prompt(Window(episodes=TURNS))[0].content
    assert "lives_in (X lives in V)" in system and "pet (X has V)" in system
    assert '"ended"' in system and '"maybe"' in system
    assert "the speaker as Participants names them" in system
