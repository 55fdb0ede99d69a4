"""Whether a sentence is about what will happen: tense cues in English and Chinese.

`dates` resolves a bare weekday, 周末 or 月底 forwards where the text looks ahead ("my new job
starts Monday", "周五要交报告") and as before everywhere else. Text looks ahead when it has a
future or scheduled cue and no past cue:

- future: will, 'll, shall, won't, going to, gonna, about to, a condition (if, unless: "if
  I say yes I move in January"), start(s), begin(s), due, scheduled, plan(s), upcoming,
  coming, can't wait, looking forward, next week/month/year, a progressive of a plan verb
  ("we're flying out Saturday", "what are you doing Friday");
  要, 会, 将 (not in 重要, 会议, 将近 ...), 打算, 准备, 计划, 开始, 就要, 即将, 马上, 期待,
  下周, 下个月, 如果, 要是, 假如, 万一.
- past: was, were, went, did, had, last, ago, yesterday, since, already, used to, common
  past forms ("saw", "met", a verb in -ed but not an adjective such as "excited"); 了 (not in
  了解, 为了 ...), 过 (not in 不过, 过年, 过来 ...), 上周, 上个月, 昨天, 去年, 已经, 刚才. A 了 that
  ends a clause holding 要, 会 or 将 is the "about to" 了 (周五就要考试了), not a past.

The clause around a time expression decides (clauses end at commas, semicolons and
conjunctions such as "and", "but", 但是); a clause with no cue of either kind takes those of
its whole sentence. So "I went to the gym on Monday and will go again Friday" reads Monday as
past and Friday as future, and "I'm seeing Mom and Dad on Sunday" reads Sunday as future.
"""

from __future__ import annotations

import re

from dualtrace.text.script import simplified

__all__ = ["looks_ahead", "looks_ahead_at"]

_L, _R = r"(?<![A-Za-z])", r"(?![A-Za-z'’])"
_PLAN_VERBS = (
    "leaving|flying|heading|moving|meeting|visiting|travell?ing|hosting|attending|having|"
    "throwing|taking|getting|seeing|starting|coming|returning|driving|going\\s+[a-z]+ing"
)
_EN_FUTURE = re.compile(
    rf"{_L}(?:will|won['’]?t|shall|going\s+to|gonna|about\s+to|if|unless|starts?|starting|begins?|"
    rf"beginning|due(?!\s+to{_R})|scheduled|plans?|planning|upcoming|coming|"
    rf"can['’]?t\s+wait|can\s*not\s+wait|look(?:ing)?\s+forward|next\s+(?:week|month|year)|"
    rf"(?:am|is|are)\s+(?:[a-z]+ly\s+)?(?:{_PLAN_VERBS})|"
    rf"(?:am|are|is)\s+(?:i|we|you|he|she|they)\s+[a-z]+ing){_R}"
    rf"|(?<=[A-Za-z])['’](?:ll|(?:m|re|s)\s+(?:[a-z]+ly\s+)?(?:{_PLAN_VERBS})){_R}",
    re.IGNORECASE | re.ASCII,
)
_EN_PAST = re.compile(
    rf"{_L}(?:was|wasn['’]?t|were|weren['’]?t|went|did|didn['’]?t|had|hadn['’]?t|last|ago|"
    rf"yesterday|since|already|used\s+to|earlier|got|came|saw|met|made|took|left|told|said|"
    rf"found|bought|spent|gave|ate|ran|sat|felt|thought|brought|caught|taught|won|lost|kept|"
    rf"heard|wrote|drove|rode|flew|swam|sang|began|knew|grew|threw|wore|broke|chose|forgot|"
    rf"slept|paid|sent|built|held|fell|woke|became|stood|understood){_R}",
    re.IGNORECASE | re.ASCII,
)
_EN_WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)*")
# Words in -ed that are no past: adjectives, and a booking or plan made for a later day.
_NOT_PAST_ED = frozenset(
    "excited interested scheduled planned booked arranged organized organised supposed "
    "prepared tired bored worried scared thrilled pleased stressed relieved surprised amazed "
    "delighted determined committed dedicated married engaged hundred sacred naked wicked "
    "beloved kindred wretched ragged rugged crooked".split()
)
# After these an -ed word is an adjective or a passive state ("I'm excited", "so tired").
_BEFORE_ADJECTIVE = frozenset(
    "am is are be been being so very really too quite pretty super feel feels feeling get "
    "gets getting become seem seems look looks all more most".split()
)

