"""Each state's Do-Not-Call list as its own words say (issue 81): each exemption a row
quotes, inside and outside its window (a day before and after each limit), and each
delay, judged by the audit, ``next_allowed``, ``upcoming``, ``repair`` and the client
guard's judge alike.

The windows are the rows' own (``_law/dnc_lists.toml``, quoted there with their sources):
Colorado's 18 months after a purchase and 30 days after an inquiry (the Attorney
General's list of what C.R.S. 6-1-903 allows), Missouri's 180 days of "a business contact"
(RSMo 407.1095(3)(b)), Pennsylvania's 12 months after a purchase and no inquiry without
consent to go on (73 P.S. 2242), Florida's relationship with no time limit (Fla. Stat.
501.059(1)(k)3) and Texas's (Tex. Bus. & Com. Code 304.002(4), 304.004(2)); a request or
invitation to call
(``invitation``) where the words name one, and where the words on the exemptions were not
reached, a risk, not a breach; Massachusetts's 60 days after a listing
first appears (201 CMR 12.05(2));
Mississippi's consumer "a person or business" (77-3-705(a), 2019).
"""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

from dialkit._guarding import GuardSettings, LiveDnc
from dialkit._law import _dnc_lists as lists
from dialkit.compliance import LawJudge, audit, next_allowed, repair, upcoming
from dialkit.contract import DncCheckResult

PHONES = {"CO": "+13035550123", "MO": "+13145550123", "PA": "+12155550123",
          "FL": "+13055550123", "MA": "+16175550123",
          "MS": "+16015550123", "TX": "+12145550123", "WY": "+13075550123", "TN": "+16155550123",
          "OK": "+14055550123"}
"""A number of each state, by its area code (Denver, St. Louis, Philadelphia, Miami,
Boston, Jackson, Dallas, Cheyenne, Nashville, Oklahoma City)."""
LISTED = "2025-01-01"
"""When each number was listed: long before every call, past every delay."""


def record(state: str, kind: str, given: str, relationship: str | None = None,
           revoked: str | None = None) -> pd.DataFrame:
    """A consent record of the state's number."""
    return pd.DataFrame({
        "phone": [PHONES[state]], "kind": [kind],
        "relationship": [relationship], "given_at": pd.to_datetime([given], utc=True),
        "revoked_at": pd.to_datetime([revoked], utc=True)})


def judged(state: str, at: str, *, listed: str = LISTED, consents: pd.DataFrame | None = None,
           line: str | None = None) -> tuple[bool, bool]:
    """(whether the audit finds the call at ``at`` a breach of a Do-Not-Call list, whether
    ``next_allowed`` forbids it then), the number on the state's list since ``listed``: a
    revoked consent puts it on the account's own list too (an opt-out). ``upcoming``,
    asked of a callback scheduled then, must find what the audit finds of the call,
    ``repair`` must cancel that callback just where it does, and the client guard's judge
    (its settings holding the same DNC rows, consents and lead) must refuse the contact
    just where ``next_allowed`` forbids it."""
    phone, row = PHONES[state], lists.state_list(f"US-{state}")
    assert row is not None
    dnc = pd.DataFrame({"phone": [phone], "listed": [True], "list": [row.id],
                        "listed_at": pd.to_datetime([listed], utc=True),
                        "checked_at": pd.to_datetime([at], utc=True)})
    calls = pd.DataFrame({"id": ["call_1"], "direction": "outbound",
                          "from_number": "+14155550100", "to_number": [phone],
                          "created_at": pd.to_datetime([at], utc=True),
                          "answered_at": pd.NaT, "ended_at": pd.NaT, "campaign_id": "cmp_1",
                          "disposition": None})
    leads = pd.DataFrame({"id": ["lead_1"], "campaign_id": ["cmp_1"], "phone": [phone],
                          "status": ["callback"], "line": [line or "residential"]})
    found = audit(calls, dnc=dnc, consents=consents, leads=leads if line else None,
                  as_of="2026-11-27").findings
    breach = bool((found["rule"] == "dnc_call").any())  # the state's list, or the account's
    due = upcoming({"calls": calls.iloc[:0], "dnc": dnc, "leads": leads.assign(
        next_attempt_at=pd.NaT), "callbacks": pd.DataFrame({
            "id": ["cb_1"], "lead_id": ["lead_1"], "campaign_id": ["cmp_1"],
            "scheduled_at": pd.to_datetime([at], utc=True), "status": ["pending"]})},
        as_of=pd.Timestamp(at) - pd.Timedelta(hours=1), consents=consents)
    assert bool((due["rule"] == "dnc_call").any()) == breach, due[["rule", "evidence"]]
    plan = repair(due, None, frames={"calls": calls.iloc[:0], "dnc": dnc, "leads": leads},
                  consents=consents)
    assert bool((plan["action"] == "cancel").any()) == breach, plan[["action", "reason"]]
    asked = leads if line else phone
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        answer = next_allowed(asked, at, dnc=dnc, consents=consents)
    forbidden = not bool(answer["allowed"].iloc[0]) and answer["rule"].iloc[0] == "dnc_call"
    settings = GuardSettings("law", dnc=dnc, consents=consents, leads=leads if line else None)
    moment = pd.Timestamp(at).to_pydatetime()
    verdict = LawJudge().contact(phone, moment, state=None, campaign_id="cmp_1", calls=[],
                                 texts=[], settings=settings, dnc=LiveDnc(
                                     DncCheckResult(phone=phone, listed=False), moment))
    refused = verdict is not None and not verdict.risk and verdict.rule == "dnc_call"
    assert refused == forbidden, verdict
    return breach, forbidden


