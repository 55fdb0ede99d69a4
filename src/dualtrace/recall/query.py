"""The question's analysis under its former name: see `recall/question.py`."""

from __future__ import annotations

from dualtrace.recall.question import QueryAnalysis, Question, analyse

__all__ = ["QueryAnalysis", "Question", "analyse"]
