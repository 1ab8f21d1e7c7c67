"""The guard judges a click-to-call to a lead's other number by the lead's address state
(issue 71, item 6), over real HTTP.

Fla. Stat. 501.616(6)(a): no call "after 8 p.m. local time at the called person's
location". At 20:30 New York time a call to a New York number is inside the federal window
(08:00-21:00); to a Florida lead's New York number, the person is in Florida, and it is
outside Florida's.
"""

from __future__ import annotations

import pandas as pd
import pytest

from conftest import advance
from dialkit import Client
from dialkit.compliance import next_allowed
from dialkit.errors import ContactForbiddenError
from dialkit.sandbox import Sandbox

from ._recording import RecordingTransport
from .test_guard import ready_agent, sent

MIAMI, NEW_YORK = "+13055550177", "+12125550187"
EVENING = 10 * 3600 + 30 * 60
"""From the session clock's Monday 15:00 UTC to 01:30 UTC: 20:30 in New York and Miami."""


@pytest.mark.parametrize("to", [NEW_YORK, MIAMI])
def test_a_call_to_any_number_of_a_florida_lead_keeps_floridas_hours(
        sandbox: Sandbox, recorded_sender: tuple[Client, RecordingTransport], to: str) -> None:
    client, wire = recorded_sender
    paused = next(iter(client.campaigns.list(status="paused"))).id
    lead_id = client.leads.create(campaign_id=paused, phone=MIAMI, custom_fields={
        "state": "FL", "other_phones": NEW_YORK}).lead_id
    assert lead_id is not None
    extension = ready_agent(sandbox, client)
    advance(sandbox, EVENING)
    with pytest.raises(ContactForbiddenError) as refused:
        client.calls.create(to=to, agent_extension=extension, lead_id=lead_id)
    error = refused.value
    expected = next_allowed(pd.DataFrame({"phone": [to], "state": ["FL"]}), error.at).iloc[0]
    assert (error.rule, error.jurisdiction, error.phone) == ("calling_hours", "US-FL", to)
    assert error.evidence == expected["forbidden_by"]
    assert "Fla. Stat. 501.616(6)(a)" in error.evidence
    assert sent(wire, "POST", "/v1/calls") == 0
