"""PII redaction applied to every message before it is stored.

`redact` finds e-mail addresses, phone numbers, Chinese resident ID card numbers and bank card
numbers, and (under the default "redact" policy) replaces each with a placeholder such as
`[EMAIL]`. Under "keep" the text is returned unchanged but the kinds found are still reported.

Detectors run in a fixed priority order (e-mail, ID card, bank card, phone); a later detector
never claims characters an earlier one already claimed, so a long digit run is labelled by its
most specific kind. Numeric patterns are fenced with lookarounds instead of `\\b`, because
Python's `\\b` treats CJK characters as word characters and would miss "我的手机是13812345678".
Redaction is idempotent: detection runs to a fixpoint on the redacted text (see `_detect`).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Literal, get_args

from dualtrace.errors import ValidationError

__all__ = ["PiiPolicy", "Redaction", "redact"]

PiiPolicy = Literal["redact", "keep"]
_POLICIES: tuple[str, ...] = get_args(PiiPolicy)

# A number must not be glued to a longer digit/letter run ("A1234567890123" is an order id), nor
# continue a digit run through "-" or "." ("2023-05-08"), nor follow a stray "+". One that opens
# with "+" or "(" carries its own boundary, so it needs no lookbehind. Keeping these rules from
# ever being tripped by the characters of a neighbouring match (every match ends in a letter or
# digit, and the right rule already refuses a digit or letter next) is what lets glued matches
# be found in one pass instead of one extra round each.
_LEFT = r"(?:(?=[+(])|(?<![0-9A-Za-z_+])(?<![0-9][-.]))"
_RIGHT = r"(?![0-9A-Za-z_])(?!(?<=[0-9])[-.][0-9])"

_EMAIL_RE = re.compile(
    # The local part is capped at RFC 5321's 64 chars so a long run without "@" costs linear
    # time; no lookbehind, so a run glued to an earlier match still gets its own match.
    r"[A-Za-z0-9._%+-]{1,64}@"
    r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}(?![A-Za-z0-9-])"
)
_ID_CARD_RE = re.compile(_LEFT + r"[0-9]{17}[0-9Xx]" + _RIGHT)
_BANK_CARD_RE = re.compile(
    _LEFT
    + r"(?:"
    # Grouped by fours with one consistent separator; the group must not run on past the match.
    + r"(?<![0-9][ -])[0-9]{4}(?P<sep>[ -])[0-9]{4}(?:(?P=sep)[0-9]{4}){1,3}"
    + r"(?:(?P=sep)[0-9]{1,3})?(?!(?P=sep)[0-9])"
    + r"|[0-9]{13,19})"
    + _RIGHT
)
_PHONE_RE = re.compile(
    _LEFT
    + r"(?:"
    # Chinese mobile, 3-4-4, with an optional +86 / 86 / 0086 country prefix.
    + r"(?:(?:\+|00)?86[ -]?)?1[3-9][0-9][ -]?[0-9]{4}[ -]?[0-9]{4}"
    # Chinese landline: area code 0xx / 0xxx, then 7-8 digits.
    + r"|(?:\(0[1-9][0-9]{1,2}\)[ -]?|0[1-9][0-9]{1,2}[ -])[0-9]{7,8}"
    # North American: (555) 123-4567, 555-123-4567, 555.123.4567, optional +1 / 1- prefix.
    + r"|(?:\+?1[ .-]?)?(?:\([2-9][0-9]{2}\) ?|[2-9][0-9]{2}[-.])[0-9]{3}[-.][0-9]{4}"
    # International E.164: "+" then 8-15 digits, optionally split by spaces or dashes.
    + r"|\+[1-9](?:[ -]?[0-9]){7,14}"
    + r")"
    + _RIGHT
)
# A bare "86"/"0086" + mobile is a phone number even when it happens to pass Luhn.
_PREFIXED_MOBILE_RE = re.compile(r"(?:00)?861[3-9][0-9]{9}")
_MAY_HOLD_PII_RE = re.compile(r"[0-9@]")

_ID_WEIGHTS = tuple(pow(2, 17 - i, 11) for i in range(17))
_ID_CHECK_CHARS = "10X98765432"


@dataclass(frozen=True)
class Redaction:
    """The outcome of `redact`: the (possibly) rewritten text and the kinds of PII found.

    `found` holds one entry per match, in order of appearance, drawn from
    "email", "phone", "id_card" and "bank_card".
    """

    text: str
    found: tuple[str, ...]


@dataclass(frozen=True)
class _Detector:
    """One kind of PII: its pattern, an extra check on each match, and its placeholder."""

    kind: str
    pattern: re.Pattern[str]
    accept: Callable[[str], bool]

    @property
    def placeholder(self) -> str:
        """The text that replaces a match, e.g. "[BANK_CARD]"."""
        return f"[{self.kind.upper()}]"


def _always(_match: str) -> bool:
    """Accept every match; used where the pattern alone is the whole test."""
    return True


def _plausible_birth_date(yyyymmdd: str) -> bool:
    """Return whether an eight-digit string is a real calendar date in 1900-2099."""
    year, month, day = int(yyyymmdd[:4]), int(yyyymmdd[4:6]), int(yyyymmdd[6:])
    if not 1900 <= year <= 2099:
        return False
    try:
        date(year, month, day)
    except ValueError:
        return False
    return True


def _is_id_card(candidate: str) -> bool:
    """Return whether 18 chars form a resident ID: ISO 7064 MOD 11-2 checksum and a birth date."""
    total = sum(int(c) * w for c, w in zip(candidate[:17], _ID_WEIGHTS, strict=True))
    if _ID_CHECK_CHARS[total % 11] != candidate[17].upper():
        return False
    return _plausible_birth_date(candidate[6:14])


def _luhn_ok(digits: str) -> bool:
    """Return whether a digit string passes the Luhn checksum."""
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char)
        if position % 2 == 1:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def _is_bank_card(candidate: str) -> bool:
    """Return whether a (possibly grouped) candidate is a 13-19 digit Luhn-valid card number."""
    digits = candidate.replace(" ", "").replace("-", "")
    if not 13 <= len(digits) <= 19 or _PREFIXED_MOBILE_RE.fullmatch(digits):
        return False
    return _luhn_ok(digits)


# Priority order: e-mail first (its local part may be all digits), then the checksummed numbers,
# so that phones never claim part of an ID or card number.
_DETECTORS = (
    _Detector("email", _EMAIL_RE, _always),
    _Detector("id_card", _ID_CARD_RE, _is_id_card),
    _Detector("bank_card", _BANK_CARD_RE, _is_bank_card),
    _Detector("phone", _PHONE_RE, _always),
)

# The text being redacted, as a run of pieces: plain text still to scan, or a detector standing
# for a match it already claimed (rendered as that detector's placeholder).
_Piece = str | _Detector
_Span = tuple[int, int]


def _piece_len(piece: _Piece) -> int:
    """Return how many characters a piece takes up in the rendered text."""
    return len(piece) if isinstance(piece, str) else len(piece.placeholder)


def _render(pieces: list[_Piece]) -> str:
    """Join the pieces, writing each claimed match as its placeholder."""
    return "".join(p if isinstance(p, str) else p.placeholder for p in pieces)


def _cut(view: str, piece: _Span, spans: Sequence[_Span], det: _Detector) -> list[_Piece]:
    """Split the plain piece view[start:end] around the matches (sorted spans) inside it."""
    start, end = piece
    out: list[_Piece] = []
    cursor = start
    index = bisect_left(spans, (start, start))
    # No pattern can match across a placeholder, so each span lies wholly inside one piece.
    while index < len(spans) and spans[index][1] <= end:
        m_start, m_end = spans[index]
        if m_start > cursor:
            out.append(view[cursor:m_start])
        out.append(det)
        cursor = m_end
        index += 1
    if cursor < end:
        out.append(view[cursor:end])
    return out


def _claimed(pieces: list[_Piece]) -> int:
    """Return how many matches have been claimed so far."""
    return sum(not isinstance(p, str) for p in pieces)


def _apply(detector: _Detector, pieces: list[_Piece]) -> list[_Piece]:
    """Run one detector over the rendered text and cut each accepted match out as a piece."""
    view = _render(pieces)
    spans = [m.span() for m in detector.pattern.finditer(view) if detector.accept(m.group())]
    if not spans:
        return pieces
    out: list[_Piece] = []
    start = 0
    for piece in pieces:
        end = start + _piece_len(piece)
        out.extend(_cut(view, (start, end), spans, detector) if isinstance(piece, str) else [piece])
        start = end
    return out


def _detect(text: str) -> list[_Piece]:
    """Claim every PII match in `text`, running the detectors in priority order.

    Detectors scan the text as already redacted, and rounds repeat until one finds nothing: a
    match whose lookaround was blocked by a neighbouring match is then found next to its
    placeholder. The result is a fixpoint, which is what makes `redact` idempotent.
    """
    pieces: list[_Piece] = [text]
    while True:
        before = _claimed(pieces)
        for detector in _DETECTORS:
            pieces = _apply(detector, pieces)
        if _claimed(pieces) == before:  # counting claims, so the loop always terminates
            return pieces


def _check_inputs(text: object, policy: object) -> None:
    """Raise ValidationError for a non-string text or an unknown policy."""
    if not isinstance(text, str):
        raise ValidationError(f"redact: text must be a str, got {type(text).__name__}")
    if policy not in _POLICIES:
        allowed = ", ".join(repr(p) for p in _POLICIES)
        raise ValidationError(f"redact: unknown PII policy {policy!r}; use one of {allowed}")


def redact(text: str, policy: PiiPolicy = "redact") -> Redaction:
    """Find PII in `text`; under "redact" replace each match with a placeholder.

    Under "keep" the text comes back unchanged, but `found` still lists the kinds detected.
    Raises ValidationError for any other policy.
    """
    _check_inputs(text, policy)
    if not _MAY_HOLD_PII_RE.search(text):  # every detector needs a digit or an "@"
        return Redaction(text, ())
    pieces = _detect(text)
    found = tuple(p.kind for p in pieces if not isinstance(p, str))
    if policy == "keep" or not found:
        return Redaction(text, found)
    return Redaction(_render(pieces), found)
