"""What a sender may take of the receiver's server (issue 46, item 15): a request head is
bounded in size, a request in time, and connections in number, on both of uvicorn's
HTTP protocols. Real sockets over loopback, the limits made small to keep the tests fast.

Issue 62, item 7: the head is counted as it arrives, whatever the read size; a 100 KB
head sent with one ``sendall`` reached the receiver, which stored its event.
"""

from __future__ import annotations

import re
import select
import socket
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from uvicorn.protocols.http.h11_impl import H11Protocol
from webhook_servers import delivery, envelope, serve

from dialkit._utils._net import MAX_HEAD_BYTES, ServerLimits
from dialkit.webhooks import Receiver, events_frame

SECRET = "whsec_limits_0123456789abcdef"
LIMITS = ServerLimits(request_timeout=1.0, max_connections=6)
HALF_HEAD = b"POST /hooks/dialer HTTP/1.1\r\nHost: receiver\r\n"
"""A request head that never ends: a slowloris sends this, then a byte now and then."""


def _protocols() -> list[object]:
    httptools = pytest.importorskip("uvicorn.protocols.http.httptools_impl")
    return [pytest.param(H11Protocol, id="h11"),
            pytest.param(httptools.HttpToolsProtocol, id="httptools")]


PROTOCOLS = _protocols()


def connect(url: str) -> socket.socket:
    parts = urlsplit(url)
    sock = socket.create_connection((parts.hostname, parts.port))
    sock.settimeout(5)
    return sock


def answer_within(sock: socket.socket, seconds: float) -> tuple[bytes, float]:
    """What the server sent back (``b""``: it closed without a word) and how soon."""
    started = time.monotonic()
    sock.settimeout(seconds)
    try:
        answer = sock.recv(4096)
    except TimeoutError:
        answer = b"(no answer)"
    except ConnectionResetError:
        answer = b""
    return answer, time.monotonic() - started


def dribble_until_closed(socks: list[socket.socket], seconds: float) -> list[float]:
    """Send each socket a header byte every 0.2 s until the server closes it; when each
    was closed (``inf``: never, within ``seconds``)."""
    started, closed = time.monotonic(), [float("inf")] * len(socks)
    while any(t == float("inf") for t in closed) and time.monotonic() - started < seconds:
        open_ = [s for s, t in zip(socks, closed, strict=True) if t == float("inf")]
        for sock in open_:
            try:
                sock.sendall(b"a")
            except OSError:
                closed[socks.index(sock)] = time.monotonic() - started
        readable, _, _ = select.select(open_, [], [], 0.2)
        for sock in readable:
            if closed[socks.index(sock)] == float("inf"):
                answer, _ = answer_within(sock, 1)
                assert answer == b"" or answer.startswith(b"HTTP/1.1 408 "), answer
                closed[socks.index(sock)] = time.monotonic() - started
    return closed


def post_delivery(url: str) -> httpx.Response:
    body, headers = delivery(envelope(), SECRET, int(time.time()))
    return httpx.post(url, content=body, headers=headers, timeout=5)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_huge_request_head_is_refused_at_once(protocol: type, tmp_path: Path) -> None:
    receiver = Receiver(tmp_path / "events.sqlite", SECRET)
    with serve(receiver, limits=LIMITS, http=protocol) as url, connect(url) as sock:
        sock.sendall(HALF_HEAD + b"X-Padding: " + b"a" * 40_000)
        answer, took = answer_within(sock, 5)
        assert answer.split(b" ")[1] in (b"431", b"400"), answer
        assert took < 0.5
        assert post_delivery(url).status_code == 200
    receiver.close()


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_slow_sender_is_closed_after_the_timeout_and_deliveries_pass_meanwhile(
        protocol: type, tmp_path: Path) -> None:
    receiver = Receiver(tmp_path / "events.sqlite", SECRET)
    with serve(receiver, limits=LIMITS, http=protocol) as url:
        slow = [connect(url) for _ in range(4)]
        for sock in slow:
            sock.sendall(HALF_HEAD)
        started = time.monotonic()
        assert post_delivery(url).status_code == 200
        assert time.monotonic() - started < 0.5
        closed = dribble_until_closed(slow, seconds=4)
        assert all(0.5 < t < 2.5 for t in closed), closed
        for sock in slow:
            sock.close()
    assert len(events_frame(tmp_path / "events.sqlite")) == 1
    receiver.close()


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_connection_over_the_cap_is_refused_at_once(protocol: type, tmp_path: Path) -> None:
    receiver = Receiver(tmp_path / "events.sqlite", SECRET)
    with serve(receiver, limits=LIMITS, http=protocol) as url:
        idle = [connect(url) for _ in range(LIMITS.max_connections)]
        time.sleep(0.2)  # accepted, each waiting for its request
        with connect(url) as extra:
            answer, took = answer_within(extra, 2)
        assert answer.startswith(b"HTTP/1.1 503 ") and took < 0.5, (answer, took)
        assert [answer_within(sock, 2)[0] for sock in idle] == [b""] * len(idle)  # closed
        assert post_delivery(url).status_code == 200  # the idle ones closed: room again
        for sock in idle:
            sock.close()
    receiver.close()


