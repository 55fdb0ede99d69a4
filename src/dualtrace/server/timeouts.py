"""Dropping slow and idle connections: uvicorn's HTTP/1.1 protocol with a read deadline.

uvicorn closes a connection idle between requests (`timeout_keep_alive`), but waits forever
for a request that never arrives: a client that connects and sends nothing, sends its
headers a byte at a time, or stops half-way through a body holds a connection and its
memory for as long as it likes. Here a request's head and body must arrive within
`read_timeout` seconds of its first byte (or of the connection); one that does not gets
408 (if nothing was answered yet) and the connection is closed.
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.h11_impl import H11Protocol

_TIMEOUT_RESPONSE = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
    b"connection: close\r\ncontent-length: %d\r\n\r\n%s"
)
_TIMEOUT_BODY = (
    b'{"error": {"type": "RequestTimeout", "message": "the request did not arrive within '
    b'%d seconds; send it whole, at once"}}'
)


def read_deadline_protocol(read_timeout: float) -> type[H11Protocol]:
    """An H11Protocol that drops a connection whose request takes over `read_timeout`
    seconds to arrive (head and body)."""

    class ReadDeadlineProtocol(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            if self._deadline is None and self._between_requests():
                self._arm()  # the first byte of the next request on a kept-alive connection
            super().data_received(data)
            if self.cycle is not None and not self.cycle.more_body:
                self._disarm()  # the request is in; answering it may take its time

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _between_requests(self) -> bool:
            return self.cycle is None or self.cycle.response_complete

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(read_timeout, self._expired)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expired(self) -> None:
            self._deadline = None
            if self.transport.is_closing():
                return
            if self.cycle is None or not self.cycle.response_started:
                body = _TIMEOUT_BODY % round(read_timeout)
                self.transport.write(_TIMEOUT_RESPONSE % (len(body), body))
            self.transport.close()

    return ReadDeadlineProtocol