# 上/下 after these belongs to the word before (一下, 马上): as in `dates`.
_ZH_REL = r"(?<![一以马早晚底地留剩天])"
_ZH_MODAL = (
    r"(?<![重主只必摘纪首次])要(?![是求么素点命紧好])"
    r"|(?<![机社开聚约晚宴体误学大舞协工国集例年酒庙览动乐唱讨理领融一茶商省教])会"
    r"(?![议员计场所长话谈面见合儿心意馆堂费])"
    r"|(?<![大老麻武名猛干])将(?![军近领士棋])"
)
_ZH_FUTURE = re.compile(
    rf"{_ZH_MODAL}|打算|准备|计划|开始|即将|马上|期待|等不及|预计|如果|(?<![主只需重就还总])要是|假如|万一"
    rf"|{_ZH_REL}下(?:周|个?星期|个?礼拜|个月)"
)
_ZH_MODAL_RE = re.compile(_ZH_MODAL)
_ZH_PAST = re.compile(
    rf"{_ZH_REL}上(?:周|个?星期|个?礼拜|个月)|昨天|前天|去年|刚才|刚刚|已经|曾经"
    r"|(?<![不难通超经])过(?![年节生敏来去])"
)
_ZH_LE = re.compile(r"(?<![为除不算罢])了(?![解起得])")
_ZH_LE_ENDS = re.compile(r"[吧啊呀哦嘛呢啦哈～~!！。.…\s]*$")

_SENTENCE_BREAK = re.compile(r"[.!?。！？\n]+")
_CLAUSE_BREAK = re.compile(
    r"[,;:，；：、]|(?<![A-Za-z])(?:and|but|so|then|because|while|whereas|although|though)"
    r"(?![A-Za-z])|但是|不过|可是|然后|所以|因为",
    re.IGNORECASE | re.ASCII,
)


def _cues(text: str) -> tuple[bool, bool]:
    """Whether `text` has a future cue, and whether it has a past cue."""
    future = bool(_EN_FUTURE.search(text) or _ZH_FUTURE.search(text))
    past = bool(_EN_PAST.search(text) or _ZH_PAST.search(text))
    return future, past or _past_ed(text) or _past_le(text)


def _past_ed(text: str) -> bool:
    """Whether a word in -ed reads as a past verb ("we moved", not "I'm excited")."""
    previous = ""
    for match in _EN_WORD.finditer(text):
        word = match[0].lower()
        if (
            len(word) > 4
            and word.endswith("ed")
            and not word.endswith("eed")
            and word not in _NOT_PAST_ED
            and previous not in _BEFORE_ADJECTIVE
            and not previous.endswith(("'m", "’m", "'re", "’re"))
        ):
            return True
        previous = word
    return False


def _past_le(text: str) -> bool:
    """Whether a 了 marks a past: one inside the clause, or a last one with no 要/会/将."""
    for match in _ZH_LE.finditer(text):
        if not _ZH_LE_ENDS.match(text, match.end()) or not _ZH_MODAL_RE.search(text):
            return True
    return False


def _around(text: str, position: int, breaks: re.Pattern[str]) -> tuple[int, int]:
    """Where the stretch of `text` around `position` between two `breaks` starts and ends."""
    start, end = 0, len(text)
    for match in breaks.finditer(text):
        if match.end() <= position:
            start = match.end()
        elif match.start() >= position:
            end = match.start()
            break
    return start, end


def looks_ahead(text: str) -> bool:
    """Whether `text` is about what will happen: a future cue and no past cue.

    >>> looks_ahead("My new job starts Monday"), looks_ahead("I went hiking on Saturday")
    (True, False)
    """
    future, past = _cues(simplified(text))
    return future and not past


def looks_ahead_at(text: str, position: int) -> bool:
    """Whether the clause of `text` around `position` looks ahead; a clause with no cue of
    either kind takes its sentence's.

    >>> text = "I went to the gym on Monday and will go again Friday"
    >>> looks_ahead_at(text, text.index("Monday")), looks_ahead_at(text, text.index("Friday"))
    (False, True)
    """
    start, end = _around(text, position, _SENTENCE_BREAK)
    sentence = text[start:end]
    first, last = _around(sentence, position - start, _CLAUSE_BREAK)
    future, past = _cues(sentence[first:last])
    if future or past:
        return future and not past
    return looks_ahead(sentence)
