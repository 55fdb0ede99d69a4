"""The one place the service turns errors into HTTP answers: `{"error": {"type", "message",
"field"?}}` with a status drawn from the `DualtraceError` tree. A bad request is never a
500: FastAPI's own validation errors, malformed JSON and unknown routes get the same shape.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from dualtrace.errors import (
    AuthError,
    ConflictError,
    DualtraceError,
    ForbiddenError,
    NotFoundError,
    PayloadTooLargeError,
    ProviderError,
    TooManyRequestsError,
    ValidationError,
)

log = logging.getLogger(__name__)

# Most specific first.
STATUSES: tuple[tuple[type[BaseException], int], ...] = (
    (AuthError, 401),
    (ForbiddenError, 403),
    (NotFoundError, 404),
    (ConflictError, 409),
    (PayloadTooLargeError, 413),
    (ValidationError, 422),
    (TooManyRequestsError, 429),
    (ProviderError, 503),
    (DualtraceError, 500),
)


def status_of(exc: BaseException) -> int:
    """The HTTP status of a dualtrace error (500: the server's fault, e.g. a store error)."""
    return next((code for cls, code in STATUSES if isinstance(exc, cls)), 500)


def error_response(
    status: int,
    kind: str,
    message: str,
    field: str | None = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    body: dict[str, Any] = {"type": kind, "message": message}
    if field is not None:
        body["field"] = field
    return JSONResponse({"error": body}, status_code=status, headers=headers)


def _dualtrace(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, DualtraceError)
    status = status_of(exc)
    headers = None
    if isinstance(exc, TooManyRequestsError):
        headers = {"Retry-After": str(max(1, round(exc.retry_after)))}
    if isinstance(exc, AuthError):
        headers = {"WWW-Authenticate": "Bearer"}
    if status >= 500:  # the type only: messages may quote stored text
        log.error("request failed: %s", type(exc).__name__)
    return error_response(status, type(exc).__name__, str(exc), headers=headers)


def _validation(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = exc.errors()
    first = errors[0] if errors else {}
    loc = [str(p) for p in first.get("loc", ())]
    if loc and loc[0] in _PLACES:  # where it was sent, not a name (a field may be "query")
        loc = loc[1:]
    field = ".".join(loc) or None
    if first.get("type") == "json_invalid":
        return error_response(400, "BadRequest", "the body is not valid JSON; send a JSON object")
    message = f"{field or 'request'}: {_said(first)}"
    if len(errors) > 1:
        message += f" (and {len(errors) - 1} more)"
    return error_response(422, "ValidationError", message, field)


_PLACES = ("body", "query", "path", "header", "cookie")


def _said(error: Any) -> str:
    """pydantic's message in the service's words: lower case, "field required"."""
    if error.get("type") == "missing":
        return "field required"
    message = str(error.get("msg", "invalid"))
    return message[:1].lower() + message[1:]


def _http(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    kinds = {404: "NotFound", 405: "MethodNotAllowed", 400: "BadRequest"}
    return error_response(
        exc.status_code,
        kinds.get(exc.status_code, "HTTPError"),
        str(exc.detail),
        headers=dict(exc.headers or {}),
    )


def internal_error(exc: BaseException) -> JSONResponse:
    """The answer to an error no handler knows: a bug, logged with its traceback."""
    log.error("unexpected error: %s", type(exc).__name__, exc_info=exc)
    return error_response(
        500,
        "InternalError",
        f"{type(exc).__name__} (a bug in dualtrace; please report it with the request)",
    )


def _internal(_request: Request, exc: Exception) -> JSONResponse:
    return internal_error(exc)


def install(app: FastAPI) -> None:
    """Register the handlers on the app."""
    app.add_exception_handler(DualtraceError, _dualtrace)
    app.add_exception_handler(RequestValidationError, _validation)
    app.add_exception_handler(HTTPException, _http)
    app.add_exception_handler(Exception, _internal)
