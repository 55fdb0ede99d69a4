"""The Chinese cases of scenario files, as written or in Traditional characters.

Writes one JSONL of every `"lang": "zh"` case of the given files: with `--traditional`, each
turn, question, user name and expected value converted to Traditional characters (OpenCC's
`s2tw`, Taiwan's standard forms, character by character with the phrases OpenCC knows; the
vocabulary is the Simplified writer's), otherwise as written. Running both through
`dualtrace bench scenarios` measures what a user typing Traditional gets against the same
conversations typed in Simplified.

    .venv/bin/python bench/traditional_twins.py --traditional \
        src/dualtrace/bench/cases/scenarios_fresh9.jsonl > tw.jsonl
    dualtrace bench scenarios --cases tw.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import opencc

# fields that name no text a person typed
_KEPT = frozenset({"id", "lang", "now", "date", "role", "kind"})


def converted(value: Any, convert: opencc.OpenCC) -> Any:
    """`value` with every string in it converted, but those of `_KEPT` fields."""
    if isinstance(value, str):
        return convert.convert(value)
    if isinstance(value, list):
        return [converted(v, convert) for v in value]
    if isinstance(value, dict):
        return {k: v if k in _KEPT else converted(v, convert) for k, v in value.items()}
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="+", type=Path, help="scenario JSONL files")
    parser.add_argument("--traditional", action="store_true", help="convert to Traditional")
    args = parser.parse_args(argv)
    convert = opencc.OpenCC("s2tw.json")
    for path in args.cases:
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            case = json.loads(line)
            if case.get("lang") != "zh":
                continue
            if args.traditional:
                case = converted(case, convert)
            sys.stdout.write(json.dumps(case, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
