"""One answer per entry point: ``clean`` a :class:`CleanResult`, ``clean_file`` a
:class:`CleanedFile`, ``clean_dataset`` a :class:`CleanedDataset`; the old shapes of
``clean`` (``out=``, a Dask source without a client) still answer as before, with a
:class:`DeprecationWarning` for one release (issue 49)."""

from __future__ import annotations

from pathlib import Path

import dask.dataframe as dd
import pandas as pd
import pytest

from dialkit.leads import (
    CleanedDataset,
    CleanedFile,
    CleanResult,
    clean,
    clean_dataset,
    clean_file,
)

FRAME = pd.DataFrame({"Phone": ["(415) 555-0199", "212.555.0142", "not a phone",
                                "415 555 0199"]})


def vendor(tmp_path: Path) -> Path:
    path = tmp_path / "vendor.csv"
    FRAME.to_csv(path, index=False)
    return path


def test_each_entry_point_answers_its_own_type(tmp_path: Path) -> None:
    path = vendor(tmp_path)
    assert type(clean(path)) is CleanResult
    assert type(clean_file(path, out=tmp_path / "out.csv")) is CleanedFile
    assert type(clean_dataset(dd.from_pandas(FRAME, npartitions=2))) is CleanedDataset


def test_clean_with_out_still_writes_the_file_and_warns(tmp_path: Path) -> None:
    path = vendor(tmp_path)
    expected = clean_file(path, out=tmp_path / "new.csv", rejects=tmp_path / "new.rejects.csv")
    with pytest.warns(DeprecationWarning, match=r"clean_file\(\)"):
        found = clean(path, out=tmp_path / "old.csv", rejects=tmp_path / "old.rejects.csv")
    assert type(found) is CleanedFile and found.summary.equals(expected.summary)
    for name in ("{}.csv", "{}.rejects.csv"):
        assert (tmp_path / name.format("old")).read_bytes() == \
            (tmp_path / name.format("new")).read_bytes()


def test_clean_of_a_dask_frame_still_answers_a_dataset_and_warns() -> None:
    expected = clean_dataset(dd.from_pandas(FRAME, npartitions=2))
    with pytest.warns(DeprecationWarning, match=r"clean_dataset\(\)"):
        found = clean(dd.from_pandas(FRAME, npartitions=2))
    assert type(found) is CleanedDataset and found.summary.equals(expected.summary)


def test_clean_with_progress_but_no_output_warns_and_answers_the_rows(tmp_path: Path) -> None:
    with pytest.warns(DeprecationWarning, match=r"does nothing without out="):
        found = clean(vendor(tmp_path), progress=True)
    assert type(found) is CleanResult and len(found.frame) == len(FRAME)
