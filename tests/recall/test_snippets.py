"""Query-focused snippets of long turns."""

from __future__ import annotations

from dualtrace.recall.snippets import GAP, focus_words, snippet, stem
from dualtrace.text.tokens import count_tokens

TIPS = (
    "Here are some tips for your garden. Water the tomatoes early in the morning. "
    "Prune the roses in late winter. Keep the basil in full sun. "
    "I keep my old sneakers under my bed for storage, and they're starting to smell. "
    "Compost kitchen scraps to feed the soil. Mulch keeps the weeds down. "
    "Rotate the crops every year."
)


def test_stem_and_focus_words() -> None:
    assert stem("sneakers") == "sneaker" and stem("painted") == "paint"
    assert stem("bus") == "bus"  # too short to strip
    assert focus_words("Where do I keep my old sneakers?") == {"keep", "old", "sneaker"}


def test_best_sentence_then_what_follows_with_gaps_marked() -> None:
    text = snippet(TIPS, focus_words("Where do I keep my old sneakers?"), 40)
    assert text is not None and text.startswith(GAP)
    assert "under my bed" in text and "Water the tomatoes" not in text
    assert text.index("sneakers") < text.index("Compost")  # what follows comes along
    assert count_tokens(text) <= 40 + 2


def test_short_or_unrelated_turns_are_left_whole() -> None:
    assert snippet("I keep my sneakers under the bed.", focus_words("sneakers"), 40) is None
    assert snippet(TIPS, focus_words("quantum chromodynamics"), 40) is None
    assert snippet(TIPS, frozenset(), 40) is None


def test_a_numbered_list_follows_its_introduction() -> None:
    turn = "Some remote jobs for seniors are below. " + " ".join(
        f"{n}. Job number {n} is described here in a few words." for n in range(1, 15)
    )
    text = snippet(turn, focus_words("remote jobs for seniors"), 60)
    assert text is not None and text.startswith("Some remote jobs for seniors")
    assert "Job number 3" in text


def test_a_run_on_sentence_is_cut_and_the_continuation_has_no_holes() -> None:
    run_on = "the sneakers " + "and more words " * 200
    text = snippet(run_on + ". Short tail.", focus_words("sneakers"), 30)
    assert text is not None and count_tokens(text) <= 30 + 4 and "sneakers" in text
    turn = (
        "Intro about sneakers. "
        + "A very long middle sentence that goes on and on without saying much at all. " * 3
        + "Tail."
    )
    cut = snippet(turn, focus_words("sneakers"), 25)
    assert cut is not None and "Tail." not in cut  # no skipping over the long middle


def test_chinese_turns_are_cut_by_their_sentences() -> None:
    weather = "我们聊了很多天气的事情，今天很热。" * 20
    turn = weather + "我的备用钥匙放在蓝色花盆里。" + "明天会下雨吗？" * 10
    text = snippet(turn, focus_words("备用钥匙在哪里"), 40)
    assert text is not None and "备用钥匙放在蓝色花盆里" in text and text.startswith(GAP)


def test_the_items_of_a_list_that_do_not_fit_keep_their_names() -> None:
    names = ["Sweet Vermouth", "Dry Vermouth", "Campari", "Elderflower Liqueur", "Absinthe"]
    turn = "I recommend these five bottles for gin cocktails:\n" + "\n".join(
        f"{n}. {name}: {name} is used in many classic drinks. It adds a long and complex "
        "flavor that bartenders have loved for a very long time."
        for n, name in enumerate(names, start=1)
    )
    text = snippet(turn, focus_words("which five bottles for gin cocktails?"), 100)
    assert text is not None and text.startswith("I recommend these five bottles")
    assert "1. Sweet Vermouth: Sweet Vermouth is used" in text  # what follows, in full
    assert f"5. Absinthe: {GAP}" in text and "Absinthe is used" not in text
    assert all(name in text for name in names) and count_tokens(text) <= 100 + 2
