"""Move a whole store to another backend (SQLite ↔ PostgreSQL), then check the copy.

`migrate_store(source, target)` streams every user's rows through the stores' `CopyStore`
port, a page at a time (memory stays bounded by the page size, whatever the store's size):
turns with their external ids, sessions and sequence numbers, extraction-pending marks,
memories with their sources and validity chains (valid_from/valid_to, superseded_by,
invalidated_at, archived), search keys with their full text, glosses and vectors (copied,
never re-embedded), entities, links, history, sessions, deferred-add operations and the
audit log; then the API keys. At the end it checks every user's row counts
(`count_records`) and, for a sample of users, that dense searches (with stored vectors) and
lexical searches (with stored words) find the same records on both sides. Last, what each
user's dense search needs at their size is built in the target (`refresh_search_index`: on
PostgreSQL, a big user's own HNSW graph), after the check, which compares exact searches.

What it decides (issue 18):

- The target must hold none of the source's users: merging two histories of one user is
  not a migration. A target that holds other users is refused too unless `force`; then the
  source's users are added beside them.
- The target is bound to the source's embedder; a target bound to another one is refused
  (EmbedderMismatchError) before anything is written.
- An API key whose id the target has already is refused unless it is the same key (same
  hash), which is kept as it is.
- History ids are the target's own: an entry that undoes another (`reverts`) and audit rows
  naming a history entry (`history_id`) are re-pointed to the new ids.
- Left behind: the audit rows of users forgotten before (they are kept under a keyed
  pseudonym only the source's secret recognises), and a memory's `archived_at` (written,
  never read: its ARCHIVE history entry keeps the time).
- A migration cut short leaves the users it wrote in the target; forget them there
  (`dualtrace forget-user`) or start again with an empty target.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from dualtrace.errors import ConflictError, EmbedderMismatchError, StoreError
from dualtrace.models import ApiKey, Candidate
from dualtrace.store.base import COPY_PARTS, IndexEntry, SearchScope, Store, UserRows
from dualtrace.text.lexical import query_terms

BATCH = 1000  # rows a page: bounded memory, and few enough round trips to a server
SAMPLE_USERS = 20  # users whose searches are compared
SAMPLE_KEYS = 3  # stored keys a sampled user's searches start from
DENSE_LIMIT = 10
LEXICAL_LIMIT = 200
SCOPES = (SearchScope(), SearchScope(include_invalid=True, include_archived=True))
# Counts that are a backend's cache bookkeeping, not data (SQLite's per-user index version).
NOT_DATA = frozenset({"index_versions"})


@dataclass
class MigrationReport:
    """What `migrate_store` copied and checked."""

    users: int = 0
    rows: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COPY_PARTS, 0))
    api_keys: int = 0
    counts_checked: int = 0  # users whose row counts matched
    searches_checked: int = 0  # searches that found the same records on both sides
    audit_left: int = 0  # audit rows of users forgotten before, left behind
    search_indexes: int = 0  # users given their own search index in the target


def migrate_store(
    source: Store,
    target: Store,
    *,
    force: bool = False,
    batch: int = BATCH,
    progress: Callable[[int], None] | None = None,
) -> MigrationReport:
    """Copy every row of `source` into `target` and check the copy (see the module doc).

    `progress` is called with 1 after each user. Raises ConflictError (target holds these
    users, or is not empty without `force`, or an API key clashes), EmbedderMismatchError,
    or StoreError if the check finds a difference.
    """
    users = source.user_ids()
    _check_target(target, users, force)
    keys = _new_api_keys(source, target)
    binding = _embedder(source, target)
    if binding is not None:
        target.bind_embedder(*binding)
    report = MigrationReport(users=len(users))
    samples: dict[str, list[IndexEntry]] = {}
    audit_copied: dict[str, int] = {}
    every = max(1, len(users) // SAMPLE_USERS)
    for n, user_id in enumerate(users):
        sample = samples.setdefault(user_id, []) if n % every == 0 else None
        audit_copied[user_id] = _copy_user(source, target, user_id, batch, report, sample)
        if progress is not None:
            progress(1)
    for key, key_hash in keys:
        target.insert_api_key(key, key_hash)
        if key.revoked_at is not None:
            target.revoke_api_key(key.key_id, key.revoked_at)
    report.api_keys = len(keys)
    _check_counts(source, target, audit_copied, report)
    _check_searches(source, target, samples, report)
    report.search_indexes = sum(target.refresh_search_index(user_id) for user_id in users)
    return report


def _check_target(target: Store, users: Sequence[str], force: bool) -> None:
    """Refuse a target holding any of these users, or any user at all without `force`."""
    present = target.user_ids()
    both = sorted(set(present) & set(users))
    if both:
        shown = ", ".join(repr(u) for u in both[:5]) + (" …" if len(both) > 5 else "")
        raise ConflictError(
            f"the target already holds {len(both)} of the source's users ({shown}); "
            "migrate into an empty store, or forget those users in the target first "
            "(`dualtrace --url TARGET forget-user --user ID`)"
        )
    if present and not force:
        raise ConflictError(
            f"the target is not empty: it holds {len(present)} other users; pass --force "
            "(force=True) to add the source's users beside them, or migrate into an empty store"
        )


def _embedder(source: Store, target: Store) -> tuple[str, int] | None:
    """The source's embedder binding, if the target has none or the same."""
    ours, theirs = source.embedder_binding(), target.embedder_binding()
    if ours is not None and theirs is not None and ours != theirs:
        raise EmbedderMismatchError(
            f"the target's vectors come from embedder {theirs[0]!r} ({theirs[1]} dims), the "
            f"source's from {ours[0]!r} ({ours[1]} dims); vectors are copied, never "
            "re-embedded: migrate into a new, empty store"
        )
    return ours


