"""Schemathesis over the emulator's own OpenAPI document, with every check.

Every /v1 operation is fuzzed with generated requests, valid and invalid, sent
over HTTP with the full-scope test key against the session emulator. Every
check schemathesis has must pass: no server error, answers (status, headers,
media type, body) as the document says, every request the document allows
accepted and every one it forbids refused. The headers (``Idempotency-Key``,
``X-Correlation-ID``) come from the document, not from this test.

What JSON Schema cannot say, the document names as a ``format``
(see ``dialkit.sandbox._openapi``); here each gets the generator a careful
caller would use: no made-up cursor or ETag (only the service mints them),
numbers that exist, webhook URLs on a public name, IANA zone names, times within the few
minutes that are both in the future (a callback) and not (a consent), and
report dates in order.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.checks import CHECKS, load_all_checks

from conftest import KEYS, START
from dialkit.sandbox import Sandbox
from dialkit.sandbox._app import openapi_document
from dialkit.sandbox._openapi import (
    CURSOR_FORMAT,
    ETAG_FORMAT,
    PHONE_FORMAT,
    TIMEZONE_FORMAT,
    WEBHOOK_URL_FORMAT,
)

EXAMPLES_PER_OPERATION = 10

NOW = datetime.fromisoformat(START)
"""The session emulator's manual clock, reset to this before each test."""

schemathesis.openapi.format(CURSOR_FORMAT, st.nothing())
schemathesis.openapi.format(ETAG_FORMAT, st.nothing())
schemathesis.openapi.format(PHONE_FORMAT, st.sampled_from(
    ["+12125550123", "+14155550100", "+16175550199", "+18195550193"]))
schemathesis.openapi.format(WEBHOOK_URL_FORMAT, st.from_regex(
    r"\Ahttps://hooks\.example\.com/[a-z0-9]{1,20}\Z"))
schemathesis.openapi.format(TIMEZONE_FORMAT, st.sampled_from(
    ["UTC", "Europe/Berlin", "America/New_York", "Asia/Tokyo"]))
schemathesis.openapi.format("date-time", st.integers(1, 299).map(
    lambda s: (NOW + timedelta(seconds=s)).isoformat().replace("+00:00", "Z")))
schemathesis.openapi.format("date", st.integers(0, 45).map(
    lambda days: (NOW - timedelta(days=days)).date().isoformat()))

load_all_checks()
ALL_CHECKS = CHECKS.get_all()

schema = schemathesis.openapi.from_dict(openapi_document()).include(path_regex=r"^/v1/")


@schema.hook
def filter_query(ctx: Any, query: dict[str, Any] | None) -> bool:
    """A report's ``from`` comes before its ``to`` (strings of the same form compare so)."""
    query = query or {}
    return not (isinstance(query.get("from"), str) and isinstance(query.get("to"), str)
                and query["from"] > query["to"])


@schema.parametrize()
@settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None,
          suppress_health_check=list(HealthCheck))
def test_every_check_passes(case: schemathesis.Case, sandbox: Sandbox) -> None:
    case.call_and_validate(base_url=sandbox.base_url,
                           headers={"Authorization": f"Bearer {KEYS['full']}"},
                           checks=ALL_CHECKS)
