"""A context spends its tokens on memories: a small frame, short source labels that map back
to stored turns, the best item even at 40 tokens, and no memory cut to a stub."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from dualtrace import Memory, MemoryConfig
from dualtrace.cli import cli
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.recall.packing import HEADER
from dualtrace.text.tokens import count_tokens

FACTS = [
    "Parking is tight: my space in the underground garage is only 5.2 m long.",
    "My daughter Lily started violin lessons on Saturdays with Mr. Chen.",
    "I switched my phone plan to the unlimited one, it costs 59 euros a month.",
    "We adopted a grey cat called Mochi from the shelter last spring.",
    "My favourite hiking trail is the Nine Creeks path, which winds through the tea fields "
    "west of the lake and ends at a small temple where we always stop for noodles.",
]
_LABEL = re.compile(r"\[([^\]]+)\]$")


def _store(path: Path, *, ids: bool = False, **config: object) -> Memory:
    mem = Memory(path, embedder=FakeEmbedder(), config=MemoryConfig(**config))  # type: ignore[arg-type]
    for n, fact in enumerate(FACTS):
        message = {"role": "user", "content": fact, **({"id": f"m{n}"} if ids else {})}
        mem.add([message], user_id="u", timestamp=f"2026-0{n + 1}-10T10:00:00Z")
    return mem


def _lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("- ")]


def test_header_is_short_and_can_be_turned_off(tmp_path: Path) -> None:
    assert count_tokens(HEADER) <= 12
    with _store(tmp_path / "a.db") as mem:
        assert mem.context("cat", user_id="u", max_tokens=300).text.startswith(HEADER)
    with _store(tmp_path / "b.db", context_header=False) as mem:
        text = mem.context("cat", user_id="u", max_tokens=300).text
        assert text and HEADER not in text and not text.startswith("## ")


def test_turns_without_ids_are_cited_by_short_numbers_that_map_to_stored_ids(
    tmp_path: Path,
) -> None:
    with _store(tmp_path / "m.db") as mem:
        ctx = mem.context("Where do I park my car?", user_id="u", max_tokens=400)
        assert "ep_" not in ctx.text
        cited = [_LABEL.search(line) for line in _lines(ctx.text)]
        labels = [label for m in cited if m for label in m.group(1).split(", ")]
        assert labels and all(count_tokens(label) <= 4 for label in labels)
        assert set(labels) == set(ctx.references)
        assert sorted(set(labels), key=labels.index)[:3] == ["1", "2", "3"][: len(set(labels))]
        for item in ctx.items:
            assert len(item.refs) == min(3, len(item.sources))
            for label, source in zip(item.refs, item.sources, strict=False):
                assert ctx.references[label] == source.episode_id
                assert mem.get(ctx.references[label], user_id="u").text == source.text


def test_short_message_ids_are_cited_as_given(tmp_path: Path) -> None:
    with _store(tmp_path / "m.db", ids=True) as mem:
        ctx = mem.context("Where do I park my car?", user_id="u", max_tokens=400)
        assert "[m0]" in ctx.text
        assert ctx.references["m0"] == mem.get(ctx.references["m0"], user_id="u").id


def test_long_message_ids_are_replaced_by_numbers(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        long_id = "msg-7f3a2c9e-1b4d-4e8f-a2c6-9d0e1f2a3b4c"
        mem.add([{"role": "user", "content": FACTS[0], "id": long_id}], user_id="u")
        ctx = mem.context("parking space", user_id="u", max_tokens=300)
        assert "7f3a2c9e" not in ctx.text and "[1]" in ctx.text
        assert mem.get(ctx.references["1"], user_id="u").text == FACTS[0]


@pytest.mark.parametrize("budget", [40, 45, 50, 60, 80])
def test_the_best_item_is_there_from_40_tokens(tmp_path: Path, budget: int) -> None:
    with _store(tmp_path / "m.db") as mem:
        best = mem.search("How long is my parking space?", user_id="u", limit=1)[0]
        ctx = mem.context("How long is my parking space?", user_id="u", max_tokens=budget)
        assert ctx.items and ctx.items[0].id == best.id
        assert ctx.tokens <= budget and count_tokens(ctx.text) == ctx.tokens
        assert "5.2" in ctx.text


def test_below_the_floor_the_context_may_be_empty_but_never_over(tmp_path: Path) -> None:
    with _store(tmp_path / "m.db") as mem:
        for budget in (1, 5, 10, 20, 30):
            ctx = mem.context("parking", user_id="u", max_tokens=budget)
            assert ctx.tokens <= budget


def test_a_memory_is_never_cut_to_a_stub(tmp_path: Path) -> None:
    with _store(tmp_path / "m.db") as mem:
        for budget in range(40, 140, 7):
            ctx = mem.context("hiking trail tea fields", user_id="u", max_tokens=budget)
            for line in _lines(ctx.text):
                body = _LABEL.sub("", line[2:]).strip()
                body = body.split(": ", 1)[1] if body.startswith("user: ") else body
                words = re.findall(r"[A-Za-z0-9.']+", body.replace("…", ""))
                assert len(words) >= 3, line
                assert not re.search(r"\b(The|A|My) user's…", line), line


def test_cli_json_carries_references(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUALTRACE_HOME", str(tmp_path / "home"))
    path = tmp_path / "m.db"
    runner = CliRunner()
    for fact in FACTS[:3]:
        added = runner.invoke(cli, ["--db", str(path), "add", fact, "--user", "u"])
        assert added.exit_code == 0, added.output
    result = runner.invoke(
        cli, ["--json", "--db", str(path), "context", "parking space", "--user", "u"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["references"] and all(k.isdigit() for k in data["references"])
    assert len(data["refs"]) == len(data["items"])
    assert {label for refs in data["refs"] for label in refs} == set(data["references"])
    with Memory(path) as mem:
        for label, episode_id in data["references"].items():
            assert mem.get(episode_id, user_id="u").id == episode_id
            assert f"[{label}" in data["text"] or f", {label}" in data["text"]


def test_session_context_never_shows_a_stub(tmp_path: Path) -> None:
    with _store(tmp_path / "m.db") as mem:
        chat = mem.session(user_id="u", now="2026-06-01T10:00:00Z")
        chat.add("user", "Which trail should we hike on Saturday, the one with the tea fields?")
        for budget in range(120, 420, 30):
            text = chat.context(max_tokens=budget).text
            for line in _lines(text):
                assert not re.search(r"(?:^- |: )\S+(?:'s)?…", line), line
                assert "ep_" not in line, line
