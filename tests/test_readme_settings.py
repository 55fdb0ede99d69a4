"""The README's settings tables are the ones config.py declares, and name no removed setting."""

from __future__ import annotations

import re
from pathlib import Path

from dualtrace.config import REMOVED, MemoryConfig, ServiceConfig, settings_markdown

README = Path(__file__).resolve().parents[1] / "README.md"
START = "<!-- generated from src/dualtrace/config.py"
END = "<!-- end of generated settings -->"


def generated_block(text: str) -> str:
    """What the README holds between the markers (without them)."""
    start = text.index(START)
    return text[text.index("\n", start) + 1 : text.index(END, start)]


def test_readme_settings_tables_match_config() -> None:
    readme = README.read_text(encoding="utf-8")
    assert generated_block(readme) == settings_markdown(), (
        "README.md's settings tables differ from src/dualtrace/config.py; replace the lines "
        "between the markers with the output of "
        "`python -c 'from dualtrace.config import settings_markdown as m; print(m(), end=\"\")'`"
    )


def test_every_setting_has_a_row_and_no_removed_one_is_named() -> None:
    readme = README.read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \|", generated_block(readme), flags=re.MULTILINE)
    assert rows == [*MemoryConfig.setting_names(), *ServiceConfig.setting_names()]
    section = readme[readme.index("## Settings\n") : readme.index(END)]
    for name in REMOVED:
        assert not re.search(rf"`{name}\b", section), name
