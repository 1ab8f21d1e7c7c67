"""The two frames that are not lists, against the emulator over real HTTP.

``dispositions(start, end)`` takes any range and asks the report once per
window of at most 92 days; ``dnc(phones)`` checks each distinct phone once,
in batches of 100, and keeps each answer for ``max_age``. Requests are counted
with a recording transport (a spy: every request reaches the emulator).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta

import pandas as pd
import pytest

from client._recording import RecordingTransport, recording
from dialkit import Client
from dialkit._utils import _tuning
from dialkit.errors import ApiError, InvalidArgumentError
from dialkit.frames import CacheMissError, _dnc
from dialkit.frames._reports import windows

from ._world import assert_schema, column

REPORTS = "/v1/reports/dispositions"
CHECKS = "/v1/dnc/check"


@pytest.fixture
def recorded(client_as: Callable[..., Client]) -> tuple[Client, RecordingTransport]:
    """The ``full`` client of the session emulator, its requests recorded."""
    return recording(client_as)


# --- windows -------------------------------------------------------------------------------


@pytest.mark.parametrize(("days", "count"), [(1, 1), (91, 1), (92, 1), (93, 2), (184, 2),
                                             (185, 3), (366, 4)])
def test_windows_cover_the_range_in_spans_of_at_most_92_days(days: int, count: int) -> None:
    start = date(2026, 2, 20)
    end = start + timedelta(days=days - 1)
    spans = windows(start, end)
    assert len(spans) == count
    assert spans[0][0] == start and spans[-1][1] == end
    for first, last in spans:
        assert first <= last and (last - first).days + 1 <= 92
    for (_, last), (first, _) in zip(spans, spans[1:], strict=False):
        assert first == last + timedelta(days=1)
    assert [(last - first).days + 1 for first, last in spans[:-1]] == [92] * (count - 1)


def test_windows_of_an_inverted_range_are_refused() -> None:
    with pytest.raises(ValueError, match="before"):
        windows(date(2026, 11, 2), date(2026, 11, 1))


# --- dispositions --------------------------------------------------------------------------


def _by_window(frame: pd.DataFrame) -> dict[tuple[date, date], list[tuple[str, int]]]:
    rows: dict[tuple[date, date], list[tuple[str, int]]] = {}
    codes = column(frame, "disposition_code", "s")
    counts = column(frame, "count", "i")
    for first, last, code, count in zip(column(frame, "from", "d"), column(frame, "to", "d"),
                                        codes, counts, strict=True):
        rows.setdefault((first, last), []).append((code, count))
    return rows


@pytest.mark.parametrize("campaign", [False, True], ids=["account", "campaign"])
def test_a_long_range_is_one_request_per_window_and_rows_are_the_answers(
        recorded: tuple[Client, RecordingTransport], client: Client, campaign: bool) -> None:
    dialkit, wire = recorded
    campaign_id = None
    if campaign:
        campaign_id = min(c.id for c in client.campaigns.list(status="running"))
    start, end = date(2026, 4, 24), date(2026, 11, 2)  # windows end 07-24, 10-24, 11-02
    spans = windows(start, end)
    assert len(spans) == 3
    frame = dialkit.frames.dispositions(start, end, campaign_id=campaign_id)
    assert len(wire.to(REPORTS)) == len(spans)
    asked = [(r.url.params["from"], r.url.params["to"]) for r in wire.requests]
    assert asked == [(a.isoformat(), b.isoformat()) for a, b in spans]
    assert_schema(frame, "dispositions")

    answers = {(a, b): client.reports.dispositions(from_=a, to=b, campaign_id=campaign_id)
               for a, b in spans}
    expected = {span: [(item["disposition_code"], item["count"]) for item in answer["data"]]
                for span, answer in answers.items() if answer["data"]}
    assert len(expected) == 2  # the seeded calls span the last two windows
    assert _by_window(frame) == expected
    assert set(column(frame, "campaign_id", "s")) == {campaign_id}
    assert all(answer["campaign_id"] == campaign_id for answer in answers.values())


def test_dispositions_take_iso_strings_and_are_cached(
        recorded: tuple[Client, RecordingTransport]) -> None:
    dialkit, wire = recorded
    frame = dialkit.frames.dispositions("2026-10-01", "2026-11-02")
    same = dialkit.frames.dispositions(date(2026, 10, 1), date(2026, 11, 2))
    assert len(wire.to(REPORTS)) == 1
    pd.testing.assert_frame_equal(same, frame)
    assert set(_by_window(frame)) == {(date(2026, 10, 1), date(2026, 11, 2))}
    dialkit.frames.dispositions("2026-10-01", "2026-11-02", refresh="full")
    dialkit.frames.dispositions("2026-10-01", "2026-11-02", max_age=0)
    assert len(wire.to(REPORTS)) == 3


@pytest.mark.parametrize(("start", "end"), [
    pytest.param(date(2026, 11, 2), date(2026, 11, 1), id="dates"),
    pytest.param("2026-11-02", "2026-05-01", id="strings"),
])
def test_an_inverted_range_is_refused_without_a_request(
        recorded: tuple[Client, RecordingTransport], start: date | str,
        end: date | str) -> None:
    dialkit, wire = recorded
    with pytest.raises(ValueError, match="before"):
        dialkit.frames.dispositions(start, end)
    assert wire.sent == []
    assert dialkit.cache.info().empty


def test_dispositions_offline_without_a_cache_is_a_miss(
        recorded: tuple[Client, RecordingTransport]) -> None:
    dialkit, wire = recorded
    with pytest.raises(CacheMissError):
        dialkit.frames.dispositions("2026-10-01", "2026-11-02", refresh="offline")
    assert wire.sent == []


# --- dnc -----------------------------------------------------------------------------------


def _fictional(count: int) -> list[str]:
    """``count`` distinct valid fictional numbers (NPA-555-0100..0199)."""
    numbers = [f"+1{area}5550{line}" for area in (212, 646, 718, 312) for line in range(100, 200)]
    assert count <= len(numbers)
    return numbers[:count]


def _listed_phones(client: Client, count: int) -> list[str]:
    """Phones of ``dnc`` leads: every one is on the account's DNC list."""
    phones = list(dict.fromkeys(lead.phone for lead in client.leads.list(status="dnc")))
    assert len(phones) >= count
    return phones[:count]


