"""The web inspector in a real browser (Playwright driving Debian's Chromium) against a real
`dualtrace serve` on loopback: the timeline of a seeded user (Chinese included), a search
with hits, a delete the page confirms, a second user's data never shown, stored text never
run as markup, and no request leaving 127.0.0.1."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import httpx
import pytest
from browsers import sign_in
from playwright.sync_api import Browser, Page, expect
from service_live import Server, new_key

CHINESE = "我不喜欢白色的车，喜欢深蓝色。"
MARKUP = '<img src="x" onerror="document.title=\'pwned\'">我们住在杭州'


@pytest.fixture
def users(server: Server) -> dict[str, str]:
    """Two fresh users with turns (one seeded in Chinese), and a key for the first."""
    lin, zoe = f"lin-{uuid.uuid4().hex[:6]}", f"zoe-{uuid.uuid4().hex[:6]}"
    turns = [
        {
            "role": "user",
            "name": "Lin",
            "content": "I live in Hangzhou near the West Lake.",
            "timestamp": "2026-03-02T10:00:00+08:00",
        },
        {
            "role": "assistant",
            "content": "Hangzhou is lovely in spring.",
            "timestamp": "2026-03-02T10:01:00+08:00",
        },
        {
            "role": "user",
            "name": "Lin",
            "content": CHINESE,
            "timestamp": "2026-03-02T10:02:00+08:00",
        },
        {
            "role": "user",
            "name": "Lin",
            "content": MARKUP,
            "timestamp": "2026-03-02T10:03:00+08:00",
        },
    ]
    with server.as_("admin") as admin:
        added = admin.post(
            "/v1/memories", json={"user_id": lin, "session_id": "s1", "messages": turns}
        )
        assert added.status_code == 201, added.text
        secret = admin.post(
            "/v1/memories",
            json={
                "user_id": zoe,
                "messages": [
                    {"content": "Zoe's secret: the plum orchard key is under the blue stone."}
                ],
            },
        )
        assert secret.status_code == 201, secret.text
    return {"lin": lin, "zoe": zoe, "key": new_key(server.db, "--user", lin)}


def test_timeline_search_and_delete_for_a_user_key(
    page: Page, server: Server, users: dict[str, str]
) -> None:
    sign_in(page, server.base, users["key"])
    # one user key: straight to that user's timeline
    turns = page.locator(".turn")
    expect(turns).to_have_count(4)
    texts = turns.locator(".text").all_text_contents()
    assert CHINESE in texts and MARKUP in texts  # Chinese intact; markup shown as text
    assert page.locator("#view img").count() == 0 and page.title() != "pwned"
    chinese_turn = turns.filter(has_text=CHINESE)
    derived = chinese_turn.locator(".memory-link")
    expect(derived.first).to_contain_text("深蓝色")

    # search: hits with score breakdowns, and the context an agent would get
    page.click("nav >> text=Search")
    page.fill("input[name=query]", "深蓝色的车")
    page.fill("input[name=budget]", "300")
    page.click("form.search button[type=submit]")
    expect(page.locator("tr.hit").first).to_be_visible()
    expect(page.locator("pre.context")).to_contain_text("深蓝色")
    first = page.locator("tr.hit").first
    expect(first.locator(".scores li").first).to_be_hidden()  # folded: one line a hit
    first.locator("details.breakdown summary").click()
    expect(first.locator(".scores li").first).to_be_visible()

    # delete the derived memory, with a confirmation
    page.click("nav >> text=Timeline")
    link = page.locator(".turn", has_text=CHINESE).locator(".memory-link").first
    memory_id = link.get_attribute("href").rsplit("/", 1)[-1]  # type: ignore[union-attr]
    link.click()
    expect(page.locator("h1")).to_contain_text(memory_id)
    expect(page.locator(".fields")).to_contain_text("valid")
    page.click(".actions button.danger")
    expect(page.locator("#confirm")).to_be_visible()
    page.click("#confirm-cancel")  # cancel keeps it
    expect(page.locator("h1")).to_contain_text(memory_id)
    page.click(".actions button.danger")
    page.click("#confirm-ok")
    expect(page.locator(".deleted")).to_contain_text(f"{memory_id} was deleted")
    expect(page.locator("#notice")).to_contain_text("gone from the store")
    with server.as_("admin") as admin:
        gone = admin.get(f"/v1/memories/{memory_id}", params={"user_id": users["lin"]})
    assert gone.status_code == 404
    page.click("text=Back to the timeline")
    expect(page.locator(".turn")).to_have_count(4)
    expect(page.locator(f'a[href$="{memory_id}"]')).to_have_count(0)

    # the other user: refused, and none of their text ever shown
    page.goto(f"{server.base}/#/u/{users['zoe']}")
    expect(page.locator("#view .error")).to_contain_text("403")
    page.goto(f"{server.base}/#/")
    expect(page.locator("h1")).to_have_text("Timeline")
    expect(page.locator(".turn")).to_have_count(4)
    for seen in (page.content(), page.locator("body").inner_text()):
        assert "plum orchard" not in seen and users["zoe"] not in seen


def test_edit_and_undo_from_the_history(page: Page, server: Server, users: dict[str, str]) -> None:
    sign_in(page, server.base, users["key"])
    turn = page.locator(".turn", has_text="West Lake")
    turn.locator(".meta a").click()
    page.click("text=Edit")
    page.fill(".editor textarea", "I live in Suzhou now.")
    page.click(".editor button[type=submit]")
    page.click("#confirm-ok")
    expect(page.locator(".record-text")).to_have_text("I live in Suzhou now.")
    row = page.locator("table.history tr", has_text="UPDATE")
    row.locator("button", has_text="Undo").click()
    page.click("#confirm-ok")
    expect(page.locator(".record-text")).to_have_text("I live in Hangzhou near the West Lake.")


def test_pages_are_utf8_and_load_nothing_from_outside(server: Server) -> None:
    for path, kind in (
        ("/", "text/html"),
        ("/inspector/app.js", "text/javascript"),
        ("/inspector/style.css", "text/css"),
    ):
        answer = httpx.get(f"{server.base}{path}")
        assert answer.status_code == 200
        assert answer.headers["content-type"] == f"{kind}; charset=utf-8"
        assert "default-src 'none'" in answer.headers["content-security-policy"]
        assert "http://" not in answer.text and "https://" not in answer.text
    assert httpx.get(f"{server.base}/inspector/nope.js").status_code == 404


def test_dev_mode_lists_every_user_without_a_key(
    browser: Browser, servers: Callable[..., Server]
) -> None:
    dev = servers("--dev")
    for user, text in (("ana", "我喜欢深蓝色。"), ("ben", "I like green.")):
        added = httpx.post(
            f"{dev.base}/v1/memories",
            timeout=30,
            json={"user_id": user, "messages": [{"content": text}]},
        )
        assert added.status_code == 201, added.text
    page = browser.new_page()
    page.goto(f"{dev.base}/")
    expect(page.locator("table.users tbody tr")).to_have_count(2)
    page.click("table.users >> text=ana")
    expect(page.locator(".turn .text")).to_have_text(["我喜欢深蓝色。"])
    page.close()
