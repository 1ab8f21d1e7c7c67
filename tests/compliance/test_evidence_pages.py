"""The evidence as people read it: the page's tables and the workbook's cells (issue 23)."""

from __future__ import annotations

import re
from dataclasses import replace
from html import unescape
from pathlib import Path

import openpyxl
import pandas as pd
import pytest

from dialkit import Client, compliance
from dialkit._demo._index import evidence
from dialkit._shown._pages import middle_cut
from dialkit.compliance import HOUSE_RULES, AuditReport, audit, plot_summary
from dialkit.compliance._report._evidence import COLOURS, page

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
    """Each cell's text (without the ``<wbr>`` after an id's ``_`` or a date's span)."""
    return [unescape(re.sub(r"<[^>]+>", "", c))
            for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", html)]


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
    assert f'title="{LONG_CAMPAIGN}">cmp_<wbr>{middle_cut(LONG_CAMPAIGN)[4:]}</td>' in shown
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


LATE_IN_NEW_YORK = "2026-11-24T02:30:00Z"  # Mon 21:30 in New York: the TSR's hours forbid it


@pytest.fixture(scope="module")
def each_basis() -> AuditReport:
    """One finding of law (a call at 21:30 in New York), one of the account's policy (a
    call from a caller id it did not verify, at 10:00 in Chicago) and two risks: a lead at a
    listed number and one never screened, neither called. No law forbids holding them;
    only calling them would break one. (A call to a country the account blocks would be a
    risk besides: no law of Iran's is held.)"""
    placed = pd.to_datetime([LATE_IN_NEW_YORK, "2026-11-24T16:00:00Z"])
    calls = pd.DataFrame({
        "id": ["call_late", "call_unverified"], "direction": "outbound",
        "from_number": ["+14155550100", "+14155550199"],
        "to_number": ["+12125550123", "+13125550111"], "created_at": placed,
        "answered_at": pd.NaT, "ended_at": placed + pd.Timedelta(seconds=30),
        "campaign_id": "cmp_1", "disposition": None})
    leads = pd.DataFrame({"id": ["lead_listed", "lead_unscreened"], "campaign_id": "cmp_1",
                          "phone": ["+12125550199", "+12125550198"], "status": "new"})
    dnc = pd.DataFrame({"phone": ["+12125550199"], "listed": [True],
                        "checked_at": [pd.Timestamp("2026-11-20T00:00Z")]})
    return audit(calls, leads=leads, dnc=dnc, verified_caller_ids=["+14155550100"],
                 as_of="2026-11-25")


def test_violations_and_risks_are_counted_apart(each_basis: AuditReport) -> None:
    found = each_basis.findings.set_index("rule")["basis"].to_dict()
    assert found == {"calling_hours": "law", "unverified_caller_id": "policy",
                     "dnc_lead": "risk", "unscreened_lead": "risk"}
    assert each_basis.by_basis.to_dict() == {"law": 1, "policy": 1, "risk": 2}
    totals = each_basis.totals
    assert totals.loc["dnc_lead", ["findings", "law", "policy", "risk"]].tolist() == [1, 0, 0, 1]
    assert totals.loc["calling_hours", ["law", "policy", "risk"]].tolist() == [1, 0, 0]
    assert each_basis.summary[["law", "policy", "risk"]].sum().tolist() == [1, 1, 2]
    text = each_basis.to_text().splitlines()
    assert text[0].startswith("4 findings: 1 of law, 1 of policy, 2 risks, in 2 leads that "
                              "could be called wrongly (")
    verdicts = {line.split()[0]: line.split()[-1] for line in text[2:] if "leads" in line
                or "calls" in line}
    assert (verdicts["dnc_lead"], verdicts["calling_hours"]) == ("risks", "broken")
    assert "(1 law, 1 policy, 2 risk)" in repr(each_basis)


def test_the_count_is_the_findings_basis_not_the_rules_name(each_basis: AuditReport) -> None:
    """A rule another part adds (or a risk a rule reports) is counted by its ``basis``."""
    findings = each_basis.findings.assign(basis=lambda f: f["basis"].where(
        f["rule"] != "calling_hours", "risk"))
    moved = replace(each_basis, findings=findings)
    assert moved.by_basis.to_dict() == {"law": 0, "policy": 1, "risk": 3}
    assert moved.totals.loc["calling_hours", ["law", "risk"]].tolist() == [0, 1]


def test_the_workbook_keeps_risks_apart(each_basis: AuditReport, tmp_path: Path) -> None:
    path = tmp_path / "evidence.xlsx"
    each_basis.to_excel(path)
    book = openpyxl.load_workbook(path)
    assert book.sheetnames[2:6] == ["calling_hours", "unverified_caller_id",  # law, policy
                                    "dnc_lead", "unscreened_lead"]  # then the risks
    assert set(book.sheetnames[2:]) == set(each_basis.ran)
    cover = {row[0].value: row[1].value for row in book["cover"].iter_rows(min_row=2)}
    assert (cover["findings"], cover["findings of law"], cover["findings of policy"],
            cover["risks: calls that may have broken a law"],
            cover["risks: leads that could be called wrongly"]) == ("4", "1", "1", "0", "2")
    summary = pd.read_excel(path, sheet_name="summary", engine="calamine")
    rules = ["dnc_lead", "unscreened_lead", "calling_hours", "unverified_caller_id"]
    assert summary.groupby("rule")[["law", "policy", "risk"]].sum().loc[
        rules].values.tolist() == [[0, 0, 1], [0, 0, 1], [1, 0, 0], [0, 1, 0]]
    for rule in ("dnc_lead", "unscreened_lead"):
        header = [c.value for c in book[rule][1]]
        assert [row[header.index("basis")].value for row in book[rule].iter_rows(min_row=2)
                ] == ["risk"]


def test_the_page_shows_violations_then_risks_apart(each_basis: AuditReport) -> None:
    shown = page(each_basis, mask_pii=False, about={})
    text = re.sub(r"<[^>]+>", "", shown)
    assert "Violations: 2 (1 of law, 1 of the account's policy)" in text
    assert "Risks: 2 leads that could be called wrongly: no rule is known" in text
    headings = re.findall(r"<h2>([^<]+)</h2>", shown)[1:]
    assert headings == ["Findings of law: 1", "Findings of the account's policy: 1",
                        "Risks: leads that could be called wrongly: 2"]
    risks = shown[shown.index("<h2>Risks"):]
    assert "<h3>dnc_lead: 1 risk</h3>" in risks and "<h3>unscreened_lead: 1 risk</h3>" in risks
    assert "<h3>dnc_lead" not in shown[:shown.index("<h2>Risks")]
    assert not {"None", "nan", "NaN", "NaT", "<NA>"} & set(cells(shown))


def test_the_summary_chart_draws_risks_in_their_own_colour(each_basis: AuditReport) -> None:
    from matplotlib.colors import to_hex
    from matplotlib.figure import Figure

    ax = plot_summary(each_basis, ax=Figure().add_subplot())
    rules = list(each_basis.totals.index[::-1])
    drawn: dict[str, set[str]] = {}
    for bar in ax.patches:
        if bar.get_width():  # type: ignore[attr-defined]
            rule = rules[round(bar.get_y() + bar.get_height() / 2)]  # type: ignore[attr-defined]
            drawn.setdefault(rule, set()).add(to_hex(bar.get_facecolor()))
    assert drawn == {"calling_hours": {COLOURS["law"]}, "unverified_caller_id": {COLOURS["policy"]},
                     "dnc_lead": {COLOURS["risk"]}, "unscreened_lead": {COLOURS["risk"]}}
    assert len(set(COLOURS.values())) == 3
    assert ax.get_title().startswith(
        "Compliance audit: 2 violations (1 of law, 1 of policy); 9 of 14 rules passed\n"
        "risks: 2 leads that could be called wrongly\n")
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "violation of law", "violation of the account's policy",
        "risk: a call that may have broken a law, a lead that could be called wrongly"]


