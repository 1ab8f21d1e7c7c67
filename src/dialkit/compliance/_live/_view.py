"""The monitor in a notebook: its gauges and its findings, redrawn as events land.

Each part of the view is a widget whose value is replaced in place (the chart's SVG, the
tables' HTML), so a redraw never empties the output area and nothing flickers. Events may
land hundreds a second; the view redraws at most once every :data:`REDRAW_SECONDS`, and
once more after the last of a burst, so the picture is never older than that.
"""

from __future__ import annotations

import base64
import html
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

import pandas as pd
from matplotlib.figure import Figure

from ..._shown._pages import (
    NOT_MATH,
    TABLE_STYLE,
    hidden_beside_a_widget,
    html_table,
    svg_of,
)
from ..._shown._words import noun
from ..._utils._extras import needs
from .._report._plots import plot_abandonment
from ._gauges import Gauges

with needs("notebook"):
    import ipywidgets as widgets  # type: ignore[import-untyped]
    from IPython.display import display


class Watched(Protocol):
    """What the view reads of a :class:`~dialkit.compliance.Monitor` (named so, not
    imported: the monitor makes its views)."""

    @property
    def findings(self) -> pd.DataFrame: ...  # noqa: D102
    @property
    def provisional(self) -> pd.DataFrame: ...  # noqa: D102
    @property
    def calls(self) -> pd.DataFrame: ...  # noqa: D102
    def gauges(self) -> Gauges: ...  # noqa: D102
    def subscribe(self, listener: Callable[[Any], object]) -> None: ...  # noqa: D102
    def unsubscribe(self, listener: Callable[[Any], object]) -> None: ...  # noqa: D102

REDRAW_SECONDS = 1.0
"""The view's redraws at most this often, the last of a burst of events drawn too."""
FINDINGS_SHOWN = 10
"""The latest findings the view lists."""
STATIC_NOTE = "The live view needs a running notebook kernel; below, the view as drawn."
_BESIDE_A_WIDGET = hidden_beside_a_widget("dialkit-live")
_FINDING_COLUMNS = ["rule", "at", "phone", "campaign_id", "evidence"]
_FINDING_HEADS = ["rule", "at", "number", "campaign", "evidence"]
_WAITING_COLUMNS = ["to_number", "contacts_24h", "next_allowed_at", "hours_away", "rule"]
_WAITING_HEADS = ["number", "calls in 24 h", "next allowed", "hours away", "why"]
_PERIOD_HEADS = ["campaign", "law", "period (UTC)", "answered", "abandoned", "rate", "limit",
                 "abandoned calls to a breach"]
"""The tables' headers, in a reader's words (the gauges' columns are a program's)."""


class LiveView:
    """A monitor's gauges and latest findings as notebook widgets, kept up to date.

    Attributes:
        monitor: The :class:`~dialkit.compliance.Monitor` shown.
        status: What the monitor has seen, and when (``HTML``).
        chart: Each campaign's current abandonment period against its limit
            (``Image``, SVG: :func:`~dialkit.compliance.plot_abandonment`).
        periods: The same periods as a table (``HTML``).
        waiting: The numbers a call may not reach now, and when next (``HTML``).
        findings: The latest findings, provisional ones marked (``HTML``).
        drawn: How many times the view was drawn.
        widget: The whole, a ``VBox``.
    """

    def __init__(self, monitor: Watched, *, every: float = REDRAW_SECONDS,
                 rows: int = FINDINGS_SHOWN) -> None:
        self.monitor, self._every, self._rows = monitor, every, rows
        self.status, self.periods = widgets.HTML(), widgets.HTML()
        self.waiting, self.findings = widgets.HTML(), widgets.HTML()
        self.chart = widgets.Image(format="svg+xml", layout=widgets.Layout(
            width="100%", max_width="768px", height="auto"))
        self.widget = widgets.VBox([widgets.HTML(f"<style>{TABLE_STYLE}</style>"), self.status,
                                    self.chart, self.periods, self.waiting, self.findings],
                                   layout=widgets.Layout(width="100%"))
        self.widget.add_class(NOT_MATH)
        self.drawn = 0
        self._drawn_at = 0.0
        self._later: threading.Timer | None = None
        self._static: Any = None
        self._lock = threading.Lock()
        self._closed = False
        self.redraw()
        monitor.subscribe(self._heard)

    def _ipython_display_(self) -> None:
        """Shown as a cell's value: the widget, then the view as HTML for wherever no
        kernel draws the widget (a page of ``nbconvert --execute``, a notebook viewer),
        which hides itself where the widget is drawn and is redrawn with it."""
        display({**self.widget._repr_mimebundle_(), "text/plain": STATIC_NOTE},  # type: ignore[no-untyped-call]
                raw=True)
        self._static = display(self._static_bundle(), raw=True,  # type: ignore[no-untyped-call]
                               display_id=True)

    def _static_bundle(self) -> dict[str, str]:
        return {"text/html": f"<style>{_BESIDE_A_WIDGET}{TABLE_STYLE}</style>"
                             f"{self.static_html()}"}

    def static_html(self) -> str:
        """What the view shows now, as one HTML fragment: the chart as an inline SVG
        image, at most its natural width and its box's."""
        data = base64.b64encode(bytes(self.chart.value)).decode()
        return (f'<div class="dialkit-live {NOT_MATH}"><p>{self.status.value}</p>'
                f'<img src="data:image/svg+xml;base64,{data}" alt="Abandonment in each '
                "campaign's current period against its limit\" style=\"width: 100%; "
                f'max-width: 768px; height: auto">{self.periods.value}{self.waiting.value}'
                f"{self.findings.value}</div>")

    def close(self) -> None:
        """Stop following the monitor (a redraw still due is dropped) and close the
        widgets: a view no longer shown costs the monitor nothing. Closing it again
        does nothing."""
        if self._closed:
            return
        self._closed = True
        self.monitor.unsubscribe(self._heard)
        with self._lock:
            if self._later is not None:
                self._later.cancel()
            for part in self.widget.children:
                part.close()
            self.widget.close()

    def _heard(self, changes: object) -> None:
        """An observation landed: redraw now, or once the interval has passed."""
        wait = self._drawn_at + self._every - time.monotonic()
        if wait <= 0:
            self.redraw()
        elif self._later is None or not self._later.is_alive():
            self._later = threading.Timer(wait, self.redraw)
            self._later.daemon = True
            self._later.start()

    def redraw(self) -> None:
        """Draw the monitor as it is now."""
        with self._lock:
            gauges, findings = self.monitor.gauges(), self.monitor.findings
            provisional = set(self.monitor.provisional["call_id"])
            self.status.value = _status(gauges, findings, len(provisional),
                                        len(self.monitor.calls)) + _unjudged(gauges)
            figure = Figure(figsize=(8, 0.45 * max(len(gauges.abandonment), 2) + 1.2),
                            layout="constrained")
            plot_abandonment(gauges.abandonment, ax=figure.add_subplot())
            self.chart.value = svg_of(figure)
            self.periods.value = _periods_table(gauges.abandonment)
            self.waiting.value = _waiting_table(gauges.numbers, self._rows)
            self.findings.value = _findings_table(findings, provisional, self._rows)
            self.drawn += 1
            self._drawn_at = time.monotonic()
            if self._static is not None:
                self._static.update(self._static_bundle(), raw=True)


