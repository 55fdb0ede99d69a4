"""The city a neighbourhood or district lies in: "finally unpacked in leith" says where in
Edinburgh one lives, and "搬到望京了" where in 北京, though neither names the city.

The table (`data/districts.tsv`, one `name<TAB>city` a line) holds well-known districts of
big cities whose names point to one city only: a name that is also a town of its own
("richmond", "victoria") or a district of several cities ("鼓楼", "高新区") is left out, as a
wrong city is worse than none. Latin-script names are casefolded; each city is written in
its name's script ("中野": 东京).

    >>> city_of("Leith")
    'Edinburgh'
    >>> city_of("深圳南山") is None  # the value already names its city
    True
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

DISTRICTS_FILE = "districts.tsv"


@lru_cache(maxsize=1)
def _table() -> dict[str, str]:
    text = resources.files("dualtrace").joinpath("data", DISTRICTS_FILE).read_text("utf-8")
    rows = (line.split("\t") for line in text.splitlines() if line.strip())
    return {name: city for name, city in rows}


def _key(place: str) -> str:
    return " ".join(place.casefold().split())


def city_of(place: str) -> str | None:
    """The city the district `place` lies in, or None: not a known district, or a value that
    names its city already."""
    key = _key(place)
    city = _table().get(key)
    if city is None or _key(city) in key:
        return None
    return city


def lies_in(district: str, place: str) -> bool:
    """Whether `place` names the city the district `district` lies in: "深圳" said after
    "住西乡" says no move, only less.

    >>> lies_in("Leith", "edinburgh"), lies_in("Leith", "Glasgow")
    (True, False)
    """
    city = city_of(district)
    return city is not None and _key(city) == _key(place)


@lru_cache(maxsize=1)
def names() -> frozenset[str]:
    """The districts the table knows, as keyed there (Latin-script names casefolded)."""
    return frozenset(_table())


@lru_cache(maxsize=1)
def cities() -> frozenset[str]:
    """The cities the table's districts lie in, as written there ("北京", "London")."""
    return frozenset(_table().values())
