"""The guard takes the audit's inputs by the audit's names and reads them as the audit does
(issues 71, item 7, and 73), over real HTTP.

- ``GuardSettings(emergencies=...)``: La. R.S. 45:844.31(A), "During a state of emergency
  as declared by the governor, no telephonic solicitor shall engage in telephonic
  solicitation": a text to Louisiana while one is declared is refused, its end the next
  allowed moment, and sent once it has ended.
- ``GuardSettings(dnc=...)``: the live check answers listed or not and names no state's
  list (the contract: "``{phone, listed}``"), so a state's scrub is given as the audit's DNC
  rows: a Dallas number on Texas's list (``list`` ``US-TX``) is refused by Texas's row and
  cited as the audit cites it.
- What lifts a list's rule (the registry protects residential subscribers, 47 CFR
  64.1200(c)(2); it binds telephone solicitations, which a tax-exempt nonprofit's calls are
  not, 47 U.S.C. 227(a)(4)(C); Canada's DNCL binds neither a registered charity's appeals
  nor a newspaper's subscription calls, nor a call to a person with a written contract in
  force, Telecommunications Act 41.7): each lifts the guard's refusal of a number the live
  check says is listed exactly where it lifts the audit's ``dnc_call`` finding of the same
  contact, and nowhere else. The service keeps its own check: a text the guard lets
  through to a listed number is sent, and the service refuses it ``on_dnc``.

The session emulator's manual clock stands at Monday 2026-11-02 15:00 UTC (10:00 in New
York and Toronto, 09:00 in Dallas and New Orleans). The listed numbers are the seeded
world's, listed on their country's register more than 31 days before (past Canada's grace
and any safe harbor), at ``/_sandbox/dnc-lists``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

import httpx
import pandas as pd
import phonenumbers
import pytest

from conftest import KEYS, advance
from dialkit import Client
from dialkit.client import GuardSettings
from dialkit.client._http._transport import tls_context
from dialkit.compliance import HOUSE_RULES, AuditInputError, audit, next_allowed
from dialkit.errors import ContactForbiddenError, InputError, ValidationError
from dialkit.sandbox import Sandbox

from ._recording import RecordingTransport
from .test_guard import sent

LOUISIANA = "+15045550142"  # New Orleans: 09:00 CST at the emulator's now
DALLAS = "+12145550142"  # 09:00 CST: inside Texas's hours
LA_BAN = "La. R.S. 45:844.31(A)"
TX_LIST = "Tex. Bus. & Com. Code 304.052"
REGISTRY = "16 CFR 310.4(b)(1)(iii)(B); 47 CFR 64.1200(c)(2)"
DNCL = "CRTC Unsolicited Telecommunications Rules, Part II"
LONG_AGO = pd.Timestamp("2026-09-01T00:00Z")
"""Listed before this: more than 31 days before the emulator's now."""

Made = Callable[..., tuple[Client, RecordingTransport]]


@pytest.fixture
def guarded(sandbox: Sandbox) -> Iterator[Made]:
    """Clients with the sending key and the guard's settings given, their requests
    recorded."""
    made: list[Client] = []

    def make(**settings: Any) -> tuple[Client, RecordingTransport]:
        wire = RecordingTransport()
        made.append(Client(KEYS["sending"], base_url=sandbox.base_url, rate_limit=None,
                           transport=wire, guard=GuardSettings("law", **settings)))
        return made[-1], wire

    yield make
    for client in made:
        client.close()


def text(client: Client, to: str, reference: str) -> object:
    return client.sms.send(to=to, body="Spring offer: 20% off.", client_reference=reference)


# --- declared emergencies -----------------------------------------------------------------

