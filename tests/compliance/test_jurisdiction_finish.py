"""On the emulator's small seeded world, through the client over HTTP: each finding of a
planted case of the law of the place names the row that decided it, and the chart of
findings by state draws them. And docs/compliance.md shows the jurisdiction table as
generated from the data file.

The exact sets of findings are checked in ``test_ground_truth.py``; here, which row.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pycountry
import pytest
from matplotlib.figure import Figure

from conftest import START
from dialkit import Client
from dialkit.compliance import AuditReport, audit, jurisdictions, load, plot_by_state
from dialkit.compliance._rules._jurisdictions_docs import compact
from dialkit.sandbox import parse_config, start

KEY = "svc_test_auditor01_AAAAbbbbCCCCddddEEEEffff0011"


@pytest.fixture(scope="module")
def audited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[AuditReport, Any]]:
    config = {"server": {"rate_limit_scale": 0, "clock": "manual", "start_time": START},
              "accounts": [{"name": "acme", "seed": 7, "scale": "small",
                            "clients": [{"name": "auditor", "keys": [{"key": KEY}],
                                         "scopes": ["calls:read", "leads:read", "dnc:check"]}]}]}
    with pytest.MonkeyPatch.context() as patch, start(parse_config(config)) as sandbox:
        patch.setenv("DIALKIT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        planted = httpx.get(f"{sandbox.base_url}/_sandbox/ground-truth",
                            params={"account": "acme", "law": "place"}).json()["problems"]
        with Client(KEY, base_url=sandbox.base_url, rate_limit=None) as client:
            report = audit(**load(client))
    yield report, planted


def test_each_planted_state_case_names_its_states_row(
        audited: tuple[AuditReport, Any]) -> None:
    report, planted = audited
    cases = {case["call_id"]: case["detail"]["jurisdiction"]
             for found in planted.values() for case in found}
    assert len({jid for jid in cases.values() if jid.startswith("US-")}) >= 3
    named = report.findings[report.findings["call_id"].isin(cases)]
    assert set(named["call_id"]) == set(cases)
    for call_id, jid, decided_by in zip(named["call_id"], named["jurisdiction"],
                                        named["decided_by"], strict=True):
        assert (jid, decided_by) == (cases[call_id], "number"), call_id


def test_the_federal_kinds_are_named_by_the_row_that_decided(
        audited: tuple[AuditReport, Any]) -> None:
    """A federal calling-hours finding is the federal row's (or a stricter state's); a
    Do-Not-Call finding its list's country's, decided by the list, but the risk of a
    state's list not given, which the number's area code decides (issue 73); every
    finding of law names the jurisdiction and the section that decide it."""
    report, _ = audited
    found = report.findings
    hours = found[found["rule"] == "calling_hours"]
    assert hours["jurisdiction"].notna().all() and (hours["jurisdiction"] == "US").any()
    assert set(hours["decided_by"]) == {"number"}
    unscrubbed = (found["rule"] == "dnc_call") & (found["basis"] == "risk")
    listed = found[found["rule"].isin(["dnc_call", "dnc_lead"]) & ~unscrubbed]
    assert len(listed) and set(listed["decided_by"]) == {"list"}
    assert listed["jurisdiction"].notna().all()
    assert set(found.loc[unscrubbed, "decided_by"]) <= {"number"}
    assert found.loc[unscrubbed, "jurisdiction"].str.match(r"US-[A-Z]{2}$").all()
    law = found[found["basis"] == "law"]
    assert len(law) and law[["jurisdiction", "decided_by", "citation"]].notna().all().all()


def test_findings_by_state_draws_each_jurisdiction_by_name(
        audited: tuple[AuditReport, Any]) -> None:
    report, _ = audited
    ax = plot_by_state(report, ax=Figure().subplots())
    decided = report.findings["jurisdiction"].dropna()
    labels = [label.get_text() for label in ax.get_yticklabels()]
    rows = {row.id: row.name for row in jurisdictions.all()}
    names = [rows.get(jid) or pycountry.subdivisions.get(code=jid).name  # a state's own list
             for jid in decided.unique()]
    assert len(labels) == decided.nunique() and all(
        any(label.startswith(name) for label in labels) for name in names)
    totals = [int(text.get_text().replace(",", "")) for text in ax.texts]
    assert totals == sorted(totals) and sum(totals) == len(decided)  # most at the top
    assert f"{len(decided):,} in {decided.nunique()} jurisdictions" in ax.get_title()
    left_out = len(report.findings) - len(decided)
    said = f"{left_out:,} other findings, which no jurisdiction's row decided"
    assert (said in ax.get_title()) == (left_out > 0)  # every finding here is of law


def test_the_compliance_page_shows_the_table_as_generated() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "compliance.md").read_text(
        encoding="utf-8")
    start, end = "<!-- jurisdictions: generated -->\n", "<!-- jurisdictions: end -->"
    shown = page[page.index(start) + len(start):page.index(end)]
    assert shown == compact(), (
        "docs/compliance.md's jurisdiction table is out of date: paste the output of "
        "`python -c 'from dialkit.compliance._rules._jurisdictions_docs import compact; "
        "print(compact(), end=\"\")'` between its markers")
    for row in jurisdictions.all():  # every row, with its citation and first source
        assert row.citation in shown and row.sources[0] in shown, row.id
