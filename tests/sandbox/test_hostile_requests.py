"""What a hostile client can send the emulator, and what the service answers.

Raw sockets where the HTTP library would refuse to send it (a body that
never comes, an endless chunked upload, an unknown method, a control
character in a header); httpx otherwise. Every answer is problem+json with
``X-Request-ID`` and ``Cache-Control: no-store``, and none waits for what a
sender chooses to send.
"""

from __future__ import annotations

import socket
import time
from typing import Any
from urllib.parse import urlsplit

import httpx
import orjson
import pytest
from test_auth import ACCESS_KEYS, access_config

from conftest import KEYS, assert_problem, write
from dialkit.contract import MAX_BODY_BYTES
from dialkit.sandbox import Sandbox, parse_config, start

PHONE = "+442079460111"


def address(running: Sandbox) -> tuple[str, int]:
    url = urlsplit(running.base_url)
    assert url.hostname is not None and url.port is not None
    return url.hostname, url.port


def read_answer(connection: socket.socket, deadline: float = 5.0) -> tuple[int, dict[str, str],
                                                                            bytes]:
    """Read one HTTP/1.1 answer with a Content-Length: status, headers, body."""
    connection.settimeout(deadline)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        assert chunk, f"the connection closed before an answer: {data!r}"
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, v in
               (line.split(":", 1) for line in lines[1:])}
    while len(body) < int(headers["content-length"]):
        chunk = connection.recv(65536)
        assert chunk
        body += chunk
    return int(lines[0].split()[1]), headers, body


def exchange(running: Sandbox, request: bytes) -> tuple[int, dict[str, str], dict[str, Any]]:
    """Send raw bytes, read the answer, and check it is problem+json carrying the headers."""
    with socket.create_connection(address(running), timeout=5) as connection:
        connection.sendall(request)
        status, headers, body = read_answer(connection)
    assert headers["content-type"].startswith("application/problem+json"), (headers, body)
    assert headers["x-request-id"].startswith("req_")
    assert headers["cache-control"] == "no-store"
    problem: dict[str, Any] = orjson.loads(body)
    assert problem["status"] == status and problem["request_id"] == headers["x-request-id"]
    return status, headers, problem


# 9. Bodies over 1 MiB: refused at once, and not read on. -----------------------------------------

def test_a_declared_length_over_the_limit_is_refused_before_the_body(sandbox: Sandbox) -> None:
    started = time.monotonic()
    status, _, problem = exchange(sandbox, (
        "POST /v1/leads HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Content-Length: {2 * MAX_BODY_BYTES}\r\n\r\n").encode())
    assert (status, problem["code"]) == (413, "payload_too_large")
    assert time.monotonic() - started < 3


