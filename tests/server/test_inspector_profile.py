"""The inspector's profile page in a real Chromium against a real `dualtrace serve`: each
attribute's current value with the chain of values it replaced, the open tasks, the last
session's summary and the context a new session starts with; `as of` reads the past; stored
text is never run as markup; another user's profile never shows."""

from __future__ import annotations

import uuid

import pytest
from browsers import sign_in
from playwright.sync_api import Page, expect
from service_live import Server, new_key

MARKUP = "Remind me to email <img src=x onerror=\"document['title']='pwned'\"> the landlord."


def _session(server: Server, user: str, turns: list[tuple[str, str]], end: str) -> None:
    with server.as_("admin") as admin:
        sid = admin.post("/v1/sessions", json={"user_id": user}).json()["session_id"]
        for text, at in turns:
            turn = {"user_id": user, "role": "user", "content": text, "timestamp": at}
            added = admin.post(f"/v1/sessions/{sid}/turns", json=turn)
            assert added.status_code == 201, added.text
        ended = admin.post(f"/v1/sessions/{sid}/end", json={"user_id": user, "now": end})
        assert ended.status_code == 200, ended.text


@pytest.fixture
def mover(server: Server) -> dict[str, str]:
    """A user who lived in Lyon, then moved to Bordeaux, with an open task; and another."""
    user, other = f"mo-{uuid.uuid4().hex[:6]}", f"ot-{uuid.uuid4().hex[:6]}"
    _session(
        server,
        user,
        [
            ("I live in Lyon with my sister.", "2025-03-03T10:00:00+08:00"),
            (MARKUP, "2025-03-03T10:05:00+08:00"),
        ],
        "2025-03-03T12:00:00+08:00",
    )
    _session(
        server,
        user,
        [
            ("I moved to Bordeaux last week.", "2025-05-05T10:00:00Z"),
            ("My sister works at Airbus now.", "2025-05-05T10:02:00Z"),
        ],
        "2025-05-05T11:00:00Z",
    )
    _session(
        server,
        other,
        [("I live in Reykjavik by the harbour.", "2025-05-01T10:00:00Z")],
        "2025-05-01T11:00:00Z",
    )
    return {"user": user, "other": other, "key": new_key(server.db, "--user", user)}


def test_profile_page_shows_current_values_with_their_history_chain(
    page: Page, server: Server, mover: dict[str, str]
) -> None:
    sign_in(page, server.base, mover["key"])
    expect(page.locator(".turn")).to_have_count(4)
    page.locator("#nav a", has_text="Profile").click()
    home = page.locator(".profile-value[data-attribute=lives_in]")
    expect(home).to_have_count(1)
    expect(home.locator(".value")).to_have_text("Bordeaux")
    employers = page.locator(".profile-value[data-attribute=works_at]")  # the sister's
    expect(employers).to_have_count(1)
    expect(employers).to_contain_text("the user's sister — works at")
    expect(page.locator("h2", has_text="Other people the user spoke of")).to_have_count(1)
    expect(home.locator(".when")).to_have_text("2025-05-05 10:00 UTC")
    old = home.locator(".replaced-value")
    expect(old).to_have_count(1)
    expect(old.locator("del")).to_have_text("Lyon")
    expect(old).to_contain_text("2025-03-03 02:00 UTC → 2025-05-05 10:00 UTC")
    assert home.locator("bdi").count() >= 2  # user text isolated
    tasks = page.locator(".plans .plan")
    expect(tasks).to_have_count(1)
    expect(tasks).to_contain_text(MARKUP)  # shown as text, never run
    assert page.locator("#view img").count() == 0 and page.title() != "pwned"
    expect(page.locator("pre.summary")).to_contain_text("Bordeaux")
    start = page.locator("pre.start-context")
    expect(start).to_contain_text("## What we know about the user now")
    expect(start).to_contain_text("Bordeaux")
    for shown in (page.locator("#view").inner_text(),):
        assert "Reykjavik" not in shown
    old.locator("del a").click()  # the replaced value's own record
    expect(page.locator(".record-text")).to_contain_text("Lyon")
    page.go_back()
    page.fill("input[name=as_of]", "2025-04-01T00:00:00Z")
    page.click(".profile form button[type=submit], form.inline button[type=submit]")
    expect(home.locator(".value")).to_have_text("Lyon")
    expect(page.locator("#view")).to_contain_text("As of 2025-04-01 00:00 UTC")


def test_profile_page_of_another_user_is_refused_for_a_user_key(
    page: Page, server: Server, mover: dict[str, str]
) -> None:
    sign_in(page, server.base, mover["key"])
    expect(page.locator(".turn")).to_have_count(4)
    page.goto(f"{server.base}/#/u/{mover['other']}/profile")
    expect(page.locator("#view .error")).to_have_count(1)
    assert "Reykjavik" not in page.locator("#view").inner_text()
