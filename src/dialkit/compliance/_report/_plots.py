"""The audit as pictures: one bar per rule, findings against what was audited (the
violations in the law's and the policy's colours, the risks in another, counted in the
title by what they are: calls, leads); and findings by
the jurisdiction whose rule decided them.

Like the plots of :mod:`dialkit.analytics`, each takes what it draws and an
optional ``ax``, returns the Axes, and changes no global state; a text that comes from
outside (a policy's name) is drawn as written, never as mathematics.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

import pandas as pd

from ..._places._subdivisions import subdivision_name
from ..._shown._pages import as_written, short_id
from ..._shown._words import counted
from ..._utils._base_error import InputError
from .._rules import _jurisdictions as table
from .._rules._rules import BASES
from ._evidence import COLOURS
from ._text import risk_counts, risks_text

if TYPE_CHECKING:
    from matplotlib.axes import Axes  # matplotlib is imported when a plot is drawn

    from ._audit_report import AuditReport

_FOUND, _POLICY, _PASSED = COLOURS["law"], COLOURS["policy"], "#4f6228"
"""The law's bars, the policy's, and the words of a rule that passed."""
_LEGEND = {"law": "violation of law", "policy": "violation of the account's policy",
           "risk": "risk: a call that may have broken a law, a lead that could be called "
                   "wrongly"}
_DECIDERS = {"number": ("#c0504d", "the number's state or country"),
             "address": ("#4bacc6", "the lead's address state"),
             "strictest": ("#8064a2", "no state known: the strictest row"),
             "list": ("#9bbb59", "a Do-Not-Call list's law"),
             "risk": (COLOURS["risk"], "a risk, whoever decided: no law known broken")}
"""Each ``decided_by`` of a finding of law or policy, and the risks apart (a state's list
whose scrub was not given: the red of a breach would tell of one): its bar's
colour and its legend's words."""
MOST_BARS = 24
"""Bars of :func:`plot_by_state` at most, by default: more would not be read."""


def plot_summary(report: AuditReport, *, ax: Axes | None = None) -> Axes:
    """Findings per rule that ran: the violations, the law's and the account's policy's
    apart, and the risks (a call that may have broken a law, a lead that could be called
    wrongly, which no law forbids holding) in a colour of their own, stacked in one bar
    per rule; each rule labelled with its count among the calls or leads audited and its
    rate; a rule that found nothing is marked passed, one that could not read some calls
    not judged for them (never passed). The title counts violations and,
    on a line of their own, the risks, each in what it is (calls, leads).

    Args:
        report: What :func:`~dialkit.compliance.audit` returned.
        ax: The matplotlib Axes to draw on; a new figure's (``pyplot.subplots``, so it
            shows under a notebook cell) when ``None``.

    Returns:
        The Axes drawn on.

    Examples:
        >>> from dialkit import compliance
        >>> client = dialkit.Client.sandbox()
        >>> report = compliance.audit(**compliance.load(client))
        >>> ax = compliance.plot_summary(report)
        >>> len(ax.patches) == 3 * len(report.ran)  # the law's, the policy's, the risks
        True
        >>> print(ax.get_title())
        Compliance audit: ... violations (... of law, 0 of policy); ... of 13 rules passed
        risks: ... calls that may have broken a law
        US federal and state law (TSR, TCPA, state statutes)
        >>> client.close()
    """
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(8, 0.45 * max(len(report.ran), 2) + 1))
    totals = report.totals.iloc[::-1]  # the first rule at the top
    left = pd.Series(0, index=totals.index)
    for basis in BASES:
        ax.barh(totals.index, totals[basis], left=left, color=COLOURS[basis],
                label=_LEGEND[basis])
        left = left + totals[basis]
    for y, (_, row) in enumerate(totals.iterrows()):
        ax.annotate(_label(row), (row["findings"], y), xytext=(4, 0),
                    textcoords="offset points", va="center", fontsize=8,
                    color=_PASSED if row["passed"] else "black")
    ax.set_xlim(0, max(float(totals["findings"].max()), 1.0) * 1.6)
    ax.set_xlabel("findings")
    law, policy, risk = (int(totals[basis].sum()) for basis in BASES)
    risks = f"risks: {risks_text(risk_counts(report.findings))}\n" if risk else ""
    unread = int((totals["not_judged"] > 0).sum())
    as_written([ax.set_title(
        f"Compliance audit: {law + policy:,} violations ({law:,} of law, {policy:,} of "
        f"policy); {int(totals['passed'].sum())} of {len(totals)} rules passed"
        + (f", {unread:,} not judged for some calls" if unread else "") + f"\n{risks}"
        + textwrap.fill(report.rules.name, 90), fontsize=10)])
    if law or policy or risk:
        ax.legend(loc="upper left", bbox_to_anchor=(0, -0.1), fontsize=8, frameon=False)
    ax.spines[["top", "right"]].set_visible(False)
    return ax


