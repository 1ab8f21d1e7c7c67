"""The evidence as people read it: the page's tables and the workbook's cells (issue 23)."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import openpyxl
import pandas as pd
import pytest

from dialkit.compliance import HOUSE_RULES, AuditReport, audit
from dialkit.compliance._evidence import page
from dialkit.frames._pages import middle_cut

LONG_CAMPAIGN = "cmp_" + "x" * 126
NAMES = {"cmp_1": "Spring renewals"}


def redialled(count: int, campaign: str = "cmp_1") -> pd.DataFrame:
    """``count`` unanswered outbound calls a minute apart, each to one of three New York
    numbers: the fourth call to a number within 24 hours is a frequency finding of the
    house rules."""
    return pd.DataFrame({
        "id": [f"call_{n}" for n in range(count)], "direction": "outbound",
        "from_number": "+14155550100",
        "to_number": [f"+1212555012{n % 3}" for n in range(count)],
        "created_at": pd.Timestamp("2026-06-01T15:00Z") + pd.to_timedelta(
            range(count), unit="min"),
        "answered_at": pd.NaT, "ended_at": pd.NaT, "campaign_id": campaign,
        "disposition": None})


@pytest.fixture(scope="module")
def report() -> AuditReport:
    return audit(pd.concat([redialled(1_200), redialled(5, LONG_CAMPAIGN).assign(
        id=lambda f: "call_long_" + f["id"])], ignore_index=True), policy=HOUSE_RULES)


def cells(html: str) -> list[str]:
    return [unescape(c) for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", html)]


def test_the_page_shows_no_missing_value_as_text_and_counts_with_separators(
        report: AuditReport) -> None:
    shown = page(report, mask_pii=False, about={})
    assert (report.findings["rule"] == "call_frequency").sum() > 1_000
    assert report.findings["lead_id"].isna().all()  # no leads given: what would read "None"
    assert not {"None", "nan", "NaN", "NaT", "<NA>"} & set(cells(shown))
    assert "1,205" in cells(shown)  # the outbound calls audited


def test_a_long_id_is_cut_in_the_middle_with_the_whole_in_a_tooltip(
        report: AuditReport) -> None:
    shown = page(report, mask_pii=False, about={})
    assert f'title="{LONG_CAMPAIGN}">{middle_cut(LONG_CAMPAIGN)}</td>' in shown
    assert middle_cut(LONG_CAMPAIGN) == "cmp_" + "x" * 26 + "…" + "x" * 29
    assert max(len(c) for c in cells(shown) if " " not in c) == 60  # sentences wrap
    evidence = report.findings.set_index("rule").loc["call_frequency", "evidence"].iloc[0]
    assert len(evidence) > 60 and f'<td class="dialkit-prose">{evidence}</td>' in shown
    assert shown.count('<div class="dialkit-scroll">') == shown.count("<table")


def test_campaigns_are_named_on_the_page_and_in_the_workbook(report: AuditReport,
                                                             tmp_path: Path) -> None:
    assert "Spring renewals (cmp_1)" in cells(report.to_html(names=NAMES))
    path = tmp_path / "evidence.xlsx"
    report.to_excel(path, mask_pii=True, names=NAMES)
    book = openpyxl.load_workbook(path)
    summary = book["summary"]
    header = [c.value for c in summary[1]]
    assert header[:2] == ["rule", "campaign"]
    assert {row[1].value for row in summary.iter_rows(min_row=2)} >= {
        "Spring renewals (cmp_1)", LONG_CAMPAIGN}  # no name known: the id alone
    rate = summary.cell(2, header.index("rate") + 1)
    assert isinstance(rate.value, float) and rate.number_format == "0.00%"
    frequency = book["call_frequency"]
    values = [c.value for row in frequency.iter_rows(min_row=2) for c in row]
    assert "Spring renewals (cmp_1)" in values
    assert not {"None", "nan", "NaN", "NaT", "<NA>"} & set(values)
