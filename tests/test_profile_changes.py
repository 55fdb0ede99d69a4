"""The profile reads a change as the user means it: a change dated ahead of time is not
current before its day (and what it replaces still is), a negated statement ends the value
it names, and the user's own introduction names them. Every sentence here is written for
this file (none comes from a benchmark case)."""

from __future__ import annotations

from pathlib import Path

from profile_builders import profile_after, values


def test_a_move_dated_ahead_is_not_current_before_its_day(tmp_path: Path) -> None:
    sessions = [
        ("2026-02-01", ["I live in Porto with my sister."]),
        ("2026-03-10", ["Big step: I'm moving to Valencia on 20 April."]),
    ]
    before = profile_after(tmp_path, sessions, "2026-04-01T12:00:00+00:00")
    assert values(before, "lives_in") == ["Porto"]


def test_a_move_dated_ahead_is_current_from_its_day(tmp_path: Path) -> None:
    sessions = [
        ("2026-02-01", ["I live in Porto with my sister."]),
        ("2026-03-10", ["Big step: I'm moving to Valencia on 20 April."]),
    ]
    after = profile_after(tmp_path, sessions, "2026-05-01T12:00:00+00:00")
    assert values(after, "lives_in") == ["Valencia"]


def test_a_new_job_dated_ahead_in_chinese(tmp_path: Path) -> None:
    sessions = [
        ("2026-05-01", ["我在美团上班，做数据分析。"]),
        ("2026-06-02", ["我跳槽去京东了，7月15号入职。"]),
    ]
    before = profile_after(tmp_path, sessions, "2026-07-01T12:00:00+08:00")
    assert values(before, "works_at") == ["美团"]


def test_an_introduction_names_the_user(tmp_path: Path) -> None:
    sessions = [("2026-01-05", ["hiya! Ingrid here, quick one about sourdough starters"])]
    profile = profile_after(tmp_path, sessions, "2026-02-01T00:00:00+00:00")
    assert values(profile, "name") == ["Ingrid"]


def test_an_introduction_without_a_greeting(tmp_path: Path) -> None:
    sessions = [("2026-01-05", ["I'm Tobias btw, I keep bees on my roof."])]
    profile = profile_after(tmp_path, sessions, "2026-02-01T00:00:00+00:00")
    assert values(profile, "name") == ["Tobias"]


def test_a_nationality_is_no_name() -> None:
    from dualtrace.text.slots import find_statements

    assert not [
        s
        for s in find_statements("I'm Danish, so cycling in rain is normal")
        if s.attribute == "name"
    ]


def test_a_partner_and_a_pet_named_beside_their_word(tmp_path: Path) -> None:
    sessions = [
        ("2026-03-01", ["My wife Ines and I repainted the hallway on Sunday."]),
        ("2026-03-08", ["Our dog Pretzel chewed the new brush, of course."]),
    ]
    profile = profile_after(tmp_path, sessions, "2026-04-01T00:00:00+00:00")
    assert values(profile, "partner") == ["Ines"]
    assert values(profile, "pet") == ["dog Pretzel"]


def test_a_partner_named_beside_the_word_in_chinese(tmp_path: Path) -> None:
    sessions = [("2026-03-15", ["我老公老周周末去钓鱼了，晚上回来。"])]
    profile = profile_after(tmp_path, sessions, "2026-04-01T00:00:00+08:00")
    assert values(profile, "partner") == ["老周"]


def test_someone_elses_partner_is_theirs() -> None:
    from dualtrace.text.slots import find_statements

    said = find_statements("My brother's girlfriend Yara teaches maths.")
    assert not [s for s in said if s.attribute == "partner" and s.subject is None]


def test_a_negated_diet_ends_and_the_new_one_said_with_now_holds(tmp_path: Path) -> None:
    sessions = [
        ("2026-01-10", ["I'm vegan, have been since college."]),
        ("2026-02-10", ["Update: I'm not vegan anymore. Mostly keto now, my trainer's idea."]),
    ]
    profile = profile_after(tmp_path, sessions, "2026-03-01T00:00:00+00:00")
    assert values(profile, "diet") == ["keto"]


