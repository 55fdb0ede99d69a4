"""What the inspector shows, read off a real Chromium against a real `dualtrace serve`:
Chinese drawn as glyphs (not empty boxes), superseded memories behind a toggle, times as
stored with their zone, links that read as text, a hit table one line a hit, and user text
that cannot reorder the page around it."""

from __future__ import annotations

import uuid
from pathlib import Path

import browsers
import pytest
from browsers import sign_in
from playwright.sync_api import Browser, Page, expect
from service_live import Server, new_key

CHINESE = "我不喜欢白色的车喜欢深蓝色"

# Each character drawn alone in the font the timeline's text uses, as a bitmap; with the
# bitmap of a code point no font has (what a missing glyph looks like in that font).
GLYPHS = """(sample) => {
  const style = getComputedStyle(document.querySelector(".turn .text"));
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 72;
  const g = canvas.getContext("2d", { willReadFrequently: true });
  const draw = (ch) => {
    g.clearRect(0, 0, 72, 72);
    g.font = `48px ${style.fontFamily}`;
    g.textBaseline = "top";
    g.fillText(ch, 8, 8);
    const alpha = g.getImageData(0, 0, 72, 72).data.filter((_, i) => i % 4 === 3);
    return Array.from(alpha, (a) => (a > 127 ? "1" : "0")).join("");
  };
  return { box: draw("\\u0378"), glyphs: Array.from(sample, draw) };
}"""


def _add(server: Server, user: str, turns: list[dict[str, str]]) -> None:
    with server.as_("admin") as admin:
        added = admin.post("/v1/memories", json={"user_id": user, "messages": turns})
        assert added.status_code == 201, added.text


def _user(server: Server, turns: list[dict[str, str]]) -> tuple[str, str]:
    """A fresh user holding `turns`, and a key for that user."""
    user = f"u-{uuid.uuid4().hex[:8]}"
    _add(server, user, turns)
    return user, new_key(server.db, "--user", user)


def _glyphs_drawn(page: Page) -> bool:
    drawn = page.evaluate(GLYPHS, CHINESE)
    inked = all("1" in g for g in drawn["glyphs"])
    return (
        inked
        and drawn["box"] not in drawn["glyphs"]
        and len(set(drawn["glyphs"])) == len(set(CHINESE))
    )


@pytest.fixture
def chinese(server: Server) -> tuple[str, str]:
    return _user(server, [{"role": "user", "content": f"{CHINESE}。"}])


def test_chinese_is_drawn_as_glyphs(page: Page, server: Server, chinese: tuple[str, str]) -> None:
    browsers.need_cjk_font()
    sign_in(page, server.base, chinese[1])
    expect(page.locator(".turn .text")).to_have_text(f"{CHINESE}。")
    assert _glyphs_drawn(page)


def test_the_glyph_check_sees_boxes_where_no_font_covers_chinese(
    browser: Browser, server: Server, chinese: tuple[str, str], tmp_path: Path
) -> None:
    """The check above is not vacuous: Chromium with every Chinese font hidden from it
    (a fontconfig file that rejects them) draws boxes, and the check says so."""
    files = browsers.cjk_font_files()
    if not files:
        pytest.skip("needs fontconfig and a Chinese font to hide")
    globs = "".join(f"<glob>{f}</glob>" for f in files)
    conf = tmp_path / "fonts.conf"
    conf.write_text(
        '<?xml version="1.0"?><fontconfig><include>/etc/fonts/fonts.conf</include>'
        f"<selectfont><rejectfont>{globs}</rejectfont></selectfont></fontconfig>"
    )
    bare = browser.browser_type.launch(
        executable_path=browsers.chromium(),
        args=["--no-sandbox"],
        env={"FONTCONFIG_FILE": str(conf)},
    )
    try:
        page = bare.new_page()
        sign_in(page, server.base, chinese[1])
        expect(page.locator(".turn .text")).to_have_text(f"{CHINESE}。")
        assert not _glyphs_drawn(page)
    finally:
        bare.close()


