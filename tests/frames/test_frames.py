"""``client.frames`` against the emulator, over real HTTP: schemas, values, partitions,
progress and options of the nine frames.

Every frame keeps its documented columns and dtypes whatever its source (the
network, an empty result, the cache, ``refresh="offline"``), holds what the API
returned row for row, and a filter given as a list is one partition (one cache
entry) per value. ``dispositions`` and ``dnc`` have tests of their own in
``test_special_frames.py``; the cache's refresh modes are in ``test_cache.py``.
"""

from __future__ import annotations

import functools
import io
import logging
import math
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pandas as pd
import pytest

from client._recording import RecordingTransport, offline
from dialkit import Client, ListIterator
from dialkit._utils import _tuning
from dialkit.frames import SCHEMAS
from dialkit.sandbox import Sandbox
from receivers import Receiver

from ._world import (
    EASTERN,
    PAGE,
    UNREACHABLE,
    World,
    assert_matches_api,
    assert_schema,
    newest_first,
    raw_items,
)

Load = Callable[..., pd.DataFrame]


def _nothing(world: World) -> None:
    """No preparation."""


@dataclass(frozen=True)
class Case:
    """How a test loads one frame.

    Attributes:
        name: The frame.
        load: ``load(world, **options)``: the frame with rows.
        empty: ``empty(world, **options)``: the frame of a filter that matches nothing.
        listing: For list frames, the client's list of the same filters as ``load``.
        prepare: Creates the rows ``load`` needs beyond the seeded world.
        prepare_empty: Makes ``empty`` match nothing.
    """

    name: str
    load: Load
    empty: Load
    listing: Callable[[World], ListIterator[Any]] | None = None
    prepare: Callable[[World], None] = _nothing
    prepare_empty: Callable[[World], None] = _nothing


def _pause_running(world: World) -> None:
    for campaign in list(world.client.campaigns.list(status="running")):
        world.client.campaigns.pause(campaign.id)


def _cancel_scheduled(world: World) -> None:
    for appointment in list(world.client.appointments.list(status="scheduled")):
        world.client.appointments.cancel(appointment.id)


def _with_nulls(world: World) -> None:
    world.add_appointment()
    world.add_callback()


CASES = [
    Case("calls",
         lambda w, **o: w.client.frames.calls(campaign_id=w.busy, **o),
         lambda w, **o: w.client.frames.calls(campaign_id=w.idle, **o),
         lambda w: w.client.calls.list(campaign_id=w.busy)),
    Case("leads",
         lambda w, **o: w.client.frames.leads(**o),
         lambda w, **o: w.client.frames.leads(external_id="no-such-lead", **o),
         lambda w: w.client.leads.list()),
    Case("campaigns",
         lambda w, **o: w.client.frames.campaigns(**o),
         lambda w, **o: w.client.frames.campaigns(status="running", **o),
         lambda w: w.client.campaigns.list(),
         prepare_empty=_pause_running),
    Case("callbacks",
         lambda w, **o: w.client.frames.callbacks(w.busy, **o),
         lambda w, **o: w.client.frames.callbacks(w.idle, **o),
         lambda w: w.client.callbacks.list(w.busy),
         prepare=_with_nulls),
    Case("appointments",
         lambda w, **o: w.client.frames.appointments(**o),
         lambda w, **o: w.client.frames.appointments(status="scheduled", **o),
         lambda w: w.client.appointments.list(),
         prepare=_with_nulls, prepare_empty=_cancel_scheduled),
    Case("dispositions",
         lambda w, **o: w.client.frames.dispositions("2026-08-01", "2026-11-02", **o),
         lambda w, **o: w.client.frames.dispositions("2026-01-01", "2026-01-31", **o)),
    Case("dnc",
         lambda w, **o: w.client.frames.dnc([EASTERN, UNREACHABLE, EASTERN], **o),
         lambda w, **o: w.client.frames.dnc([], **o)),
    Case("webhook_events",
         lambda w, **o: w.client.frames.webhook_events(**o),
         lambda w, **o: w.client.frames.webhook_events(type="appointment.moved", **o),
         lambda w: w.client.webhook_events.list(),
         prepare=World.add_events),  # settled: deliveries change until their attempt
    Case("sms_reports",
         lambda w, **o: w.client.frames.sms_reports(**o),
         lambda w, **o: w.client.frames.sms_reports(**o),
         lambda w: w.client.sms.delivery_reports(),
         prepare=World.add_sms),
]
LISTS = [case for case in CASES if case.listing is not None]


