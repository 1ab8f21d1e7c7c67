"""The guard sends nothing no law judged (issue 98), over real HTTP.

A click-to-call, a text and a lead dialled now to a French mobile at 22:30 Paris time on a
Saturday, an Australian one at 22:30 Sydney time on a Sunday, a German one (no consent
given) and a Spanish one at 22:30 on a Saturday: the guard once sent each, for no row of
law judged them. Each is now refused, ``no_law_held``, naming the country, the law held and
how to accept it, and nothing is sent; accepted (``GuardSettings(accept_unjudged=...)``), it
goes to the service, still refused by the account's blocked countries and policy where
they say so; under ``enforce="off"`` nothing changes. The session emulator's manual clock
is moved to each moment (tests/compliance/test_unjudged.py: the same numbers and moments).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from datetime import UTC, datetime

import pandas as pd
import pytest

from conftest import KEYS, START, advance
from dialkit import Client
from dialkit.client import GuardSettings
from dialkit.compliance import HOUSE_RULES, US, LawJudge, next_allowed
from dialkit.compliance._rules._held import held_said
from dialkit.errors import ApiError, ContactForbiddenError
from dialkit.sandbox import Sandbox

from ._recording import RecordingTransport
from .test_guard import NOW_OPERATIONS, operation, sent

FOREIGN = {"FR": ("+33612345678", "France", "2026-11-07T21:30Z"),
           "AU": ("+61412345678", "Australia", "2026-11-08T11:30Z"),
           "DE": ("+4915123456789", "Germany", START),
           "ES": ("+34612345678", "Spain", "2026-11-07T21:30Z")}
"""libphonenumber's example mobile of each country (tests/compliance/test_unjudged.py reads
them from it), its name and the issue's moment."""
LATE = {"FR", "AU", "ES"}
"""The countries whose moment (22:30) the house rules' window refuses."""
CASES = [(name, region) for name in NOW_OPERATIONS for region in FOREIGN]


def guarded(sandbox: Sandbox, region: str, settings: GuardSettings) -> Iterator[
        tuple[Client, RecordingTransport]]:
    """A client with the sending key and ``settings``, its requests recorded, at the
    moment of ``region``'s call."""
    moment = pd.Timestamp(FOREIGN[region][2])
    advance(sandbox, (moment - pd.Timestamp(START)).total_seconds())
    wire = RecordingTransport()
    with Client(KEYS["sending"], base_url=sandbox.base_url, rate_limit=None,
                max_retries=0, transport=wire, guard=settings) as client:
        yield client, wire


@pytest.mark.parametrize(("name", "region"), CASES)
def test_a_contact_no_law_judges_is_refused_saying_why_and_not_sent(
        sandbox: Sandbox, name: str, region: str) -> None:
    phone, country, _ = FOREIGN[region]
    for client, wire in guarded(sandbox, region, GuardSettings()):
        act, path = operation(name, client, sandbox, phone)
        with pytest.raises(ContactForbiddenError) as refused:
            act()
        error = refused.value
        assert (error.rule, error.basis, error.jurisdiction, error.next_allowed_at) == (
            "no_law_held", "risk", region, None)
        assert error.evidence == next_allowed(phone, error.at).iloc[0]["forbidden_by"].replace(
            "next_allowed(", "GuardSettings(")
        assert f"dialkit holds no law for {country} ({region})" in error.evidence
        assert held_said(US) in error.evidence
        assert f"GuardSettings(accept_unjudged=['{region}'])" in error.evidence
        assert sent(wire, "POST", path) == 0


@pytest.mark.parametrize(("name", "region"), CASES)
def test_an_accepted_country_is_sent_unless_the_policy_refuses_it(
        sandbox: Sandbox, name: str, region: str) -> None:
    phone = FOREIGN[region][0]
    for client, wire in guarded(sandbox, region, GuardSettings(accept_unjudged=[region])):
        act, path = operation(name, client, sandbox, phone)
        with contextlib.suppress(ApiError):  # the service's own checks still apply
            act()
        assert sent(wire, "POST", path) == 1


@pytest.mark.parametrize("region", FOREIGN)
@pytest.mark.parametrize(("settings", "rule"), [
    (GuardSettings("law_and_policy", blocked_countries="FR, AU, DE, ES",
                   accept_unjudged="FR, AU, DE, ES"), "blocked_country"),
    (GuardSettings("law_and_policy", policy=HOUSE_RULES, accept_unjudged="FR, AU, DE, ES"),
     "calling_hours"),
])
def test_an_accepted_country_is_still_refused_by_the_policy_where_it_says_so(
        sandbox: Sandbox, region: str, settings: GuardSettings, rule: str) -> None:
    phone = FOREIGN[region][0]
    for client, wire in guarded(sandbox, region, settings):
        act, path = operation("sms.send", client, sandbox, phone)
        if rule == "calling_hours" and region not in LATE:
            with contextlib.suppress(ApiError):
                act()
            assert sent(wire, "POST", path) == 1
            continue
        with pytest.raises(ContactForbiddenError) as refused:
            act()
        assert (refused.value.rule, refused.value.basis) == (rule, "policy")
        assert sent(wire, "POST", path) == 0


def test_the_guard_off_judges_nothing(sandbox: Sandbox) -> None:
    for client, wire in guarded(sandbox, "FR", GuardSettings("off")):
        act, path = operation("sms.send", client, sandbox, FOREIGN["FR"][0])
        with contextlib.suppress(ApiError):
            act()
        assert sent(wire, "POST", path) == 1


def test_a_resume_counts_the_leads_no_law_judges(sandbox: Sandbox) -> None:
    """A campaign's leads of the four countries and a New York one, judged at Monday 10:00
    in New York: the four are not judged, unless accepted."""
    with Client(KEYS["full"], base_url=sandbox.base_url, rate_limit=None) as client:
        draft = next(iter(client.campaigns.list(status="draft"))).id
        leads = [client.leads.get(str(client.leads.create(campaign_id=draft,
                                                          phone=phone).lead_id))
                 for phone in ["+12125550142", *(each[0] for each in FOREIGN.values())]]
    at = datetime(2026, 11, 2, 15, 0, tzinfo=UTC)
    judged = LawJudge().campaign(draft, leads, at, GuardSettings())
    assert (judged.diallable, judged.forbidden, judged.by_rule) == (5, 4, {"no_law_held": 4})
    assert judged.first is not None and judged.first.rule == "no_law_held"
    assert judged.opens_at is None and not judged.first.risk
    accepted = LawJudge().campaign(draft, leads, at,
                                   GuardSettings(accept_unjudged="FR, AU, DE, ES"))
    assert accepted.forbidden == 0
