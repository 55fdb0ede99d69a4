"""An attribute of a person, as the catalogue describes it (see `catalogue.py`)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from dualtrace.text.slots.nouns import noun_frames


@dataclass(frozen=True)
class Attribute:
    """One attribute of a person (see the module docstring)."""

    name: str
    about: re.Pattern[str]
    frames: tuple[re.Pattern[str], ...]
    say: tuple[str, str]  # "{s} lives in {v}." / "{s}住在{v}。"
    ends: tuple[re.Pattern[str], ...] = ()
    many: bool = False
    qualified: bool = False
    planned: bool = False  # its values are plans: an intention states them (a trip)
    asked: bool = True  # whether a question asks it by its words (not one named in passing)
    # its values are other people (the family): a statement of one opens on someone else
    # ("The user's son Alfie …") and is still the user's
    of_others: bool = False
    # what a question for it asks as well: a hobby question asks the sports one does too
    also_asks: tuple[str, ...] = ()
    # words for one who holds a value (医生, 老师): in a question they name that person, and
    # ask the attribute only where the asker is said to be one (`asking.py`)
    holders: re.Pattern[str] | None = None
    # frames that say the held value stopped holding without naming it ("I quit my job",
    # "我辞职了"), how such an end is said among other slots, and the attributes it ends
    # too (a job left ends the role held in it)
    unnamed_ends: tuple[re.Pattern[str], ...] = ()
    say_ended: tuple[str, str] = ("", "")
    ends_too: tuple[str, ...] = ()
    # its values are for one occasion, not who the person is (a budget is what one means to
    # spend on one purchase): the profile leaves them out
    passing: bool = False
    # words that put a statement in its domain but ask nothing in a question ("Kind regards,
    # Dana", 落款写李娜): frames apply where `about` or these match
    said_by: re.Pattern[str] | None = None

    def in_domain(self, clause: str) -> bool:
        """Whether a clause says any of the attribute's words, where its frames may apply."""
        said_by = self.said_by
        return bool(self.about.search(clause) or (said_by and said_by.search(clause)))


def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.I)


def attribute(
    name: str,
    about: str,
    frames: tuple[re.Pattern[str], ...],
    say: tuple[str, str],
    *,
    nouns: tuple[str, str] = ("", ""),
    ends: tuple[re.Pattern[str], ...] = (),
    many: bool = False,
    qualified: bool = False,
    planned: bool = False,
    asked: bool = True,
    of_others: bool = False,
    also_asks: tuple[str, ...] = (),
    holders: str = "",
    unnamed_ends: tuple[re.Pattern[str], ...] = (),
    say_ended: tuple[str, str] = ("", ""),
    ends_too: tuple[str, ...] = (),
    passing: bool = False,
    said_by: str = "",
) -> Attribute:
    frames = frames + noun_frames(*nouns, person=name in ("partner", "manager"))
    return Attribute(
        name,
        _compiled(about),
        frames,
        say,
        ends,
        many,
        qualified,
        planned,
        asked,
        of_others,
        also_asks,
        _compiled(holders) if holders else None,
        unnamed_ends,
        say_ended,
        ends_too,
        passing,
        _compiled(said_by) if said_by else None,
    )
