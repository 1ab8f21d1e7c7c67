"""``load`` names where each frame came from and when it was fetched: DNC results by
their oldest check, since they are cached number by number. And it reads no more than
the audit needs (issue 62): a number checked again only once its check is older than
its scrub period, the next day's leads only those created since."""

from __future__ import annotations

import math
from datetime import datetime, timedelta, tzinfo

import orjson
import pandas as pd
import phonenumbers
import pytest

from client._recording import recording
from dialkit import Client
from dialkit.compliance import load, upcoming
from frames._cache_helpers import ClientAs


def _clock_behind(by: timedelta) -> type[datetime]:
    """A clock ``by`` behind, for the DNC checks made before the audit's."""

    class Behind(datetime):
        @classmethod
        def now(cls, tz: tzinfo | None = None) -> Behind:
            earlier = datetime.now(tz) - by
            return cls.fromtimestamp(earlier.timestamp(), tz)

    return Behind


def _checked_ago(client: Client, phones: list[str], by: timedelta,
                 patch: pytest.MonkeyPatch) -> None:
    """``phones`` checked and cached ``by`` ago."""
    with patch.context() as behind:
        behind.setattr("dialkit.frames._dnc.datetime", _clock_behind(by))
        client.frames.dnc(phones)


def test_dnc_results_are_dated_by_their_oldest_check(client: Client,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    early = client.frames.leads()["phone"].dropna().head(5).tolist()
    _checked_ago(client, early, timedelta(hours=2), monkeypatch)  # the rest: by load
    frames = load(client)
    checked = frames["dnc"].set_index("phone")["checked_at"]
    oldest = checked[early].max()
    assert oldest < checked.drop(early).min() - timedelta(hours=1)
    assert frames["dnc"].attrs["fetched_at"] == f"{oldest:%Y-%m-%d %H:%M UTC}"
    newest = client.cache.info().groupby("resource")["fetched_at"].max()
    assert frames["calls"].attrs["fetched_at"] == f"{newest['calls']:%Y-%m-%d %H:%M UTC}"
    assert pd.Timestamp(oldest) < pd.Timestamp(newest["dnc"]) - timedelta(hours=1)


def _of(country: str, phones: pd.Series) -> list[str]:
    """The numbers of ``phones`` in ``country``, as libphonenumber places them."""
    return [p for p in phones if phonenumbers.region_code_for_number(
        phonenumbers.parse(p)) == country]


def test_a_number_is_checked_again_only_once_its_scrub_period_has_passed(
        client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    """47 CFR 64.1200(c)(2) asks a US list no older than 31 days; PECR reg. 21(3) a UK
    one no older than 28: a check younger than that is the cache's to answer."""
    phones = client.frames.leads()["phone"].dropna().drop_duplicates()
    us, gb = _of("US", phones)[:4], _of("GB", phones)[:4]
    assert len(us) == len(gb) == 4
    day = timedelta(days=1)
    _checked_ago(client, us[:2] + gb[:2], 27 * day, monkeypatch)  # within both periods
    _checked_ago(client, us[2:] + gb[2:], 30 * day, monkeypatch)  # within the US's only
    checked = load(client)["dnc"].set_index("phone")["checked_at"]
    now = pd.Timestamp.now(tz="UTC")
    assert (checked[us[:2] + gb[:2]] < now - 26 * day).all()
    assert (checked[us[2:]] < now - 29 * day).all()
    assert (checked[gb[2:]] > now - day).all()


def test_the_next_days_load_reads_only_the_leads_created_since(client_as: ClientAs) -> None:
    client, wire = recording(client_as)
    first = load(client)
    other = client_as("full")  # a lead added by another client: the web form, the CRM
    paused = next(other.campaigns.list(status="paused")).id
    added = other.leads.create(campaign_id=paused, phone="+442079460578").lead_id
    pages, checks = len(wire.to("/v1/leads", "GET")), len(wire.to("/v1/dnc/check", "POST"))
    assert pages > 1 and checks > 1
    _aged(client, "leads", timedelta(days=1))  # read whole yesterday
    yesterday = client.cache.info().set_index("resource").at["leads", "whole_at"]
    again = load(client)
    assert len(wire.to("/v1/leads", "GET")) == pages + 1
    assert set(again["leads"]["id"]) == {*first["leads"]["id"], added}
    assert len(wire.to("/v1/dnc/check", "POST")) == checks + 1  # the added lead's number
    assert again["leads"].attrs["fetched_at"].endswith(
        f"(those created since {yesterday:%Y-%m-%d %H:%M} UTC; the others as read then)")


def _aged(client: Client, resource: str, by: timedelta) -> None:
    """The cached ``resource`` frame as if fetched and read whole ``by`` earlier."""
    manifest = client.cache.entry(resource, {}).path / "manifest.json"
    facts = orjson.loads(manifest.read_bytes())
    manifest.write_bytes(orjson.dumps({**facts, **{
        name: (datetime.fromisoformat(facts[name]) - by).isoformat()
        for name in ("fetched_at", "whole_at")}}))


def test_upcoming_reads_the_leads_next_attempts_as_they_are_now(client_as: ClientAs) -> None:
    """The dialer moves the leads' next attempts every day: ``upcoming`` reads the leads
    as any frame reads them (whole once the cached ones are an hour old), not only those
    created since, as the audit's ``load`` may."""
    client, wire = recording(client_as)
    leads = load(client)["leads"]
    _aged(client, "leads", timedelta(hours=2))
    pages = len(wire.to("/v1/leads", "GET"))
    upcoming(client)
    assert len(wire.to("/v1/leads", "GET")) - pages == math.ceil(len(leads) / 100) > 1


def test_the_sources_date_the_leads_by_the_frames_this_load_read(client: Client) -> None:
    """A frame of the cache this load did not read (the new leads, read weeks ago for
    another notebook) dates nothing in the report's sources."""
    client.frames.leads(status="new")
    manifest = client.cache.entry("leads", {"status": "new"}).path / "manifest.json"
    facts = orjson.loads(manifest.read_bytes())
    weeks_ago = {name: (datetime.fromisoformat(facts[name]) - timedelta(days=20)).isoformat()
                 for name in ("fetched_at", "whole_at")}
    manifest.write_bytes(orjson.dumps({**facts, **weeks_ago}))
    loaded = load(client)
    read = client.cache.info().set_index("resource").loc["leads"]
    read = read[read["filters"].map(bool).eq(False)]
    assert loaded["leads"].attrs["fetched_at"] == f"{read['fetched_at'].iloc[0]:%Y-%m-%d %H:%M UTC}"


def test_a_campaigns_audit_is_dated_by_its_campaigns_frames(client: Client) -> None:
    """The same facts asked as a list of campaigns: each campaign's frame is read, and the
    sources date them."""
    campaigns = client.frames.leads()["campaign_id"].dropna().unique()[:2].tolist()
    loaded = load(client, campaign_id=campaigns)
    again = load(client, campaign_id=campaigns)
    assert set(loaded["leads"]["campaign_id"]) == set(campaigns)
    assert again["leads"].attrs["fetched_at"] == loaded["leads"].attrs["fetched_at"]
    assert "those created since" not in again["leads"].attrs["fetched_at"]