def _ids(cases: list[Case]) -> list[str]:
    return [case.name for case in cases]


@pytest.fixture
def world(client_as: Callable[..., Client], sandbox: Sandbox,
          receiver: Receiver) -> World:
    """The seeded world through a recorded client (a fresh emulator state each test)."""
    return World(client_as, sandbox, receiver)


def test_the_cases_cover_every_frame() -> None:
    assert sorted(_ids(CASES)) == sorted(SCHEMAS)


# --- schemas -------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=_ids(CASES))
def test_every_source_gives_the_documented_schema(world: World, case: Case) -> None:
    case.prepare(world)
    loaded, sent = world.sent(lambda: case.load(world, progress=False))
    assert sent > 0 and len(loaded) > 0
    assert_schema(loaded, case.name)

    cached, sent = world.sent(lambda: case.load(world, refresh="auto", progress=False))
    assert sent == 0
    assert_schema(cached, case.name)
    pd.testing.assert_frame_equal(cached, loaded)

    offline, sent = world.sent(lambda: case.load(world, refresh="offline", progress=False))
    assert sent == 0
    assert_schema(offline, case.name)
    pd.testing.assert_frame_equal(offline, loaded)


@pytest.mark.parametrize("case", CASES, ids=_ids(CASES))
def test_an_empty_result_has_the_documented_schema(world: World, case: Case) -> None:
    case.prepare_empty(world)
    empty, sent = world.sent(lambda: case.empty(world, progress=False))
    assert empty.empty
    assert sent == (0 if case.name == "dnc" else 1)  # no phones: nothing to ask
    assert_schema(empty, case.name)
    for refresh in ("auto", "offline"):
        again, sent = world.sent(functools.partial(case.empty, world, refresh=refresh))
        assert sent == 0 and again.empty, refresh
        assert_schema(again, case.name)


def test_null_only_columns_keep_their_dtypes(world: World) -> None:
    world.add_sms()
    reports = world.client.frames.sms_reports(client_reference="ok-1")
    assert len(reports) == 1 and reports["error_code"].isna().all()
    assert_schema(reports, "sms_reports")
    cached = world.client.frames.sms_reports(client_reference="ok-1", refresh="offline")
    assert_schema(cached, "sms_reports")
    leads = world.client.frames.leads(campaign_id=world.busy)
    assert len(leads) > 0 and leads["external_id"].isna().all()  # no id given in the seed
    assert_schema(leads, "leads")


# --- values --------------------------------------------------------------------------------


@pytest.mark.parametrize("case", LISTS, ids=_ids(LISTS))
def test_a_list_frame_holds_what_the_api_returned(world: World, case: Case) -> None:
    assert case.listing is not None
    case.prepare(world)
    frame = case.load(world, progress=False)
    items = raw_items(case.listing(world).raw_pages())  # pages of 50, the frame's of 100
    assert items, "the case needs rows"
    assert_matches_api(frame, case.name, items)


