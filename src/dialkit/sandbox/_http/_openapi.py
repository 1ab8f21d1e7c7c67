"""The emulator's OpenAPI document: FastAPI's, completed from the contract.

FastAPI knows the handlers' bodies, queries and answers, but not what the
pipeline does in front of them for every operation: the bearer key, the
``Idempotency-Key`` a write requires (and a PATCH accepts), the optional
``X-Correlation-ID``, and the ``X-Request-ID`` and ``Cache-Control`` on every
answer. Those come from :data:`dialkit.contract.OPERATIONS` and the contract's
limits here, so that tools pointed at ``/_sandbox/openapi.json`` (schemathesis,
Prism, client generators) send what the emulator takes and expect what it says.

Every rule JSON Schema can state is in the document, so a tool that knows only the
document agrees with the emulator: lengths, the E.164 ``pattern``, the webhook
URL's scheme and shape (:data:`~dialkit.contract.WEBHOOK_URL_PATTERN`), the IANA zone
names. What no document can foretell gets a named ``format`` besides, so a tool can be
given a generator for it (tests/sandbox/openapi_formats.py does), and each operation's
description lists its refusals of that kind (:data:`UNFORETOLD`): ``cursor`` (only a
``page.next_cursor`` of the same list and filters), ``etag`` (``If-Match``: the ``ETag``
of the resource as it is now), ``e164`` (a number that exists) and ``webhook-url`` (a
host with a public address); a report's ``from`` and ``to`` span at most
:data:`~dialkit.contract.REPORT_MAX_DAYS` days, a time to schedule is in the future, a
consent's capture time is not.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from dialkit.contract import (
    CORRELATION_ID_PATTERN,
    E164_PATTERN,
    MAX_IDEMPOTENCY_KEY_LENGTH,
    OPERATIONS,
    REPORT_MAX_DAYS,
    Operation,
    time_zone_names,
)

SECURITY_SCHEME = "apiKey"
"""The document's name for the bearer key every ``/v1`` operation needs."""

CURSOR_FORMAT = "cursor"
"""The ``format`` of a pagination cursor: opaque, minted by the service."""

PHONE_FORMAT = "e164"
"""The ``format`` of a phone number: E.164 (its ``pattern`` too), and a number that exists."""

ETAG_FORMAT = "etag"
"""The ``format`` of ``If-Match``: the ``ETag`` of the last read, minted by the service."""

WEBHOOK_URL_FORMAT = "webhook-url"
"""The ``format`` of a webhook endpoint's ``url``: https (its ``pattern`` too), to a public
address."""

_WEBHOOK_TEXT = "https, 9-2048 characters, to a public address (else 422 `webhook_url_refused`)."
_ZONE_TEXT = "An IANA time zone name, such as `Europe/Berlin`."
_STRING_FIELDS = {
    ("WebhookCreateRequest", "url"): _WEBHOOK_TEXT,
    ("WebhookUpdateRequest", "url"): _WEBHOOK_TEXT,
    ("AppointmentCreateRequest", "timezone"): _ZONE_TEXT,
    ("AppointmentRescheduleRequest", "timezone"): _ZONE_TEXT,
}
"""Request fields the document completes beyond their model's schema, by model and field,
with their description."""
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

UNFORETOLD = {
    CURSOR_FORMAT: "400 `invalid_cursor`: a `cursor` that is not the `page.next_cursor` of "
                   "this list with these filters, or is more than 24 hours old.",
    ETAG_FORMAT: "412 `precondition_failed`: an `If-Match` that is not the resource's "
                 "`ETag` as it is now.",
    PHONE_FORMAT: "400 `validation_failed` (`invalid_phone`): a number of E.164's form that "
                  "no numbering plan gives out.",
    WEBHOOK_URL_FORMAT: "422 `webhook_url_refused`: a host that is, or resolves to, an "
                        "address that is not public (private, loopback, link-local, cloud "
                        "metadata).",
    "date": f"400 `validation_failed`: `to` before `from` (`before_from`), or more than "
            f"{REPORT_MAX_DAYS} days from `from` to `to` (`range_too_long`).",
    "scheduled_at": "400 `validation_failed` (`in_past`): a `scheduled_at` at or before the "
                    "service's clock.",
    "captured_at": "400 `validation_failed` (`in_future`): a `captured_at` after the "
                   "service's clock.",
}
"""The refusals no document can foretell, by the ``format`` or the field that draws them:
each operation's description lists those of its parameters and body."""

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


def _formatted(schema: dict[str, Any], name: str) -> dict[str, Any]:
    """``schema`` with the ``format`` of a rule no JSON Schema states (its lengths and
    pattern kept: they are rules the document can state)."""
    return {**schema, "format": name}


