"""Evidence that exempts (issue 47, item 6): consent records and reassigned-number answers,
applied as the quoted text of each list's law says; a revocation is an opt-out."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from dialkit.cli import app
from dialkit.compliance import AuditInputError, audit

US, GB = "+12125550123", "+442079460000"
LISTED_US = pd.DataFrame({"phone": [US], "listed": True,
                          "listed_at": pd.to_datetime(["2026-01-01"], utc=True),
                          "checked_at": pd.to_datetime(["2026-12-01"], utc=True)})


def calls(*placed: tuple[str, str], campaign: str | None = "cmp_1") -> pd.DataFrame:
    """Unanswered calls, (number, UTC time) each, ``call_0``, ``call_1``, ..."""
    return pd.DataFrame({
        "id": [f"call_{n}" for n in range(len(placed))], "direction": "outbound",
        "from_number": "+14155550100", "to_number": [p for p, _ in placed],
        "created_at": pd.to_datetime([t for _, t in placed], utc=True),
        "answered_at": pd.NaT, "ended_at": pd.NaT, "campaign_id": campaign,
        "disposition": None})


def consent(kind: str, given: str, revoked: str | None = None, phone: str = US) -> pd.DataFrame:
    return pd.DataFrame({"phone": [phone], "kind": [kind],
                         "given_at": pd.to_datetime([given], utc=True),
                         "revoked_at": pd.to_datetime([revoked], utc=True)})


def found(report: object, rule: str = "dnc_call") -> pd.DataFrame:
    findings = report.findings  # type: ignore[attr-defined]
    return findings[findings["rule"] == rule]


def test_a_written_agreement_exempts_a_call_to_the_registry() -> None:
    """310.4(b)(1)(iii)(B): 'call any consumer they can demonstrate has expressly agreed,
    in writing, ... even if the consumer's number is in the National Do Not Call Registry'."""
    placed = calls((US, "2026-03-02T15:00Z"))
    assert len(found(audit(placed, dnc=LISTED_US))) == 1
    report = audit(placed, dnc=LISTED_US, consents=consent("written", "2026-02-01"))
    assert found(report).empty
    assert "exemptions" not in report.notes


def test_without_consent_records_the_notes_say_no_exemption_was_considered() -> None:
    report = audit(calls((US, "2026-03-02T15:00Z")), dnc=LISTED_US)
    assert "no exemption" in report.notes["exemptions"]
    assert report.notes["no_written_consent"].startswith("not run: pass consents=")


@pytest.mark.parametrize(("called", "exempt"), [("2027-06-01T15:00Z", True),   # 17 months
                                                ("2027-08-01T15:00Z", False)])  # 19 months
def test_an_established_business_relationship_lasts_18_months(called: str,
                                                              exempt: bool) -> None:
    """64.1200(f)(5): 'within the 18 months immediately preceding the call, the consumer
    purchased'."""
    report = audit(calls((US, called)), dnc=LISTED_US, consents=consent("ebr", "2026-01-01"))
    assert found(report).empty == exempt


def test_a_revocation_is_an_opt_out_to_the_account() -> None:
    """A revoked consent no longer exempts, and puts the number on the account's own list,
    which the TSR gives no time to honour (310.4(b)(1)(iii)(A))."""
    unlisted = LISTED_US.assign(listed=False)
    report = audit(calls((US, "2026-03-02T15:00Z")), dnc=unlisted,
                   consents=consent("written", "2026-01-15", revoked="2026-03-01"))
    hits = found(report)
    assert hits["citation"].tolist() == ["16 CFR 310.4(b)(1)(iii)(A)"]
    assert "a consent revoked (an opt-out)" in hits.iloc[0]["evidence"]


@pytest.mark.parametrize(("kind", "exempt"), [("oral", True), ("written", True),
                                              ("ebr", False)])
def test_the_tps_is_waived_by_the_subscribers_notification_not_a_relationship(
        kind: str, exempt: bool) -> None:
    """PECR reg. 21(4): the subscriber 'has notified a caller that he does not, for the time
    being, object to such calls'; a business relationship is no such notice."""
    listed = LISTED_US.assign(phone=GB)
    report = audit(calls((GB, "2026-03-02T15:00Z")), dnc=listed,
                   consents=consent(kind, "2026-02-01", phone=GB))
    assert found(report).empty == exempt


@pytest.mark.parametrize(("answer", "exempt"), [("yes", False), ("no", True),
                                                ("no_data", True)])
def test_a_reassigned_yes_voids_the_consent_given_before(answer: str, exempt: bool) -> None:
    """64.1200(m): the database answers whether the number was disconnected since the date
    of consent; a 'yes' says the consent no longer speaks for whoever holds it."""
    asked = pd.DataFrame({"phone": [US], "asked_at": pd.to_datetime(["2026-03-01"], utc=True),
                          "answer": [answer]})
    report = audit(calls((US, "2026-03-02T15:00Z")), dnc=LISTED_US,
                   consents=consent("written", "2026-02-01"), reassigned=asked)
    assert found(report).empty == exempt


def test_a_consent_may_name_its_lead() -> None:
    leads = pd.DataFrame({"id": ["lead_1"], "campaign_id": "cmp_1", "phone": [US],
                          "status": "contacted"})
    by_lead = consent("written", "2026-02-01").drop(columns="phone").assign(lead_id="lead_1")
    report = audit(calls((US, "2026-03-02T15:00Z")), dnc=LISTED_US, leads=leads,
                   consents=by_lead)
    assert found(report).empty


