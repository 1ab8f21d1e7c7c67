"""Do-Not-Call by list (issue 47, items 5 and 13): each list's own grace, judged per call
at the call's moment, as the quoted text of its law says; every finding names its law."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from dialkit._law import _dnc_lists as lists
from dialkit.compliance import AuditInputError, audit

US, GB, CA, PR = "+12125550123", "+442079460000", "+14165550123", "+17875550100"


def calls(*placed: tuple[str, str], disposition: str | None = None) -> pd.DataFrame:
    """Unanswered campaign calls, (number, UTC time) each, ``call_0``, ``call_1``, ..."""
    return pd.DataFrame({
        "id": [f"call_{n}" for n in range(len(placed))], "direction": "outbound",
        "from_number": "+14155550100", "to_number": [p for p, _ in placed],
        "created_at": pd.to_datetime([t for _, t in placed], utc=True),
        "answered_at": pd.NaT, "ended_at": pd.NaT, "campaign_id": "cmp_1",
        "disposition": disposition})


def dnc(*rows: tuple[str, str | None, str], **columns: list[object]) -> pd.DataFrame:
    """Listed numbers: (number, listed_at, checked_at) each, and any other columns."""
    return pd.DataFrame({"phone": [r[0] for r in rows], "listed": True,
                         "listed_at": pd.to_datetime([r[1] for r in rows], utc=True),
                         "checked_at": pd.to_datetime([r[2] for r in rows], utc=True),
                         **columns})


def dnc_calls(report: object) -> pd.DataFrame:
    found = report.findings  # type: ignore[attr-defined]
    return found[found["rule"] == "dnc_call"]


@pytest.mark.parametrize(("called", "found"), [
    ("2026-06-28T12:00Z", False),  # 27 days: "less than 28 days preceding" the call
    ("2026-06-29T12:00Z", True),   # 28 days
])
def test_the_tps_grace_is_pecr_21_3s_28_days(called: str, found: bool) -> None:
    report = audit(calls((GB, called)), dnc=dnc((GB, "2026-06-01T09:00Z", "2026-07-10")))
    hits = dnc_calls(report)
    assert len(hits) == found
    if found:
        assert hits.iloc[0][["jurisdiction", "decided_by", "citation"]].tolist() == [
            "GB", "list", "PECR reg. 21(1)(b)"]
        assert "the law's grace of 28 days" in hits.iloc[0]["evidence"]


@pytest.mark.parametrize(("called", "said"), [
    ("2026-06-28T23:59:59Z", None),  # within the grace: no finding
    ("2026-06-29T00:00:00Z", "ended at 2026-06-29 00:00:00 UTC, the moment of the call"),
    ("2026-06-29T00:00:01Z", "ended at 2026-06-29 00:00:00 UTC, before the call (the call: "
                             "2026-06-29 00:00:01 UTC)"),
])
def test_the_evidence_says_when_the_grace_ended_as_the_law_counts_it(
        called: str, said: str | None) -> None:
    """Issue 79: "listed on 2026-06-01 ..., 27 days before the call; the law's grace is 28
    days" read as within the grace of a call that broke it. The grace counts whole days
    from the listing's day: it ends on 29 June at 00:00, and the evidence says so, and
    where the call fell against it."""
    hits = dnc_calls(audit(calls((GB, called)), dnc=dnc((GB, "2026-06-01T09:00Z", "2026-07-10"))))
    assert len(hits) == (said is not None)
    if said is not None:
        evidence = hits["evidence"].iloc[0]
        assert ("listed on 2026-06-01 09:00:00; the law's grace of 28 days, counted in whole "
                "days from the day of the listing (UTC), " + said) in evidence
        assert "days before the call" not in evidence


def test_the_registrys_safe_harbor_says_when_it_ended() -> None:
    """The US registry's 31 days from a check made before the listing: the evidence says
    when they ended, not only the check's day (42 days before the call)."""
    listed = dnc((US, "2026-06-01T00:00Z", "2026-07-10"))
    history = pd.DataFrame({"phone": [US], "listed": [False],
                            "checked_at": pd.to_datetime(["2026-04-30T00:00Z"], utc=True)})
    hits = dnc_calls(audit(calls((US, "2026-06-11T15:00Z")),
                           dnc=pd.concat([listed, history], ignore_index=True)))
    assert ("its last check before the call was on 2026-04-30, 42 days before; the 31 days "
            "from it ended at 2026-05-31 00:00:00 UTC, before the call (the call: "
            "2026-06-11 15:00:00 UTC)") in hits["evidence"].iloc[0]


