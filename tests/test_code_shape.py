"""The shape the house keeps (docs/architecture.md): small modules and short functions, in
the formatter's own layout (`make test` runs `ruff format --check`)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "dualtrace"
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 60


def _modules() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def test_no_module_is_over_the_limit() -> None:
    long = {
        str(p.relative_to(SRC)): n
        for p in _modules()
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}, f"split these modules (limit {MAX_MODULE_LINES} lines): {long}"


def test_no_function_is_over_the_limit() -> None:
    long: dict[str, int] = {}
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long[f"{path.relative_to(SRC)}:{node.name}"] = lines
    assert long == {}, f"split these functions (limit {MAX_FUNCTION_LINES} lines): {long}"


def test_the_formatter_is_not_silenced() -> None:
    # A size cap met by `# fmt: skip` is not met: the limits above hold in ruff's layout.
    marks = {
        str(p.relative_to(SRC)): n
        for p in _modules()
        if (n := len(re.findall(r"#\s*fmt:\s*(?:skip|off)", p.read_text(encoding="utf-8"))))
    }
    assert marks == {}, f"format these modules instead of skipping the formatter: {marks}"
