"""What ``client.frames`` offers: :class:`Frames`, its methods and their options, declared
in the client so that the client names them without importing the frames layer.

The frames layer loads the frames from the client's pages and keeps them as Parquet; it
imports the client, so the client importing it back, even for the type checker alone,
would close a circle of imports. So the methods users call (their filters, options and
docstrings) are written here once, each handing its request to one of three loaders,
which the frames layer's :class:`dialkit.frames.CachedFrames` implements; the ``dialkit``
package wires it in (:mod:`dialkit._utils._wiring`), and ``client.frames`` is one of it
(``dialkit.frames.Frames`` is this class, exported there too). The cache behind it is
named by what users ask of it (:class:`FrameCache`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from datetime import date, timedelta
from pathlib import Path
from typing import Any, Literal, Protocol, TypedDict, Unpack

import pandas as pd

Refresh = Literal["auto", "incremental", "new", "full", "offline"]
"""How a frame method reads the cache and the service (:class:`Frames`)."""

REFRESH_CHOICES: tuple[str, ...] = ("auto", "incremental", "new", "full", "offline")
"""Every ``refresh`` a frame method takes."""


class FrameOptions(TypedDict, total=False):
    """Options every frame method takes.

    Attributes:
        refresh: ``"auto"``, ``"incremental"``, ``"new"``, ``"full"`` or ``"offline"``.
        max_age: How old a cached frame ``"auto"`` reuses: a ``timedelta``, seconds, or
            text with its unit (``"1d"``, ``"12h"``).
        progress: Show a progress bar on loads of more than one page; by
            default a bar only where someone watches (in a notebook, or when
            standard error is a terminal), and where nobody does (a script's log)
            a line on the ``dialkit.progress`` logger every 10 seconds.
    """

    refresh: Refresh
    max_age: timedelta | float | str
    progress: bool | None


class FrameCache(Protocol):
    """The Parquet cache behind ``client.frames``, as users ask it
    (:class:`dialkit.frames.Cache` is the one a client holds)."""

    root: Path
    """The cache folder shared by every service and key."""
    path: Path
    """This client's folder in it: its service and key's."""

    def info(self) -> pd.DataFrame:
        """One row per cached frame: what it holds, when it was fetched, its size."""
        ...

    def clear(self, resource: str | None = None) -> int:
        """Remove the cached frames (of one ``resource``, or all); how many."""
        ...

    def remove(self) -> None:
        """Remove this client's folder of the cache, whole."""
        ...


class Frames(ABC):
    """Typed DataFrames of the account's data, cached as Parquet.

    Every method takes ``refresh`` (``"auto"``: the cache while younger than
    ``max_age``, else a refresh; ``"incremental"``; ``"new"``: the records created
    since the cached ones, the leads' others as last read until a week after their
    last whole read; ``"full"``; ``"offline"``: the cache only,
    :class:`CacheMissError` if absent), ``max_age`` (a
    ``timedelta`` or seconds) and ``progress`` (a progress bar on loads of more
    than one page; by default in a notebook or a terminal only).

    Attributes:
        cache: The Parquet cache the frames are kept in.

    Examples:
        >>> client = dialkit.Client.sandbox()
        >>> calls = client.frames.calls(direction="outbound")
        >>> calls["direction"].unique().tolist()
        ['outbound']
        >>> int(calls.groupby("disposition", observed=True).size().sum()) <= len(calls)
        True
        >>> client.close()
    """

    cache: FrameCache

    def calls(self, *, campaign_id: str | Sequence[str] | None = None,
              direction: str | Sequence[str] | None = None,
              **options: Unpack[FrameOptions]) -> pd.DataFrame:
        """Every call of the account, newest first (schema: ``docs/frames.md#calls``)."""
        return self._list("calls", {"campaign_id": campaign_id, "direction": direction}, options)

    def leads(self, *, campaign_id: str | Sequence[str] | None = None,
              status: str | Sequence[str] | None = None, external_id: str | None = None,
              **options: Unpack[FrameOptions]) -> pd.DataFrame:
        """Every lead, newest first; ``custom_fields`` is one JSON-text column."""
        filters = {"campaign_id": campaign_id, "status": status, "external_id": external_id}
        return self._list("leads", filters, options)

    def campaigns(self, *, status: str | Sequence[str] | None = None,
                  **options: Unpack[FrameOptions]) -> pd.DataFrame:
        """Every campaign, archived ones excepted."""
        return self._list("campaigns", {"status": status}, options)

    def callbacks(self, campaign_id: str | Sequence[str], *,
                  status: str | Sequence[str] | None = None,
                  **options: Unpack[FrameOptions]) -> pd.DataFrame:
        """The callbacks of one campaign, or of several (one partition each)."""
        return self._list("callbacks", {"campaign_id": campaign_id, "status": status}, options)

    def appointments(self, *, status: str | Sequence[str] | None = None,
                     **options: Unpack[FrameOptions]) -> pd.DataFrame:
        """Every appointment."""
        return self._list("appointments", {"status": status}, options)

    def webhook_events(self, *, type: str | Sequence[str] | None = None,  # noqa: A002
                       **options: Unpack[FrameOptions]) -> pd.DataFrame:
        """Webhook events of the last 30 days; ``deliveries`` and ``data`` are JSON text."""
        return self._list("webhook_events", {"type": type}, options)

    def sms_reports(self, *, client_reference: str | None = None,
                    **options: Unpack[FrameOptions]) -> pd.DataFrame:
        """SMS delivery reports (the emulator's shape; unknown fields dropped)."""
        return self._list("sms_reports", {"client_reference": client_reference}, options)

    def dispositions(self, start: date | str, end: date | str, *,
                     campaign_id: str | None = None,
                     **options: Unpack[FrameOptions]) -> pd.DataFrame:
        """Disposition counts from ``start`` to ``end`` (inclusive), any length of range.

        The range is split into windows of at most 92 days, one request each;
        one row per window and disposition code, as the service answered.
        """
        return self._dispositions(start, end, campaign_id, options)

    def dnc(self, phones: Sequence[str] | pd.Series,
            **options: Unpack[FrameOptions]) -> pd.DataFrame:
        """Whether each distinct phone is on the DNC list: ``phone``, ``listed``, ``checked_at``,
        ``listed_at`` (since when, where the service says so).

        Results are cached per phone and reused up to ``max_age`` (default 24 h);
        ``refresh="full"`` checks every phone again.
        """
        return self._dnc(phones, options)

    @abstractmethod
    def _list(self, name: str, filters: Mapping[str, Any],
              options: FrameOptions) -> pd.DataFrame:
        """The list frame ``name`` with ``filters`` (a list of values: a partition each)."""

    @abstractmethod
    def _dispositions(self, start: date | str, end: date | str, campaign_id: str | None,
                      options: FrameOptions) -> pd.DataFrame:
        """The disposition counts of :meth:`dispositions`."""

    @abstractmethod
    def _dnc(self, phones: Sequence[str] | pd.Series, options: FrameOptions) -> pd.DataFrame:
        """The DNC answers of :meth:`dnc`."""