@pytest.mark.parametrize("second", ["2026-06-01T09:00Z", "2026-06-20T09:00Z"])
def test_two_scrub_runs_of_a_listing_are_one_fact(second: str) -> None:
    """Issue 79: a vendor's file of two scrub runs holds the number's listing twice (the
    same listing checked on two dates, or a later date in the later run): the evidence
    named each fact twice. It names the earliest listing once, and how many rows gave it."""
    results = dnc((GB, "2026-06-01T09:00Z", "2026-07-01"), (GB, second, "2026-07-08"))
    hits = dnc_calls(audit(calls((GB, "2026-07-09T12:00Z")), dnc=results))
    evidence = hits["evidence"].tolist()
    assert len(evidence) == 1
    assert evidence[0].count("the number is on") == 1 and evidence[0].count("listed on") == 1
    assert ("(the DNC results, 2 rows (scrub runs): the earliest listing the call breaks is "
            "judged), listed on 2026-06-01 09:00:00;") in evidence[0]
    assert hits["listed_at"].tolist() == [pd.Timestamp("2026-06-01T09:00Z")]


@pytest.mark.parametrize(("called", "found"), [("2026-07-01T15:00Z", False),
                                               ("2026-07-02T15:00Z", True)])
def test_the_dncl_grace_is_the_crtcs_31_days(called: str, found: bool) -> None:
    report = audit(calls((CA, called)), dnc=dnc((CA, "2026-06-01T09:00Z", "2026-07-10")))
    assert len(dnc_calls(report)) == found


@pytest.mark.parametrize(("check", "found"), [
    ("2026-05-25T00:00Z", False),  # before the listing, 17 days before the call
    ("2026-04-30T00:00Z", True),   # before the listing, 42 days before the call: too old
    (None, True),                  # no check before the call
])
def test_the_us_registrys_safe_harbor_needs_a_recent_check_before_the_listing(
        check: str | None, found: bool) -> None:
    listed = dnc((US, "2026-06-01T00:00Z", "2026-07-10"))
    history = pd.DataFrame({"phone": [US], "listed": [False],
                            "checked_at": pd.to_datetime([check], utc=True)})
    results = pd.concat([listed, history if check else history.iloc[:0]], ignore_index=True)
    hits = dnc_calls(audit(calls((US, "2026-06-11T15:00Z")), dnc=results))
    assert len(hits) == found
    if found:
        evidence = hits.iloc[0]["evidence"]
        assert hits.iloc[0]["citation"] == "16 CFR 310.4(b)(1)(iii)(B); 47 CFR 64.1200(c)(2)"
        assert ("42 days before" if check else "hold no check of it before the call") in evidence


def test_a_territorys_number_is_on_the_us_registry() -> None:
    hits = dnc_calls(audit(calls((PR, "2026-07-20T15:00Z")),
                           dnc=dnc((PR, "2026-06-01T00:00Z", "2026-07-10"))))
    assert hits["jurisdiction"].tolist() == ["US"]


@pytest.mark.parametrize(("called", "citation"), [
    # the TSR gives no time: a call an hour after the request breaks 310.4(b)(1)(iii)(A)
    ("2026-06-05T16:00Z", "16 CFR 310.4(b)(1)(iii)(A)"),
    # ten business days from Friday 5 June 2026 end on Friday 19 June: still the TSR alone
    ("2026-06-19T16:00Z", "16 CFR 310.4(b)(1)(iii)(A)"),
    ("2026-06-22T16:00Z", "16 CFR 310.4(b)(1)(iii)(A); 47 CFR 64.1200(d)(3)"),
])
def test_a_do_not_call_request_is_the_company_list_without_grace(called: str,
                                                                  citation: str) -> None:
    asked = calls((US, "2026-06-05T15:00Z"), disposition="do_not_call").assign(
        ended_at=pd.Timestamp("2026-06-05T15:01Z"), disposition="do_not_call")
    later = calls((US, called)).assign(id="call_later")
    report = audit(pd.concat([asked, later], ignore_index=True),
                   dnc=pd.DataFrame({"phone": [US], "listed": [False],
                                     "checked_at": [pd.Timestamp("2026-06-01", tz="UTC")]}))
    hits = dnc_calls(report)
    assert hits["call_id"].tolist() == ["call_later"]
    assert hits.iloc[0]["citation"] == citation
    assert "a call's do_not_call disposition" in hits.iloc[0]["evidence"]


