"""Tests of dialkit.contract: ids, models, errors, scopes and operations."""

import ast
import inspect
from collections import Counter
from types import ModuleType
from typing import Any

import pytest
from pydantic import BaseModel, TypeAdapter, ValidationError

import dialkit.contract as contract
from dialkit.contract import (
    ERROR_STATUS,
    ERROR_TITLES,
    ID_PREFIXES,
    OPERATIONS,
    SCOPE_SWITCH,
    SCOPE_TIER,
    SUBSCRIBABLE_EVENT_TYPES,
    CallCreateRequest,
    Campaign,
    DncCheckRequest,
    EmptyBody,
    ErrorCode,
    LeadCreateRequest,
    LeadId,
    LeadImportRequest,
    LeadInput,
    Page,
    Problem,
    Scope,
    SmsSendRequest,
    WebhookCreateRequest,
    WebhookEventType,
    is_valid_id,
    new_id,
    operation_by_name,
    problem_type,
)

UUID = "123e4567-e89b-42d3-a456-426614174000"
LEAD_ID = f"lead_{UUID}"
CAMPAIGN_ID = f"cmp_{UUID}"
NOW = "2025-01-02T03:04:05Z"

CAMPAIGN = {
    "id": CAMPAIGN_ID,
    "name": "Spring",
    "status": "running",
    "dialer_mode": "predictive",
    "created_at": NOW,
    "updated_at": None,
    "started_at": NOW,
    "completed_at": None,
}


@pytest.mark.parametrize(
    ("value", "valid"),
    [
        (LEAD_ID, True),
        (f"lead_{UUID.upper()}", False),
        (f"cmp_{UUID}", False),
        (f"LEAD_{UUID}", False),
        (UUID, False),
        ("lead_", False),
        ("lead_not-a-uuid", False),
        (f"lead_{UUID}\n", False),
        (f"lead_{UUID.replace('-', '')}", False),
    ],
)
def test_lead_id_accepts_only_prefix_and_lower_uuid(value: str, valid: bool) -> None:
    adapter = TypeAdapter(LeadId)
    if valid:
        assert adapter.validate_python(value) == value
    else:
        with pytest.raises(ValidationError, match="lead_' followed by a lower-case UUID"):
            adapter.validate_python(value)
    assert is_valid_id("lead_", value) is valid


def test_typed_id_json_schema_has_pattern() -> None:
    schema = TypeAdapter(LeadId).json_schema()
    assert schema["type"] == "string"
    assert schema["pattern"].startswith("^lead_")


@pytest.mark.parametrize("prefix", sorted(ID_PREFIXES.values()))
def test_new_id_is_valid_for_its_prefix(prefix: str) -> None:
    assert is_valid_id(prefix, new_id(prefix))


def test_new_id_refuses_unknown_prefix() -> None:
    with pytest.raises(ValueError, match="unknown id prefix"):
        new_id("user_")


@pytest.mark.parametrize(
    ("model", "body"),
    [
        (EmptyBody, {}),
        (LeadInput, {"phone": "+14155550123"}),
        (LeadCreateRequest, {"campaign_id": CAMPAIGN_ID, "phone": "+14155550123"}),
        (LeadImportRequest, {"leads": [{"phone": "+14155550123"}]}),
        (DncCheckRequest, {"phones": ["+14155550123"]}),
        (SmsSendRequest, {"to": "+14155550123", "body": "hi", "client_reference": "r1"}),
        (CallCreateRequest, {"to": "+14155550123", "agent_extension": "101"}),
    ],
)
def test_request_models_refuse_unknown_fields(model: type[BaseModel], body: dict[str, Any]) -> None:
    model.model_validate(body)
    with pytest.raises(ValidationError, match="extra_forbidden"):
        model.model_validate({**body, "surprise": 1})


