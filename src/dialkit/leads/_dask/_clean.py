"""Lead cleaning on Dask with no row on the client: ``clean_dataset(ddf)``, a
:class:`CleanedDataset`.

A partition is what a streamed file's chunk is (:mod:`.._clean._stream`), and is judged by
the same functions on a worker: :func:`judged_chunk` (the phones chosen and
normalised, every check but the request's duplicates), then, once the whole file's
facts are known, :func:`finished_chunk` (the verdicts and hints). Those facts come
without gathering rows:

- the duplicates: the eligible rows' keys (row, phone as an integer, external id,
  whether the row passes the later checks) are shuffled on the phone, and on the id,
  so each partition of a shuffle holds every row of its keys and finds its repeats as
  a bucket of the streamed clean does (:func:`firsts`). Where phones and ids both
  repeat, a row's fate can hang on another's through either key: the rows that share
  one (as many as the repeats, not the file) are walked in one task (:func:`walked`),
  as the streamed clean walks them. The pairs found (a row, the row it repeats) go to
  every partition's finishing task;
- the regions the hints try, the columns that gave the phones, the custom fields
  sent: counts per partition (:class:`Counted`), summed in one task.

Rows are numbered on across partitions (``row`` is the place in the source + 1), which
needs every earlier partition's length: until the lengths are counted, partition ``n``
numbers its rows from ``n << PART_BITS``, an order as good as the file's for the
duplicates, and the finishing tasks number them again.

The client receives the counts alone. The cleaned frame is lazy: computing or writing
it runs the graph again, so ``out=`` writes the partitions in the same run as the
counts. The checks that need the account (``client=``) do not come here: the service
is asked from the client, and that clean gathers the rows as before (:mod:`._client`).

Imported only for a Dask frame or a dataset's path: ``dialkit`` runs without Dask.
"""

from __future__ import annotations

import dataclasses
from functools import reduce
from itertools import accumulate
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from dialkit._files._outputs_written import refuse_overlaps
from dialkit._parallel._partitions import is_dataset
from dialkit._parallel._partitions_dask import dask, dd, delayed, meta_of

from .._clean._chunked import Counted, finished_chunk, judged_chunk
from .._clean._custom import CustomFields, phone_columns, with_numbers
from .._clean._duplicates import PAIR, by_row, firsts, looked_up, shared, walked
from .._clean._hints import hint_regions, ranked
from .._clean._judge import country_column_of, region_code
from .._clean._result import CleanResult
from .._read._lead_file import LeadFile, _from_frame, _no_numbers, mapped_columns
from .._read._phone_cells import SAMPLE_ROWS
from ._result import CleanedDataset, output_folder, part_name, replaced

if TYPE_CHECKING:
    from .._options import CleanOptions

PART_BITS = 32
"""A partition's rows are numbered from its number shifted by this many bits until the
partitions' lengths are known (a partition holds fewer than 4,294,967,296 rows)."""

_KEYS = pd.DataFrame({"row": pd.Series(dtype="int64"), "phone": pd.Series(dtype="int64"),
                      "external_id": pd.Series(dtype="string[pyarrow]"),
                      "passes": pd.Series(dtype=bool)})
"""The eligible rows' keys, as :func:`judged_chunk` gives them."""

@dataclasses.dataclass(frozen=True)
class _Clean:
    """What every partition's tasks are given: the file's layout and the options."""

    file: LeadFile
    column: str | None
    region: str
    blocked: frozenset[str]
    custom: CustomFields

    @property
    def columns(self) -> list[str]:
        """The phone column, then the fallback columns."""
        return [self.file.fields["phone"], *phone_columns(self.file)]

    def counted(self) -> Counted:
        """Counts of nothing yet, for a partition's."""
        return Counted(np.zeros(len(self.columns), np.int64))


