"""The case files' one format: JSON lines, each read with where it stands in the file."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from dualtrace.errors import ValidationError


def records(path: Path) -> Iterator[tuple[str, Any]]:
    """(`"file:line"`, the line's JSON value) for each non-blank line of `path`; a line that
    is not JSON is a ValidationError naming it."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            yield where, json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValidationError(f"{where}: not JSON ({exc})") from exc
