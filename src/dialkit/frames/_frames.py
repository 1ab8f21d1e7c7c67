"""``client.frames``: one call, and a typed DataFrame of the account's data.

The client declares the methods (:class:`dialkit.client.Frames`); :class:`CachedFrames`
loads what they ask, and the ``dialkit`` package makes one of it each client's frames.
Each frame is loaded from the cache while it is younger than ``max_age``,
else from the network: incrementally for lists whose records settle soon
after creation (calls, SMS reports, webhook events: fetch from the top until
records already cached, beyond an overlap window), in full for records that
can change at any time (leads, campaigns, callbacks, appointments). Every page
is kept on disk as it arrives, so an interrupted load resumes where it
stopped. A filter given as a list makes one partition per value, loaded in
parallel under the client's one rate limiter.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, Any

import pandas as pd
import pyarrow as pa

from .._shown._progress import Progress, Shown, shown
from .._utils import _tuning
from .._utils._base_error import InputError
from .._utils._moments import duration, iso_date
from ..client import REFRESH_CHOICES, FrameOptions, Frames, ListIterator, RawPage, Refresh
from ..contract import MAX_PAGE_LIMIT, ErrorCode
from ..errors import ApiError
from . import _schemas as schemas
from ._cache import Cache, Entry, lookup
from ._cache_files import written_time
from ._dnc import load_dnc
from ._reports import load_dispositions
from ._schemas import Schema

if TYPE_CHECKING:
    from ..client import Client

@dataclass(frozen=True, slots=True)
class Spec:
    """How one list frame is loaded.

    Attributes:
        schema: The frame's schema.
        lister: The client's list method for it.
        max_age: How long a cached frame is reused by ``refresh="auto"``.
        overlap: For an incremental refresh, how far before the newest cached
            record to fetch again (records may still change that long after
            creation); ``None`` for frames always refreshed in full.
        key: The column that identifies a record.
        renewed: For a list whose records change at any time (``overlap`` None),
            how long ``refresh="new"`` may read only the records created since the
            cached ones, keeping the cached rows as they were read, before it reads
            the list whole again; ``None``: ``"new"`` reads it whole, as
            ``"incremental"`` does.
    """

    schema: Schema
    lister: Callable[[Client], Callable[..., ListIterator[Any]]]
    max_age: timedelta
    overlap: timedelta | None
    key: str = "id"
    renewed: timedelta | None = None


_HOUR = timedelta(hours=1)
SPECS: Mapping[str, Spec] = {
    "calls": Spec(schemas.CALLS, lambda c: c.calls.list, _HOUR, timedelta(minutes=30)),
    "leads": Spec(schemas.LEADS, lambda c: c.leads.list, _HOUR, None,
                  renewed=timedelta(days=7)),
    "campaigns": Spec(schemas.CAMPAIGNS, lambda c: c.campaigns.list, _HOUR, None),
    "callbacks": Spec(schemas.CALLBACKS, lambda c: c.callbacks.list, _HOUR, None),
    "appointments": Spec(schemas.APPOINTMENTS, lambda c: c.appointments.list, _HOUR, None),
    "webhook_events": Spec(schemas.WEBHOOK_EVENTS, lambda c: c.webhook_events.list, _HOUR,
                           timedelta(hours=6)),
    "sms_reports": Spec(schemas.SMS_REPORTS, lambda c: c.sms.delivery_reports,
                        timedelta(minutes=15), timedelta(minutes=30), key="message_id"),
}
"""Every list frame; ``docs/frames.md`` explains each ``max_age`` and ``overlap``."""

class CachedFrames(Frames):
    """The frames of ``client.frames``, loaded from the client's pages and cached in
    ``cache``: what :class:`~dialkit.client.Frames` declares, done."""

    cache: Cache

    def __init__(self, client: Client, cache: Cache) -> None:
        self.client = client
        self.cache = cache

    def _dispositions(self, start: date | str, end: date | str, campaign_id: str | None,
                      options: FrameOptions) -> pd.DataFrame:
        refresh, max_age, _ = _options(options, _HOUR)
        return load_dispositions(self.client, self.cache, _day(start, "start"),
                                 _day(end, "end"), campaign_id, refresh=refresh,
                                 max_age=max_age)

    def _dnc(self, phones: Sequence[str] | pd.Series, options: FrameOptions) -> pd.DataFrame:
        refresh, max_age, progress = _options(options, timedelta(hours=24))
        written = self.client.own_writes.numbers()  # the client's own, since its start
        return load_dnc(self.client, self.cache, list(phones), refresh=refresh, max_age=max_age,
                        progress=progress, written=written)

    def _list(self, name: str, filters: Mapping[str, Any],
              options: FrameOptions) -> pd.DataFrame:
        spec = SPECS[name]
        refresh, max_age, progress = _options(options, spec.max_age)
        written = self.client.own_writes.to_list(name)  # the client's own, since its start
        return self._loaded(spec, filters, refresh, max_age, progress, written)

    def _loaded(self, spec: Spec, filters: Mapping[str, Any], refresh: Refresh,
                max_age: timedelta, progress: Shown, written: datetime | None) -> pd.DataFrame:
        """A list frame's partitions, each loaded from the cache or the service, joined."""
        parts = list(_partitions(filters))
        if not parts:  # a filter given as an empty list matches nothing
            return spec.schema.empty()

        def load(part: dict[str, Any]) -> pd.DataFrame:
            return _Load(self, spec, part, refresh, max_age, progress, written).run()

        if len(parts) == 1:
            return load(parts[0])
        with ThreadPoolExecutor(min(_tuning.REQUESTS_AT_ONCE, len(parts))) as pool:
            frames = list(pool.map(load, parts))
        return _newest_first(pd.concat(frames, ignore_index=True), spec)


