"""Facts that exempt, as optional inputs (issue 61, item 13): the US registry protects
residential subscribers (a lead's ``line`` ``business`` is not one), and a tax-exempt
nonprofit's own calls are no telephone solicitations (``audit(nonprofit=True)``); where
the facts are not given, the notes say what was assumed."""

from __future__ import annotations

import pandas as pd
import pytest

from dialkit.compliance import AuditInputError, audit

US, GB = "+12125550123", "+442079460000"
REGISTRY = "16 CFR 310.4(b)(1)(iii)(B); 47 CFR 64.1200(c)(2)"


def calls(phone: str, disposition: str | None = None) -> pd.DataFrame:
    return pd.DataFrame({
        "id": ["call_0", "call_1"], "direction": "outbound", "from_number": "+14155550100",
        "to_number": phone,
        "created_at": pd.to_datetime(["2026-05-04T15:00Z", "2026-06-01T15:00Z"], utc=True),
        "answered_at": pd.NaT,
        "ended_at": pd.to_datetime(["2026-05-04T15:01Z", "2026-06-01T15:01Z"], utc=True),
        "campaign_id": "cmp_1", "disposition": [disposition, None]})


def listed(phone: str) -> pd.DataFrame:
    return pd.DataFrame({"phone": [phone], "listed": True, "list": "national",
                         "listed_at": pd.to_datetime(["2026-01-01"], utc=True),
                         "checked_at": pd.to_datetime(["2026-01-15"], utc=True)})


def leads(phone: str, line: str | None) -> pd.DataFrame:
    frame = pd.DataFrame({"id": ["lead_1"], "campaign_id": "cmp_1", "phone": [phone],
                          "status": "completed"})
    return frame if line is None else frame.assign(line=line)


def dnc_found(phone: str, line: str | None, *, nonprofit: bool = False,
              disposition: str | None = None) -> tuple[list[str], dict[str, str]]:
    report = audit(calls(phone, disposition), leads=leads(phone, line), dnc=listed(phone),
                   nonprofit=nonprofit, as_of="2026-07-01")
    found = report.findings[report.findings["rule"] == "dnc_call"]
    return found["citation"].tolist(), dict(report.notes)


@pytest.mark.parametrize(("line", "nonprofit", "cited"), [
    (None, False, [REGISTRY, REGISTRY]),
    ("residential", False, [REGISTRY, REGISTRY]),
    ("business", False, []),       # a business line is no residential subscriber's
    (None, True, []),              # a nonprofit's own calls are no solicitations
])
def test_the_registry_judges_residential_lines_of_solicitors(
        line: str | None, nonprofit: bool, cited: list[str]) -> None:
    assert dnc_found(US, line, nonprofit=nonprofit)[0] == cited


def test_what_was_assumed_is_noted_where_a_registry_finding_rests_on_it() -> None:
    _, notes = dnc_found(US, None)
    assert "read each number as a residential line" in notes["facts"]
    assert "audit(nonprofit=True)" in notes["facts"]
    assert "facts" not in dnc_found(US, "business")[1]


@pytest.mark.parametrize("nonprofit", [False, True])
def test_a_request_not_to_be_called_binds_a_business_line_and_a_nonprofit(
        nonprofit: bool) -> None:
    """The account's own list is no registry of residential subscribers: a business line's
    or a nonprofit's request still forbids the next call (the stricter reading)."""
    cited, _ = dnc_found(US, "business", nonprofit=nonprofit, disposition="do_not_call")
    assert cited == ["16 CFR 310.4(b)(1)(iii)(A); 47 CFR 64.1200(d)(3)"]


def test_the_uk_register_holds_business_lines_too() -> None:
    """PECR reg. 26 keeps one register for individual and corporate subscribers."""
    assert dnc_found(GB, "business")[0] == ["PECR reg. 21(1)(b)", "PECR reg. 21(1)(b)"]


def test_a_line_of_another_kind_is_refused_by_name() -> None:
    with pytest.raises(AuditInputError, match=r"^leads\.line holds 'home': pass one of "
                                              r"business, residential"):
        dnc_found(US, "home")


def recorded(prerecorded: list[object], phone: str = US) -> pd.DataFrame:
    """Agents' calls (no campaign: not autodialled) marked prerecorded or not."""
    return calls(phone).iloc[:0].reindex(range(len(prerecorded))).assign(
        id=[f"call_{n}" for n in range(len(prerecorded))], direction="outbound",
        from_number="+14155550100", to_number=phone,
        created_at=pd.Timestamp("2026-06-01T15:00Z"), campaign_id=None,
        prerecorded=prerecorded)


def consent(kind: str) -> pd.DataFrame:
    return pd.DataFrame({"phone": [US], "kind": [kind],
                         "given_at": pd.to_datetime(["2026-01-01"], utc=True)})


@pytest.mark.parametrize(("kind", "line", "found"), [
    ("oral", None, ["call_0", "call_3"]),     # 'true' and True, not 'false' or empty
    ("written", None, []),                   # 64.1200(a)(3): written consent
    ("oral", "business", []),                # no residential line
])
def test_a_prerecorded_call_to_a_residential_line_needs_written_consent(
        kind: str, line: str | None, found: list[str]) -> None:
    report = audit(recorded(["true", "false", None, True]), consents=consent(kind),
                   leads=leads(US, line))
    hits = report.findings[report.findings["rule"] == "no_written_consent"]
    assert hits["call_id"].tolist() == found
    assert set(hits["citation"]) <= {"47 CFR 64.1200(a)(3)"}
    assert set(hits["basis"]) <= {"law"}
    assert "read as a live voice" in report.notes["prerecorded"]


def test_a_prerecorded_value_of_another_kind_is_refused_by_name() -> None:
    with pytest.raises(AuditInputError, match=r"^calls\.prerecorded holds 'robot' at row 0"):
        audit(recorded(["robot"]), consents=consent("oral"))
