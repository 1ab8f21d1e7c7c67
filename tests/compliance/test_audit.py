"""What ``audit`` takes and how its report reads: ``blocked_countries`` that name no country
are refused by name, a bad frame is named by attribute, and a rate of nothing audited is
shown as such."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from typer.testing import CliRunner

from dialkit.cli import app
from dialkit.compliance import AuditInputError, audit, read_export

IR = "+982122223333"
NY = "+12125550123"


def calls(*phones: str) -> pd.DataFrame:
    """Unanswered outbound calls, one to each phone, at 15:00 UTC."""
    return pd.DataFrame({
        "id": [f"call_{n}" for n in range(len(phones))], "direction": "outbound",
        "from_number": "+14155550100", "to_number": list(phones),
        "created_at": pd.Timestamp("2026-06-01T15:00Z"), "answered_at": pd.NaT,
        "ended_at": pd.NaT, "campaign_id": "cmp_1", "disposition": None})


@pytest.mark.parametrize("blocked", [["IR"], ["ir"], [" Ir "], ("KP", "IR"), {"IR"}, "IR",
                                     "kp, ir", ["Iran"], "North Korea, Iran"])
def test_blocked_countries_are_codes_or_names_in_a_list_or_one_text(blocked: Any) -> None:
    found = audit(calls(IR, NY), blocked_countries=blocked).findings
    assert found[["rule", "call_id"]].values.tolist() == [["no_law_held", "call_0"],
                                                          ["blocked_country", "call_0"]]
    assert found["country"].tolist()[1:] == ["IR"]  # and no law of Iran's is held: a risk


NAMES_NO_COUNTRY = ("which names no country phonenumbers knows: pass ISO 3166 codes or "
                    "country names, such as ['KP', 'IR'], 'KP, IR' or "
                    "['North Korea', 'Iran']")


@pytest.mark.parametrize(("blocked", "message"), [
    (["XX"], f"blocked_countries holds 'XX', {NAMES_NO_COUNTRY}"),
    ("KP, Atlantis", f"blocked_countries holds 'Atlantis', {NAMES_NO_COUNTRY}"),
    (["+98"], "blocked_countries holds '+98', a calling code, not a country: pass 'IR'"),
    (["+1"], "blocked_countries holds '+1', a calling code, not a country: pass the "
             "countries meant among 'US', "),  # +1 is not only the US
    ([98], f"blocked_countries holds 98, {NAMES_NO_COUNTRY}"),
    ([""], f"blocked_countries holds '', {NAMES_NO_COUNTRY}"),
])
def test_a_blocked_country_that_names_no_country_is_refused(blocked: Any,
                                                            message: str) -> None:
    with pytest.raises(AuditInputError, match="^" + re.escape(message)) as raised:
        audit(calls(IR), blocked_countries=blocked)
    assert raised.value.frame is None


def test_a_bad_frame_is_named_by_attribute_too() -> None:
    with pytest.raises(AuditInputError, match="^calls has no column to_number") as raised:
        audit(calls(NY).drop(columns="to_number"))
    assert raised.value.frame == "calls"
    with pytest.raises(AuditInputError, match="^dnc has no column listed") as raised:
        audit(calls(NY), dnc=pd.DataFrame({"phone": [NY], "checked_at": ["2026-06-01"]}))
    assert raised.value.frame == "dnc"


def test_the_cli_names_a_bad_blocked_country_without_a_file(tmp_path: Path) -> None:
    path = tmp_path / "calls.csv"
    calls(IR, NY).to_csv(path, index=False)
    runner = CliRunner()
    bad = runner.invoke(app, ["compliance", "audit", "--calls", str(path),
                              "--blocked-countries", "KP,XX"])
    assert bad.exit_code == 2
    assert bad.stderr.startswith("error: --blocked-countries holds 'XX', which names no "
                                 "country phonenumbers knows")
    good = runner.invoke(app, ["compliance", "audit", "--calls", str(path),
                               "--blocked-countries", "kp, ir"])
    assert good.exit_code == 0, good.output
    assert "2 findings: 0 of law, 1 of policy, 1 risk" in good.output  # no law of Iran held


def test_a_rule_with_nothing_audited_shows_no_rate() -> None:
    report = audit(calls(NY))  # no call answered: abandonment is counted among none
    assert pd.isna(report.totals.loc["abandonment", "rate"])
    text = report.to_text()
    assert text.splitlines()[0] == (f"0 findings: 0 of law, 0 of policy, 0 risks "
                                    f"({report.rules.name})")
    rows = {line.split()[0]: line for line in text.splitlines()[2:]}
    assert rows["abandonment"].split()[1:] == ["0", "0", "0", "0", "0", "answered", "calls",
                                               "–", "unchecked"]  # not "passed" (issue 48)
    assert "0.00%" in rows["calling_hours"]
    page = report.to_html()
    assert "nan%" not in text and "nan%" not in page
    assert "<td>–</td>" in page


@pytest.mark.parametrize("campaign", [None, pd.NA])
def test_the_finding_of_a_call_of_no_campaign_is_counted_in_the_totals(campaign: Any) -> None:
    night = calls(NY).assign(created_at=pd.Timestamp("2026-06-02T02:15Z"),
                             campaign_id=campaign)  # a click-to-call at 22:15 in New York
    report = audit(night)
    assert report.findings["rule"].tolist() == ["calling_hours"]
    assert report.totals.loc["calling_hours", ["findings", "law"]].tolist() == [1, 1]
    rows = {line.split()[0]: line for line in report.to_text().splitlines()[2:]}
    assert rows["calling_hours"].split()[-1] == "broken"  # not "passed"


def test_an_export_read_back_audits_as_the_frame_and_is_named_on_the_cover(
        tmp_path: Path) -> None:
    frame = calls(IR, NY)
    frame.to_csv(tmp_path / "calls.csv", index=False)
    read = read_export(tmp_path / "calls.csv")
    assert read.attrs["source"] == str(tmp_path / "calls.csv")
    assert read.attrs["fetched_at"].endswith(" UTC (file)")
    report = audit(read, blocked_countries=["IR"])
    assert report.findings["call_id"].tolist() == ["call_0", "call_0"]  # blocked; no law
    assert str(tmp_path / "calls.csv") in report.sources["calls"]


def test_an_export_that_cannot_be_read_is_refused_naming_it(tmp_path: Path) -> None:
    wide = tmp_path / "calls.csv"
    wide.write_text(",".join(["a"] * 600) + "\n", encoding="utf-8")
    with pytest.raises(AuditInputError, match=f"{re.escape(str(wide))}: line 1 has 600 col"):
        read_export(wide)
    with pytest.raises(AuditInputError, match=r"gone\.parquet: there is no such file: check "
                                              r"the path$"):
        read_export(tmp_path / "gone.parquet")
    broken = tmp_path / "broken.parquet"
    broken.write_bytes(b"PAR1 not a Parquet file")
    with pytest.raises(AuditInputError, match=r"broken\.parquet: cannot be read as \.parquet"):
        read_export(broken)


def test_calls_and_leads_findings_together_keep_a_time_column_and_the_page_renders() -> None:
    night = calls("+12125550123").assign(created_at=pd.Timestamp("2026-06-01T03:00Z"))
    leads = pd.DataFrame({"id": ["lead_1"], "campaign_id": ["cmp_1"],
                          "phone": ["+12125550123"], "status": ["new"]})
    dnc = pd.DataFrame({"phone": ["+13125550100"], "listed": [False],
                        "checked_at": [pd.Timestamp("2026-05-30T00:00Z")]})
    report = audit(night, leads=leads, dnc=dnc, as_of="2026-06-02")
    assert report.findings["rule"].tolist() == ["calling_hours", "unscreened_lead"]
    assert isinstance(report.findings["at"].dtype, pd.DatetimeTZDtype)  # not text: None
    assert report.findings["at"].isna().tolist() == [False, True]
    page = report.to_html()  # its chart by day failed on a column of None and times
    assert "calling_hours: findings per day" in page
    assert "unscreened_lead: findings per day" not in page  # a lead has no moment
    leads_section = page[page.index("<h3>unscreened_lead"):].replace("<wbr>", "")  # local_ time
    assert "<th>lead_id</th>" in leads_section
    assert not {"<th>at</th>", "<th>local_time</th>", "<th>call_id</th>"} & {
        header for header in re.findall(r"<th>[a-z_]+</th>", leads_section)}  # all empty