@pytest.mark.parametrize(
    ("model", "body"),
    [
        (Campaign, CAMPAIGN),
        (Page[Campaign], {"data": [CAMPAIGN], "page": {"next_cursor": None, "has_more": False}}),
        (
            Problem,
            {
                "type": "https://docs.example.com/errors/not-found",
                "title": "Not found",
                "status": 404,
                "detail": "No such lead.",
                "instance": "urn:service:request:req_01",
                "code": "not_found",
                "request_id": "req_01",
            },
        ),
    ],
)
def test_response_models_ignore_unknown_fields(
    model: type[BaseModel], body: dict[str, Any]
) -> None:
    parsed = model.model_validate({**body, "added_in_v1_later": {"x": 1}})
    assert "added_in_v1_later" not in parsed.model_dump()


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"leads": []}, "too_short"),
        ({"leads": [{"phone": "1"}] * 201}, "too_long"),
        ({"leads": [{"full_name": "No Phone"}]}, "missing"),
        ({"leads": [{"phone": "1", "custom_fields": {str(i): i for i in range(21)}}]}, "too_long"),
    ],
)
def test_lead_import_limits(body: dict[str, Any], error: str) -> None:
    with pytest.raises(ValidationError, match=error):
        LeadImportRequest.model_validate(body)


@pytest.mark.parametrize(
    ("agents", "valid"),
    [
        ({"agent_extension": "101"}, True),
        ({"agent_email": "a@example.com"}, True),
        ({}, False),
        ({"agent_extension": "101", "agent_email": "a@example.com"}, False),
    ],
)
def test_call_create_needs_exactly_one_agent(agents: dict[str, str], valid: bool) -> None:
    body = {"to": "+14155550123", **agents}
    if valid:
        CallCreateRequest.model_validate(body)
    else:
        with pytest.raises(ValidationError, match="exactly one of agent_extension"):
            CallCreateRequest.model_validate(body)


@pytest.mark.parametrize("phone", ["14155550123", "+04155550123", "+1415555012345678", "+1 415"])
def test_e164_refuses_malformed_numbers(phone: str) -> None:
    with pytest.raises(ValidationError):
        DncCheckRequest.model_validate({"phones": [phone]})


def test_webhook_create_refuses_test_event() -> None:
    url = "https://hooks.example.com/in"
    WebhookCreateRequest.model_validate({"url": url, "events": ["call.completed"]})
    with pytest.raises(ValidationError, match="not a subscribable event type"):
        WebhookCreateRequest.model_validate({"url": url, "events": ["webhook.test"]})


def test_subscribable_event_types_are_all_but_test() -> None:
    assert len(SUBSCRIBABLE_EVENT_TYPES) == 6
    assert WebhookEventType.WEBHOOK_TEST not in SUBSCRIBABLE_EVENT_TYPES


@pytest.mark.parametrize("code", list(ErrorCode))
def test_every_error_code_has_status_and_title(code: ErrorCode) -> None:
    assert 400 <= ERROR_STATUS[code] <= 599
    assert ERROR_TITLES[code]


@pytest.mark.parametrize(
    ("code", "status"),
    [
        ("invalid_api_key", 401),
        ("validation_failed", 400),
        ("method_not_allowed", 405),
        ("insufficient_balance", 402),
        ("precondition_failed", 412),
        ("upstream_invalid_response", 502),
        ("dnc_screen_unavailable", 503),
    ],
)
def test_error_status_samples(code: str, status: int) -> None:
    assert ERROR_STATUS[ErrorCode(code)] == status


@pytest.mark.parametrize(
    ("docs_base", "code", "expected"),
    [
        ("https://d.example", "invalid_api_key", "https://d.example/errors/invalid-api-key"),
        ("https://d.example/", "conflict", "https://d.example/errors/conflict"),
        ("https://d.example", "not_found", "https://d.example/errors/not-found"),
    ],
)
def test_problem_type_hyphenates_code(docs_base: str, code: str, expected: str) -> None:
    assert problem_type(docs_base, code) == expected


