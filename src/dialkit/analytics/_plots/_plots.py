"""The plots: each takes the frame it shows and an optional ``ax``, and returns the Axes.

Nothing here changes matplotlib's global state: no style, no rcParams, no
``show``. Given ``ax``, a plot draws there and nowhere else. Without it, a new
figure is made with ``pyplot.subplots`` (as pandas' and seaborn's plots do), which is
what makes it appear under the notebook cell; pass ``ax=`` from a
``matplotlib.figure.Figure`` to stay clear of pyplot altogether.

A title names campaigns and a legend the account's dispositions: both are drawn as
written (:func:`~dialkit._shown._pages.as_written`), never as mathematics.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.colors import Normalize

from ..._shown._pages import as_written, campaign_label
from ..._shown._words import counted
from .._funnel import STAGES
from .._inputs._inputs import prepared
from .._inputs._local import WEEKDAYS

NEVER_COLOR, BAR_COLOR, EMPTY_COLOR = "#c44e52", "#4c72b0", "#eeeeee"
MOST_KINDS = 12
"""A legend's entries at most: the rarer kinds are folded into one "other" entry."""
NONE_LOGGED = "none logged"


def _axes(ax: Axes | None, size: tuple[float, float]) -> Axes:
    """``ax``, or the Axes of a new figure of ``size`` inches."""
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    made: Axes = plt.subplots(figsize=size, layout="constrained")[1]
    return made


def _title(ax: Axes, title: str) -> None:
    """Set ``ax``'s title, drawn as written: it may name a campaign."""
    as_written([ax.set_title(title)])


def _campaigns(frame: pd.DataFrame) -> str:
    """"campaign X" or "N campaigns", for a title; X by the frame's
    ``attrs["campaign_labels"]`` (labels by id, as the explorer sets them: short enough
    for a title), else by name and id when its ``attrs["campaign_names"]`` know it."""
    if "campaign_id" not in frame:
        return "all calls"
    ids = frame["campaign_id"].dropna().unique()
    if len(ids) != 1:
        return counted(len(ids), "campaign")
    label = (frame.attrs.get("campaign_labels") or {}).get(ids[0])
    return f"campaign {label or campaign_label(ids[0], frame.attrs.get('campaign_names'))}"


def plot_funnel(table: pd.DataFrame, *, ax: Axes | None = None) -> Axes:
    """Bars of the leads at each stage of :func:`funnel`'s table (summed over its
    campaigns), each labelled with its count, its share of the leads and of the stage before.

    Examples:
        >>> client = dialkit.Client.sandbox()
        >>> leads, calls = client.frames.leads(), client.frames.calls()
        >>> from dialkit.analytics import funnel
        >>> ax = plot_funnel(funnel(leads, calls))
        >>> ax.get_title(), len(ax.patches)  # a bar per stage
        ('Funnel: ... campaigns, ... leads', 6)
        >>> client.close()
    """
    frame = prepared(table, ("stage", "leads"), "funnel table", "the table of funnel()")
    counts = frame.groupby(frame["stage"].astype(str))["leads"].sum().reindex(
        STAGES, fill_value=0).to_numpy(np.int64)
    ax = _axes(ax, (8, 4))
    ax.barh(range(len(STAGES)), counts, color=BAR_COLOR)
    ax.set_yticks(range(len(STAGES)), list(STAGES))
    ax.invert_yaxis()
    for row, count in enumerate(counts):
        ax.text(count, row, "  " + _funnel_label(counts, row), va="center", fontsize=9)
    ax.set_xlim(0, max(int(counts.max()), 1) * 1.45)
    ax.set_xlabel("leads")
    _title(ax, f"Funnel: {_campaigns(table)}, {counted(int(counts[0]), 'lead')}")
    ax.spines[["top", "right"]].set_visible(False)
    return ax


def _funnel_label(counts: np.ndarray, row: int) -> str:
    """``12,345 (40.1% of leads, 80.0% of answered)``."""
    text = f"{counts[row]:,}"
    if row and counts[0]:
        text += f"  ({counts[row] / counts[0]:.1%} of leads"
        if row > 1 and counts[row - 1]:
            text += f", {counts[row] / counts[row - 1]:.1%} of {STAGES[row - 1]}"
        text += ")"
    return text