def test_a_text_during_a_declared_emergency_is_refused_and_sent_once_it_ended(
        sandbox: Sandbox, guarded: Made) -> None:
    probe, _ = guarded()
    probe.me()
    now = pd.Timestamp(probe.guard.now()).floor("min")
    ends = now + pd.Timedelta(hours=2)
    assert next_allowed(LOUISIANA, now)["allowed"].item()  # the hours allow it
    client, wire = guarded(emergencies=pd.DataFrame({
        "area": ["Louisiana"], "starts_at": [f"{now - pd.Timedelta(hours=1):%Y-%m-%dT%H:%MZ}"],
        "ends_at": [f"{ends:%Y-%m-%dT%H:%MZ}"], "declaration": ["Proclamation 115 JML 2026"]}))
    with pytest.raises(ContactForbiddenError) as refused:
        text(client, LOUISIANA, "storm-1")
    error = refused.value
    assert (error.rule, error.basis, error.jurisdiction) == ("calling_hours", "law", "US-LA")
    assert "no calls during the state of emergency declared in US-LA" in error.evidence
    assert "Proclamation 115 JML 2026" in error.evidence and LA_BAN in error.evidence
    assert pd.Timestamp(error.next_allowed_at) == ends
    assert sent(wire, "POST", "/v1/sms") == 0
    advance(sandbox, 2 * 3600 + 60)
    client.me()  # the service's now, after the emergency
    text(client, LOUISIANA, "storm-2")
    assert sent(wire, "POST", "/v1/sms") == 1


# --- a state's own list -------------------------------------------------------------------

def texas_scrub(listed: bool) -> pd.DataFrame:
    """A scrub of Texas's list (its own download, as a vendor's file gives it): the Dallas
    number on it since January, or checked and not on it."""
    return pd.DataFrame({"phone": [DALLAS], "listed": [listed], "list": ["US-TX"],
                         "listed_at": [pd.Timestamp("2026-01-15T00:00Z") if listed else pd.NaT],
                         "checked_at": [pd.Timestamp("2026-10-01T00:00Z")]})


def one_call(phone: str, at: datetime) -> pd.DataFrame:
    """The contact the guard judged, as the audit reads a call made then."""
    return pd.DataFrame({"id": ["call_1"], "direction": "outbound",
                         "from_number": "+14155550100", "to_number": [phone],
                         "created_at": [pd.Timestamp(at)], "answered_at": pd.NaT,
                         "ended_at": pd.NaT, "campaign_id": ["cmp_1"], "disposition": None})


def test_a_number_on_a_states_list_given_is_refused_by_that_states_law(
        guarded: Made) -> None:
    client, wire = guarded(dnc=texas_scrub(listed=True))
    assert not client.dnc.check([DALLAS])[0].listed  # the service names no state's list
    with pytest.raises(ContactForbiddenError) as refused:
        text(client, DALLAS, "tx-1")
    error = refused.value
    assert (error.rule, error.basis, error.jurisdiction) == ("dnc_call", "law", "US-TX")
    assert error.evidence.startswith("the number is on the Texas no-call list (the DNC "
                                     "results), listed on 2026-01-15"), error.evidence
    assert error.evidence.endswith(f"; {TX_LIST}") and error.next_allowed_at is None
    assert sent(wire, "POST", "/v1/sms") == 0
    found = audit(one_call(DALLAS, error.at), dnc=texas_scrub(listed=True)).findings
    assert found[["rule", "jurisdiction", "citation"]].values.tolist() == [
        ["dnc_call", "US-TX", TX_LIST]]


@pytest.mark.parametrize("scrub", [None, texas_scrub(listed=False)],
                         ids=["no scrub", "scrubbed, not on it"])
def test_a_number_no_list_holds_is_sent(guarded: Made, scrub: pd.DataFrame | None) -> None:
    client, wire = guarded(dnc=scrub)
    text(client, DALLAS, "tx-2")
    assert sent(wire, "POST", "/v1/sms") == 1


# --- what lifts a list's rule -------------------------------------------------------------

