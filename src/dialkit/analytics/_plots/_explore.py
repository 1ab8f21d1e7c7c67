"""``explore``: the campaign's picture in a notebook, with widgets to narrow it.

The plots are drawn on figures of their own (``matplotlib.figure.Figure``, no
pyplot) and shown as SVG images, which stay sharp at any width and any screen's
pixel density, each at most its natural size and at most its box's width (so
nothing overflows a narrow output area, and nothing is blown up past its size);
the funnel as an HTML table.

Each control recomputes only what it changes. The tables are computed once per date
range for every campaign (each is per campaign: the funnel, the disposition mix and
the attempts are rows per campaign; the answer rates are cell counts per campaign,
summed over the chosen ones as ``answer_rates`` sums its parts), so choosing campaigns
only filters them and redraws; the direction recomputes the disposition mix alone.
``Explorer.computed`` and ``Explorer.drawn`` count what was done, view by view.
"""

from __future__ import annotations

import base64
import datetime as dt
import html
from collections import Counter
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from ..._shown._pages import (
    NOT_MATH,
    campaign_names,
    hidden_beside_a_widget,
    short_id,
    svg_of,
)
from ..._shown._words import noun
from ..._utils._base_error import AnalyticsInputError
from ..._utils._extras import needs
from ...frames import as_pandas
from .._funnel import STAGES, funnel
from .._inputs._inputs import prepared
from .._inputs._load import load
from .._mix import disposition_mix
from .._rates import attempts_to_contact, cell_counts, summed
from ._plots import plot_answer_heatmap, plot_attempts, plot_disposition_mix, plot_funnel

with needs("notebook"):
    import ipywidgets as widgets  # type: ignore[import-untyped]
    from IPython.display import display

if TYPE_CHECKING:
    from ...client import Client

NO_NOTEBOOK = ("dialkit.analytics.explore shows widgets, which need a running notebook "
               "kernel (Jupyter, JupyterLab, VS Code); here, call the functions it draws "
               "with: funnel, answer_rates, attempts_to_contact, disposition_mix and the "
               "plot_* functions.")
DIRECTIONS = ("outbound", "inbound", "both")
NEEDED = ("leads", "calls")
"""The frames every view of the explorer reads; callbacks and appointments are optional."""
PLOTS = ("funnel", "answer_rates", "disposition_mix", "attempts")
RATE_CELLS = ["local_hour", "weekday"]
"""The answer rates' cells, as ``answer_rates`` groups them by default."""
_SIZES = {"funnel": (7, 3.4), "answer_rates": (13, 4.2), "disposition_mix": (9, 3.8),
          "attempts": (7, 3.4)}
"""Each figure's natural size in inches: shown at most 96 CSS pixels an inch."""
_ALT = {"funnel": "The funnel: leads at each stage", "answer_rates":
        "Answer rates by local hour and weekday", "disposition_mix":
        "Dispositions per campaign", "attempts": "Attempts until a lead was reached"}
STATIC_NOTE = ("The explorer's controls need a running notebook kernel; below, the "
               "view as drawn.")
"""What stands for the widget where it cannot be drawn (its text, above the view)."""
BESIDE_A_WIDGET = hidden_beside_a_widget("dialkit-explorer")
"""The view as HTML hidden after an output where the widget is drawn."""
UPDATING = "<i>Updating…</i>"
"""What the status line says while the views are recomputed (the kernel is busy)."""


