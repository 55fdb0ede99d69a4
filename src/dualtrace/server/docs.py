"""API docs that load nothing from outside: Swagger UI at /docs and ReDoc at /redoc, from
the files the fastapi-offline package ships (Swagger UI 5, ReDoc 2: both read the OpenAPI
3.1 document FastAPI emits; the older swagger-ui-bundle's Swagger UI 4 could not)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import fastapi_offline
from fastapi import FastAPI
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

STATIC = Path(fastapi_offline.__file__).parent / "static"


def mount(app: FastAPI) -> None:
    """/docs, /redoc and their assets under /docs/static."""
    app.mount("/docs/static", StaticFiles(directory=str(STATIC)), name="docs-static")

    def docs() -> HTMLResponse:
        return HTMLResponse(DOCS_PAGE, headers={"Content-Security-Policy": SAME_ORIGIN})

    def redoc() -> HTMLResponse:
        return HTMLResponse(REDOC_PAGE, headers={"Content-Security-Policy": SAME_ORIGIN})

    def redoc_script() -> Response:
        return Response(_redoc_script(), media_type="text/javascript")

    app.add_api_route("/docs", docs, include_in_schema=False)
    app.add_api_route("/redoc/redoc.js", redoc_script, include_in_schema=False)
    app.add_api_route("/redoc", redoc, include_in_schema=False)


@lru_cache(maxsize=1)
def _redoc_script() -> bytes:
    """ReDoc's bundle with its sidebar logo (always fetched from cdn.redoc.ly) made local."""
    script = (STATIC / "redoc.standalone.js").read_bytes()
    return script.replace(REDOC_LOGO, b"/docs/static/favicon.png")


REDOC_LOGO = b"https://cdn.redoc.ly/redoc/logo-mini.svg"
# and the browser fetches nothing off-host even where a bundle still would
SAME_ORIGIN = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "script-src 'self' 'unsafe-inline'; worker-src 'self' blob:; connect-src 'self'"
)

DOCS_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>dualtrace API</title>
<link rel="stylesheet" href="/docs/static/swagger-ui.css">
<link rel="icon" href="/docs/static/favicon.png"></head>
<body><div id="swagger-ui"></div>
<script src="/docs/static/swagger-ui-bundle.js"></script>
<script>
window.ui = SwaggerUIBundle({url: "/openapi.json", dom_id: "#swagger-ui",
  validatorUrl: null, deepLinking: true, persistAuthorization: true});
</script></body></html>
"""

REDOC_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>dualtrace API (ReDoc)</title>
<link rel="icon" href="/docs/static/favicon.png"></head>
<body><redoc spec-url="/openapi.json" hide-download-button></redoc>
<script src="/redoc/redoc.js"></script></body></html>
"""