def listed_long_ago(sandbox: Sandbox, region: str) -> tuple[str, pd.Timestamp]:
    """A number of ``region`` the seeded world lists on its country's register before
    :data:`LONG_AGO`, inside its hours at the emulator's now, and since when."""
    answer = httpx.get(sandbox.base_url + "/_sandbox/dnc-lists", params={"account": "acme"},
                       headers=sandbox.admin_headers, verify=tls_context())
    answer.raise_for_status()
    rows = pd.DataFrame(answer.json()["listings"])
    of_region = [phonenumbers.region_code_for_number(phonenumbers.parse(phone)) == region
                 for phone in rows["phone"]]
    rows = rows[(rows["list"] == "national").to_numpy(bool) & of_region
                & (pd.to_datetime(rows["listed_at"], utc=True) < LONG_AGO).to_numpy(bool)]
    open_now = next_allowed(rows["phone"], "2026-11-02T15:00Z")["allowed"].to_numpy(bool)
    row = rows[open_now].iloc[0]
    return str(row["phone"]), pd.Timestamp(row["listed_at"])


def lead(phone: str, line: str) -> pd.DataFrame:
    return pd.DataFrame({"id": ["lead_1"], "campaign_id": ["cmp_1"], "phone": [phone],
                         "status": ["contacted"], "line": [line]})


def contract(**named: str) -> pd.DataFrame:
    return pd.DataFrame({**{key: [value] for key, value in named.items()},
                         "signed_at": ["2026-03-01T00:00Z"], "ends_at": [None]})


def reassigned(phone: str) -> pd.DataFrame:
    """A reassigned ``yes`` asked after the contract was signed: it voids it."""
    return pd.DataFrame({"phone": [phone], "asked_at": ["2026-06-01T00:00Z"],
                         "answer": ["yes"]})


CASES: list[tuple[str, str, Callable[[str], dict[str, Any]], bool]] = [
    ("US", "nonprofit", lambda phone: {"nonprofit": True}, False),
    ("US", "business line", lambda phone: {"leads": lead(phone, "business")}, False),
    ("US", "residential line", lambda phone: {"leads": lead(phone, "residential")}, True),
    ("US", "charity", lambda phone: {"charity": True}, True),  # Canada's word alone
    ("US", "contract", lambda phone: {"contracts": contract(phone=phone)}, True),
    ("CA", "charity", lambda phone: {"charity": True}, False),
    ("CA", "newspaper", lambda phone: {"newspaper": True}, False),
    ("CA", "nonprofit", lambda phone: {"nonprofit": True}, True),  # narrower: a charity
    ("CA", "business line", lambda phone: {"leads": lead(phone, "business")}, False),
    ("CA", "contract", lambda phone: {"contracts": contract(phone=phone)}, False),
    ("CA", "contract by lead", lambda phone: {"contracts": contract(lead_id="lead_1"),
                                              "leads": lead(phone, "residential")}, False),
    ("CA", "contract voided", lambda phone: {"contracts": contract(phone=phone),
                                             "reassigned": reassigned(phone)}, True),
]


@pytest.mark.parametrize(("region", "given", "settings", "refused"), CASES,
                         ids=[f"{region}: {given}" for region, given, _, _ in CASES])
def test_what_lifts_a_list_lifts_the_guards_refusal_as_the_audits_finding(
        sandbox: Sandbox, guarded: Made, region: str, given: str,
        settings: Callable[[str], dict[str, Any]], refused: bool) -> None:
    phone, since = listed_long_ago(sandbox, region)
    with pytest.raises(ContactForbiddenError):  # without what the account says
        text(guarded()[0], phone, "dnc-0")
    inputs = settings(phone)
    client, wire = guarded(**inputs)
    if refused:
        with pytest.raises(ContactForbiddenError) as refusal:
            text(client, phone, "dnc-1")
        assert (refusal.value.rule, refusal.value.jurisdiction) == ("dnc_call", region)
        assert (REGISTRY if region == "US" else DNCL) in refusal.value.evidence
        assert sent(wire, "POST", "/v1/sms") == 0
    else:
        with pytest.raises(ValidationError) as theirs:  # the service's own check
            text(client, phone, "dnc-1")
        assert theirs.value.code == "on_dnc"
        assert sent(wire, "POST", "/v1/sms") == 1
    at = client.guard.now()  # the service's, read at the contact
    dnc = pd.DataFrame({"phone": [phone], "listed": [True], "listed_at": [since],
                        "checked_at": [pd.Timestamp(at)], "list": ["national"]})
    found = audit(one_call(phone, at), dnc=dnc, **inputs).findings
    assert found.loc[found["rule"] == "dnc_call", "jurisdiction"].tolist() == (
        [region] if refused else [])


