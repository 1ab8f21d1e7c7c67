"""``explore``: the campaign's picture in a notebook, with widgets to narrow it.

The plots are drawn on figures of their own (``matplotlib.figure.Figure``, no
pyplot) and shown as PNG images, the funnel as an HTML table, so a redraw
replaces exactly what it shows and leaves nothing behind in pyplot.
"""

from __future__ import annotations

import base64
import datetime as dt
import io
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from .._extras import needs
from ..frames._pages import campaign_label, campaign_names
from ..frames._tabular import as_pandas
from ._funnel import STAGES, funnel
from ._inputs import AnalyticsInputError, prepared
from ._load import load
from ._mix import disposition_mix
from ._plots import plot_answer_heatmap, plot_attempts, plot_disposition_mix, plot_funnel
from ._rates import answer_rates, attempts_to_contact

with needs("notebook"):
    import ipywidgets as widgets  # type: ignore[import-untyped]

if TYPE_CHECKING:
    from ..client import Client

NO_NOTEBOOK = ("dialkit.analytics.explore shows widgets, which need a running notebook "
               "kernel (Jupyter, JupyterLab, VS Code); here, call the functions it draws "
               "with: funnel, answer_rates, attempts_to_contact, disposition_mix and the "
               "plot_* functions.")
DIRECTIONS = ("outbound", "inbound", "both")
NEEDED = ("leads", "calls")
"""The frames every view of the explorer reads; callbacks and appointments are optional."""
PLOTS = ("funnel", "answer_rates", "disposition_mix", "attempts")
_SIZES = {"funnel": (7, 3.4), "answer_rates": (13, 4.2), "disposition_mix": (9, 3.8),
          "attempts": (7, 3.4)}
_ALT = {"funnel": "The funnel: leads at each stage", "answer_rates":
        "Answer rates by local hour and weekday", "disposition_mix":
        "Dispositions per campaign", "attempts": "Attempts until a lead was reached"}


def explore(client_or_frames: Client | Mapping[str, pd.DataFrame]) -> Explorer | None:
    """An explorer of an account's funnel, answer rates, dispositions and attempts:
    campaigns, a date range and a direction to pick, and the plots and the funnel
    table redrawn on every change.

    Args:
        client_or_frames: A :class:`dialkit.Client` (its frames are loaded with
            :func:`load`, and its campaigns for their names) or the frames themselves:
            ``leads`` and ``calls``, and optionally ``callbacks``, ``appointments`` and
            ``campaigns`` (``client.frames.campaigns()``: campaigns shown by name and id).

    Returns:
        The :class:`Explorer` (shown when it is a cell's value); outside a notebook,
        ``None``, after printing what to call instead.

    Example:
        >>> import dialkit.analytics
        >>> client = dialkit.Client.sandbox()
        >>> dialkit.analytics.explore(client)  # outside a notebook: it says what to call
        dialkit.analytics.explore shows widgets, which need a running notebook kernel ...
        >>> client.close()
    """
    if not _in_notebook():
        print(NO_NOTEBOOK)
        return None
    frames = (client_or_frames if isinstance(client_or_frames, Mapping)
              else {**load(client_or_frames), "campaigns": client_or_frames.frames.campaigns()})
    return Explorer(frames)


