"""The DNC frame: one row per distinct phone, checks cached per phone for ``max_age``."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

import pandas as pd

from .._shown._progress import Shown, bar
from .._utils import _tuning
from .._utils._base_error import CacheMissError
from ..client import OwnWrites
from ..contract import DNC_CHECK_BATCH
from ._cache import Cache
from ._schemas import DNC

if TYPE_CHECKING:
    from ..client import Client
    from ..contract import DncCheckResult


def checked_in_parts(client: Client, phones: list[str]) -> Iterator[list[DncCheckResult]]:
    """``client.dnc.check`` of ``phones``, :data:`~dialkit._utils._tuning.DNC_CHECKED_AT_ONCE`
    at a time: each part's answers let go before the next is asked (the client holds every
    answer it gives)."""
    at_once = _tuning.DNC_CHECKED_AT_ONCE
    for at in range(0, len(phones), at_once):
        yield client.dnc.check(phones[at:at + at_once])


def load_dnc(client: Client, cache: Cache, phones: list[str], *, refresh: str,
             max_age: timedelta, progress: Shown = None,
             written: Mapping[str, datetime] | None = None) -> pd.DataFrame:
    """``phone``, ``listed``, ``checked_at``, ``listed_at`` for each distinct phone, in
    first-seen order (``listed_at`` where the service says since when a number is listed,
    as the emulator does; else null).

    Phones checked within ``max_age`` come from the cache; the rest (every
    phone with ``refresh="full"``) are checked in batches of 100 and added to
    it. ``refresh="offline"`` raises :class:`CacheMissError` for a phone never
    checked.
    """
    wanted = list(dict.fromkeys(str(phone) for phone in phones))
    entry = cache.entry("dnc", {})
    with entry.locked():
        found = entry.read(DNC)
        known = found[0] if found is not None else DNC.empty()
        due = _due(known, wanted, refresh, max_age, written or {})
        if due and refresh == "offline":
            raise CacheMissError(f"{len(due)} phones were never checked, e.g. {due[0]}: check "
                                 "them online first")
        if due:
            checked_at = datetime.now(UTC).isoformat()
            with bar(progress if len(due) > DNC_CHECK_BATCH else None,
                     total=len(due), desc="checking DNC", unit=" numbers") as checking:
                fresh = [_checked(part, checked_at, checking.update)
                         for part in checked_in_parts(client, due)]
            known = pd.concat([*fresh, known], ignore_index=True).drop_duplicates("phone")
            entry.write(DNC.conform(known.reset_index(drop=True)))
    by_phone = known.set_index("phone", drop=False)
    return DNC.conform(by_phone.loc[wanted].reset_index(drop=True)) if wanted else DNC.empty()


def _checked(part: list[DncCheckResult], checked_at: str,
             count: Callable[[int], object]) -> pd.DataFrame:
    """One part's answers as DNC rows, ``count``-ed."""
    count(len(part))
    return DNC.frame({"phone": r.phone, "listed": r.listed, "checked_at": checked_at,
                      "listed_at": (r.model_extra or {}).get("listed_at")} for r in part)


def _due(known: pd.DataFrame, wanted: list[str], refresh: str, max_age: timedelta,
         written: Mapping[str, datetime]) -> list[str]:
    """The wanted phones to check now: never checked, checked too long ago (or, by a
    clock set back since, after now: no age can be vouched for), before a write made
    their answer stale (``written``), or all."""
    if refresh == "full":
        return wanted
    now = datetime.now(UTC)
    checked = known if refresh == "offline" else known[
        known["checked_at"].between(now - max_age, now)]
    if written and refresh != "offline":
        every = written.get(OwnWrites.EVERY_NUMBER)
        since = checked["phone"].map(written).astype("datetime64[us, UTC]")
        if every is not None:
            since = since.fillna(pd.Timestamp(every)).clip(lower=pd.Timestamp(every))
        checked = checked[~(checked["checked_at"] < since).to_numpy(bool)]
    seen = set(checked["phone"])
    return [phone for phone in wanted if phone not in seen]
