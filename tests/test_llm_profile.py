"""With an LLM extractor, the user's picture fills as with the rules: the slots the model's
triples name reach the profile, a later value replaces an earlier one, and a question about
the slot is led by the current value."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from scripted_chat import ScriptedServer, memories_reply, start, user_memory

from dualtrace import Memory
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.llm.openai import OpenAIChatConfig, OpenAIChatLLM


@pytest.fixture
def server(loopback: Callable[[ScriptedServer], None]) -> ScriptedServer:
    return start(loopback)


def _memory(text: str, predicate: str, value: str, turn: str) -> dict[str, object]:
    return user_memory(text, predicate, value, source_turn_ids=[turn], importance=0.8)


def _llm(server: ScriptedServer) -> OpenAIChatLLM:
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    return OpenAIChatLLM(OpenAIChatConfig(url, "scripted", max_retries=0, backoff_s=0))


def test_the_profile_holds_what_the_models_triples_name(
    server: ScriptedServer, db_path: Path
) -> None:
    server.script.replies += [
        memories_reply(
            _memory("The user lives in Leeds.", "lives_in", "Leeds", "m1"),
            _memory("The user has a beagle called Biscuit.", "pet", "Biscuit", "m1"),
        ),
        memories_reply(_memory("The user moved to Porto.", "lives_in", "porto", "m2")),
        (500, '{"error": "the judge is down"}'),  # the slot's own rule decides instead
    ]
    with Memory(db_path, embedder=FakeEmbedder(), llm=_llm(server)) as mem:
        mem.add(
            {"role": "user", "content": "hi! I'm in Leeds with my beagle Biscuit", "id": "m1"},
            user_id="ana",
            session_id="one",
            timestamp="2026-01-10T09:00:00Z",
        )
        moved = mem.add(
            {"role": "user", "content": "big news, we moved to porto last week!", "id": "m2"},
            user_id="ana",
            session_id="two",
            timestamp="2026-06-01T09:00:00Z",
        )
        assert any("consolidation judge failed" in w for w in moved.warnings)
        assert "SUPERSEDE" in [e[1] for e in moved.events]

        profile = mem.profile("ana", history=True)
        values = {(v.attribute, v.value) for v in profile.values}
        assert values == {("lives_in", "porto"), ("pet", "Biscuit")}
        (home,) = [v for v in profile.values if v.attribute == "lives_in"]
        assert [e.value for e in home.replaced] == ["Leeds"]
        assert "porto" in profile.text and "Biscuit" in profile.text

        hits = mem.search("Where do I live now?", user_id="ana", limit=3)
        assert "porto" in hits[0].text.casefold()
        # a new session starts with the picture
        start_context = mem.context(None, user_id="ana", max_tokens=400)
        assert "porto" in start_context.text and "Biscuit" in start_context.text
        # another user sees none of it
        assert mem.profile("ben").values == []