def explore(client_or_frames: Client | Mapping[str, Any]) -> Explorer | None:
    """An explorer of an account's funnel, answer rates, dispositions and attempts:
    campaigns, a date range and a direction to pick, and the views each control
    changes redrawn when it changes.

    Args:
        client_or_frames: A :class:`dialkit.Client` (its frames are loaded with
            :func:`load`, and its campaigns for their names) or the frames themselves
            (pandas, Polars or pyarrow): ``leads`` and ``calls``, and optionally
            ``callbacks``, ``appointments`` and ``campaigns``
            (``client.frames.campaigns()``: campaigns shown by name, the id as a tooltip).

    Returns:
        The :class:`Explorer` (shown when it is a cell's value); outside a notebook,
        ``None``, after printing what to call instead.

    Examples:
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
        campaigns: Which campaigns (a ``SelectMultiple`` of ids, each labelled by its
            name, see :func:`campaign_labels`; all at first); its tooltip gives each
            label's id.
        start, end: The calls' date range, inclusive, in UTC (``DatePicker``).
        direction: The calls of the disposition mix: outbound, inbound or both; the
            funnel, answer rates and attempts are of outbound calls by definition.
        status: ``Updating…`` while the views are recomputed, else empty (``HTML``).
        note: What is shown: campaigns, calls and leads (``HTML``).
        table: The funnel table (``HTML``), a row per campaign by name (id as tooltip).
        images: One ``Image`` (SVG) per plot, by name: ``funnel``,
            ``answer_rates``, ``disposition_mix``, ``attempts``.
        shown: The table each plot shows now, by the same names.
        computed, drawn: How many times each view's table was computed (for every
            campaign) and each plot drawn, by the same names.
        widget: The whole, a ``VBox``.
    """

    def __init__(self, frames: Mapping[str, Any]) -> None:
        self.frames = _given(frames)
        calls = prepared(self.frames["calls"], ("campaign_id", "created_at"), "calls")
        self.frames["calls"] = self.frames["calls"].assign(created_at=calls["created_at"])
        leads = prepared(self.frames["leads"], ("campaign_id",), "leads")
        ids = sorted(set(leads["campaign_id"].dropna()) | set(calls["campaign_id"].dropna()))
        self.names = campaign_labels(ids, self.frames.get("campaigns"))
        self.computed: Counter[str] = Counter()
        self.drawn: Counter[str] = Counter()
        self.tables: dict[str, pd.DataFrame] = {}
        self.shown: dict[str, pd.DataFrame] = {}
        self._static: Any = None
        self._controls(ids, _days(calls["created_at"]))
        self.widget = self._layout()
        self.campaigns.observe(lambda _: self._update(()), names="value")
        for control in (self.start, self.end):
            control.observe(lambda _: self._update(PLOTS), names="value")
        self.direction.observe(lambda _: self._update(("disposition_mix",)), names="value")
        self._update(PLOTS)

    def _controls(self, ids: list[str], days: tuple[dt.date | None, dt.date | None]) -> None:
        """The controls, their first values, and the status and note lines."""
        self.campaigns = widgets.SelectMultiple(
            options=[(self.names[c], c) for c in ids], value=tuple(ids),
            rows=min(8, max(len(ids), 1)), description="Campaigns",
            tooltip="\n".join(f"{self.names[c]}: {c}" for c in ids),
            layout=widgets.Layout(width="auto", min_width="24em", max_width="100%"))
        self.start = widgets.DatePicker(value=days[0], description="From")
        self.end = widgets.DatePicker(value=days[1], description="To")
        self.direction = widgets.ToggleButtons(options=list(DIRECTIONS), value="outbound",
                                               description="Direction")
        self.status, self.note, self.table = widgets.HTML(), widgets.HTML(), widgets.HTML()
        self.images = {name: widgets.Image(format="svg+xml", layout=_fitted(name))
                       for name in PLOTS}

    def _layout(self) -> Any:
        """The controls above the views; the two narrow plots side by side where the
        box is wide enough for both at half their size, else one under the other."""
        wrapping = widgets.Layout(flex_flow="row wrap", width="100%", align_items="flex-start")
        pair = widgets.GridBox(
            [self.images["disposition_mix"], self.images["attempts"]],
            layout=widgets.Layout(width="100%", grid_gap="8px", grid_template_columns=(
                "repeat(auto-fit, minmax(min(100%, 420px), 1fr))")))
        return widgets.VBox([
            widgets.HBox([self.campaigns, widgets.VBox([self.start, self.end,
                                                        self.direction])], layout=wrapping),
            self.status, self.note, self.images["funnel"], self.table,
            self.images["answer_rates"], pair], layout=widgets.Layout(width="100%"))

    def selected(self) -> dict[str, pd.DataFrame]:
        """The frames narrowed to the chosen campaigns and dates (calls by ``created_at``;
        leads and callbacks by campaign; appointments, which have no campaign, whole)."""
        chosen = set(self.campaigns.value)
        out = {name: frame[frame["campaign_id"].isin(chosen).fillna(False)]
               if "campaign_id" in frame else frame for name, frame in self.frames.items()}
        out["calls"] = self._in_dates(out["calls"])
        return out

    def _in_dates(self, calls: pd.DataFrame) -> pd.DataFrame:
        """The calls made in the chosen date range (UTC days, both ends included)."""
        when = calls["created_at"]
        keep = pd.Series(True, index=calls.index)
        if self.start.value is not None:
            keep &= when >= pd.Timestamp(self.start.value, tz="UTC")
        if self.end.value is not None:
            keep &= when < pd.Timestamp(self.end.value, tz="UTC") + pd.Timedelta(days=1)
        return calls[keep.fillna(False).astype(bool)]

    def refresh(self) -> None:
        """Recompute every table and redraw every view for the widgets' values."""
        self._update(PLOTS)

    def _update(self, recomputed: tuple[str, ...]) -> None:
        """Recompute the tables of ``recomputed`` (for every campaign), then show the
        chosen campaigns' part of each, saying ``Updating…`` meanwhile."""
        self.status.value = UPDATING
        self._busy(True)
        try:
            for name in recomputed:
                self.tables[name] = self._compute(name)
                self.computed[name] += 1
            chosen = set(self.campaigns.value)
            for name in recomputed or PLOTS:
                self._draw(name, chosen)
            if "funnel" in (recomputed or PLOTS):
                self.table.value = _funnel_html(self.shown["funnel"], self.names)
            self.note.value = self._note()
            if self._static is not None:  # the page's copy of the view follows the widget
                self._static.update(self.outputs()[1], raw=True)
        finally:
            self._busy(False)
            self.status.value = ""

    def _busy(self, busy: bool) -> None:
        """Mark the explorer as working (a CSS class a page can style, the controls held)
        or done."""
        (self.widget.add_class if busy else self.widget.remove_class)("dialkit-updating")
        for control in (self.campaigns, self.start, self.end, self.direction):
            control.disabled = busy

    def _compute(self, name: str) -> pd.DataFrame:
        """View ``name``'s table for every campaign, over the chosen dates."""
        frames = {key: frame for key, frame in self.frames.items()
                  if key in ("leads", "callbacks", "appointments")}
        calls = self._in_dates(self.frames["calls"])
        calls = calls[calls["campaign_id"].notna()]  # as the campaigns' choice leaves them
        if name == "funnel":
            return funnel(calls=calls, **frames)
        if name == "answer_rates":
            return cell_counts(calls, by=["campaign_id", *RATE_CELLS])
        if name == "disposition_mix":
            direction = self.direction.value
            return disposition_mix(calls, direction=None if direction == "both" else direction)
        return attempts_to_contact(frames["leads"], calls)

    def _draw(self, name: str, chosen: set[str]) -> None:
        """Plot ``name``'s table for the ``chosen`` campaigns."""
        table = self.tables[name]
        table = table[table["campaign_id"].isin(chosen).fillna(False).to_numpy(bool)]
        if name == "answer_rates":
            table = summed(table, by=RATE_CELLS)
        self.shown[name] = table.reset_index(drop=True)
        self.shown[name].attrs["campaign_labels"] = self.names  # titles name a campaign so
        self.images[name].value = _svg(_PLOTS[name], self.shown[name], _SIZES[name])
        self.drawn[name] += 1

    def _note(self) -> str:
        """The campaigns, calls and leads shown, counted in words."""
        counts = {"campaign": len(self.campaigns.value)}
        frames = self.selected()
        counts |= {"call": len(frames["calls"]), "lead": len(frames["leads"])}
        said = ", ".join(f"<b>{count:,}</b> {noun(count, word)}"
                         for word, count in counts.items())
        return f"{said}. Funnel, answer rates and attempts count outbound calls only."

    def _ipython_display_(self) -> None:
        """Shown as a cell's value: the widget, then the view as HTML (:meth:`outputs`),
        kept up to date as the widget changes."""
        widget, static = self.outputs()
        display(widget, raw=True)  # type: ignore[no-untyped-call]
        self._static = display(static, raw=True, display_id=True)  # type: ignore[no-untyped-call]

    def outputs(self) -> tuple[dict[str, Any], dict[str, str]]:
        """The explorer's two outputs in a notebook: the widget, and after it the view as
        HTML (:meth:`static_html`), for wherever no kernel draws the widget: a page of
        ``jupyter nbconvert --execute`` (which saves the widget's state and would draw
        it only with a renderer loaded from a CDN: blank offline), a notebook viewer, a
        Jupyter without the widgets' extension. Where the widget is drawn, the HTML
        hides itself (:data:`BESIDE_A_WIDGET`). Two outputs, not one of two kinds: an
        exporter shows one kind of an output, and nbconvert ranks a widget first."""
        widget = {**self.widget._repr_mimebundle_(), "text/plain": STATIC_NOTE}
        return widget, {"text/html": f"<style>{BESIDE_A_WIDGET}</style>{self.static_html()}"}

    def static_html(self) -> str:
        """What the explorer shows now, with no controls: the note, the funnel table and
        the plots as inline SVG images, each at most its natural width and its box's."""
        def image(name: str) -> str:
            data = base64.b64encode(bytes(self.images[name].value)).decode()
            width = _SIZES[name][0] * 96
            return (f'<img src="data:image/svg+xml;base64,{data}" alt="{_ALT[name]}" '
                    f'style="width: 100%; max-width: {width:g}px; height: auto">')

        return (f'<div class="dialkit-explorer {NOT_MATH}"><p>{self.note.value}</p>'
                f'{image("funnel")}'
                f'{self.table.value}{image("answer_rates")}'
                f'<div>{image("disposition_mix")}{image("attempts")}</div></div>')


