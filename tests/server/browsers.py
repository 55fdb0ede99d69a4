"""What the browser tests need from the machine: Debian's Chromium, and a CJK font for the
Chinese they show.

Imported by the tests as `browsers` (tests/server is on sys.path). Where one is missing, a
test is skipped on a developer's machine but fails in CI (the `CI` environment variable set,
as `.ci/run` does): CI installs both, so a browser test that does not run there is a fault.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Page

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def missing(reason: str) -> None:
    """Skip the test here; fail it in CI."""
    if in_ci():
        pytest.fail(f"{reason}; CI runs every browser test (.ci/run installs it)", pytrace=False)
    pytest.skip(reason)


def chromium() -> str:
    """The Chromium to launch; skips (fails in CI) where there is none."""
    if shutil.which(CHROMIUM) is None:
        missing("Chromium is not installed (apt-get install chromium)")
    return CHROMIUM


def cjk_font_files() -> list[str] | None:
    """The font files that cover Chinese, as fontconfig lists them (None: no `fc-list`)."""
    if shutil.which("fc-list") is None:
        return None
    listed = subprocess.run(
        ["fc-list", ":lang=zh", "file"], capture_output=True, text=True, timeout=60, check=True
    )
    return sorted({line.strip().rstrip(":") for line in listed.stdout.splitlines() if line.strip()})


def need_cjk_font() -> None:
    """Skips (fails in CI) where fontconfig knows no font that covers Chinese."""
    if cjk_font_files() == []:
        missing("no font covers Chinese (apt-get install fonts-noto-cjk)")


def sign_in(page: Page, base: str, key: str) -> None:
    """Open the inspector at `base` and paste `key`, as a person does."""
    from playwright.sync_api import expect

    page.goto(f"{base}/")
    expect(page.locator("#view")).to_contain_text("needs an API key")
    page.fill("#key", key)
    page.click("#key-form button[type=submit]")
