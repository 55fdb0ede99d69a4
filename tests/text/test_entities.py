"""Tests for dualtrace.text.entities: English and Chinese extraction, names, aliases."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dualtrace.errors import ValidationError
from dualtrace.models import EntityMention
from dualtrace.text.aliases import AliasIndex
from dualtrace.text.entities import extract_entities, normalise_name


def found(text: str, speakers: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """(name, type) of every entity extracted from `text`, in order."""
    return [(m.name, m.type) for m in extract_entities(text, speakers=speakers)]


def mention(name: str, kind: str) -> EntityMention:
    return EntityMention(name=name, norm=normalise_name(name), type=kind)


@pytest.fixture(scope="module", autouse=True)
def _warm_jieba() -> None:
    """Load jieba's dictionary once for the module, so no single test pays for it."""
    extract_entities("我在杭州。")


# --- English -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Hey Mel! I went to the LGBTQ support group yesterday.",
            [("Mel", "person"), ("LGBTQ", "org")],
        ),
        (
            "We moved from Boston to New York City in May.",
            [("Boston", "place"), ("New York City", "place")],
        ),
        ("Caroline works at Google.", [("Caroline", "person"), ("Google", "org")]),
        ("I visited the Louvre with Jon.", [("Louvre", "other"), ("Jon", "person")]),
        (
            "Melanie's kids love the Grand Canyon trip.",
            [("Melanie", "person"), ("Grand Canyon", "place")],
        ),
        (
            "Hey Jon, the dance studio in Miami is doing well. How's Gina?",
            [("Jon", "person"), ("Miami", "place"), ("Gina", "person")],
        ),
        (
            "My friend Sarah Jones from Texas visited.",
            [("Sarah Jones", "person"), ("Texas", "place")],
        ),
    ],
)
def test_conversation_sentences(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Thanks Caroline!", [("Caroline", "person")]),
        ("Yesterday was fun", []),
        ("Hey Will, how are you?", [("Will", "person")]),
        ("Sounds like a lot of fun. Painting is my thing.", []),
        (
            "Gonna visit Paris. Honestly Europe was amazing.",
            [("Paris", "place"), ("Europe", "place")],
        ),
        ("Visiting Chicago was great.", [("Chicago", "place")]),
        ('He said: "Wow, Caroline!"', [("Caroline", "person")]),
    ],
)
def test_sentence_openers_are_not_names(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


WEEKDAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
MONTHS = (
    "January February March April May June July August September October November December"
).split()


@pytest.mark.parametrize("word", WEEKDAYS + MONTHS)
def test_weekdays_and_months_are_never_entities(word: str) -> None:
    assert found(f"{word} was busy, so we met Caroline on {word}.") == [("Caroline", "person")]


def test_pronoun_i_and_single_letters_are_never_entities() -> None:
    assert found("So I think A and B are fine, I'm sure I'll manage.") == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("She moved to NYC last year.", [("NYC", "place")]),
        ("He works for IBM now.", [("IBM", "org")]),
        ("My cousin studies at MIT.", [("MIT", "org")]),
        ("We flew to the UK and then the USA.", [("UK", "place"), ("USA", "place")]),
        ("OK lol, the TV was on.", []),
    ],
)
def test_acronyms(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


def test_speakers_are_people() -> None:
    assert found("I told Kwame about it.") == [("Kwame", "other")]
    assert found("I told Kwame about it.", speakers=("Kwame Mensah", "Ann")) == [
        ("Kwame", "person")
    ]


def test_titles_make_people() -> None:
    assert found("I met Dr. Okafor and Mrs Whitfield.") == [
        ("Okafor", "person"),
        ("Whitfield", "person"),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("She studies at the University of Toronto.", [("University of Toronto", "org")]),
        ("They bank with Bank of America.", [("Bank of America", "org")]),
        ("He joined Acme Corp in the spring.", [("Acme Corp", "org")]),
        ("She volunteers at Riverside Hospital.", [("Riverside Hospital", "org")]),
        ("We had a picnic in Central Park.", [("Central Park", "place")]),
        ("We rewatched Jurassic Park.", [("Jurassic Park", "other")]),
        ("They hiked near Lake Tahoe.", [("Lake Tahoe", "place")]),
        ("I got my new Tesla Model 3.", [("Tesla Model 3", "product")]),
        ("My iPhone 15 broke.", [("iPhone 15", "product")]),
        ("He bought a BYD Seal.", [("BYD Seal", "product")]),
        ("Zhang Wei works at Huawei.", [("Zhang Wei", "person"), ("Huawei", "org")]),
    ],
)
def test_types(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


def test_a_count_after_a_name_is_not_a_model_number() -> None:
    assert found("I lived in Boston 3 years.") == [("Boston", "place")]


def test_shouted_text_yields_only_known_words() -> None:
    assert found("OMG I LOVE CAROLINE AND PARIS SO MUCH") == [
        ("CAROLINE", "person"),
        ("PARIS", "place"),
    ]


def test_duplicates_are_dropped_in_order_of_first_appearance() -> None:
    text = "Mel met Caroline. Then Caroline and Mel's dog went to Boston with Mel."
    mentions = extract_entities(text)
    assert [(m.name, m.norm) for m in mentions] == [
        ("Mel", "mel"),
        ("Caroline", "caroline"),
        ("Boston", "boston"),
    ]


def test_a_place_name_is_a_place_unless_a_speaker_bears_it() -> None:
    assert found("I told Jordan about Jordan Lee.") == [
        ("Jordan", "place"),
        ("Jordan Lee", "person"),
    ]
    assert found("Jordan flew to Jordan.", speakers=("Jordan",)) == [("Jordan", "person")]


# --- Chinese -------------------------------------------------------------------------------


def test_chinese_person_place_and_company() -> None:
    result = dict(found("我在杭州的阿里巴巴工作，女儿叫林梅。"))
    assert result["杭州"] == "place"
    assert result["阿里巴巴"] in {"org", "other"}
    assert result["林梅"] == "person"
    assert list(result) == ["杭州", "阿里巴巴", "林梅"]


def test_chinese_place() -> None:
    assert found("我们打算搬到上海。") == [("上海", "place")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("我的朋友王小明在北京大学读书。", [("王小明", "person"), ("北京大学", "org")]),
        ("我儿子在杭州第二中学上学。", [("杭州第二中学", "org")]),
        ("阿里巴巴集团很大。", [("阿里巴巴集团", "org")]),
        ("我在字节跳动工作。", [("字节跳动", "org")]),
        ("欧阳娜娜去了纽约。", [("欧阳娜娜", "person"), ("纽约", "place")]),
        ("我买了小米14手机。", [("小米14", "product")]),
        ("我哥哥和阿姨都很好。", []),
        ("我的同学叫陈。", []),
    ],
)
def test_chinese_rules(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


def test_mixed_chinese_and_english() -> None:
    assert found("I went to 北京 with Caroline.") == [("北京", "place"), ("Caroline", "person")]
    assert found("我在Google工作。") == [("Google", "org")]


# --- normalise_name ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "norm"),
    [
        ("The Louvre", "louvre"),
        ("Melanie's", "melanie"),
        ("Melanie’s", "melanie"),
        ("James'", "james"),
        ("  New \t York  ", "new york"),
        ("'Mel!'", "mel"),
        ("ＮＹＣ", "nyc"),
        ("Straße", "strasse"),
        ("杭州 ", "杭州"),
        ("林  梅", "林 梅"),
        ("The", "the"),
    ],
)
def test_normalise_name(name: str, norm: str) -> None:
    assert normalise_name(name) == norm


