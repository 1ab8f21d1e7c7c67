"""The emulator's OpenAPI document: FastAPI's, completed from the contract.

FastAPI knows the handlers' bodies, queries and answers, but not what the
pipeline does in front of them for every operation: the bearer key, the
``Idempotency-Key`` a write requires (and a PATCH accepts), the optional
``X-Correlation-ID``, and the ``X-Request-ID`` and ``Cache-Control`` on every
answer. Those come from :data:`dialkit.contract.OPERATIONS` and the contract's
limits here, so that tools pointed at ``/_sandbox/openapi.json`` (schemathesis,
Prism, client generators) send what the emulator takes and expect what it says.

Rules JSON Schema cannot state get a named ``format`` and a description, so a
tool can be given a generator for them (tests/sandbox/test_openapi_fuzz.py
does): ``cursor`` (only a ``page.next_cursor`` of the same list and filters),
``etag`` (``If-Match``: the ``ETag`` of the resource as it is now), ``e164``
(a number that exists), ``webhook-url`` (https, to a public host) and
``time-zone`` (an IANA name). Two more are in words only: a report's ``from``
and ``to`` span at most :data:`~dialkit.contract.REPORT_MAX_DAYS` days, and a
time to schedule is in the future.
"""

from __future__ import annotations

from typing import Any

from dialkit.contract import (
    CORRELATION_ID_PATTERN,
    E164_PATTERN,
    MAX_IDEMPOTENCY_KEY_LENGTH,
    OPERATIONS,
    REPORT_MAX_DAYS,
    Operation,
)

SECURITY_SCHEME = "apiKey"
"""The document's name for the bearer key every ``/v1`` operation needs."""

CURSOR_FORMAT = "cursor"
"""The ``format`` of a pagination cursor: opaque, minted by the service."""

PHONE_FORMAT = "e164"
"""The ``format`` of a phone number: E.164, and a number that can exist."""

ETAG_FORMAT = "etag"
"""The ``format`` of ``If-Match``: the ``ETag`` of the last read, minted by the service."""

WEBHOOK_URL_FORMAT = "webhook-url"
"""The ``format`` of a webhook endpoint's ``url``: https, to a public address."""

TIMEZONE_FORMAT = "time-zone"
"""The ``format`` of an IANA time zone name, such as ``Europe/Berlin``."""

_WEBHOOK_TEXT = "https, 9-2048 characters, to a public address (else 422 `webhook_url_refused`)."
_TIMEZONE_TEXT = "An IANA time zone name (at most 64 characters), such as `Europe/Berlin`."
_NAMED_FIELDS = {
    ("WebhookCreateRequest", "url"): (WEBHOOK_URL_FORMAT, _WEBHOOK_TEXT),
    ("WebhookUpdateRequest", "url"): (WEBHOOK_URL_FORMAT, _WEBHOOK_TEXT),
    ("AppointmentCreateRequest", "timezone"): (TIMEZONE_FORMAT, _TIMEZONE_TEXT),
    ("AppointmentRescheduleRequest", "timezone"): (TIMEZONE_FORMAT, _TIMEZONE_TEXT),
}
"""Request fields whose rule JSON Schema cannot state, by model and field."""
_PHONE_TEXT = "E.164 (`+`, then 2-15 digits) and a number that exists, e.g. `+14155550123`."

_SPACES = r"\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
"""What ``\\s`` matches in the emulator's patterns (pydantic's Rust engine: Unicode
White_Space). A tool reading ``\\s`` as ECMA-262 would leave out U+0085 and add U+FEFF."""

_CURSOR_TEXT = ("Opaque, 1-1024 characters; only the `page.next_cursor` of the same list with "
                "the same filters, within 24 hours. Any other value answers 400 "
                "`invalid_cursor`.")
_ETAG_TEXT = ("The `ETag` of the last read (at most 128 characters); if the resource "
              "changed since, 412 `precondition_failed`.")
_DATE_TEXT = (f"A UTC date, YYYY-MM-DD; `from` <= `to`, at most {REPORT_MAX_DAYS} days "
              "together (else 400 `validation_failed`).")

_ANSWER_HEADERS = {
    "X-Request-ID": {"description": "The request's id (`req_<ULID>`), also in problems.",
                     "schema": {"type": "string",
                                "pattern": "^(req_[0-9A-Z]{26}|edge_[0-9a-f]{32})$"}},
    "Cache-Control": {"description": "Always `no-store`.",
                      "schema": {"type": "string", "enum": ["no-store"]}},
}