def test_a_negated_copula_ends_its_value() -> None:
    from dualtrace.text.slots import find_statements

    said = find_statements("I'm no longer vegetarian.")
    assert [(s.attribute, s.value, s.ended) for s in said] == [("diet", "vegetarian", True)]
    moving = find_statements("I'm not moving to Ghent after all")
    assert [(s.attribute, s.ended) for s in moving] == [("lives_in", True)]


def test_now_in_chinese_is_not_where() -> None:
    from dualtrace.text.slots import find_statements

    still = find_statements("新房还在装修，现在还住城北，每天通勤一小时")
    assert [(s.attribute, s.value) for s in still] == [("lives_in", "城北")]
    riding = find_statements("我现在骑车上班，省了不少钱")
    assert not [s for s in riding if s.attribute == "works_at"]


def test_an_accepted_offer_names_the_employer_from_its_start(tmp_path: Path) -> None:
    sessions = [
        ("2026-01-10", ["I work at Canonical, mostly on the installer."]),
        ("2026-02-10", ["I accepted an offer at Monzo.com, starting on 2 March!"]),
    ]
    before = profile_after(tmp_path, sessions, "2026-02-20T00:00:00+00:00")
    assert values(before, "works_at") == ["Canonical"]


def test_an_accepted_offer_in_chinese(tmp_path: Path) -> None:
    sessions = [("2026-05-01", ["好消息，我拿到了网易的offer，已经入职一周了"])]
    profile = profile_after(tmp_path, sessions, "2026-06-01T00:00:00+08:00")
    assert values(profile, "works_at") == ["网易"]


def test_a_dropped_language_and_a_break_up_end_theirvalues(tmp_path: Path) -> None:
    sessions = [
        ("2026-01-10", ["I'm learning Korean with an app.", "My girlfriend Noor lives nearby."]),
        ("2026-03-10", ["Honestly, dropping Korean, no time.", "noor and I broke up last week."]),
    ]
    profile = profile_after(tmp_path, sessions, "2026-04-01T00:00:00+00:00")
    assert values(profile, "language") == []
    assert values(profile, "partner") == []


def test_no_pronoun_vehicle_and_no_question_word_value() -> None:
    from dualtrace.text.slots import find_statements

    assert not find_statements("My sister drives us to the station on Fridays")
    assert not [s for s in find_statements("这个假期带爸妈去哪玩比较好") if s.value == "哪"]
    assert [s.value for s in find_statements("我老婆秀兰今天加班")] == ["秀兰"]
    assert not find_statements("我老婆最近老加班")


def test_a_start_dated_in_another_clause_of_the_turn(tmp_path: Path) -> None:
    sessions = [
        ("2026-04-01", ["I work at Ocado on the warehouse robots."]),
        ("2026-05-02", ["Got an offer from Arm! My start date at Arm is 8 June."]),
    ]
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    before = profile_after(tmp_path / "a", sessions, "2026-05-20T00:00:00+00:00")
    assert values(before, "works_at") == ["Ocado"]
    after = profile_after(tmp_path / "b", sessions, "2026-06-20T00:00:00+00:00")
    assert values(after, "works_at") == ["Arm"]


def test_a_date_that_dates_something_else_leaves_the_value_current(tmp_path: Path) -> None:
    sessions = [("2026-03-01", ["My home insurance is with Aviva, renews in October."])]
    profile = profile_after(tmp_path, sessions, "2026-04-01T00:00:00+00:00")
    assert [v for v in values(profile, "provider") if "Aviva" in v]


def test_a_resident_doctor_does_not_live_at_the_hospital() -> None:
    from dualtrace.text.slots import find_statements

    said = find_statements("我在市一医院当住院医，心内科")
    # the hospital is where the doctor works, and the resident doctor is what they are
    assert sorted((s.attribute, s.value) for s in said) == [
        ("occupation", "住院医"),
        ("works_at", "市一医院"),
    ]


def test_a_date_of_one_part_does_not_date_another(tmp_path: Path) -> None:
    sessions = [("2026-11-02", ["我们打算12月5号搬去城西，现在还住城北，通勤挺远"])]
    profile = profile_after(tmp_path, sessions, "2026-11-20T00:00:00+08:00")
    assert values(profile, "lives_in") == ["城北"]
