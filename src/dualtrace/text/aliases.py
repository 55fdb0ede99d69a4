"""Joining a user's entities that name the same thing: NYC / New York City, Mel / Melanie, 纽约.

One AliasIndex per user. Rules, tried in order: the same normalised name; a built-in alias
set; an acronym of a multiword name (not people); a 3+ letter prefix of exactly one known
person's name. The canonical form of a group is its longest name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from dualtrace.errors import ValidationError
from dualtrace.models import EntityMention
from dualtrace.text import gazetteer as gz
from dualtrace.text.entities import ENTITY_TYPES

_ALIAS_SET_OF = {norm: index for index, names in enumerate(gz.ALIAS_SETS) for norm in names}


def _initials(norm: str) -> str:
    """The acronym of a multiword name ("new york city" -> "nyc"), "" for a single word."""
    words = [word for word in norm.split() if word not in gz.INITIALS_SKIP]
    return "".join(word[0] for word in words) if len(words) > 1 else ""


_ACRONYM = re.compile(r"[A-Z][A-Z&]{1,7}")


def _is_acronym(name: str) -> bool:
    """Whether a name is written as an acronym ("NYC", "MIT", "AT&T")."""
    return _ACRONYM.fullmatch(name.strip()) is not None


def _unique(group_ids: set[int]) -> int | None:
    """The one group id in the set, or None when there is none or the match is ambiguous."""
    return next(iter(group_ids)) if len(group_ids) == 1 else None


@dataclass
class _Group:
    """One entity as a user refers to it: every distinct mention, and the canonical one."""

    members: list[EntityMention]
    canonical: EntityMention

    def absorb(self, mention: EntityMention) -> None:
        """Add a mention; the longest name becomes canonical, keeping a specific type."""
        if all(member.norm != mention.norm for member in self.members):
            self.members.append(mention)
        longest = max(self.members, key=lambda member: len(member.name))  # first on ties
        kind = longest.type
        if kind == "other":  # a vaguer reading must not erase what another mention knew
            kind = next((m.type for m in self.members if m.type != "other"), "other")
        self.canonical = EntityMention(name=longest.name, norm=longest.norm, type=kind)


class AliasIndex:
    """One user's entities: maps every alias a user writes onto one canonical mention.

    Joining rules, tried in this order (each deterministic):

    1. the same norm is the same entity;
    2. names in one built-in alias set (nyc / new york / new york city / 纽约, uk / britain…);
    3. an acronym and the multiword name it abbreviates ("MIT" and "Massachusetts Institute of
       Technology"), in either order, when exactly one known entity fits;
    4. a person whose single-word name is a prefix (3+ characters) of exactly one known
       person's first name ("Mel" -> "Melanie"), or the reverse when the short one came first.

    The canonical mention of a group is its longest name. Groups are never merged after the
    fact: a mention joins at most one group, the earliest that matches.

    Example:
        >>> index = AliasIndex([EntityMention("Melanie", "melanie", "person")])
        >>> index.add(EntityMention("Mel", "mel", "person")).name
        'Melanie'
    """

    def __init__(self, known: Iterable[EntityMention] = ()) -> None:
        self._groups: list[_Group] = []
        self._by_norm: dict[str, int] = {}
        self._names: dict[str, str] = {}  # norm -> the name first written for it
        for mention in known:
            self.add(mention)

    def __len__(self) -> int:
        """The number of distinct entities."""
        return len(self._groups)

    def add(self, mention: EntityMention) -> EntityMention:
        """Remember a mention and return the canonical mention of the entity it names."""
        _check(mention)
        group_id = self._match(mention)
        if group_id is None:
            group_id = len(self._groups)
            self._groups.append(_Group(members=[mention], canonical=mention))
        else:
            self._groups[group_id].absorb(mention)
        self._by_norm.setdefault(mention.norm, group_id)
        self._names.setdefault(mention.norm, mention.name)
        return self._groups[group_id].canonical

    def canonical(self, mention: EntityMention) -> EntityMention:
        """The canonical mention for `mention` (itself if it names nothing known); no change."""
        group_id = self._match(mention)
        return mention if group_id is None else self._groups[group_id].canonical

    def aliases(self, mention: EntityMention) -> tuple[str, ...]:
        """The norms known for the entity `mention` names, first seen first (() if unknown)."""
        group_id = self._match(mention)
        if group_id is None:
            return ()
        return tuple(member.norm for member in self._groups[group_id].members)

    def entities(self) -> list[EntityMention]:
        """The canonical mention of every known entity, in order of first sighting."""
        return [group.canonical for group in self._groups]

    def _match(self, mention: EntityMention) -> int | None:
        """The group `mention` belongs to under the joining rules, or None."""
        if mention.norm in self._by_norm:
            return self._by_norm[mention.norm]
        for rule in (self._by_alias_table, self._by_acronym, self._by_name_prefix):
            group_id = rule(mention)
            if group_id is not None:
                return group_id
        return None

    def _by_alias_table(self, mention: EntityMention) -> int | None:
        """The earliest group holding a name from the mention's built-in alias set."""
        index = _ALIAS_SET_OF.get(mention.norm)
        if index is None:
            return None
        hits = [self._by_norm[norm] for norm in gz.ALIAS_SETS[index] if norm in self._by_norm]
        return min(hits) if hits else None

    def _by_acronym(self, mention: EntityMention) -> int | None:
        """The one non-person group whose acronym / long form this mention is."""
        if mention.type == "person":
            return None
        hits: set[int] = set()
        if _is_acronym(mention.name):
            hits = {gid for norm, gid in self._by_norm.items() if _initials(norm) == mention.norm}
        elif initials := _initials(mention.norm):
            known = self._by_norm.get(initials)
            if known is not None and _is_acronym(self._names[initials]):
                hits = {known}
        return _unique({gid for gid in hits if self._groups[gid].canonical.type != "person"})

    def _by_name_prefix(self, mention: EntityMention) -> int | None:
        """The one person group this person's short (or full) first name points to."""
        if mention.type != "person":
            return None
        words = mention.norm.split()

        def points_to(known: list[str]) -> bool:
            if len(words) == 1 and len(words[0]) >= 3 and known[0].startswith(words[0]):
                return True  # "mel" -> "melanie (smith)"
            return len(known) == 1 and len(known[0]) >= 3 and words[0].startswith(known[0])

        return _unique(
            {
                gid
                for gid, group in enumerate(self._groups)
                if group.canonical.type == "person" and points_to(group.canonical.norm.split())
            }
        )


def _check(mention: EntityMention) -> None:
    """Refuse a mention the index could not key or type."""
    if not mention.norm:
        fix = "build it with normalise_name(name); skip names that normalise to nothing"
        raise ValidationError(f"entity mention {mention.name!r} has an empty norm; {fix}")
    if mention.type not in ENTITY_TYPES:
        fix = f"use one of {', '.join(ENTITY_TYPES)}"
        raise ValidationError(f"entity mention {mention.name!r} has type {mention.type!r}; {fix}")