@given(st.text())
def test_normalise_name_is_idempotent(name: str) -> None:
    once = normalise_name(name)
    assert normalise_name(once) == once


@given(st.text(alphabet=st.sampled_from(list("Aa Bb.!?'’&-0 1MelNYCofthe杭州林梅在公司\n"))))
def test_every_extracted_norm_is_its_names_norm(text: str) -> None:
    for found_mention in extract_entities(text):
        assert found_mention.norm
        assert found_mention.norm == normalise_name(found_mention.name)


# --- AliasIndex ----------------------------------------------------------------------------


def test_same_norm_is_same_entity() -> None:
    index = AliasIndex()
    first = index.add(mention("Caroline", "person"))
    assert index.add(mention("caroline", "person")) == first
    assert len(index) == 1


@pytest.mark.parametrize("order", [("Mel", "Melanie"), ("Melanie", "Mel")])
def test_short_first_name_joins_full_name_in_either_order(order: tuple[str, str]) -> None:
    index = AliasIndex()
    for name in order:
        index.add(mention(name, "person"))
    assert len(index) == 1
    assert index.canonical(mention("Mel", "person")) == mention("Melanie", "person")
    assert index.canonical(mention("Melanie", "person")) == mention("Melanie", "person")


def test_short_name_joins_a_full_name_with_surname() -> None:
    index = AliasIndex([mention("Jonathan Park", "person")])
    assert index.add(mention("Jon", "person")) == mention("Jonathan Park", "person")


def test_ambiguous_short_names_do_not_join() -> None:
    index = AliasIndex([mention("Joanna", "person"), mention("Jolene", "person")])
    assert index.add(mention("Jo", "person")) == mention("Jo", "person")
    assert len(index) == 3
    index = AliasIndex([mention("Samantha", "person"), mention("Samuel", "person")])
    assert index.add(mention("Sam", "person")) == mention("Sam", "person")
    assert len(index) == 3


