"""Every operation of the contract is a client method, and a client test calls it.

A guard over the client and its suite: an operation added to
``dialkit.contract.OPERATIONS`` without a method, or a method no test in
tests/client/ calls, fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dialkit import Client
from dialkit.contract import OPERATIONS

METHODS = {
    "me": "me",
    "leads.list": "leads.list",
    "leads.get": "leads.get",
    "leads.history": "leads.history",
    "leads.create": "leads.create",
    "leads.update": "leads.update",
    "leads.import": "leads.import_batch",
    "campaigns.list": "campaigns.list",
    "campaigns.get": "campaigns.get",
    "campaigns.progress": "campaigns.progress",
    "campaigns.pause": "campaigns.pause",
    "campaigns.resume": "campaigns.resume",
    "calls.list": "calls.list",
    "calls.get": "calls.get",
    "calls.create": "calls.create",
    "calls.recording": "calls.recording",
    "calls.transcript": "calls.transcript",
    "calls.summary": "calls.summary",
    "webhooks.list": "webhooks.list",
    "webhooks.get": "webhooks.get",
    "webhooks.create": "webhooks.create",
    "webhooks.update": "webhooks.update",
    "webhooks.delete": "webhooks.delete",
    "webhooks.test": "webhooks.test",
    "webhooks.rotate_secret": "webhooks.rotate_secret",
    "webhook_events.list": "webhook_events.list",
    "webhook_events.get": "webhook_events.get",
    "webhook_events.replay": "webhook_events.replay",
    "dnc.check": "dnc.check",
    "dnc.add": "dnc.add",
    "consents.create": "consents.create",
    "callbacks.list": "callbacks.list",
    "callbacks.create": "callbacks.create",
    "callbacks.cancel": "callbacks.cancel",
    "callbacks.reschedule": "callbacks.reschedule",
    "appointments.list": "appointments.list",
    "appointments.get": "appointments.get",
    "appointments.create": "appointments.create",
    "appointments.cancel": "appointments.cancel",
    "appointments.reschedule": "appointments.reschedule",
    "sms.send": "sms.send",
    "sms.delivery_reports": "sms.delivery_reports",
    "sms.usage": "sms.usage",
    "whatsapp.send": "whatsapp.send",
    "reports.dispositions": "reports.dispositions",
}
"""Operation name → the client method that calls it (``client.<method>``)."""

TESTS = Path(__file__).parent


def test_the_table_names_every_operation_once() -> None:
    assert sorted(METHODS) == sorted(operation.name for operation in OPERATIONS)


@pytest.mark.parametrize("operation", sorted(METHODS))
def test_operation_is_a_client_method(operation: str) -> None:
    with Client("svc_test_inspect01_AAAAbbbbCCCCdddd", base_url="http://127.0.0.1:9") as client:
        target: object = client
        for name in METHODS[operation].split("."):
            target = getattr(target, name, None)
        assert callable(target), f"no client.{METHODS[operation]}"


@pytest.mark.parametrize("operation", sorted(METHODS))
def test_operation_is_called_by_a_client_test(operation: str) -> None:
    call = re.compile(rf"\.{re.escape(METHODS[operation])}\(")
    callers = [path.name for path in TESTS.glob("test_*.py")
               if path.name != Path(__file__).name and call.search(path.read_text("utf-8"))]
    assert callers, f"no test in tests/client/ calls client.{METHODS[operation]}()"