# --- inputs the audit would refuse --------------------------------------------------------

@pytest.mark.parametrize(("settings", "named"), [
    ({"dnc": texas_scrub(True).drop(columns="checked_at")},
     r"GuardSettings\(dnc=\.\.\.\): dnc has no column checked_at"),
    ({"dnc": texas_scrub(True).assign(list="utah")},  # Utah keeps no list of its own
     r"GuardSettings\(dnc=\.\.\.\): dnc.list holds 'utah'"),
    ({"emergencies": pd.DataFrame({"area": ["Atlantis"], "starts_at": ["2026-11-01"]})},
     r"GuardSettings\(emergencies=\.\.\.\): .*'Atlantis'"),
    ({"leads": lead(DALLAS, "biz")}, r"GuardSettings\(leads=\.\.\.\): leads.line holds 'biz'"),
    ({"contracts": contract(lead_id="lead_1")},
     r"GuardSettings\(contracts=\.\.\.\): contracts name no phone \(or a lead_id, with "
     r"leads=\)"),
], ids=["dnc without checked_at", "dnc list", "emergency area", "leads line",
        "contract by lead without leads"])
def test_a_frame_the_audit_would_refuse_is_refused_when_the_client_is_made(
        sandbox: Sandbox, settings: dict[str, Any], named: str) -> None:
    wire = RecordingTransport()
    with pytest.raises(AuditInputError, match=named):
        Client(KEYS["sending"], base_url=sandbox.base_url, rate_limit=None, transport=wire,
               guard=GuardSettings("law", **settings))
    assert wire.sent == []


@pytest.mark.parametrize("name", ["nonprofit", "charity", "newspaper"])
@pytest.mark.parametrize("value", ["yes", "no", 1, None])
def test_a_fact_that_is_not_true_or_false_is_refused_by_name(name: str, value: object) -> None:
    with pytest.raises(InputError, match=rf"GuardSettings\({name}={value!r}\) is not True "
                                         r"or False"):
        GuardSettings("law", **{name: value})  # type: ignore[arg-type]


# --- a state's required list no scrub answers for (issue 81) --------------------------------

PHILADELPHIA = "+12155550142"  # 10:00 EST at the emulator's now
"""A number of Pennsylvania, whose law obliges a caller to obtain its list."""


def test_a_risk_is_sent_and_logged_where_the_law_alone_is_enforced(
        guarded: Made, caplog: pytest.LogCaptureFixture) -> None:
    """The account's scrubs hold Texas's list and none of Pennsylvania's: the law may
    forbid the text (the audit's risk) but nothing given says it does."""
    client, wire = guarded(dnc=texas_scrub(listed=False))
    with caplog.at_level(logging.WARNING, logger="dialkit.client.guard"):
        text(client, PHILADELPHIA, "pa-1")
    assert sent(wire, "POST", "/v1/sms") == 1
    said = [r.getMessage() for r in caplog.records if r.name == "dialkit.client.guard"]
    assert len(said) == 1 and "sent with a risk the policy would refuse" in said[0]
    assert "73 P.S. 2245.2(a)" in said[0] and PHILADELPHIA not in said[0]  # masked, as logs are