def plot_answer_heatmap(rates: pd.DataFrame, *, ax: Axes | None = None) -> Axes:
    """The answer rate by local hour (columns) and weekday (rows) of :func:`answer_rates`'
    table, each cell labelled with its rate and its number of calls; cells without calls
    are left grey. Other grouping columns (a campaign) are summed over.

    Examples:
        >>> client = dialkit.Client.sandbox()
        >>> calls = client.frames.calls()
        >>> from dialkit.analytics import answer_rates
        >>> plot_answer_heatmap(answer_rates(calls)).get_title()
        'Answer rate by local hour and weekday: ... outbound calls (each cell: rate, calls)'
        >>> client.close()
    """
    frame = prepared(rates, ("local_hour", "weekday", "calls", "answered"), "answer_rates table",
                     "the table of answer_rates()")
    known = frame.dropna(subset=["local_hour", "weekday"])
    grid = known.groupby([known["weekday"].astype(str), known["local_hour"].astype(int)])[
        ["calls", "answered"]].sum()
    calls = grid["calls"].unstack().reindex(index=list(WEEKDAYS), columns=range(24))
    answered = grid["answered"].unstack().reindex(index=list(WEEKDAYS), columns=range(24))
    rate = (answered / calls).to_numpy(float)
    ax = _axes(ax, (14, 4.5))
    ax.set_facecolor(EMPTY_COLOR)
    top = np.nanmax(rate) if np.isfinite(rate).any() else 1.0
    norm = Normalize(0, top)
    image = ax.imshow(np.ma.masked_invalid(rate), cmap="viridis", aspect="auto", norm=norm)
    _label_cells(ax, rate, calls.to_numpy(float), norm)
    ax.set_xticks(range(24), [f"{h:02d}" for h in range(24)])
    ax.set_yticks(range(7), list(WEEKDAYS))
    ax.set_xlabel("local hour at the recipient")
    ax.figure.colorbar(image, ax=ax, label="answer rate", fraction=0.03, pad=0.01)
    _title(ax, _heatmap_title(frame, known))
    return ax


def _label_cells(ax: Axes, rate: np.ndarray, calls: np.ndarray, norm: Normalize) -> None:
    """Each cell's rate and count, dark on light cells and light on dark ones."""
    for row, column in zip(*np.nonzero(np.nan_to_num(calls) > 0), strict=True):
        value = rate[row, column]
        colour = "black" if norm(value) > 0.6 else "white"
        ax.text(column, row, f"{value:.0%}\n{int(calls[row, column]):,}", ha="center",
                va="center", fontsize=6.5, color=colour)


def _heatmap_title(frame: pd.DataFrame, known: pd.DataFrame) -> str:
    """The title, saying what was left out or moved: unknown zones, several zones."""
    total, shown = int(frame["calls"].sum()), int(known["calls"].sum())
    title = (f"Answer rate by local hour and weekday: {shown:,} outbound calls "
             "(each cell: rate, calls)")
    notes = []
    if "multi_zone" in frame and (multi := int(frame["multi_zone"].sum())):
        notes.append(f"{multi:,} to numbers of several zones, placed in their first")
    if total > shown:
        notes.append(f"{total - shown:,} to numbers of no known zone, not shown")
    return title + ("\n(" + "; ".join(notes) + ")" if notes else "")


def plot_disposition_mix(mix: pd.DataFrame, *, ax: Axes | None = None) -> Axes:
    """Stacked bars of the share of each disposition per period, from
    :func:`disposition_mix` (summed over campaigns); works on :func:`hangup_causes` too,
    whose ``hangup_cause`` column it takes when the table has no ``disposition``.

    Examples:
        >>> client = dialkit.Client.sandbox()
        >>> calls = client.frames.calls()
        >>> from dialkit.analytics import disposition_mix
        >>> plot_disposition_mix(disposition_mix(calls)).get_title()
        'Disposition mix per period: ... campaigns, ... calls'
        >>> client.close()
    """
    column = "disposition" if "disposition" in mix else "hangup_cause"
    frame = prepared(mix, ("period", column, "calls"), "mix table",
                     "the table of disposition_mix()")
    values = frame[column].astype(object).where(frame[column].notna(), NONE_LOGGED)
    counts = _folded(frame.groupby([frame["period"], values])["calls"].sum().unstack(
        fill_value=0))
    shares = counts.div(counts.sum(axis=1), axis=0)
    ax = _axes(ax, (10, 4.5))
    bottom = np.zeros(len(shares))
    colours = _palette(len(shares.columns))
    for n, name in enumerate(shares.columns):
        ax.bar(range(len(shares)), shares[name], bottom=bottom, label=str(name),
               color=colours[n], width=0.85)
        bottom += shares[name].to_numpy(float)
    crowded = len(shares) > 6
    ax.set_xticks(range(len(shares)), [_period_label(p) for p in shares.index],
                  rotation=45 if crowded else 0, ha="right" if crowded else "center")
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter("{x:.0%}")
    ax.set_ylabel("share of calls")
    ax.set_xlabel(_period_axis(shares.index))
    _title(ax, f"{column.replace('_', ' ').capitalize()} mix per period: {_campaigns(mix)}, "
               f"{counted(int(counts.to_numpy().sum()), 'call')}")
    if len(shares.columns):  # no calls (none of the direction chosen): no legend
        as_written(ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8,
                             frameon=False).get_texts())
    return ax