@pytest.mark.parametrize(("consents", "leads", "message"), [
    (consent("verbal", "2026-02-01"), False,
     "consents.kind holds 'verbal': pass one of written, ebr, oral"),
    (consent("written", "2026-02-01").drop(columns="kind"), False,
     "consents has no column kind"),
    (consent("written", "2026-02-01").drop(columns="phone"), False,
     "consents has no column phone or lead_id"),
    (consent("written", "2026-02-01").drop(columns="phone").assign(lead_id="lead_1"), False,
     "consents name leads by lead_id: pass leads= too"),
    (consent("written", "2026-02-01").assign(given_at="yesterday"), False,
     "consents.given_at"),
])
def test_bad_consent_records_are_refused_by_name(consents: pd.DataFrame, leads: bool,
                                                 message: str) -> None:
    with pytest.raises(AuditInputError, match="^" + message.replace("(", r"\(")) as raised:
        audit(calls((US, "2026-03-02T15:00Z")), consents=consents)
    assert raised.value.frame == "consents"


def test_a_bad_reassigned_answer_is_refused_by_name() -> None:
    asked = pd.DataFrame({"phone": [US], "asked_at": ["2026-03-01"], "answer": ["maybe"]})
    with pytest.raises(AuditInputError, match="^reassigned.answer holds 'maybe'"):
        audit(calls((US, "2026-03-02T15:00Z")), reassigned=asked)


def test_a_dialers_call_to_a_us_number_needs_written_consent() -> None:
    """64.1200(a)(2): a telemarketing call 'using an automatic telephone dialing system' to a
    wireless number needs 'the prior express written consent of the called party'. Most US
    numbers' type is 'fixed line or mobile': a risk. An agent's click-to-call (no campaign)
    is not the dialer's; an oral consent is not written."""
    placed = pd.concat([calls((US, "2026-03-02T15:00Z")),
                        calls((US, "2026-03-02T16:00Z"), campaign=None).assign(id="agent")],
                       ignore_index=True)
    report = audit(placed, consents=consent("oral", "2026-02-01"))
    hits = found(report, "no_written_consent")
    assert hits[["call_id", "basis", "citation", "jurisdiction"]].values.tolist() == [
        ["call_0", "risk", "47 CFR 64.1200(a)(2)", "US"]]
    written = audit(placed, consents=consent("written", "2026-02-01"))
    assert found(written, "no_written_consent").empty
    assert "no_written_consent" in written.ran


def test_the_cli_takes_consent_records_and_names_a_bad_file(tmp_path: Path) -> None:
    calls((US, "2026-03-02T15:00Z")).to_csv(tmp_path / "calls.csv", index=False)
    LISTED_US.to_csv(tmp_path / "dnc.csv", index=False)
    consent("written", "2026-02-01").to_csv(tmp_path / "consents.csv", index=False)
    consent("verbal", "2026-02-01").to_csv(tmp_path / "bad.csv", index=False)
    files = ["--calls", str(tmp_path / "calls.csv"), "--dnc", str(tmp_path / "dnc.csv")]
    plain = CliRunner().invoke(app, ["compliance", "audit", *files, "--csv"])
    exempt = CliRunner().invoke(app, ["compliance", "audit", *files, "--csv",
                                      "--consents", str(tmp_path / "consents.csv")])
    assert "dnc_call" in plain.output and "dnc_call" not in exempt.output
    bad = CliRunner().invoke(app, ["compliance", "audit", *files,
                                   "--consents", str(tmp_path / "bad.csv")])
    assert bad.exit_code == 2
    assert f"{tmp_path / 'bad.csv'}: consents.kind holds 'verbal'" in bad.output


def test_consents_flow_through_dask_as_through_pandas() -> None:
    """On Dask the consent records reach every part whole; a record by lead id is matched in
    the part that holds its lead: the same findings as on pandas."""
    dd = pytest.importorskip("dask.dataframe")
    other = "+13125550199"
    placed = calls((US, "2026-03-02T15:00Z"), (other, "2026-03-02T16:00Z"),
                   (GB, "2026-03-03T12:00Z"), (US, "2026-03-05T15:00Z"))
    leads = pd.DataFrame({"id": ["lead_1", "lead_2"], "campaign_id": "cmp_1",
                          "phone": [US, other], "status": "new"})
    listed = pd.concat([LISTED_US, LISTED_US.assign(phone=GB), LISTED_US.assign(phone=other)],
                       ignore_index=True)
    records = pd.concat([
        consent("written", "2026-02-01", revoked="2026-03-04").drop(columns="phone")
        .assign(lead_id="lead_1"),
        consent("ebr", "2026-02-01", phone=GB)], ignore_index=True)
    expected = audit(placed, leads=leads, dnc=listed, consents=records, as_of="2026-03-10")
    found = audit(dd.from_pandas(placed, npartitions=2), leads=dd.from_pandas(leads, 1),
                  dnc=dd.from_pandas(listed, npartitions=2),
                  consents=dd.from_pandas(records, npartitions=1), as_of="2026-03-10")

    def ordered(frame: pd.DataFrame) -> pd.DataFrame:
        return frame.sort_values(["rule", "call_id", "lead_id"], ignore_index=True)

    # the small frames' text is typed apart on the two paths (pandas' NA against NaN)
    pd.testing.assert_frame_equal(ordered(found.findings), ordered(expected.findings),
                                  check_dtype=False)
    assert set(found_calls := found.findings.loc[found.findings["rule"] == "dnc_call",
                                                 "call_id"]) == {"call_1", "call_2", "call_3"}
    assert len(found_calls) == 3
