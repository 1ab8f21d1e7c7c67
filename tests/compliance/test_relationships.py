"""An established business relationship as each law counts it (issue 61, item 10): the
TSR's 540 days after a purchase and 90 after an inquiry, the FCC's 18 months and 3
months, both for a US call; the CRTC's 18 months and 6 months. A consent record's
``relationship`` says which kind it is (absent: a purchase, and the notes say so)."""

from __future__ import annotations

import pandas as pd
import pytest

from dialkit._law import _dnc_lists as lists
from dialkit.compliance import AuditInputError, audit

US, CA = "+12125550123", "+14165550123"


def listed(phone: str) -> pd.DataFrame:
    return pd.DataFrame({"phone": [phone], "listed": True,
                         "listed_at": pd.to_datetime(["2024-06-01"], utc=True),
                         "checked_at": pd.to_datetime(["2024-06-15"], utc=True)})


def called(phone: str, at: str) -> pd.DataFrame:
    """One outbound call of campaign ``cmp_1`` to ``phone`` at ``at``, unanswered."""
    return pd.DataFrame({
        "id": ["call_0"], "direction": "outbound", "from_number": "+14155550100",
        "to_number": [phone], "created_at": pd.to_datetime([at], utc=True),
        "answered_at": pd.NaT, "ended_at": pd.NaT, "campaign_id": "cmp_1",
        "disposition": None})


def ebr(phone: str, given: str, relationship: str | None) -> pd.DataFrame:
    return pd.DataFrame({"phone": [phone], "kind": "ebr",
                         "given_at": pd.to_datetime([given], utc=True),
                         "relationship": [relationship]})


def dnc_calls(phone: str, at: str, records: pd.DataFrame) -> pd.DataFrame:
    found = audit(called(phone, at), dnc=listed(phone), consents=records,
                  as_of="2026-11-01").findings
    return found[found["rule"] == "dnc_call"]


@pytest.mark.parametrize(("phone", "given", "relationship", "at", "exempt"), [
    # the TSR's 540 days after a purchase end before the FCC's 18 months (2026-07-01)
    (US, "2025-01-01", "purchase", "2026-06-24T15:00Z", True),
    (US, "2025-01-01", "purchase", "2026-06-26T15:00Z", False),
    (US, "2025-01-01", None, "2026-06-26T15:00Z", False),  # absent: a purchase
    # from 1 February, the FCC's 3 months (1 May, 89 days) end before the TSR's 90 days
    (US, "2026-02-01", "inquiry", "2026-04-30T15:00Z", True),
    (US, "2026-02-01", "inquiry", "2026-05-01T15:00Z", False),
    # from 1 July, the TSR's 90 days (29 September) end before the FCC's 3 months
    (US, "2026-07-01", "inquiry", "2026-09-28T15:00Z", True),
    (US, "2026-07-01", "inquiry", "2026-09-30T15:00Z", False),
    # Canada: 6 months after an inquiry, 18 after a purchase
    (CA, "2026-01-01", "inquiry", "2026-06-15T15:00Z", True),
    (CA, "2026-01-01", "inquiry", "2026-07-02T15:00Z", False),
    (CA, "2025-01-01", "purchase", "2026-06-26T15:00Z", True),
])
def test_a_relationship_exempts_while_every_law_of_the_call_holds(
        phone: str, given: str, relationship: str | None, at: str, exempt: bool) -> None:
    assert dnc_calls(phone, at, ebr(phone, given, relationship)).empty == exempt


def test_an_ebr_record_that_does_not_say_its_relationship_is_noted() -> None:
    records = pd.concat([ebr(US, "2026-01-01", None), ebr(CA, "2026-01-01", "inquiry")])
    notes = audit(called(US, "2026-03-01T15:00Z"), consents=records).notes
    assert notes["relationships"].startswith("1 consent record(s) of kind ebr do not say "
                                             "their relationship")
    assert "16 CFR 310.2(q): 540 days after a purchase, 90 days after an inquiry" in (
        notes["relationships"])
    told = audit(called(US, "2026-03-01T15:00Z"),
                 consents=ebr(US, "2026-01-01", "purchase")).notes
    assert "relationships" not in told


def test_a_relationship_of_another_kind_is_refused_by_name() -> None:
    with pytest.raises(AuditInputError, match=r"^consents\.relationship holds 'lead': pass "
                                              r"one of purchase, inquiry"):
        audit(called(US, "2026-03-01T15:00Z"), consents=ebr(US, "2026-01-01", "lead"))


def test_each_relationship_row_is_law_with_its_words() -> None:
    rows = {row.id: row for row in lists.relationships()}
    assert {k: (str(r.purchase), str(r.inquiry)) for k, r in rows.items()} == {
        "US-TSR": ("540 days", "90 days"), "US-FCC": ("18 months", "3 months"),
        "CA-CRTC": ("18 months", "6 months")}
    assert all(row.citation.split(" (")[0] in row.text for row in rows.values())
    assert not any(row.confirmed for row in rows.values())  # eCFR could not be read
