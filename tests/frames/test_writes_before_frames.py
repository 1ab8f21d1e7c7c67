"""A client's own writes made before it first reads ``client.frames`` make the cached
frames stale too (issue 71, item 4), against the emulator over real HTTP.

``client.frames`` imports the frames on first use (docs/design.md), and the frames watched
only the writes sent after that: a new client that listed a number and renamed a lead,
then read its frames, got an earlier run's cache back (the number not listed, the old
name) until it aged out, a day for a DNC check. Two clients of one key share one cache,
as two runs of a notebook do.
"""

from __future__ import annotations

from client._recording import recording

from ._cache_helpers import LEADS, ClientAs, gets

PHONE = "+13125550177"
"""A fictional Chicago number on no list of the seeded world."""
RENAMED = "Renamed Before The Frames"
CHECKS = "/v1/dnc/check"


def earlier_run(client_as: ClientAs) -> tuple[str, str]:
    """An earlier run: the number's check and the leads cached, the client closed. The
    last lead's id and name."""
    with client_as("full") as earlier:
        assert earlier.frames.dnc([PHONE])["listed"].tolist() == [False]
        leads = earlier.frames.leads(progress=False)
    return str(leads["id"].iloc[-1]), str(leads["full_name"].iloc[-1])


def test_a_new_clients_writes_before_its_frames_are_read_are_seen_by_them(
        client_as: ClientAs) -> None:
    lead_id, name = earlier_run(client_as)
    assert name != RENAMED
    later, wire = recording(client_as)
    later.dnc.add(PHONE)
    later.leads.update(lead_id, full_name=RENAMED)
    assert later.frames.dnc([PHONE])["listed"].tolist() == [True]
    assert later.frames.leads(progress=False).set_index("id").at[lead_id, "full_name"] \
        == RENAMED
    assert len(wire.to(CHECKS, "POST")) == 1 and gets(wire, LEADS) > 0


def test_a_new_client_that_wrote_nothing_reads_the_earlier_runs_cache(
        client_as: ClientAs) -> None:
    """The other side: without a write of its own, the cache within its age is read as
    it was (no request), as before."""
    lead_id, name = earlier_run(client_as)
    later, wire = recording(client_as)
    assert later.frames.dnc([PHONE])["listed"].tolist() == [False]
    assert later.frames.leads(progress=False).set_index("id").at[lead_id, "full_name"] == name
    assert wire.sent == []