def test_missing_chromium_or_font_fails_in_ci_and_skips_elsewhere(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    failed, skipped = pytest.fail.Exception, pytest.skip.Exception
    for value, outcome in (("true", failed), ("1", failed), ("", skipped), ("0", skipped)):
        monkeypatch.setenv("CI", value)
        monkeypatch.setattr(browsers, "CHROMIUM", "/nonexistent/chromium")
        with pytest.raises(outcome, match="apt-get install chromium"):
            browsers.chromium()
        monkeypatch.setattr(browsers, "cjk_font_files", lambda: [])
        with pytest.raises(outcome, match="fonts-noto-cjk"):
            browsers.need_cjk_font()


MOVE = [
    {
        "role": "user",
        "name": "Lin",
        "content": "I live in Lyon with my partner.",
        "timestamp": "2025-03-03T10:00:00+08:00",
    },
    {
        "role": "user",
        "name": "Lin",
        "content": "We finally relocated to Bordeaux last month.",
        "timestamp": "2025-05-05T10:00:00Z",
    },
]


@pytest.fixture
def moved(server: Server) -> tuple[str, str]:
    """A user whose Lyon fact was superseded by Bordeaux (two adds: two turns in order)."""
    user, key = _user(server, MOVE[:1])
    _add(server, user, MOVE[1:])
    return user, key


def test_superseded_memories_show_struck_through_behind_a_toggle(
    page: Page, server: Server, moved: tuple[str, str]
) -> None:
    sign_in(page, server.base, moved[1])
    lyon = page.locator(".turn", has_text="Lyon")
    expect(page.locator(".turn")).to_have_count(2)
    expect(lyon.locator(".memory-link")).to_have_count(0)  # only what is valid, by default
    page.check("#show-superseded")
    old = lyon.locator(".superseded")
    expect(old).to_have_count(1)
    expect(old.locator("del")).to_contain_text("Lyon")
    assert "line-through" in old.locator("del").evaluate("e => getComputedStyle(e).textDecoration")
    expect(old).to_contain_text("superseded by")
    expect(old.locator("a.successor")).to_contain_text("Bordeaux")
    expect(old).to_contain_text("valid until 2025-05-05 18:00 +08:00")
    page.reload()  # the choice holds for the tab
    expect(page.locator(".turn", has_text="Lyon").locator(".superseded")).to_have_count(1)
    page.locator(".superseded a.successor").click()
    expect(page.locator(".record-text")).to_contain_text("Bordeaux")
    page.go_back()
    page.uncheck("#show-superseded")
    expect(page.locator(".superseded")).to_have_count(0)


def test_links_read_as_the_linked_memory_text(
    page: Page, server: Server, moved: tuple[str, str]
) -> None:
    sign_in(page, server.base, moved[1])
    page.locator(".turn", has_text="Bordeaux").locator(".memory-link").first.click()
    expect(page.locator(".record-text")).to_contain_text("Bordeaux")
    links = page.locator("ul.links a.record-link")
    expect(links).to_have_count(1)
    expect(links).to_contain_text("Lyon")  # its text, not its id
    lyon = links.get_attribute("title")
    assert lyon is not None and lyon.startswith("mem_")
    assert links.get_attribute("href", timeout=1000).endswith(lyon)  # type: ignore[union-attr]
    expect(page.locator(".fields")).to_contain_text("supersedes")
    expect(page.locator(".fields a.record-link")).to_contain_text("Lyon")
    links.click()
    expect(page.locator("h1")).to_contain_text(lyon)


def test_times_are_shown_as_stored_with_their_zone(
    browser: Browser, server: Server, moved: tuple[str, str]
) -> None:
    """In a browser far from both zones, the timeline shows each turn's own date and zone
    (what the context names), not the browser's local time."""
    context = browser.new_context(timezone_id="America/Los_Angeles")
    try:
        page = context.new_page()
        sign_in(page, server.base, moved[1])
        metas = page.locator(".turn .meta")
        expect(metas).to_have_count(2)
        expect(page.locator(".turn", has_text="Lyon").locator(".meta")).to_contain_text(
            "2025-03-03 10:00 +08:00"
        )
        expect(page.locator(".turn", has_text="Bordeaux").locator(".meta")).to_contain_text(
            "2025-05-05 10:00 UTC"
        )
        page.locator(".turn", has_text="Lyon").locator(".meta a").click()
        expect(page.locator(".fields")).to_contain_text("valid from2025-03-03 10:00 +08:00")
        recorded = page.locator(".fields dd").last.inner_text()
        assert recorded.endswith(" UTC"), recorded
    finally:
        context.close()


def test_the_hit_table_folds_each_breakdown(page: Page, server: Server) -> None:
    turns = [
        {"role": "user", "content": f"Note {n}: the blue car needs a service in week {n}."}
        for n in range(24)
    ]
    _, key = _user(server, turns)
    page.set_viewport_size({"width": 1280, "height": 900})
    sign_in(page, server.base, key)
    page.click("nav >> text=Search")
    page.fill("input[name=query]", "when does the blue car need a service?")
    page.click("form.search button[type=submit]")
    expect(page.locator("tr.hit")).to_have_count(20)
    table = page.locator("table.hits").bounding_box()
    assert table is not None and table["height"] < 20 * 60, table  # about a line a hit
    first = page.locator("tr.hit").first
    expect(first.locator(".scores")).to_be_hidden()
    first.locator("summary").click()
    expect(first.locator(".scores li").first).to_be_visible()


RLO = "\u202e"


def test_right_to_left_overrides_in_user_text_stay_inside_it(page: Page, server: Server) -> None:
    """A speaker named with U+202E (RIGHT-TO-LEFT OVERRIDE): the name may show reversed,
    but what follows it on the line keeps its order and place."""
    _, key = _user(
        server,
        [{"role": "user", "name": f"{RLO}Mallory", "content": "I live in Lyon with my partner."}],
    )
    sign_in(page, server.base, key)
    meta = page.locator(".turn .meta")
    expect(meta.locator(".speaker")).to_contain_text("Mallory")

    def after(line: str, name: str, follower: str) -> None:
        left_of = page.evaluate(
            """([line, name, follower]) => {
              const box = document.querySelector(line);
              const a = box.querySelector(name).getBoundingClientRect();
              const b = box.querySelector(follower).getBoundingClientRect();
              return b.left >= a.right - 1;
            }""",
            [line, name, follower],
        )
        assert left_of, f"{follower} is not right of {name} in {line}"

    after(".turn .meta", ".speaker", "a")  # the "turn" link stays after the name
    page.locator(".turn .memory-link").first.click()
    expect(page.locator(".sources .speaker")).to_contain_text("Mallory")
    after(".sources .meta", ".speaker", "a")
