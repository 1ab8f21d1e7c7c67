"""The evidence an audit hands on: a workbook a regulator can filter, and one HTML page.

Both start with what was audited (the rules and their parameters, the data and
how abandonment was told apart), then the counts, then every finding: the law's
findings apart from the account's policy's, and both (the violations: calls that broke a
rule) apart from the risks, each counted in what it is: calls that may have broken a law
(the data cannot tell whether they did) apart from leads that could be called wrongly
(which no law forbids holding). With
``mask_pii`` the phone numbers are shown as ``+1415*****23``: enough to match
a number one already has, not to dial it.
"""

from __future__ import annotations

import base64
import html
import io
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol, TypeAlias

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from ..._files._outputs import header_filtered
from ..._shown._masked import mask_phone
from ..._shown._pages import NOT_MATH, TABLE_STYLE, campaign_label, campaign_names, html_table
from ..._shown._words import counted
from ...frames import excel_writer
from .._checks._texts import CHANNEL
from .._checks._unread._unjudged import verdicts_said
from .._inputs._population import rate_text
from .._rules._rules import BASES, FINDING_COLUMNS, RISKS, RULE_IDS, Rules
from ._text import PERIOD_ASKED, of_lead_rules, risk_counts, risks_text

if TYPE_CHECKING:
    from matplotlib.figure import Figure

PAGE_STYLE = ("body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}"
              "table{border-collapse:collapse;margin:.5em 0 1.5em;font-size:12px}"
              "th,td{border:1px solid #ccc;padding:3px 5px;text-align:left;vertical-align:top}"
              "th{background:#f2f2f2}h3{margin-top:2em}"
              "body .dialkit-scroll td.dialkit-prose{min-width:12em}")
"""The stand-alone page's look: plain, compact tables that print well, a rule's findings
(a dozen columns: ids, times, the evidence and its citation in words; fourteen where a
text's ``channel`` and a listing's date are among them) within a window of 1,400 px."""

COLOURS = {"law": "#c0504d", "policy": "#f79646", "risk": "#4f81bd"}
"""Each basis's colour, on the page's charts and in the plots (:mod:`._plots`): a risk is
drawn in blue, never in a violation's red or orange."""
_PHONE_COLUMNS = ("phone", "from_number")
_WIDEST = 60
_FIRST_READ = ("severity", "at", "local_time", "timezone", "evidence")
_RATE_FORMAT = "0.00%"
"""A rate in the workbook: a number (it sorts and filters) shown as a percentage."""


class Audited(Protocol):
    """What the evidence shows of an audit (an :class:`AuditReport`, which writes it)."""

    @property
    def findings(self) -> pd.DataFrame: ...

    @property
    def rules(self) -> Rules: ...

    @property
    def ran(self) -> tuple[str, ...]: ...

    @property
    def sources(self) -> Mapping[str, str]: ...

    @property
    def notes(self) -> Mapping[str, str]: ...

    @property
    def period(self) -> str | None: ...

    @property
    def calls_audited(self) -> int: ...

    @property
    def empty_said(self) -> str: ...

    @property
    def summary(self) -> pd.DataFrame: ...

    @property
    def totals(self) -> pd.DataFrame: ...

    @property
    def unjudged_said(self) -> list[str]: ...


def masked(frame: pd.DataFrame, mask_pii: bool) -> pd.DataFrame:
    """``frame`` with its phone columns masked when asked (a copy; the report keeps its own)."""
    if not mask_pii:
        return frame
    out = frame.copy()
    for column in _PHONE_COLUMNS:
        if column in out:
            out[column] = out[column].map(mask_phone)
    return out


def cover(report: Audited, about: Mapping[str, str]) -> pd.DataFrame:
    """What was audited, as two columns: the item and its value: the period asked for
    beside the data's own (``data: calls``), and how many calls were audited, with a
    warning where none was."""
    rows = {**about, "calls audited": _calls_audited(report),
            "verdicts": verdicts_said(report.totals).removeprefix("verdicts: "),
            **{f"not judged: {line.partition(': ')[0]}"
               + (f" ({n})" if n > 1 else ""): line.partition(": ")[2].removeprefix(
                   "not judged ")
               for line, n in _numbered(report.unjudged_said)},
            **({PERIOD_ASKED: report.period} if report.period else {}),
            **{f"data: {name}": words for name, words in report.sources.items()},
            **report.rules.describe(),
            "rules run": ", ".join(report.ran),
            **{("abandonment told by" if rule == "abandonment" else f"note: {rule}"): note
               for rule, note in report.notes.items()},
            "findings": str(len(report.findings)),
            **{_COUNTED_AS[basis]: str(int((report.findings["basis"] == basis).sum()))
               for basis in ("law", "policy")},
            **{f"risks: {_plural(unit)}": str(int(count))
               for unit, count in risk_counts(report.findings).items()}}
    return pd.DataFrame({"item": list(rows), "value": list(rows.values())})