def _batches(wire: RecordingTransport) -> list[list[str]]:
    """The phones of each DNC check sent, in order."""
    return [json.loads(r.content)["phones"] for r in wire.requests if r.url.path == CHECKS]


def test_a_number_the_client_lists_is_checked_again_at_once(
        recorded: tuple[Client, RecordingTransport]) -> None:
    """``dnc.add`` of a number whose answer is cached makes that answer stale: the next
    load checks it again, and only it (issue 62)."""
    dialkit, wire = recorded
    phones = _fictional(3)
    assert not dialkit.frames.dnc(phones)["listed"].any()
    dialkit.dnc.add(phones[1])
    sent = len(_batches(wire))
    again = dialkit.frames.dnc(phones)
    assert _batches(wire)[sent:] == [[phones[1]]]
    assert column(again, "listed", "b") == [False, True, False]


def test_a_listing_write_that_names_no_number_makes_every_cached_check_stale(
        recorded: tuple[Client, RecordingTransport]) -> None:
    """A consent recorded with no ``phone`` (refused or not: the service may have acted)
    could revoke any number's: every cached check is asked again."""
    dialkit, wire = recorded
    phones = _fictional(3)
    dialkit.frames.dnc(phones)
    with pytest.raises(ApiError):
        dialkit.consents.create(channel="call", granted=False, method="verbal",
                                captured_at="2026-11-01T09:30:00Z")
    sent = len(_batches(wire))
    dialkit.frames.dnc(phones)
    assert _batches(wire)[sent:] == [phones]


