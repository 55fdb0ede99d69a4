"""`dualtrace migrate`: a store built through the real write path is copied whole (turns,
memories with their validity chains, keys with their vectors bit for bit, graph, history,
sessions, operations, audit, API keys) and searches the same; bad input is refused clearly.

Each backend is a function giving a fresh store URL in the test's folder (PostgreSQL: a
fresh database of the test run's server, see pg_server.py), and the round-trip tests run
source → target for each pair; a pair with PostgreSQL in it is marked `postgres`.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pg_server
import pytest
from click.testing import CliRunner, Result

from dualtrace import Memory
from dualtrace.cli import cli
from dualtrace.embed.fake import FakeEmbedder
from dualtrace.errors import StoreError
from dualtrace.migrate import NOT_DATA, _same_nearest, migrate_store
from dualtrace.models import Candidate
from dualtrace.store.base import COPY_PARTS, SearchScope, Store, UserRows
from dualtrace.store.sqlite.store import SQLiteStore
from dualtrace.store.urls import open_store_url

MARCH, MAY = "2025-03-03T10:00:00Z", "2025-05-05T10:00:00Z"
QUERIES = ("Which city do I live in?", "car budget", "我现在在哪家公司工作？", "Hangzhou")


def _sqlite(place: Path, name: str) -> str:
    return f"sqlite:///{place / f'{name}.db'}"


def _postgres(place: Path, name: str) -> str:
    return pg_server.server().database_for(place / name)


BACKENDS: dict[str, Callable[[Path, str], str]] = {"sqlite": _sqlite, "postgres": _postgres}
PAIRS = [
    pytest.param(
        (a, b), id=f"{a}-to-{b}", marks=[pytest.mark.postgres] if "postgres" in (a, b) else []
    )
    for a in sorted(BACKENDS)
    for b in sorted(BACKENDS)
]


def build(url: str, conversation: list[dict[str, str]]) -> None:
    """Three users through the real write path, with supersession, an undo, an archive, a
    deletion, a session, a deferred add with an operation, links and API keys."""
    with Memory(url=url, embedder=FakeEmbedder()) as mem:
        mem.add(conversation, user_id="alice", session_id="s1")
        mem.add("I live in Lyon with my partner.", user_id="bob", timestamp=MARCH)
        mem.add("We finally relocated to Bordeaux last month.", user_id="bob", timestamp=MAY)
        mem.add("我在阿里巴巴做产品经理。", user_id="carol", timestamp=MARCH)
        mem.add("我已经从阿里离职了，现在在字节跳动上班。", user_id="carol", timestamp=MAY)
        mem.add("My budget for the new car is 300k yuan.", user_id="carol", timestamp=MARCH)
        mem.add("Let's raise the car budget to 350k yuan.", user_id="carol", timestamp=MAY)
        superseded = [
            h
            for i in mem.get_all(user_id="carol", include_invalid=True)
            for h in mem.history(i.id, user_id="carol")
            if h.event == "SUPERSEDE"
        ]
        mem.revert(superseded[0].id, user_id="carol")  # a REVERT entry citing another's id
        # the budget memory (not the first listed: one call's memories tie on time, and the
        # home's fact, archived, left a near tie that the two backends' full-text ranks split)
        budget = next(
            i
            for i in mem.get_all(user_id="alice")
            if "budget" in i.text.casefold() and i.kind != "episode"
        )
        mem.store.archive_memories("alice", [budget.id], "test", "test")
        mem.delete(mem.get_all(user_id="bob", kinds=["episode"])[0].id, user_id="bob")
        session = mem.session(user_id="dave", now=MARCH)
        session.add("user", "I am planning a trip to Kyoto in April.", timestamp=MARCH)
        session.end(now=MAY)
        deferred = mem.add("Remind me to call Ines.", user_id="erin", defer=True)
        mem.track(deferred.episodes, user_id="erin")
        mem.maintain(user_id="alice", now=MAY)
        mem.api_keys.create(user_id="alice", label="app")
        revoked, _ = mem.api_keys.create(user_id=None, admin=True)
        mem.store.revoke_api_key(revoked.key_id, datetime(2025, 6, 1, tzinfo=UTC))


def dump(store: Store, user_id: str) -> dict[str, Any]:
    """Every row of a user, comparable across stores (history by content; vectors as float16
    bytes: PostgreSQL keeps them as halfvec)."""
    parts: dict[str, list[Any]] = {}
    for part in COPY_PARTS:
        rows: list[Any] = []
        after: str | None = None
        while True:
            page, after = store.copy_page(user_id, part, after, 2)  # small pages: the cursor
            rows += getattr(page, part)
            if after is None:
                break
        parts[part] = rows
    history = {h.id: h for h in parts["history"]}
    parts["history"] = sorted(
        (
            h.record_id,
            h.event,
            h.old_text,
            h.new_text,
            h.at,
            h.actor,
            json.dumps(
                {**h.detail, "reverts": _content(history, h.detail.get("reverts"))},
                sort_keys=True,
                default=str,
            ),
        )
        for h in parts["history"]
    )
    parts["keys"] = sorted(
        (
            k.record_id,
            k.trace,
            k.chunk,
            k.kind,
            k.session_id,
            k.body,
            k.gloss,
            k.content_hash,
            None
            if k.vector is None
            else (k.vector.dtype.str, k.vector.astype(np.float16).tobytes()),
        )
        for k in parts["keys"]
    )
    parts["audit"] = [(a.at, a.actor, a.action, a.target_id) for a in parts["audit"]]
    for part in ("entities", "links", "memories", "episodes", "sessions", "operations"):
        parts[part] = sorted(parts[part], key=repr)
    return parts


def _content(history: dict[int, Any], entry_id: int | None) -> Any:
    entry = history.get(entry_id) if entry_id is not None else None
    return None if entry is None else (entry.record_id, entry.event, entry.at)


@pytest.fixture(params=PAIRS)
def urls(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, str]:
    source, target = request.param
    return BACKENDS[source](tmp_path, "source"), BACKENDS[target](tmp_path, "target")


def test_everything_is_copied_and_searches_the_same(
    urls: tuple[str, str], conversation: list[dict[str, str]]
) -> None:
    build(urls[0], conversation)
    source, target = open_store_url(urls[0]), open_store_url(urls[1])
    try:
        report = migrate_store(source, target, batch=3)  # pages of 3: many cursors
        users = source.user_ids()
        assert users == target.user_ids() == ["alice", "bob", "carol", "dave", "erin"]
        assert report.users == 5 and report.counts_checked == 5 and report.searches_checked > 0
        assert report.search_indexes == 0  # every user is under the exact-search cut
        assert report.api_keys == 2 and report.rows["keys"] > 10 and report.rows["links"] > 0
        for user in users:
            assert dump(target, user) == dump(source, user), user
            assert _counts(target, user) == _counts(source, user)
            assert target.audit_entries(user) and len(target.audit_entries(user)) == len(
                source.audit_entries(user)
            )
        assert target.api_key_rows() == source.api_key_rows()
        assert target.embedder_binding() == source.embedder_binding() == ("fake:fake", 64)
        validity = [m for m in dump(target, "carol")["memories"] if m.superseded_by]
        assert validity and all(m.valid_to and m.invalidated_at for m in validity)
        assert any(m.archived for m in dump(target, "alice")["memories"])
        assert dump(target, "erin")["pending"] and dump(target, "erin")["operations"]
    finally:
        source.close()
        target.close()
    before, after = _searches(urls[0]), _searches(urls[1])
    if urls[0].split(":")[0] == urls[1].split(":")[0]:
        assert after == before
    else:  # each backend ranks its own way (BM25 in SQLite, ts_rank in PostgreSQL): the
        # same records, and the same best one, for every query
        assert [(h[:1], sorted(h)) for h in after] == [(h[:1], sorted(h)) for h in before]


def _counts(store: Store, user_id: str) -> dict[str, int]:
    """The user's row counts, less what is a backend's own (SQLite's index versions)."""
    return {k: v for k, v in store.count_records(user_id).items() if k not in NOT_DATA}


def _searches(url: str) -> list[list[tuple[str, str]]]:
    """The engine's hits (id, text) for each query and user."""
    with Memory(url=url, embedder=FakeEmbedder(), resume=False) as mem:
        return [
            [(h.id, h.text) for h in mem.search(q, user_id=u, reinforce=False)]
            for u in ("alice", "bob", "carol")
            for q in QUERIES
        ]


@pytest.mark.postgres
def test_big_users_get_their_own_graph_in_a_postgres_target(
    tmp_path: Path, conversation: list[dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    from dualtrace.store.postgres import graphs

    monkeypatch.setattr(graphs, "GRAPH_FROM", 12)  # as if the cut were at 12 keys
    monkeypatch.setattr(graphs, "DROP_BELOW", 6)
    source_url = _sqlite(tmp_path, "source")
    build(source_url, conversation)
    source, target = open_store_url(source_url), open_store_url(_postgres(tmp_path, "target"))
    try:
        big = [u for u in source.user_ids() if source.count_records(u)["search_keys"] > 12]
        report = migrate_store(source, target)  # the check compares exact searches first
        scope = SearchScope()
        searched = {u: target.search_dense(u, _any_vector(source, u), 5, scope) for u in big}
        with target._tx(big[0]) as cur:  # type: ignore[attr-defined]
            assert graphs.has_graph(cur, big[0])
    finally:
        source.close()
        target.close()
    assert big and report.search_indexes == len(big)
    assert all(len(found) == 5 for found in searched.values())


def _any_vector(store: Store, user_id: str) -> np.ndarray:
    keys = [k for k in store.copy_page(user_id, "keys", None, 50)[0].keys if k.vector is not None]
    assert keys and keys[0].vector is not None
    return keys[0].vector


def test_the_reverted_entry_still_names_its_entry_in_the_copy(
    tmp_path: Path, conversation: list[dict[str, str]]
) -> None:
    src, dst = _sqlite(tmp_path, "a"), _sqlite(tmp_path, "b")
    build(src, conversation)
    assert _migrate(src, dst).exit_code == 0
    target = open_store_url(dst)
    try:
        page, _ = target.copy_page("carol", "history", None, 1000)
        ids = {h.id: h for h in page.history}
        reverts = [h for h in page.history if h.event == "REVERT"]
        assert reverts and all(ids[h.detail["reverts"]].event == "SUPERSEDE" for h in reverts)
    finally:
        target.close()


# -- the command line, and what it refuses ------------------------------------------------------


def _migrate(*args: str) -> Result:
    source, target, *rest = args
    return CliRunner().invoke(cli, ["migrate", "--from", source, "--to", target, *rest])


def test_the_command_prints_what_it_copied_and_checked(
    tmp_path: Path, conversation: list[dict[str, str]]
) -> None:
    src = _sqlite(tmp_path, "a")
    build(src, conversation)
    result = CliRunner().invoke(
        cli, ["--json", "migrate", "--from", src, "--to", str(tmp_path / "b.db")]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["users"] == 5 and report["counts_checked"] == 5
    assert report["rows"]["episodes"] > 0 and report["rows"]["history"] > 0


@pytest.mark.parametrize(
    ("source", "target", "code", "names"),
    [
        ("{tmp}/missing.db", "{tmp}/b.db", 4, ["missing.db", "must exist"]),
        ("sqlite://{tmp}/a.db", "{tmp}/b.db", 4, ["sqlite://", "sqlite:///path"]),
        ("{tmp}/a.db", "mysql://host/db", 4, ["mysql://host/db", "unknown scheme"]),
        ("{tmp}/a.db", "sqlite:///{tmp}/a.db", 4, ["same store"]),
        ("{tmp}/a.db", "sqlite:///", 4, ["names no file"]),
    ],
)
def test_bad_urls_are_refused_naming_the_value_and_the_fix(
    tmp_path: Path, source: str, target: str, code: int, names: list[str]
) -> None:
    with Memory(tmp_path / "a.db", embedder=FakeEmbedder()) as mem:
        mem.add("I live in Hangzhou.", user_id="alice")
    result = _migrate(source.format(tmp=tmp_path), target.format(tmp=tmp_path))
    assert result.exit_code == code, result.output
    assert all(name in result.output for name in names), result.output


def test_a_target_holding_the_same_users_is_refused_even_with_force(tmp_path: Path) -> None:
    for name in ("a", "b"):
        with Memory(tmp_path / f"{name}.db", embedder=FakeEmbedder()) as mem:
            mem.add(f"I live in {name}ville.", user_id="alice")
    for force in ((), ("--force",)):
        result = _migrate(str(tmp_path / "a.db"), str(tmp_path / "b.db"), *force)
        assert (
            result.exit_code == 1
            and "'alice'" in result.output
            and "forget-user" in (result.output)
        ), result.output


def test_a_target_with_other_users_needs_force(tmp_path: Path) -> None:
    with Memory(tmp_path / "a.db", embedder=FakeEmbedder()) as mem:
        mem.add("I live in Hangzhou.", user_id="alice")
    with Memory(tmp_path / "b.db", embedder=FakeEmbedder()) as mem:
        mem.add("I live in Lyon.", user_id="bob")
    refused = _migrate(str(tmp_path / "a.db"), str(tmp_path / "b.db"))
    assert refused.exit_code == 1 and "--force" in refused.output, refused.output
    assert _migrate(str(tmp_path / "a.db"), str(tmp_path / "b.db"), "--force").exit_code == 0
    with Memory(tmp_path / "b.db", embedder=FakeEmbedder()) as mem:
        assert [u.user_id for u in mem.users()] == ["alice", "bob"]
        assert "Hangzhou" in mem.search("where do I live", user_id="alice")[0].text


def test_a_target_bound_to_another_embedder_is_refused_before_writing(tmp_path: Path) -> None:
    with Memory(tmp_path / "a.db", embedder=FakeEmbedder()) as mem:
        mem.add("I live in Hangzhou.", user_id="alice")
    with Memory(tmp_path / "b.db", embedder=FakeEmbedder(dimensions=32)):
        pass
    result = _migrate(str(tmp_path / "a.db"), str(tmp_path / "b.db"))
    assert result.exit_code == 1, result.output
    assert "(32 dims)" in result.output and "(64 dims)" in result.output, result.output
    target = open_store_url(str(tmp_path / "b.db"))
    try:
        assert target.user_ids() == [] and target.copy_page("alice", "episodes", None, 9) == (
            UserRows(),
            None,
        )
    finally:
        target.close()


class _LosingStore(SQLiteStore):
    """A target that drops one search key of each page it loads (a broken backend)."""

    def load_rows(self, user_id: str, rows: UserRows) -> list[int]:
        return super().load_rows(user_id, dataclasses.replace(rows, keys=rows.keys[1:]))


def test_a_copy_that_lost_rows_fails_the_check_naming_the_user(tmp_path: Path) -> None:
    with Memory(tmp_path / "a.db", embedder=FakeEmbedder()) as mem:
        mem.add("I live in Hangzhou near the West Lake.", user_id="alice")
    source, target = open_store_url(str(tmp_path / "a.db")), _LosingStore(tmp_path / "b.db")
    try:
        with pytest.raises(StoreError, match=r"'alice': \{'search_keys': \((\d+), (\d+)\)"):
            migrate_store(source, target)
    finally:
        source.close()
        target.close()


def test_ties_at_the_cut_may_differ_other_records_may_not() -> None:
    a = [Candidate("m1", "fact", 0.9), Candidate("m2", "fact", 0.5)]
    tied = [Candidate("m1", "fact", 0.9), Candidate("m3", "fact", 0.5)]
    assert _same_nearest(a, tied)
    assert not _same_nearest(a, [Candidate("m3", "fact", 0.9), Candidate("m2", "fact", 0.5)])
    assert not _same_nearest(a, a[:1])
