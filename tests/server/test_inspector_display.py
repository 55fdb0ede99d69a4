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