def test_the_policy_refuses_a_risk(sandbox: Sandbox) -> None:
    wire = RecordingTransport()
    settings = GuardSettings("law_and_policy", policy=HOUSE_RULES, dnc=texas_scrub(False))
    with Client(KEYS["sending"], base_url=sandbox.base_url, rate_limit=None,
                transport=wire, guard=settings) as client, \
            pytest.raises(ContactForbiddenError) as refused:
        text(client, PHILADELPHIA, "pa-2")
    assert (refused.value.rule, refused.value.basis, refused.value.jurisdiction) == (
        "dnc_call", "risk", "US-PA")  # the finding's own, not the country's
    assert "(list US-PA)" in refused.value.evidence
    assert sent(wire, "POST", "/v1/sms") == 0


BOSTON = "+16175550142"  # 10:00 EST at the emulator's now
"""A number of Massachusetts, whose list's words on its exemptions were not read."""


def test_the_policy_refuses_a_listing_a_record_may_exempt_naming_its_state(
        sandbox: Sandbox) -> None:
    """A contract in force would exempt a call to a listed number under the other lists'
    readings, and Massachusetts's words on its exemptions were not read: a risk, the
    refusal naming the state's list and its jurisdiction (the finding's, not ``US``)."""
    scrub = pd.DataFrame({"phone": [BOSTON], "listed": [True], "list": ["US-MA"],
                          "listed_at": [LONG_AGO - pd.Timedelta(days=365)],
                          "checked_at": [LONG_AGO]})
    wire = RecordingTransport()
    settings = GuardSettings("law_and_policy", policy=HOUSE_RULES, dnc=scrub,
                             contracts=contract(phone=BOSTON))
    with Client(KEYS["sending"], base_url=sandbox.base_url, rate_limit=None,
                transport=wire, guard=settings) as client, \
            pytest.raises(ContactForbiddenError) as refused:
        text(client, BOSTON, "ma-1")
    assert (refused.value.rule, refused.value.basis, refused.value.jurisdiction) == (
        "dnc_call", "risk", "US-MA")
    assert "were not read: a risk, not a breach" in refused.value.evidence
    assert sent(wire, "POST", "/v1/sms") == 0


DENVER = "+13035550142"  # 08:00 MST at the emulator's now
"""A number of Colorado, whose list a customer's purchase lifts for 18 months."""


@pytest.mark.parametrize(("bought", "refused"), [("2025-06-01T00:00Z", False),
                                                 ("2025-04-01T00:00Z", True)])
def test_a_consent_record_lifts_a_state_list_as_its_law_says(
        guarded: Made, bought: str, refused: bool) -> None:
    """A Colorado customer's purchase exempts a call to a listed number for 18 months
    (C.R.S. 6-1-903, the Attorney General's reading): 17 months after it the text goes,
    19 months after it the guard refuses it, as the audit finds it."""
    scrub = pd.DataFrame({"phone": [DENVER], "listed": [True], "list": ["US-CO"],
                          "listed_at": [LONG_AGO - pd.Timedelta(days=365)],
                          "checked_at": [LONG_AGO]})
    consents = pd.DataFrame({"phone": [DENVER], "kind": ["ebr"], "relationship": ["purchase"],
                             "given_at": [bought], "revoked_at": [None]})
    client, wire = guarded(dnc=scrub, consents=consents)
    if refused:
        with pytest.raises(ContactForbiddenError) as refusal:
            text(client, DENVER, "co-1")
        assert (refusal.value.rule, refusal.value.jurisdiction) == ("dnc_call", "US-CO")
    else:
        text(client, DENVER, "co-1")
    assert sent(wire, "POST", "/v1/sms") == (0 if refused else 1)
    at = client.guard.now()
    found = audit(one_call(DENVER, at), dnc=scrub, consents=consents).findings
    assert (found["rule"] == "dnc_call").any() == refused