def test_operations_have_unique_names_and_routes() -> None:
    names = Counter(op.name for op in OPERATIONS)
    routes = Counter((op.method, op.path) for op in OPERATIONS)
    assert [name for name, n in names.items() if n > 1] == []
    assert [route for route, n in routes.items() if n > 1] == []


def test_every_scope_is_used_by_an_operation() -> None:
    used = {op.scope for op in OPERATIONS}
    assert set(Scope) <= used


def test_tier_two_scopes_are_exactly_the_switched_ones() -> None:
    tier_two = {scope for scope, tier in SCOPE_TIER.items() if tier == 2}
    assert tier_two == set(SCOPE_SWITCH)
    assert SCOPE_TIER[Scope.WHATSAPP_SEND] == 1


@pytest.mark.parametrize(
    ("name", "method", "path", "scope", "write"),
    [
        ("me", "GET", "/v1/me", None, False),
        ("leads.update", "PATCH", "/v1/leads/{lead_id}", Scope.LEADS_WRITE, False),
        ("leads.import", "POST", "/v1/leads/import", Scope.LEADS_WRITE, True),
        ("dnc.check", "POST", "/v1/dnc/check", Scope.DNC_CHECK, False),
        ("webhooks.test", "POST", "/v1/webhooks/{webhook_id}/test", Scope.WEBHOOKS_WRITE, True),
        ("webhooks.delete", "DELETE", "/v1/webhooks/{webhook_id}", Scope.WEBHOOKS_WRITE, True),
        (
            "appointments.cancel",
            "POST",
            "/v1/appointments/{appointment_id}/cancel",
            Scope.APPOINTMENTS_WRITE,
            True,
        ),
        ("sms.delivery_reports", "GET", "/v1/sms/delivery-reports", Scope.SMS_READ, False),
    ],
)
def test_operation_samples(
    name: str, method: str, path: str, scope: Scope | None, write: bool
) -> None:
    op = operation_by_name(name)
    assert (op.method, op.path, op.scope, op.write) == (method, path, scope, write)


def test_sending_and_tier_blocked_flags() -> None:
    assert {op.name for op in OPERATIONS if op.sending} == {"calls.create", "sms.send"}
    assert {op.name for op in OPERATIONS if op.tier_blocked} == {"whatsapp.send"}


def test_operation_by_name_refuses_unknown_name() -> None:
    with pytest.raises(ValueError, match="pass a name from OPERATIONS"):
        operation_by_name("leads.delete")


def _defined_public_names(module: ModuleType) -> set[str]:
    """Names a module defines at top level (not imports), minus private ones."""
    names: set[str] = set()
    for node in ast.parse(inspect.getsource(module)).body:
        if isinstance(node, ast.ClassDef | ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return {name for name in names if not name.startswith("_")}


@pytest.mark.parametrize(
    "module",
    [
        contract._enums,
        contract._errors,
        contract._ids,
        contract._limits,
        contract._operations,
        contract._requests,
        contract._resources,
        contract._scopes,
    ],
)
def test_all_exports_every_public_name(module: ModuleType) -> None:
    assert _defined_public_names(module) - set(contract.__all__) == set()


def test_changed_by_names_each_write_and_the_lists_it_changes() -> None:
    """``CHANGED_BY`` (issue 62): every operation that changes data and reaches a list a
    client keeps is in it, none that only reads, and each names lists that exist."""
    from dialkit.contract import CHANGED_BY, OPERATIONS
    from dialkit.frames._frames import SPECS

    by_name = {operation.name: operation for operation in OPERATIONS}
    assert all(by_name[name].changes for name in CHANGED_BY)
    assert not by_name["leads.update"].write and by_name["leads.update"].changes
    assert not by_name["dnc.check"].changes
    assert {kept for lists in CHANGED_BY.values() for kept in lists} <= {*SPECS, "dnc"}
    left_out = {name for name, operation in by_name.items() if operation.changes} - set(
        CHANGED_BY)
    assert left_out == {"webhooks.create", "webhooks.update", "webhooks.delete",
                        "webhooks.rotate_secret", "whatsapp.send"}
