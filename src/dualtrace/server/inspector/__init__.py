"""The web inspector at `/`: a person looking after an agent's memory browses a user's
turns and memories, searches with score breakdowns, and edits, deletes, restores or undoes.

Static files only (HTML, CSS, vanilla JavaScript) that call the `/v1` API with the key the
person pastes; nothing loads from outside the machine, which the Content-Security-Policy
also enforces. Every text is served as UTF-8, so Chinese renders as written.
"""

from __future__ import annotations

from importlib import resources

from fastapi import FastAPI
from fastapi.responses import Response

from dualtrace.errors import NotFoundError
from dualtrace.server.service import Service

ASSETS = {"app.js": "text/javascript", "style.css": "text/css"}
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


def _read(name: str) -> bytes:
    return (resources.files(__package__) / "static" / name).read_bytes()


def _response(body: bytes, media_type: str) -> Response:
    return Response(
        body,
        media_type=f"{media_type}; charset=utf-8",
        headers={
            "Content-Security-Policy": CSP,
            "X-Content-Type-Options": "nosniff",
            "Cache-Control": "no-cache",
            "Referrer-Policy": "no-referrer",
        },
    )


def mount(app: FastAPI, service: Service) -> None:
    """Serve the inspector: the page at `/`, its script and style under `/inspector/`."""
    del service  # the page talks to the API like any other client
    page = _read("index.html")
    assets = {name: _read(name) for name in ASSETS}

    def index() -> Response:
        return _response(page, "text/html")

    def asset(name: str) -> Response:
        if name not in assets:
            raise NotFoundError(f"no inspector file {name!r}; the page is at /")
        return _response(assets[name], ASSETS[name])

    app.add_api_route("/", index, include_in_schema=False)
    app.add_api_route("/inspector/{name}", asset, include_in_schema=False)