def _numbered(lines: list[str]) -> list[tuple[str, int]]:
    """Each line of :attr:`AuditReport.unjudged_said` with its place among its rule's (a
    rule not judged for several reasons has a cover row each)."""
    seen: dict[str, int] = {}
    numbered = []
    for line in lines:
        rule = line.partition(": ")[0]
        seen[rule] = seen.get(rule, 0) + 1
        numbered.append((line, seen[rule]))
    return numbered


def _calls_audited(report: Audited) -> str:
    """How many calls were audited; none said loudly, for every rule then "passes"."""
    return f"{report.calls_audited:,}" if report.calls_audited else report.empty_said


_COUNTED_AS = {"law": "findings of law", "policy": "findings of policy"}
"""How the cover names the count of each basis of violation; the risks' are counted by
what they are (:func:`_plural`)."""


def _plural(unit: str) -> str:
    """A kind of risk as a count of it is headed: ``calls that may have broken a law``."""
    return f"{unit} {RISKS[unit][1]}"


def named(frame: pd.DataFrame, names: Mapping[str, str] | None) -> pd.DataFrame:
    """``frame`` with its ``campaign_id`` column (or index) as ``campaign``, by name and
    id (:func:`campaign_label`), when ``names`` are given; else ``frame`` as it is."""
    if names is None:
        return frame
    out = frame.rename_axis("campaign" if frame.index.name == "campaign_id" else
                            frame.index.name)
    if out.index.name == "campaign":
        out.index = out.index.map(lambda c: campaign_label(c, names))
    if "campaign_id" in out:
        out = out.assign(campaign_id=out["campaign_id"].map(
            lambda c: campaign_label(c, names))).rename(columns={"campaign_id": "campaign"})
    return out


Names: TypeAlias = Mapping[str, str] | pd.Series | pd.DataFrame | None
"""Campaign names by id, as a caller has them: a mapping, a Series by id
(``campaigns.set_index("id")["name"]``) or the campaigns frame itself."""


def names_by_id(names: Names) -> dict[str, str] | None:
    """``names`` as a dict of names by id (:data:`Names`); None for none."""
    if names is None:
        return None
    if isinstance(names, pd.DataFrame):
        return campaign_names(names)
    return {str(key): str(name) for key, name in names.items() if pd.notna(name)}


def write_workbook(report: Audited, path: str | os.PathLike[str], *, mask_pii: bool,
                   about: Mapping[str, str], names: Names = None) -> None:
    """The evidence workbook: cover, summary, then one sheet per rule that ran or found,
    in :func:`_sheet_order` (the violations' sheets first, the risks' after them, those of
    the rules that found nothing last), each sheet's violations before its risks; every
    text a string cell, never a formula or link (ids and names come from outside); a
    missing value an empty cell, a rate a number shown as a percentage, a campaign by its
    name and id when ``names`` (campaign names by id, :data:`Names`) are given."""
    names = names_by_id(names)
    kinds = _kinds(report.findings)
    with excel_writer(path) as book:
        sheets = {"cover": cover(report, about), "summary": named(report.summary, names)}
        for rule in _sheet_order(report.findings["rule"], kinds):
            ours = (report.findings["rule"] == rule).to_numpy(bool)
            rows = report.findings[ours].iloc[np.argsort(kinds[ours], kind="stable")]
            if rule in report.ran or len(rows):
                sheets[rule] = named(masked(_plain(_own_columns(rows)), mask_pii), names)
        percent = book.book.add_format({"num_format": _RATE_FORMAT})
        for name, frame in sheets.items():
            frame.to_excel(book, sheet_name=name[:31], index=False)
            sheet = book.sheets[name[:31]]
            header_filtered(sheet, len(frame), len(frame.columns))
            for n, column in enumerate(frame.columns):
                width = max([len(str(column)), *frame[column].astype(str).str.len().head(
                    1000).tolist()]) if len(frame) else len(str(column))
                sheet.set_column(n, n, min(width + 2, _WIDEST),
                                 percent if column == "rate" else None)


