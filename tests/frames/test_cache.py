"""The Parquet cache behind ``client.frames``, against the emulator over real HTTP.

Corrupt cache files, concurrent loads from threads and processes, and the
cache's layout: private permissions, no key material on disk, ``info()`` and
``clear()``, and one cache per key and service.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path

import orjson
import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

from client._recording import RecordingTransport, recording
from conftest import KEYS
from dialkit import Client
from dialkit.frames import CacheMissError
from dialkit.frames._cache import MARK
from dialkit.sandbox import Sandbox

from ._cache_helpers import (
    CALLS,
    INBOUND,
    LEADS,
    ClientAs,
    files_under,
    gets,
    interrupted,
    reference_calls,
)

# --- corrupt cache -----------------------------------------------------------------------------


def _truncate(entry: Path) -> None:
    data = entry / "data.parquet"
    data.write_bytes(data.read_bytes()[: data.stat().st_size // 2])


def _overwrite_middle(entry: Path) -> None:
    data = entry / "data.parquet"
    raw = bytearray(data.read_bytes())
    middle = len(raw) // 2
    raw[middle:middle + 64] = bytes(byte ^ 0xFF for byte in raw[middle:middle + 64])
    data.write_bytes(bytes(raw))


def _overwrite_footer(entry: Path) -> None:
    data = entry / "data.parquet"
    raw = bytearray(data.read_bytes())
    raw[-200:-8] = b"\x00" * 192
    data.write_bytes(bytes(raw))


def _delete(entry: Path) -> None:
    (entry / "data.parquet").unlink()


def _empty(entry: Path) -> None:
    (entry / "data.parquet").write_bytes(b"")


def _data_of_another_entry(entry: Path) -> None:
    """A valid calls file of other filters (no rows), the manifest left as it was."""
    other = next(p for p in entry.parent.glob("calls-*") if p != entry)
    (entry / "data.parquet").write_bytes((other / "data.parquet").read_bytes())


def _garbage_manifest(entry: Path) -> None:
    (entry / "manifest.json").write_bytes(b"\x00\xffnot json {")


def _manifest_of_another_format(entry: Path) -> None:
    (entry / "manifest.json").write_text('{"format": 999, "resource": "calls", "bytes": 1}')


def _delete_manifest(entry: Path) -> None:
    (entry / "manifest.json").unlink()


def _data_of_another_frame(entry: Path) -> None:
    """The campaigns frame's file in place of the calls frame's, its size in the manifest."""
    other = next(entry.parent.glob("campaigns-*/data.parquet")).read_bytes()
    (entry / "data.parquet").write_bytes(other)
    manifest = orjson.loads((entry / "manifest.json").read_bytes())
    (entry / "manifest.json").write_bytes(orjson.dumps({**manifest, "bytes": len(other)}))


CORRUPTIONS = [_truncate, _overwrite_middle, _overwrite_footer, _delete, _empty,
               _data_of_another_entry, _garbage_manifest, _manifest_of_another_format,
               _delete_manifest, _data_of_another_frame]


@pytest.mark.parametrize("corrupt", CORRUPTIONS, ids=[c.__name__[1:] for c in CORRUPTIONS])
def test_a_corrupt_cache_is_fetched_again_never_returned(
        client_as: ClientAs, corrupt: Callable[[Path], None]) -> None:
    client, wire = recording(client_as)
    draft = client.frames.campaigns(status="draft", progress=False)["id"].iloc[0]
    assert client.frames.calls(campaign_id=draft, progress=False).empty
    sent = gets(wire, CALLS)
    clean = client.frames.calls(**INBOUND, progress=False)
    pages = gets(wire, CALLS) - sent
    assert pages > 1
    corrupt(client.cache.entry("calls", INBOUND).path)

    with pytest.raises(CacheMissError):
        client.frames.calls(**INBOUND, refresh="offline")
    frame = client.frames.calls(**INBOUND, progress=False)
    assert gets(wire, CALLS) == sent + 2 * pages
    assert_frame_equal(frame, clean)
    assert_frame_equal(client.frames.calls(**INBOUND, refresh="offline"), clean)  # repaired
    assert gets(wire, CALLS) == sent + 2 * pages


def test_bytes_changed_anywhere_in_the_file_never_come_back_as_data(
        client_as: ClientAs) -> None:
    client, wire = recording(client_as)
    clean = client.frames.calls(**INBOUND, progress=False)
    data = client.cache.entry("calls", INBOUND).data_path
    original = data.read_bytes()
    sent = len(wire.sent)
    refused = 0
    for n in range(48):  # the same size, four bytes changed, at 48 places from head to footer
        at = 4 + (len(original) - 16) * n // 48
        data.write_bytes(original[:at] + bytes(b ^ 0x5A for b in original[at:at + 4])
                         + original[at + 4:])
        try:
            frame = client.frames.calls(**INBOUND, refresh="offline")
        except CacheMissError:
            refused += 1
        else:  # a change the reader does not depend on (statistics, padding) is harmless
            assert_frame_equal(frame, clean, obj=f"the frame read with bytes {at}-{at + 3} changed")
    assert refused >= 40
    assert len(wire.sent) == sent


# --- concurrent loads --------------------------------------------------------------------------


def test_threads_loading_one_frame_at_once_share_one_load(client_as: ClientAs,
                                                          tmp_path: Path) -> None:
    wire = RecordingTransport()
    clients = [client_as("full", transport=wire) for _ in range(4)]
    start = threading.Barrier(len(clients))

    def load(client: Client) -> pd.DataFrame:
        start.wait()
        return client.frames.calls(progress=False)

    with ThreadPoolExecutor(len(clients)) as pool:
        frames = list(pool.map(load, clients))
    clean, pages = reference_calls(client_as, tmp_path)
    for frame in frames:
        assert_frame_equal(frame, clean)
    assert gets(wire, CALLS) == pages  # one load; the others waited and read the cache
    entry = clients[0].cache.entry("calls", {}).path
    assert sorted(p.name for p in entry.iterdir()) in (
        [MARK, ".lock", "data.parquet", "manifest.json"], [MARK, "data.parquet", "manifest.json"])


SCRIPT = """
import sys
from dialkit import Client

