"""The demo's headline figures, read back from the files the notebooks wrote, and
``index.html``, the page that links every notebook page and file."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from html import escape
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from .._files._outputs_written import written
from .._shown._words import counted

if TYPE_CHECKING:
    from ._report import DemoReport, NotebookRun

RATE_LIMIT_NOTE = ("rate limiting off: at the service's documented 10 requests per second "
                   "per key, a medium world's calls would take over a minute per notebook")
"""Why the demo's emulator does not limit; said on the page and in the summary."""


def cleaned_leads(path: Path) -> list[str]:
    """Rows checked, accepted and refused (by status), from a cleaned lead workbook's
    ``summary`` sheet."""
    summary = pd.read_excel(path, sheet_name="summary", engine="calamine")
    rows = summary.groupby("status", sort=False)["rows"].sum()
    accepted = int(rows.get("accepted", 0))
    refused = rows.drop("accepted", errors="ignore").sort_values(ascending=False)
    return [f"{int(rows.sum()):,} rows checked as the service would: {accepted:,} accepted, "
            f"{int(refused.sum()):,} refused",
            "refused: " + ", ".join(f"{status} {int(n):,}" for status, n in refused.items())]


def evidence(path: Path) -> list[str]:
    """Findings in all, then the violations (of law, of the account's policy) and the
    risks by what they are (calls that may have broken a law, leads that could be called
    wrongly: the cover's ``risks: ...`` rows, each counted in its unit), each per rule,
    from an evidence workbook's ``cover`` and ``summary`` sheets."""
    summary = pd.read_excel(path, sheet_name="summary", engine="calamine")
    cover = pd.read_excel(path, sheet_name="cover", engine="calamine")
    per_rule = summary.groupby("rule", sort=False)[["findings", "law", "policy", "risk"]].sum()
    of_leads = summary.groupby("rule", sort=False)["unit"].first() == "leads"
    found = per_rule[per_rule["findings"] > 0]
    law, policy = (int(per_rule[basis].sum()) for basis in ("law", "policy"))
    lines = [f"{counted(int(per_rule['findings'].sum()), 'finding')}; "
             f"{len(per_rule) - len(found):,} of {counted(len(per_rule), 'rule')} passed",
             f"violations: {law + policy:,} ({law:,} of law, {policy:,} of the account's "
             "policy)" + _per_rule(found["law"] + found["policy"])]
    for item, value in zip(cover["item"], cover["value"], strict=True):
        if str(item).startswith("risks: "):
            what = str(item).removeprefix("risks: ")
            ours = of_leads[found.index] == what.startswith("leads")
            lines.append(f"risks: {int(value):,} {what}" + _per_rule(found["risk"][ours]))
    return lines


def _per_rule(counts: pd.Series) -> str:
    """``: calling_hours 12, dnc_call 3``: the rules with a count, or nothing."""
    shown = counts[counts > 0]
    return (": " + ", ".join(f"{rule} {int(n):,}" for rule, n in shown.items())) if len(
        shown) else ""


def funnel(path: Path) -> list[str]:
    """The account's leads at each stage, from the funnel table (``funnel.csv``)."""
    table = pd.read_csv(path)
    stages = table.groupby("stage", sort=False)["leads"].sum()
    return [" → ".join(f"{int(n):,} {stage}" for stage, n in stages.items())]


READERS: dict[str, Callable[[Path], list[str]]] = {
    "messy_us_cleaned.xlsx": cleaned_leads,
    "funnel.csv": funnel,
    "evidence.xlsx": evidence,
}
"""The files whose headline figures the demo shows, by name."""
DESCRIPTIONS = {
    "messy_us_cleaned.xlsx": "the cleaned lead file: accepted rows, rejected rows with the "
                             "service's reasons, summary",
    "messy_us_cleaned.csv": "every row of the lead file with its verdict, written as it was "
                            "judged (a file of any size is cleaned so)",
    "funnel.csv": "the funnel per campaign: leads at each stage, stage-to-stage and overall "
                  "rates",
    "evidence.xlsx": "the evidence workbook: cover, summary, a sheet per rule (phones masked)",
    "report.html": "the audit as one page, a chart per rule",
}
"""What the notebooks' files are, by name, for the index page."""


def headlines(runs: Iterable[NotebookRun]) -> dict[str, list[str]]:
    """Each notebook's headline figures, from the files it wrote that :data:`READERS` know."""
    found: dict[str, list[str]] = {}
    for run in runs:
        lines = [line for file in run.files if file.name in READERS
                 for line in READERS[file.name](file)]
        if lines:
            found[run.name] = lines
    return found


def summary(report: DemoReport) -> list[str]:
    """What the demo prints at the end: what ran, the headline figures, each failure, and
    the page to open."""
    lines = [f"\nran {len(report.runs)} notebooks in {report.seconds:.0f} s against a "
             f"{report.scale} world with {RATE_LIMIT_NOTE}"]
    for name, figures in report.headlines.items():
        lines += [f"{name}:", *(f"  {figure}" for figure in figures)]
    lines += [f"error: {run.name}.ipynb failed at {run.problem}; its page, {run.html}, shows "
              "the traceback" for run in report.runs if run.status == "failed"]
    return [*lines, f"open {report.index}"]


def write_index(report: DemoReport) -> Path:
    """Write ``index.html`` into the report's folder and return its path."""
    sections = "\n".join(_section(run, report) for run in report.runs)
    made = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    page = _PAGE.format(
        scale=escape(report.scale), note=escape(RATE_LIMIT_NOTE), sections=sections,
        made=made, version=escape(version("dialkit")), seconds=f"{report.seconds:.0f}")
    with written(report.index, "--out") as partial:  # never through a link at its name
        partial.write_text(page, encoding="utf-8")
    return report.index


def _section(run: NotebookRun, report: DemoReport) -> str:
    title = escape(run.title)
    state = f"ran in {run.seconds:.1f} s" if run.status == "done" else (
        f"<strong>failed</strong> at {escape(run.problem or '')}")
    figures = "".join(f"<li>{escape(line)}</li>" for line in report.headlines.get(run.name, []))
    files = "".join(f'<li><a href="{escape(_href(file, report.out))}">{escape(file.name)}</a>'
                    f"{_described(file.name)}</li>" for file in run.files)
    return (f'<section><h2><a href="{escape(_href(run.html, report.out))}">{title}</a></h2>'
            f"<p class=note>{escape(run.name)}.ipynb {state}</p>"
            + (f"<ul class=figures>{figures}</ul>" if figures else "")
            + (f"<p>Files it wrote:</p><ul>{files}</ul>" if files else "") + "</section>")


def _described(name: str) -> str:
    return f": {escape(DESCRIPTIONS[name])}" if name in DESCRIPTIONS else ""


def _href(path: Path, folder: Path) -> str:
    return path.relative_to(folder).as_posix()


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>dialkit demo</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 48rem; margin: 2rem auto;
        padding: 0 1rem; color: #222; line-height: 1.45; }}
h2 {{ margin-bottom: 0.2rem; }}
.note {{ color: #555; margin-top: 0; }}
.figures li {{ font-weight: 600; }}
footer {{ color: #777; font-size: 0.9rem; margin-top: 2rem; }}
</style></head>
<body>
<h1>dialkit demo</h1>
<p>Each notebook below ran top to bottom against the local emulator of the service:
a <strong>{scale}</strong> world, with {note}. Click a title for the notebook with
its outputs and plots.</p>
{sections}
<footer>Made {made} by dialkit {version} in {seconds} s.</footer>
</body></html>
"""