def clean_dataset_with(source: Any, options: CleanOptions, *, out: Any = None,
                       rejects: Any = None) -> CleanedDataset:
    """:func:`clean_dataset` of ``options`` (their client, sheet and encoding not used)."""
    folders = [output_folder(name, path) for name, path in (("out", out), ("rejects", rejects))]
    refuse_overlaps({"out": folders[0], "rejects": folders[1]}, {"what is being cleaned": source})
    blocked = options.checked()
    data = dd.read_parquet(str(source)) if is_dataset(source) else source
    name = Path(str(source)).name if is_dataset(source) else "DataFrame"  # as read() has it
    file = _layout(name, data, options.mapping)
    column = country_column_of(file, options.country_column)
    file = with_numbers(file, lambda: _first_rows(data), options.region, column)
    job = _Clean(file, column, options.region, blocked,
                 CustomFields.of(file, options.extension_field, options.alt_phone_field))
    frame, total = _graph(job, data)
    with replaced(folders[0], "out") as partial_out, \
            replaced(folders[1], "rejects") as partial_rejects:
        writes = [_to_parquet(rows, path) for rows, path in (
            (frame, partial_out), (frame[frame["status"] != "accepted"], partial_rejects))
            if path is not None]
        counted: Counted = dask.compute(total, *writes)[0]
    columns = job.columns
    empty = CleanResult(
        meta_of(frame), file, region=options.region, campaign_id=options.campaign_id,
        blocked_countries=tuple(sorted(blocked)), skipped=options.skipped(),
        extension_field=job.custom.extension_field, alt_phone_field=job.custom.alt_phone_field,
        sources=counted.by_column(columns), looks_like=ranked(counted.looks_like),
        country_column=job.column, advice=counted.advice())
    return CleanedDataset(name, counted.rows, counted.summary(),
                          counted.notes(file, columns, job.custom, job.column),
                          dict(empty.skipped),
                          out=folders[0], rejects=folders[1], fields=file.fields,
                          custom_fields=job.custom.sent, frame=frame, empty=empty)


def _layout(name: str, data: Any, mapping: Any) -> LeadFile:
    """The file as its columns map (its frame empty), as :func:`read` maps a frame's:
    by its first rows' cells where no header names a phone (the first partition read)."""
    meta = meta_of(data)
    columns = [str(column) for column in meta.columns]
    mapped = mapped_columns(name, columns, {}, mapping, lambda: _first_rows(data))
    return LeadFile(name, _from_frame(meta)[0], **mapped._asdict(), numbers=_no_numbers())


def _first_rows(data: Any) -> pd.DataFrame:
    """The first rows of a Dask frame's first partition, as text: what decides which
    columns hold phones, as a file's first rows do."""
    return _from_frame(data.partitions[0].compute().head(SAMPLE_ROWS))[0]


def _graph(job: _Clean, data: Any) -> tuple[Any, Any]:
    """The lazy cleaned frame, and the lazy :class:`Counted` of the whole clean."""
    parts = data.to_delayed()
    judged = [delayed(_judged, nout=3)(part, n, job) for n, part in enumerate(parts)]
    first = [counted for _, _, counted in judged]
    offsets = delayed(_offsets)(first)
    regions = delayed(_regions)(first, job)
    pairs = _pairs([keys for _, keys, _ in judged], offsets,
                   "external_id" in job.file.fields, len(parts))
    finished = [delayed(_finished, nout=2)(spilled, pairs, offsets, regions, job)
                for spilled, _, _ in judged]
    meta = _finished(_judged(meta_of(data), 0, job)[0], np.empty(0, PAIR), [0], [], job)[0]
    frame = dd.from_delayed([rows for rows, _ in finished], meta=meta, verify_meta=False)
    return frame, delayed(_total)(first + [counted for _, counted in finished])


def _judged(frame: pd.DataFrame, part: int, job: _Clean) -> tuple[pd.DataFrame, pd.DataFrame,
                                                                    Counted]:
    """A partition judged (:func:`judged_chunk`), its rows in place ``part << PART_BITS``
    on, as :func:`read` reads a frame (its numeric cells flagged)."""
    cells, numbers = _from_frame(frame)
    start = part << PART_BITS
    cells.index = pd.RangeIndex(start, start + len(cells))
    numbers["row"] += start
    counted = job.counted()
    spilled, keys = judged_chunk(dataclasses.replace(job.file, frame=cells, numbers=numbers),
                                 job.column, job.region, job.blocked, None, counted)
    return spilled, keys, counted


