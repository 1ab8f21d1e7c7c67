"""A person's request not to be called again lists their lead too (issue 79, item 1): a
call's ``do_not_call`` disposition (``Do Not Call`` as a dialer writes it) and a consent
revoked put the number on the account's own list, which the calls after them broke, but
the lead the dialer would call again was no ``dnc_lead`` finding."""

from __future__ import annotations

import pandas as pd
import pytest

from dialkit.compliance import audit

NY = "+12125550123"
MONDAY = pd.Timestamp("2026-06-01T15:00Z")
CALLS = pd.DataFrame({
    "id": ["call_1"], "direction": "outbound", "from_number": "+14155550100",
    "to_number": [NY], "created_at": [MONDAY], "answered_at": [MONDAY],
    "ended_at": [MONDAY + pd.Timedelta(minutes=2)], "campaign_id": "cmp_1",
    "disposition": ["Do Not Call"]})
DNC = pd.DataFrame({"phone": [NY], "listed": [False], "checked_at": [MONDAY]})


def leads(status: str) -> pd.DataFrame:
    return pd.DataFrame({"id": ["lead_1"], "campaign_id": ["cmp_1"], "phone": [NY],
                         "status": [status]})


def lead_findings(calls: pd.DataFrame, status: str, **given: object) -> pd.DataFrame:
    found = audit(calls, leads=leads(status), dnc=DNC, as_of="2026-06-10T00:00Z",
                  **given).findings  # type: ignore[arg-type]
    return found[found["rule"] == "dnc_lead"]


def test_a_do_not_call_disposition_lists_its_lead() -> None:
    found = lead_findings(CALLS, "contacted")
    assert found["lead_id"].tolist() == ["lead_1"]
    assert found["evidence"].iloc[0] == (
        "the number is on account's own do-not-call list (US) (a call's do_not_call "
        "disposition) but the lead is contacted")
    assert found["jurisdiction"].tolist() == ["US"]


def test_a_revoked_consent_lists_its_lead() -> None:
    consents = pd.DataFrame({"phone": [NY], "kind": ["written"],
                             "given_at": [MONDAY - pd.Timedelta(days=30)],
                             "revoked_at": [MONDAY - pd.Timedelta(days=1)]})
    found = lead_findings(CALLS.assign(disposition="sale"), "new", consents=consents)
    assert found["lead_id"].tolist() == ["lead_1"]
    assert "a consent revoked (an opt-out)" in found["evidence"].iloc[0]


@pytest.mark.parametrize("status", ["dnc", "completed"])
def test_a_lead_no_longer_dialled_is_no_finding(status: str) -> None:
    assert lead_findings(CALLS, status).empty


def test_without_a_request_the_lead_is_no_finding() -> None:
    assert lead_findings(CALLS.assign(disposition="sale"), "contacted").empty


def test_dask_lists_the_lead_as_pandas_does() -> None:
    dd = pytest.importorskip("dask.dataframe")
    on_dask = lead_findings(dd.from_pandas(CALLS, npartitions=1), "contacted")  # type: ignore[arg-type]
    on_pandas = lead_findings(CALLS, "contacted")
    assert on_dask[["lead_id", "evidence"]].values.tolist() == (
        on_pandas[["lead_id", "evidence"]].values.tolist())
