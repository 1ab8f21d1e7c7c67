"""The audit's faster paths against the plain pandas they replace: the last DNC check of each
lead's number by integer codes, the abandoned calls with every column of the calls though
the checks read only a few."""

from __future__ import annotations

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from dialkit.compliance import audit
from dialkit.compliance._checks import _last_checks

NUMBERS = st.sampled_from(["+12125550123", "+13125550101", "+442071234567", "", None])
TIMES = st.one_of(st.none(), st.datetimes(min_value=pd.Timestamp("2026-01-01").to_pydatetime(),
                                          max_value=pd.Timestamp("2026-12-31").to_pydatetime()))
TEXT = st.sampled_from(["string[pyarrow]", object])


def checked_at(times: list[object]) -> pd.Series:
    return pd.Series(pd.to_datetime(times).tz_localize("UTC"), dtype="datetime64[us, UTC]")


@settings(max_examples=200, deadline=None)
@given(leads=st.lists(NUMBERS, max_size=8),
       checks=st.lists(st.tuples(NUMBERS, TIMES), min_size=1, max_size=8),
       lead_text=TEXT, dnc_text=TEXT)
def test_last_checks_are_the_group_by_and_map_they_replace(
        leads: list[str | None], checks: list[tuple[str | None, object]],
        lead_text: str | type, dnc_text: str | type) -> None:
    phones = pd.Series(leads, dtype=lead_text, name="phone")
    dnc = pd.DataFrame({"phone": pd.Series([p for p, _ in checks], dtype=dnc_text),
                        "checked_at": checked_at([t for _, t in checks])})
    latest = dnc.groupby("phone", sort=False)["checked_at"].max()
    expected = (phones.map(latest) if len(latest)  # map fails on an empty mapping
                else pd.Series(pd.NaT, index=phones.index, dtype=latest.dtype, name="phone"))
    pd.testing.assert_series_equal(_last_checks(phones, dnc), expected)


NY = "+12125550123"


def test_with_no_dnc_result_every_active_lead_is_unscreened() -> None:
    """An empty DNC frame (nothing checked yet) once ended the audit with a pandas error."""
    leads = pd.DataFrame({"id": ["lead_a", "lead_b"], "campaign_id": "cmp_1",
                          "phone": [NY, "+13125550101"], "status": ["new", "completed"]})
    dnc = pd.DataFrame({"phone": pd.Series([], dtype=object), "listed": pd.Series([], dtype=bool),
                        "checked_at": checked_at([])})
    calls = pd.DataFrame({"id": ["call_0"], "direction": "outbound", "from_number": NY,
                          "to_number": NY, "created_at": pd.Timestamp("2026-06-01T15:00Z"),
                          "answered_at": pd.NaT, "ended_at": pd.NaT, "campaign_id": "cmp_1",
                          "disposition": None})
    found = audit(calls, leads=leads, dnc=dnc, as_of="2026-06-10").findings
    assert found[["rule", "lead_id"]].values.tolist() == [["unscreened_lead", "lead_a"]]
    assert found["evidence"].tolist() == ["no DNC check of the number"]


def test_abandoned_calls_keep_every_column_of_the_calls_in_order() -> None:
    """The checks take only the columns they read; the abandoned calls are shown whole."""
    answer = pd.Timestamp("2026-06-01T15:00Z")
    calls = pd.DataFrame({
        "id": ["call_0", "call_1"], "status": "completed", "direction": "outbound",
        "from_number": NY, "to_number": [NY, "+13125550101"],
        "created_at": answer - pd.Timedelta(seconds=10), "answered_at": answer,
        "ended_at": answer + pd.Timedelta(seconds=3), "campaign_id": "cmp_1",
        "disposition": None, "hangup_cause": ["normal_clearing", "caller_hangup"],
        "duration_seconds": [3.0, 4.0]})
    abandoned = audit(calls).abandoned
    assert abandoned.columns.tolist() == [
        "call_id", "status", "direction", "from_number", "phone", "at", "answered_at",
        "ended_at", "campaign_id", "disposition", "hangup_cause", "duration_seconds",
        "lead_id", "window_rate", "window_answered", "window_abandoned"]
    assert abandoned["hangup_cause"].tolist() == ["normal_clearing", "caller_hangup"]
    assert abandoned["duration_seconds"].tolist() == [3.0, 4.0]