def _label(row: pd.Series) -> str:
    """A rule's bar's words: passed, or its findings among what was audited, the rate,
    and how many of each basis where it has more than one (risks named always); the rate
    is of the violations (:func:`.._inputs._population.violation_rate`), and said so
    where risks are counted beside them (2 of 3 calls, 1 a risk: violations 33.33%)."""
    if row["passed"]:
        return f"passed: 0 of {int(row['audited']):,} {row['unit']}"
    unread = (f"not judged for {counted(int(row['not_judged']), 'call')}" if row["not_judged"]
              else "")
    if not row["findings"] and unread:
        return f"{unread}: 0 found of {int(row['audited']):,} {row['unit']}"
    kinds = [f"{int(row[basis]):,} {basis}" for basis in BASES if row[basis]]
    split = f"; {', '.join(kinds)}" if len(kinds) > 1 or row["risk"] else ""
    rate = f"{'violations ' if row['risk'] else ''}{row['rate']:.2%}"
    return (f"{int(row['findings']):,} of {int(row['audited']):,} {row['unit']} "
            f"({rate}{split})" + (f"; {unread}" if unread else ""))


def plot_by_state(report: AuditReport, *, ax: Axes | None = None,
                  top: int = MOST_BARS) -> Axes:
    """Findings by the jurisdiction whose rule decided them (``report.findings``'
    ``jurisdiction`` column): a horizontal bar per state or country, by name ("Florida
    (US-FL)"), the most findings at the top, each bar split by whose row decided (the
    number's, the lead's address state's; the risks apart, in their own colour) and
    labelled with its count. Past ``top`` bars,
    the jurisdictions with fewest findings are summed as one "other" bar. Findings no row
    decided (DNC, abandonment, caller id; under a flat ``POLICY``, all) are not drawn:
    the title counts them.

    Args:
        report: What :func:`~dialkit.compliance.audit` returned.
        ax: The matplotlib Axes to draw on; a new figure's when ``None``.
        top: Bars at most, the "other" bar included (at least 2).

    Returns:
        The Axes drawn on.

    Examples:
        >>> from dialkit import compliance
        >>> client = dialkit.Client.sandbox()
        >>> report = compliance.audit(**compliance.load(client))
        >>> print(compliance.plot_by_state(report).get_title())
        Findings by the jurisdiction whose rule decided: ... in ... jurisdictions...
        >>> client.close()
    """
    if isinstance(top, bool) or not isinstance(top, int) or top < 2:
        raise InputError(f"top={top!r}: pass the number of bars to draw at most, 2 or more "
                         f"(the last sums the rest as 'other'), such as {MOST_BARS}")
    counts, places = _by_state(report.findings, top)
    from matplotlib.ticker import MaxNLocator

    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(9, 0.3 * max(len(counts), 3) + 1.4), layout="constrained")
    left = pd.Series(0, index=counts.index)
    for decider in counts.columns:
        colour, words = _DECIDERS[decider]
        ax.barh(counts.index, counts[decider], left=left, color=colour, label=words)
        left += counts[decider]
    for y, total in enumerate(left):
        ax.annotate(f"{int(total):,}", (total, y), xytext=(3, 0), textcoords="offset points",
                    va="center", fontsize=8)
    if not len(counts):  # no bar: no numbered axis pretending to be one
        ax.set_yticks([])
    ax.set_xlim(0, max(float(left.max()) if len(left) else 0.0, 1.0) * 1.12)
    ax.set_xlabel("findings")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.tick_params(axis="y", labelsize=8)
    if len(counts.columns) > 1 or "risk" in counts.columns:  # a risk is never read as red
        ax.legend(title="decided by", fontsize=8, title_fontsize=8, loc="upper left",
                  bbox_to_anchor=(1.01, 1), frameon=False)
    ax.set_title(_by_state_title(len(report.findings), int(left.sum()), places), fontsize=10)
    ax.spines[["top", "right"]].set_visible(False)
    return ax


