"""The contract's conventions over HTTP: bodies, media types, unknown fields, routing,
the headers every answer carries, the problem+json shape and ``X-Correlation-ID``.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any

import httpx
import orjson
import pytest
from test_auth import campaign_in

from conftest import KEYS, assert_problem, write
from dialkit.contract import MAX_BODY_BYTES, MAX_JSON_DEPTH
from dialkit.sandbox import Sandbox

REQUEST_ID = re.compile(r"^req_[0-9A-HJKMNP-TV-Z]{26}$")
PROBLEM_KEYS = {"type", "title", "status", "detail", "instance", "code", "request_id"}
DOCS_BASE = "https://docs.example.invalid"


def pause_path(api: httpx.Client) -> str:
    """The pause path of a running campaign (pausing it succeeds)."""
    return f"/v1/campaigns/{campaign_in(api, 'running')}/pause"


def nested(depth: int) -> Any:
    """A JSON object ``{"a": {"a": ... {}}}`` nested ``depth`` levels (``{}`` is depth 1)."""
    value: Any = {}
    for _ in range(depth - 1):
        value = {"a": value}
    return value


def field_errors(response: httpx.Response) -> list[tuple[str, str]]:
    """``(pointer, code)`` of each entry of a 400 ``validation_failed`` answer."""
    body = assert_problem(response, 400, "validation_failed")
    return [(e["pointer"], e["code"]) for e in body["errors"]]


# Bodies: media type, size, JSON and its depth.

@pytest.mark.parametrize("content_type", ["text/plain", "application/xml", None])
def test_non_json_body_is_refused(api: httpx.Client, content_type: str | None) -> None:
    headers = {"Idempotency-Key": "k1"} | ({} if content_type is None
                                            else {"Content-Type": content_type})
    response = api.post(pause_path(api), content=b"{}", headers=headers)
    assert_problem(response, 415, "unsupported_media_type")


@pytest.mark.parametrize("content_type", ["application/json; charset=utf-8", "Application/JSON"])
def test_json_media_type_with_parameters_or_case_is_accepted(api: httpx.Client,
                                                             content_type: str) -> None:
    response = api.post(pause_path(api), content=b"{}",
                        headers={"Idempotency-Key": "k1", "Content-Type": content_type})
    assert response.status_code == 200, response.text


def padded_body(size: int) -> bytes:
    """A JSON object ``{"a": "xxx…"}`` of exactly ``size`` bytes."""
    body = b'{"a":"' + b"x" * (size - 8) + b'"}'
    assert len(body) == size
    return body


def test_body_over_one_mib_is_refused(api: httpx.Client) -> None:
    response = api.post(pause_path(api), content=padded_body(MAX_BODY_BYTES + 1),
                        headers={"Idempotency-Key": "k1", "Content-Type": "application/json"})
    assert_problem(response, 413, "payload_too_large")


def test_body_of_exactly_one_mib_is_read(api: httpx.Client) -> None:
    response = api.post(pause_path(api), content=padded_body(MAX_BODY_BYTES),
                        headers={"Idempotency-Key": "k1", "Content-Type": "application/json"})
    assert field_errors(response) == [("/a", "unknown_field")]


def test_json_nested_deeper_than_limit_is_refused(api: httpx.Client) -> None:
    response = write(api, pause_path(api), nested(MAX_JSON_DEPTH + 1))
    assert field_errors(response) == [("", "too_deep")]


def test_json_nested_exactly_to_limit_reaches_the_operation(api: httpx.Client) -> None:
    response = write(api, pause_path(api), nested(MAX_JSON_DEPTH))
    assert field_errors(response) == [("/a", "unknown_field")]


@pytest.mark.parametrize("body", [b'{"a": ', b"{'a': 1}", b"\xff\xfe{}", b"{} {}"],
                         ids=["truncated", "single quotes", "not utf-8", "two documents"])
def test_invalid_json_is_refused(api: httpx.Client, body: bytes) -> None:
    response = api.post(pause_path(api), content=body,
                        headers={"Idempotency-Key": "k1", "Content-Type": "application/json"})
    assert field_errors(response)[0][0] == ""


# Unknown query parameters and body fields.

@pytest.mark.parametrize("path", ["/v1/me", "/v1/campaigns", "/v1/campaigns/x"])
def test_unknown_query_parameter_is_refused(api: httpx.Client, path: str) -> None:
    response = api.get(path, params={"colour": "red"})
    assert field_errors(response) == [("/query/colour", "unknown_field")]


def test_unknown_body_field_is_refused(api: httpx.Client) -> None:
    path = pause_path(api)
    assert field_errors(write(api, path, {"reason": "lunch"})) == [("/reason", "unknown_field")]
    assert api.get(path.removesuffix("/pause")).json()["status"] == "running"


# Routing.

@pytest.mark.parametrize("path", ["/v1/nope", "/v1", "/v1/me/", "/v1/campaigns/x/stop", "/nope"])
def test_unknown_path_is_route_not_available(api: httpx.Client, path: str) -> None:
    assert_problem(api.get(path), 404, "route_not_available")


@pytest.mark.parametrize(("method", "path", "allow"), [
    ("DELETE", "/v1/me", {"GET"}),
    ("POST", "/v1/me", {"GET"}),
    ("PUT", "/v1/campaigns", {"GET"}),
    ("GET", "/v1/campaigns/x/pause", {"POST"}),
])
def test_known_path_with_other_method_lists_allowed_methods(
        api: httpx.Client, method: str, path: str, allow: set[str]) -> None:
    response = api.request(method, path)
    assert_problem(response, 405, "method_not_allowed")
    assert {m.strip() for m in response.headers["allow"].split(",")} == allow


# Headers every answer carries, and the problem+json shape.

def _faulted_me(http: httpx.Client) -> httpx.Response:
    http.post("/_sandbox/faults", json={
        "path": "/v1/me", "kind": "error", "code": "temporarily_unavailable", "count": 1,
    }).raise_for_status()
    return http.get("/v1/me")


ANSWERS: dict[str, Callable[[httpx.Client], httpx.Response]] = {
    "success": lambda http: http.get("/v1/me"),
    "write": lambda http: write(http, pause_path(http)),
    "401": lambda http: http.get("/v1/me", headers={"Authorization": "Bearer nope"}),
    "403": lambda http: http.post("/v1/campaigns/x/pause",
                                  headers={"Authorization": f"Bearer {KEYS['reader']}"}),
    "404": lambda http: http.get("/v1/nope"),
    "404 outside the API": lambda http: http.get("/nope"),
    "405": lambda http: http.delete("/v1/me"),
    "409": lambda http: write(http, f"/v1/campaigns/{campaign_in(http, 'completed')}/pause"),
    "415": lambda http: http.post("/v1/campaigns/x/pause", content=b"x",
                                  headers={"Content-Type": "text/plain"}),
    "400 validation": lambda http: http.get("/v1/campaigns", params={"limit": 0}),
    "503 injected": _faulted_me,
    "admin": lambda http: http.get("/_sandbox/clock"),
    "openapi": lambda http: http.get("/_sandbox/openapi.json"),
}


@pytest.mark.parametrize("answer", ANSWERS.values(), ids=ANSWERS)
def test_every_answer_carries_request_id_and_no_store(
        api: httpx.Client, answer: Callable[[httpx.Client], httpx.Response]) -> None:
    response = answer(api)
    assert REQUEST_ID.fullmatch(response.headers["x-request-id"]), response.headers
    assert response.headers["cache-control"] == "no-store"


def test_request_ids_differ_between_requests(api: httpx.Client) -> None:
    ids = {api.get("/v1/me").headers["x-request-id"] for _ in range(5)}
    assert len(ids) == 5


@pytest.mark.parametrize("answer", [a for n, a in ANSWERS.items() if n[0] in "45"],
                         ids=[n for n in ANSWERS if n[0] in "45"])
def test_problem_body_has_exactly_the_contract_fields(
        api: httpx.Client, answer: Callable[[httpx.Client], httpx.Response]) -> None:
    response = answer(api)
    assert response.headers["content-type"].startswith("application/problem+json")
    body = response.json()
    expected = PROBLEM_KEYS | ({"errors"} if body["code"] == "validation_failed" else set())
    assert set(body) == expected
    assert body["status"] == response.status_code
    assert body["type"] == f"{DOCS_BASE}/errors/{body['code'].replace('_', '-')}"
    assert body["request_id"] == response.headers["x-request-id"]
    assert body["instance"] == "urn:service:request:" + body["request_id"]
    assert body["title"] and body["detail"]


def test_validation_errors_are_pointer_and_code(api: httpx.Client) -> None:
    body = api.get("/v1/campaigns", params={"limit": 0, "colour": "red"}).json()
    assert body["errors"] and all(set(e) == {"pointer", "code"} for e in body["errors"])
    assert {e["pointer"] for e in body["errors"]} == {"/query/limit", "/query/colour"}


# X-Correlation-ID.

@pytest.mark.parametrize("value", ["a" * 129, "has space", "", "semi;colon", "slash/ed"],
                         ids=["129 chars", "space", "empty", "semicolon", "slash"])
def test_invalid_correlation_id_is_refused(api: httpx.Client, value: str) -> None:
    response = api.get("/v1/me", headers={"X-Correlation-ID": value})
    assert field_errors(response)[0][0] == "/header/X-Correlation-ID"


@pytest.mark.parametrize("value", ["A" * 128, "order-42.retry_1:eu", "x"])
def test_valid_correlation_id_is_accepted_and_logged(
        api: httpx.Client, caplog: pytest.LogCaptureFixture, value: str) -> None:
    caplog.set_level(logging.INFO, logger="dialkit.sandbox")
    response = api.get("/v1/me", headers={"X-Correlation-ID": value})
    assert response.status_code == 200, response.text
    logged = [r.getMessage() for r in caplog.records if r.name == "dialkit.sandbox"]
    assert any(value in m and response.headers["x-request-id"] in m for m in logged), logged


def test_correlation_id_is_not_echoed_as_identity(api: httpx.Client) -> None:
    plain = api.get("/v1/me").json()
    tagged = api.get("/v1/me", headers={"X-Correlation-ID": "cli_someone-else"}).json()
    assert tagged == plain


def test_openapi_document_is_json(sandbox: Sandbox) -> None:
    response = httpx.get(sandbox.base_url + "/_sandbox/openapi.json")
    assert response.status_code == 200
    assert "/v1/campaigns/{campaign_id}/pause" in orjson.loads(response.content)["paths"]


def test_a_crash_answers_internal_error_as_a_problem_and_the_server_keeps_serving(
        sandbox: Sandbox, api: httpx.Client, monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure inside the emulator (provoked here: the store breaks) is never a traceback."""
    def broken(*args: object) -> None:
        raise RuntimeError("the store broke")

    monkeypatch.setattr(sandbox.service.store, "rows", broken)
    body = assert_problem(api.get("/v1/campaigns"), 500, "internal_error")
    assert "Traceback" not in body["detail"] and "the store broke" not in body["detail"]
    monkeypatch.undo()
    assert api.get("/v1/campaigns").status_code == 200
