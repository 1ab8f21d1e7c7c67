"""The client's guard on every operation that reaches a person (issue 50), over real HTTP.

The session emulator's manual clock stands at Monday 2026-11-02 15:00 UTC: 10:00 in New
York (allowed), 07:00 in San Francisco (before the law's 08:00: refused). Each operation
is judged at the service's now (or ``scheduled_at``) by ``next_allowed``, so the refusal
is held equal to ``next_allowed``'s answer; a refused operation sends no request of its
own (the recording transport shows only the guard's reads), an overridden one is sent
and recorded.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime, time, timedelta
from itertools import islice
from typing import Any

import pandas as pd
import pytest

from conftest import KEYS, advance
from dialkit import Client
from dialkit._law import _jurisdictions
from dialkit.client import GuardSettings
from dialkit.compliance import HOUSE_RULES, POLICIES, next_allowed
from dialkit.contract import Lead
from dialkit.errors import ContactForbiddenError, DialkitError, ValidationError
from dialkit.sandbox import Sandbox

from ._recording import RecordingTransport

NOW = datetime(2026, 11, 2, 15, 0, tzinfo=UTC)
EASTERN = "+12125550142"
"""New York: 10:00 local at the emulator's now, inside the hours."""
PACIFIC = "+14155550123"
"""San Francisco: 07:00 local at the emulator's now, before the law's 08:00."""
OPENS = datetime(2026, 11, 2, 16, 0, tzinfo=UTC)
"""08:00 in San Francisco: the next allowed moment of a call to :data:`PACIFIC`."""
NIGHT = datetime(2026, 11, 4, 7, 0, tzinfo=UTC)
"""Wednesday 07:00 UTC: night everywhere in North America."""
DAY = datetime(2026, 11, 4, 18, 0, tzinfo=UTC)
"""Wednesday 18:00 UTC: midday in North America."""
REASON = "the customer asked to be called at once"
SERVICE_NOW = timedelta(seconds=5)
"""How far the guard's now may be from the manual clock's: its ``Date`` (whole seconds)
plus the time passed here since."""


def ready_agent(sandbox: Sandbox, client: Client) -> str:
    """An agent of the ``full`` client's data set made ready for a click-to-call."""
    client.me()
    store = sandbox.service.store
    with store.lock:
        store.conn.execute("UPDATE agents SET state = 'ready', held_until = NULL "
                           "WHERE dataset = 'client:acme/full'")
        row = store.row("SELECT extension FROM agents WHERE dataset = 'client:acme/full' "
                        "ORDER BY extension")
    assert row is not None
    return str(row["extension"])


def nanp_lead(client: Client) -> Lead:
    """A new lead of a paused campaign with a North American number not on the list."""
    paused = {c.id for c in client.campaigns.list(status="paused")}
    leads = [lead for lead in islice(client.leads.list(status="new"), 200)
             if lead.campaign_id in paused and lead.phone.startswith("+1")]
    listed = {r.phone for r in client.dnc.check([lead.phone for lead in leads]) if r.listed}
    judged = next_allowed([lead.phone for lead in leads], DAY)
    return next(lead for lead, ok in zip(leads, judged["allowed"], strict=True)
                if ok and lead.phone not in listed)


def sent(wire: RecordingTransport, method: str, path: str) -> int:
    """How many requests of one operation went out."""
    return len(wire.to(path, method))


def operation(name: str, client: Client, sandbox: Sandbox, phone: str,
              **options: Any) -> tuple[Callable[[], object], str]:
    """One guarded operation of ``phone`` at the service's now, and its request's path."""
    if name == "calls.create":
        extension = ready_agent(sandbox, client)
        return (lambda: client.calls.create(to=phone, agent_extension=extension, **options),
                "/v1/calls")
    if name == "sms.send":
        return (lambda: client.sms.send(to=phone, body="Your table is ready.",
                                        client_reference=f"guard-{phone}", **options),
                "/v1/sms")
    assert name == "leads.create"
    draft = next(iter(client.campaigns.list(status="draft"))).id
    return (lambda: client.leads.create(campaign_id=draft, phone=phone, dial_now=True,
                                        **options), "/v1/leads")


