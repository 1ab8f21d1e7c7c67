"""On the emulator's seeded world, the audit finds exactly the problems it planted."""

from __future__ import annotations

import httpx
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
