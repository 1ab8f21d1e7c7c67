"""Fetching what an audit needs from an account: calls, leads, and the DNC results of
every number called in the period asked or held."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, NotRequired, TypedDict

import pandas as pd

from .._utils._moments import period_bound
from ._texts import loaded_texts

if TYPE_CHECKING:
    from ..client import Client


class Loaded(TypedDict):
    """What :func:`load` gives: :func:`audit`'s keyword arguments."""

    calls: pd.DataFrame
    leads: pd.DataFrame
    dnc: pd.DataFrame
    texts: pd.DataFrame
    since: NotRequired[datetime | str]
    until: NotRequired[datetime | str]


def load(client: Client, *, campaign_id: str | Sequence[str] | None = None,
         since: datetime | str | None = None,
         until: datetime | str | None = None) -> Loaded:
    """The frames :func:`audit` takes, as keyword arguments: ``audit(**load(client))``.

    Args:
        client: The account to audit.
        campaign_id: One campaign's calls and leads only, or several campaigns' (a
            list of ids).
        since: Audit calls placed from then on: an ISO 8601 date or time
            (``"2026-11-01"``, ``"2026-11-01T09:00-05:00"``) or a ``datetime``: a time of
            day with its zone (one without is refused, never taken as UTC); a date starts
            at midnight UTC. Or as people say it: ``"today"``, ``"yesterday"`` (from
            midnight UTC), or a length of time back from now (``"30d"``, ``"7d"``,
            ``"12h"``). The calls are not cut to it: every call of the campaigns is
            given (the frames are cached whole), for the calls of the period are judged
            against those before them (a cap's 24 hours, an abandonment period counted
            from the campaign's first call, a ``do_not_call`` disposition); ``since`` is
            passed on to :func:`audit`, which reports the period's calls.
        until: Audit calls placed before then (a date: before that day begins), in the
            same forms (``until="today"``: up to midnight UTC), passed on likewise.

    Raises:
        ValueError: ``since`` or ``until`` is none of these (``"30"``, ``"last week"``).

    Returns:
        ``calls`` (every call of the campaigns), ``leads``, ``dnc`` (every number
        called or texted from ``since`` on, or held, checked through
        ``client.frames.dnc``: batched, cached for a day), ``texts``
        (``client.frames.sms_reports()``, every text, as the calls, and with
        ``campaign_id`` those to the campaigns' leads' numbers; none where the key lacks
        ``sms:read``, the reason in their ``attrs`` for the report's notes) and, where
        given, ``since`` and ``until`` as given.
    """
    now = pd.Timestamp.now(tz="UTC")  # both refused before fetching, if either is no bound
    start = None if since is None else period_bound(since, "since", now=now)
    if until is not None:
        period_bound(until, "until", now=now)
    calls = client.frames.calls(campaign_id=campaign_id)
    leads = client.frames.leads(campaign_id=campaign_id)
    texts = loaded_texts(client, None if campaign_id is None else set(leads["phone"].dropna()))
    called = calls[calls["direction"] == "outbound"]
    texted = texts
    if start is not None:  # audit reads a later start, for "30d" is 30 days back from then
        called = called[called["created_at"] >= start]
        texted = texted[texted["created_at"] >= start]
    numbers = sorted(set(called["to_number"].dropna()) | set(texted["to"].dropna())
                     | set(leads["phone"].dropna()))
    frames: Loaded = {"calls": calls, "leads": leads, "dnc": client.frames.dnc(numbers),
                      "texts": texts}
    fetched = _fetched(client, frames)
    for name in ("calls", "leads", "dnc"):
        frames[name].attrs.update(source=f"client.frames.{name} of {client.base_url}")
        if name in fetched:
            frames[name].attrs["fetched_at"] = fetched[name]
    if since is not None:
        frames["since"] = since
    if until is not None:
        frames["until"] = until
    return frames


def _fetched(client: Client, frames: Loaded) -> dict[str, str]:
    """When each frame was fetched. Calls and leads: when their resource was last fetched
    into the cache. DNC results: their oldest check (``checked_at``), for they are cached
    number by number and the cache's own time is only that of the newest batch; with no
    check times, that time, as for the others."""
    newest = client.cache.info().groupby("resource")["fetched_at"].max()
    times = {name: newest.get(name) for name in ("calls", "leads", "dnc")}
    checked = frames["dnc"].get("checked_at")
    if checked is not None and checked.notna().any():
        times["dnc"] = checked.min()
    return {name: f"{pd.Timestamp(at):%Y-%m-%d %H:%M UTC}" for name, at in times.items()
            if at is not None and pd.notna(at)}