def _offsets(counted: list[Counted]) -> list[int]:
    """The rows before each partition."""
    return list(accumulate((part.rows for part in counted), initial=0))


def _regions(counted: list[Counted], job: _Clean) -> list[str]:
    """The regions the hints try (:func:`hint_regions` of the file's counts), once the
    custom fields' names are found free (as a file read whole has them checked)."""
    whole = _total(counted)
    job.custom.check(whole.held)
    return hint_regions(whole.regions, region_code(job.region))


def _total(counted: list[Counted]) -> Counted:
    return reduce(Counted.merged, counted)


def _pairs(keys: list[Any], offsets: Any, ids: bool, count: int) -> Any:
    """Every row that repeats an earlier accepted one and the number of the row it repeats
    (:data:`PAIR`, by row), found in the keys shuffled by phone and by id."""
    frame = dd.from_delayed(keys, meta=_KEYS, verify_meta=False)
    by_phone = frame[["row", "phone", "passes"]].rename(columns={"phone": "key"})
    buckets = [by_phone.shuffle("key", npartitions=count)]
    if ids:
        by_id = frame[["row", "external_id", "passes"]].dropna(subset=["external_id"])
        buckets.append(by_id.rename(columns={"external_id": "key"}).shuffle(
            "key", npartitions=count))
    found = [[delayed(_repeats)(bucket) for bucket in shuffled.to_delayed()]
             for shuffled in buckets]
    return delayed(_paired)(found, offsets)


def _repeats(bucket: pd.DataFrame) -> tuple[tuple[np.ndarray, ...], pd.DataFrame]:
    """A bucket's rows that repeat a row of one key (:func:`firsts`), and its rows that
    share a key (:func:`shared`), for a walk over both keys."""
    bucket = bucket.sort_values("row", ignore_index=True)  # a shuffle keeps no order
    return firsts(bucket), shared(bucket)


def _paired(found: list[list[tuple[tuple[np.ndarray, ...], pd.DataFrame]]],
            offsets: list[int]) -> np.ndarray:
    """The pairs of the buckets' repeats: of one kind of key, as each bucket found them;
    of both, the rows sharing either walked together. Rows by place, owners by number."""
    if len(found) == 2 and all(any(len(rows) for _, rows in kind) for kind in found):
        rows, owners, _ = walked(*(pd.concat([rows for _, rows in kind]) for kind in found))
    else:
        rows, owners = (np.concatenate([repeat[n] for kind in found for repeat, _ in kind])
                        for n in (0, 1))
    pairs = np.empty(len(rows), dtype=PAIR)
    pairs["row"], pairs["owner"] = rows, _numbered(owners, offsets)
    return by_row(pairs)


def _numbered(places: np.ndarray, offsets: list[int]) -> np.ndarray:
    """Rows numbered from their partitions' places (``row`` as :func:`_judged` has it) to
    their numbers in the source."""
    place = places.astype(np.int64) - 1
    numbers: np.ndarray = np.asarray(offsets, np.int64)[place >> PART_BITS] + (
        place & ((1 << PART_BITS) - 1)) + 1
    return numbers


def _finished(spilled: pd.DataFrame, pairs: np.ndarray, offsets: list[int],
              regions: list[str], job: _Clean) -> tuple[pd.DataFrame, Counted]:
    """A partition's cleaned rows (:func:`finished_chunk`), numbered in the source."""
    places = spilled["row"].to_numpy()
    owner = looked_up(pairs, places, np.full(len(places), -1, dtype=np.int64))
    numbers = _numbered(places, offsets)
    spilled = spilled.set_axis(pd.Index(numbers - 1), axis=0).assign(row=numbers)
    counted = job.counted()
    frame = finished_chunk(spilled, owner, regions, job.columns[0], job.region, counted,
                           job.custom, job.column)
    return frame, counted


def _to_parquet(frame: Any, folder: Path) -> Any:
    """The ``dask.delayed`` writing of ``frame``'s partitions into ``folder``, a file each
    (delayed, as the counts are: computed with them, their tasks run once)."""
    return frame.to_parquet(str(folder), write_index=False, compute=False,
                            name_function=part_name).to_delayed()