with Client(rate_limit=None) as client:
    client.frames.calls(progress=False).to_pickle(sys.argv[1])
"""


def test_processes_loading_one_frame_at_once_get_the_same_frame(
        sandbox: Sandbox, client_as: ClientAs, tmp_path: Path) -> None:
    env = {**os.environ, "DIALKIT_API_KEY": KEYS["full"], "DIALKIT_BASE_URL": sandbox.base_url}
    outputs = [tmp_path / f"frame-{n}.pkl" for n in range(2)]
    running = [subprocess.Popen([sys.executable, "-c", SCRIPT, str(out)], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
               for out in outputs]
    for process in running:
        _, err = process.communicate(timeout=60)
        assert process.returncode == 0, err.decode()

    clean, _ = reference_calls(client_as, tmp_path)
    for out in outputs:
        assert_frame_equal(pd.read_pickle(out), clean)
    client, wire = recording(client_as)
    assert_frame_equal(client.frames.calls(refresh="offline"), clean)
    assert wire.sent == []
    entry = client.cache.entry("calls", {}).path
    leftovers = [p.name for p in entry.iterdir() if p.name not in (MARK, ".lock", "data.parquet",
                                                                   "manifest.json")]
    assert leftovers == []


# --- security and layout -----------------------------------------------------------------------


def test_every_cache_folder_and_file_is_private(sandbox: Sandbox, client_as: ClientAs,
                                                tmp_path: Path) -> None:
    made = tmp_path / "made"
    root = made / "deeper" / "cache"
    umask = os.umask(0)  # modes must be set by the cache, not inherited from a strict umask
    try:
        client = client_as("full", cache_dir=root)
        client.frames.calls(direction="inbound", progress=False)
        client.frames.campaigns(progress=False)
        interrupted(sandbox, client_as, 3, "drop", path=LEADS, cache_dir=root)
    finally:
        os.umask(umask)
    partial = client.cache.entry("leads", {}).path / "partial"
    assert len(list(partial.iterdir())) >= 3  # state and two pages are on disk too
    folders = [made, *(p for p in made.rglob("*") if p.is_dir())]
    assert {root, client.cache.path, partial} <= set(folders)
    for folder in folders:
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
    files = list(files_under(made))
    assert len(files) >= 7
    for file in files:
        assert stat.S_IMODE(file.stat().st_mode) == 0o600, file


@pytest.mark.parametrize("role", ["full", "full_live", "sending"])
def test_no_key_material_is_written_to_the_cache(client_as: ClientAs, sandbox: Sandbox,
                                                 role: str, tmp_path: Path) -> None:
    client = client_as(role, cache_dir=tmp_path / "cache")
    client.frames.campaigns(progress=False)
    client.frames.calls(direction="inbound", progress=False)
    interrupted(sandbox, client_as, 2, "drop", cache_dir=tmp_path / "cache")  # the full key
    files = list(files_under(tmp_path / "cache"))
    assert any(file.parent.name == "partial" for file in files)
    assert any(file.name == "manifest.json" for file in files)
    for key in (KEYS[role], KEYS["full"]):
        secret = key.rsplit("_", 1)[1]
        for file in files:
            content = file.read_bytes()
            for material in (key, secret, secret[:12], secret[-12:]):
                assert material.encode() not in content, (file, material[:4])
        assert secret not in str(client.cache.path) and secret not in repr(client.cache)


def test_info_lists_every_cached_frame_and_its_file_reads_back(client_as: ClientAs) -> None:
    client = client_as("full")
    assert client.cache.info().empty
    loaded_from = datetime.now(UTC)
    frames = {
        ("calls", '{"direction":"inbound"}'): client.frames.calls(direction="inbound",
                                                                  progress=False),
        ("leads", '{"status":"new"}'): client.frames.leads(status="new", progress=False),
        ("campaigns", "{}"): client.frames.campaigns(progress=False),
    }
    info = client.cache.info()
    assert list(info.columns) == ["resource", "filters", "rows", "bytes", "fetched_at",
                                   "whole_at", "path"]
    rows = {(row.resource, orjson.dumps(row.filters).decode()): row
            for row in info.itertuples(index=False)}
    assert set(rows) == set(frames)
    for key, frame in frames.items():
        row = rows[key]
        assert row.rows == len(frame)
        assert row.bytes == Path(row.path).stat().st_size
        assert loaded_from <= row.fetched_at <= datetime.now(UTC)
        assert Path(row.path).parent.parent == client.cache.path
        assert_frame_equal(pd.read_parquet(row.path), frame)


def test_clear_removes_only_the_named_resource(sandbox: Sandbox, client_as: ClientAs) -> None:
    client = client_as("full")
    campaigns = client.frames.campaigns(progress=False)
    client.frames.calls(direction="inbound", progress=False)
    client.frames.calls(campaign_id=campaigns["id"].iloc[0], progress=False)
    calls_folders = sorted(client.cache.path.glob("calls-*"))
    assert len(calls_folders) == 2

    assert client.cache.clear("calls") == 2
    assert list(client.cache.info()["resource"]) == ["campaigns"]
    assert not any(folder.exists() for folder in calls_folders)
    with pytest.raises(CacheMissError):
        client.frames.calls(direction="inbound", refresh="offline")
    assert_frame_equal(client.frames.campaigns(refresh="offline"), campaigns)
    assert client.cache.clear("calls") == 0
    assert client.cache.clear() == 1
    assert client.cache.info().empty


def test_clear_also_forgets_an_interrupted_load(sandbox: Sandbox, client_as: ClientAs,
                                                tmp_path: Path) -> None:
    broken = interrupted(sandbox, client_as, 3, "drop", filters=INBOUND)
    partial = broken.cache.entry("calls", INBOUND).path / "partial"
    assert partial.exists()
    broken.cache.clear("calls")
    assert not partial.exists()  # the saved pages hold personal data too

    again, wire = recording(client_as)
    frame = again.frames.calls(**INBOUND, progress=False)
    clean, pages = reference_calls(client_as, tmp_path, **INBOUND)
    assert gets(wire, CALLS) == pages  # started from the top, nothing resumed
    assert_frame_equal(frame, clean)


@pytest.mark.parametrize(("role", "base_url"), [
    ("other", None), ("full_live", None), ("sending", None), ("full", "http://127.0.0.1:9"),
], ids=["another-client", "live-key-of-the-client", "another-key-of-the-client",
        "another-service"])
def test_two_keys_or_services_never_share_an_entry(client_as: ClientAs, role: str,
                                                   base_url: str | None) -> None:
    first = client_as("full")
    first.frames.calls(**INBOUND, progress=False)
    first.frames.leads(progress=False)
    with ExitStack() as stack:
        second = client_as(role) if base_url is None else stack.enter_context(
            Client(KEYS[role], base_url=base_url, rate_limit=None, max_retries=0))
        assert_nothing_shared(first, second)


def assert_nothing_shared(first: Client, second: Client) -> None:
    """``second`` sees none of the entries ``first`` cached, and clearing its cache keeps them."""
    assert second.cache.path != first.cache.path
    assert second.cache.path.parent == first.cache.path.parent
    assert second.cache.info().empty
    with pytest.raises(CacheMissError):
        second.frames.calls(**INBOUND, refresh="offline")
    with pytest.raises(CacheMissError):
        second.frames.leads(refresh="offline")
    assert second.cache.clear() == 0
    assert len(first.cache.info()) == 2
