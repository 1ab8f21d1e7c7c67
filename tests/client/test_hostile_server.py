"""What a broken or hostile server can do to the client, and what the client does instead.

The emulator answers by the contract, so these servers are httpx transports
(and, where the socket matters, a raw socket server) that answer what a
misconfigured proxy or a hostile host would: absurd ``Retry-After`` values,
bodies that drip in or never end, success answers that are not the
contract's shape, echoed keys, cursors that loop. Each client gets a key of
its own, so the process-wide token buckets of other tests are not touched.
"""

from __future__ import annotations

import itertools
import logging
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest

from dialkit import Client
from dialkit.client._http._ratelimit import MAX_PAUSE_SECONDS
from dialkit.client._http._transport import MAX_ANSWER_BYTES, MAX_RETRY_AFTER_SECONDS
from dialkit.errors import (
    ApiError,
    ApiTimeoutError,
    MalformedResponseError,
    RateLimitError,
    ValidationError,
)

BASE_URL = "http://127.0.0.1:9"
CAMPAIGN = "cmp_00000000-0000-4000-8000-000000000001"
Handler = Callable[[httpx.Request], httpx.Response]
_keys = itertools.count()


def fresh_key() -> str:
    """A key no other test uses, so each test has a token bucket of its own."""
    return f"svc_test_hostile{next(_keys):04d}_AAAAbbbbCCCCddddEEEEffff{time.time_ns() % 9999:04d}"


def hostile(handler: Handler, *, key: str | None = None, **options: Any) -> Client:
    return Client(key or fresh_key(), base_url=BASE_URL, transport=httpx.MockTransport(handler),
                  **options)


def answer(status: int, body: Any, **headers: str) -> httpx.Response:
    content = body if isinstance(body, bytes) else orjson.dumps(body)
    return httpx.Response(status, content=content, headers={"X-Request-ID": "req_1", **headers})


def rate_limited(retry_after: str) -> httpx.Response:
    return answer(429, {"code": "rate_limit_exceeded", "detail": "Slow down."},
                  **{"Retry-After": retry_after})


ME = {"client": {"name": "full", "scopes": []}}


# 1. Retry-After: parsed defensively; the shared bucket's pause is capped; the deadline holds. -----

@pytest.mark.parametrize("value", ["999999", "1e12"])
def test_a_huge_retry_after_does_not_freeze_the_key(value: str) -> None:
    key = fresh_key()
    answers = iter([rate_limited(value)])
    with (
        hostile(lambda request: next(answers, answer(200, ME)), key=key, deadline=1.0) as first,
        pytest.raises(RateLimitError) as caught,
    ):
        first.me()
    assert caught.value.retry_after == MAX_RETRY_AFTER_SECONDS
    started = time.monotonic()
    with (
        hostile(lambda request: answer(200, ME), key=key, deadline=0.5) as second,
        pytest.raises(RateLimitError, match="deadline") as waited,
    ):
        second.me()
    assert time.monotonic() - started < 0.5
    assert waited.value.retry_after is not None
    assert 0 < waited.value.retry_after <= MAX_PAUSE_SECONDS + 1  # the pause, then one token


@pytest.mark.parametrize("value", ["inf", "1e309", "nan", "-5", "soon", "",
                                   "Wed, 21 Oct 2015 07:28:00"])
def test_an_absurd_retry_after_is_ignored(value: str) -> None:
    key = fresh_key()
    answers = iter([rate_limited(value)])
    handler = lambda request: next(answers, answer(200, ME))  # noqa: E731
    with hostile(handler, key=key, deadline=5.0) as client:
        started = time.monotonic()
        assert client.me()["client"]["name"] == "full"
        assert client.me()["client"]["name"] == "full"
    assert time.monotonic() - started < 2.0


def test_a_retry_after_date_in_the_past_means_now() -> None:
    answers = iter([rate_limited("Wed, 21 Oct 2015 07:28:00 GMT")])
    with hostile(lambda request: next(answers, answer(200, ME)), deadline=5.0) as client:
        started = time.monotonic()
        assert client.me()["client"]["name"] == "full"
    assert time.monotonic() - started < 2.0