def test_values_include_nulls_json_and_every_category(world: World) -> None:
    world.add_sms()
    world.add_events()
    reports = world.client.frames.sms_reports()
    assert set(zip(reports["to"], reports["status"], reports["error_code"].fillna("-"),
                   strict=True)) >= {(EASTERN, "delivered", "-"),
                                     (UNREACHABLE, "failed", "unreachable")}
    events = world.client.frames.webhook_events()
    assert {"webhook.test", "appointment.booked", "call.completed",
            "disposition.logged"} <= set(events["type"])
    assert not events["type"].isna().any() and not events["deliveries"].isna().any()
    assert {"[]"} < set(events["deliveries"])  # some events have no delivery, others one
    leads = world.client.frames.leads()
    assert set(leads["status"]) == {"new", "contacted", "callback", "dnc", "completed"}
    assert leads["custom_fields"].isna().any() and leads["custom_fields"].notna().any()
    assert leads["next_attempt_at"].isna().any() and leads["attempts"].notna().all()


def test_an_incremental_and_a_full_refresh_give_the_same_values(world: World) -> None:
    case = CASES[0]
    first = case.load(world, progress=False)
    for refresh in ("incremental", "full"):
        again = case.load(world, refresh=refresh, progress=False)
        pd.testing.assert_frame_equal(again, first)
    assert_matches_api(first, "calls", raw_items(world.client.calls.list(
        campaign_id=world.busy).raw_pages()))


# --- partitions ----------------------------------------------------------------------------


def _cache_filters(client: Client, resource: str) -> list[dict[str, Any]]:
    info = client.cache.info()
    return sorted((f for f in info.loc[info["resource"] == resource, "filters"]),
                  key=lambda f: sorted(f.items()))


def test_a_list_filter_is_one_partition_per_value(world: World) -> None:
    a, b = world.busy, world.other
    both, sent = world.sent(lambda: world.client.frames.calls(campaign_id=[a, b],
                                                              progress=False))
    first = world.client.frames.calls(campaign_id=a, refresh="full", progress=False)
    second = world.client.frames.calls(campaign_id=b, refresh="full", progress=False)
    assert len(first) > PAGE and len(second) > PAGE
    assert sent == math.ceil(len(first) / PAGE) + math.ceil(len(second) / PAGE)
    assert_schema(both, "calls")
    assert newest_first(both)
    expected = pd.concat([first, second], ignore_index=True).sort_values(
        ["created_at", "id"], ascending=False, ignore_index=True)
    pd.testing.assert_frame_equal(both, expected)
    assert _cache_filters(world.client, "calls") == sorted(
        [{"campaign_id": a}, {"campaign_id": b}], key=lambda f: sorted(f.items()))
    info = world.client.cache.info().set_index("resource")
    assert sorted(info.loc["calls", "rows"]) == sorted([len(first), len(second)])


def test_a_partition_already_cached_is_not_fetched_again(world: World) -> None:
    world.client.frames.callbacks(world.busy)
    world.wire.requests.clear()
    both = world.client.frames.callbacks([world.busy, world.other])
    asked = {request.url.params["campaign_id"] for request in world.wire.requests}
    assert asked == {world.other}
    assert set(both["campaign_id"]) == {world.busy, world.other}
    again, sent = world.sent(lambda: world.client.frames.callbacks([world.other, world.busy]))
    assert sent == 0
    pd.testing.assert_frame_equal(again, both)


def test_direction_partitions_cover_every_call(world: World) -> None:
    every = world.client.frames.calls(progress=False)
    split = world.client.frames.calls(direction=["inbound", "outbound"], progress=False)
    assert len(split) == len(every) and split["id"].is_unique
    assert set(split["id"]) == set(every["id"])
    assert newest_first(split) and newest_first(every)
    assert set(split["direction"]) == {"inbound", "outbound"}
    assert _cache_filters(world.client, "calls") == [
        {}, {"direction": "inbound"}, {"direction": "outbound"}]


