"""Checks shared by the settings of every LLM caller (extractor, consolidation judge)."""

from __future__ import annotations

from collections.abc import Mapping

from dualtrace.errors import ConfigError
from dualtrace.inputs import is_count


def check_call_settings(
    owner: str, counts: Mapping[str, tuple[object, int]], temperature: object, purpose: str
) -> None:
    """Raise ConfigError unless each count is a positive integer and the temperature a number
    in 0..2. `counts` maps a setting's name to (its value, an example value); `purpose` ends
    the temperature advice ("for repeatable extraction")."""
    for name, (value, example) in counts.items():
        if not is_count(value):
            raise ConfigError(
                f"{owner}.{name} is {value!r} but must be a positive integer; "
                f"set {name}= to e.g. {example}"
            )
    if (
        isinstance(temperature, bool)
        or not isinstance(temperature, int | float)
        or not 0 <= temperature <= 2
    ):
        raise ConfigError(
            f"{owner}.temperature is {temperature!r} but must be a number in "
            f"0..2; set temperature= to 0.0 {purpose}"
        )
