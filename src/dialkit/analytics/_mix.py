"""``disposition_mix`` and ``hangup_causes``: what the agents logged and how calls ended,
per campaign and period."""

from __future__ import annotations

import pandas as pd

from .._utils._base_error import InputError
from ._inputs._inputs import prepared

DIRECTIONS = ("outbound", "inbound")


def disposition_mix(calls: pd.DataFrame, *, freq: str = "W",
                    direction: str | None = "outbound") -> pd.DataFrame:
    """How many calls of each campaign got each disposition, per period.

    Args:
        calls: ``client.frames.calls()`` or an export with its columns.
        freq: The period, a pandas period alias: ``"D"``, ``"W"`` (weeks ending
            Sunday), ``"M"``; periods are of UTC time.
        direction: ``"outbound"``, ``"inbound"`` or ``None`` for both.

    Returns:
        One row per campaign, period and disposition met: ``campaign_id``,
        ``period`` (a pandas Period), ``disposition`` (null: none logged),
        ``calls`` and ``share`` (of the campaign's calls in the period).

    Examples:
        >>> client = dialkit.Client.sandbox()
        >>> disposition_mix(client.frames.calls(), freq="D").columns.tolist()
        ['campaign_id', 'period', 'disposition', 'calls', 'share']
        >>> client.close()
    """
    return _mix(calls, "disposition", freq, direction)


def hangup_causes(calls: pd.DataFrame, *, freq: str = "W",
                  direction: str | None = "outbound") -> pd.DataFrame:
    """How calls ended (the carrier's ``hangup_cause``), per campaign and period; the
    same shape as :func:`disposition_mix` with ``hangup_cause`` in place of ``disposition``.

    Examples:
        >>> client = dialkit.Client.sandbox()
        >>> hangup_causes(client.frames.calls()).columns.tolist()
        ['campaign_id', 'period', 'hangup_cause', 'calls', 'share']
        >>> client.close()
    """
    return _mix(calls, "hangup_cause", freq, direction)


def _mix(calls: pd.DataFrame, column: str, freq: str, direction: str | None) -> pd.DataFrame:
    """Counts of ``column``'s values per campaign and period, with shares."""
    if direction is not None and direction not in DIRECTIONS:
        raise InputError(f"direction={direction!r}: pass 'outbound', 'inbound' or None (both)")
    frame = prepared(calls, ("direction", "campaign_id", "created_at", column), "calls")
    if direction is not None:
        frame = frame[(frame["direction"].astype("string") == direction).fillna(False)]
    try:
        period = frame["created_at"].dt.tz_localize(None).dt.to_period(freq).rename("period")
    except (ValueError, TypeError):  # "30": pandas' own words name no argument
        raise InputError(f"freq={freq!r}: pass a pandas period alias, e.g. 'D', 'W' or "
                         "'M'") from None
    keys = [frame["campaign_id"].astype("string[pyarrow]"), period,
            frame[column].astype("string[pyarrow]")]
    counts = frame.groupby(keys, dropna=False, sort=True).size().rename("calls")
    table = counts.reset_index().astype({"calls": "int64"})
    total = table.groupby(["campaign_id", "period"], dropna=False)["calls"].transform("sum")
    return table.assign(share=table["calls"] / total)