def test_two_list_filters_make_one_partition_per_combination(world: World) -> None:
    frame = world.client.frames.leads(campaign_id=[world.busy, world.other],
                                      status=("new", "contacted"), progress=False)
    assert_schema(frame, "leads")
    assert len(_cache_filters(world.client, "leads")) == 4
    expected = {lead.id for campaign in (world.busy, world.other)
                for status in ("new", "contacted")
                for lead in world.client.leads.list(campaign_id=campaign, status=status)}
    assert expected and set(frame["id"]) == expected and frame["id"].is_unique
    assert newest_first(frame)


def test_partitions_with_and_without_rows_keep_the_schema(world: World) -> None:
    mixed = world.client.frames.callbacks([world.busy, world.idle])
    alone = world.client.frames.callbacks(world.busy, refresh="full")
    assert_schema(mixed, "callbacks")
    pd.testing.assert_frame_equal(mixed, alone)
    nothing = world.client.frames.callbacks(pd.Series([world.idle, world.idle]))
    assert nothing.empty
    assert_schema(nothing, "callbacks")


def test_repeated_values_in_a_list_filter_are_one_partition(world: World) -> None:
    once = world.client.frames.callbacks(world.busy)
    twice, sent = world.sent(lambda: world.client.frames.callbacks([world.busy, world.busy]))
    assert sent == 0 and twice["id"].is_unique
    pd.testing.assert_frame_equal(twice, once)


@pytest.mark.parametrize("frame", ["calls", "callbacks"])
def test_an_empty_list_filter_matches_nothing(world: World, frame: str) -> None:
    load: Callable[..., pd.DataFrame] = getattr(world.client.frames, frame)
    empty, sent = world.sent(lambda: load(campaign_id=[]))
    assert sent == 0 and empty.empty
    assert_schema(empty, frame)


# --- progress ------------------------------------------------------------------------------


def _busy_calls(world: World, **options: Any) -> pd.DataFrame:
    return world.client.frames.calls(campaign_id=world.busy, **options)