CASES = [
    # Colorado: 18 months after a purchase (from 2024-12-01: to 2026-06-01), 30 days
    # after an inquiry (from 2026-05-01: to 2026-05-31), an invitation while it stands.
    ("CO", "2026-05-31T16:00Z", record("CO", "ebr", "2024-12-01", "purchase"), False),
    ("CO", "2026-06-02T16:00Z", record("CO", "ebr", "2024-12-01", "purchase"), True),
    ("CO", "2026-05-30T16:00Z", record("CO", "ebr", "2026-05-01", "inquiry"), False),
    ("CO", "2026-06-01T16:00Z", record("CO", "ebr", "2026-05-01", "inquiry"), True),
    ("CO", "2026-06-02T16:00Z", record("CO", "invitation", "2026-01-01"), False),
    ("CO", "2026-06-02T16:00Z", record("CO", "invitation", "2026-01-01",
                                       revoked="2026-03-01"), True),
    # Missouri: 180 days of a business contact, a purchase or an inquiry (from 2025-12-10:
    # to 2026-06-08); an invitation or permission.
    ("MO", "2026-06-07T16:00Z", record("MO", "ebr", "2025-12-10", "purchase"), False),
    ("MO", "2026-06-09T16:00Z", record("MO", "ebr", "2025-12-10", "purchase"), True),
    ("MO", "2026-06-07T16:00Z", record("MO", "ebr", "2025-12-10", "inquiry"), False),
    ("MO", "2026-06-09T16:00Z", record("MO", "ebr", "2025-12-10", "inquiry"), True),
    ("MO", "2026-06-02T16:00Z", record("MO", "invitation", "2026-01-01"), False),
    # Pennsylvania: 12 months after a purchase (from 2025-06-10: to 2026-06-10); an inquiry
    # alone not at all; an express request.
    ("PA", "2026-06-09T16:00Z", record("PA", "ebr", "2025-06-10", "purchase"), False),
    ("PA", "2026-06-11T16:00Z", record("PA", "ebr", "2025-06-10", "purchase"), True),
    ("PA", "2026-05-02T16:00Z", record("PA", "ebr", "2026-05-01", "inquiry"), True),
    ("PA", "2026-06-02T16:00Z", record("PA", "invitation", "2026-01-01"), False),
    # Florida: a relationship with no time limit, until it ends.
    ("FL", "2026-06-02T16:00Z", record("FL", "ebr", "2016-01-01", "purchase"), False),
    ("FL", "2026-06-02T16:00Z", record("FL", "ebr", "2016-01-01", "inquiry"), False),
    ("FL", "2026-06-02T16:00Z", record("FL", "ebr", "2016-01-01", "purchase",
                                       revoked="2026-03-01"), True),
    # Wyoming: a relationship of a purchase or an inquiry with no limit but its ending
    # (40-12-301(a)(vi)), a call at the request of the person called.
    ("WY", "2026-06-02T16:00Z", record("WY", "ebr", "2016-01-01", "purchase"), False),
    ("WY", "2026-06-02T16:00Z", record("WY", "ebr", "2016-01-01", "inquiry"), False),
    ("WY", "2026-06-02T16:00Z", record("WY", "ebr", "2016-01-01", "inquiry",
                                       revoked="2026-03-01"), True),
    ("WY", "2026-06-02T16:00Z", record("WY", "invitation", "2026-01-01"), False),
    # Oklahoma: a relationship formed within 24 months, or an existing one not
    # terminated (775B.2(3)), of an inquiry as of a purchase.
    ("OK", "2026-06-02T16:00Z", record("OK", "ebr", "2016-01-01", "inquiry"), False),
    ("OK", "2026-06-02T16:00Z", record("OK", "ebr", "2016-01-01", "purchase",
                                       revoked="2026-03-01"), True),
    # Tennessee: an express invitation or permission (the Commission's words).
    ("TN", "2026-06-02T16:00Z", record("TN", "invitation", "2026-01-01"), False),
    # Texas: a relationship formed by a voluntary two-way communication, a purchase or
    # not, while it lasts (304.002(4), 304.004(2)); no invitation named.
    ("TX", "2026-06-02T16:00Z", record("TX", "ebr", "2016-01-01", "purchase"), False),
    ("TX", "2026-06-02T16:00Z", record("TX", "ebr", "2016-01-01", "inquiry"), False),
    ("TX", "2026-06-02T16:00Z", record("TX", "invitation", "2026-01-01"), True),
]