def test_before_11_april_2025_the_fcc_gave_thirty_days() -> None:
    results = dnc((US, "2025-03-01T12:00Z", "2025-05-01"), list=["company"])
    hits = dnc_calls(audit(calls((US, "2025-03-25T12:00Z"), (US, "2025-04-01T12:00Z")),
                           dnc=results))
    assert hits["citation"].tolist() == ["16 CFR 310.4(b)(1)(iii)(A)",
                                         "16 CFR 310.4(b)(1)(iii)(A); 47 CFR 64.1200(d)(3)"]


def test_the_list_column_decides_and_its_absence_is_said() -> None:
    company = dnc((GB, "2026-06-01T00:00Z", "2026-07-10"), list=["company"])
    hits = dnc_calls(audit(calls((GB, "2026-06-02T12:00Z")), dnc=company))
    assert hits["citation"].tolist() == ["PECR reg. 21(1)(a)"]  # no 28 days for a request
    assert "read as the national register" not in hits.iloc[0]["evidence"]
    unsaid = dnc((GB, "2026-06-01T00:00Z", "2026-07-10"))
    hits = dnc_calls(audit(calls((GB, "2026-07-02T12:00Z")), dnc=unsaid))
    assert "do not say which list; read as the national register" in hits.iloc[0]["evidence"]


def test_a_list_that_is_neither_is_refused_by_name() -> None:
    with pytest.raises(AuditInputError, match=r"^dnc.list holds 'state': pass one of "
                                              r"national, company"):
        audit(calls((US, "2026-06-02T12:00Z")),
              dnc=dnc((US, "2026-06-01", "2026-07-10"), list=["state"]))


def test_a_listed_lead_names_its_lists_law() -> None:
    leads = pd.DataFrame({"id": ["lead_1", "lead_2"], "campaign_id": "cmp_1",
                          "phone": [US, GB], "status": "new"})
    report = audit(calls((US, "2026-05-01T15:00Z")), leads=leads, as_of="2026-07-11",
                   dnc=dnc((US, "2026-06-01", "2026-07-10"), (GB, "2026-06-01", "2026-07-10"),
                           list=["national", "company"]))
    found = report.findings[report.findings["rule"] == "dnc_lead"]
    assert found[["lead_id", "jurisdiction", "decided_by", "citation"]].values.tolist() == [
        ["lead_1", "US", "list", "16 CFR 310.4(b)(1)(iii)(B); 47 CFR 64.1200(c)(2)"],
        ["lead_2", "GB", "list", "PECR reg. 21(1)(a)"]]


def test_a_uk_lead_is_unscreened_after_28_days_a_us_one_after_31() -> None:
    leads = pd.DataFrame({"id": ["lead_us", "lead_gb"], "campaign_id": "cmp_1",
                          "phone": [US, GB], "status": "new"})
    checked = pd.DataFrame({"phone": [US, GB], "listed": False,
                            "checked_at": pd.to_datetime(["2026-06-01"] * 2, utc=True)})
    report = audit(calls((US, "2026-06-02T15:00Z")), leads=leads, dnc=checked,
                   as_of="2026-06-30")  # 29 days after the check
    found = report.findings[report.findings["rule"] == "unscreened_lead"]
    assert found["lead_id"].tolist() == ["lead_gb"]
    assert "more than 28 days before the audit" in found.iloc[0]["evidence"]


def test_every_law_finding_cites_words_its_lists_text_quotes() -> None:
    """Item 13: a DNC finding of law names its jurisdiction, ``decided_by`` and a citation
    each of whose sections the list's quoted text holds."""
    results = dnc((US, "2026-05-01", "2026-07-10"), (GB, "2026-05-01", "2026-07-10"),
                  (CA, "2026-05-01", "2026-07-10"), (PR, "2026-05-01", "2026-07-10"),
                  list=["national", "national", "company", "company"])
    placed = [(n, "2026-07-02T16:00Z") for n in (US, GB, CA, PR)]
    found = audit(calls(*placed), dnc=results).findings
    law = found[found["rule"].isin(["dnc_call", "dnc_lead"]) & (found["basis"] == "law")]
    assert len(law) == 4
    texts = {row.country: [] for row in lists.all()}
    for row in lists.all():
        texts[row.country].append(row.text)
    for finding in law.itertuples():
        assert finding.decided_by == "list"
        for section in finding.citation.split("; "):
            assert any(section in text for text in texts[finding.jurisdiction]), section


@pytest.mark.parametrize("row", lists.all(), ids=lambda row: row.id)
def test_each_lists_citations_are_in_its_quoted_text(row: lists.DncList) -> None:
    for section in filter(None, re.split(r"; ", f"{row.citation}; {row.late_citation}")):
        assert section in row.text
    assert len(row.sources) >= 2 and row.doubts