def _in_notebook() -> bool:
    """Whether an IPython kernel, which can show widgets, runs this code."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


class Explorer:
    """The explorer's widgets and what they show.

    Attributes:
        campaigns: Which campaigns (a ``SelectMultiple`` of ids, each labelled by name
            and id when the frames hold ``campaigns``; all at first).
        start, end: The calls' date range, inclusive, in UTC (``DatePicker``).
        direction: The calls of the disposition mix: outbound, inbound or both; the
            funnel, answer rates and attempts are of outbound calls by definition.
        table: The funnel table (``HTML``).
        images: One ``Image`` (PNG) per plot, by name: ``funnel``,
            ``answer_rates``, ``disposition_mix``, ``attempts``.
        widget: The whole, a ``VBox``.
    """

    def __init__(self, frames: Mapping[str, pd.DataFrame]) -> None:
        self.frames = _given(frames)
        calls = prepared(self.frames["calls"], ("campaign_id", "created_at"), "calls")
        self.frames["calls"] = self.frames["calls"].assign(created_at=calls["created_at"])
        leads = prepared(self.frames["leads"], ("campaign_id",), "leads")
        ids = sorted(set(leads["campaign_id"].dropna()) | set(calls["campaign_id"].dropna()))
        self.names = campaign_names(self.frames.get("campaigns"))
        first, last = _days(calls["created_at"])
        self.campaigns = widgets.SelectMultiple(
            options=[(str(campaign_label(c, self.names)), c) for c in ids], value=tuple(ids),
            rows=min(8, max(len(ids), 1)), description="Campaigns",
            layout=widgets.Layout(width="32em"))
        self.start = widgets.DatePicker(value=first, description="From")
        self.end = widgets.DatePicker(value=last, description="To")
        self.direction = widgets.ToggleButtons(options=list(DIRECTIONS), value="outbound",
                                               description="Direction")
        self.note = widgets.HTML()
        self.table = widgets.HTML()
        self.images = {name: widgets.Image(format="png") for name in PLOTS}
        self.widget = widgets.VBox([
            widgets.HBox([self.campaigns, widgets.VBox([self.start, self.end,
                                                        self.direction])]),
            self.note, self.images["funnel"], self.table, self.images["answer_rates"],
            widgets.HBox([self.images["disposition_mix"], self.images["attempts"]])])
        for control in (self.campaigns, self.start, self.end, self.direction):
            control.observe(self._changed, names="value")
        self.refresh()

    def selected(self) -> dict[str, pd.DataFrame]:
        """The frames narrowed to the chosen campaigns and dates (calls by ``created_at``;
        leads and callbacks by campaign; appointments, which have no campaign, whole)."""
        chosen = set(self.campaigns.value)
        out = {name: frame[frame["campaign_id"].isin(chosen).fillna(False)]
               if "campaign_id" in frame else frame for name, frame in self.frames.items()}
        when = out["calls"]["created_at"]
        if self.start.value is not None:
            out["calls"] = out["calls"][when >= pd.Timestamp(self.start.value, tz="UTC")]
            when = out["calls"]["created_at"]
        if self.end.value is not None:
            end = pd.Timestamp(self.end.value, tz="UTC") + pd.Timedelta(days=1)
            out["calls"] = out["calls"][when < end]
        return out

    def refresh(self) -> None:
        """Recompute the tables and redraw every plot for the widgets' values."""
        frames = self.selected()
        calls, leads = frames["calls"], frames["leads"]
        direction = self.direction.value
        table = funnel(leads, calls, callbacks=frames.get("callbacks"),
                       appointments=frames.get("appointments"))
        self.table.value = _funnel_html(table, self.names)
        drawn: dict[str, tuple[Callable[..., Axes], pd.DataFrame]] = {
            "funnel": (plot_funnel, table),
            "answer_rates": (plot_answer_heatmap, answer_rates(calls)),
            "disposition_mix": (plot_disposition_mix, disposition_mix(
                calls, direction=None if direction == "both" else direction)),
            "attempts": (plot_attempts, attempts_to_contact(leads, calls))}
        for name, (plot, data) in drawn.items():
            data.attrs["campaign_names"] = self.names  # titles name a campaign so
            self.images[name].value = _png(plot, data, _SIZES[name])
        self.note.value = (f"<b>{len(self.campaigns.value)}</b> campaigns, <b>{len(calls):,}"
                           f"</b> calls, <b>{len(leads):,}</b> leads. Funnel, answer rates "
                           "and attempts count outbound calls only.")

    def _changed(self, change: Mapping[str, Any]) -> None:
        self.refresh()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The widget, and beside it the view as HTML (:meth:`static_html`), which a page
        without a running kernel shows instead: an exported report, a notebook viewer."""
        bundle = self.widget._repr_mimebundle_(**kwargs)
        return {**bundle, "text/html": self.static_html()} if bundle else bundle

    def static_html(self) -> str:
        """What the explorer shows now, with no controls: the note, the funnel table and
        the plots as inline PNG images."""
        def image(name: str) -> str:
            data = base64.b64encode(bytes(self.images[name].value)).decode()
            return f'<img src="data:image/png;base64,{data}" alt="{_ALT[name]}">'

        return (f'<div class="dialkit-explorer"><p>{self.note.value}</p>{image("funnel")}'
                f'{self.table.value}{image("answer_rates")}'
                f'<div>{image("disposition_mix")}{image("attempts")}</div></div>')


def _given(frames: Mapping[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """The frames given (a ``None`` counts as not given), checked for leads and calls
    before anything reads them, so a mapping without them is told what to pass rather
    than failing on a missing key deep in a redraw."""
    if not isinstance(frames, Mapping):
        raise TypeError(f"Explorer takes the frames, a mapping such as analytics.load(client), "
                        f"not {type(frames).__name__}; for a Client call "
                        f"analytics.explore(client)")
    given = {name: as_pandas(frame, name) for name, frame in frames.items()
             if frame is not None}
    missing = [name for name in NEEDED if name not in given]
    if missing:
        raise AnalyticsInputError(
            f"the frames have no {' and no '.join(missing)} (given: "
            f"{', '.join(map(str, given)) or 'none'}): pass {{'leads': client.frames.leads(), "
            f"'calls': client.frames.calls()}}, optionally with 'callbacks' and "
            f"'appointments', or analytics.load(client)")
    return given


def _days(created: pd.Series) -> tuple[dt.date | None, dt.date | None]:
    """The first and last UTC day of the calls."""
    if created.notna().any():
        return created.min().date(), created.max().date()
    return None, None


def _png(plot: Callable[..., Axes], data: pd.DataFrame, size: tuple[float, float]) -> bytes:
    """``plot(data)`` on a figure of its own, as PNG bytes."""
    figure = Figure(figsize=size, layout="constrained")
    plot(data, ax=figure.add_subplot())
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=80)
    return buffer.getvalue()


def _funnel_html(table: pd.DataFrame, names: Mapping[str, str]) -> str:
    """The funnel as one row per campaign (by name and id), a column per stage: leads,
    and % of the leads."""
    rows = {str(campaign_label(campaign, names)): _cells(part) for campaign, part in
            table.groupby("campaign_id", sort=True)}
    rows["all campaigns"] = _cells(table.groupby("stage", observed=True, as_index=False)[
        "leads"].sum())
    shown = pd.DataFrame.from_dict(rows, orient="index", columns=list(STAGES))
    html: str = shown.to_html(escape=True, border=0, classes="dialkit-funnel")
    return html


def _cells(part: pd.DataFrame) -> list[str]:
    """One campaign's (or the total's) stages: the count, and its share of the leads."""
    counts = part.set_index("stage")["leads"].reindex(list(STAGES), fill_value=0)
    top = int(counts.iloc[0])
    return [f"{count:,}" if stage == "leads" else
            f"{count:,} ({count / top:.0%})" if top else f"{count:,} (–)"
            for stage, count in counts.items()]
