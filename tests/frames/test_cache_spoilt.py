"""A spoilt cache entry is fetched again, never raised and never served (issue 46, item 16).

docs/frames.md promises that a cache file that cannot be trusted is fetched again. Each
case here spoils one thing (the manifest's time, the footer's metadata, a column's
type) and checks that an offline read refuses the entry with :class:`CacheMissError`
(or, where the change is one the reader does not depend on, returns the very same
frame), and that a normal load fetches it again and returns what the service holds.
The spoilt files are either left as they are, as bit rot or a careless edit would, or
"vouched for": the manifest rewritten to the spoilt file's size and CRC-32, as a file
written by another tool or an older dialkit would be, so the reader's own checks are
what refuses it.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pandas.testing import assert_frame_equal

from client._recording import RecordingTransport, recording
from dialkit import Client
from dialkit.frames import CacheMissError

from ._cache_helpers import CALLS, INBOUND, ClientAs, gets

# --- the entry and ways to spoil it --------------------------------------------------------


def _manifest(entry: Path) -> dict[str, Any]:
    return dict(orjson.loads((entry / "manifest.json").read_bytes()))


def _set_manifest(entry: Path, **changes: Any) -> None:
    manifest = {**_manifest(entry), **changes}
    (entry / "manifest.json").write_bytes(orjson.dumps(
        {name: value for name, value in manifest.items() if value is not _DROP}))


_DROP = object()
"""A manifest change that removes the field."""


def _vouch(entry: Path) -> None:
    """Make the manifest describe the data file as it now is (its size and CRC-32)."""
    data = (entry / "data.parquet").read_bytes()
    _set_manifest(entry, bytes=len(data), crc32=zlib.crc32(data))


def _retyped(column: str, kind: pa.DataType) -> Callable[[Path], None]:
    """Rewrite the data file with ``column`` of Arrow type ``kind`` (the same values where
    they convert), its pandas metadata kept, and vouch for it."""
    def spoil(entry: Path) -> None:
        table = pq.read_table(entry / "data.parquet")
        at = table.schema.get_field_index(column)
        values = table.column(column)
        if pa.types.is_timestamp(kind):
            values = values.cast(kind)
        elif pa.types.is_integer(kind):  # a phone number read as a number: +1212... is 1212...
            values = pa.array([None if v is None else int(v) for v in values.to_pylist()], kind)
        else:
            values = pa.array([None if v is None else str(v) for v in values.to_pylist()], kind)
        table = table.set_column(at, pa.field(column, kind), values)
        pq.write_table(table, entry / "data.parquet")
        _vouch(entry)
    spoil.__name__ = f"_{column}_as_{kind}"
    return spoil


def _footer_text_changed(old: bytes, new: bytes, *, vouched: bool) -> Callable[[Path], None]:
    """Change one word of the footer's pandas metadata (one character of it)."""
    def spoil(entry: Path) -> None:
        data = (entry / "data.parquet").read_bytes()
        assert old in data
        (entry / "data.parquet").write_bytes(data.replace(old, new, 1))
        if vouched:
            _vouch(entry)
    spoil.__name__ = f"_footer_{old.decode()}_{'vouched' if vouched else 'left'}"
    return spoil


def _fetched_at(value: Any) -> Callable[[Path], None]:
    def spoil(entry: Path) -> None:
        _set_manifest(entry, fetched_at=value)
    spoil.__name__ = f"_fetched_at_{'missing' if value is _DROP else value}"
    return spoil


def _naive_fetched_at(entry: Path) -> None:
    _set_manifest(entry, fetched_at=datetime.now(UTC).replace(tzinfo=None).isoformat())


def _count_as_text(entry: Path) -> None:
    _set_manifest(entry, bytes=str(_manifest(entry)["bytes"]))


def _no_crc(entry: Path) -> None:
    _set_manifest(entry, crc32=_DROP)


REFUSED = [
    _fetched_at("yesterday"), _fetched_at(_DROP), _fetched_at(None), _fetched_at(20261101),
    _naive_fetched_at, _count_as_text, _no_crc,
    _footer_text_changed(b"pandas_type", b"pandas_typf", vouched=False),
    _footer_text_changed(b"created_at", b"created_au", vouched=True),  # the Parquet schema's
    _retyped("created_at", pa.timestamp("us")),  # naive: no instant
    _retyped("to_number", pa.int64()),  # same name, other type: +1212... lost its +
    _retyped("duration_seconds", pa.large_string()),
    _retyped("direction", pa.large_string()),  # text, not the closed set
]
"""Spoilt so that the entry cannot be trusted: refused, then fetched again."""


