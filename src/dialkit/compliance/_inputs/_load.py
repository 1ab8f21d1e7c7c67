"""Fetching what an audit needs from an account: calls, leads, and the DNC results of
every number called in the period asked or held.

A month-end audit of a large account is bound by the API's own limit (10 requests a
second a key, 100 records a page, 100 numbers a DNC check), so it reads no more than it
needs: every call once, then from the top until the cached ones (a
``do_not_call`` disposition or a campaign's first call may lie years back); the leads
whole once a week, and on the days between only those created since the cached ones
(their DNC coverage is judged over every lead that may still be dialled, and the list
can be asked for no other set); and a DNC check only of the numbers whose last check
is older than their country's scrub period, for a check that recent is what the law's
safe harbor asks (47 CFR 64.1200(c)(2): 31 days; PECR reg. 21(3): 28).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Literal, NotRequired, TypedDict

import numpy as np
import pandas as pd

from ..._arrays._groups import isin
from ..._shown._pages import campaign_names
from ..._utils._moments import period_bound
from ...errors import PermissionDeniedError
from .._rules._place_law import scrub_ages
from .._rules._rules import US, Rules
from ._declared import required

if TYPE_CHECKING:
    from ...client import Client

_READ_BY = {"calls": "client.frames.calls", "leads": "client.frames.leads",
            "dnc": "client.frames.dnc"}
"""The method each frame :func:`load` reads comes from, as its ``attrs`` name it: written
whole, never built from the frame's name, so that a test looks each up."""


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
         until: datetime | str | None = None, rules: Rules = US) -> Loaded:
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
        rules: The rules the audit will judge by, for how old a number's DNC check may
            be (:attr:`Rules.scrub_age`, or its country's, where shorter).

    Raises:
        ValueError: ``since`` or ``until`` is none of these (``"30"``, ``"last week"``).

    Returns:
        ``calls`` (every call of the campaigns), ``leads`` (read whole when the
        cached ones were last read whole a week or more ago, else those created since
        added to them, their rows as last read), ``dnc`` (every number called or texted from
        ``since`` on, or held, through ``client.frames.dnc``: batched, a number checked
        again only once its cached check is older than its scrub age), ``texts``
        (``client.frames.sms_reports()``, every text, as the calls, and with
        ``campaign_id`` those to the campaigns' leads' numbers; none where the key lacks
        ``sms:read``, the reason in their ``attrs`` for the report's notes) and, where
        given, ``since`` and ``until`` as given.
    """
    return gathered(client, campaign_id=campaign_id, since=since, until=until, rules=rules,
                    leads="new")


def gathered(client: Client, *, campaign_id: str | Sequence[str] | None,
             since: datetime | str | None, until: datetime | str | None, rules: Rules,
             leads: Literal["new", "auto"]) -> Loaded:
    """:func:`load`, its leads read with ``refresh=leads``: ``"auto"`` for
    :func:`~dialkit.compliance.upcoming`, which reads the leads' next attempts, which the
    dialer moves every day."""
    now = pd.Timestamp.now(tz="UTC")  # both refused before fetching, if either is no bound
    start = None if since is None else period_bound(since, "since", now=now)
    if until is not None:
        period_bound(until, "until", now=now)
    calls = client.frames.calls(campaign_id=campaign_id)
    held = client.frames.leads(campaign_id=campaign_id, refresh=leads)
    texts = loaded_texts(client, None if campaign_id is None else set(held["phone"].dropna()))
    called = calls[calls["direction"] == "outbound"]
    texted = texts
    if start is not None:  # audit reads a later start, for "30d" is 30 days back from then
        called = called[called["created_at"] >= start]
        texted = texted[texted["created_at"] >= start]
    numbers = sorted(set(called["to_number"].dropna()) | set(texted["to"].dropna())
                     | set(held["phone"].dropna()))
    frames: Loaded = {"calls": calls, "leads": held, "dnc": _checked(client, numbers, rules),
                      "texts": texts}
    fetched = _fetched(client, frames, campaign_id)
    for name in ("calls", "leads", "dnc"):
        frames[name].attrs.update(source=f"{_READ_BY[name]} of {client.base_url}")
        if name in fetched:
            frames[name].attrs["fetched_at"] = fetched[name]
    if since is not None:
        frames["since"] = since
    if until is not None:
        frames["until"] = until
    return frames


def _checked(client: Client, numbers: list[str], rules: Rules) -> pd.DataFrame:
    """The DNC results of ``numbers``, each checked again only where its cached check is
    older than its scrub age (:func:`._dnc.scrub_ages`): one ``client.frames.dnc`` per
    age, in the numbers' order (sorted)."""
    ages = scrub_ages(pd.Series(numbers, dtype=object), rules)
    parts = [client.frames.dnc([n for n, a in zip(numbers, ages, strict=True) if a == age],
                               max_age=age.to_pytimedelta())
             for age in ages.unique()]
    if len(parts) == 1:
        return parts[0]
    return pd.concat(parts).sort_values("phone", ignore_index=True) if parts else (
        client.frames.dnc([]))


def _fetched(client: Client, frames: Loaded,
             campaign_id: str | Sequence[str] | None) -> dict[str, str]:
    """When each frame was fetched, from the cache entries this load read (one a campaign
    asked, or the account's; another of the cache, a status's leads read weeks ago,
    dates nothing here). Calls and leads: when they were last fetched; leads read whole
    before that, and only the new ones since, say so. DNC results: their oldest check
    (``checked_at``), for they are cached number by number and the cache's own time is
    only that of the newest batch; with no check times, that time, as for the others."""
    asked = [{}] if campaign_id is None else [
        {"campaign_id": each} for each in ([campaign_id] if isinstance(campaign_id, str)
                                           else campaign_id)]
    info = client.cache.info()
    read = info[(info["resource"] == "dnc") | info["filters"].map(asked.__contains__)]
    newest = read.groupby("resource")["fetched_at"].max()
    whole_at = read.loc[read["resource"] == "leads", "whole_at"].min()
    times = {name: newest.get(name) for name in ("calls", "leads", "dnc")}
    checked = frames["dnc"].get("checked_at")
    if checked is not None and checked.notna().any():
        times["dnc"] = checked.min()
    fetched = {name: _minute(at) for name, at in times.items() if at is not None and pd.notna(at)}
    if "leads" in fetched and pd.notna(whole_at) and _minute(whole_at) != fetched["leads"]:
        fetched["leads"] += (f" (those created since {_minute(whole_at)}; the others as read "
                             "then)")
    return fetched


def _minute(at: object) -> str:
    """A time in the sources' words: ``2026-11-26 21:40 UTC``."""
    return f"{pd.Timestamp(at):%Y-%m-%d %H:%M UTC}"


TEXT_COLUMNS = required("texts")
"""The texts' columns the audit needs (``status`` and ``error_code`` are read where
given, for the evidence)."""



UNREAD = "unread"
"""The texts' ``attrs`` key where :func:`~dialkit.compliance.load` says why it could not
read them (a key without ``sms:read``)."""



def loaded_texts(client: Client, numbers: Collection[str] | None) -> pd.DataFrame:
    """The account's texts as :func:`~dialkit.compliance.load` gives them: those to
    ``numbers`` (a campaign's leads'; None: all), all of them, as the calls (a period's
    texts are judged against those before them: the audit cuts the findings, not the
    history); where the key may not read them (no ``sms:read``), none, the reason in
    their ``attrs`` (:data:`UNREAD`) for the report's notes, so that an audit still runs."""
    try:
        texts = client.frames.sms_reports()
    except PermissionDeniedError as error:
        unread = pd.DataFrame({column: pd.Series(dtype="str") for column in TEXT_COLUMNS})
        unread["created_at"] = pd.Series(dtype="datetime64[ns, UTC]")
        unread.attrs[UNREAD] = (f"the key may not read texts ({error.code}: "
                                "GET /v1/sms/delivery-reports needs the scope sms:read)")
        return unread
    keep = np.ones(len(texts), bool)
    if numbers is not None:
        keep &= isin(texts["to"], list(numbers))
    kept = texts[keep]
    kept.attrs.update(source=f"client.frames.sms_reports of {client.base_url}")
    fetched = client.cache.info().groupby("resource")["fetched_at"].max().get("sms_reports")
    if fetched is not None and pd.notna(fetched):
        kept.attrs["fetched_at"] = f"{pd.Timestamp(fetched):%Y-%m-%d %H:%M UTC}"
    return kept


def readable_campaign_names(client: Client) -> dict[str, str] | None:
    """The account's campaign names by id (:func:`~dialkit._shown._pages.campaign_names`
    of ``client.frames.campaigns()``); None for a key that may not read campaigns: names
    are a help to the reader of a page or a plan, never a reason for it to fail."""
    try:
        return campaign_names(client.frames.campaigns())
    except PermissionDeniedError:
        return None