_PLOTS: dict[str, Callable[..., Axes]] = {
    "funnel": plot_funnel, "answer_rates": plot_answer_heatmap,
    "disposition_mix": plot_disposition_mix, "attempts": plot_attempts}


def campaign_labels(ids: list[str], campaigns: pd.DataFrame | None) -> dict[str, str]:
    """Each campaign's label: its name; a name two campaigns share, with the start of
    each one's id; a campaign the frames do not name (the service lists no archived
    campaign) ``archived campaign`` and the start of its id, or that start alone when
    no campaigns were given."""
    names = campaign_names(campaigns)
    shared = Counter(names.get(c) for c in ids)
    labels = {}
    for campaign in ids:
        short = short_id(campaign)
        name = names.get(campaign)
        if name is None:
            labels[campaign] = short if campaigns is None else f"archived campaign {short}"
        else:
            labels[campaign] = f"{name} ({short})" if shared[name] > 1 else name
    return labels


def _given(frames: Mapping[str, Any]) -> dict[str, pd.DataFrame]:
    """The frames given (a ``None`` counts as not given) as pandas, checked for leads and
    calls before anything reads them, so a mapping without them is told what to pass
    rather than failing on a missing key deep in a redraw."""
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


def _fitted(name: str) -> Any:
    """An image's layout: the width of its box, at most its natural width (96 CSS pixels
    an inch), its height following; no margin, which a width of 100% would overflow by."""
    return widgets.Layout(width="100%", max_width=f"{_SIZES[name][0] * 96:g}px",
                          height="auto", object_fit="contain", margin="0")