@pytest.mark.parametrize("field", ["request_timeout", "max_head_bytes", "max_connections",
                                   "keep_alive"])
def test_a_limit_that_is_not_positive_is_refused_by_name(field: str) -> None:
    with pytest.raises(ValueError, match=f"{field}=0: pass a number above 0"):
        ServerLimits(**{field: 0})


def signed_request(head_bytes: int) -> bytes:
    """A signed delivery whose head (request line to blank line) is ``head_bytes`` long,
    padded by one header."""
    body, headers = delivery(envelope(), SECRET, int(time.time()))
    head = HALF_HEAD + b"".join(f"{name}: {value}\r\n".encode() for name, value in
                                [*headers.items(), ("Content-Length", len(body))])
    padding = head_bytes - len(head) - len(b"X-Padding: \r\n\r\n")
    return head + b"X-Padding: " + b"a" * padding + b"\r\n\r\n" + body


def send_and_read(url: str, pieces: list[bytes], answers_expected: int) -> bytes:
    """Send ``pieces`` (each with one ``sendall``) and read until the server closes, or
    is silent for 0.3 s once it sent the answers expected (5 s before)."""
    answers = b""
    with connect(url) as sock:
        try:
            for piece in pieces:
                sock.sendall(piece)
        except OSError:  # refused and closed while sending
            pass
        while (more := answer_within(
                sock, 0.3 if len(statuses(answers)) >= answers_expected else 5)[0]) not in (
                b"", b"(no answer)"):
            answers += more
    return answers


def statuses(answers: bytes) -> list[int]:
    return [int(status) for status in re.findall(rb"HTTP/1\.1 (\d{3}) ", answers)]


def in_pieces(request: bytes, size: int = 4096) -> list[bytes]:
    return [request[i:i + size] for i in range(0, len(request), size)]


def behind(first: bytes, second: bytes, at: int) -> list[bytes]:
    """``first`` and ``second``'s first ``at`` bytes in one read, the rest in another: the
    second head is refused while the first request may still be answered."""
    return [first + second[:at], second[at:]]


SENDINGS = {
    "100 KB head in one read": (lambda: [signed_request(100_000)], [431]),
    "100 KB head in pieces": (lambda: in_pieces(signed_request(100_000)), [431]),
    "one byte over in one read": (lambda: [signed_request(MAX_HEAD_BYTES + 1)], [431]),
    "at the limit in one read": (lambda: [signed_request(MAX_HEAD_BYTES)], [200]),
    "at the limit in pieces": (lambda: in_pieces(signed_request(MAX_HEAD_BYTES)), [200]),
    "two requests in one read, the second's head 100 KB": (
        lambda: [signed_request(500) + signed_request(100_000)], [200, 431]),
    "a 100 KB head begun behind another, ended in a second read": (
        lambda: behind(signed_request(500), signed_request(100_000), 40_000), [200, 431]),
    "a head at the limit behind another in one read": (
        lambda: [signed_request(500) + signed_request(MAX_HEAD_BYTES)], [200, 200]),
}


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize(("send", "expected"), SENDINGS.values(), ids=SENDINGS)
def test_a_head_is_counted_as_it_arrives_and_refused_before_the_receiver_runs(
        protocol: type, send: Any, expected: list[int], tmp_path: Path) -> None:
    """Refused: 431 and the connection closed, no event stored; within the limit: served."""
    receiver = Receiver(tmp_path / "events.sqlite", SECRET)
    with serve(receiver, limits=LIMITS, http=protocol) as url:
        answers = send_and_read(url, send(), len(expected))
    receiver.close()
    assert statuses(answers) == expected, answers[:300]
    assert len(events_frame(tmp_path / "events.sqlite")) == expected.count(200)
