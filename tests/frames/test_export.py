"""``dialkit.frames.export``: the cached frames as a Hive-partitioned Parquet dataset (#25).

Every partition read alone is a frame of the documented schema; the dataset read whole by
``pyarrow.dataset`` holds the frame's rows; a folder that is not an export is refused
with nothing written; an export that fails midway leaves no dataset behind.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pyarrow.dataset as ds
import pytest

from dialkit import Client
from dialkit.frames import SCHEMAS, Cache, CacheMissError, export


@pytest.fixture
def client(client_as: Callable[..., Client]) -> Client:
    return client_as("full")


def _parts(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.parquet"))


def test_each_partition_alone_holds_the_schema(client: Client, tmp_path: Path) -> None:
    path = export(client, tmp_path / "account")
    calls, leads = client.frames.calls(), client.frames.leads()
    for name, frame, key in (("calls", calls, "month"), ("leads", leads, "campaign")):
        files = _parts(path / name)
        assert files and all(file.parent.name.startswith(f"{key}=") for file in files)
        pieces = [pd.read_parquet(file) for file in files]
        for piece in pieces:
            assert piece.dtypes.to_dict() == SCHEMAS[name].dtypes
        whole = pd.concat(pieces, ignore_index=True)
        assert sorted(whole["id"]) == sorted(frame["id"])
    months = {file.parent.name for file in _parts(path / "calls")}
    assert months == {f"month={m}" for m in calls["created_at"].dt.strftime("%Y-%m")}


def test_the_dataset_read_whole_holds_every_row_and_its_partition(client: Client,
                                                                  tmp_path: Path) -> None:
    path = export(client, tmp_path / "account", partition_by="day")
    calls = client.frames.calls()
    table = ds.dataset(path / "calls", partitioning="hive").to_table()
    assert table.num_rows == len(calls)
    whole = table.to_pandas().sort_values("id", ignore_index=True)
    expected = calls.sort_values("id", ignore_index=True)
    assert (whole["day"] == expected["created_at"].dt.strftime("%Y-%m-%d")).all()
    pd.testing.assert_frame_equal(SCHEMAS["calls"].conform(whole), expected)
    leads = ds.dataset(path / "leads", partitioning="hive").to_table().to_pandas()
    assert (leads["campaign"].astype(str) == leads["campaign_id"].astype(str)).all()
    record = json.loads((path / "_dialkit_export.json").read_text())
    assert record["frames"]["calls"]["rows"] == len(calls)
    assert record["partition_by"] == "day"


def test_the_export_is_owner_only(client: Client, tmp_path: Path) -> None:
    path = export(client, tmp_path / "account")
    for item in [path, *path.rglob("*")]:
        mode = stat.S_IMODE(item.stat().st_mode)
        assert mode == (0o700 if item.is_dir() else 0o600), item


def test_an_export_from_the_cache_alone_fetches_nothing(client: Client,
                                                        tmp_path: Path) -> None:
    calls = client.frames.calls()
    outbound = client.frames.calls(direction="outbound")  # a second entry, rows in both
    client.close()
    path = export(client.cache, tmp_path / "account")
    assert not (path / "leads").exists()
    written = pd.read_parquet(path / "calls")
    assert sorted(written["id"]) == sorted(calls["id"])
    assert set(outbound["id"]) <= set(written["id"])


def test_an_empty_cache_says_what_to_load(tmp_path: Path) -> None:
    with pytest.raises(CacheMissError, match=r"client\.frames\.calls\(\)"):
        export(Cache(tmp_path / "cache", "nowhere", "cred_x"), tmp_path / "account")
    assert not (tmp_path / "account").exists()


def test_an_earlier_export_is_replaced_whole(client: Client, tmp_path: Path) -> None:
    path = export(client, tmp_path / "account", partition_by="day")
    export(client, path)
    assert {file.parent.name.split("=")[0] for file in _parts(path / "calls")} == {"month"}
    assert [p.name for p in tmp_path.iterdir()] == ["account"]  # no temporary left


@pytest.mark.parametrize("content", ["notes.txt", "_dialkit_export.json"])
def test_a_folder_that_is_not_an_export_is_refused(client: Client, tmp_path: Path,
                                                   content: str) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / content).write_text("{}" if content.endswith(".json") else "keep me")
    with pytest.raises(ValueError, match="is not a dialkit export.*nothing was written"):
        export(client, folder)
    assert [p.name for p in folder.iterdir()] == [content]
    assert [p.name for p in tmp_path.iterdir()] == ["mine"]


def test_a_file_is_refused(client: Client, tmp_path: Path) -> None:
    (tmp_path / "data").write_text("x")
    with pytest.raises(ValueError, match="is a file"):
        export(client, tmp_path / "data")


def test_a_wrong_partitioning_says_what_to_pass(client: Client, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="partition_by='week'.*'month', 'day'"):
        export(client, tmp_path / "account", partition_by="week")


def test_an_export_that_fails_midway_leaves_no_dataset(client: Client, tmp_path: Path) -> None:
    """A campaign id too long for a folder name stops the export after the calls were
    written: the earlier export is as it was, and no temporary folder is left."""
    earlier = export(client, tmp_path / "account")
    before = sorted(p.relative_to(earlier) for p in earlier.rglob("*"))
    broken = Cache(tmp_path / "cache", "broken", "cred_b")
    broken.entry("calls", {}).write(client.frames.calls())
    leads = client.frames.leads()
    leads.loc[0, "campaign_id"] = "cmp_" + "x" * 300
    broken.entry("leads", {}).write(leads)
    with pytest.raises(OSError, match="too long"):
        export(broken, earlier)
    assert sorted(p.relative_to(earlier) for p in earlier.rglob("*")) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["account", "cache"]


def test_what_a_killed_export_left_is_removed_by_the_next_and_a_running_ones_kept(
        client: Client, tmp_path: Path) -> None:
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    killed = tmp_path / f".account.{gone.stdout.strip()}.x1y2z3"  # its process has ended
    (killed / "calls").mkdir(parents=True)
    (killed / "calls" / "part-0.parquet").write_bytes(b"PAR1")
    running = tmp_path / f".account.{os.getppid()}.a1b2c3"  # a process that still runs
    running.mkdir()
    other = tmp_path / f".accounts.{gone.stdout.strip()}.q9"  # another export's name
    other.mkdir()
    export(client, tmp_path / "account")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["account", running.name, other.name])


@pytest.mark.parametrize("reader", ["duckdb", "polars"])
def test_duckdb_and_polars_read_the_dataset_as_it_is(client: Client, tmp_path: Path,
                                                     reader: str) -> None:
    module = pytest.importorskip(reader)
    path = export(client, tmp_path / "account")
    calls = client.frames.calls()
    files = str(path / "calls" / "*" / "*.parquet")
    if reader == "duckdb":
        found = module.sql(f"SELECT count(DISTINCT id), count(DISTINCT month), "
                           f"sum(duration_seconds) FROM read_parquet('{files}', "
                           "hive_partitioning = true)").fetchall()[0]
    else:
        col = module.col
        found = module.scan_parquet(files, hive_partitioning=True).select(
            col("id").n_unique(), col("month").n_unique(), col("duration_seconds").sum()
        ).collect().row(0)
    months = calls["created_at"].dt.strftime("%Y-%m").nunique()
    assert found[:2] == (len(calls), months)
    assert found[2] == pytest.approx(calls["duration_seconds"].sum())