NOW_OPERATIONS = ["calls.create", "sms.send", "leads.create"]


@pytest.mark.parametrize("name", NOW_OPERATIONS)
def test_a_contact_at_night_is_refused_with_the_next_allowed_moment_and_not_sent(
        sandbox: Sandbox, recorded_sender: tuple[Client, RecordingTransport], name: str) -> None:
    client, wire = recorded_sender
    act, path = operation(name, client, sandbox, PACIFIC)
    with pytest.raises(ContactForbiddenError) as raised:
        act()
    error = raised.value
    assert isinstance(error, DialkitError)
    expected = next_allowed(PACIFIC, error.at).iloc[0]
    assert abs(error.at - NOW) < SERVICE_NOW  # the service's now, not this machine's
    assert (error.operation, error.phone, error.rule, error.basis) == (
        name, PACIFIC, "calling_hours", "law")
    assert error.evidence == expected["forbidden_by"] and "16 CFR 310.4(c)" in error.evidence
    assert error.next_allowed_at == OPENS == expected["next_allowed_at"]
    assert (error.next_local_time, error.timezone) == ("2026-11-02 08:00:00",
                                                       "America/Los_Angeles")
    assert "next allowed 2026-11-02 16:00 UTC" in str(error) and "override=" in str(error)
    assert sent(wire, "POST", path) == 0
    assert client.guard.overrides == []


@pytest.mark.parametrize("name", NOW_OPERATIONS)
def test_a_contact_in_the_hours_is_sent(sandbox: Sandbox,
                                        recorded_sender: tuple[Client, RecordingTransport],
                                        name: str) -> None:
    client, wire = recorded_sender
    act, path = operation(name, client, sandbox, EASTERN)
    act()
    assert sent(wire, "POST", path) == 1
    assert client.guard.overrides == []


@pytest.mark.parametrize("name", NOW_OPERATIONS)
def test_an_override_sends_the_contact_and_records_it(
        sandbox: Sandbox, recorded_sender: tuple[Client, RecordingTransport], name: str,
        caplog: pytest.LogCaptureFixture) -> None:
    client, wire = recorded_sender
    act, path = operation(name, client, sandbox, PACIFIC, override=REASON)
    with caplog.at_level(logging.WARNING, logger="dialkit.client.guard"):
        if name == "leads.create":  # queued: the dialer keeps the hours when it dials
            act()
        else:  # the emulator keeps the law too, so its own check refuses what is sent
            with pytest.raises(ValidationError, match="dial_refused|message_refused"):
                act()
    assert sent(wire, "POST", path) == 1
    [override] = client.guard.overrides
    assert (override.operation, override.phone, override.reason) == (name, PACIFIC, REASON)
    assert abs(override.at - NOW) < SERVICE_NOW
    assert override.verdict is not None and override.verdict.rule == "calling_hours"
    assert override.verdict.next_allowed_at == OPENS
    [record] = [r for r in caplog.records if r.name == "dialkit.client.guard"]
    assert REASON in record.getMessage() and "calling_hours" in record.getMessage()
    assert KEYS["sending"][-12:] not in caplog.text


def test_a_listed_number_is_refused_with_no_next_moment(
        sandbox: Sandbox, recorded_sender: tuple[Client, RecordingTransport]) -> None:
    client, wire = recorded_sender
    row = sandbox.service.store.row("SELECT phone FROM dnc WHERE dataset = 'seed:acme' "
                                    "AND phone LIKE '+1%' ORDER BY phone")
    assert row is not None
    listed = str(row["phone"])
    with pytest.raises(ContactForbiddenError) as raised:
        client.sms.send(to=listed, body="hello", client_reference="listed-1")
    assert (raised.value.rule, raised.value.next_allowed_at) == ("dnc_call", None)
    assert "Do Not Call" in raised.value.evidence and "no allowed moment" in str(raised.value)
    assert sent(wire, "POST", "/v1/sms") == 0
    checks = sent(wire, "POST", "/v1/dnc/check")
    with pytest.raises(ContactForbiddenError):
        client.sms.send(to=listed, body="hello", client_reference="listed-2")
    assert sent(wire, "POST", "/v1/dnc/check") == checks  # the live answer is kept a while


