"""On the emulator's seeded world, the audit finds exactly the problems it planted."""

from __future__ import annotations

from pathlib import Path

import httpx
import openpyxl
import pytest

from dialkit import Client
from dialkit.compliance import AuditReport, audit, load
from dialkit.sandbox import Sandbox


@pytest.fixture
def report_and_truth(sandbox: Sandbox, client: Client) -> tuple[AuditReport, dict[str, set[str]]]:
    answer = httpx.get(f"{sandbox.base_url}/_sandbox/ground-truth", params={"account": "acme"})
    truth = {kind: {problem["call_id"] for problem in problems}
             for kind, problems in answer.json()["problems"].items()}
    return audit(**load(client), blocked_countries=["KP", "IR"]), truth


@pytest.mark.parametrize(("rule", "kind"), [("calling_hours", "outside_calling_hours"),
                                            ("call_frequency", "frequency")])
def test_the_audit_finds_exactly_the_planted_calls(
        report_and_truth: tuple[AuditReport, dict[str, set[str]]], rule: str,
        kind: str) -> None:
    report, truth = report_and_truth
    found = set(report.findings.loc[report.findings["rule"] == rule, "call_id"])
    assert truth[kind] and found == truth[kind]


def test_the_seeded_world_has_no_other_findings_of_those_kinds(
        report_and_truth: tuple[AuditReport, dict[str, set[str]]]) -> None:
    report, _ = report_and_truth
    rules = set(report.findings["rule"])
    assert not rules & {"unknown_timezone", "blocked_country", "dnc_lead"}


def test_the_evidence_workbook_and_page(report_and_truth: tuple[AuditReport, dict[str, set[str]]],
                                        tmp_path: Path) -> None:
    report, _ = report_and_truth
    path = tmp_path / "evidence.xlsx"
    report.to_excel(path, mask_pii=True, about={"account": "acme"})
    book = openpyxl.load_workbook(path, read_only=False)
    assert book.sheetnames[:2] == ["cover", "summary"]
    assert set(book.sheetnames[2:]) == set(report.ran)
    hours = book["calling_hours"]
    header = [cell.value for cell in hours[1]]
    assert header[:10] == ["rule", "severity", "campaign_id", "call_id", "lead_id", "phone",
                           "at", "local_time", "timezone", "evidence"]
    assert hours.max_row - 1 == (report.findings["rule"] == "calling_hours").sum()
    assert hours.freeze_panes == "A2" and hours.auto_filter.ref
    phones = [row[5].value for row in hours.iter_rows(min_row=2)]
    assert phones and all("*****" in phone for phone in phones)
    cover = {row[0].value: row[1].value for row in book["cover"].iter_rows(min_row=2)}
    assert cover["account"] == "acme" and "08:00-21:00" in cover["calling window"]
    page = report.to_html(tmp_path / "report.html", mask_pii=True)
    assert (tmp_path / "report.html").read_text() == page
    assert page.count("data:image/png;base64,") == len(set(report.findings["rule"]))
    assert not any(phone in page for phone in report.findings["phone"].dropna())