def test_a_multi_page_load_shows_pages_and_rows(world: World,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    frame = _busy_calls(world, progress=True)
    pages = math.ceil(len(frame) / PAGE)
    assert pages > 1
    out, err = capsys.readouterr()
    assert out == ""
    assert "loading calls" in err
    final = err.split("\r")[-1]
    assert f"{pages} pages" in final and f"rows={len(frame)}" in final


@pytest.mark.parametrize("load", [
    pytest.param(lambda w: _busy_calls(w, progress=False), id="progress-off"),
    pytest.param(lambda w: w.client.frames.campaigns(progress=True), id="one-page"),
    pytest.param(lambda w: w.client.frames.campaigns(), id="one-page-default"),
])
def test_no_bar_when_off_or_one_page(world: World, capsys: pytest.CaptureFixture[str],
                                     load: Callable[[World], pd.DataFrame]) -> None:
    frame, sent = world.sent(lambda: load(world))
    assert sent >= 1 and len(frame) > 0
    assert capsys.readouterr() == ("", "")


class Terminal(io.StringIO):
    """Standard error as a terminal shows it."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("terminal", [False, True], ids=["script", "terminal"])
def test_by_default_a_bar_shows_only_where_someone_watches(
        world: World, monkeypatch: pytest.MonkeyPatch, terminal: bool) -> None:
    stderr = Terminal() if terminal else io.StringIO()
    monkeypatch.setattr(sys, "stderr", stderr)
    frame = _busy_calls(world)
    assert len(frame) > PAGE
    assert ("loading calls" in stderr.getvalue()) is terminal


def test_where_nobody_watches_a_load_logs_its_pages_and_rows(
        world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A script's load (standard error no terminal) logs lines on ``dialkit.progress``
    (issue 62), a line a page here (the interval set to 0), the last at its end."""
    monkeypatch.setattr(_tuning, "PROGRESS_LOG_SECONDS", 0)
    with caplog.at_level(logging.INFO, logger="dialkit.progress"):
        frame = _busy_calls(world)
    lines = [r.getMessage() for r in caplog.records if r.name == "dialkit.progress"]
    pages = math.ceil(len(frame) / PAGE)
    assert re.fullmatch(rf"loaded calls: {pages} pages, {len(frame):,} rows in \d+ s, "
                        r"[\d,.]+/s", lines[-1]), lines
    assert any(line.startswith("loading calls: 2 pages, ") for line in lines)
    assert capsys.readouterr().err == ""  # nothing drawn


@pytest.mark.parametrize(("setting", "shown"), [("0", False), (" 0 ", False), ("1", True),
                                                 ("", True)])
def test_dialkit_progress_0_turns_the_default_bar_off(
        world: World, monkeypatch: pytest.MonkeyPatch, setting: str, shown: bool) -> None:
    stderr = Terminal()
    monkeypatch.setattr(sys, "stderr", stderr)
    monkeypatch.setenv("DIALKIT_PROGRESS", setting)
    assert len(_busy_calls(world, refresh="full")) > PAGE
    assert ("loading calls" in stderr.getvalue()) is shown
    _busy_calls(world, refresh="full", progress=True)  # asked for, it shows all the same
    assert "loading calls" in stderr.getvalue()


def test_a_load_from_the_cache_shows_no_bar(world: World,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    _busy_calls(world, progress=False)
    _busy_calls(world, progress=True)
    assert capsys.readouterr() == ("", "")


# --- options -------------------------------------------------------------------------------


BAD_OPTIONS = [
    pytest.param({"colour": "red"}, TypeError, "colour", id="unknown-option"),
    pytest.param({"limit": 10}, TypeError, "limit", id="list-option"),
    pytest.param({"refresh": "sometimes"}, ValueError, "sometimes", id="bad-refresh"),
    pytest.param({"refresh": None}, ValueError, "None", id="refresh-none"),
    pytest.param({"max_age": "an hour"}, ValueError, "an hour", id="bad-max-age"),
]


@dataclass
class Nowhere:
    """Stands in for a :class:`World` whose client reaches nothing: any request would fail."""

    client: Client
    wire: RecordingTransport
    busy: str = "cmp_00000000-0000-4000-8000-000000000001"
    other: str = "cmp_00000000-0000-4000-8000-000000000002"
    idle: str = "cmp_00000000-0000-4000-8000-000000000003"


@pytest.fixture
def nowhere() -> Iterator[Nowhere]:
    """A client of an address where nothing listens, its requests recorded."""
    wire = RecordingTransport()
    with offline(wire) as client:
        yield Nowhere(client, wire)


@pytest.mark.parametrize("case", CASES, ids=_ids(CASES))
@pytest.mark.parametrize(("options", "error", "named"), BAD_OPTIONS)
def test_bad_options_are_refused_before_any_request(
        nowhere: Nowhere, case: Case, options: dict[str, Any], error: type[Exception],
        named: str) -> None:
    with pytest.raises(error, match=named):
        case.load(nowhere, **options)
    assert nowhere.wire.sent == []
    assert nowhere.client.cache.info().empty


def test_client_frames_is_what_the_client_declares_and_the_frames_layer_loads(
        client: Client) -> None:
    """The client declares ``client.frames`` (``dialkit.client.Frames``, exported by
    ``dialkit.frames`` too) and the ``dialkit`` package wires the frames layer's loader in:
    one object per client, its cache the client's, every declared method loading."""
    import dialkit.client
    import dialkit.frames

    frames = client.frames
    assert dialkit.frames.Frames is dialkit.client.Frames
    assert isinstance(frames, dialkit.frames.CachedFrames)
    assert client.frames is frames and client.cache is frames.cache
    assert isinstance(frames.cache, dialkit.frames.Cache)
    assert len(frames.campaigns()) == len(list(client.campaigns.list()))
    with pytest.raises(TypeError, match="abstract"):
        dialkit.frames.Frames()  # type: ignore[abstract]