def test_a_number_at_its_cap_is_refused_until_the_cap_frees_it(sandbox: Sandbox) -> None:
    wire = RecordingTransport()
    policy = GuardSettings("law_and_policy", policy=HOUSE_RULES)
    with Client(KEYS["sending"], base_url=sandbox.base_url, rate_limit=None,
                transport=wire, guard=policy) as client:
        for _ in range(3):  # the house rules: at most 3 calls a day to a number
            client.calls.create(to=EASTERN, agent_extension=ready_agent(sandbox, client))
        with pytest.raises(ContactForbiddenError) as raised:
            client.calls.create(to=EASTERN, agent_extension=ready_agent(sandbox, client))
        assert (raised.value.rule, raised.value.basis) == ("call_frequency", "policy")
        assert raised.value.next_allowed_at is not None
        assert raised.value.next_allowed_at >= NOW + timedelta(hours=24)
        assert sent(wire, "POST", "/v1/calls") == 3


def test_a_callback_at_a_forbidden_moment_is_refused_and_one_moved_there_too(
        client: Client) -> None:
    lead = nanp_lead(client)
    with pytest.raises(ContactForbiddenError) as raised:
        client.callbacks.create(lead_id=lead.id, scheduled_at=NIGHT)
    expected = next_allowed(lead.phone, NIGHT).iloc[0]
    assert (raised.value.operation, raised.value.at, raised.value.rule) == (
        "callbacks.create", NIGHT, "calling_hours")
    assert raised.value.next_allowed_at == expected["next_allowed_at"] > NIGHT
    assert lead.campaign_id is not None
    assert list(client.callbacks.list(lead.campaign_id, status="pending")) == [] or all(
        c.lead_id != lead.id for c in client.callbacks.list(lead.campaign_id))
    callback = client.callbacks.create(lead_id=lead.id, scheduled_at=DAY)
    with pytest.raises(ContactForbiddenError) as moved:
        client.callbacks.reschedule(callback.id, scheduled_at=NIGHT)
    assert moved.value.operation == "callbacks.reschedule" and moved.value.at == NIGHT
    pending = next(c for c in client.callbacks.list(lead.campaign_id) if c.id == callback.id)
    assert pending.scheduled_at == DAY  # not moved
    client.callbacks.reschedule(callback.id, scheduled_at=DAY + timedelta(hours=1),
                                lead_id=lead.id)
    late = client.callbacks.reschedule(callback.id, scheduled_at=NIGHT, override=REASON)
    assert late.scheduled_at == NIGHT
    assert [(o.operation, o.reason) for o in client.guard.overrides] == [
        ("callbacks.reschedule", REASON)]


def test_a_resume_says_what_the_law_forbids_and_refuses_when_most_are(
        client: Client, sandbox: Sandbox) -> None:
    campaign = next(iter(client.campaigns.list(status="paused"))).id
    advance(sandbox, 12 * 3600)  # 03:00 UTC: night in North America
    with pytest.raises(ContactForbiddenError) as raised:
        client.campaigns.resume(campaign)
    judged = client.guard.resumes[-1]
    assert judged.diallable > 0 and judged.forbidden > judged.diallable / 2
    assert raised.value.operation == "campaigns.resume" and raised.value.phone is None
    assert raised.value.next_allowed_at == judged.opens_at is not None
    assert f"{judged.forbidden} of {judged.diallable} diallable leads" in str(raised.value)
    assert client.campaigns.get(campaign).status == "paused"
    assert client.campaigns.resume(campaign, override=REASON).status == "running"
    assert client.guard.overrides[-1].operation == "campaigns.resume"


