"""On the emulator's seeded worlds, the audit finds exactly the problems it planted.

Each scale's world is audited once (module scope) through the client over
real HTTP, as a user would: ``audit(**load(client))`` with the account's
verified caller ids from the emulator's admin surface.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import openpyxl
import pytest

from conftest import START
from dialkit import Client
from dialkit.compliance import US_FEDERAL, AuditReport, audit, load
from dialkit.sandbox import parse_config, start

Truth = dict[str, set[str]]

AUDITOR_KEY = "svc_test_auditor01_AAAAbbbbCCCCddddEEEEffff0010"
"""A key with only what an audit reads: calls, leads, DNC checks."""

RULE_OF_KIND = {"outside_calling_hours": "calling_hours", "frequency": "call_frequency",
                "dnc_call": "dnc_call", "state_calling_hours": "calling_hours",
                "state_day_ban": "calling_hours", "state_holiday": "calling_hours",
                "state_frequency": "call_frequency"}
"""Each planted kind whose every call is a finding of one rule: the federal kinds, and the
law of the place's (a state's or Canada's row, which the ``US`` preset applies)."""
FEDERAL_KINDS = {"outside_calling_hours", "frequency", "dnc_call"}


@pytest.fixture(scope="module", params=["small", "medium"])
def audited(request: pytest.FixtureRequest,
            tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[AuditReport, Truth]]:
    config = {"server": {"rate_limit_scale": 0, "clock": "manual", "start_time": START},
              "accounts": [{"name": "acme", "seed": 7, "scale": request.param,
                            "clients": [{"name": "auditor", "keys": [{"key": AUDITOR_KEY}],
                                         "scopes": ["calls:read", "leads:read", "dnc:check"]}]}]}
    with pytest.MonkeyPatch.context() as patch, start(parse_config(config)) as sandbox:
        patch.setenv("DIALKIT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        admin = f"{sandbox.base_url}/_sandbox"
        problems = httpx.get(f"{admin}/ground-truth", params={"account": "acme",
                                                                  "law": "all"}).json()
        verified = httpx.get(f"{admin}/caller-ids", params={"account": "acme",
                                                                  "law": "all"}).json()
        with Client(AUDITOR_KEY, base_url=sandbox.base_url, rate_limit=None) as client:
            report = audit(**load(client), blocked_countries=["KP", "IR"],
                           verified_caller_ids=verified["caller_ids"])
    truth = {kind: {p["call_id"] for p in found} for kind, found in problems["problems"].items()}
    yield report, truth


def _found(report: AuditReport, rule: str) -> set[str]:
    return set(report.findings.loc[report.findings["rule"] == rule, "call_id"])


def test_the_world_plants_every_kind(audited: tuple[AuditReport, Truth]) -> None:
    _, truth = audited
    assert {*FEDERAL_KINDS, "abandoned", "state_calling_hours", "state_day_ban"} <= set(truth)
    assert set(truth) <= {*RULE_OF_KIND, "abandoned"} and all(truth.values())


@pytest.mark.parametrize("rule", sorted(set(RULE_OF_KIND.values())))
def test_the_audit_finds_exactly_the_planted_calls(audited: tuple[AuditReport, Truth],
                                                   rule: str) -> None:
    """Each rule's findings are the calls of every kind planted for it: under ``US``, a
    Sunday call to Louisiana and a 20:30 one to Florida are calling-hours findings too."""
    report, truth = audited
    planted = set().union(*(truth.get(kind, set()) for kind, of in RULE_OF_KIND.items()
                            if of == rule))
    assert _found(report, rule) == planted


def test_counts_stay_whole_numbers_beside_other_rules(audited: tuple[AuditReport, Truth]) -> None:
    report, _ = audited
    assert str(report.findings["calls_in_24h"].dtype) == "Int64"
    frequent = report.findings[report.findings["rule"] == "call_frequency"]
    assert (frequent["calls_in_24h"] >= 4).all()


def test_dnc_calls_are_dated_by_the_listing(audited: tuple[AuditReport, Truth]) -> None:
    report, _ = audited
    calls = report.findings[report.findings["rule"] == "dnc_call"]
    assert calls["listed_at"].notna().all() and (calls["at"] > calls["listed_at"]).all()
    assert calls["evidence"].str.startswith("called after the number was listed on").all()


def test_the_abandoned_calls_are_exactly_the_planted_ones(
        audited: tuple[AuditReport, Truth]) -> None:
    report, truth = audited
    assert set(report.abandoned["call_id"]) == truth["abandoned"]
    assert report.notes["abandonment"].startswith("agent_joined_at")


def test_abandonment_findings_are_the_abandoned_calls_over_the_limit(
        audited: tuple[AuditReport, Truth]) -> None:
    report, _ = audited
    over = report.abandoned["window_rate"] > US_FEDERAL.abandonment_limit
    assert _found(report, "abandonment") == set(report.abandoned.loc[over, "call_id"])
    rates = report.abandoned["window_abandoned"] / report.abandoned["window_answered"]
    assert (rates == report.abandoned["window_rate"]).all()


def test_the_world_has_no_other_findings(audited: tuple[AuditReport, Truth]) -> None:
    report, _ = audited
    assert set(report.ran) == {"calling_hours", "unknown_timezone", "call_frequency",
                               "dnc_call", "dnc_lead", "unscreened_lead", "abandonment",
                               "blocked_country", "unverified_caller_id",
                               "unknown_jurisdiction"}
    assert not set(report.findings["rule"]) & {"unknown_timezone", "blocked_country",
                                                "unknown_jurisdiction",
                                                "dnc_lead", "unscreened_lead",
                                                "unverified_caller_id"}


def test_the_evidence_workbook_and_page(audited: tuple[AuditReport, Truth],
                                        tmp_path: Path) -> None:
    report, _ = audited
    path = tmp_path / "evidence.xlsx"
    report.to_excel(path, mask_pii=True, about={"account": "acme"})
    book = openpyxl.load_workbook(path, read_only=False)
    assert book.sheetnames[:2] == ["cover", "summary"]
    assert set(book.sheetnames[2:]) == set(report.ran)
    for rule in report.ran:
        sheet = book[rule]
        header = [cell.value for cell in sheet[1]]
        assert header[:10] == ["rule", "severity", "campaign_id", "call_id", "lead_id", "phone",
                               "at", "local_time", "timezone", "evidence"]
        assert sheet.max_row - 1 == (report.findings["rule"] == rule).sum()
        assert sheet.freeze_panes == "A2" and sheet.auto_filter.ref
    phones = [row[5].value for row in book["calling_hours"].iter_rows(min_row=2)]
    assert phones and all("*****" in phone for phone in phones)
    cover = {row[0].value: row[1].value for row in book["cover"].iter_rows(min_row=2)}
    assert cover["account"] == "acme" and "08:00-21:00" in cover["calling window"]
    assert "agent_joined_at" in cover["abandonment told by"]
    page = report.to_html(tmp_path / "report.html", mask_pii=True)
    assert (tmp_path / "report.html").read_text() == page
    assert page.count("data:image/png;base64,") == len(set(report.findings["rule"]))
    assert not any(phone in page for phone in report.findings["phone"].dropna())
