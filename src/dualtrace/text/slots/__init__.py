"""Slots: the (subject, attribute, qualifier) a fact fills, found in statements and questions
from a bilingual attribute catalogue (see `catalogue.py` and `finder.py`)."""

from dualtrace.text.slots.attribute import Attribute
from dualtrace.text.slots.catalogue import ATTRIBUTES, BY_NAME
from dualtrace.text.slots.clauses import atomic_clauses
from dualtrace.text.slots.finder import (
    ask,
    find_statements,
    is_request,
    same_subject,
    same_value,
    whose,
)
from dualtrace.text.slots.qualifiers import qualifier_of
from dualtrace.text.slots.statement import SlotQuestion, SlotStatement

__all__ = [
    "ATTRIBUTES",
    "BY_NAME",
    "Attribute",
    "SlotQuestion",
    "SlotStatement",
    "ask",
    "atomic_clauses",
    "find_statements",
    "is_request",
    "qualifier_of",
    "same_subject",
    "same_value",
    "whose",
]
