"""OpenAPI at /openapi.json and API docs at /docs that load nothing from outside."""

from __future__ import annotations

import re

import httpx
from service_live import Server

ROUTES = {
    ("post", "/v1/memories"),
    ("get", "/v1/memories"),
    ("post", "/v1/search"),
    ("post", "/v1/context"),
    ("get", "/v1/memories/{record_id}"),
    ("patch", "/v1/memories/{record_id}"),
    ("delete", "/v1/memories/{record_id}"),
    ("get", "/v1/memories/{record_id}/history"),
    ("post", "/v1/history/{entry_id}/revert"),
    ("post", "/v1/memories/{record_id}/restore"),
    ("delete", "/v1/users/{user_id}"),
    ("post", "/v1/sessions"),
    ("post", "/v1/sessions/{session_id}/turns"),
    ("post", "/v1/sessions/{session_id}/context"),
    ("post", "/v1/sessions/{session_id}/end"),
    ("post", "/v1/maintain"),
    ("get", "/metrics"),
    ("get", "/health/live"),
    ("get", "/health/ready"),
    ("get", "/v1/operations/{operation_id}"),
    ("get", "/v1/users"),
    ("get", "/v1/turns"),
    ("get", "/v1/profile"),
}


def test_openapi_documents_every_route_and_the_error_shape(server: Server) -> None:
    spec = httpx.get(f"{server.base}/openapi.json").json()
    found = {(m, p) for p, ops in spec["paths"].items() for m in ops}
    assert found >= ROUTES, ROUTES - found
    search = spec["paths"]["/v1/search"]["post"]["responses"]
    assert {"200", "401", "403", "413", "422", "429"} <= set(search)
    assert search["422"]["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorOut")


def test_docs_page_loads_only_local_assets(server: Server) -> None:
    page = httpx.get(f"{server.base}/docs")
    assert page.status_code == 200 and "charset=utf-8" in page.headers["content-type"]
    refs = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    assert refs and all(r.startswith("/") and not r.startswith("//") for r in refs), refs
    assert "http://" not in page.text and "https://" not in page.text
    for ref in refs:
        assert httpx.get(server.base + ref).status_code == 200, ref
    assert "validatorUrl: null" in page.text  # Swagger UI would call validator.swagger.io


def test_the_root_page_is_served(server: Server) -> None:
    root = httpx.get(f"{server.base}/")
    assert root.status_code == 200 and "text/html" in root.headers["content-type"]


def test_docs_pages_render_every_operation_in_a_browser(server: Server) -> None:
    """Swagger UI and ReDoc read the OpenAPI 3.1 document (Swagger UI 4 could not), and
    nothing the pages fetch leaves the server's host."""
    from urllib.parse import urlsplit

    from browsers import chromium as installed_chromium
    from playwright.sync_api import sync_playwright

    chromium = installed_chromium()  # skipped without it, failed in CI

    host = urlsplit(server.base).netloc
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=chromium,
            args=["--no-sandbox", "--disable-background-networking", "--disable-component-update"],
        )
        try:
            page = browser.new_page()
            fetched: list[str] = []
            page.on("request", lambda request: fetched.append(request.url))
            page.goto(f"{server.base}/docs")
            page.wait_for_selector(".opblock", timeout=20_000)
            assert page.locator(".opblock").count() >= len(ROUTES)
            assert page.get_by_text("Unable to render this definition").count() == 0
            page.goto(f"{server.base}/redoc")
            page.wait_for_selector("[data-section-id^='operation/']", timeout=20_000)
            assert page.locator("[data-section-id^='operation/']").count() >= len(ROUTES)
        finally:
            browser.close()
    local = ("data", "blob")  # in-page data, and the worker ReDoc starts from its own script
    off_host = [
        u for u in fetched if urlsplit(u).scheme not in local and urlsplit(u).netloc != host
    ]
    assert fetched and not off_host, off_host
