"""Generators for the refusals no OpenAPI document can foretell, and only for those.

The emulator's document states every rule JSON Schema can state (lengths, patterns, the
IANA zone names); each rule it cannot gets a ``format`` and a line in its operations'
descriptions (``UNFORETOLD`` in ``dialkit.sandbox._http._openapi``). Importing this module
registers with schemathesis the values a careful caller would send: no made-up cursor or
ETag (only the service mints them), numbers that exist, webhook URLs on a public name,
times within the few minutes that are both in the future (a callback) and not (a
consent), and report dates in order. The fuzz test imports it; so can the command line::

    PYTHONPATH=tests:tests/sandbox SCHEMATHESIS_HOOKS=openapi_formats \\
        schemathesis run http://127.0.0.1:PORT/_sandbox/openapi.json --checks all ...
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import schemathesis
from hypothesis import strategies as st

from conftest import START
from dialkit.sandbox._http._openapi import (
    CURSOR_FORMAT,
    ETAG_FORMAT,
    PHONE_FORMAT,
    WEBHOOK_URL_FORMAT,
)

NOW = datetime.fromisoformat(START)
"""The test emulator's manual clock, reset to this before each test."""

schemathesis.openapi.format(CURSOR_FORMAT, st.nothing())
schemathesis.openapi.format(ETAG_FORMAT, st.nothing())
schemathesis.openapi.format(PHONE_FORMAT, st.sampled_from(
    ["+12125550123", "+14155550100", "+16175550199", "+18195550193"]))
schemathesis.openapi.format(WEBHOOK_URL_FORMAT, st.from_regex(
    r"\Ahttps://hooks\.example\.com/[a-z0-9]{1,20}\Z"))
schemathesis.openapi.format("date-time", st.integers(1, 299).map(
    lambda s: (NOW + timedelta(seconds=s)).isoformat().replace("+00:00", "Z")))
schemathesis.openapi.format("date", st.integers(0, 45).map(
    lambda days: (NOW - timedelta(days=days)).date().isoformat()))


@schemathesis.hook
def filter_query(ctx: Any, query: dict[str, Any] | None) -> bool:
    """A report's ``from`` comes before its ``to`` (strings of the same form compare so)."""
    query = query or {}
    return not (isinstance(query.get("from"), str) and isinstance(query.get("to"), str)
                and query["from"] > query["to"])


@schemathesis.hook
def filter_body(ctx: Any, body: Any) -> bool:
    """No time to schedule at or before the clock: schemathesis also sends values it saw in
    answers (a seeded callback's time, say), which lie in the past."""
    when = body.get("scheduled_at") if isinstance(body, dict) else None
    try:
        return not (isinstance(when, str) and datetime.fromisoformat(when) <= NOW)
    except ValueError:
        return True
