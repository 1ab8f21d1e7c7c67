"""Evidence that cannot be true (issue 61, item 6) is refused by name or read the stricter
way, never as permission: a number listed after the check that found it listed, a
consent revoked before it was given, a listing or a check dated after the audit's
``as_of``."""

from __future__ import annotations

import pandas as pd
import pytest

from dialkit.compliance import AuditInputError, audit, next_allowed, upcoming

US = "+12125550123"
CALLED = "2026-06-01T15:00Z"


def calls(at: str = CALLED) -> pd.DataFrame:
    return pd.DataFrame({
        "id": ["call_0"], "direction": "outbound", "from_number": "+14155550100",
        "to_number": [US], "created_at": pd.to_datetime([at], utc=True),
        "answered_at": pd.NaT, "ended_at": pd.NaT, "campaign_id": "cmp_1",
        "disposition": None})


def dnc(listed_at: str | None, checked_at: str | None) -> pd.DataFrame:
    return pd.DataFrame({"phone": [US], "listed": True,
                         "listed_at": pd.to_datetime([listed_at], utc=True),
                         "checked_at": pd.to_datetime([checked_at], utc=True)})


def rules_found(report: object, rule: str) -> pd.DataFrame:
    findings = report.findings  # type: ignore[attr-defined]
    return findings[findings["rule"] == rule]


def test_a_number_listed_after_the_check_that_found_it_is_refused_by_row() -> None:
    """On main the later listed_at let the call before it pass: no finding, no word."""
    impossible = pd.concat([dnc("2026-01-01", "2026-02-01"), dnc("2026-07-01", "2026-05-01")],
                           ignore_index=True)
    with pytest.raises(AuditInputError, match=r"^dnc\.listed_at holds 2026-07-01 .* at row 1, "
                                              r"after the row's checked_at") as error:
        audit(calls(), dnc=impossible, as_of="2026-08-01")
    assert error.value.frame == "dnc"


def test_a_consent_revoked_before_it_was_given_is_refused_by_row() -> None:
    records = pd.DataFrame({"phone": [US], "kind": "written",
                            "given_at": pd.to_datetime(["2026-05-01"], utc=True),
                            "revoked_at": pd.to_datetime(["2026-04-01"], utc=True)})
    with pytest.raises(AuditInputError, match=r"^consents\.given_at holds 2026-05-01 .* at "
                                              r"row 0, after the row's revoked_at") as error:
        audit(calls(), consents=records, as_of="2026-08-01")
    assert error.value.frame == "consents"


@pytest.mark.parametrize(("as_of", "found"), [("2026-06-15", True),   # listed_at after it
                                              ("2026-08-15", False)])  # a real later listing
def test_a_listing_dated_after_as_of_is_read_as_unknown(as_of: str, found: bool) -> None:
    """A listed_at no record made by as_of could hold: every call to the number a finding,
    saying so; where as_of is after it, the call before the listing is no finding."""
    hits = rules_found(audit(calls(), dnc=dnc("2026-07-01", None), as_of=as_of), "dnc_call")
    assert len(hits) == found
    if found:
        assert "is after the audit's as_of (2026-06-15 00:00:00)" in hits.iloc[0]["evidence"]
        assert "the date it was listed is unknown" in hits.iloc[0]["evidence"]


def test_a_check_dated_after_as_of_does_not_screen_a_lead() -> None:
    leads = pd.DataFrame({"id": ["lead_1"], "campaign_id": "cmp_1", "phone": [US],
                          "status": "new"})
    checked = dnc(None, "2026-07-01").assign(listed=False)
    report = audit(calls(), leads=leads, dnc=checked, as_of="2026-06-15")
    assert rules_found(report, "unscreened_lead")["lead_id"].tolist() == ["lead_1"]
    later = audit(calls(), leads=leads, dnc=checked, as_of="2026-07-15")
    assert rules_found(later, "unscreened_lead").empty


TORONTO = "+14165550123"
INVERTED = {  # frame: (its columns, the pair's first, the message's start)
    "contracts": ({"phone": [TORONTO], "signed_at": pd.to_datetime(["2026-05-01"], utc=True),
                   "ends_at": pd.to_datetime(["2026-04-01"], utc=True)},
                  r"^contracts\.signed_at holds 2026-05-01 .* at row 0, after the row's "
                  r"ends_at .*a contract cannot end before it was signed"),
    "consents": ({"phone": [TORONTO], "kind": "written",
                  "given_at": pd.to_datetime(["2026-05-01"], utc=True),
                  "revoked_at": pd.to_datetime(["2026-04-01"], utc=True)},
                 r"^consents\.given_at holds 2026-05-01 .* at row 0, after the row's "
                 r"revoked_at"),
    "emergencies": ({"area": ["US-LA"], "starts_at": pd.to_datetime(["2026-05-01"], utc=True),
                     "ends_at": pd.to_datetime(["2026-04-01"], utc=True)},
                    r"^emergencies\.starts_at holds 2026-05-01 .* at row 0, after the row's "
                    r"ends_at .*an emergency cannot end before it began"),
}
"""A dated interval of each evidence frame that ends before it starts (issue 78: a
contract's was accepted, and lifted Canada's DNCL, where a consent's was refused)."""


@pytest.mark.parametrize(("frame", "judge"), [
    (frame, judge) for frame in sorted(INVERTED)
    for judge in ("audit", "next_allowed", "upcoming")
    if (frame, judge) != ("consents", "next_allowed")])  # it reads no consents (issue 82)
def test_an_interval_that_ends_before_it_starts_is_refused_by_every_judge(
        frame: str, judge: str) -> None:
    columns, said = INVERTED[frame]
    given = {frame: pd.DataFrame(columns)}
    listed = dnc("2026-01-01", "2026-01-02").assign(phone=TORONTO)
    with pytest.raises(AuditInputError, match=said) as error:
        if judge == "audit":
            audit(calls().assign(to_number=TORONTO), dnc=listed, as_of="2026-08-01", **given)
        elif judge == "next_allowed":
            next_allowed(TORONTO, CALLED, dnc=listed, **given)
        else:
            upcoming({"calls": calls().iloc[:0], "dnc": listed,
                      "leads": pd.DataFrame({"id": ["lead_1"], "campaign_id": "cmp_1",
                                             "phone": [TORONTO], "status": "new",
                                             "next_attempt_at": pd.to_datetime(
                                                 [CALLED], utc=True)}),
                      "callbacks": pd.DataFrame({"id": [], "lead_id": [], "campaign_id": [],
                                                 "status": [], "scheduled_at": []})},
                     as_of="2026-06-01T12:00Z", **given)
    assert error.value.frame == frame
