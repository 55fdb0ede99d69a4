"""Cross-site requests refused: a page on another origin (a real Chromium, on a second
loopback origin) cannot change data in `--dev`, and a state-changing request must be JSON
and come from no browser, or from an origin this service serves."""

from __future__ import annotations

import shutil
import threading
import uuid
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest
from service_live import Server, free_port


def _seed(dev: Server) -> tuple[str, str, int]:
    """A user with one fact; (user, memory id, the history entry whose revert deletes it)."""
    user = f"u-{uuid.uuid4().hex[:6]}"
    with dev.client() as c:
        added = c.post(
            "/v1/memories",
            json={
                "user_id": user,
                "messages": [{"content": "I live in Hangzhou near the West Lake."}],
            },
        )
        assert added.status_code == 201, added.text
        memory = added.json()["events"][0]["memory_id"]
        entry = c.get(f"/v1/memories/{memory}/history", params={"user_id": user})
    return user, memory, entry.json()["entries"][0]["id"]


def _still_there(dev: Server, user: str, memory: str) -> bool:
    with dev.client() as c:
        return c.get(f"/v1/memories/{memory}", params={"user_id": user}).status_code == 200


def test_origin_and_content_type_matrix(servers: Callable[..., Server]) -> None:
    dev = servers("--dev")
    user, memory, entry = _seed(dev)
    port = dev.base.rsplit(":", 1)[1]
    revert = f"/v1/history/{entry}/revert?user_id={user}"
    with dev.client() as c:
        for origin in (
            "http://evil.example",
            f"http://127.0.0.1:{free_port()}",
            "null",
            f"http://evil.example:{port}",
        ):
            refused = c.post(revert, headers={"Origin": origin})
            assert refused.status_code == 403, (origin, refused.text)
            assert origin in refused.json()["error"]["message"]
        site = c.post(revert, headers={"Sec-Fetch-Site": "cross-site"})
        assert site.status_code == 403, site.text
        assert _still_there(dev, user, memory)
        body = {"user_id": user, "messages": [{"content": "I like green tea."}]}
        for kind in ("application/x-www-form-urlencoded", "text/plain", "multipart/form-data"):
            sent = c.post(
                "/v1/memories", content=b'{"user_id": "x"}', headers={"Content-Type": kind}
            )
            assert sent.status_code == 415, (kind, sent.text)
            assert "send Content-Type: application/json" in sent.json()["error"]["message"]
        bare = c.post("/v1/memories", content=httpx.Request("POST", "/", json=body).content)
        assert bare.status_code == 415, bare.text  # a body without a Content-Type
        for origin in (dev.base, f"http://localhost:{port}"):  # origins this service serves
            own = c.post(
                "/v1/memories",
                json=body,
                headers={"Origin": origin, "Sec-Fetch-Site": "same-origin"},
            )
            assert own.status_code == 201, own.text
        read = c.get("/v1/users", headers={"Origin": "http://evil.example"})
        assert read.status_code == 200  # reading is not refused (no CORS: a page cannot read)
        assert c.post(revert).status_code == 200  # no Origin (curl, httpx, MCP): works
    assert not _still_there(dev, user, memory)


CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture
def attacker() -> Iterator[Callable[[str], str]]:
    """`attacker(html)`: the URL of a page serving `html` on another loopback origin."""
    pages: dict[str, bytes] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            page = pages.get(self.path)
            self.send_response(200 if page else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write(page or b"")

        def log_message(self, *_args: object) -> None:
            pass

    http = ThreadingHTTPServer(("127.0.0.2", 0), Handler)
    threading.Thread(target=http.serve_forever, daemon=True).start()

    def serve(html: str) -> str:
        path = f"/{uuid.uuid4().hex}.html"
        pages[path] = html.encode()
        return f"http://127.0.0.2:{http.server_address[1]}{path}"

    yield serve
    http.shutdown()


@pytest.mark.usefixtures("chromium")  # skipped without it, failed in CI
def test_a_page_on_another_origin_cannot_change_data(
    servers: Callable[..., Server], attacker: Callable[[str], str]
) -> None:
    from playwright.sync_api import sync_playwright

    dev = servers("--dev")
    user, memory, entry = _seed(dev)
    target = f"{dev.base}/v1/history/{entry}/revert?user_id={user}"
    add = f"{dev.base}/v1/memories"
    payload = f'{{"user_id": "{user}", "messages": [{{"content": "I hate tea."}}]}}'
    # a frame for each form: the second form no longer navigates the frame the first loads
    # into (its response once went unseen for 30 s in a full CI run)
    page_html = f"""<!doctype html><iframe name="sink"></iframe><iframe name="sink2"></iframe>
<form id="f" method="post" target="sink" action="{target}"></form>
<form id="g" method="post" target="sink2" enctype="text/plain" action="{add}">
<input name='{payload[:-2]}' value='"}}'></form>
<script>
window.attack = async () => {{
  const sent = [];
  for (const body of [new Blob(['{payload}']), '{payload}']) {{
    await fetch("{add}", {{method: "POST", mode: "no-cors", body}});
    sent.push("fetch");
  }}
  await fetch("{target}", {{method: "POST", mode: "no-cors"}});
  return sent.length;
}};
</script>"""
    url = attacker(page_html)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page()
        page.goto(url)
        with page.expect_response(lambda r: "/revert" in r.url) as form:
            page.evaluate("document.getElementById('f').submit()")
        assert form.value.status == 403
        with page.expect_response(lambda r: r.url == add) as text_form:
            page.evaluate("document.getElementById('g').submit()")
        assert text_form.value.status == 403  # the origin is checked first
        assert page.evaluate("window.attack()") == 2
        browser.close()
    assert _still_there(dev, user, memory)
    with dev.client() as c:
        texts = [i["text"] for i in c.get("/v1/memories", params={"user_id": user}).json()["items"]]
    assert not any("hate tea" in t for t in texts), texts