def test_the_demos_headline_figures_show_violations_and_risks_apart(
        each_basis: AuditReport, tmp_path: Path) -> None:
    path = tmp_path / "evidence.xlsx"
    each_basis.to_excel(path, mask_pii=True)
    assert evidence(path) == [
        f"4 findings; {len(each_basis.ran) - 4} of {len(each_basis.ran)} rules passed",
        "violations: 2 (1 of law, 1 of the account's policy): calling_hours 1, "
        "unverified_caller_id 1",
        "risks: 0 calls that may have broken a law",
        "risks: 2 leads that could be called wrongly: dnc_lead 1, unscreened_lead 1"]


def test_risks_of_calls_are_counted_as_calls_and_their_sheets_follow_the_violations(
        client: Client, tmp_path: Path) -> None:
    """The issue's reproduction: with ``consents=``, the emulator's calls to numbers that
    may be wireless are risks of calls, counted in calls, not "leads that could be called
    wrongly" (more of them than leads audited), as are the first calls to numbers of a
    state whose list is required and not given (issue 73); the sheets of violations stand
    before every sheet of risks."""
    frames = compliance.load(client)
    consents = pd.DataFrame({"phone": [frames["leads"]["phone"].iloc[0]], "kind": ["written"],
                             "given_at": [pd.Timestamp("2020-01-01", tz="UTC")]})
    report = audit(**frames, consents=consents)
    risks = report.findings[report.findings["basis"] == "risk"]
    of_calls = risks[risks["rule"].isin(["no_written_consent", "dnc_call"])]
    assert len(of_calls) > len(frames["leads"])  # what the cover once called leads
    assert report.risks.to_dict() == {
        "calls": of_calls["call_id"].nunique(),
        "leads": risks.loc[~risks.index.isin(of_calls.index), "lead_id"].nunique()}
    calls, leads = report.risks
    path = tmp_path / "evidence.xlsx"
    report.to_excel(path)
    book = openpyxl.load_workbook(path)
    cover = {row[0].value: row[1].value for row in book["cover"].iter_rows(min_row=2)}
    assert (cover["risks: calls that may have broken a law"],
            cover["risks: leads that could be called wrongly"]) == (str(calls), str(leads))
    kinds = []
    for name in book.sheetnames[2:]:
        header = [c.value for c in book[name][1]]
        bases = {row[header.index("basis")].value for row in book[name].iter_rows(min_row=2)}
        kinds.append(min((("law", "policy", "risk").index(b) for b in bases), default=3))
    assert kinds == sorted(kinds) and kinds.count(0) >= 4 and 2 in kinds  # law ... risk, none
    assert book.sheetnames.index("no_written_consent") > book.sheetnames.index("caller_id")
    words = f"Risks: {calls:,} calls that may have broken a law"
    assert words in re.sub(r"<[^>]+>", "", report.to_html())
    assert f"<h2>Risks: calls that may have broken a law: {calls:,}</h2>" in report.to_html()
    assert f"risks, in {calls:,} calls that may have broken a law" in report.to_text()