def test_the_bucket_wait_never_passes_the_deadline() -> None:
    key = fresh_key()
    with hostile(lambda request: rate_limited("30"), key=key, deadline=60.0,
                 max_retries=0) as first, pytest.raises(RateLimitError):
        first.me()
    with hostile(lambda request: answer(200, ME), key=key, deadline=1.0) as second:
        started = time.monotonic()
        with pytest.raises(RateLimitError, match="nothing was sent") as caught:
            second.me()
    assert time.monotonic() - started < 1.0
    assert caught.value.retry_after is not None and 25 < caught.value.retry_after <= 31


# 2. The deadline bounds the whole call, the body included. ---------------------------------------

class Drip(httpx.SyncByteStream):
    """A body that never ends: one byte every ``interval`` seconds."""

    def __init__(self, interval: float) -> None:
        self.interval = interval

    def __iter__(self) -> Iterator[bytes]:
        while True:
            time.sleep(self.interval)
            yield b" "


@pytest.mark.parametrize("status", [200, 500])
def test_a_dripping_answer_ends_at_the_deadline(status: int) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(status, stream=Drip(0.05))

    with hostile(handler, timeout=3.0, deadline=0.6, max_retries=3) as client:
        started = time.monotonic()
        with pytest.raises(ApiTimeoutError, match="deadline"):
            client.me()
    assert time.monotonic() - started < 1.5


def test_a_dripping_recording_ends_at_the_deadline(tmp_path: Path) -> None:
    with hostile(lambda request: httpx.Response(200, stream=Drip(0.05)), deadline=0.6) as client:
        started = time.monotonic()
        with pytest.raises(ApiTimeoutError):
            client.calls.recording("call_00000000-0000-4000-8000-000000000001",
                                   tmp_path / "a.wav")
    assert time.monotonic() - started < 1.5
    assert list(tmp_path.iterdir()) == []