def _new_api_keys(source: Store, target: Store) -> list[tuple[ApiKey, str]]:
    """The source's API keys the target lacks; a key id the target has with another hash is
    a ConflictError (checked before anything is written)."""
    held = {key.key_id: key_hash for key, key_hash in target.api_key_rows()}
    new = []
    for key, key_hash in source.api_key_rows():
        if key.key_id not in held:
            new.append((key, key_hash))
        elif held[key.key_id] != key_hash:
            raise ConflictError(
                f"API key {key.key_id!r} exists in the target with another secret; revoke "
                "and delete one of them, or migrate into a store without API keys"
            )
    return new


def _copy_user(
    source: Store,
    target: Store,
    user_id: str,
    batch: int,
    report: MigrationReport,
    sample: list[IndexEntry] | None,
) -> int:
    """Copy one user's rows part by part; returns the audit rows copied."""
    history_ids: dict[int, int] = {}  # the source's history id -> the target's
    audit = 0
    for part in COPY_PARTS:
        after: str | None = None
        while True:
            rows, after = source.copy_page(user_id, part, after, batch)
            _load(target, user_id, rows, history_ids)
            report.rows[part] += len(getattr(rows, part))
            audit += len(rows.audit)
            if sample is not None and len(sample) < SAMPLE_KEYS:
                with_vector = [k for k in rows.keys if k.vector is not None]
                sample += with_vector[: SAMPLE_KEYS - len(sample)]
            if after is None:
                break
    return audit


def _load(target: Store, user_id: str, rows: UserRows, history_ids: dict[int, int]) -> None:
    """Load a page; history entries in runs, each after the entries it cites are loaded
    (an undo may cite an entry of its own page, whose new id is known once that is)."""
    history = list(rows.history)
    rows = dataclasses.replace(rows, history=())
    while True:
        page_ids = {h.id for h in history}
        cut = next(
            (n for n, h in enumerate(history) if n and h.detail.get("reverts") in page_ids),
            len(history),
        )
        part = _repointed(dataclasses.replace(rows, history=tuple(history[:cut])), history_ids)
        loaded = target.load_rows(user_id, part)
        history_ids.update(zip((h.id for h in part.history), loaded, strict=True))
        history, rows = history[cut:], UserRows()
        if not history:
            return


