"""The HTTP protocol the emulator speaks: uvicorn's, with its own refusals as problem+json.

uvicorn answers a request it cannot parse (a malformed request line, a bad
header, a head that never ends) with a plain text ``400 Invalid HTTP request
received.``, before any application code runs. The service answers every
request with ``X-Request-ID``, ``Cache-Control: no-store`` and problem+json, so
these protocols send that 400 as a ``validation_failed`` problem instead.

The fast httptools parser knows a fixed list of methods and refuses any
other; the service answers an unknown method on a known path with 405 and
``Allow``. So a connection whose request starts with a method httptools does
not know is handed, with the bytes received, to uvicorn's h11 protocol, which
passes any method token to the application, as uvicorn itself hands a
connection over for a WebSocket upgrade. Every other request keeps the speed
of httptools (h11 for everything costs about 15% of list throughput).
"""

from __future__ import annotations

import re
import sys

import h11
import httptools
from ulid import ULID
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from dialkit.contract import ErrorCode

from ._problems import ApiProblem, render

_UNKNOWN_METHOD = re.compile(rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+ ")
"""A request line's method token and its space: what h11 can take on."""



def _refusal(docs_base: str) -> tuple[list[tuple[bytes, bytes]], bytes]:
    """Headers and body of the 400 problem for a request the parser refused."""
    problem = ApiProblem(
        ErrorCode.VALIDATION_FAILED,
        "The request is not valid HTTP/1.1: its request line or headers are malformed.")
    request_id = f"req_{ULID()}"
    status, headers, body = render(problem, request_id, docs_base)
    assert status == 400
    sent = [(b"connection", b"close"), (b"content-length", str(len(body)).encode()),
            (b"x-request-id", request_id.encode()), (b"cache-control", b"no-store"),
            *((k.encode(), v.encode()) for k, v in headers.items())]
    return sent, body


class _RefusesLongHead:
    """A head over the servers' limit (counted by :class:`dialkit._utils._net.RequestDeadline`
    before it is parsed) refused as any other malformed head: a problem+json 400."""

    def send_400_response(self, msg: str) -> None:
        raise NotImplementedError

    def refuse_long_head(self) -> None:
        self.send_400_response("The request head is too long.")


class ProblemH11Protocol(_RefusesLongHead, H11Protocol):
    """uvicorn's h11 protocol whose own refusals are problem+json with a request id."""

    docs_base = ""
    """Where problem types point: set by :func:`protocol_for`."""

    def send_400_response(self, msg: str) -> None:
        headers, body = _refusal(self.docs_base)
        for event in (h11.Response(status_code=400, headers=headers), h11.Data(data=body),
                      h11.EndOfMessage()):
            self.transport.write(self.conn.send(event) or b"")
        self.transport.close()


class ProblemHttpToolsProtocol(_RefusesLongHead, HttpToolsProtocol):
    """uvicorn's httptools protocol, refusing with problem+json, and handing a request
    with a method it does not know to :class:`ProblemH11Protocol`."""

    docs_base = ""
    h11_protocol: type[ProblemH11Protocol] = ProblemH11Protocol
    _received = b""

    def data_received(self, data: bytes) -> None:
        self._received = data
        super().data_received(data)

    def send_400_response(self, msg: str) -> None:
        refused = sys.exc_info()[1]  # called from uvicorn's handler of the parser's error
        if (isinstance(refused, httptools.HttpParserInvalidMethodError)
                and _UNKNOWN_METHOD.match(self._received)):
            self._hand_over(self._received)
            return
        headers, body = _refusal(self.docs_base)
        head = b"".join(name + b": " + value + b"\r\n" for name, value in headers)
        self.transport.write(b"HTTP/1.1 400 Bad Request\r\n" + head + b"\r\n" + body)
        self.transport.close()

    def _hand_over(self, data: bytes) -> None:
        """Let the h11 protocol serve this connection from the request's first byte."""
        self.connections.discard(self)
        protocol = self.h11_protocol(config=self.config, server_state=self.server_state,
                                     app_state=self.app_state)
        protocol.connection_made(self.transport)
        self.transport.set_protocol(protocol)
        protocol.data_received(data)


def protocol_for(docs_base: str) -> type[ProblemHttpToolsProtocol]:
    """The protocol class for a service whose problem types point at ``docs_base``."""
    h11_protocol = type("ServiceH11Protocol", (ProblemH11Protocol,), {"docs_base": docs_base})
    return type("ServiceHttpToolsProtocol", (ProblemHttpToolsProtocol,),
                {"docs_base": docs_base, "h11_protocol": h11_protocol})