def _options(options: FrameOptions,
             default_age: timedelta) -> tuple[Refresh, timedelta, Shown]:
    """``refresh``, ``max_age`` and ``progress`` from a frame method's options."""
    unknown = set(options) - {"refresh", "max_age", "progress"}
    if unknown:
        raise TypeError(f"unknown options {sorted(unknown)}: pass refresh=, max_age= or "
                        "progress=, and the list's own filters")
    refresh = options.get("refresh", "auto")
    if refresh not in REFRESH_CHOICES:
        raise InputError(f"refresh={refresh!r}: pass one of {', '.join(REFRESH_CHOICES)}")
    max_age = _age(options.get("max_age", default_age))
    progress = options.get("progress")
    return refresh, max_age, shown(None if progress is None else bool(progress))


def _age(value: object) -> timedelta:
    """``max_age``: a ``timedelta``, seconds as a number (``0``: always refresh), or text
    with its unit (``"1d"``, ``"12h"``); ``"30"``, which said no unit, is refused."""
    if isinstance(value, timedelta):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return timedelta(seconds=value)
    age: timedelta = duration(value, "max_age").to_pytimedelta()
    return age


def _partitions(filters: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """One filter set per combination of list-valued filters (repeated values once)."""
    names = list(filters)
    choices = [list(dict.fromkeys(v)) if isinstance(v, list | tuple | pd.Series) else [v]
               for v in filters.values()]
    for combination in itertools.product(*choices):
        yield dict(zip(names, combination, strict=True))


def _day(value: date | str, name: str) -> date:
    """A day of ``dispositions``: a ``date`` or ISO 8601 text (``2026-11-01``)."""
    if isinstance(value, date):
        return value
    try:
        return iso_date(value)
    except (TypeError, ValueError):
        raise InputError(f"{name}={value!r}: pass a day as '2026-11-01' or a "
                         "datetime.date") from None


def _newest_first(frame: pd.DataFrame, spec: Spec) -> pd.DataFrame:
    order = [c for c in ("created_at", spec.key) if c in frame.columns]
    return frame.sort_values(order, ascending=False, ignore_index=True, kind="stable")


@dataclass(slots=True)
class _Start:
    """Where a load starts: the pages already saved, the cursor after them, and when the
    load began (ISO 8601), which becomes the cached frame's ``fetched_at``."""

    pages: list[pa.Table]
    cursor: str | None
    started_at: str


class _Load:
    """One partition's load: from the cache, or resumed, incremental or full from the API."""

    def __init__(self, frames: CachedFrames, spec: Spec, filters: dict[str, Any], refresh: Refresh,
                 max_age: timedelta, progress: Shown, written: datetime | None) -> None:
        self.client = frames.client
        self.spec = spec
        self.filters = filters
        self.refresh = refresh
        self.max_age = max_age
        self.progress = progress
        self.written = written  # the client's own last write to the list
        self.entry: Entry = frames.cache.entry(spec.schema.name, filters)

    def run(self) -> pd.DataFrame:
        with self.entry.locked():
            ready, cached = lookup(self.entry, self.spec.schema, self.refresh, self.max_age,
                                   self.written)
            return ready if ready is not None else self._fetch(cached)

    def _fetch(self, cached: pd.DataFrame | None) -> pd.DataFrame:
        whole_at = self._whole_at()
        boundary = self._boundary(cached, whole_at)
        plan = {"boundary": None if boundary is None else boundary.isoformat()}
        start = self._resume(plan)
        try:
            fetched = self._walk(start, plan, boundary)
        except ApiError as error:
            if error.code != ErrorCode.INVALID_CURSOR:
                raise
            start = self._restart(plan)  # the saved cursor expired
            fetched = self._walk(start, plan, boundary)
        merged = fetched if boundary is None else self._merge(fetched, cached)
        self.entry.write(merged, fetched_at=start.started_at, whole_at=(
            start.started_at if boundary is None else whole_at and whole_at.isoformat()))
        self.entry.partial().clear()
        return merged

    def _whole_at(self) -> datetime | None:
        """When the cached frame was last read whole, where its manifest says."""
        manifest = self.entry.manifest()
        return None if manifest is None else written_time(manifest.get("whole_at"))

    def _boundary(self, cached: pd.DataFrame | None,
                  whole_at: datetime | None) -> datetime | None:
        """Where an incremental refresh may stop, or ``None`` for a full one: the newest
        cached record less the overlap, or for a list renewed (:attr:`Spec.renewed`)
        asked for its ``"new"`` records, the newest cached record while the last whole
        read is younger than the renewal."""
        if self.refresh == "full" or cached is None or cached.empty:
            return None
        newest: datetime = cached["created_at"].max().to_pydatetime()
        if self.spec.overlap is not None:
            return newest - self.spec.overlap
        renewed = self.spec.renewed
        if (self.refresh == "new" and renewed is not None and whole_at is not None
                and timedelta(0) <= datetime.now(UTC) - whole_at < renewed
                and (self.written is None or self.written < whole_at)):
            return newest
        return None

    def _resume(self, plan: Mapping[str, Any]) -> _Start:
        """The pages of an interrupted load of the same plan, and the cursor after them.

        A full refresh never resumes: it must return what the service holds
        now, not pages read before it was called. Other loads resume a load
        begun within the cache's resume window.
        """
        partial = self.entry.partial()
        state = None if self.refresh == "full" else partial.resumable(plan)
        if state is not None and state.get("cursor"):
            saved = partial.pages(self.spec.schema)
            if saved is not None:
                return _Start(saved, state["cursor"], state["started_at"])
        return self._restart(plan)

    def _restart(self, plan: Mapping[str, Any]) -> _Start:
        return _Start([], None, self.entry.partial().start(plan))

    def _walk(self, start: _Start, plan: Mapping[str, Any],
              boundary: datetime | None) -> pd.DataFrame:
        """Fetch pages from the start's cursor, keeping each on disk, until done: the
        list's end, or a page that reaches ``boundary`` (:func:`_reached`).

        Each page is kept as an Arrow table, and the pages become one frame at the
        end: a frame a page cost more than the requests on a local emulator.
        """
        pages, cursor = start.pages, start.cursor
        partial = self.entry.partial()
        with Progress(self.spec.schema.name, self.progress, resumed=len(pages)) as bar:
            for page in self._raw_pages(cursor):
                table = self.spec.schema.table(page.data)
                partial.add(len(pages), table, page.next_cursor, plan, start.started_at)
                pages.append(table)
                bar.page(table.num_rows, more=page.has_more)
                if boundary is not None and _reached(table, boundary):
                    break
        if not pages:
            return self.spec.schema.empty()
        return self.spec.schema.frame_of(pa.concat_tables(pages))

    def _raw_pages(self, cursor: str | None) -> Iterator[RawPage]:
        lister = self.spec.lister(self.client)
        return lister(**self.filters, limit=MAX_PAGE_LIMIT, cursor=cursor).raw_pages()

    def _merge(self, fresh: pd.DataFrame, cached: pd.DataFrame | None) -> pd.DataFrame:
        """Fetched records over cached ones, by key; newest first."""
        if cached is None:
            return fresh
        merged = pd.concat([fresh, cached], ignore_index=True)
        merged = merged.drop_duplicates(self.spec.key, keep="first")
        return self.spec.schema.conform(_newest_first(merged, self.spec))


def _reached(page: pa.Table, boundary: datetime) -> bool:
    """Whether a page (newest first) reaches records older than ``boundary``: every
    record of ``boundary``'s own instant is read. The contract orders a list
    newest first and no further; the emulator orders one instant's records by id, which
    an import draws at random, so the leads another client imported in the newest cached
    instant lie among the cached ones, and a read that stopped at the first cached one
    saw 51 to 55 of 150."""
    oldest = page["created_at"][-1].as_py() if page.num_rows else None
    return oldest is not None and oldest < boundary