def _parameter(parameter: dict[str, Any]) -> dict[str, Any]:
    schema = _without_null(parameter["schema"])
    if parameter["name"] == "cursor":
        schema = _formatted(schema, CURSOR_FORMAT)
        parameter = {**parameter, "description": _CURSOR_TEXT}
    elif parameter["name"].lower() == "if-match":
        schema = _formatted(schema, ETAG_FORMAT)
        parameter = {**parameter, "name": "If-Match", "description": _ETAG_TEXT}
    elif schema.get("format") == "date":
        parameter = {**parameter, "description": _DATE_TEXT}
    return {**parameter, "schema": schema}


def _drawn(node: Any, schemas: dict[str, Any], seen: set[str]) -> Iterator[str]:
    """The formats and property names in ``node`` (a schema, or a list or map of them),
    ``$ref``s followed: what may draw a refusal of :data:`UNFORETOLD`."""
    if isinstance(node, list):
        for value in node:
            yield from _drawn(value, schemas, seen)
    if not isinstance(node, dict):
        return
    ref = node.get("$ref")
    if isinstance(ref, str) and ref not in seen:
        seen.add(ref)
        yield from _drawn(schemas[ref.rpartition("/")[2]], schemas, seen)
    if isinstance(node.get("format"), str):
        yield node["format"]
    if isinstance(node.get("properties"), dict):
        yield from node["properties"]
    for value in node.values():
        yield from _drawn(value, schemas, seen)


def _unforetold_text(entry: dict[str, Any], schemas: dict[str, Any]) -> str:
    """The refusals of :data:`UNFORETOLD` an operation's parameters and body can draw, in
    words for its description ("" where none)."""
    drawn = set(_drawn([entry.get("parameters", []), entry.get("requestBody", {})], schemas,
                       set()))
    lines = [f"- {text}" for key, text in UNFORETOLD.items() if key in drawn]
    if not lines:
        return ""
    return "\n\nRefusals no document can foretell:\n\n" + "\n".join(lines)


def _complete(entry: dict[str, Any], operation: Operation, schemas: dict[str, Any]) -> None:
    """Add to one operation's entry what the pipeline does for every operation, and the
    refusals its description must name."""
    entry["parameters"] = [*map(_parameter, entry.get("parameters", [])),
                           *request_headers(operation)]
    entry["description"] = entry.get("description", "") + _unforetold_text(entry, schemas)
    entry["security"] = [{SECURITY_SCHEME: []}]
    for answer in entry["responses"].values():
        answer["headers"] = {**_ANSWER_HEADERS, **answer.get("headers", {})}


def _spelled(pattern: str) -> str:
    """``pattern`` with ``\\s`` and ``\\S`` spelled out as :data:`_SPACES` (the contract's
    patterns use ``\\s`` inside a class only)."""
    return pattern.replace(r"\S", f"[^{_SPACES}]").replace(r"\s", _SPACES)


def _tidy(node: Any) -> None:
    """Walk a schema, changing it in place: an E.164 string gets :data:`PHONE_FORMAT` beside
    its pattern, another pattern its spaces spelled out."""
    if isinstance(node, dict):
        pattern = node.get("pattern")
        if pattern == E164_PATTERN:
            node.update(format=PHONE_FORMAT, description=_PHONE_TEXT)
        elif isinstance(pattern, str):
            node["pattern"] = _spelled(pattern)
        for value in node.values():
            _tidy(value)
    elif isinstance(node, list):
        for value in node:
            _tidy(value)


def _completed(field: str, schema: dict[str, Any]) -> dict[str, Any]:
    """A string field's schema with what its model's leaves out: a webhook URL's
    :data:`WEBHOOK_URL_FORMAT`, a time zone's names (the model's schema lists none: an MCP
    tool's would be 600 names longer)."""
    if field == "url":
        return _formatted(schema, WEBHOOK_URL_FORMAT)
    return {**schema, "enum": sorted(time_zone_names())}


def _complete_fields(schemas: dict[str, Any]) -> None:
    """Complete the fields of :data:`_STRING_FIELDS` (a ``null`` branch stays)."""
    for (model, field), text in _STRING_FIELDS.items():
        prop = schemas[model]["properties"][field]
        prop["description"] = text
        for i, option in enumerate(prop.get("anyOf", [])):
            if option.get("type") == "string":
                prop["anyOf"][i] = _completed(field, option)
        if prop.get("type") == "string":
            schemas[model]["properties"][field] = _completed(field, prop)


def from_contract(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` (FastAPI's) completed with the contract's headers and security."""
    schemas = document["components"]["schemas"]
    _tidy(document["paths"])
    _tidy(schemas)
    _complete_fields(schemas)
    for operation in OPERATIONS:
        _complete(document["paths"][operation.path][operation.method.lower()], operation,
                  schemas)
    document["components"]["securitySchemes"] = {SECURITY_SCHEME: {
        "type": "http", "scheme": "bearer",
        "description": "An API key: `Authorization: Bearer svc_test_...`."}}
    return document
