"""An audit in plain text: what :meth:`AuditReport.to_text` prints, in a terminal or a log;
the risks counted by what they are, as every output words them; and how a finding writes
times."""

from __future__ import annotations

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from ..._shown._words import counted
from .._inputs._population import UNITS, rate_text
from .._rules._rules import RISKS

EMPTY = ("0 CALLS AUDITED: no call in the data (the period or campaigns asked for have "
         "none?); a rule of calls that 'passed' had nothing to check")
"""What a report of no call says first (:attr:`AuditReport.empty`), in every output."""
PERIOD_ASKED = "period asked"
"""How the summary and the evidence's cover head the period of calls asked for
(``since=``, ``until=``)."""


def period_said(period: str | None) -> list[str]:
    """The summary's line of the period asked for, with its dates in UTC (``period asked:
    since 30d (2026-10-26 21:40 UTC)``); none where every call given was audited. A
    printed audit of a week said only its counts, and the week was on the workbook's
    cover alone."""
    return [] if period is None else [f"{PERIOD_ASKED}: {period}"]


def totals_text(totals: pd.DataFrame) -> str:
    """Per rule: findings, of which law's, policy's and risks, among how many calls or
    leads, the rate of the violations (law's and policy's: the risks are counted apart,
    never in the rate), the calls it could not judge, and the verdict (``broken``, ``not
    judged``, ``risks`` where a rule found risks only, ``unchecked`` where it had nothing
    to check, ``passed``: :data:`.._unjudged.VERDICTS`).

    Examples:
        >>> totals = pd.DataFrame({"findings": [3, 2, 0], "law": [1, 0, 0],
        ...                        "policy": [2, 0, 0], "risk": [0, 2, 0],
        ...                        "audited": [1200, 40, 20],
        ...                        "unit": ["calls", "leads", "answered calls"],
        ...                        "rate": [0.0025, 0.0, 0.0], "not_judged": [0, 0, 3],
        ...                        "verdict": ["broken", "risks", "not judged"]},
        ...                       index=["calling_hours", "dnc_lead", "abandonment"])
        >>> print(totals_text(totals))  # doctest: +NORMALIZE_WHITESPACE
               findings law policy risk audited of rate not judged verdict
        calling_hours  3 1 2 0 1,200 calls 0.25% broken
        dnc_lead       2 0 0 2    40 leads 0.00% risks
        abandonment    0 0 0 0    20 answered calls 0.00% 3 not judged
    """
    return str(pd.DataFrame({
        "findings": totals["findings"], "law": totals["law"], "policy": totals["policy"],
        "risk": totals["risk"], "audited": totals["audited"].map("{:,}".format),
        "of": totals["unit"], "rate": totals["rate"].map(rate_text),
        "not judged": totals["not_judged"].map(lambda n: f"{n:,}" if n else ""),
        "verdict": totals["verdict"]}, index=totals.index).to_string())


def bases_text(counts: pd.Series, risks: pd.Series) -> str:
    """Findings by basis (:attr:`AuditReport.by_basis`) in words, risks apart from the
    violations and, where there are some, what they are (:func:`risk_counts`):
    ``12 findings: 8 of law, 2 of policy, 2 risks, in 2 leads that could be called wrongly``.

    Examples:
        >>> print(bases_text(pd.Series({"law": 8, "policy": 2, "risk": 2}),
        ...                  pd.Series({"calls": 0, "leads": 2})))
        12 findings: 8 of law, 2 of policy, 2 risks, in 2 leads that could be called wrongly
    """
    said = (f"{counted(int(counts.sum()), 'finding')}: {int(counts['law']):,} of law, "
            f"{int(counts['policy']):,} of policy, {counted(int(counts['risk']), 'risk')}")
    return said + (f", in {risks_text(risks)}" if counts["risk"] else "")


def risks_text(risks: pd.Series) -> str:
    """The risks of :func:`risk_counts` in words, each kind counted in its unit, a kind of
    none left out (none at all: the leads' count alone, ``0 leads that could be called
    wrongly``).

    Examples:
        >>> risks_text(pd.Series({"calls": 2836, "leads": 1}))
        '2,836 calls that may have broken a law and 1 lead that could be called wrongly'
    """
    shown = [unit for unit in RISKS if risks[unit]] or ["leads"]
    return " and ".join(f"{counted(int(risks[unit]), RISKS[unit][0])} {RISKS[unit][1]}"
                     for unit in shown)


def risk_counts(findings: pd.DataFrame) -> pd.Series:
    """The risks counted by what they are (:data:`._rules.RISKS`): ``calls`` that may have
    broken a law (the distinct calls of the risk findings of rules counted among calls)
    and ``leads`` that could be called wrongly (the distinct leads of those counted among
    leads), each in its own unit: a lead both listed and unscreened is one lead."""
    risks = findings[(findings["basis"] == "risk").to_numpy(bool)]
    of_leads = of_lead_rules(risks["rule"])
    return pd.Series({"calls": _distinct(risks.loc[~of_leads, "call_id"]),
                      "leads": _distinct(risks.loc[of_leads, "lead_id"])}, name="risks")


def of_lead_rules(rules: pd.Series) -> NDArray[np.bool_]:
    """Whether each finding's rule is counted among leads (:data:`._population.UNITS`),
    not among calls: what a risk of it is (:data:`._rules.RISKS`)."""
    leads = [rule for rule, unit in UNITS.items() if unit == "leads"]
    found: NDArray[np.bool_] = rules.isin(leads).to_numpy(bool)
    return found


def _distinct(ids: pd.Series) -> int:
    """How many things ``ids`` name: each distinct id once, each missing one apart."""
    return int(ids.nunique() + ids.isna().sum())