def test_an_endless_chunked_upload_is_cut_off_after_the_limit(sandbox: Sandbox) -> None:
    chunk = b"%x\r\n%s\r\n" % (65536, b" " * 65536)
    sent = 0
    with socket.create_connection(address(sandbox), timeout=5) as connection:
        connection.sendall(b"POST /v1/leads HTTP/1.1\r\nHost: x\r\nContent-Type: "
                           b"application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        connection.settimeout(0.05)
        started, answer = time.monotonic(), b""
        while not answer and time.monotonic() - started < 10:
            try:
                connection.sendall(chunk)
                sent += 65536
                answer = connection.recv(65536, socket.MSG_PEEK)
            except TimeoutError:
                continue
            except OSError:
                break
        connection.setblocking(True)
        status, headers, body = read_answer(connection)
    assert status == 413 and orjson.loads(body)["code"] == "payload_too_large"
    assert headers["x-request-id"].startswith("req_")
    assert sent < 8 * MAX_BODY_BYTES


def test_a_body_of_exactly_the_limit_is_read(api: httpx.Client) -> None:
    body = b'{"phone": "' + PHONE.encode() + b'", "notes": "' + b" " * MAX_BODY_BYTES
    body = body[:MAX_BODY_BYTES - 2] + b'"}'
    response = write(api, "/v1/leads", headers={"Content-Type": "application/json"},
                     content=body)
    assert response.status_code == 400 and response.json()["code"] != "payload_too_large"


# 10. A key is found in the decoded body, wherever it is. -----------------------------------------

ESCAPED = {
    "escaped underscore": KEYS["full"].replace("_", "\\u005f", 1),
    "every character escaped": "".join(f"\\u{ord(c):04x}" for c in KEYS["full"]),
    "escaped slash inside": KEYS["full"][:4] + "\\u0074" + KEYS["full"][5:],
}


@pytest.mark.parametrize("text", ESCAPED.values(), ids=ESCAPED.keys())
@pytest.mark.parametrize("where", ["value", "object key", "nested array"])
def test_a_json_escaped_key_is_refused(api: httpx.Client, text: str, where: str) -> None:
    body = {"value": '{"full_name": "svc %s"}', "object key": '{"%s": 1}',
            "nested array": '{"custom_fields": {"a": ["x", ["%s"]]}}'}[where] % text
    response = write(api, "/v1/leads", headers={"Content-Type": "application/json"},
                     content=body.encode())
    assert_problem(response, 400, "credential_in_body")


# 11. Protocol-level refusals are problem+json with the service's headers. ------------------------

def test_an_unknown_method_on_a_known_path_is_405(sandbox: Sandbox) -> None:
    status, headers, problem = exchange(
        sandbox, b"FOO /v1/campaigns HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
    assert (status, problem["code"]) == (405, "method_not_allowed")
    assert "GET" in headers["allow"]


OVERSIZE_OR_MALFORMED = {
    "100 KB query": (b"GET /v1/campaigns?" + b"a" * 100_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
                     "/url", "too_long"),
    "20 KB header": (b"GET /v1/campaigns HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 20_000
                     + b"\r\n\r\n", "/header", "too_long"),
    "70 KB header": (b"GET /v1/campaigns HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 70_000
                     + b"\r\n\r\n", "/header", "too_long"),
    "control character in a header": (b"GET /v1/campaigns HTTP/1.1\r\nHost: x\r\n"
                                      b"X-Note: a\x01b\r\n\r\n", "/header/x-note",
                                      "invalid_format"),
}


@pytest.mark.parametrize(("request_head", "pointer", "code"), OVERSIZE_OR_MALFORMED.values(),
                         ids=OVERSIZE_OR_MALFORMED)
def test_an_oversize_or_malformed_head_is_a_validation_failure(sandbox: Sandbox,
                                                               request_head: bytes, pointer: str,
                                                               code: str) -> None:
    status, _, problem = exchange(sandbox, request_head)
    assert (status, problem["code"]) == (400, "validation_failed")
    # The HTTP parser refuses some of these itself (without a pointer); the rest reach the
    # pipeline, which names the part.
    assert problem.get("errors", [{"pointer": pointer, "code": code}]) == [
        {"pointer": pointer, "code": code}]


def test_a_key_in_an_oversize_url_is_still_reported_as_exposed(sandbox: Sandbox) -> None:
    target = f"/v1/campaigns?api_key={KEYS['full']}&pad={'a' * 20_000}"
    status, _, problem = exchange(sandbox, f"GET {target} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    assert (status, problem["code"]) == (400, "credential_in_url")


@pytest.mark.parametrize("request_head", [
    b"GET /v1/campaigns HTTP/9\r\n\r\n",
    b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03\r\n\r\n",
    b"GET /v1/campaigns HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n",
    b"GET /v1/campaigns HTTP/1.1\r\nHost: x\r\n" + b"X-Slow: " + b"b" * 40_000,
], ids=["bad version", "TLS handshake", "space in a header name", "endless header"])
def test_a_request_the_parser_refuses_gets_a_problem(sandbox: Sandbox,
                                                     request_head: bytes) -> None:
    status, _, problem = exchange(sandbox, request_head)
    assert (status, problem["code"]) == (400, "validation_failed")


# 12. Per-field codes for depth and for numbers out of range. -------------------------------------

@pytest.mark.parametrize("levels", [21, 1_025, 10_000, 100_000])
def test_deep_nesting_is_too_deep_at_any_depth(api: httpx.Client, levels: int) -> None:
    body = b'{"phone": "' + PHONE.encode() + b'", "custom_fields": ' + b"[" * levels \
        + b"]" * levels + b"}"
    response = write(api, "/v1/leads", headers={"Content-Type": "application/json"},
                     content=body)
    problem = assert_problem(response, 400, "validation_failed")
    assert problem["errors"] == [{"pointer": "", "code": "too_deep"}]


def test_brackets_inside_strings_do_not_count_as_depth(api: httpx.Client) -> None:
    body = orjson.dumps({"phone": PHONE, "notes": "[" * 5000, "x": 1e308})[:-1] + b"0}"
    response = write(api, "/v1/leads", headers={"Content-Type": "application/json"},
                     content=body)
    problem = assert_problem(response, 400, "validation_failed")
    assert problem["errors"] == [{"pointer": "/x", "code": "out_of_range"}]


@pytest.mark.parametrize(("number", "pointer"), [
    (b"1e400", "/duration_minutes"),
    (b"-1e400", "/duration_minutes"),
    (b"9" * 400, "/duration_minutes"),
    (b"-" + b"9" * 5000, "/duration_minutes"),
])
def test_a_number_out_of_range_gets_its_own_code_at_its_pointer(api: httpx.Client,
                                                                number: bytes,
                                                                pointer: str) -> None:
    body = b'{"phone": "' + PHONE.encode() + b'", "a/b": [1, ' + number + \
        b'], "duration_minutes": ' + number + b"}"
    response = write(api, "/v1/appointments", headers={"Content-Type": "application/json"},
                     content=body)
    problem = assert_problem(response, 400, "validation_failed")
    assert problem["errors"] == [{"pointer": "/a~1b/1", "code": "out_of_range"},
                                 {"pointer": pointer, "code": "out_of_range"}]


@pytest.mark.parametrize("body", [b'{"phone": NaN}', b'{"phone": Infinity}', b'{"a": "\\ud800"}',
                                  b'{"a": 1', b"\xff\xfe"])
def test_other_undecodable_bodies_are_invalid_json(api: httpx.Client, body: bytes) -> None:
    response = write(api, "/v1/leads", headers={"Content-Type": "application/json"},
                     content=body)
    problem = assert_problem(response, 400, "validation_failed")
    assert problem["errors"] == [{"pointer": "", "code": "invalid_json"}]


# Beyond the review: the source address is the connection's, whatever a header says. ------------

def test_a_forwarded_for_header_does_not_pass_an_allow_list() -> None:
    headers = {"Authorization": f"Bearer {ACCESS_KEYS['client list']}",
               "X-Forwarded-For": "10.1.2.3", "Forwarded": "for=10.1.2.3"}
    with start(parse_config(access_config())) as running:
        response = httpx.get(running.base_url + "/v1/me", headers=headers)
    assert_problem(response, 403, "ip_not_allowed")


def test_a_request_whose_sender_left_before_its_body_is_not_handled(
        sandbox: Sandbox, api: httpx.Client) -> None:
    """A client killed after its request's head: its retry of the whole request under the
    same Idempotency-Key is handled afresh (the half request's empty body had been
    handled and stored under the key, and the retry refused as another request)."""
    body = orjson.dumps({"phone": PHONE})
    head = (f"POST /v1/dnc HTTP/1.1\r\nHost: emulator\r\nAuthorization: Bearer {KEYS['full']}"
            f"\r\nContent-Type: application/json\r\nIdempotency-Key: left-early\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode()
    with socket.create_connection(address(sandbox), timeout=5) as connection:
        connection.sendall(head)  # then the sender is gone, before its body
    time.sleep(0.3)  # the emulator sees the disconnect
    answer = write(api, "/v1/dnc", {"phone": PHONE}, key="left-early")
    assert answer.status_code == 201, answer.text
    assert "idempotency-replayed" not in answer.headers
