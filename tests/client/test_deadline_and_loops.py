"""Two ways a hostile server kept a call or a list running forever (issue 19, items 7 and 8).

A server on loopback that drips its status line and headers a byte at a time
never trips httpx's read timeout, which starts afresh on every byte: the
call's deadline must still end it. And a list whose every page carries a new
cursor but the items of the pages before never trips the repeated-cursor
rule: the items themselves must. Each client gets a key of its own, so the
process-wide token buckets of other tests are not touched.
"""

from __future__ import annotations

import itertools
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import orjson
import pytest

from dialkit import Client
from dialkit.client._http._pagination import MAX_REPEATED_PAGES
from dialkit.errors import ApiTimeoutError, MalformedResponseError

DRIP_SECONDS = 0.2
"""One byte this often: far inside any read timeout."""
DEADLINE = 1.5
BOUND = 6.0
"""Seconds a test waits for a call before it gives up on it (the old code never ended)."""
_keys = itertools.count()


def fresh_key() -> str:
    """A key no other test uses, so each test has a token bucket of its own."""
    return f"svc_test_drip{next(_keys):04d}_AAAAbbbbCCCCddddEEEEffff{time.time_ns() % 9999:04d}"


# 1. The deadline bounds the headers as well as the body. ----------------------------------------

class DripServer:
    """A socket server that answers each request with ``prefix`` at once, then one byte of
    ``drip`` (over and over) every :data:`DRIP_SECONDS`, until the client hangs up."""

    def __init__(self, prefix: bytes, drip: bytes) -> None:
        self.prefix, self.drip = prefix, drip
        self.stop = threading.Event()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.held: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.listener.getsockname()[1]}"

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            self.held.append(connection)
            threading.Thread(target=self._answer, args=(connection,), daemon=True).start()

    def _answer(self, connection: socket.socket) -> None:
        try:
            while connection.recv(65536):  # one request at a time, then the next
                connection.sendall(self.prefix)
                for byte in itertools.cycle(self.drip):
                    if self.stop.wait(DRIP_SECONDS):
                        return
                    connection.sendall(bytes([byte]))
        except OSError:
            return  # the client hung up: what the deadline should make it do

    def close(self) -> None:
        self.stop.set()
        self.listener.close()
        for connection in self.held:
            connection.close()


HEADERS_DRIP = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Padding: " + b"a" * 4000
BODY_PREFIX = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n"


@pytest.fixture
def drip_server() -> Iterator[Callable[[bytes, bytes], str]]:
    servers: list[DripServer] = []

    def start(prefix: bytes, drip: bytes) -> str:
        servers.append(DripServer(prefix, drip))
        return servers[-1].url

    yield start
    for server in servers:
        server.close()  # lets a call that outlived its bound end, so the run goes on


def bounded(call: Callable[[], Any]) -> tuple[BaseException | None, float]:
    """Run ``call`` in a thread for at most :data:`BOUND` seconds: (its error, seconds taken)."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        started = time.monotonic()
        try:
            call()
        except Exception as error:  # noqa: BLE001 - handed to the test to check
            outcome["error"] = error
        outcome["elapsed"] = time.monotonic() - started

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(BOUND)
    assert not worker.is_alive(), f"the call still ran after {BOUND} s (deadline {DEADLINE} s)"
    return outcome.get("error"), outcome["elapsed"]


@pytest.mark.parametrize(("prefix", "drip"), [(b"", HEADERS_DRIP), (BODY_PREFIX, b" ")],
                         ids=["status line and headers", "body"])
@pytest.mark.parametrize("timeout", [30.0, 1.0], ids=["long timeout", "timeout < deadline"])
def test_a_dripping_answer_over_a_socket_ends_at_the_deadline(
        drip_server: Callable[[bytes, bytes], str], prefix: bytes, drip: bytes,
        timeout: float) -> None:
    url = drip_server(prefix, drip)
    with Client(fresh_key(), base_url=url, timeout=timeout, deadline=DEADLINE,
                max_retries=3) as client:
        error, elapsed = bounded(client.me)
    assert isinstance(error, ApiTimeoutError)
    assert "deadline of 1.5 s" in str(error) and "deadline=" in str(error)
    assert elapsed < DEADLINE + 1.5


def test_the_deadline_spans_retries_with_dripping_headers(
        drip_server: Callable[[bytes, bytes], str]) -> None:
    """The first attempt is refused at once (503); the retry's headers drip."""
    url = drip_server(b"", HEADERS_DRIP)
    answers = iter([httpx.Response(503, json={"code": "temporarily_unavailable"},
                                   headers={"Retry-After": "0"})])

    class FirstRefused(httpx.HTTPTransport):
        def handle_request(self, request: httpx.Request) -> httpx.Response:
            first = next(answers, None)
            return first if first is not None else super().handle_request(request)

    with Client(fresh_key(), base_url=url, deadline=DEADLINE, transport=FirstRefused()) as client:
        error, elapsed = bounded(client.me)
    assert isinstance(error, ApiTimeoutError)
    assert elapsed < DEADLINE + 1.5