def test_dnc_checks_where_nobody_watches_log_how_far_they_are(
        recorded: tuple[Client, RecordingTransport], monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """A month-end audit's checks of 300,000 numbers take 50 minutes at the API's limit:
    a script's log says how far they are and what is left (issue 62)."""
    monkeypatch.setattr(_tuning, "DNC_CHECKED_AT_ONCE", 100)
    monkeypatch.setattr(_tuning, "PROGRESS_LOG_SECONDS", 0)
    dialkit, _ = recorded
    def said() -> list[str]:
        return [r.getMessage() for r in caplog.records if r.name == "dialkit.progress"]

    with caplog.at_level(logging.INFO, logger="dialkit.progress"):
        dialkit.frames.dnc(_fictional(250))
        lines = said()
        dialkit.frames.dnc(_fictional(250))  # the cache's answers: nothing to say
    assert said() == lines
    assert any(line.startswith("checking DNC: 100 of 250 numbers (40.0%), ")
               and line.endswith(" left") for line in lines), lines
    assert re.fullmatch(r"checking DNC: 250 of 250 numbers \(100.0%\) in \d+ s(, .*/s)?",
                        lines[-1]), lines


@pytest.mark.parametrize(("at_once", "sizes"), [(10_000, [100, 100, 50]),
                                                 (150, [100, 50, 100])])
def test_dnc_checks_each_distinct_phone_once_in_batches_of_100(
        recorded: tuple[Client, RecordingTransport], client: Client, at_once: int,
        sizes: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """Answers are made rows ``DNC_CHECKED_AT_ONCE`` at a time: the batches, their order and
    the answers are the same however many that is."""
    monkeypatch.setattr(_tuning, "DNC_CHECKED_AT_ONCE", at_once)
    dialkit, wire = recorded
    listed = _listed_phones(client, 5)
    distinct = list(dict.fromkeys(listed + _fictional(250)))[:250]
    phones = distinct + distinct[::7] + listed  # repeats change nothing
    before = datetime.now(UTC)
    frame = dialkit.frames.dnc(phones)
    after = datetime.now(UTC)

    assert [len(batch) for batch in _batches(wire)] == sizes
    assert [phone for batch in _batches(wire) for phone in batch] == distinct
    assert_schema(frame, "dnc")
    assert column(frame, "phone", "s") == distinct
    truth = client.dnc.check(distinct)
    assert column(frame, "listed", "b") == [result.listed for result in truth]
    assert sum(column(frame, "listed", "b")) >= len(listed)
    checked = column(frame, "checked_at", "t")
    assert all(before <= moment <= after for moment in checked)


def test_dnc_keeps_first_seen_order_and_accepts_a_series(
        recorded: tuple[Client, RecordingTransport]) -> None:
    dialkit, wire = recorded
    a, b, c = _fictional(3)
    frame = dialkit.frames.dnc(pd.Series([c, a, c, b, a], index=[9, 8, 7, 6, 5]))
    assert column(frame, "phone", "s") == [c, a, b]
    assert _batches(wire) == [[c, a, b]]
    assert list(frame.index) == [0, 1, 2]


def test_dnc_reuses_checks_within_max_age(recorded: tuple[Client, RecordingTransport]) -> None:
    dialkit, wire = recorded
    phones = _fictional(120)
    first = dialkit.frames.dnc(phones)
    assert len(wire.to(CHECKS)) == 2
    again = dialkit.frames.dnc(phones)
    assert len(wire.to(CHECKS)) == 2
    pd.testing.assert_frame_equal(again, first)
    subset = dialkit.frames.dnc(phones[::-10])
    assert len(wire.to(CHECKS)) == 2
    pd.testing.assert_frame_equal(subset, first.iloc[::-10].reset_index(drop=True))
    new = _fictional(130)[125]
    mixed = dialkit.frames.dnc([phones[0], new, phones[1]])
    assert _batches(wire)[2:] == [[new]]
    assert column(mixed, "phone", "s") == [phones[0], new, phones[1]]
    assert column(mixed, "checked_at", "t")[0] == column(first, "checked_at", "t")[0]


@pytest.mark.parametrize("options", [
    pytest.param({"refresh": "full"}, id="full"),
    pytest.param({"max_age": 0}, id="max-age-0"),
    pytest.param({"max_age": timedelta(0)}, id="max-age-timedelta"),
])
def test_dnc_checks_again_when_asked(recorded: tuple[Client, RecordingTransport],
                                     client: Client, options: dict[str, object]) -> None:
    dialkit, wire = recorded
    phones = _fictional(3)
    first = dialkit.frames.dnc(phones)
    assert column(first, "listed", "b") == [False, False, False]
    client.dnc.add(phones[1])
    assert column(dialkit.frames.dnc(phones), "listed", "b") == [False, False, False]  # cached
    assert len(wire.to(CHECKS)) == 1
    fresh = dialkit.frames.dnc(phones, **options)
    assert _batches(wire)[1:] == [phones]
    assert column(fresh, "listed", "b") == [False, True, False]
    assert min(column(fresh, "checked_at", "t")) > max(column(first, "checked_at", "t"))
    kept = dialkit.frames.dnc(phones, refresh="offline")
    pd.testing.assert_frame_equal(kept, fresh)
    assert len(wire.to(CHECKS)) == 2


def test_dnc_checks_again_an_answer_dated_after_now(
        recorded: tuple[Client, RecordingTransport], monkeypatch: pytest.MonkeyPatch) -> None:
    """A clock set back (or a cache copied from a machine whose clock ran ahead) dates the
    cached answers in the future: not fresh, whatever ``max_age`` says."""
    dialkit, wire = recorded
    phones = _fictional(3)
    dialkit.frames.dnc(phones)

    class SetBack(datetime):
        @classmethod
        def now(cls, tz: object = None) -> datetime:  # type: ignore[override]
            return datetime.now(UTC) - timedelta(days=2)

    monkeypatch.setattr(_dnc, "datetime", SetBack)
    dialkit.frames.dnc(phones)
    assert _batches(wire)[1:] == [phones]


def test_dnc_offline_answers_from_the_cache_or_raises_a_miss(
        recorded: tuple[Client, RecordingTransport]) -> None:
    dialkit, wire = recorded
    known, unknown = _fictional(4)[:3], _fictional(4)[3]
    with pytest.raises(CacheMissError):
        dialkit.frames.dnc(known, refresh="offline")
    assert wire.sent == []
    checked = dialkit.frames.dnc(known)
    long_ago = dialkit.frames.dnc(known[::-1], refresh="offline", max_age=0)
    assert column(long_ago, "phone", "s") == known[::-1]
    pd.testing.assert_frame_equal(long_ago, checked.iloc[::-1].reset_index(drop=True))
    with pytest.raises(CacheMissError, match=r"\+"):
        dialkit.frames.dnc([*known, unknown], refresh="offline")
    assert len(wire.to(CHECKS)) == 1
    assert_schema(dialkit.frames.dnc([], refresh="offline"), "dnc")


def test_dnc_of_a_malformed_phone_is_refused_and_nothing_is_cached(
        recorded: tuple[Client, RecordingTransport]) -> None:
    dialkit, wire = recorded
    with pytest.raises(InvalidArgumentError, match=r"phones\[1\] .212 555 0100. is not E.164"):
        dialkit.frames.dnc([_fictional(1)[0], "212 555 0100"])
    assert wire.sent == []
    with pytest.raises(CacheMissError):
        dialkit.frames.dnc(_fictional(1), refresh="offline")
