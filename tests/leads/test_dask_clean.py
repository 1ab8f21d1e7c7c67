"""``dialkit.leads.clean`` on Dask judges every partition on the workers and equals the
pandas clean row for row (#25, #40).

The benchmark's lead mix (national and international numbers, extensions, Excel floats,
two numbers in a cell, junk, a tenth of rows repeating an earlier one's phone) in many
partitions, on a 2-worker ``LocalCluster``; and the mix with external ids repeating too,
across partitions, and some first rows refused by a later check, so that a row's fate
hangs on others' through either key. The lazy result's rows, summary, counts and notes
equal the pandas clean's, and the client receives counts, not rows.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import dask
import numpy as np
import pandas as pd
import pytest

from dialkit.leads import CleanedDataset, clean, clean_dataset

dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import leads_mix  # noqa: E402
from dask_helpers import local_cluster  # noqa: E402

ROWS = 12_000
"""Rows enough for every kind of cell of the mix, and for hundreds of repeats across
partitions by phone and by id (in 9 partitions, 958 rows repeat a row partitions before).
60,000 rows took the module 76 CPU s against 54, on the same paths: the rest is the
clean's cost per partition, paid on each pass (counted, then computed)."""
PARTS = 3
"""Partitions where a test needs only a few, each with a neighbour before and after: a
run's cost grows with its partitions (9 of them took twice the time of 3 for the same
rows), and the walk across many is held on 9 below."""

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


@pytest.fixture(scope="module")
def both_repeat(leads: pd.DataFrame) -> pd.DataFrame:
    """The mix with every 23rd row from 2,000 on taking the id of a row 1,800 to 1,810
    rows before it (in another partition), and every 41st row's email refused."""
    frame = leads.copy()
    later = frame.index[(frame.index >= 2_000) & (frame.index % 23 == 0)]
    frame.loc[later, "Lead ID"] = frame.loc[later - 1_800 - later % 11, "Lead ID"].to_numpy()
    frame.loc[frame.index % 41 == 0, "Email"] = "not an email"
    return frame


def _same(found: CleanedDataset, expected: Any) -> None:
    assert dask.is_dask_collection(found.frame)
    computed = found.compute()
    pd.testing.assert_frame_equal(computed.frame, expected.frame)
    pd.testing.assert_frame_equal(found.summary, expected.summary)
    assert (found.rows, found.counts, found.notes, found.skipped) == (
        len(expected.frame), expected.counts, expected.notes, expected.skipped)
    assert (computed.notes, computed.sources, computed.looks_like, computed.skipped) == (
        expected.notes, expected.sources, expected.looks_like, expected.skipped)


def test_a_dask_frame_cleans_as_pandas(cluster: Any, leads: pd.DataFrame) -> None:
    options = {"region": "US", "blocked_countries": ["KP", "IR"]}
    expected = clean(leads, **options)
    found = clean_dataset(dd.from_pandas(leads, npartitions=PARTS), **options)
    assert set(expected.counts) >= {"accepted", "duplicate", "invalid"}
    _same(found, expected)


def test_country_cells_not_understood_are_noted_as_pandas_notes_them(
        cluster: Any, leads: pd.DataFrame) -> None:
    """Each partition counts the cells it could not read; the note sums them across
    partitions, commonest first, as the pandas clean's does (issue 70)."""
    frame = leads.copy()
    frame.loc[frame.index % 97 == 0, "Country"] = "Atlantis"
    frame.loc[frame.index % 389 == 5, "Country"] = "N.A."
    expected = clean(frame, country_column="Country")
    found = clean_dataset(dd.from_pandas(frame, npartitions=PARTS),
                          country_column="Country")
    note = next(n for n in expected.notes if "names no country" in n)
    assert "'Atlantis' (124 rows), 'N.A.' (31 rows)" in note
    _same(found, expected)


def test_rows_are_numbered_by_place_across_partitions_an_empty_one_too(
        cluster: Any, both_repeat: pd.DataFrame) -> None:
    source = dd.from_pandas(both_repeat.iloc[:6_000], npartitions=3)  # 2,000 rows each
    kept = source.map_partitions(  # the second partition left empty
        lambda part: part[(part.index < 1_000) | (part.index >= 4_000)])
    assert kept.map_partitions(len).compute().tolist() == [1_000, 0, 2_000]
    expected = clean(both_repeat.iloc[np.r_[:1_000, 4_000:6_000]].reset_index(drop=True))
    _same(clean_dataset(kept), expected)


