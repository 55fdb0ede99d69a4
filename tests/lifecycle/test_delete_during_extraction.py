"""Deleting a turn while another thread's `add` of it is still extracting.

Extraction runs outside the store's lock (an LLM call may take seconds), so a delete can
land between the turn being stored and its memories being written. The add must finish
without an error, and nothing derived only from the deleted turn may be stored.
"""

from __future__ import annotations

import threading
from pathlib import Path

from dualtrace import Memory
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.encode.base import Extraction, Window
from dualtrace.encode.rules import RulesExtractor
from dualtrace.models import AddResult


class PausingExtractor:
    """The rules extractor; in the "adder" thread it holds its result until the test says
    go (a delete re-derives the next turn's memories with it too, and must not wait)."""

    def __init__(self) -> None:
        self.rules = RulesExtractor()
        self.extracting = threading.Event()
        self.go = threading.Event()

    @property
    def name(self) -> str:
        return self.rules.name

    def extract(self, window: Window) -> Extraction:
        extraction = self.rules.extract(window)
        if threading.current_thread().name == "adder":
            self.extracting.set()
            assert self.go.wait(10), "the test never let extraction go on"
        return extraction


def test_a_turn_deleted_mid_extraction_leaves_no_memory_and_no_error(tmp_path: Path) -> None:
    extractor = PausingExtractor()
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder(), extractor=extractor) as mem:
        [before] = mem.add("My brother plays chess.", user_id="u", session_id="s").episodes
        outcome: dict[str, AddResult | BaseException] = {}

        def add() -> None:
            try:
                outcome["result"] = mem.add(
                    ["I live in Lyon.", "I like green tea.", "My brother plays chess."],
                    user_id="u",
                    session_id="s",
                )
            except BaseException as exc:  # the test's point: what escaped the add
                outcome["error"] = exc

        thread = threading.Thread(target=add, name="adder")
        thread.start()
        assert extractor.extracting.wait(10)
        turns = {t.text: t.id for t in mem.get_all(user_id="u", kinds=["episode"])}
        mem.delete(turns["I live in Lyon."], user_id="u")  # a turn being extracted
        mem.delete(before, user_id="u")  # the source of the memory the repeat reinforces
        extractor.go.set()
        thread.join(10)
        assert "error" not in outcome, outcome.get("error")

        memories = mem.get_all(user_id="u", kinds=["fact", "preference", "event"])
        texts = [m.text for m in memories]
        assert not [t for t in texts if "Lyon" in t]
        assert [t for t in texts if "green tea" in t]
        alive = {t.id for t in mem.get_all(user_id="u", kinds=["episode"])}
        assert turns["I live in Lyon."] not in alive and before not in alive
        for m in memories:  # every memory cites only turns that still exist
            assert {s.episode_id for s in m.sources} <= alive and m.sources, m