def _status(gauges: Gauges, findings: pd.DataFrame, provisional: int, calls: int) -> str:
    when = ("no event yet" if gauges.as_of is None
            else f"as of {gauges.as_of:%Y-%m-%d %H:%M:%S} UTC")
    told = f", {provisional:,} of them provisional" if provisional else ""
    return (f"<b>Live compliance</b>: {when}; {calls:,} {noun(calls, 'call')}, "
            f"{len(findings):,} {noun(len(findings), 'finding')}{told}.")


def _unjudged(gauges: Gauges) -> str:
    """The rules not judged for some calls, after the status: a gauge or a finding of such a
    rule reads only the calls it could judge."""
    calls = gauges.unjudged.groupby("rule", sort=False)["calls"].sum()
    if not len(calls):
        return ""
    each = ", ".join(f"{html.escape(str(rule))} ({n:,} {noun(int(n), 'call')})"
                     for rule, n in calls.items())
    return (f"<br><b>Not judged</b> for calls not read (a country whose law dialkit holds no "
            f"row of, a word not understood, a fact missing): {each}.")


def _periods_table(periods: pd.DataFrame) -> str:
    if not len(periods):
        return "<p>No campaign has a call answered by a live person in a period now.</p>"
    shown = periods.assign(
        rate=(periods["rate"] * 100).round(2).map("{:.2f}%".format),
        limit=(periods["limit"] * 100).map("{:g}%".format),
        period=periods["period_start"].dt.strftime("%Y-%m-%d %H:%M") + " to "
        + periods["period_end"].dt.strftime("%Y-%m-%d %H:%M"))
    return html_table(shown[["campaign_id", "jurisdiction", "period", "answered", "abandoned",
                             "rate", "limit", "to_breach"]].set_axis(_PERIOD_HEADS, axis=1))


def _waiting_table(numbers: pd.DataFrame, rows: int) -> str:
    waiting = numbers[~numbers["allowed"].astype(bool)].sort_values(
        "hours_away", ascending=False).head(rows)
    if not len(waiting):
        return "<p>Every number called in the last 24 hours may be called now.</p>"
    shown = waiting.assign(next_allowed_at=waiting["next_allowed_at"].dt.strftime(
        "%Y-%m-%d %H:%M UTC").fillna("none in 7 days"))
    return (f"<p>Numbers a call may not reach now ({len(waiting):,} shown, the longest wait "
            f"first):</p>{html_table(shown[_WAITING_COLUMNS].set_axis(_WAITING_HEADS, axis=1))}")


def _findings_table(findings: pd.DataFrame, provisional: set[Any], rows: int) -> str:
    if not len(findings):
        return "<p>No finding.</p>"
    latest = findings.sort_values("at", kind="stable", na_position="first").tail(rows)
    marked = latest["call_id"].isin(provisional).fillna(False).to_numpy(dtype=bool)
    shown = latest[_FINDING_COLUMNS].assign(
        at=latest["at"].dt.strftime("%Y-%m-%d %H:%M UTC"),
        rule=[f"{rule} (provisional)" if mark else rule
              for rule, mark in zip(latest["rule"], marked, strict=True)])
    return (f"<p>The latest findings ({len(latest):,} of {len(findings):,}):</p>"
            f"{html_table(shown.iloc[::-1].set_axis(_FINDING_HEADS, axis=1))}")
