"""The bilingual lexicon: derived from the installed CC-CEDICT, shipped, and used both ways."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from dualtrace.text.lexical import query_terms
from dualtrace.text.lexicon import (
    LEXICON_FILE,
    build_lexicon,
    lexicon,
    translate_terms,
    write_lexicon,
)


def test_the_shipped_lexicon_is_what_the_installed_dictionary_gives(tmp_path: Path) -> None:
    built = build_lexicon()
    assert lexicon() == built
    # byte for byte: `write_lexicon(build_lexicon(), path)` is how the shipped file is made
    write_lexicon(built, tmp_path / LEXICON_FILE)
    shipped = resources.files("dualtrace").joinpath("data", LEXICON_FILE).read_bytes()
    assert (tmp_path / LEXICON_FILE).read_bytes() == shipped


def test_chinese_words_get_english_ones() -> None:
    words = translate_terms(query_terms("我对什么过敏？"))
    assert "allergic" in words or "allergy" in words
    assert "daughter" in translate_terms(query_terms("我女儿学什么乐器？"))


def test_english_words_and_phrases_get_chinese_ones() -> None:
    assert "过敏" in translate_terms(query_terms("What am I allergic to?"))
    assert "猫" in translate_terms(query_terms("What is my cat's name?"))  # "cat's" -> cat
    assert "女儿" in translate_terms(query_terms("Where does my daughter go to school?"))


def test_numbers_and_latin_names_are_not_translated() -> None:
    terms = query_terms("Is 5.2 m enough for a Tesla?")
    assert not {"5.2", "tesla"} & set(translate_terms(terms))


def test_sub_words_of_an_unlisted_chinese_word_are_looked_up() -> None:
    book = lexicon()
    assert "地下停车库" not in book.zh_en
    assert {"underground", "garage"} <= set(book.english(["地下停车库"]))


def test_an_unlisted_two_character_word_is_looked_up_by_its_characters() -> None:
    book = lexicon()
    assert "几楼" not in book.zh_en and "几" in book.zh_en
    found = set(book.english(["几楼"]))
    assert "floor" in found
    assert not found & set(book.zh_en["几"])  # a function character's senses stay out


def test_a_gloss_holds_the_other_language_only() -> None:
    from dualtrace.text.lexicon import gloss

    zh = gloss("我对花粉过敏，春天很难受。").split()
    assert "allergic" in zh or "allergy" in zh
    en = gloss("I'm allergic to penicillin.").split()
    assert "过敏" in en
    assert gloss("12345 2026") == ""


def test_a_word_glossed_only_at_length_keeps_the_noun_phrase_it_opens_with() -> None:
    # 表妹: "younger female cousin via female line"; 表哥: "older male cousin via female line"
    book = lexicon()
    assert "cousin" in book.zh_en["表妹"] and "line" not in book.zh_en["表妹"]
    assert "cousin" in translate_terms(query_terms("我表妹是做什么工作的？"))
    # not a gloss of the word's grammar: 们 "plural marker for pronouns…"
    assert "们" not in book.zh_en


def test_kin_words_translate_to_their_relation_and_no_other() -> None:
    # the dictionary glosses 外婆 as "mother's mother" and 姐夫 as "older sister's husband"
    assert {"grandmother", "grandma"} <= set(translate_terms(query_terms("我外婆多大了？")))
    assert "mother" not in translate_terms(query_terms("我外婆多大了？"))
    assert "husband" not in translate_terms(query_terms("我姐夫在哪上班？"))
    assert {"外婆", "奶奶"} <= set(translate_terms(query_terms("When is grandma's birthday?")))


def test_a_word_whose_commonest_sense_is_a_function_word_is_not_translated() -> None:
    # 都 "all" (not "capital city"), 的 "of" (not "aim"), 现在 "now" (not "present" = gift)
    book = lexicon()
    assert book.zh_en["都"] == book.zh_en["的"] == book.zh_en["现在"] == ()
    assert "present" not in translate_terms(query_terms("我现在住在哪里？"))
    assert "allergic" in translate_terms(query_terms("我现在对什么过敏？"))


def test_a_word_only_rare_chinese_words_translate_gets_them() -> None:
    # 仓鼠 and 车位 are rarer than the frequency floor, and the only words for these
    book = lexicon()
    assert "仓鼠" in translate_terms(query_terms("What is my hamster's name?"))
    assert "车位" in book.en_zh["parking spot"]
    assert "得票" not in book.en_zh.get("getting", ())  # not a word's later sense