KINDS = ("law", "policy", "calls", "leads")
"""What a finding is, in the order the evidence shows them: a violation of law, of the
account's policy, then a risk of a call (that may have broken a law), of a lead (that
could be called wrongly)."""


def _kinds(findings: pd.DataFrame) -> NDArray[np.int64]:
    """Each finding's kind, as its place in :data:`KINDS`: its ``basis``, a risk by its
    rule's unit (:func:`._text.of_lead_rules`)."""
    basis = findings["basis"].to_numpy(object)
    kind = np.where(basis == "law", 0, np.where(basis == "policy", 1, 2))
    found: NDArray[np.int64] = kind + ((kind == 2) & of_lead_rules(findings["rule"]))
    return found


def _sheet_order(rules: pd.Series, kinds: NDArray[np.int64]) -> list[str]:
    """The rules in the order of their sheets: by the gravest kind of their findings
    (:data:`KINDS`: law, policy, then the risks of calls, of leads), the rules that found
    nothing last; in rule order within each."""
    gravest = pd.Series(kinds).groupby(rules.to_numpy(object)).min()
    return sorted(RULE_IDS, key=lambda rule: (int(gravest.get(rule, len(KINDS))),
                                              RULE_IDS.index(rule)))


def _own_columns(rows: pd.DataFrame, *, every_common: bool = True) -> pd.DataFrame:
    """One rule's findings with the columns every finding has (all of them in a workbook's
    sheet, which programs read; on a page, only those that hold a value here: a lead's
    finding has no time, zone or call, and ``channel`` is shown where a text is among
    them, for a column of ``call`` on every row says nothing and costs the table its
    width), and those of the other columns (other rules' own) that hold a value here."""
    if every_common:
        return rows[[c for c in rows.columns
                     if c in (*FINDING_COLUMNS, CHANNEL) or rows[c].notna().any()]]
    texted = CHANNEL in rows and (rows[CHANNEL] == "text").any()
    return rows[[c for c in rows.columns
                 if rows[c].notna().any() and (c != CHANNEL or texted)]]


def _reading_order(frame: pd.DataFrame) -> pd.DataFrame:
    """A page's columns in the order a reader wants them: when and what (the time, the
    local time, the evidence) before the ids that find the call; the rule's name and the
    basis, the sections' titles, left out."""
    first = [c for c in _FIRST_READ if c in frame]
    return frame[first + [c for c in frame.columns
                          if c not in first and c not in ("rule", "basis")]]


def _plain(frame: pd.DataFrame) -> pd.DataFrame:
    """Times as text in UTC (Excel has no time zones) and categories as text."""
    out = frame.copy()
    for column in out.columns:
        if isinstance(out[column].dtype, pd.DatetimeTZDtype):
            out[column] = out[column].dt.strftime("%Y-%m-%d %H:%M:%S UTC")
    return out


def page(report: Audited, *, mask_pii: bool, about: Mapping[str, str],
         shown: int | None = None, names: Names = None) -> str:
    """One self-contained HTML page: what was audited, the summary, a chart per rule with
    findings, and the findings (the first ``shown`` of each rule, or all). Tables as
    :func:`~dialkit._shown._pages.html_table` draws them: missing values empty, rates as
    percentages, counts with separators, long ids cut with the whole in a tooltip, the
    evidence wrapped; campaigns by name and id when ``names`` are given. Every text is
    escaped, and the page is :data:`~dialkit._shown._pages.NOT_MATH`: a policy's or a
    campaign's name is shown as written in Jupyter too."""
    names = names_by_id(names)
    totals = report.totals
    parts = [f"<style>{TABLE_STYLE}</style>",
             f"<h2>Compliance audit: {html.escape(report.rules.name)}</h2>",
             *([f"<p><b>{html.escape(report.empty_said)}</b></p>"]
               if not report.calls_audited else []),
             headline(report.findings), _not_judged(totals),
             html_table(cover(report, about)), "<h3>Findings by rule</h3>",
             html_table(totals, index=True, texts={"rate": totals["rate"].map(rate_text)})]
    kinds = _kinds(report.findings)
    for kind, heading in enumerate(_HEADINGS):
        of_kind = report.findings[kinds == kind]
        if of_kind.empty:
            continue
        count = len(of_kind) if kind < 2 else risk_counts(of_kind)[KINDS[kind]]
        parts.append(f"<h2>{heading}: {count:,}</h2>")
        for rule in RULE_IDS:
            rows = of_kind[of_kind["rule"] == rule]
            if not rows.empty:
                parts += _section(rows, rule, BASES[min(kind, 2)], mask_pii=mask_pii,
                                  shown=shown, names=names)
    return f'<div class="{NOT_MATH}">' + "".join(parts) + "</div>"


