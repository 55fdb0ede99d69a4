"""One exception tree for dualtrace.

    DualtraceError
    ├── ConfigError                 bad settings, bad URL, unknown option
    │   └── SettingError            unknown setting name, or a value of the wrong type
    ├── ValidationError             bad input to a public call (also a ValueError)
    ├── StoreError                  the store failed or does not fit
    │   ├── NotFoundError           no such id for this user (also a KeyError)
    │   ├── SchemaError             the database was written by a newer or unknown schema
    │   ├── MigrationError          a migration could not be applied
    │   └── EmbedderMismatchError   the store's vectors came from another embedder
    ├── ProviderError               a model provider failed
    │   ├── EmbeddingError          an embedder failed or answered nonsense
    │   └── LLMError                an LLM failed
    │       ├── RateLimitedError
    │       ├── UnavailableError
    │       └── MalformedOutputError
    └── AccessError                 the HTTP service refused a request
        ├── AuthError               no API key, or an unknown or revoked one (401)
        ├── ForbiddenError          the key may not act for that user, or on that route (403)
        ├── PayloadTooLargeError    a body, message list or query over the limits (413)
        └── TooManyRequestsError    the key went over its rate limit (429)

Every message names what failed, the offending value and the fix.
"""

from __future__ import annotations


class DualtraceError(Exception):
    """Root of every error dualtrace raises on purpose."""


class ConfigError(DualtraceError):
    """A setting, URL or environment variable is invalid."""


class SettingError(ConfigError, TypeError):
    """A setting has an unknown name or a value of the wrong type ("false" for a bool).

    Also a TypeError, which is what Python raises for an unexpected keyword argument.
    """


class ValidationError(DualtraceError, ValueError):
    """A public call received bad input; nothing was stored."""


class StoreError(DualtraceError):
    """The store failed or does not fit this version of dualtrace."""


class NotFoundError(StoreError, KeyError):
    """No record with this id exists for this user."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class ConflictError(StoreError):
    """The change conflicts with what is stored (e.g. undoing an entry already undone)."""


class SchemaError(StoreError):
    """The database schema is unknown or newer than this code."""


class MigrationError(StoreError):
    """A schema migration failed; the database was left at the previous migration."""


class EmbedderMismatchError(StoreError):
    """The store was built with another embedder (id or dimension)."""


class ProviderError(DualtraceError):
    """A model provider (embedder or LLM) failed."""


class EmbeddingError(ProviderError):
    """An embedder failed or returned vectors of the wrong shape."""


class LLMError(ProviderError):
    """An LLM call failed."""


class RateLimitedError(LLMError):
    """The LLM endpoint asked us to slow down."""


class UnavailableError(LLMError):
    """The LLM endpoint could not be reached or answered with a server error."""


class MalformedOutputError(LLMError):
    """The LLM answered, but not in the shape we asked for."""


class AccessError(DualtraceError):
    """The HTTP service refused a request (see `dualtrace.server`)."""


class AuthError(AccessError):
    """The request carries no API key, or one that is unknown or revoked."""


class ForbiddenError(AccessError):
    """The API key may not act for the user named, or reach this route (admin only)."""


class PayloadTooLargeError(AccessError):
    """A request body, its list of messages or a query is over the service's limits."""


class TooManyRequestsError(AccessError):
    """The API key sent more requests than its rate limit allows; retry after a while."""

    def __init__(self, message: str, retry_after: float = 1.0) -> None:
        super().__init__(message)
        self.retry_after = retry_after
