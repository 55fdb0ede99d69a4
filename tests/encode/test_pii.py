"""Tests for dualtrace.encode.pii: examples per kind, negatives, policies and properties."""

from __future__ import annotations

import dataclasses
import string
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dualtrace.encode.pii import Redaction, redact
from dualtrace.errors import ValidationError

# Checksums are recomputed here, independently of the module, so the tests check the maths too.
_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)


def luhn_check_digit(body: str) -> str:
    """Return the digit that makes `body + digit` pass the Luhn check."""
    total = 0
    for position, char in enumerate(reversed(body)):
        value = int(char)
        if position % 2 == 0:  # these get doubled once the check digit is appended
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return str(-total % 10)


def id_card(body17: str) -> str:
    """Append the ISO 7064 MOD 11-2 check character to 17 digits."""
    total = sum(int(c) * w for c, w in zip(body17, _ID_WEIGHTS, strict=True))
    return body17 + "10X98765432"[total % 11]


def flip_last_digit(number: str) -> str:
    """Change the final digit so that a valid checksum becomes invalid."""
    return number[:-1] + str((int(number[-1]) + 1) % 10)


def test_helpers_agree_with_published_examples() -> None:
    assert luhn_check_digit("411111111111111") == "1"  # the classic Visa test number
    assert id_card("11010519491231002") == "11010519491231002X"  # the GB 11643 example


# ---------------------------------------------------------------- e-mail


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Write to alice@example.com please.", "Write to [EMAIL] please."),
        ("alice.smith+news@mail.example.co.uk", "[EMAIL]"),
        ("first_last-1@sub.domain.org.", "[EMAIL]."),
        ("我的邮箱是zhang.san@163.com，谢谢", "我的邮箱是[EMAIL]，谢谢"),
        ("联系13812345678@qq.com即可", "联系[EMAIL]即可"),
    ],
)
def test_email_is_redacted(text: str, expected: str) -> None:
    result = redact(text)
    assert result.text == expected
    assert result.found == ("email",)


# ---------------------------------------------------------------- phone


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("我的手机是13812345678", "我的手机是[PHONE]"),
        ("手机：138 1234 5678。", "手机：[PHONE]。"),
        ("手机138-1234-5678，随时联系", "手机[PHONE]，随时联系"),
        ("+8613912345678", "[PHONE]"),
        ("+86 139-1234-5678", "[PHONE]"),
        ("call 0086 15012345678 now", "call [PHONE] now"),
        ("8618612345678", "[PHONE]"),
        ("办公室电话010-12345678", "办公室电话[PHONE]"),
        ("杭州0571-8888888转人工", "杭州[PHONE]转人工"),
        ("Call (555) 123-4567 today", "Call [PHONE] today"),
        ("Call 555-123-4567.", "Call [PHONE]."),
        ("or 555.123.4567", "or [PHONE]"),
        ("US: +1 (555) 123-4567", "US: [PHONE]"),
        ("London +44 20 7946 0958", "London [PHONE]"),
        ("Berlin +4930123456", "Berlin [PHONE]"),
    ],
)
def test_phone_is_redacted(text: str, expected: str) -> None:
    result = redact(text)
    assert result.text == expected
    assert result.found == ("phone",)


def test_two_phones_in_a_row_are_both_redacted() -> None:
    result = redact("call 13812345678 or 13912345678")
    assert result.text == "call [PHONE] or [PHONE]"
    assert result.found == ("phone", "phone")


# ---------------------------------------------------------------- ID card


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("身份证号11010519491231002X，请核对", "身份证号[ID_CARD]，请核对"),
        ("ID 11010519491231002x", "ID [ID_CARD]"),
        ("my id is 440304198512011230.", "my id is [ID_CARD]."),
        ("证件：310115200002294567", "证件：[ID_CARD]"),  # 29 Feb 2000 is a real date
    ],
)
def test_id_card_is_redacted(text: str, expected: str) -> None:
    result = redact(text)
    assert result.text == expected
    assert result.found == ("id_card",)


