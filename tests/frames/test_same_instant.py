"""Every lead of the newest cached instant is read by ``refresh="new"`` (issue 71, item 5).

The contract lists leads newest first and says no more; the emulator orders the leads of
one instant by id (``created_at`` then ``id``, descending), and an import draws its ids at
random. Another client's leads imported in the instant of the newest cached ones lie among
them, so a read that stopped at the first page holding a cached lead of that instant saw
some of them (51 to 55 of 150, at the month-end audit), and the report's sources said the
leads created since were read. The emulator's clock is manual here and stands still: every
import below is of one instant.
"""

from __future__ import annotations

from pathlib import Path

from client._recording import recording

from ._cache_helpers import LEADS, LONDON_LEADS, PAGE, ClientAs, gets


def test_every_lead_of_the_newest_cached_instant_is_read(client_as: ClientAs,
                                                         tmp_path: Path) -> None:
    client, wire = recording(client_as)
    other = client_as("full")  # another client's writes: this one's own make its cache stale
    paused = next(other.campaigns.list(status="paused")).id
    assert other.leads.import_batch(paused, LONDON_LEADS[:150]).summary.accepted == 150
    before = client.frames.leads(progress=False)
    instant = before["created_at"].max()
    assert (before["created_at"] == instant).sum() == 150

    assert other.leads.import_batch(paused, LONDON_LEADS[150:]).summary.accepted == 50
    sent = gets(wire, LEADS)
    after = client.frames.leads(refresh="new", progress=False)
    assert (after["created_at"] == instant).sum() == 200
    every = client_as("full", cache_dir=tmp_path / "whole").frames.leads(
        refresh="full", progress=False)
    assert set(after["id"]) == set(every["id"])
    # the 200 leads of the instant fill two pages; the third reaches older leads
    assert gets(wire, LEADS) - sent == 200 // PAGE + 1
