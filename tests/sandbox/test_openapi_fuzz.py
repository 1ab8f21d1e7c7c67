"""Schemathesis over the emulator's own OpenAPI document: no 5xx, no answer off its schemas.

Every /v1 operation is fuzzed with generated requests, sent over HTTP with the
full-scope test key and a fresh Idempotency-Key, against the session emulator.
Responses must never be a server error, and must match the document's schema
and media type for their status (problem+json for errors).
"""

from __future__ import annotations

import uuid

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
)

from conftest import KEYS
from dialkit.sandbox import Sandbox
from dialkit.sandbox._app import openapi_document

EXAMPLES_PER_OPERATION = 25

schema = schemathesis.openapi.from_dict(openapi_document()).include(path_regex=r"^/v1/")


@schema.parametrize()
@settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None,
          suppress_health_check=list(HealthCheck))
def test_no_server_error_and_answers_match_the_document(
        case: schemathesis.Case, sandbox: Sandbox) -> None:
    headers = {"Authorization": f"Bearer {KEYS['full']}", "Idempotency-Key": str(uuid.uuid4())}
    case.call_and_validate(
        base_url=sandbox.base_url, headers=headers,
        checks=[not_a_server_error, response_schema_conformance, content_type_conformance])
