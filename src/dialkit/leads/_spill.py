"""The request's duplicates of a file too large for memory, found on disk.

A row repeats the first earlier row with its phone (or external id) that passes
every other check (:mod:`._duplicates`). In a streamed file the rows before a
chunk are gone, and a set of every number seen would grow with the file (20
million numbers and the rows that hold them are 320 MB). So each eligible row's
keys are appended to one of a few bucket files on disk, by key, as the chunks are
read (:meth:`Keys.add`); once the file is read, each bucket, which holds every
row of its keys, is judged in memory on its own, and the rows that repeat another
are written, with the row they repeat, to files by row range, which the second
reading of the chunks takes in order (:class:`Owners`). Memory holds one bucket
or one range at a time, however long the file.

Where both phones and ids repeat, a row's fate can hang on another's through
either key, and the rows that share one are walked in file order together
(:func:`walk`): that walk holds the rows that share a key, not every row.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .. import _tuning
from ._duplicates import after_first, holders, walk

_RECORD = np.dtype([("row", "<i8"), ("key", "<i8"), ("passes", "?")])
_IDS = pa.schema([("row", pa.int64()), ("key", pa.large_string()), ("passes", pa.bool_()),
                  ("hash", pa.int64())])
PAIR = np.dtype([("row", "<i8"), ("owner", "<i8")])

TEMPORARY = ("TMPDIR", "TEMP", "TMP")
"""The variables that name the temporary folder, in the order Python reads them."""


def spill_folder() -> Path:
    """The folder a streamed clean spills to (as much again as the lead file): the one
    the user named in ``TMPDIR`` (or ``TEMP``, ``TMP``), else the system's.

    Python's :func:`tempfile.gettempdir` passes over a named folder it cannot write to
    and takes ``/tmp``, without a word: a spill of 477 MB then lands on a disk the user
    chose not to fill. So a named folder that is not one, or cannot be written, ends
    the clean before anything is read, naming the variable.

    Raises:
        OSError: The variable names a folder that is missing or cannot be written.
    """
    for variable in TEMPORARY:
        named = os.environ.get(variable, "").strip()
        if not named:
            continue
        folder = Path(named)
        if not folder.is_dir():
            raise OSError(errno.ENOENT, f"{variable} names no folder; a streamed clean "
                          f"spills there. Create it, or set {variable} to a folder that "
                          "can be written", named)
        if not os.access(folder, os.W_OK | os.X_OK):
            raise OSError(errno.EACCES, f"{variable} names a folder that cannot be "
                          f"written; a streamed clean spills there. Set {variable} to a "
                          "folder that can be written", named)
        return folder
    return Path(tempfile.gettempdir())


class Keys:
    """The eligible rows' phones (and external ids) of a file, in buckets in ``folder``."""

    def __init__(self, folder: Path, file_bytes: int) -> None:
        self.folder = folder
        self.buckets = min(max(1, -(-file_bytes // _tuning.BUCKET_BYTES)), 1 << 16)
        self.id_writers: dict[int, pa.ipc.RecordBatchStreamWriter] = {}
        self.held: list[tuple[np.ndarray, np.ndarray, pd.Series, np.ndarray]] | None = (
            [] if file_bytes <= _tuning.HELD_BYTES else None)

    def add(self, rows: np.ndarray, phones: np.ndarray, ids: pd.Series,
            passes: np.ndarray) -> None:
        """Append eligible rows (by number, ascending): their numbers as integers,
        their external ids (missing: none), whether each passes the later checks."""
        if self.held is not None:
            self.held.append((rows, phones, ids, passes))
            return
        records = np.empty(len(rows), dtype=_RECORD)
        records["row"], records["key"], records["passes"] = rows, phones, passes
        for bucket, at in _split(phones % self.buckets):
            with open(self._phones(bucket), "ab") as out:
                records[at].tofile(out)
        held = ids.notna().to_numpy(dtype=bool)
        if not held.any():
            return
        keys = ids[held]
        step = _tuning.HASHED_ROWS
        hashes = np.concatenate([_hashes(keys.iloc[at:at + step])
                                 for at in range(0, len(keys), step)])
        table = pa.table({"row": rows[held], "key": pa.array(keys, pa.large_string()),
                          "passes": passes[held], "hash": hashes}, schema=_IDS)
        for bucket, at in _split(hashes % self.buckets):
            if bucket not in self.id_writers:
                self.id_writers[bucket] = pa.ipc.new_stream(str(self._ids(bucket)), _IDS)
            self.id_writers[bucket].write_table(table.take(pa.array(at)))

    def owners(self) -> Owners:
        """Every row that repeats an earlier accepted row, found bucket by bucket (or at
        once, for keys held in memory)."""
        for writer in self.id_writers.values():
            writer.close()
        owners = Owners(self.folder)
        if self.held is not None:
            owners.add(*self._judged_at_once())
            return owners
        ids_repeat = any(_ids_repeat(self._id_table(n)) for n in self.id_writers)
        if not ids_repeat:
            for bucket in range(self.buckets):
                owners.add(*firsts(self._phone_bucket(bucket)))
        elif not any(_repeats(self._phone_bucket(n)["key"]) for n in range(self.buckets)):
            for bucket in self.id_writers:
                owners.add(*firsts(self._id_bucket(bucket)))
        else:
            owners.add(*self._walked())
        return owners

    def _judged_at_once(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The held rows that repeat a passing row before them (:func:`at_once`)."""
        assert self.held is not None
        if not self.held:
            return np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0, bool)
        rows, phones, passes = (np.concatenate([part[n] for part in self.held])
                                for n in (0, 1, 3))
        ids = pd.concat([part[2] for part in self.held], ignore_index=True)
        self.held = []
        return at_once(rows, phones, ids, passes)

    def _walked(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The rows that share a phone or an id with another (:func:`walked`)."""
        return walked(pd.concat([shared(self._phone_bucket(n)) for n in range(self.buckets)]),
                      pd.concat([shared(self._id_bucket(n)) for n in self.id_writers]))

    def _phones(self, bucket: int) -> Path:
        return self.folder / f"phones-{bucket}.bin"

    def _ids(self, bucket: int) -> Path:
        return self.folder / f"ids-{bucket}.arrow"

    def _phone_bucket(self, bucket: int) -> pd.DataFrame:
        path = self._phones(bucket)
        records = np.fromfile(path, dtype=_RECORD) if path.exists() else np.empty(0, _RECORD)
        return pd.DataFrame({name: records[name] for name in ("row", "key", "passes")})

    def _id_table(self, bucket: int) -> pa.Table:
        with pa.OSFile(str(self._ids(bucket))) as opened, pa.ipc.open_stream(opened) as reader:
            return reader.read_all()

    def _id_bucket(self, bucket: int) -> pd.DataFrame:
        return self._id_table(bucket).to_pandas(
            types_mapper={pa.large_string(): pd.StringDtype("pyarrow")}.get)


def at_once(rows: np.ndarray, phones: np.ndarray, ids: pd.Series,
            passes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Of eligible rows held in memory (their numbers, phones as integers, external ids,
    whether each passes the later checks), the rows that repeat a passing row before
    them, as :func:`holders` judges them, the rows they repeat, and whether each passes."""
    holder = holders(phones, ids, eligible=np.ones(len(rows), dtype=bool), passes=passes)
    repeat = holder >= 0
    return rows[repeat], rows[holder[repeat]], passes[repeat]


def _hashes(keys: pd.Series) -> np.ndarray:
    """Python's own hash of each text: salted per process, which is all a bucket needs
    (the buckets live as long as the clean), and ten times pandas' ``hash_array``."""
    return np.fromiter(map(hash, keys.to_numpy(dtype=object)), np.int64, len(keys))


def _split(where: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """The positions of each bucket's rows, in their order, by bucket: one sort, not a
    scan of every row per bucket (a 20,000,000-row file has 47 buckets)."""
    if not len(where):
        return []
    order = np.argsort(where.astype(np.uint16), kind="stable")  # a radix sort, at 16 bits
    ordered = where[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    ends = np.r_[starts[1:], len(order)]
    return [(int(ordered[start]), order[start:end])
            for start, end in zip(starts.tolist(), ends.tolist(), strict=True)]


def _repeats(keys: pd.Series) -> bool:
    return bool(keys.duplicated().any())


def _ids_repeat(bucket: pa.Table) -> bool:
    """Whether an id is there twice: none is where no hash is (hashing the texts again
    took 0.06 s a bucket), else the texts say (two ids can share a hash)."""
    if not _repeats(bucket["hash"].to_pandas()):
        return False
    return bool(pc.count_distinct(bucket["key"]).as_py() < bucket.num_rows)


def shared(bucket: pd.DataFrame) -> pd.DataFrame:
    """The bucket's rows whose key another row also has."""
    return bucket[bucket["key"].duplicated(keep=False)]


def walked(phones: pd.DataFrame, ids: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rows that share a phone (``phones``: ``row``, ``key``, ``passes``) or an id
    (``ids``, each id's rows all there) with another, walked in file order: the rows that
    repeat another, the rows they repeat, and whether each passes the later checks. A
    key no other row has stands in as a number of its own (or no id)."""
    phones, ids = phones.set_index("row"), ids.set_index("row")
    ids["key"] = pd.factorize(ids["key"])[0]
    rows = phones.index.union(ids.index)  # sorted: file order
    numbers = rows.to_numpy()
    phone = phones["key"].reindex(rows, fill_value=-1).to_numpy()
    own = np.where(phone >= 0, phone, -(numbers + 2))  # a number no other row has
    ident = ids["key"].reindex(rows, fill_value=-1).to_numpy()
    passes = phones["passes"].combine_first(ids["passes"]).reindex(rows).to_numpy(dtype=bool)
    taker = walk(own, ident, passes)
    repeat = taker >= 0
    return numbers[repeat], numbers[taker[repeat]], passes[repeat]


def firsts(bucket: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The bucket's rows that repeat a passing row before them (one key), the rows they
    repeat, and whether each passes the later checks."""
    if bucket.empty:
        return np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0, bool)
    codes = pd.factorize(bucket["key"])[0]
    passes = bucket["passes"].to_numpy(dtype=bool)
    holder = after_first(codes, passes)
    repeat = holder >= 0
    rows = bucket["row"].to_numpy()
    return rows[repeat], rows[holder[repeat]], passes[repeat]


class Owners:
    """The rows that repeat another, by row range, in ``folder``; and how many of them
    pass every other check (each would have been accepted)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.passing = 0
        self.loaded: dict[int, np.ndarray] = {}

    def add(self, rows: np.ndarray, owners: np.ndarray, passes: np.ndarray) -> None:
        """Keep ``rows``' ``owners``, each in its range's file."""
        self.passing += int(passes.sum())
        pairs = np.empty(len(rows), dtype=PAIR)
        pairs["row"], pairs["owner"] = rows, owners
        where = rows // _tuning.RANGE_ROWS
        for part in np.unique(where).tolist():
            with open(self.folder / f"owners-{part}.bin", "ab") as out:
                pairs[where == part].tofile(out)

    def of(self, rows: np.ndarray) -> np.ndarray:
        """Per row number (ascending), the number of the row it repeats, or -1."""
        found = np.full(len(rows), -1, dtype=np.int64)
        if not len(rows):
            return found
        ranged = _tuning.RANGE_ROWS
        for part in range(int(rows[0]) // ranged, int(rows[-1]) // ranged + 1):
            found = looked_up(self._range(part), rows, found)
        return found

    def _range(self, part: int) -> np.ndarray:
        """A range's pairs, sorted by row; the ranges before it let go."""
        if part not in self.loaded:
            path = self.folder / f"owners-{part}.bin"
            pairs = np.fromfile(path, dtype=PAIR) if path.exists() else np.empty(0, PAIR)
            self.loaded = {part: np.sort(pairs, order="row")}
        return self.loaded[part]


def looked_up(pairs: np.ndarray, rows: np.ndarray, found: np.ndarray) -> np.ndarray:
    """``found`` (per row of ``rows``) with the owner of each row that ``pairs`` (:data:`PAIR`,
    by row) holds."""
    at = np.searchsorted(pairs["row"], rows)
    hit = at < len(pairs)
    hit[hit] = pairs["row"][at[hit]] == rows[hit]
    found[hit] = pairs["owner"][at[hit]]
    return found
