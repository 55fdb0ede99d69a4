"""The FastAPI application: `/v1` routes over the Memory facade, health and metrics, the
offline API docs, and the hook that mounts the optional surfaces (web inspector, MCP).

    app = create_app(Memory("memory.db", resume=False), ServiceConfig(dev=True))

Optional surfaces: each module named in OPTIONAL_SURFACES that exists defines
`mount(app: FastAPI, service: Service) -> AbstractAsyncContextManager[None] | None`. It adds
its routes or sub-app (the inspector at "/", MCP at "/mcp"); a context manager it returns
runs for the app's lifetime (MCP's session manager). Without an inspector, "/" serves a
small page that links to the docs.
"""

from __future__ import annotations

import importlib
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager

import anyio.to_thread
from fastapi import FastAPI
from fastapi.responses import HTMLResponse

from dualtrace import __version__
from dualtrace.config import ServiceConfig
from dualtrace.memory import Memory
from dualtrace.server import api_admin, api_profile, api_records, api_sessions, docs, errors
from dualtrace.server.edge import Edge, Guard, Metrics
from dualtrace.server.service import Service

OPTIONAL_SURFACES = ("dualtrace.server.inspector", "dualtrace.server.mcp")

DESCRIPTION = """Long-term memory for LLM agents over HTTP. Every request carries
`Authorization: Bearer <key>` (`dualtrace keys create --user ID`); a user key acts for its
own user only, so `user_id` may be left out; an admin key names the user. Errors are
`{"error": {"type", "message", "field"?}}`."""


def create_app(memory: Memory, config: ServiceConfig, *, close_memory: bool = False) -> FastAPI:
    """The service's app over an open Memory (`close_memory`: close it on shutdown)."""
    service = Service(memory, config)
    extras: list[AbstractAsyncContextManager[None]] = []

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        async with AsyncExitStack() as stack:
            for extra in extras:
                await stack.enter_async_context(extra)
            # the model and the tokenizer load now, not on the first request
            await anyio.to_thread.run_sync(memory.warm_up)
            if service.worker is not None:
                service.worker.start()
            service.ready = True
            try:
                yield
            finally:
                service.ready = False
                if service.worker is not None:
                    await anyio.to_thread.run_sync(service.worker.stop)
                if close_memory:
                    memory.close()

    app = FastAPI(
        title="dualtrace",
        version=__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    app.state.service = service
    app.state.metrics = Metrics(memory)
    errors.install(app)
    routers = (api_admin.router, api_records.router, api_sessions.router, api_profile.router)
    for router in routers:
        app.include_router(router)
    docs.mount(app)
    extras.extend(mount_surfaces(app, service))
    if not any(getattr(r, "path", None) in ("/", "") for r in app.routes):
        app.add_api_route("/", _placeholder, include_in_schema=False)
    app.add_middleware(
        Edge, metrics=app.state.metrics, max_body_bytes=config.max_body_bytes, guard=Guard(config)
    )
    return app


def mount_surfaces(app: FastAPI, service: Service) -> list[AbstractAsyncContextManager[None]]:
    """Mount each optional surface that is installed; returns their lifetime contexts."""
    contexts: list[AbstractAsyncContextManager[None]] = []
    for name in OPTIONAL_SURFACES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise  # the surface exists but a dependency of it is missing: say so
            continue
        context = module.mount(app, service)
        if context is not None:
            contexts.append(context)
    return contexts


def _placeholder() -> HTMLResponse:
    return HTMLResponse(PLACEHOLDER)


PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>dualtrace</title></head>
<body><h1>dualtrace</h1><p>The memory service is running.</p>
<ul><li><a href="/docs">API docs</a></li><li><a href="/redoc">ReDoc</a></li>
<li><a href="/openapi.json">OpenAPI</a></li>
<li><a href="/health/ready">readiness</a></li></ul></body></html>
"""