def _folded(counts: pd.DataFrame) -> pd.DataFrame:
    """``counts`` (a column per kind) with at most :data:`MOST_KINDS` columns: the
    commonest kinds, then the rest summed as ``other (N kinds)``."""
    if len(counts.columns) <= MOST_KINDS:
        return counts
    order = counts.sum().sort_values(ascending=False).index
    kept, rest = order[:MOST_KINDS - 1], order[MOST_KINDS - 1:]
    other = f"other ({counted(len(rest), 'kind')})"
    return counts[kept].assign(**{other: counts[rest].sum(axis=1)})


def _palette(count: int) -> list[tuple[float, float, float, float]]:
    """``count`` distinct colours (tab10, then tab20)."""
    from matplotlib import colormaps

    name = "tab10" if count <= 10 else "tab20"
    return [colormaps[name](n % 20) for n in range(count)]


def _period_label(period: object) -> str:
    """A period as its first day (``2026-10-26``), or as pandas writes it."""
    return f"{period.start_time:%Y-%m-%d}" if isinstance(period, pd.Period) else str(period)


def _period_axis(periods: pd.Index) -> str:
    """What the x axis counts: ``week (W-SUN) starting, UTC``."""
    freq = getattr(periods, "freqstr", None) or getattr(
        periods[0] if len(periods) else None, "freqstr", None)
    return f"period ({freq}) starting, UTC" if freq else "period"


def plot_attempts(attempts: pd.DataFrame, *, ax: Axes | None = None) -> Axes:
    """A histogram of the attempts it took to reach each lead, from
    :func:`attempts_to_contact` (summed over campaigns), with the leads never reached as
    a bar of their own.

    Examples:
        >>> client = dialkit.Client.sandbox()
        >>> leads, calls = client.frames.leads(), client.frames.calls()
        >>> from dialkit.analytics import attempts_to_contact
        >>> plot_attempts(attempts_to_contact(leads, calls)).get_title()
        'Attempts to contact: ... campaigns, ... dialled leads, ...% never reached'
        >>> client.close()
    """
    frame = prepared(attempts, ("attempts", "leads"), "attempts table",
                     "the table of attempts_to_contact()")
    reached = frame.dropna(subset=["attempts"]).groupby(
        frame["attempts"].dropna().astype(int))["leads"].sum()
    never = int(frame.loc[frame["attempts"].isna(), "leads"].sum())
    most = int(reached.index.max()) if len(reached) else 0
    heights = reached.reindex(range(1, most + 1), fill_value=0).to_numpy(np.int64)
    ax = _axes(ax, (8, 4))
    ax.bar(range(1, most + 1), heights, color=BAR_COLOR, label="reached on this attempt")
    ax.bar([most + 2], [never], color=NEVER_COLOR, label="dialled, never reached")
    for x, height in [*zip(range(1, most + 1), heights, strict=True), (most + 2, never)]:
        ax.text(x, height, f"{height:,}", ha="center", va="bottom", fontsize=8)
    ax.set_xticks([*range(1, most + 1), most + 2], [*map(str, range(1, most + 1)), "never"])
    ax.set_xlabel("outbound calls until the first answer")
    ax.set_ylabel("leads")
    total = int(heights.sum()) + never
    share = f"{never / total:.1%}" if total else "none"
    _title(ax, f"Attempts to contact: {_campaigns(attempts)}, {total:,} dialled leads, "
               f"{share} never reached")
    ax.legend(frameon=False)
    ax.spines[["top", "right"]].set_visible(False)
    return ax