# ---------------------------------------------------------------- bank card


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("card 4111111111111111 expires", "card [BANK_CARD] expires"),
        ("card 4111-1111-1111-1111", "card [BANK_CARD]"),
        ("卡号6222 0212 3456 7890 128，开户行工商银行", "卡号[BANK_CARD]，开户行工商银行"),
        ("卡号6222021234567890128", "卡号[BANK_CARD]"),
        ("储蓄卡6217000000000000004。", "储蓄卡[BANK_CARD]。"),
        ("卡号是6222021234567894的那张", "卡号是[BANK_CARD]的那张"),
    ],
)
def test_bank_card_is_redacted(text: str, expected: str) -> None:
    result = redact(text)
    assert result.text == expected
    assert result.found == ("bank_card",)


# ---------------------------------------------------------------- mixtures and order


def test_found_lists_kinds_in_order_of_appearance() -> None:
    text = "邮箱a@b.com，电话13812345678，卡号4111111111111111，身份证11010519491231002X"
    result = redact(text)
    assert result.found == ("email", "phone", "bank_card", "id_card")
    assert result.text == "邮箱[EMAIL]，电话[PHONE]，卡号[BANK_CARD]，身份证[ID_CARD]"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("alice+x@mail.example.com(555) 123-4567", "[EMAIL][PHONE]"),
        ("+8613812345678+8613912345678", "[PHONE][PHONE]"),
        ("11010519491231002X-13812345678", "[ID_CARD]-[PHONE]"),
        ("11010519491231002X+8613812345678", "[ID_CARD][PHONE]"),
        ("4111111111111111 4111 1111 1111 1111", "[BANK_CARD] [BANK_CARD]"),
        ("4111 1111 1111 1111 13812345678", "[BANK_CARD] [PHONE]"),
    ],
)
def test_matches_glued_to_each_other_are_all_redacted(text: str, expected: str) -> None:
    assert redact(text).text == expected


def test_long_chain_of_glued_numbers_is_fully_redacted() -> None:
    result = redact("+8613812345678" * 2000)
    assert result.text == "[PHONE]" * 2000
    assert len(result.found) == 2000


# ---------------------------------------------------------------- negatives


@pytest.mark.parametrize(
    "text",
    [
        "In 2023 we moved.",
        "2023年我们搬家了",
        "房价300000元",
        "预算30万",
        "会议在2023-05-08 14:30开始",
        "meeting on 2023.05.08 at 14:30",
        "room 1203, floor 12, 42 people",
        "version 1.13.8 released",
        "server 192.168.100.1",
        "order id A1234567890123",
        "订单号A1234567890123",
        "batch 12345678901234567890",  # a 20-digit run is no card
        "ref 41111111111111110000",  # valid 16-digit prefix, but part of a 20-digit run
        "card 4111111111111112",  # fails Luhn
        "卡号6222021234567890127",  # fails Luhn
        "身份证11010519491231002Y",  # not a check character
        "身份证110105194912310021",  # wrong ID checksum (and fails Luhn)
        "hash 4111111111111111abc",  # glued to letters
        "x_13812345678",  # part of an identifier
        "2023-13812345678",  # tail of a dashed number
        "12345678",
        "just a sentence with no numbers at all",
        "",
    ],
)
def test_non_pii_is_left_alone(text: str) -> None:
    assert redact(text) == Redaction(text, ())


def test_id_card_with_valid_checksum_but_impossible_birth_date_is_not_an_id() -> None:
    for body in ("11010518991231001", "11010519901301001", "11010519900230001"):
        candidate = id_card(body)  # year 1899, month 13, 30 February
        assert "id_card" not in redact(f"身份证{candidate}").found


def test_invalid_id_checksum_is_not_an_id_card() -> None:
    wrong = flip_last_digit(id_card("44030419851201123"))
    assert "id_card" not in redact(f"证件{wrong}").found


