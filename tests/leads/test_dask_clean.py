"""``dialkit.leads.clean`` on Dask equals the pandas clean row for row (#25).

The benchmark's lead mix (national and international numbers, extensions, Excel floats,
two numbers in a cell, junk, a tenth of rows repeating an earlier one) in many partitions,
on a 2-worker ``LocalCluster``: the phones are normalised on the workers, and every
column of the result, its notes and counts equal the pandas clean's.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from dialkit.leads import clean

dd = pytest.importorskip("dask.dataframe")
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import leads_mix  # noqa: E402
from dask_helpers import local_cluster  # noqa: E402

ROWS = 60_000

pytestmark = pytest.mark.filterwarnings("ignore:The inplace keyword in DataFrame.reset_index")
"""Dask 2026.8 reads each Parquet part with ``reset_index(inplace=True)``, which pandas 3.1
deprecates; with worker processes the warning stays in the workers, in-process it comes here."""


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    with local_cluster(processes=False) as client:
        yield client


@pytest.fixture(scope="module")
def leads(tmp_path_factory: pytest.TempPathFactory) -> pd.DataFrame:
    path = tmp_path_factory.mktemp("mix") / "leads.csv"
    leads_mix.write_leads(ROWS, path)
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def _same(found: Any, expected: Any) -> None:
    pd.testing.assert_frame_equal(found.frame, expected.frame)
    assert (found.notes, found.sources, found.looks_like, found.skipped) == (
        expected.notes, expected.sources, expected.looks_like, expected.skipped)


def test_a_dask_frame_cleans_as_pandas(cluster: Any, leads: pd.DataFrame) -> None:
    options = {"region": "US", "blocked_countries": ["KP", "IR"]}
    expected = clean(leads, **options)
    found = clean(dd.from_pandas(leads, npartitions=9), **options)
    assert set(expected.counts) >= {"accepted", "duplicate", "invalid"}
    _same(found, expected)


def test_a_parquet_dataset_cleans_as_its_frame(cluster: Any, leads: pd.DataFrame,
                                               tmp_path: Path) -> None:
    leads.to_parquet(tmp_path / "leads.parquet", index=False, row_group_size=7_000)
    (tmp_path / "parts").mkdir()
    for part, at in enumerate(range(0, ROWS, 10_000)):
        leads.iloc[at:at + 10_000].to_parquet(tmp_path / "parts" / f"part-{part}.parquet",
                                             index=False)
    expected = clean(leads, region="GB")
    _same(clean(tmp_path / "parts", region="GB"), expected)
    _same(clean(str(tmp_path / "leads.parquet"), region="GB"), expected)
