"""Schemathesis over the emulator's own OpenAPI document, with every check.

Every /v1 operation is fuzzed with generated requests, valid and invalid, sent
over HTTP with the full-scope test key against the session emulator. Every
check schemathesis has must pass: no server error, answers (status, headers,
media type, body) as the document says, every request the document allows
accepted and every one it forbids refused. The headers (``Idempotency-Key``,
``X-Correlation-ID``) come from the document, not from this test; the values
JSON Schema cannot describe, from ``openapi_formats``.
"""

from __future__ import annotations

import openapi_formats  # noqa: F401  (registers the document's named formats)
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import CHECKS, load_all_checks

from conftest import KEYS
from dialkit.sandbox import Sandbox
from dialkit.sandbox._http._app import openapi_document

EXAMPLES_PER_OPERATION = 5

load_all_checks()
ALL_CHECKS = CHECKS.get_all()

schema = schemathesis.openapi.from_dict(openapi_document()).include(path_regex=r"^/v1/")


@schema.parametrize()
@settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None,
          suppress_health_check=list(HealthCheck))
def test_every_check_passes(case: schemathesis.Case, sandbox: Sandbox) -> None:
    case.call_and_validate(base_url=sandbox.base_url,
                           headers={"Authorization": f"Bearer {KEYS['full']}"},
                           checks=ALL_CHECKS)