@pytest.mark.parametrize(("state", "at", "consents", "breach"), CASES,
                         ids=[f"{state}-{consents['kind'][0]}-{consents['relationship'][0] or ''}-"
                              f"{at[:10]}{'-revoked' * bool(consents['revoked_at'].notna()[0])}"
                              for state, at, consents, _ in CASES])
def test_each_exemption_holds_as_long_as_its_words_say(state: str, at: str,
                                                       consents: pd.DataFrame,
                                                       breach: bool) -> None:
    assert judged(state, at, consents=consents) == (breach, breach)


@pytest.mark.parametrize(("state", "listed", "at", "breach"), [
    ("MA", "2026-04-01", "2026-05-30T16:00Z", False),   # 59 days after the listing appears
    ("MA", "2026-04-01", "2026-06-01T16:00Z", True),    # 61 days: effective
    ("PA", "2026-05-01", "2026-05-30T16:00Z", False),   # 30 days after the quarterly list
    ("PA", "2026-05-01", "2026-06-01T16:00Z", True),
    ("TN", "2026-04-01", "2026-05-30T16:00Z", False),   # 59 days after the register's
    ("TN", "2026-04-01", "2026-06-01T16:00Z", True),    # month began (Rule .05(1)(a))
    ("WY", "2026-04-01", "2026-05-30T16:00Z", False),   # 59 days on the Service
    ("WY", "2026-04-01", "2026-06-01T16:00Z", True),    # 61 days
])
def test_each_delay_runs_from_the_listing(state: str, listed: str, at: str,
                                          breach: bool) -> None:
    assert judged(state, at, listed=listed) == (breach, breach)


@pytest.mark.parametrize(("state", "breach"), [("MS", True), ("PA", True), ("CO", False),
                                               ("MO", False), ("MA", False),
                                               ("WY", False)])
def test_a_business_line_is_on_a_list_whose_words_name_businesses(state: str,
                                                                  breach: bool) -> None:
    """Mississippi's consumer is 'a person or business' since 2019, Pennsylvania's list
    holds business subscribers since 2019; Colorado's, Missouri's and Massachusetts's hold
    residential subscribers alone."""
    assert judged(state, "2026-06-02T16:00Z", line="business") == (breach, breach)


@pytest.mark.parametrize(("state", "kind"), [("MA", "invitation"), ("MA", "written"),
                                             ("MS", "ebr")])
def test_a_record_a_list_whose_words_were_not_read_may_honour_is_a_risk(state: str,
                                                                       kind: str) -> None:
    """Massachusetts's and Mississippi's words on their exemptions were not reached: a call
    a record would exempt under the other lists' readings is a risk naming those words,
    which ``next_allowed`` allows with its ``risk`` column, not a breach of law."""
    phone, row = PHONES[state], lists.state_list(f"US-{state}")
    assert row is not None and row.unread
    consents = record(state, kind, "2026-05-01", "purchase" if kind == "ebr" else None)
    dnc = pd.DataFrame({"phone": [phone], "listed": [True], "list": [row.id],
                        "listed_at": pd.to_datetime([LISTED], utc=True),
                        "checked_at": pd.to_datetime(["2026-06-01"], utc=True)})
    calls = pd.DataFrame({"id": ["call_1"], "direction": "outbound",
                          "from_number": "+14155550100", "to_number": [phone],
                          "created_at": pd.to_datetime(["2026-06-02T16:00Z"], utc=True),
                          "answered_at": pd.NaT, "ended_at": pd.NaT, "campaign_id": "cmp_1",
                          "disposition": None})
    found = audit(calls, dnc=dnc, consents=consents, as_of="2026-11-27").findings
    found = found[found["rule"] == "dnc_call"]  # not the TCPA's written consent's
    assert found["basis"].tolist() == ["risk"]
    assert f"({row.unread}) were not read" in found["evidence"].iloc[0]
    with pytest.warns(match="may be a call the law forbids"):
        answer = next_allowed(phone, "2026-06-02T16:00Z", dnc=dnc, consents=consents)
    assert bool(answer["allowed"].iloc[0]) and row.unread in answer["risk"].iloc[0]
    without = audit(calls, dnc=dnc, as_of="2026-11-27").findings
    assert without[["rule", "basis"]].values.tolist() == [["dnc_call", "law"]]