@pytest.fixture
def cached(client_as: ClientAs) -> tuple[Client, RecordingTransport, pd.DataFrame, Path]:
    """A client whose cache holds the inbound calls: (client, wire, the frame, the entry)."""
    client, wire = recording(client_as)
    clean = client.frames.calls(**INBOUND, progress=False)
    return client, wire, clean, client.cache.entry("calls", INBOUND).path


@pytest.mark.parametrize("spoil", REFUSED, ids=[s.__name__[1:] for s in REFUSED])
def test_a_spoilt_entry_is_fetched_again_not_raised(
        cached: tuple[Client, RecordingTransport, pd.DataFrame, Path],
        spoil: Callable[[Path], None]) -> None:
    client, wire, clean, entry = cached
    pages = gets(wire, CALLS)
    spoil(entry)
    spoilt = {path: path.read_bytes() for path in entry.glob("*.*")}

    assert_frame_equal(client.frames.calls(**INBOUND, progress=False), clean)
    assert gets(wire, CALLS) == 2 * pages  # fetched again, whole
    assert_frame_equal(client.frames.calls(**INBOUND, refresh="offline"), clean)  # repaired
    assert set(client.cache.info()["fetched_at"].notna()) == {True}
    for path, content in spoilt.items():
        path.write_bytes(content)
    with pytest.raises(CacheMissError):
        client.frames.calls(**INBOUND, refresh="offline")


def test_a_change_the_reader_does_not_rely_on_gives_the_same_frame(
        cached: tuple[Client, RecordingTransport, pd.DataFrame, Path]) -> None:
    """The pandas metadata is not read: one of its words changed (and vouched for) is
    no reason to refetch, and no reason to raise ``KeyError: 'pandas_type'``."""
    client, wire, clean, entry = cached
    sent = len(wire.sent)
    _footer_text_changed(b"pandas_type", b"pandas_typf", vouched=True)(entry)
    assert_frame_equal(client.frames.calls(**INBOUND, refresh="offline"), clean)
    assert len(wire.sent) == sent


@pytest.mark.parametrize("ahead", [timedelta(minutes=5), timedelta(days=400)])
def test_a_frame_fetched_in_the_future_is_not_fresh(
        cached: tuple[Client, RecordingTransport, pd.DataFrame, Path], ahead: timedelta) -> None:
    client, wire, clean, entry = cached
    sent = gets(wire, CALLS)
    _set_manifest(entry, fetched_at=(datetime.now(UTC) + ahead).isoformat())
    assert_frame_equal(client.frames.calls(**INBOUND, refresh="offline"), clean)  # still held
    assert gets(wire, CALLS) == sent

    assert_frame_equal(client.frames.calls(**INBOUND, progress=False), clean)
    assert gets(wire, CALLS) > sent  # refreshed, not taken as fresh
    assert datetime.fromisoformat(_manifest(entry)["fetched_at"]) <= datetime.now(UTC)


def test_cache_info_shows_a_spoilt_manifest_without_raising(
        cached: tuple[Client, RecordingTransport, pd.DataFrame, Path]) -> None:
    client, _, _, entry = cached
    _set_manifest(entry, fetched_at="yesterday", rows="many", bytes=-1, filters=[1])
    info = client.cache.info()
    assert len(info) == 1
    assert info["fetched_at"].isna().all() and info["rows"].isna().all()
    assert info["bytes"].isna().all() and info["filters"].iloc[0] == {}


# --- fuzz: one bit flipped anywhere --------------------------------------------------------


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=st.floats(0, 1, exclude_max=True), bit=st.integers(0, 7),
       vouched=st.booleans())
def test_one_bit_flipped_anywhere_never_raises_nor_changes_the_frame(
        cached: tuple[Client, RecordingTransport, pd.DataFrame, Path], where: float, bit: int,
        vouched: bool) -> None:
    """Any single bit of the data file flipped (with the manifest left as it was, or
    vouching for the flipped file): an offline read refuses the entry or returns the
    frame unchanged; it never raises anything else, and never sends a request."""
    client, wire, clean, entry = cached
    data = entry / "data.parquet"
    original = data.read_bytes()
    manifest = (entry / "manifest.json").read_bytes()
    at = int(where * len(original))
    sent = len(wire.sent)
    try:
        data.write_bytes(original[:at] + bytes([original[at] ^ (1 << bit)]) + original[at + 1:])
        if vouched:
            _vouch(entry)
        try:
            frame = client.frames.calls(**INBOUND, refresh="offline")
        except CacheMissError:
            pass
        else:
            assert_frame_equal(frame, clean, obj=f"the frame read with bit {bit} of byte {at} "
                               f"flipped{' (vouched)' if vouched else ''}")
    finally:
        data.write_bytes(original)
        (entry / "manifest.json").write_bytes(manifest)
    assert len(wire.sent) == sent