def _header(name: str, required: bool, schema: dict[str, Any], text: str) -> dict[str, Any]:
    return {"name": name, "in": "header", "required": required, "schema": schema,
            "description": text}


def request_headers(operation: Operation) -> list[dict[str, Any]]:
    """The headers the pipeline reads for ``operation``, as OpenAPI parameters."""
    headers = [_header("X-Correlation-ID", False,
                       {"type": "string", "pattern": CORRELATION_ID_PATTERN},
                       "Logged with the request, never used for identity.")]
    if operation.write or operation.method == "PATCH":
        headers.append(_header(
            "Idempotency-Key", operation.write,
            {"type": "string", "minLength": 1, "maxLength": MAX_IDEMPOTENCY_KEY_LENGTH},
            "Retry a write with the same key to get its stored answer; kept 24 hours."))
    return headers


def _without_null(schema: dict[str, Any]) -> dict[str, Any]:
    """A parameter's schema without FastAPI's ``null`` branch: an absent parameter is the
    null, a sent one is never ``null``."""
    options = [s for s in schema.get("anyOf", ()) if s != {"type": "null"}]
    if len(options) != 1:
        return schema
    rest = {k: v for k, v in schema.items() if k != "anyOf"}
    return {**options[0], **rest}


def _minted(schema: dict[str, Any], name: str) -> dict[str, Any]:
    """The schema of a value only the service makes: its format, without the lengths that
    would invite a tool to make one up (the description gives them)."""
    return {"type": "string", "format": name, "title": schema.get("title", name)}


def _parameter(parameter: dict[str, Any]) -> dict[str, Any]:
    schema = _without_null(parameter["schema"])
    if parameter["name"] == "cursor":
        schema = _minted(schema, CURSOR_FORMAT)
        parameter = {**parameter, "description": _CURSOR_TEXT}
    elif parameter["name"].lower() == "if-match":
        schema = _minted(schema, ETAG_FORMAT)
        parameter = {**parameter, "name": "If-Match", "description": _ETAG_TEXT}
    elif schema.get("format") == "date":
        parameter = {**parameter, "description": _DATE_TEXT}
    return {**parameter, "schema": schema}


def _complete(entry: dict[str, Any], operation: Operation) -> None:
    """Add to one operation's entry what the pipeline does for every operation."""
    entry["parameters"] = [*map(_parameter, entry.get("parameters", [])),
                           *request_headers(operation)]
    entry["security"] = [{SECURITY_SCHEME: []}]
    for answer in entry["responses"].values():
        answer["headers"] = {**_ANSWER_HEADERS, **answer.get("headers", {})}


def _spelled(pattern: str) -> str:
    """``pattern`` with ``\\s`` and ``\\S`` spelled out as :data:`_SPACES` (the contract's
    patterns use ``\\s`` inside a class only)."""
    return pattern.replace(r"\S", f"[^{_SPACES}]").replace(r"\s", _SPACES)


def _tidy(node: Any) -> None:
    """Walk a schema, changing it in place: an E.164 string gets :data:`PHONE_FORMAT`, a
    pattern its spaces spelled out."""
    if isinstance(node, dict):
        pattern = node.get("pattern")
        if pattern == E164_PATTERN:
            node.update(_minted(node, PHONE_FORMAT), description=_PHONE_TEXT)
            node.pop("pattern")
        elif isinstance(pattern, str):
            node["pattern"] = _spelled(pattern)
        for value in node.values():
            _tidy(value)
    elif isinstance(node, list):
        for value in node:
            _tidy(value)


def _name_fields(schemas: dict[str, Any]) -> None:
    """Give the fields of :data:`_NAMED_FIELDS` their format (a ``null`` branch stays)."""
    for (model, field), (name, text) in _NAMED_FIELDS.items():
        prop = schemas[model]["properties"][field]
        prop["description"] = text
        for i, option in enumerate(prop.get("anyOf", [])):
            if option.get("type") == "string":
                prop["anyOf"][i] = _minted(option, name)
        if prop.get("type") == "string":
            schemas[model]["properties"][field] = {**_minted(prop, name), "description": text}


def from_contract(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` (FastAPI's) completed with the contract's headers and security."""
    schemas = document["components"]["schemas"]
    _tidy(document["paths"])
    _tidy(schemas)
    _name_fields(schemas)
    for operation in OPERATIONS:
        _complete(document["paths"][operation.path][operation.method.lower()], operation)
    document["components"]["securitySchemes"] = {SECURITY_SCHEME: {
        "type": "http", "scheme": "bearer",
        "description": "An API key: `Authorization: Bearer svc_test_...`."}}
    return document