def test_unambiguous_prefix_of_three_letters_joins() -> None:
    index = AliasIndex([mention("Joanna", "person"), mention("Jolene", "person")])
    assert index.add(mention("Joa", "person")).name == "Joanna"


def test_prefix_rule_is_for_people_only() -> None:
    index = AliasIndex([mention("Boston", "place")])
    assert index.add(mention("Bos", "place")).name == "Bos"
    assert index.add(mention("Bost", "person")).name == "Bost"


def test_a_short_name_does_not_capture_another_full_name() -> None:
    index = AliasIndex([mention("Mel", "person"), mention("Melanie", "person")])
    assert index.add(mention("Melissa", "person")).name == "Melissa"
    assert len(index) == 2


@pytest.mark.parametrize(
    "order",
    [("NYC", "New York City"), ("New York City", "NYC")],
)
def test_nyc_and_new_york_city_are_one_place(order: tuple[str, str]) -> None:
    index = AliasIndex()
    for name in order:
        index.add(mention(name, "place"))
    assert len(index) == 1
    assert index.canonical(mention("NYC", "place")) == mention("New York City", "place")
    assert index.canonical(mention("new york", "place")).name == "New York City"


@pytest.mark.parametrize(
    "order",
    [
        ("MIT", "Massachusetts Institute of Technology"),
        ("Massachusetts Institute of Technology", "MIT"),
    ],
)
def test_acronym_joins_its_long_form_in_either_order(order: tuple[str, str]) -> None:
    index = AliasIndex()
    for name in order:
        index.add(mention(name, "org"))
    assert len(index) == 1
    assert index.canonical(mention("MIT", "org")).name == "Massachusetts Institute of Technology"
    assert index.aliases(mention("MIT", "org")) == (
        normalise_name(order[0]),
        normalise_name(order[1]),
    )


def test_acronym_does_not_join_a_persons_initials() -> None:
    index = AliasIndex([mention("Mike Ivan Taylor", "person")])
    assert index.add(mention("MIT", "org")).name == "MIT"


def test_ambiguous_acronym_does_not_join() -> None:
    index = AliasIndex([mention("Bank of America", "org"), mention("British Airways", "org")])
    assert index.add(mention("BA", "org")).name == "BA"


def test_chinese_and_english_names_join_through_the_alias_table() -> None:
    index = AliasIndex([mention("纽约", "place")])
    assert index.add(mention("New York City", "place")) == mention("New York City", "place")
    assert index.canonical(mention("纽约", "place")).name == "New York City"
    index.add(mention("北京", "place"))
    assert index.add(mention("Beijing", "place")).name == "Beijing"
    assert len(index) == 2


def test_canonical_keeps_a_specific_type_over_other() -> None:
    index = AliasIndex([mention("NYC", "place")])
    assert index.add(mention("New York City", "other")) == mention("New York City", "place")


def test_canonical_of_unknown_mention_is_itself_and_adds_nothing() -> None:
    index = AliasIndex([mention("Caroline", "person")])
    stranger = mention("Melanie", "person")
    assert index.canonical(stranger) == stranger
    assert index.aliases(stranger) == ()
    assert len(index) == 1


def test_entities_lists_canonical_mentions_in_order() -> None:
    index = AliasIndex()
    for name, kind in [("Mel", "person"), ("Boston", "place"), ("Melanie", "person")]:
        index.add(mention(name, kind))
    assert [m.name for m in index.entities()] == ["Melanie", "Boston"]


def test_alias_index_works_on_extracted_mentions() -> None:
    index = AliasIndex()
    for text in ["Hey Mel! See you in NYC.", "Melanie moved to New York City.", "我去了纽约。"]:
        for found_mention in extract_entities(text):
            index.add(found_mention)
    assert [(m.name, m.type) for m in index.entities()] == [
        ("Melanie", "person"),
        ("New York City", "place"),
    ]


@pytest.mark.parametrize(
    "bad",
    [EntityMention("!!", "", "person"), EntityMention("Mel", "mel", "human")],
)
def test_bad_mentions_are_refused(bad: EntityMention) -> None:
    with pytest.raises(ValidationError, match="entity mention"):
        AliasIndex().add(bad)


@pytest.mark.parametrize("text", ["They're back from Lisbon.", "We've moved.", "You're right."])
def test_a_contracted_pronoun_is_no_name(text: str) -> None:
    assert all(e.norm not in ("they're", "we've", "you're") for e in extract_entities(text))


def test_a_name_loses_its_contraction() -> None:
    assert [e.name for e in extract_entities("Tom'll come by later.")] == ["Tom"]
