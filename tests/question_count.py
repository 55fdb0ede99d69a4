"""Counting the `Question`s a read builds (the question is read once; each event it compares
once more)."""

from __future__ import annotations

from typing import Any

import pytest

from dualtrace.recall.question import Question


def count_questions(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The text of every `Question` built from now on."""
    built: list[str] = []
    init = Question.__init__

    def counted(self: Question, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        built.append(self.text)

    monkeypatch.setattr(Question, "__init__", counted)
    return built