@pytest.fixture
def silent_server() -> Iterator[str]:
    """A socket server that sends a response's headers, then nothing, and never closes."""
    listener = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            held.append(connection)
            connection.recv(65536)
            connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n{")

    threading.Thread(target=serve, daemon=True).start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    listener.close()
    for connection in held:
        connection.close()


def test_the_deadline_cuts_a_per_read_timeout_short(silent_server: str) -> None:
    with Client(fresh_key(), base_url=silent_server, timeout=30.0, deadline=0.5,
                max_retries=2) as client:
        started = time.monotonic()
        with pytest.raises(ApiTimeoutError):
            client.me()
    assert time.monotonic() - started < 1.5


# 3. Malformed success answers raise MalformedResponseError, and a write is not retried. ---------

MALFORMED = {
    "truncated JSON": b'{"client": {"name": "fu',
    "HTML": b"<html><body>Bad gateway</body></html>",
    "null": b"null",
    "a number": b"5",
    "an array": b"[]",
    "empty": b"",
}


@pytest.mark.parametrize("body", MALFORMED.values(), ids=MALFORMED.keys())
def test_a_malformed_answer_to_a_read_is_an_api_error(body: bytes) -> None:
    with (
        hostile(lambda request: answer(200, body)) as client,
        pytest.raises(MalformedResponseError) as caught,
    ):
        client.campaigns.get(CAMPAIGN)
    error = caught.value
    assert isinstance(error, ApiError)
    assert (error.operation, error.status, error.request_id) == ("campaigns.get", 200, "req_1")
    assert "campaigns.get" in str(error) and "200" in str(error) and "req_1" in str(error)


@pytest.mark.parametrize("body", [b"[1, 2]", b"null", b'{"client": ', b"<html/>"],
                         ids=["array", "null", "truncated", "HTML"])
def test_a_malformed_answer_without_a_shown_shape_is_an_api_error(body: bytes) -> None:
    with (
        hostile(lambda request: answer(200, body)) as client,
        pytest.raises(MalformedResponseError, match="me"),
    ):
        client.me()


def test_a_wrongly_shaped_answer_names_the_field_but_not_its_value() -> None:
    secret_name = "Ada Lovelace, +14155550123"
    with (
        hostile(lambda request: answer(200, {"id": CAMPAIGN, "name": secret_name})) as client,
        pytest.raises(MalformedResponseError, match="shape") as caught,
    ):
        client.campaigns.get(CAMPAIGN)
    assert secret_name not in str(caught.value)


def test_a_malformed_answer_to_a_write_is_not_retried() -> None:
    sent: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return answer(200, b"<html>ok</html>")

    with hostile(handler, max_retries=5) as client, pytest.raises(MalformedResponseError) as caught:
        client.campaigns.pause(CAMPAIGN)
    assert len(sent) == 1
    assert caught.value.operation == "campaigns.pause"


@pytest.mark.parametrize("body", [{"data": "x", "page": {}}, {"data": [1], "page": {}},
                                  {"data": [], "page": {"has_more": "yes"}}, {"data": []}],
                         ids=["data not an array", "items not objects", "has_more not a bool",
                              "no page"])
def test_a_malformed_page_is_an_api_error_for_raw_and_typed_pages(body: Any) -> None:
    with (
        hostile(lambda request: answer(200, body)) as client,
        pytest.raises(MalformedResponseError, match="campaigns.list"),
    ):
        next(client.campaigns.list().raw_pages())
        with pytest.raises(MalformedResponseError, match="campaigns.list"):
            next(client.campaigns.list().pages())


def test_a_malformed_dnc_check_answer_is_an_api_error() -> None:
    with (
        hostile(lambda request: answer(200, {"data": [{"phone": 5}]})) as client,
        pytest.raises(MalformedResponseError, match="dnc.check"),
    ):
        client.dnc.check(["+14155550123"])


# 4. Every string taken from an answer is masked before it is stored or logged. ------------------

def test_an_echoed_key_is_masked_everywhere_in_an_error(caplog: pytest.LogCaptureFixture) -> None:
    key = fresh_key()
    problem = {"title": f"bad {key}", "code": key, "detail": f"you sent {key}",
               "request_id": key, "errors": [{"pointer": f"/{key}", "code": key}]}

    def handler(request: httpx.Request) -> httpx.Response:
        return answer(400, problem, **{"X-Request-ID": key, "ETag": key})

    caplog.set_level(logging.DEBUG, logger="dialkit")
    with hostile(handler, key=key) as client, pytest.raises(ValidationError) as caught:
        client.me()
    error = caught.value
    shown = [str(error), repr(error), repr(error.args), repr(error.errors), str(error.code),
             str(error.request_id), caplog.text]
    assert not [text for text in shown if key in text]
    assert error.errors and error.errors[0].pointer.endswith(key[-4:])


def test_an_echoed_key_in_the_headers_of_a_success_is_masked() -> None:
    key = fresh_key()
    with hostile(lambda request: answer(200, ME, **{"X-Request-ID": key}), key=key) as client:
        me = client.me()
    assert me.request_id is not None and key not in me.request_id


def test_a_huge_error_text_is_cut() -> None:
    with (
        hostile(lambda request: answer(400, {"detail": "x" * 500_000})) as client,
        pytest.raises(ValidationError) as caught,
    ):
        client.me()
    assert len(str(caught.value)) < 5_000


# 5. A list that would never end raises instead of looping. --------------------------------------

def test_a_repeated_cursor_raises() -> None:
    cursors = iter(["c1", "c2", "c1"])

    def handler(request: httpx.Request) -> httpx.Response:
        return answer(200, {"data": [], "page": {"next_cursor": next(cursors), "has_more": True}})

    with (
        hostile(handler) as client,
        pytest.raises(MalformedResponseError, match="next_cursor it had sent before"),
    ):
        list(client.campaigns.list())


def test_the_same_cursor_forever_raises_for_raw_pages() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return answer(200, {"data": [], "page": {"next_cursor": "again", "has_more": True}})

    with hostile(handler) as client, pytest.raises(MalformedResponseError, match="never end"):
        list(client.campaigns.list().raw_pages())


def test_endless_empty_pages_with_new_cursors_raise() -> None:
    counter = itertools.count()

    def handler(request: httpx.Request) -> httpx.Response:
        cursor = f"c{next(counter)}"
        return answer(200, {"data": [], "page": {"next_cursor": cursor, "has_more": True}})

    with (
        hostile(handler, rate_limit=None) as client,
        pytest.raises(MalformedResponseError, match="pages in a row without items"),
    ):
        list(client.campaigns.list().raw_pages())
    assert next(counter) < 200


# 6. Answers are capped in size; recordings are not. ---------------------------------------------

class Endless(httpx.SyncByteStream):
    """A body of 1 MiB chunks that counts how much of it was produced."""

    def __init__(self, total: int | None = None) -> None:
        self.total = total
        self.produced = 0

    def __iter__(self) -> Iterator[bytes]:
        chunk = b" " * (1 << 20)
        while self.total is None or self.produced < self.total:
            self.produced += len(chunk)
            yield chunk


def test_a_declared_huge_answer_is_refused_before_reading() -> None:
    body = Endless()
    huge = httpx.Response(200, stream=body, headers={"Content-Length": str(400 << 20)})
    with (
        hostile(lambda request: huge) as client,
        pytest.raises(MalformedResponseError, match="larger than"),
    ):
        client.me()
    assert body.produced == 0


@pytest.mark.parametrize("status", [200, 400], ids=["success", "error"])
def test_an_undeclared_endless_answer_is_cut_at_the_cap(status: int) -> None:
    body = Endless()
    with (
        hostile(lambda request: httpx.Response(status, stream=body)) as client,
        pytest.raises(MalformedResponseError, match="larger than"),
    ):
        client.me()
    assert body.produced <= MAX_ANSWER_BYTES + (1 << 20)


def test_a_recording_larger_than_the_cap_streams_to_disk(tmp_path: Path) -> None:
    size = MAX_ANSWER_BYTES + (2 << 20)
    with hostile(lambda request: httpx.Response(200, stream=Endless(size))) as client:
        client.calls.recording("call_00000000-0000-4000-8000-000000000001", tmp_path / "a.wav")
    assert (tmp_path / "a.wav").stat().st_size == size


@pytest.mark.parametrize("results", [
    [],
    [{"phone": "+14155550123", "listed": False}] * 2,
    [{"phone": "+14155550999", "listed": True}],
], ids=["none", "one too many", "another number"])
def test_dnc_results_that_do_not_match_the_numbers_sent_are_refused(results: Any) -> None:
    with (
        hostile(lambda request: answer(200, {"data": results})) as client,
        pytest.raises(MalformedResponseError, match="matched to its number"),
    ):
        client.dnc.check(["+14155550123"])


@pytest.mark.parametrize(("option", "value"), [
    ("timeout", 0), ("timeout", -1), ("timeout", float("nan")), ("timeout", float("inf")),
    ("deadline", 0), ("deadline", float("nan")),
])
def test_a_timeout_or_deadline_that_bounds_nothing_is_refused(option: str, value: float) -> None:
    with pytest.raises(ValueError, match=f"{option} is seconds"):
        Client(fresh_key(), base_url=BASE_URL, **{option: value})


def test_an_echoed_key_in_the_reason_phrase_is_masked_in_httpx_logs(
        caplog: pytest.LogCaptureFixture) -> None:
    key = fresh_key()

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=orjson.dumps(ME),
                              extensions={"reason_phrase": f"OK {key}".encode()})

    caplog.set_level(logging.INFO, logger="httpx")
    with hostile(handler, key=key) as client:
        client.me()
    assert "HTTP Request" in caplog.text and key[-4:] in caplog.text
    assert key not in caplog.text
