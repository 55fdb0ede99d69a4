"""Being engaged or married is a value of its own (`marital`): it names no partner, so it
replaces none ("we're engaged!!" keeps the partner the user named), and the profile and a
question about it read it, in English and Chinese."""

from __future__ import annotations

from pathlib import Path

from profile_builders import profile_after, values

from dualtrace.text.slots import ask


def test_engaged_beside_the_partner(tmp_path: Path) -> None:
    profile = profile_after(
        tmp_path,
        [
            ("2026-03-01", ["My boyfriend Idris and I are moving to Bristol."]),
            ("2026-06-01", ["Idris proposed on the beach and we're engaged!!"]),
        ],
        as_of="2026-07-01T00:00:00+00:00",
    )
    assert values(profile, "partner") == ["Idris"]
    assert values(profile, "marital") == ["engaged"]
    assert "engaged" in profile.text


def test_married_replaces_engaged_in_chinese(tmp_path: Path) -> None:
    profile = profile_after(
        tmp_path,
        [("2026-02-01", ["男朋友上周求婚了 我们算订婚了"]), ("2026-09-01", ["我们领证了！"])],
        as_of="2026-10-01T00:00:00+00:00",
    )
    assert values(profile, "marital") == ["领证"]


def test_a_wedding_to_come_or_of_others_is_no_status(tmp_path: Path) -> None:
    profile = profile_after(
        tmp_path,
        [("2026-02-01", ["we're getting married next spring", "my parents were married in 1980"])],
        as_of="2026-03-01T00:00:00+00:00",
    )
    assert values(profile, "marital") == []


def test_a_question_asks_it() -> None:
    assert "marital" in [q.attribute for q in ask("Am I engaged?")]
    assert "marital" in [q.attribute for q in ask("我结婚了吗？")]


def test_who_one_is_engaged_to_asks_the_partner() -> None:
    assert [q.attribute for q in ask("Who is Noor engaged to?")] == ["partner"]
