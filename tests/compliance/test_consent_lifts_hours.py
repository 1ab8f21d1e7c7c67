"""Consent that lifts a rule where its words say so (issue 61, item 11): the TSR's hours
bind calls made "without the prior consent of a person" (16 CFR 310.4(c)), Utah's hours
and Sunday ban calls "without prior express consent" (13-25a-103(3)); a call with a
written or oral consent record standing at it is not judged by such a row, while a
row without those words (Florida's) still judges it."""

from __future__ import annotations

import pandas as pd
import pytest
from test_relationships import called

from dialkit.compliance import audit, jurisdictions

NY, UT, FL = "+12125550123", "+18015550123", "+13055550123"
NY_2130 = "2026-03-03T02:30Z"  # Monday 21:30 EST
UT_SUNDAY = "2026-03-01T19:00Z"  # Sunday 12:00 MST
FL_2130 = NY_2130  # Monday 21:30 EST: after Florida's 20:00 and the federal 21:00


def record(phone: str, kind: str, given: str = "2026-01-01",
           revoked: str | None = None) -> pd.DataFrame:
    return pd.DataFrame({"phone": [phone], "kind": [kind],
                         "given_at": pd.to_datetime([given], utc=True),
                         "revoked_at": pd.to_datetime([revoked], utc=True)})


def hours(phone: str, at: str, consents: pd.DataFrame | None) -> pd.DataFrame:
    found = audit(called(phone, at), consents=consents).findings
    return found[found["rule"] == "calling_hours"]


@pytest.mark.parametrize(("phone", "at", "consents", "jurisdiction"), [
    (NY, NY_2130, None, "US"),
    (NY, NY_2130, record(NY, "ebr"), "US"),  # a relationship is no consent
    (NY, NY_2130, record(NY, "written", revoked="2026-02-01"), "US"),  # revoked before
    (NY, NY_2130, record(NY, "written", given="2026-03-05"), "US"),  # given after
    (NY, NY_2130, record(NY, "written"), None),
    (NY, NY_2130, record(NY, "oral"), None),
    (UT, UT_SUNDAY, None, "US-UT"),
    (UT, UT_SUNDAY, record(UT, "oral"), None),
    (FL, FL_2130, record(FL, "written"), "US-FL"),  # Florida's words name no consent
])
def test_a_row_whose_words_name_consent_does_not_judge_a_consented_call(
        phone: str, at: str, consents: pd.DataFrame | None, jurisdiction: str | None) -> None:
    found = hours(phone, at, consents)
    assert found["jurisdiction"].tolist() == ([jurisdiction] if jurisdiction else [])


def test_the_lifted_rows_are_data_and_quote_their_consent() -> None:
    lifted = {row.id for row in jurisdictions.all() if row.consent_lifts_hours}
    assert lifted == {"US", "US-UT"}
    assert "Without the prior consent of a person" in jurisdictions.get("US").text
    assert "without prior express consent" in jurisdictions.get("US-UT").text
