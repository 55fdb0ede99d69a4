"""The slot a stored memory fills: `metadata["slot"]`, as the writer keeps what `find_statements`
found (its attribute, qualifier, and whether it says the value ended or may hold)."""

from __future__ import annotations

from typing import Any

from dualtrace.models import MemoryRecord


def slot_of(record: MemoryRecord) -> dict[str, Any] | None:
    """The slot a memory fills, as the extractor found it, or None."""
    slot = record.metadata.get("slot")
    return slot if isinstance(slot, dict) and slot.get("attribute") else None


def holds_value(record: MemoryRecord) -> bool:
    """Whether a memory states a current value of its slot (not an end, not a maybe); one
    that fills no slot does."""
    slot = slot_of(record)
    return slot is None or not (slot.get("ended") or slot.get("hedged"))