def test_a_resume_in_the_day_is_sent_and_counts_the_forbidden_leads(client: Client) -> None:
    campaign = next(iter(client.campaigns.list(status="paused"))).id
    assert client.campaigns.resume(campaign).status == "running"
    judged = client.guard.resumes[-1]
    leads = [lead for lead in client.leads.list(campaign_id=campaign)
             if lead.status in ("new", "contacted", "callback")]
    state = [(lead.custom_fields or {}).get("state") for lead in leads]
    expected = next_allowed(pd.DataFrame({"phone": [lead.phone for lead in leads],
                                          "state": state}), NOW)
    assert (judged.diallable, judged.forbidden) == (len(leads),
                                                    int((~expected["allowed"]).sum()))
    assert judged.forbidden <= judged.diallable / 2


def test_off_sends_everything_and_warns_once(sandbox: Sandbox,
                                             caplog: pytest.LogCaptureFixture) -> None:
    wire = RecordingTransport()
    with caplog.at_level(logging.WARNING, logger="dialkit.client.guard"), \
            Client(KEYS["sending"], base_url=sandbox.base_url, rate_limit=None,
                   transport=wire, guard="off") as client:
        for reference in ("off-1", "off-2"):
            with pytest.raises(ValidationError, match="message_refused"):  # the service's
                client.sms.send(to=PACIFIC, body="hello", client_reference=reference)
    assert [r.path for r in wire.sent] == ["/v1/sms", "/v1/sms"]  # no DNC check, no reads
    [warning] = [r for r in caplog.records if r.name == "dialkit.client.guard"]
    assert "guard is off" in warning.getMessage() and "calling hours" in warning.getMessage()


def test_bad_settings_and_an_empty_reason_are_refused_before_any_request(
        recorded_sender: tuple[Client, RecordingTransport]) -> None:
    client, wire = recorded_sender
    with pytest.raises(ValueError, match="override is the reason"):
        client.sms.send(to=EASTERN, body="hello", client_reference="r-1", override="  ")
    assert wire.sent == []
    with pytest.raises(ValueError, match="is not one of law, law_and_policy, off"):
        Client(KEYS["sending"], base_url="http://127.0.0.1:9", guard="lax")
    with pytest.raises(ValueError, match="needs the policy"):
        GuardSettings("law_and_policy")
    with pytest.raises(ValueError, match="blocked_countries holds '\\+98', a calling code"):
        GuardSettings("law_and_policy", blocked_countries=["+98"])  # as the audit says it


def test_a_blocked_country_is_refused_under_the_policy_only(sandbox: Sandbox) -> None:
    iran = "+989121234567"
    wire = RecordingTransport()
    policy = GuardSettings("law_and_policy", blocked_countries="Iran")
    with Client(KEYS["sending"], base_url=sandbox.base_url, rate_limit=None,
                transport=wire, guard=policy) as client, \
            pytest.raises(ContactForbiddenError) as raised:
        client.sms.send(to=iran, body="hello", client_reference="ir-1")
    assert (raised.value.rule, raised.value.basis, raised.value.next_allowed_at) == (
        "blocked_country", "policy", None)
    assert "a blocked country" in raised.value.evidence
    assert sent(wire, "POST", "/v1/sms") == 0


def test_the_guard_judges_at_the_services_clock_not_this_machines(
        recorded_sender: tuple[Client, RecordingTransport]) -> None:
    client, _ = recorded_sender
    client.me()
    assert abs(client.guard.now() - NOW) < timedelta(seconds=30)
    assert abs(datetime.now(UTC) - NOW) > timedelta(days=1)  # the machine is elsewhere


def test_every_window_of_the_law_opens_and_closes_on_a_whole_minute() -> None:
    """The guard keeps a verdict for its minute (``Guard._verdict``): sound only while
    no window of the law's table or of a policy starts or ends inside a minute (the
    whole day's window ends at ``time.max``, the day's end)."""
    windows = [(row.id, window) for row in _jurisdictions.all()
               for window in (row.weekday, row.saturday, row.sunday, row.holiday)
               if window is not None]
    windows += [(name, policy.window) for name, policy in POLICIES.items()
                if policy.window is not None]
    assert len(windows) >= 40
    for name, (start, end) in windows:
        assert (start.second, start.microsecond) == (0, 0), name
        assert end == time.max or (end.second, end.microsecond) == (0, 0), name
