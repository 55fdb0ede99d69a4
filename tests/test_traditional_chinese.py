"""Traditional Chinese is read as Simplified is: turns are stored as typed, the rules read them
in Simplified (`text/script.py`), memories are shown in the script they were typed in, and a
question in either script finds what was said in the other."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from profile_builders import profile_after, values

from dualtrace import Memory
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.text.dates import find_times
from dualtrace.text.lexical import index_text, query_terms
from dualtrace.text.script import in_script_of, is_traditional, simplified
from dualtrace.text.slots import ask, find_statements
from dualtrace.text.smalltalk import is_small_talk


def test_simplified_keeps_other_text_and_length() -> None:
    assert simplified("我們搬到高雄了") == "我们搬到高雄了"
    assert simplified("我们搬到高雄了") == "我们搬到高雄了"
    assert simplified("moved to Kaohsiung") == "moved to Kaohsiung"
    typed = "後來我們養了一隻貓，叫麻糬"
    assert len(simplified(typed)) == len(typed)
    assert is_traditional(typed) and not is_traditional(simplified(typed))


def test_shown_in_the_script_it_was_typed_in() -> None:
    typed = "我們家在臺南，我叫俊傑"
    # the characters the user typed come back as typed (臺, not the 台 of 台南 in Simplified)
    assert in_script_of("俊杰住在台南", typed) == "俊傑住在臺南"
    # a word the user never typed is written in Traditional
    assert in_script_of("俊杰等人", typed) == "俊傑等人"
    # text whose turn was typed in Simplified stays as it is
    assert in_script_of("俊杰住在台南", "我们家在台南") == "俊杰住在台南"


@pytest.mark.parametrize(
    ("typed", "attribute", "value"),
    [
        ("我們現在住在新竹", "lives_in", "新竹"),
        ("我在聯發科當工程師", "works_at", "联发科"),
        ("我家狗狗叫黑輪", "pet", "黑轮"),
    ],
)
def test_the_slot_frames_read_traditional(typed: str, attribute: str, value: str) -> None:
    found = [(s.attribute, s.value) for s in find_statements(typed)]
    assert (attribute, value) in found


def test_questions_cues_dates_and_small_talk_read_traditional() -> None:
    assert "lives_in" in [q.attribute for q in ask("我現在住在哪裡？")]
    (monday,) = find_times("下週一要開會", date(2026, 3, 4))
    assert monday.first_day == date(2026, 3, 9)
    assert is_small_talk("好的，記住了。")


def test_the_index_and_the_query_fold_the_scripts() -> None:
    assert set(query_terms("羽毛球場")) == set(query_terms("羽毛球场"))
    assert "羽毛球" in index_text("我們週末去打羽毛球")


def test_profile_of_a_user_typing_traditional(tmp_path: Path) -> None:
    profile = profile_after(
        tmp_path,
        [
            ("2026-02-01", ["我們現在住在台中，我在台積電上班"]),
            ("2026-06-01", ["我們上個月搬到高雄了"]),
        ],
        as_of="2026-07-01T00:00:00+00:00",
    )
    assert values(profile, "lives_in") == ["高雄"]
    assert values(profile, "works_at") == ["台積電"]
    # the statement is shown as the user wrote it
    employer = next(v for v in profile.values if v.attribute == "works_at")
    assert "台積電" in employer.text


def test_a_question_in_either_script_finds_the_other(tmp_path: Path) -> None:
    when = "2026-03-01T10:00:00Z"
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        mem.add(
            [{"role": "user", "content": "我兒子在讀國小三年級", "timestamp": when}], user_id="tw"
        )
        mem.add(
            [{"role": "user", "content": "我女儿在读幼儿园大班", "timestamp": when}], user_id="cn"
        )
        tw = mem.search("我儿子读几年级？", user_id="tw", limit=3)
        cn = mem.search("我女兒在讀哪個班？", user_id="cn", limit=3)
    assert tw and "兒子" in tw[0].text
    assert cn and "幼儿园" in cn[0].text


def test_profile_values_in_the_script_they_were_typed_in(tmp_path: Path) -> None:
    profile = profile_after(
        tmp_path, [("2026-02-01", ["我在聯發科上班"])], as_of="2026-03-01T00:00:00+00:00"
    )
    assert values(profile, "works_at") == ["聯發科"]
    assert "聯發科" in profile.text


def test_a_change_said_in_the_other_script_replaces_the_value(tmp_path: Path) -> None:
    profile = profile_after(
        tmp_path,
        [("2026-01-10", ["我住在台北，在一家书店上班"]), ("2026-05-10", ["我們上週搬到台南了"])],
        as_of="2026-06-01T00:00:00+00:00",
        history=True,
    )
    (city,) = [v for v in profile.values if v.attribute == "lives_in"]
    assert city.value == "台南"
    assert [r.value for r in city.replaced] == ["台北"]