def _repointed(rows: UserRows, ids: dict[int, int]) -> UserRows:
    """Rows whose history references name the target's history ids."""
    if not rows.history and not rows.audit:
        return rows
    history = tuple(
        dataclasses.replace(h, detail={**h.detail, "reverts": ids[h.detail["reverts"]]})
        if h.detail.get("reverts") in ids
        else h
        for h in rows.history
    )
    audit = tuple(
        dataclasses.replace(a, detail={**a.detail, "history_id": ids[a.detail["history_id"]]})
        if a.detail.get("history_id") in ids
        else a
        for a in rows.audit
    )
    return dataclasses.replace(rows, history=history, audit=audit)


def _check_counts(
    source: Store, target: Store, audit_copied: dict[str, int], report: MigrationReport
) -> None:
    """Every user's row counts match (audit rows: those copied, see `audit_left`)."""
    differ = []
    for user_id, copied in audit_copied.items():
        before = {k: v for k, v in source.count_records(user_id).items() if k not in NOT_DATA}
        after = {k: v for k, v in target.count_records(user_id).items() if k not in NOT_DATA}
        report.audit_left += before.pop("audit_log", 0) - copied
        after_audit = after.pop("audit_log", 0)
        if before != after or after_audit != copied:
            changed = {
                t: (before.get(t), after.get(t))
                for t in sorted(set(before) | set(after))
                if before.get(t) != after.get(t)
            }
            if after_audit != copied:
                changed["audit_log"] = (copied, after_audit)
            differ.append(f"{user_id!r}: {changed}")
        else:
            report.counts_checked += 1
    if differ:
        raise StoreError(
            f"the copy differs from the source in {len(differ)} users' row counts "
            f"(table: (source, target)): {'; '.join(differ[:5])}; the target is incomplete: "
            "forget those users there (or use a fresh target) and run the migration again"
        )


def _check_searches(
    source: Store, target: Store, samples: dict[str, list[IndexEntry]], report: MigrationReport
) -> None:
    """Dense searches from stored vectors and lexical searches for stored words find the
    same records on both sides (ranking may differ between backends, membership not)."""
    differ = []
    for user_id, keys in samples.items():
        for key, scope in ((k, s) for k in keys for s in SCOPES):
            assert key.vector is not None  # sampled keys have vectors
            dense = [
                store.search_dense(user_id, key.vector, DENSE_LIMIT, scope)
                for store in (source, target)
            ]
            terms = query_terms(key.body)[:4]
            lexical = [
                store.search_lexical(user_id, terms, LEXICAL_LIMIT, scope)
                for store in (source, target)
            ]
            for channel, (a, b), same in (
                ("dense", dense, _same_nearest(dense[0], dense[1])),
                ("lexical", lexical, _same_matches(lexical[0], lexical[1])),
            ):
                if same:
                    report.searches_checked += 1
                else:
                    differ.append(f"{user_id!r} {channel} {_ids(a)} vs {_ids(b)}")
    if differ:
        raise StoreError(
            f"{len(differ)} searches found other records in the copy than in the source: "
            f"{'; '.join(differ[:3])}; the target's index is not a faithful copy (is the "
            "target's dense search approximate for this user?)"
        )


def _ids(found: list[Candidate]) -> list[str]:
    return [c.record_id for c in found][:5]


def _same_nearest(a: list[Candidate], b: list[Candidate], tolerance: float = 1e-5) -> bool:
    """The same records, but for ties at the cut (equal scores may fall either side)."""
    if len(a) != len(b):
        return False
    ids_a, ids_b = {c.record_id for c in a}, {c.record_id for c in b}
    for found, only in ((a, ids_a - ids_b), (b, ids_b - ids_a)):
        floor = min((c.score for c in found), default=0.0)
        if any(c.score > floor + tolerance for c in found if c.record_id in only):
            return False
    return True


def _same_matches(a: list[Candidate], b: list[Candidate]) -> bool:
    """Every match on both sides when the lists are complete; as many when both are cut."""
    if len(a) < LEXICAL_LIMIT and len(b) < LEXICAL_LIMIT:
        return {c.record_id for c in a} == {c.record_id for c in b}
    return len(a) == len(b)
