"""Fetching what an audit needs from an account: calls, leads, and the DNC results of
every number called or held."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

import pandas as pd

from .._utils._moments import period_bound, period_text
from ._texts import loaded_texts

if TYPE_CHECKING:
    from ..client import Client


def load(client: Client, *, campaign_id: str | Sequence[str] | None = None,
         since: datetime | str | None = None,
         until: datetime | str | None = None) -> dict[str, pd.DataFrame]:
    """The frames :func:`audit` takes, as keyword arguments: ``audit(**load(client))``.

    Args:
        client: The account to audit.
        campaign_id: One campaign's calls and leads only, or several campaigns' (a
            list of ids).
        since: Audit calls placed from then on (the frames are cached whole;
            the cut is made here): an ISO 8601 date or time (``"2026-11-01"``,
            ``"2026-11-01T09:00-05:00"``) or a ``datetime``: a time of day with its zone
            (one without is refused, never taken as UTC); a date starts at midnight UTC.
            Or as people say it: ``"today"``, ``"yesterday"`` (from midnight UTC), or a
            length of time back from now (``"30d"``, ``"7d"``, ``"12h"``).
        until: Audit calls placed before then (a date: before that day begins), in the
            same forms (``until="today"``: up to midnight UTC).

    Raises:
        ValueError: ``since`` or ``until`` is none of these (``"30"``, ``"last week"``).

    Returns:
        ``calls``, ``leads``, ``dnc`` (every number called, texted or held, checked
        through ``client.frames.dnc``: batched, cached for a day) and ``texts``
        (``client.frames.sms_reports()``, cut to the period and, with ``campaign_id``,
        to the campaigns' leads' numbers; none where the key lacks ``sms:read``, the
        reason in their ``attrs`` for the report's notes). The calls' ``attrs``
        hold the period asked, in words (``period``), for the report's cover.
    """
    now = pd.Timestamp.now(tz="UTC")  # both bounds, and their words, from one moment
    start = None if since is None else period_bound(since, "since", now=now)  # before fetching
    end = None if until is None else period_bound(until, "until", now=now)
    calls = client.frames.calls(campaign_id=campaign_id)
    leads = client.frames.leads(campaign_id=campaign_id)
    if start is not None:
        calls = calls[calls["created_at"] >= start]
    if end is not None:
        calls = calls[calls["created_at"] < end]
    texts = loaded_texts(client, None if campaign_id is None else set(leads["phone"].dropna()),
                         start, end)
    numbers = sorted(set(calls.loc[calls["direction"] == "outbound", "to_number"].dropna())
                     | set(leads["phone"].dropna()) | set(texts["to"].dropna()))
    frames = {"calls": calls, "leads": leads, "dnc": client.frames.dnc(numbers)}
    fetched = _fetched(client, frames)
    if start is not None or end is not None:
        calls.attrs["period"] = period_text(since=(since, start), until=(until, end))
    for name, frame in frames.items():
        frame.attrs.update(source=f"client.frames.{name} of {client.base_url}")
        if name in fetched:
            frame.attrs["fetched_at"] = fetched[name]
    return {**frames, "texts": texts}


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
