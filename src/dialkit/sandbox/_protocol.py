"""The HTTP protocol the emulator speaks: uvicorn's h11, with refusals as problem+json.

uvicorn answers a request it cannot parse (a request head over 16 KiB, a
control character in a header, a malformed request line) with its own plain
text ``400 Invalid HTTP request received.``, before any application code runs.
The service answers every request with ``X-Request-ID``, ``Cache-Control:
no-store`` and problem+json, so this protocol sends that 400 as a
``validation_failed`` problem instead. h11 rather than httptools because h11
passes any method token to the application, so an unknown method on a known
path gets the pipeline's 405 with ``Allow``, as the contract's other methods do.
"""

from __future__ import annotations

import h11
from ulid import ULID
from uvicorn.protocols.http.h11_impl import H11Protocol

from dialkit.contract import ErrorCode

from ._problems import ApiProblem, render


class ProblemH11Protocol(H11Protocol):
    """uvicorn's h11 protocol whose own refusals are problem+json with a request id."""

    docs_base = ""
    """Where problem types point: set by :func:`protocol_for`."""

    def send_400_response(self, msg: str) -> None:
        problem = ApiProblem(
            ErrorCode.VALIDATION_FAILED,
            "The request is not valid HTTP/1.1: its request line or headers are malformed "
            "or longer than 16 KiB in all (a query string that long belongs in a body).")
        request_id = f"req_{ULID()}"
        status, headers, body = render(problem, request_id, self.docs_base)
        sent = [(b"connection", b"close"), (b"content-length", str(len(body)).encode()),
                (b"x-request-id", request_id.encode()), (b"cache-control", b"no-store"),
                *((k.encode(), v.encode()) for k, v in headers.items())]
        for event in (h11.Response(status_code=status, headers=sent), h11.Data(data=body),
                      h11.EndOfMessage()):
            self.transport.write(self.conn.send(event) or b"")
        self.transport.close()


def protocol_for(docs_base: str) -> type[ProblemH11Protocol]:
    """The protocol class for a service whose problem types point at ``docs_base``."""
    return type("ServiceH11Protocol", (ProblemH11Protocol,), {"docs_base": docs_base})
