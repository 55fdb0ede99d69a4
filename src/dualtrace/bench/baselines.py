"""The methods a benchmark run compares, on the same data in the same run.

- full history: every turn in the prompt (evidence recall 1.0 by construction; its cost is
  the token count).
- bm25 / dense / hybrid turns: the foundation's search over bare turns (a store ingested with
  extract=False), lexical only, dense only, and the default weighted mix.
- dualtrace: the default configuration, with derived memories (extract=True).
- ablations (`ablate=True`): dualtrace with a trace, a channel or a boost switched off.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

from dualtrace.bench.dataset import Unit
from dualtrace.config import MemoryConfig

StoreKind = Literal["turns", "dualtrace"]
FULL_HISTORY = "full history"
BOOSTS = ("recency", "importance")


@dataclass(frozen=True)
class Method:
    """A named way to answer: which store it reads (None: no store) and its config changes."""

    name: str
    store: StoreKind | None
    overrides: Mapping[str, object] = field(default_factory=dict)
    description: str = ""
    ablation: bool = False

    def config(self, base: MemoryConfig) -> MemoryConfig:
        """The MemoryConfig this method reads with; turn stores never extract."""
        changes = dict(self.overrides)
        if self.store == "turns":
            changes["extract"] = False
        return replace(base, **changes)  # type: ignore[arg-type]


def boost_fields(config: MemoryConfig | None = None) -> dict[str, list[str]]:
    """MemoryConfig's float settings named like `recency_weight` / `importance_boost`, by boost."""
    config = config or MemoryConfig()
    found: dict[str, list[str]] = {}
    for name, value in config.settings().items():
        if not isinstance(value, float) or not name.endswith(("_weight", "_boost")):
            continue
        for boost in BOOSTS:
            if boost in name:
                found.setdefault(boost, []).append(name)
    return found


def methods(*, ablate: bool = False) -> list[Method]:
    """The baselines and dualtrace, plus the ablation variants when `ablate` is set."""
    out = [
        Method(FULL_HISTORY, None, description="every turn of the history, no retrieval"),
        Method("bm25 turns", "turns", {"dense_weight": 0.0}, "lexical search over turns"),
        Method("dense turns", "turns", {"dense_weight": 1.0}, "dense search over turns"),
        Method("hybrid turns", "turns", {}, "default weighted hybrid search over turns"),
        Method("dualtrace", "dualtrace", {}, "default config, derived memories (extract=True)"),
    ]
    if not ablate:
        return out
    out += [
        Method(
            "dualtrace: episodes only",
            "dualtrace",
            {"search_traces": ("episode",)},
            "search episode keys only",
            ablation=True,
        ),
        Method(
            "dualtrace: episode+fact",
            "dualtrace",
            {"search_traces": ("episode", "fact")},
            "no scene traces",
            ablation=True,
        ),
        Method(
            "dualtrace: no entity channel",
            "dualtrace",
            {"entity_weight": 0.0},
            "entity_weight=0",
            ablation=True,
        ),
    ]
    for boost, names in boost_fields().items():
        out.append(
            Method(
                f"dualtrace: no {boost} boost",
                "dualtrace",
                dict.fromkeys(names, 0.0),
                ", ".join(f"{n}=0" for n in names),
                ablation=True,
            )
        )
    return out


def full_history_text(unit: Unit) -> str:
    """The whole history as a prompt would hold it: one "[date] speaker: text" line a turn."""
    lines: list[str] = []
    for session in unit.sessions:
        when = session.when.strftime("%Y-%m-%d %a %H:%M")
        lines.extend(f"[{when}] {t.speaker or t.role}: {t.text}" for t in session.turns)
    return "\n".join(lines)