def test_a_call_on_a_reused_connection_has_its_own_deadline(
        drip_server: Callable[[bytes, bytes], str]) -> None:
    body = orjson.dumps({"client": {"name": "full", "scopes": []}})
    answer = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
    url = drip_server(answer % (len(body), body), b"")
    with Client(fresh_key(), base_url=url, deadline=0.3) as client:
        assert client.me()["client"]["name"] == "full"
        time.sleep(0.4)  # past the first call's deadline, on purpose
        assert client.me()["client"]["name"] == "full"


# 2. A list of new cursors over the same items ends in an error. ---------------------------------

def call(n: int) -> dict[str, Any]:
    """A call record of the contract's shape, its id made from ``n``."""
    return {
        "id": f"call_00000000-0000-4000-8000-{n:012d}", "direction": "outbound",
        "from_number": "+14155550100", "to_number": "+14155550123", "status": "completed",
        "created_at": "2025-03-01T15:00:00Z", "answered_at": None, "ended_at": None,
        "duration_seconds": None, "campaign_id": None, "disposition": None, "hangup_cause": None,
    }


GIVE_UP = 200
"""Pages after which the hostile list ends by itself, so that the old code ended too."""


def looping(pages: Callable[[int], list[dict[str, Any]]]) -> tuple[Client, list[int]]:
    """A client whose lists answer ``pages(n)`` for page n, under a new cursor every time."""
    served: list[int] = []

    def handler(request: httpx.Request) -> httpx.Response:
        served.append(len(served))
        more = len(served) < GIVE_UP
        body = {"data": pages(len(served) - 1),
                "page": {"next_cursor": f"c{len(served)}" if more else None, "has_more": more}}
        return httpx.Response(200, content=orjson.dumps(body))

    client = Client(fresh_key(), base_url="http://127.0.0.1:9", rate_limit=None,
                    transport=httpx.MockTransport(handler))
    return client, served


def same_items(page: int) -> list[dict[str, Any]]:
    return [call(1), call(2)]


LOADS: dict[str, Callable[[Client], object]] = {
    "calls.list()": lambda client: list(client.calls.list()),
    "raw_pages()": lambda client: list(client.calls.list().raw_pages()),
    "frames.calls()": lambda client: client.frames.calls(progress=False),
}


@pytest.mark.parametrize("load", LOADS.values(), ids=LOADS.keys())
def test_new_cursors_over_the_same_items_raise(load: Callable[[Client], object]) -> None:
    client, served = looping(same_items)
    with client, pytest.raises(MalformedResponseError, match="would never end") as caught:
        load(client)
    assert len(served) == 1 + MAX_REPEATED_PAGES
    assert "calls.list" in str(caught.value) and "complete up to page 1" in str(caught.value)


def test_pages_cycling_through_the_same_items_raise() -> None:
    client, served = looping(lambda page: [call(page % 3)])
    with client, pytest.raises(MalformedResponseError, match="would never end"):
        list(client.calls.list())
    assert len(served) == 3 + MAX_REPEATED_PAGES


def shifting(page: int) -> list[dict[str, Any]]:
    """Items shifted by inserts at the head: each page repeats the last item of the page
    before, and a burst of inserts repeats page 1 whole a few times, but the list moves on."""
    if 2 <= page < 2 + MAX_REPEATED_PAGES - 1:
        page = 1
    return [call(2 * page), call(2 * page + 1), call(2 * page + 2)]


def test_a_list_whose_items_shift_between_pages_is_read_whole() -> None:
    client, served = looping(shifting)
    with client:
        calls = list(itertools.islice(client.calls.list(), 60))
    assert len(calls) == 60 and len(served) == 20


def test_empty_pages_between_repeated_ones_do_not_hide_the_loop() -> None:
    client, served = looping(lambda page: [call(1)] if page % 2 else [])
    with client, pytest.raises(MalformedResponseError, match="would never end"):
        list(client.calls.list())
    assert len(served) < 4 * MAX_REPEATED_PAGES