def _by_state(findings: pd.DataFrame, top: int) -> tuple[pd.DataFrame, int]:
    """Findings per jurisdiction (rows, by name, fewest first: ``barh`` draws upwards) and
    whose row decided (columns), the rows past ``top - 1`` summed as one "other" row; and
    how many jurisdictions there are."""
    decided = findings[findings["jurisdiction"].notna()]
    names = {jid: _state_name(jid) for jid in decided["jurisdiction"].unique()}
    label = decided["jurisdiction"].map(names).where(
        decided["decided_by"] != "strictest",
        decided["jurisdiction"] + ", no known state: strictest row")
    by = decided["decided_by"].where(decided["basis"] != "risk", "risk")
    counts = decided.groupby([label, by]).size().unstack(fill_value=0)
    counts = counts[[d for d in _DECIDERS if d in counts.columns]]
    counts = counts.loc[counts.sum(axis=1).sort_values(ascending=False, kind="stable").index]
    places = len(counts)
    if places > top:
        rest = counts.iloc[top - 1:]
        counts = pd.concat([counts.iloc[:top - 1], rest.sum().to_frame(
            f"other ({len(rest)} jurisdictions)").T])
    return counts.iloc[::-1], places


def _state_name(jid: str) -> str:
    """``Florida (US-FL)``; a federal or country row by its name alone; a state's own
    Do-Not-Call list that the law of the place has no row of (``US-CO``, its risk where
    its scrub was not given) by its state's name."""
    known = {row.id: row.name for row in table.all()}
    name = known.get(jid) or subdivision_name(jid)
    return f"{name} ({jid})" if "-" in jid else name


def _by_state_title(findings: int, shown: int, places: int) -> str:
    """What the chart shows and what it leaves out, counted."""
    head = (f"Findings by the jurisdiction whose rule decided: {shown:,} in {places:,} "
            f"jurisdiction{'s' if places != 1 else ''}" if shown else
            "No finding was decided by a jurisdiction's rule")
    others = findings - shown
    left_out = ("1 other finding, which no jurisdiction's row decided, is" if others == 1
                else f"{others:,} other findings, which no jurisdiction's row decided, are")
    return head + (f"\n{left_out} not drawn" if others else "")


_HOURS_RULES = ("calling_hours", "unknown_jurisdiction", "unknown_timezone")
"""The rules of :func:`upcoming` that say a scheduled call is due at a forbidden moment."""


def plot_upcoming(scheduled: pd.DataFrame, found: pd.DataFrame, *,
                  ax: Axes | None = None) -> Axes:
    """The scheduled calls by hour of the recipient's day: those due at a moment the law
    allows, those the law forbids and those only the account's policy forbids, stacked.

    Args:
        scheduled: What :func:`~dialkit.compliance.scheduled` returned.
        found: What :func:`~dialkit.compliance.upcoming` returned for the same calls.
        ax: The matplotlib Axes to draw on; a new figure's when ``None``.

    Returns:
        The Axes drawn on.

    Examples:
        >>> from dialkit import compliance
        >>> with dialkit.Client.sandbox() as client:
        ...     latest = client.frames.calls()["created_at"].max()  # the world's "now"
        ...     planned = compliance.scheduled(client, horizon="14D", as_of=latest)
        ...     found = compliance.upcoming(client, horizon="14D", as_of=latest)
        >>> ax = compliance.plot_upcoming(planned, found)
        >>> [text.get_text() for text in ax.get_legend().get_texts()]
        ['allowed', 'forbidden by law', "forbidden by the account's policy"]
    """
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(9, 3.6))
    hours = found[found["rule"].isin(_HOURS_RULES)]
    key = scheduled["lead_id"].astype(str) + " " + scheduled["at"].astype(str)
    basis = (hours["lead_id"].astype(str) + " " + hours["at"].astype(str)).to_frame("key").assign(
        basis=hours["basis"].to_numpy()).drop_duplicates("key").set_index("key")["basis"]
    judged = key.map(basis).fillna("allowed")
    hour = scheduled["local_time"].dt.hour
    counts = pd.crosstab(hour, judged).reindex(index=range(24), columns=[
        "allowed", "law", "policy"], fill_value=0)
    bottom = None
    for column, color, label in (("allowed", _PASSED, "allowed"),
                                 ("law", _FOUND, "forbidden by law"),
                                 ("policy", _POLICY, "forbidden by the account's policy")):
        ax.bar(counts.index, counts[column], bottom=bottom, color=color, label=label)
        bottom = counts[column] if bottom is None else bottom + counts[column]
    ax.set_xticks(range(0, 24, 2), [f"{h:02d}:00" for h in range(0, 24, 2)], fontsize=8)
    ax.set_xlabel("hour of the recipient's day (local time)")
    ax.set_ylabel("scheduled calls")
    forbidden = int(counts[["law", "policy"]].to_numpy().sum())
    ax.set_title(f"Scheduled calls: {len(scheduled):,}, of which {forbidden:,} due at a "
                 "forbidden moment", fontsize=10)
    ax.legend(loc="upper left", fontsize=8)
    ax.spines[["top", "right"]].set_visible(False)
    return ax