_HEADINGS = ("Findings of law", "Findings of the account's policy",
             *(f"Risks: {_plural(unit)}" for unit in RISKS))
"""Each kind's heading (:data:`KINDS`), followed by its count: of findings, of calls, of
leads."""


def headline(findings: pd.DataFrame) -> str:
    """The page's first words: the violations (law's, policy's) and, apart, the risks,
    each counted in what it is (:func:`._text.risk_counts`)."""
    law, policy = ((findings["basis"] == b).sum() for b in ("law", "policy"))
    risks = risk_counts(findings)
    return (f"<p><b>Violations: {law + policy:,}</b> ({law:,} of law, {policy:,} of the "
            f"account's policy): calls that broke a rule. <b>Risks: "
            f"{html.escape(risks_text(risks))}</b>: no rule is known to be broken; the data "
            "cannot tell whether a call did, and no law forbids holding a lead, only "
            "calling it.</p>")


def _not_judged(totals: pd.DataFrame) -> str:
    """The page's words on the rules not judged, after the headline: none were, or which
    and for how many calls (the cover says why each, and what to give)."""
    rules = totals[totals["not_judged"] > 0]
    if rules.empty:
        return "<p>Every rule judged every call it applies to.</p>"
    each = ", ".join(f"{html.escape(str(rule))} ({counted(int(n), 'call')})"
                     for rule, n in rules["not_judged"].items())
    return (f"<p><b>Not judged: {counted(len(rules), 'rule')}</b> for calls not read: "
            f"{each}. Neither broken nor passed for those calls: the cover says why, and "
            "what to give.</p>")


def _section(rows: pd.DataFrame, rule: str, basis: str, *, mask_pii: bool,
             shown: int | None, names: Mapping[str, str] | None) -> list[str]:
    """One rule's findings of one basis: a heading, a chart by day, the table."""
    noun = "risk" if basis == "risk" else "finding"
    parts = [f"<h3>{html.escape(rule)}: {counted(len(rows), noun)}</h3>"]
    if rows["at"].notna().any():  # a lead's finding has no moment to chart
        parts.append(_chart(rows, rule, COLOURS[basis]))
    table = _reading_order(named(masked(_plain(_own_columns(rows, every_common=False)),
                                        mask_pii), names))
    parts.append(html_table(table if shown is None else table.head(shown)))
    if shown is not None and len(rows) > shown:
        parts.append(f"<p>The first {shown:,} of {len(rows):,}: the workbook and "
                     "<code>report.findings</code> hold them all.</p>")
    return parts


def _chart(rows: pd.DataFrame, rule: str, colour: str) -> str:
    """Findings per day (UTC), as an inline PNG, bars in the ``colour`` of their basis."""
    figure = day_figure(rows, rule, colour)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=80)
    encoded = base64.b64encode(buffer.getvalue()).decode()
    return (f'<img alt="{html.escape(rule)}: findings per day, UTC" '
            f'src="data:image/png;base64,{encoded}"/>')


def day_figure(rows: pd.DataFrame, rule: str, colour: str) -> Figure:
    """The figure of :func:`_chart`: a bar a day, ticked on whole days only (matplotlib's
    own choice ticks a span of two days every 12 hours, under a chart of days)."""
    from matplotlib.figure import Figure  # a report's page only: imported when drawn
    from matplotlib.ticker import MaxNLocator

    days = rows["at"].dt.tz_convert("UTC").dt.floor("D").value_counts().sort_index()
    figure = Figure(figsize=(6, 1.8))
    axes = figure.subplots()
    axes.bar(days.index.tz_localize(None), days.to_numpy(), width=0.8, color=colour)
    axes.set_ylabel("findings")
    axes.set_title(f"{rule}: findings per day (UTC)", fontsize=10)
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    first, last = days.index[0].tz_localize(None), days.index[-1].tz_localize(None)
    ticks = pd.date_range(first, last, freq=f"{max(1, -(-((last - first).days + 1) // 8))}D")
    axes.set_xticks(ticks, [f"{day:%Y-%m-%d}" for day in ticks])
    figure.autofmt_xdate()
    figure.tight_layout()
    return figure