def test_phones_and_ids_repeating_across_partitions_are_walked_as_pandas(
        cluster: Any, both_repeat: pd.DataFrame) -> None:
    expected = clean(both_repeat, region="US")
    hints = expected.frame["hint"].dropna()
    said = hints.str.extract(r"^duplicate of row (\d+)", expand=False).dropna().astype(int)
    rows = expected.frame.loc[said.index, "row"]
    assert ((rows - said) > ROWS // 9).sum() > 200  # repeats of rows partitions before
    by_id = expected.frame.loc[said.index, "Lead ID"].to_numpy() == expected.frame.set_index(
        "row").loc[said.to_numpy(), "Lead ID"].to_numpy()
    assert by_id.sum() > 200 and (~by_id).sum() > 200  # by id, and by phone
    _same(clean_dataset(dd.from_pandas(both_repeat, npartitions=9), region="US"), expected)


def test_a_parquet_dataset_cleans_as_its_frame(cluster: Any, both_repeat: pd.DataFrame,
                                               tmp_path: Path) -> None:
    both_repeat.to_parquet(tmp_path / "leads.parquet", index=False, row_group_size=1_400)
    (tmp_path / "parts").mkdir()
    for part, at in enumerate(range(0, ROWS, ROWS // PARTS)):
        both_repeat.iloc[at:at + ROWS // PARTS].to_parquet(
            tmp_path / "parts" / f"part-{part}.parquet", index=False)
    expected = clean(both_repeat, region="GB")
    _same(clean_dataset(tmp_path / "parts", region="GB"), expected)
    _same(clean_dataset(str(tmp_path / "leads.parquet"), region="GB"), expected)


def test_out_writes_the_partitions_from_the_workers(cluster: Any, leads: pd.DataFrame,
                                                    tmp_path: Path) -> None:
    expected = clean(leads, region="US")
    source = dd.from_pandas(leads, npartitions=PARTS)
    clean_dataset(source.partitions[:2], region="US", out=tmp_path / "cleaned")  # replaced below
    found = clean_dataset(source, region="US", out=tmp_path / "cleaned",
                  rejects=tmp_path / "rejected.parquet")
    assert (found.out, found.rejects) == (tmp_path / "cleaned", tmp_path / "rejected.parquet")
    assert repr(found).startswith("<CleanedDataset DataFrame: 12,000 rows: accepted ")
    written = pd.read_parquet(tmp_path / "cleaned")
    assert len(list((tmp_path / "cleaned").glob("*.parquet"))) == PARTS
    assert written["row"].tolist() == expected.frame["row"].tolist()
    assert written["hint"].tolist() == expected.frame["hint"].tolist()
    rejected = pd.read_parquet(tmp_path / "rejected.parquet")
    assert rejected["row"].tolist() == expected.rejected["row"].tolist()
    found.to_parquet(tmp_path / "again")  # the lazy frame written again, as out= wrote it
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "again"), written)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    with pytest.raises(ValueError, match="name a folder"):
        clean_dataset(source, out=tmp_path / "cleaned.csv")
    (tmp_path / "mine").mkdir()  # a folder of the user's own Parquet files
    leads.to_parquet(tmp_path / "mine" / "part.0.parquet")
    with pytest.raises(ValueError, match="holds files a clean did not write"):
        clean_dataset(source, rejects=tmp_path / "mine")
    with pytest.raises(ValueError, match="is what is being cleaned"):
        clean_dataset(tmp_path / "cleaned", out=tmp_path / "cleaned")
    assert len(pd.read_parquet(tmp_path / "mine")) == len(leads)  # both left as they were
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "cleaned"), written)


def test_the_client_receives_counts_not_rows(cluster: Any, leads: pd.DataFrame,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    gathered: list[int] = []
    gather = distributed.Client.gather

    def measured(self: Any, futures: Any, *args: Any, **kwargs: Any) -> Any:
        result = gather(self, futures, *args, **kwargs)
        gathered.append(dask.sizeof.sizeof(result))
        return result

    monkeypatch.setattr(distributed.Client, "gather", measured)
    found = clean_dataset(dd.from_pandas(leads, npartitions=PARTS), region="US")
    assert gathered and sum(gathered) < 100_000  # the counts: a few kB
    assert dask.is_dask_collection(found.frame)
    gathered.clear()
    found.compute()  # asked for: the rows come, and are seen coming
    assert sum(gathered) > 1_000_000


def test_with_a_client_the_rows_are_judged_here_as_before(cluster: Any, client: Any) -> None:
    client.dnc.add("+12125550142")
    frame = pd.DataFrame({"Phone": ["(415) 555-0199", "212.555.0142", "415 555 0199"]})
    found = clean(dd.from_pandas(frame, npartitions=2), client=client)
    assert not isinstance(found, CleanedDataset)  # a CleanResult: the rows on this machine
    pd.testing.assert_frame_equal(found.frame, clean(frame, client=client).frame)
    assert found.frame["status"].tolist() == ["accepted", "on_dnc", "duplicate"]


def test_a_custom_field_taken_by_a_column_is_refused_before_anything_is_written(
        cluster: Any, tmp_path: Path) -> None:
    frame = pd.DataFrame({"Phone": ["(415) 555-0199 ext. 12", "212.555.0142"],
                          "phone_extension": ["a column of the file's", None]})
    with pytest.raises(ValueError, match="has a column 'phone_extension'") as expected:
        clean(frame)
    with pytest.raises(ValueError) as found:
        clean_dataset(dd.from_pandas(frame, npartitions=2), out=tmp_path / "cleaned")
    assert str(found.value) == str(expected.value)
    assert list(tmp_path.iterdir()) == []
