"""The one gate every write path passes: `add`, session turns, `update` and imports.

What a caller hands in is checked first (a ValidationError that names the value and the
fix, before anything is stored), then PII is redacted from every text that will be stored
and searched: the message or memory text, the speaker's name, the scene and triple of an
imported memory, and the string values of metadata. Keeping both steps in one place is what
stops a new write path from storing an e-mail address the others would have redacted.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from dualtrace.config import MemoryConfig
from dualtrace.encode import pii
from dualtrace.encode.messages import normalise_messages
from dualtrace.inputs import MAX_MEMORY_CHARS, check_metadata, check_text
from dualtrace.models import Message

# Fields of an imported memory that hold words someone said (the rest are labels or numbers).
MEMORY_TEXTS = ("text", "scene", "subject", "object", "topic")


class Intake:
    """Checks and redacts what is about to be stored, under one config's limits and policy."""

    def __init__(self, config: MemoryConfig) -> None:
        self.config = config

    def messages(self, messages: object, *, default_time: datetime) -> list[Message]:
        """Validated messages with PII redacted from content, speaker name and metadata."""
        msgs = normalise_messages(
            messages, default_time=default_time, max_chars=self.config.max_message_chars
        )
        return [
            replace(
                m,
                content=self.redact(m.content),
                name=None if m.name is None else self.redact(m.name),
                metadata=self.redact_values(m.metadata),
            )
            for m in msgs
        ]

    def text(self, value: object, *, field: str) -> str:
        """A checked text (non-empty, within the size limit), PII redacted."""
        return self.redact(check_text(value, field=field, max_chars=self.config.max_message_chars))

    def memory_text(self, value: object, *, field: str) -> str:
        """A memory's text: a fact or a scene is a sentence or a paragraph, never a document
        (a message may be one; a memory of 1 MB is a mistake or an abuse)."""
        limit = min(self.config.max_message_chars, MAX_MEMORY_CHARS)
        return self.redact(check_text(value, field=field, max_chars=limit))

    def metadata(self, value: object, *, field: str) -> dict[str, Any]:
        """Checked metadata (a JSON object, within the size limit), string values redacted."""
        checked = check_metadata(value, field, self.config.max_message_chars)
        return {key: self.redact_values(inner) for key, inner in checked.items()}

    def memory_fields(self, record: dict[str, Any], where: str) -> dict[str, Any]:
        """An imported memory's text fields checked and redacted (the caller checks the rest).

        `text` is required; `scene`, `subject`, `object` and `topic` may be None.
        """
        text = self.memory_text(record.get("text"), field=f"{where}.text")
        fields: dict[str, Any] = {"text": text}
        for name in MEMORY_TEXTS[1:]:
            if record.get(name) is not None:
                fields[name] = self.memory_text(record[name], field=f"{where}.{name}")
        fields["metadata"] = self.metadata(record.get("metadata"), field=f"{where}.metadata")
        return fields

    def redact(self, text: str) -> str:
        return pii.redact(text, self.config.pii).text

    def redact_values(self, value: Any) -> Any:
        """`value` with every string inside it redacted (dict keys are names, kept as given)."""
        if isinstance(value, str):
            return self.redact(value)
        if isinstance(value, dict):
            return {k: self.redact_values(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.redact_values(v) for v in value]
        return value
