"""Fetching what an audit needs from an account: calls, leads, and the DNC results of
every number called or held."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

import pandas as pd

if TYPE_CHECKING:
    from ..client import Client


def load(client: Client, *, since: datetime | str | None = None,
         campaign_id: str | None = None) -> dict[str, pd.DataFrame]:
    """The frames :func:`audit` takes, as keyword arguments: ``audit(**load(client))``.

    Args:
        client: The account to audit.
        since: Audit calls placed from then on (the frames are cached whole;
            the cut is made here).
        campaign_id: One campaign's calls and leads only.

    Returns:
        ``calls``, ``leads`` and ``dnc`` (every number called or held, checked
        through ``client.frames.dnc``: batched, cached for a day).
    """
    calls = client.frames.calls(campaign_id=campaign_id)
    leads = client.frames.leads(campaign_id=campaign_id)
    if since is not None:
        start = pd.Timestamp(since)
        start = start.tz_localize("UTC") if start.tzinfo is None else start.tz_convert("UTC")
        calls = calls[calls["created_at"] >= start]
    numbers = sorted(set(calls.loc[calls["direction"] == "outbound", "to_number"].dropna())
                     | set(leads["phone"].dropna()))
    frames = {"calls": calls, "leads": leads, "dnc": client.frames.dnc(numbers)}
    fetched = _fetched(client, frames)
    for name, frame in frames.items():
        frame.attrs.update(source=f"client.frames.{name} of {client.base_url}")
        if name in fetched:
            frame.attrs["fetched_at"] = fetched[name]
    return frames


def _fetched(client: Client, frames: dict[str, pd.DataFrame]) -> dict[str, str]:
    """When each frame was fetched. Calls and leads: when their resource was last fetched
    into the cache. DNC results: their oldest check (``checked_at``), for they are cached
    number by number and the cache's own time is only that of the newest batch; with no
    check times, that time, as for the others."""
    newest = client.cache.info().groupby("resource")["fetched_at"].max()
    times = {name: newest.get(name) for name in frames}
    checked = frames["dnc"].get("checked_at")
    if checked is not None and checked.notna().any():
        times["dnc"] = checked.min()
    return {name: f"{pd.Timestamp(at):%Y-%m-%d %H:%M UTC}" for name, at in times.items()
            if at is not None and pd.notna(at)}
