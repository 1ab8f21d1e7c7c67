"""Phone numbers held as numbers are refused by the analytics, as the audit refuses them
(issue 61): a pandas frame, one file of a Parquet dataset, a Dask frame. They answered
with wrong cells (a dataset's file of integers read as text without its ``+``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from test_known import account

from dialkit._parallel import _partitions
from dialkit.analytics import answer_rates, funnel
from dialkit.errors import ColumnError, InputError

dd = pytest.importorskip("dask.dataframe")
NUMBERS = r"holds 12125550102 at row 0, a number without its '\+'|holds numbers \(int64\)"


def _as_numbers(frame: pd.DataFrame, column: str) -> pd.DataFrame:
    """``frame`` with ``column`` as a CSV read without ``dtype=str`` holds it."""
    return frame.assign(**{column: frame[column].str.lstrip("+").astype("int64")})


def _funnel_of(calls: Any, **options: Any) -> Any:
    given = account()
    return funnel(given["leads"], calls, callbacks=given["callbacks"],
                  appointments=given["appointments"], **options)


READERS = {"funnel": _funnel_of, "answer_rates": answer_rates}


@pytest.mark.parametrize("reader", READERS.values(), ids=READERS)
def test_a_pandas_column_of_numbers_is_refused_by_name(reader: Any) -> None:
    calls = _as_numbers(account()["calls"], "to_number")
    with pytest.raises(ColumnError, match=rf"^calls\.to_number (holds numbers|{NUMBERS})"):
        reader(calls)
    assert issubclass(ColumnError, InputError)


def test_a_lead_phone_of_numbers_is_refused_by_name() -> None:
    given = account()
    given["leads"] = _as_numbers(given["leads"], "phone")
    with pytest.raises(ColumnError, match=r"^leads\.phone holds numbers \(int64\), not text"):
        funnel(**given)


def _dataset(folder: Path, bad: bool) -> Path:
    """The account's calls as a dataset of two files, the second's numbers as integers
    where ``bad``."""
    calls = account()["calls"]
    folder.mkdir()
    half = len(calls) // 2
    rest = calls.iloc[half:]
    for n, part in enumerate([calls.iloc[:half], _as_numbers(rest, "to_number") if bad
                              else rest]):  # as an export writes them: no pandas index
        table = pa.Table.from_pandas(part, preserve_index=False).replace_schema_metadata()
        pq.write_table(table, folder / f"part-{n}.parquet")
    return folder


@pytest.mark.parametrize("dask", [True, False], ids=["dask", "pyarrow"])
@pytest.mark.parametrize("reader", READERS.values(), ids=READERS)
def test_a_dataset_with_a_file_of_numbers_is_refused_naming_it(
        tmp_path: Path, reader: Any, dask: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """On Dask, refused as the lazy answer is built (the intact dataset's is built, and
    computed on a cluster by test_dask.py); read whole, the intact one answers as pandas."""
    if not dask:  # as where Dask is not installed: the dataset read whole by pyarrow
        monkeypatch.setattr(_partitions, "dask_installed", lambda: False)
    intact = _dataset(tmp_path / "intact", bad=False)
    if dask:
        assert hasattr(reader(intact, compute=False), "compute")
    else:
        pd.testing.assert_frame_equal(reader(intact), reader(account()["calls"]))
    folder = _dataset(tmp_path / "calls", bad=True)
    with pytest.raises(ColumnError, match=r"part-1\.parquet: to_number holds numbers where "
                       r".*part-0\.parquet holds text"):
        reader(folder, compute=not dask)


@pytest.mark.parametrize("reader", READERS.values(), ids=READERS)
def test_a_dask_frame_of_numbers_is_refused_before_it_runs(reader: Any) -> None:
    calls = dd.from_pandas(_as_numbers(account()["calls"], "to_number"), npartitions=2)
    with pytest.raises(ColumnError, match=r"^calls\.to_number holds numbers \(int64\)"):
        reader(calls)
