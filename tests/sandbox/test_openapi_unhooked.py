"""A tool that knows only the emulator's OpenAPI document agrees with the emulator.

``schemathesis run`` with every check and no hooks (the command line a user would type,
in a process of its own, so that no generator of ``openapi_formats`` is registered) may
see the emulator refuse a request the document allows only for a reason no document can
foretell: a cursor or ETag the service did not mint, a number of E.164's form that does
not exist, a webhook host that is not public, a time already past, a report range over
92 days (each operation's description names those it can draw). Before issue 63 it found
16 refusals the document could have foretold: a ``cursor`` of 0 characters, E.164 fields
without their pattern, webhook URLs without their lengths and scheme, a time zone that is
no IANA name.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import KEYS
from dialkit.contract import (
    E164_PATTERN,
    MAX_CURSOR_LENGTH,
    WEBHOOK_URL_MAX,
    WEBHOOK_URL_MIN,
    WEBHOOK_URL_PATTERN,
    time_zone_names,
)
from dialkit.sandbox import Sandbox
from dialkit.sandbox._http._app import openapi_document
from dialkit.sandbox._http._openapi import UNFORETOLD

UNFORETOLD_FIELD_CODES = {"invalid_phone", "in_past", "in_future", "range_too_long",
                          "before_from"}
"""The field error codes of the refusals :data:`UNFORETOLD` describes (``validation_failed``)."""
UNFORETOLD_CODES = {"invalid_cursor", "precondition_failed"}
"""The problem codes that are such a refusal whatever their fields."""


def _problem(interaction: dict[str, Any]) -> dict[str, Any]:
    content = interaction["response"].get("content") or {}
    body = base64.b64decode(content.get("$base64", "")) or b"{}"
    try:
        problem = json.loads(body)
    except ValueError:
        return {}
    return problem if isinstance(problem, dict) else {}


def unforetold(problem: dict[str, Any]) -> bool:
    """Whether ``problem`` is a refusal no document can foretell (:data:`UNFORETOLD`)."""
    fields = {e.get("code") for e in problem.get("errors") or ()}
    if problem.get("code") == "webhook_url_refused":  # the host's address, not the URL's shape
        return " address;" in str(problem.get("detail"))
    return problem.get("code") in UNFORETOLD_CODES or (
        problem.get("code") == "validation_failed" and bool(fields)
        and fields <= UNFORETOLD_FIELD_CODES)


def failures(events: list[dict[str, Any]]) -> list[str]:
    """Each failed check of the run's events (schemathesis' NDJSON report) but a refusal
    of a request the document allows that no document can foretell, as text."""
    found = []
    for event in events:
        recorder = event.get("ScenarioFinished", {}).get("recorder") or {}
        for case, checks in recorder.get("checks", {}).items():
            for check in checks:
                if check["status"] != "failure":
                    continue
                problem = _problem(recorder["interactions"].get(case, {"response": {}}))
                if check["name"] == "positive_data_acceptance" and unforetold(problem):
                    continue
                found.append(f"{recorder['label']}: {check['name']}: "
                             f"{problem.get('code')} {problem.get('detail')!r}")
    return found


def _nodes(node: Any) -> list[dict[str, Any]]:
    """Every map in ``node``, ``node`` too."""
    if isinstance(node, list):
        return [n for value in node for n in _nodes(value)]
    if not isinstance(node, dict):
        return []
    return [node, *(n for value in node.values() for n in _nodes(value))]


def test_the_document_states_each_rule_json_schema_can_state() -> None:
    document = openapi_document()
    nodes = _nodes(document)
    cursors = [n["schema"] for n in nodes if n.get("in") == "query" and n["name"] == "cursor"]
    phones = [n for n in nodes if n.get("format") == "e164"]
    urls = [n for n in nodes if n.get("format") == "webhook-url"]
    schemas = document["components"]["schemas"]
    zones = [o for model in ("AppointmentCreateRequest", "AppointmentRescheduleRequest")
             for o in schemas[model]["properties"]["timezone"]["anyOf"] if "enum" in o]
    assert len(cursors) == 8 and all(
        (c["minLength"], c["maxLength"]) == (1, MAX_CURSOR_LENGTH) for c in cursors)
    assert len(phones) >= 8 and all(p["pattern"] == E164_PATTERN for p in phones)
    assert len(urls) == 2 and all(
        (u["minLength"], u["maxLength"], u["pattern"]) == (
            WEBHOOK_URL_MIN, WEBHOOK_URL_MAX, WEBHOOK_URL_PATTERN) for u in urls)
    assert len(zones) == 2 and all(z["enum"] == sorted(time_zone_names()) for z in zones)


def test_every_unforetold_refusal_is_in_the_description_of_the_operations_that_draw_it(
) -> None:
    described = {(path, method): entry.get("description", "")
                 for path, entries in openapi_document()["paths"].items()
                 for method, entry in entries.items()}
    assert UNFORETOLD["cursor"] in described[("/v1/leads", "get")]
    assert UNFORETOLD["etag"] in described[("/v1/leads/{lead_id}", "patch")]
    assert UNFORETOLD["e164"] in described[("/v1/dnc/check", "post")]
    assert UNFORETOLD["webhook-url"] in described[("/v1/webhooks", "post")]
    assert UNFORETOLD["date"] in described[("/v1/reports/dispositions", "get")]
    assert UNFORETOLD["scheduled_at"] in described[("/v1/callbacks", "post")]
    assert UNFORETOLD["captured_at"] in described[("/v1/consents", "post")]
    assert "foretell" not in described[("/v1/me", "get")]


@pytest.mark.parametrize("problem, expected", [
    ({"code": "invalid_cursor"}, True),
    ({"code": "precondition_failed"}, True),
    ({"code": "validation_failed", "errors": [{"code": "invalid_phone"}]}, True),
    ({"code": "validation_failed", "errors": [{"code": "range_too_long"}]}, True),
    ({"code": "webhook_url_refused", "detail": "0 is a private address; webhooks ..."}, True),
    ({"code": "validation_failed", "errors": [{"code": "too_short"}]}, False),
    ({"code": "validation_failed", "errors": [{"code": "invalid_format"}]}, False),
    ({"code": "validation_failed"}, False),
    ({"code": "webhook_url_refused", "detail": "The URL must be an https:// URL ..."}, False),
])
def test_only_the_refusals_no_document_can_foretell_are_excused(problem: dict[str, Any],
                                                                 expected: bool) -> None:
    assert unforetold(problem) is expected


def test_schemathesis_without_hooks_finds_no_refusal_the_document_could_foretell(
        sandbox: Sandbox, tmp_path: Path) -> None:
    report = tmp_path / "events.ndjson"
    environment = {k: v for k, v in os.environ.items() if not k.startswith("SCHEMATHESIS")}
    subprocess.run(
        [str(Path(sys.executable).parent / "schemathesis"), "run",
         f"{sandbox.base_url}/_sandbox/openapi.json", "--checks", "all",
         "--include-path-regex", "^/v1/", "-H", f"Authorization: Bearer {KEYS['full']}",
         "--phases", "coverage,fuzzing", "--max-examples", "5", "--seed", "63",
         "--workers", "1", "--no-color", "--report", "ndjson",
         "--report-ndjson-path", str(report)],
        cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=300,
        check=False)
    events = [json.loads(line) for line in report.read_text("utf-8").splitlines()]
    assert any("ScenarioFinished" in event for event in events)
    assert failures(events) == []
