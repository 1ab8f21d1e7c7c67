"""A call that showed the person called no number breaks the law of the country called
(issue 47, item 8): 16 CFR 310.4(a)(8) for US numbers (the territories' too), PECR reg.
21(A1) for UK ones, the CRTC's Telemarketing Rules for Canadian ones. Each case is the
quoted text's: "Failing to transmit ... the telephone number ... to any caller
identification service" (TSR); a direct marketing call is unlawful "except where that
person— (a) does not prevent presentation of the identity of the calling line on the
called line; or (b) presents the identity of a line on which he can be contacted" (PECR).
"""

from __future__ import annotations

import pandas as pd
import pytest

from dialkit._law import _caller_id
from dialkit.compliance import RULE_IDS, audit

NEW_YORK, SAN_JUAN, LONDON, TORONTO, PARIS = ("+12125550123", "+17875550100", "+442079460000",
                                              "+14165550123", "+33123456789")
OURS = "+14155550100"


def calls(*rows: tuple[str, object]) -> pd.DataFrame:
    """Outbound calls at noon UTC on a Tuesday, one per (number called, caller id)."""
    return pd.DataFrame([{
        "id": f"call_{n}", "direction": "outbound", "from_number": shown, "to_number": number,
        "created_at": pd.Timestamp("2026-11-24T17:00Z"), "answered_at": pd.NaT,
        "ended_at": pd.NaT, "campaign_id": "cmp_1", "disposition": None}
        for n, (number, shown) in enumerate(rows)])


@pytest.mark.parametrize(("number", "shown", "country", "citation", "said"), [
    (NEW_YORK, None, "US", "16 CFR 310.4(a)(8)", "caller id: none (the call transmitted no "
                                                  "number)"),
    (NEW_YORK, "", "US", "16 CFR 310.4(a)(8)", "caller id: none"),
    (SAN_JUAN, "anonymous", "US", "16 CFR 310.4(a)(8)", "caller id: 'anonymous', a blocked id"),
    (LONDON, "PRIVATE", "GB", "PECR reg. 21(A1)",
     "caller id: 'PRIVATE', a blocked id"),
    (LONDON, " restricted ", "GB", "PECR reg. 21(A1)", "a blocked id"),
    (TORONTO, "Unavailable", "CA",
     "CRTC Unsolicited Telecommunications Rules, Part III (Telemarketing Rules)", "a blocked id"),
])
def test_a_call_that_transmitted_no_number_is_a_finding_of_law_citing_its_section(
        number: str, shown: object, country: str, citation: str, said: str) -> None:
    found = audit(calls((number, shown))).findings
    [row] = found[found["rule"] == "caller_id"].to_dict("records")
    assert (row["basis"], row["jurisdiction"], row["citation"], row["decided_by"]) == (
        "law", country, citation, "number")
    assert row["evidence"].startswith("caller id: ") and said in row["evidence"]
    assert citation in row["evidence"]
    assert pd.isna(row["policy"])


@pytest.mark.parametrize(("number", "shown"), [
    (NEW_YORK, OURS),   # "transmit ... the telephone number": it did
    (LONDON, OURS),     # "(b) presents the identity of a line on which he can be contacted"
    (PARIS, None),      # no row of the table covers France: not judged
    (NEW_YORK, "+1 (415) 555-0100"),  # a number, however written, is a number shown
])
def test_a_call_that_showed_a_number_or_to_a_country_of_no_such_law_is_not(
        number: str, shown: object) -> None:
    assert "caller_id" not in set(audit(calls((number, shown))).findings["rule"])


def test_it_runs_without_verified_ids_and_a_hidden_id_is_not_also_unverified() -> None:
    frame = calls((NEW_YORK, None), (NEW_YORK, "blocked"), (NEW_YORK, "+14155550199"))
    without = audit(frame)
    assert "caller_id" in without.ran and "unverified_caller_id" not in without.ran
    found = audit(frame, verified_caller_ids=[OURS]).findings
    assert sorted(zip(found["rule"], found["call_id"], strict=True)) == [
        ("caller_id", "call_0"), ("caller_id", "call_1"), ("unverified_caller_id", "call_2")]
    assert found.set_index("rule").loc["unverified_caller_id", "basis"] == "policy"


def test_every_row_quotes_the_section_it_cites_and_says_where_its_reading_is_doubtful() -> None:
    rows = _caller_id.all()
    assert {row.id for row in rows} == {"US", "GB", "CA"} and "caller_id" in RULE_IDS
    for row in rows:
        assert row.citation in row.text and len(row.sources) >= 2, row.id
        assert row.confirmed or row.doubts, row.id  # an unread text says so
    found = audit(calls((TORONTO, None))).findings
    assert "a doubtful reading" in found.loc[found["rule"] == "caller_id", "evidence"].item()