_NEAR = 2
"""Abandoned calls to a breach at most, for a period's bar to be drawn as near it."""
_SHORT = 16
"""A campaign id's characters at most on a bar's label (a longer one: its start)."""


def _short(campaign: str) -> str:
    return campaign if len(campaign) <= _SHORT else f"{short_id(campaign)}…"


def plot_abandonment(periods: pd.DataFrame, *, ax: Axes | None = None) -> Axes:
    """Each campaign's current abandonment period against its limit: one bar per campaign
    and law's row, its rate, the limit marked on it, in the law's colour where the rate
    is over, amber where a breach is :data:`_NEAR`, and the calls to a breach written
    beside.

    Args:
        periods: ``Monitor.gauges().abandonment`` (``campaign_id``, ``jurisdiction``,
            ``answered``, ``abandoned``, ``rate``, ``limit``, ``to_breach``).
        ax: The matplotlib Axes to draw on; a new figure's when ``None``.

    Returns:
        The Axes drawn on.

    Examples:
        >>> import pandas as pd
        >>> from dialkit import compliance
        >>> periods = pd.DataFrame({"campaign_id": ["cmp_a", "cmp_b"],
        ...     "jurisdiction": ["US", "GB"], "answered": [31, 200], "abandoned": [1, 2],
        ...     "rate": [1 / 31, 0.01], "limit": [0.03, 0.03], "to_breach": [0, 4]})
        >>> ax = compliance.plot_abandonment(periods)
        >>> [label.get_text() for label in ax.get_yticklabels()]
        ['cmp_b (GB)', 'cmp_a (US)']

    A campaign id longer than :data:`_SHORT` characters is shown by its start
    (``cmp_09f971c2…``, "cmp_" and the first 8 digits of its UUID), as the analytics
    explorer labels campaigns it has no name of.
    """
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(8, 0.45 * max(len(periods), 2) + 1))
    shown = periods.iloc[::-1]  # the first campaign at the top
    labels = [f"{_short(str(campaign))} ({place})" for campaign, place in zip(
        shown["campaign_id"], shown["jurisdiction"], strict=True)]
    colours = [_FOUND if left == 0 else "#f79646" if left <= _NEAR else _PASSED
               for left in shown["to_breach"]]
    rates = shown["rate"].to_numpy(float) * 100
    ax.barh(labels, rates, color=colours)
    for y, (limit, left, answered, abandoned) in enumerate(zip(
            shown["limit"], shown["to_breach"], shown["answered"], shown["abandoned"],
            strict=True)):
        ax.plot([limit * 100] * 2, [y - 0.4, y + 0.4], color="black", linewidth=1.5)
        said = "over the limit" if left == 0 else f"{left:,} more to a breach"
        ax.annotate(f"{abandoned:,} of {answered:,} answered; {said}",
                    (max(rates[y], limit * 100), y), xytext=(6, 0),
                    textcoords="offset points", va="center", fontsize=8)
    widest = max([*(rates if len(rates) else [0]), *(shown["limit"] * 100)], default=3)
    ax.set_xlim(0, widest * 2.2 or 1)
    ax.set_xlabel("abandoned, % of calls answered by a live person (the line: the limit)")
    over = int((shown["to_breach"] == 0).sum())
    ax.set_title(f"Abandonment in each campaign's current period: {over} of {len(shown)} "
                 "over the limit", fontsize=10)
    as_written(ax.get_yticklabels())
    ax.spines[["top", "right"]].set_visible(False)
    return ax
