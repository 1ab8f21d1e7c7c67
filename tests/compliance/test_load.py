"""``load`` names where each frame came from and when it was fetched: DNC results by
their oldest check, since they are cached number by number."""

from __future__ import annotations

from datetime import datetime, timedelta, tzinfo

import pandas as pd
import pytest

from dialkit import Client
from dialkit.compliance import load


class _TwoHoursAgo(datetime):
    """A clock two hours behind, for the DNC checks made before the audit's."""

    @classmethod
    def now(cls, tz: tzinfo | None = None) -> _TwoHoursAgo:
        earlier = datetime.now(tz) - timedelta(hours=2)
        return cls.fromtimestamp(earlier.timestamp(), tz)


def test_dnc_results_are_dated_by_their_oldest_check(client: Client,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    early = client.frames.leads()["phone"].dropna().head(5).tolist()
    with monkeypatch.context() as patch:
        patch.setattr("dialkit.frames._dnc.datetime", _TwoHoursAgo)
        client.frames.dnc(early)  # cached two hours ago; the rest are checked by load
    frames = load(client)
    checked = frames["dnc"].set_index("phone")["checked_at"]
    oldest = checked[early].max()
    assert oldest < checked.drop(early).min() - timedelta(hours=1)
    assert frames["dnc"].attrs["fetched_at"] == f"{oldest:%Y-%m-%d %H:%M UTC}"
    newest = client.cache.info().groupby("resource")["fetched_at"].max()
    assert frames["calls"].attrs["fetched_at"] == f"{newest['calls']:%Y-%m-%d %H:%M UTC}"
    assert pd.Timestamp(oldest) < pd.Timestamp(newest["dnc"]) - timedelta(hours=1)
