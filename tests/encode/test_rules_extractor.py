"""The offline rules extractor: typed third-person memories with scene traces and dates."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

from episode_builders import turn

from dualtrace.encode.base import Window
from dualtrace.encode.rules import RulesExtractor, _clauses
from dualtrace.models import Episode, MemoryDraft

CN = timezone(timedelta(hours=8))


def extract(*episodes: Episode, context: tuple[Episode, ...] = ()) -> list[MemoryDraft]:
    speakers = tuple(dict.fromkeys(e.speaker or "" for e in (*context, *episodes)))
    return RulesExtractor().extract(Window(episodes, context, speakers)).drafts


def test_event_with_resolved_date_and_scene() -> None:
    prev = turn(1, "Hey Caroline, how have you been?", speaker="Melanie")
    (d,) = extract(
        turn(2, "I went to a LGBTQ support group yesterday and it was so powerful."),
        context=(prev,),
    )
    assert d.kind == "event"
    assert d.text == (
        "Caroline went to a LGBTQ support group yesterday and it was so powerful. "
        "(yesterday = Sun 7 May 2023)"
    )
    assert d.valid_from is not None and d.valid_from.date() == date(2023, 5, 7)
    assert "Mon 8 May 2023" in d.scene and "Melanie" in d.scene and "Caroline said" in d.scene
    assert "how have you been" in d.scene
    assert d.source_episode_ids == ("ep_2",)
    assert {"caroline", "lgbtq"} <= {e.norm for e in d.entities}


def test_preference_fact_and_triples() -> None:
    drafts = extract(turn(1, "I really love painting landscapes. I live in Boston now."))
    by_pred = {d.predicate: d for d in drafts}
    assert by_pred["likes"].kind == "preference"
    assert by_pred["likes"].object == "painting landscapes"
    assert by_pred["likes"].text == "Caroline really loves painting landscapes."
    assert by_pred["lives_in"].kind == "fact" and by_pred["lives_in"].object == "Boston"
    assert all(d.subject == "Caroline" for d in drafts)


def test_chinese_preference_and_budget() -> None:
    when = datetime(2026, 3, 28, 10, tzinfo=CN)
    drafts = extract(turn(1, "我不喜欢白色的车。我们的预算提高到35万。", speaker="林伟", when=when))
    by_pred = {d.predicate: d for d in drafts}
    assert by_pred["dislikes"].text == "林伟不喜欢白色的车。"
    assert by_pred["dislikes"].kind == "preference"
    assert by_pred["budget"].object.startswith("35万")
    assert "Sat 28 March 2026" in by_pred["budget"].scene


def test_questions_greetings_and_assistant_turns_are_not_memories() -> None:
    assert extract(turn(1, "Hey Mel! How are you?")) == []
    assert extract(turn(2, "Thanks! Haha")) == []
    assert extract(turn(3, "I recommend a hybrid for your commute.", role="assistant")) == []
    assert extract(turn(4, "你喜欢什么颜色的车？")) == []


def test_time_bound_statements_expire() -> None:
    (d,) = extract(turn(1, "I'm busy with the exhibition this week."))
    assert d.expire_at is not None and d.expire_at.date() == date(2023, 5, 15)
    (past,) = extract(turn(2, "I finished the marathon last week."))
    assert past.expire_at is None
    # what the speaker did or began today is a record of what happened, not a passing state
    for done in ("I just got a smoker today.", "We started yoga classes this week."):
        (d,) = extract(turn(3, done))
        assert d.expire_at is None, done
    (plan,) = extract(turn(4, "I need to renew my passport by tomorrow."))
    assert plan.expire_at is not None


def test_explicit_remember_ranks_high() -> None:
    (d,) = extract(turn(1, "Please remember that I'm allergic to peanuts."))
    plain = extract(turn(2, "I had a sandwich with my colleague Tom."))[0]
    assert d.importance >= 0.7 > plain.importance


def test_a_decimal_number_stays_in_one_memory() -> None:
    drafts = extract(turn(1, "Weighed myself this morning: 68.5 kg, down from 74 in January!"))
    assert any("68.5 kg" in d.text for d in drafts)
    assert not any(d.text.startswith("5 kg") for d in drafts)


def test_openers_and_acknowledgements_are_not_part_of_a_memory() -> None:
    texts = [
        d.text
        for d in extract(
            turn(1, "Guess what: I adopted a grey kitten from the shelter!"),
            turn(2, "Not yet, I will paint the fence on Saturday."),
            turn(3, "对了，我女儿下周开始学钢琴。", when=datetime(2026, 3, 2, 9, tzinfo=CN)),
            turn(4, "Oh, okay, thanks!"),
        )
    ]
    assert texts[0] == "Caroline adopted a grey kitten from the shelter!"
    assert texts[1].startswith("Caroline will paint the fence on Saturday")
    assert texts[2].startswith("Caroline女儿")
    assert len(texts) == 3


def test_a_greeting_still_names_the_speaker_though_the_memory_leaves_it_out() -> None:
    # the greeting is what makes "I'm Priya" an introduction; the memory's text drops it
    drafts = extract(turn(1, "Hello, I'm Priya. I run a small bakery in Leeds."))
    named = [d for d in drafts if (d.slot or {}).get("attribute") == "name"]
    assert named and named[0].slot is not None and named[0].slot["value"] == "Priya"
    assert not any(d.text.lower().startswith("hello") for d in drafts)


def test_a_clause_of_several_slots_keeps_each_values_article() -> None:
    texts = {
        d.text for d in extract(turn(1, "Also, I work as a paramedic at the county hospital."))
    }
    assert "Caroline works as a paramedic." in texts
    assert "Caroline works at the county hospital." in texts


def test_a_clause_opening_on_a_pronoun_keeps_whom_it_is_about() -> None:
    (d,) = extract(turn(1, "My neighbour Rosa runs a bakery. She opens at six every day."))
    assert d.text == "Caroline's neighbour Rosa runs a bakery. She opens at six every day."
    (d,) = extract(turn(2, "I got a new bike for my nephews; they ride it to school now."))
    assert d.text == "Caroline got a new bike for Caroline's nephews; they ride it to school now."
    (d,) = extract(turn(3, "我表哥在杭州开了家茶馆。他每天下午都在店里。", speaker="Lin"))
    assert d.text == "Lin表哥在杭州开了家茶馆。他每天下午都在店里。"
    texts = [d.text for d in extract(turn(4, "I mended the fence for Tom. His dog got out."))]
    assert texts == ["Caroline mended the fence for Tom. His dog got out."]


def test_a_pronoun_clause_stays_apart_from_a_question_or_a_slot() -> None:
    # what a question asks is no memory, and a slot's statement is a memory of its own
    texts = [d.text for d in extract(turn(1, "Did you meet Rosa? She moved to Porto in March."))]
    assert texts == ["She moved to Porto in March. (March = March 2023)"]
    texts = [d.text for d in extract(turn(2, "I work at Boots in Leeds. She works nights."))]
    assert texts == ["Caroline works at Boots in Leeds."]


def test_a_clause_that_only_names_joins_the_clause_it_names_from() -> None:
    # a name given in the next sentence belongs to what the one before spoke of, slot or not
    texts = [d.text for d in extract(turn(1, "We adopted a puppy!! His name is Rolo."))]
    assert texts == ["Caroline and others adopted a puppy! His name is Rolo."]
    # the marks left bare by "!!" are no clause of their own between the two
    texts = [d.text for d in extract(turn(2, "My sister Mia visited!! She stayed a whole week."))]
    assert texts == ["Caroline's sister Mia visited! She stayed a whole week."]


def test_an_acknowledgement_to_a_name_is_no_memory() -> None:
    assert extract(turn(1, "That's wonderful, Priya!")) == []
    texts = [d.text for d in extract(turn(2, "No problem, Omar. I moved to Porto in March."))]
    assert texts == ["Caroline moved to Porto in March. (March = March 2023)"]


def test_an_opener_alone_leads_the_clause_after_it() -> None:
    assert _clauses("hi!! Priya, data scientist at Monzo. need help") == [
        "hi! Priya, data scientist at Monzo.",  # "!!" is one mark
        "need help",
    ]


def test_a_greeting_and_a_name_alone_lead_the_clause_after_them() -> None:
    # (the role at a place and the home are two slots: each a clause of its own)
    assert _clauses("hey! Ines. dental nurse at Brightsmile, based in Cork") == [
        "hey! Ines. dental nurse at Brightsmile",
        "Based in Cork",
    ]
    assert _clauses("yo. Tariq, line cook at Rocco's. kitchen is chaos")[0] == (
        "yo. Tariq, line cook at Rocco's."
    )
    # a greeting to someone, then what is said to them, stays apart
    assert _clauses("Hi Tom. Did the parcel come?") == ["Hi Tom.", "Did the parcel come?"]


def test_a_greeting_a_name_and_a_role_at_a_place_introduce_the_speaker() -> None:
    drafts = extract(turn(1, "good morning! Ines. dental nurse at Brightsmile, based in Cork"))
    slots = {(d.slot or {}).get("attribute"): (d.slot or {}).get("value") for d in drafts}
    assert slots.get("name") == "Ines"
    assert slots.get("works_at") == "Brightsmile"


def test_a_question_keeps_what_it_names_beside_a_role() -> None:
    drafts = extract(turn(1, "any birthday ideas for my fiancé oskar? he loves hiking"))
    assert [(d.predicate, d.object) for d in drafts if d.slot] == [("partner", "Oskar")]
    assert extract(turn(2, "what should I cook for my wife tonight?")) == []
    drafts = extract(turn(3, "我老婆小芸过生日，送什么好？"))
    assert [(d.predicate, d.object) for d in drafts] == [("partner", "小芸")]


def test_whom_a_clause_addresses_is_not_its_fact() -> None:
    # the listener's name, with or without a greeting before it, is the scene's
    prev = turn(1, "How was the weekend?", speaker="Tariq")
    drafts = extract(
        turn(2, "Hey Tariq, my pottery class moved to Thursdays. Yeah Tariq, I glazed six mugs!"),
        context=(prev,),
    )
    assert [d.text for d in drafts] == [
        "Caroline's pottery class moved to Thursdays.",
        "Caroline glazed six mugs!",
    ]
    (d,) = extract(turn(2, "Your tip, Tariq, saved my basil plants."), context=(prev,))
    assert d.text == "Tariq's tip saved Caroline's basil plants."
    # the speaker greeted by her own name introduces herself: that stays
    assert extract(turn(1, "Hi Caroline, nurse at St Mary's."))[0].text.startswith("Caroline")


def test_thanks_and_courtesy_between_friends_are_not_memories() -> None:
    prev = turn(1, "Try proofing it overnight in the fridge.", speaker="Tariq")
    for said in (
        "Thanks for the advice, Tariq!",
        "Yeah, Tariq, thanks for having my back.",
        "Appreciate your kind words, Tariq.",
        "Best of luck with it!",
        "Great to chat with you again, Tariq!",
    ):
        assert extract(turn(2, said), context=(prev,)) == [], said