# ---------------------------------------------------------------- policies


def test_keep_policy_leaves_text_but_reports_kinds() -> None:
    text = "电话13812345678，邮箱bob@example.org"
    result = redact(text, policy="keep")
    assert result.text == text
    assert result.found == ("phone", "email")


def test_default_policy_is_redact() -> None:
    assert redact("bob@example.org") == redact("bob@example.org", "redact")
    assert redact("bob@example.org").text == "[EMAIL]"


@pytest.mark.parametrize("policy", ["mask", "", "REDACT", None, 1])
def test_bad_policy_raises_validation_error(policy: object) -> None:
    with pytest.raises(ValidationError) as info:
        redact("bob@example.org", policy)  # type: ignore[arg-type]
    message = str(info.value)
    assert repr(policy) in message
    assert "'redact'" in message
    assert "'keep'" in message
    assert isinstance(info.value, ValueError)


def test_redaction_is_frozen() -> None:
    result = redact("bob@example.org")
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.text = "x"  # type: ignore[misc]


# ---------------------------------------------------------------- properties

_CJK = st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF)
_LETTERS = st.one_of(st.sampled_from(string.ascii_letters), _CJK)
_WORDS = st.text(alphabet=_LETTERS, max_size=12)
_SEPARATORS = st.one_of(st.just(" "), _CJK)

_luhn_cards = st.text(alphabet=string.digits, min_size=15, max_size=15).map(
    lambda body: body + luhn_check_digit(body)
)
_id_cards = st.builds(
    lambda region, born, seq: id_card(f"{region}{born:%Y%m%d}{seq}"),
    st.text(alphabet=string.digits, min_size=6, max_size=6),
    st.dates(min_value=date(1900, 1, 1), max_value=date(2099, 12, 31)),
    st.text(alphabet=string.digits, min_size=3, max_size=3),
)
_PII_SAMPLES = st.sampled_from(
    [
        "alice+x@mail.example.com",
        "13812345678",
        "+86 138 1234 5678",
        "010-12345678",
        "(555) 123-4567",
        "555.123.4567",
        "+44 20 7946 0958",
        "4111 1111 1111 1111",
        "11010519491231002X",
    ]
)
# Fragments chosen to sit next to PII and tempt the lookarounds: digits, separators, letters.
_NOISE = st.text(alphabet="0123456789 -.+@()_xX中。", max_size=8)
_MESSY_TEXT = st.lists(
    st.one_of(_PII_SAMPLES, _luhn_cards, _id_cards, _NOISE, _WORDS), max_size=8
).map("".join)


@given(_MESSY_TEXT)
def test_redact_is_idempotent(text: str) -> None:
    once = redact(text).text
    again = redact(once)
    assert again.text == once
    assert again.found == ()


@given(st.text(alphabet=st.characters(blacklist_characters="0123456789@")))
def test_text_without_digits_or_at_sign_is_unchanged(text: str) -> None:
    assert redact(text) == Redaction(text, ())


@given(_WORDS, _SEPARATORS, _luhn_cards, _SEPARATORS, _WORDS)
def test_valid_luhn_card_in_context_is_always_removed(
    before: str, sep1: str, card: str, sep2: str, after: str
) -> None:
    text = f"{before}{sep1}{card}{sep2}{after}"
    result = redact(text)
    assert card not in result.text
    assert result.text == f"{before}{sep1}[BANK_CARD]{sep2}{after}"
    assert result.found == ("bank_card",)


@given(_WORDS, _SEPARATORS, _id_cards, _SEPARATORS, _WORDS)
def test_valid_id_card_in_context_is_always_removed(
    before: str, sep1: str, card: str, sep2: str, after: str
) -> None:
    text = f"{before}{sep1}{card}{sep2}{after}"
    result = redact(text)
    assert card not in result.text
    assert result.text == f"{before}{sep1}[ID_CARD]{sep2}{after}"
    assert result.found == ("id_card",)
