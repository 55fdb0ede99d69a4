"""The MCP tools over streamable HTTP, at `/mcp` on the service (the tools: `mcp_tools`).

Each request is authenticated before the MCP layer sees it, as every `/v1` route is: the
API key names the one user the tools act for (a user key: its own user; an admin key, or
`--dev` without a key: the user named by `?user_id=` or the `X-Dualtrace-User` header).
A refusal is a JSON-RPC error (what an MCP client shows) with 401/403/422/429: its message
says what to fix, its `data` the service's error type.
Stateless: no MCP session outlives its request, so a key revoked between two calls stops
the second.

    app.router.routes.append(Route("/mcp", endpoint))   # an ASGI app
    async with endpoint.running(): ...                   # for the app's lifetime
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

import anyio.to_thread
from fastapi import FastAPI
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.transport_security import TransportSecuritySettings
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from dualtrace.errors import DualtraceError, TooManyRequestsError, ValidationError
from dualtrace.memory import Memory
from dualtrace.server.errors import status_of
from dualtrace.server.mcp_streams import StreamLimits
from dualtrace.server.mcp_tools import build_mcp_server
from dualtrace.server.service import Service

# The user a request acts for; raises a DualtraceError (AuthError, ForbiddenError, …).
#: The user a request acts for, and who its changes are recorded as (None: the store's actor).
Authenticate = Callable[[Request], tuple[str, str | None]]

PATH = "/mcp"
USER_HEADER = "x-dualtrace-user"
_STATE_KEY = "dualtrace.mcp_user"
_ACTOR_KEY = "dualtrace.mcp_actor"


def mount(app: FastAPI, service: Service) -> AbstractAsyncContextManager[None]:
    """Serve the tools at /mcp on `app`; returns what must run for the app's lifetime."""
    endpoint = MCPEndpoint(service.memory, service_authenticator(service), host=service.config.host)
    app.router.routes.append(Route(PATH, StreamLimits(endpoint, service.config), name="mcp"))
    return endpoint.running()


def named_user(request: Request) -> str | None:
    """The user a request names: `?user_id=` or the `X-Dualtrace-User` header. The
    placeholder of an example config (`<user id>`) is refused, not taken as a user."""
    user = request.query_params.get("user_id") or request.headers.get(USER_HEADER)
    if user is not None and user.strip().startswith("<") and user.strip().endswith(">"):
        raise ValidationError(
            f"user_id {user!r} is the placeholder of the example config, not a user; put "
            f"your own user id in its place, e.g. {_example_url(request)}"
        )
    return user


def _example_url(request: Request) -> str:
    return f"{request.url.scheme}://{request.url.netloc}{PATH}?user_id=alice"


def service_authenticator(service: Service) -> Authenticate:
    """The service's own check of the API key (and rate limit), then the key's user."""

    def authenticate(request: Request) -> tuple[str, str | None]:
        client = request.client.host if request.client else "?"
        principal = service.authenticate(request.headers.get("authorization"), client)
        user = named_user(request)
        if user is None and principal.admin:
            who = "no API key" if principal.key_id is None else "an admin key"
            raise ValidationError(
                f"this MCP URL names no user, and with {who} the server cannot tell whose "
                f"memory to use: add ?user_id=<your user id> to the URL, e.g. "
                f"{_example_url(request)} (or send the X-Dualtrace-User header); each user "
                "id is a memory of its own"
            )
        return principal.user(user), principal.actor

    return authenticate


async def _request_id(request: Request) -> Any:
    """The JSON-RPC id of the request, if its body is one request (None otherwise)."""
    if request.method != "POST":
        return None
    try:
        message = json.loads(await request.body())
    except (ValueError, UnicodeDecodeError):
        return None
    found = message.get("id") if isinstance(message, dict) else None
    return found if isinstance(found, str | int) and not isinstance(found, bool) else None


def refusal(exc: DualtraceError, request_id: Any) -> JSONResponse:
    """A refused request as a JSON-RPC error, with the service's status and headers."""
    status = status_of(exc)
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    if isinstance(exc, TooManyRequestsError):
        headers = {"Retry-After": str(max(1, round(exc.retry_after)))}
    code = -32001 if status in (401, 403) else -32600  # unauthorized / invalid request
    body = {
        "jsonrpc": "2.0",
        "id": request_id,
        "error": {"code": code, "message": str(exc), "data": {"type": type(exc).__name__}},
    }
    return JSONResponse(body, status_code=status, headers=headers)


def _user_of(ctx: Context) -> str:
    request = ctx.request_context.request
    state = getattr(request, "scope", {}).get("state", {})
    user = state.get(_STATE_KEY)
    if not isinstance(user, str):  # only if the tools are served without MCPEndpoint
        raise ToolError("this request names no user; send an API key")
    return user


def _actor_of(ctx: Context) -> str | None:
    request = ctx.request_context.request
    actor = getattr(request, "scope", {}).get("state", {}).get(_ACTOR_KEY)
    return actor if isinstance(actor, str) else None


class MCPEndpoint:
    """An ASGI app serving the MCP tools of `memory` over streamable HTTP."""

    def __init__(self, memory: Memory, authenticate: Authenticate, *, host: str = "127.0.0.1"):
        self.authenticate = authenticate
        self.server = build_mcp_server(memory, _user_of, actor_of=_actor_of)
        # Builds the session manager. The SDK's own DNS-rebinding guard is off: it covered
        # only some loopback hosts (not 127.0.0.2); the service's Guard (edge.py) checks
        # Host and Origin on every route, /mcp included, the same way.
        self.server.streamable_http_app(
            stateless_http=True,
            json_response=True,
            host=host,
            transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        )

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Run the session manager: enter it in the lifespan of the app that mounts this."""
        async with self.server.session_manager.run():
            yield

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        try:
            # a key lookup reads the store: off the event loop
            user, actor = await anyio.to_thread.run_sync(self.authenticate, request)
        except DualtraceError as exc:
            response = refusal(exc, await _request_id(request))
            await response(scope, receive, send)
            return
        state = scope.setdefault("state", {})
        state[_STATE_KEY], state[_ACTOR_KEY] = user, actor
        await self.server.session_manager.handle_request(scope, receive, send)
