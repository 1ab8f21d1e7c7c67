"""The guard refuses the numbers the seeded world plants for it (issue 50, item 5).

The session emulator's world plants, at its own clock (Monday 2026-11-02 15:00 UTC), a
number on the Do-Not-Call list, one whose place is outside its calling hours and one at
its state's cap (three calls in 24 hours), and says so at ``/_sandbox/guard-truth``. Each
operation that reaches a person refuses each of them, over real HTTP, with the rule and
the next allowed moment that ``next_allowed`` gives; an override is sent and recorded,
by the client (tests/mcp/test_mcp_guard_world.py: through ``mcp serve``).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pandas as pd
import pytest

from conftest import KEYS, guard_truth
from dialkit import Client
from dialkit.compliance import next_allowed
from dialkit.compliance._inputs._prepared import CALL_COLUMNS
from dialkit.errors import ContactForbiddenError, ValidationError
from dialkit.sandbox import Sandbox

from ._recording import RecordingTransport
from .test_guard import REASON, ready_agent, sent

KINDS = ("guard_dnc", "guard_hours", "guard_cap")
Planted = dict[str, Any]


@pytest.fixture
def truth(sandbox: Sandbox) -> dict[str, Planted]:
    """Each planted number, by kind, as the emulator's admin truth lists it."""
    return guard_truth(sandbox)


def expected(planted: Planted, client: Client, at: pd.Timestamp) -> pd.Series:
    """``next_allowed``'s answer for the planted number at ``at``, from the evidence the
    API gives (the number's calls, its DNC answer): what the guard must say."""
    made = [client.calls.get(call).model_dump(include=set(CALL_COLUMNS))
            for call in planted.get("call_ids", [])]
    calls = pd.DataFrame(made, columns=list(CALL_COLUMNS)) if made else None
    for column in ("created_at", "answered_at", "ended_at"):
        if calls is not None:
            calls[column] = pd.to_datetime(calls[column], utc=True)
    listed = client.dnc.check([planted["phone"]])[0]
    since = (listed.model_extra or {}).get("listed_at")
    dnc = pd.DataFrame({"phone": [planted["phone"]], "listed": [True], "checked_at": [at],
                        "listed_at": [pd.Timestamp(since) if since else pd.NaT]}
                       ) if listed.listed else None
    return next_allowed(planted["phone"], at, calls=calls, dnc=dnc).iloc[0]


def operation(name: str, client: Client, sandbox: Sandbox,
              planted: Planted, **options: Any) -> tuple[Callable[[], object], str, str]:
    """One guarded operation of the planted number, its request's method and path."""
    phone, lead = planted["phone"], planted["lead_id"]
    client.me()  # the service's now is known from its answer's Date
    soon = client.guard.now() + timedelta(minutes=5)
    if name == "calls.create":
        extension = ready_agent(sandbox, client)
        return (lambda: client.calls.create(to=phone, agent_extension=extension, **options),
                "POST", "/v1/calls")
    if name == "sms.send":
        return (lambda: client.sms.send(to=phone, body="Your table is ready.",
                                        client_reference=f"world-{phone}", **options),
                "POST", "/v1/sms")
    if name == "leads.create":  # to the planted lead's campaign: a cap counts its calls
        campaign = client.leads.get(lead).campaign_id
        assert campaign is not None
        return (lambda: client.leads.create(campaign_id=campaign, phone=phone, dial_now=True,
                                            **options), "POST", "/v1/leads")
    if name == "callbacks.create":
        return (lambda: client.callbacks.create(lead_id=lead, scheduled_at=soon, **options),
                "POST", "/v1/callbacks")
    assert name == "callbacks.reschedule"
    with Client(KEYS["full"], base_url=sandbox.base_url, rate_limit=None, guard="off") as off:
        made = off.callbacks.create(lead_id=lead, scheduled_at=soon + timedelta(days=2))
    return (lambda: client.callbacks.reschedule(made.id, scheduled_at=soon, lead_id=lead,
                                                **options),
            "POST", f"/v1/callbacks/{made.id}/reschedule")


OPERATIONS = ["calls.create", "sms.send", "leads.create", "callbacks.create",
              "callbacks.reschedule"]


LEFT_OUT = {("callbacks.reschedule", "guard_dnc")}
"""A callback of a listed lead: the service holds none to move (it refuses to make one,
``on_dnc``)."""


@pytest.mark.parametrize("kind", KINDS)
def test_each_operation_refuses_the_planted_number(
        sandbox: Sandbox, recorded_sender: tuple[Client, RecordingTransport],
        truth: dict[str, Planted], kind: str) -> None:
    """Every operation in turn, on one client: the first asks the law's judge, the others
    get its verdict for the minute (``Guard._verdict``), each refused by its own check."""
    client, wire = recorded_sender
    planted = truth[kind]
    said: pd.Series | None = None
    for name in OPERATIONS:
        if (name, kind) in LEFT_OUT:
            continue
        act, method, path = operation(name, client, sandbox, planted)
        with pytest.raises(ContactForbiddenError) as raised:
            act()
        error = raised.value
        if said is None:  # a contact now: the evidence says the moment, so compared once
            said = expected(planted, client, pd.Timestamp(error.at))
            assert error.evidence == said["forbidden_by"]
        assert (error.operation, error.phone, error.rule, error.basis) == (
            name, planted["phone"], planted["rule"], "law")
        assert error.rule == said["rule"], name
        assert error.next_allowed_at == (None if pd.isna(said["next_allowed_at"])
                                         else said["next_allowed_at"]), name
        assert sent(wire, method, path) == 0, name
    if kind == "guard_hours":  # the world's own reading of the law says the same moment
        assert error.next_allowed_at == pd.Timestamp(planted["opens_at"])
    if kind == "guard_cap":
        assert error.next_allowed_at is not None and error.next_allowed_at > error.at
    assert client.guard.overrides == []


SERVICE_REFUSES = {"guard_dnc": "on_dnc", "guard_hours": "message_refused", "guard_cap": None}
"""What the emulator answers an overridden text to each: it checks the list and the hours
of a text itself, not the caps."""


@pytest.mark.parametrize("kind", KINDS)
def test_an_override_of_a_planted_number_is_sent_and_recorded(
        sandbox: Sandbox, recorded_sender: tuple[Client, RecordingTransport],
        truth: dict[str, Planted], kind: str) -> None:
    client, wire = recorded_sender
    act, method, path = operation("sms.send", client, sandbox, truth[kind], override=REASON)
    if SERVICE_REFUSES[kind] is None:
        act()
    else:  # sent: the emulator keeps this law too, and refuses the text itself
        with pytest.raises(ValidationError, match=SERVICE_REFUSES[kind]):
            act()
    assert sent(wire, method, path) == 1
    [override] = client.guard.overrides
    assert (override.operation, override.phone, override.reason) == (
        "sms.send", truth[kind]["phone"], REASON)
    assert override.verdict is not None and override.verdict.rule == truth[kind]["rule"]


def test_a_resume_counts_the_planted_number_outside_its_hours(
        client: Client, truth: dict[str, Planted]) -> None:
    lead = client.leads.get(truth["guard_hours"]["lead_id"])
    assert lead.campaign_id is not None and lead.status == "new"
    client.campaigns.resume(lead.campaign_id)
    judged = client.guard.resumes[-1]
    assert judged.by_rule.get("calling_hours", 0) >= 1
    assert judged.opens_at is not None
    assert judged.opens_at <= pd.Timestamp(truth["guard_hours"]["opens_at"])
    assert judged.at < judged.opens_at