def _svg(plot: Callable[..., Axes], data: pd.DataFrame, size: tuple[float, float]) -> bytes:
    """``plot(data)`` on a figure of its own, as SVG bytes (text drawn as paths: the same
    glyphs whatever fonts the browser has)."""
    figure = Figure(figsize=size, layout="constrained")
    plot(data, ax=figure.add_subplot()).title.set_wrap(True)  # a long name: two lines
    return svg_of(figure)


def _funnel_html(table: pd.DataFrame, names: Mapping[str, str]) -> str:
    """The funnel as one row per campaign (by its label, its id as the row's tooltip), a
    column per stage: leads, and % of the leads; in a box that scrolls when too wide."""
    rows = [(names.get(str(campaign), str(campaign)), str(campaign), _cells(part))
            for campaign, part in table.groupby("campaign_id", sort=True)]
    total = table.groupby("stage", observed=True, as_index=False)["leads"].sum()
    rows.append(("all campaigns", "", _cells(total)))
    head = "".join(f"<th>{stage}</th>" for stage in STAGES)
    body = "".join(
        f'<tr><th title="{html.escape(tip)}">{html.escape(label)}</th>'
        + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>"
        for label, tip, cells in rows)
    return (f'<div class="{NOT_MATH}" style="overflow-x: auto">{_TABLE_STYLE}'
            f'<table class="dialkit-funnel">'
            f"<thead><tr><th></th>{head}</tr></thead><tbody>{body}</tbody></table></div>")


_TABLE_STYLE = ("<style>.dialkit-funnel th, .dialkit-funnel td {padding: 2px 10px; "
                "text-align: right; white-space: nowrap}</style>")
"""The funnel table's cells spaced apart and never wrapped (a style its class scopes)."""


def _cells(part: pd.DataFrame) -> list[str]:
    """One campaign's (or the total's) stages: the count, and its share of the leads."""
    counts = part.set_index("stage")["leads"].reindex(list(STAGES), fill_value=0)
    top = int(counts.iloc[0])
    return [f"{count:,}" if stage == "leads" else
            f"{count:,} ({count / top:.0%})" if top else f"{count:,} (–)"
            for stage, count in counts.items()]
