"""The import journal: what a lead import planned, sent and got back, on disk.

A notebook kernel dies, a laptop sleeps, a process is killed: an import of
many batches must resume where it stopped without sending a finished batch
again, and without re-sending an unfinished one under another key. So before
anything is sent the plan (the cleaned file, every row with its local verdict,
so batches are the same on every run) is written, and the journal's first line
holds the plan file's digest and what the import needs to know of the file (its
fields and custom fields). Each batch gets a line when it is sent, when the
service answers ``outcome_unknown`` and when it is done, and every one of those
lines names its batch by number, Idempotency-Key and content hash (the rows'
places in the plan and the leads sent). Lines are appended and flushed to disk
one by one, and come in the order of the batches: a run sends them in turn and
stops at the first that fails, so the batches done are always the first ones.

Nothing is held for every batch: the journal is read as it is needed, a line at
a time (:meth:`Journal.check` as the import walks the plan's batches again,
:meth:`Journal.results` as it writes the report), so an import of twenty million
rows remembers counts, not answers.

What a line holds grows by fields, never by a version number: a line an earlier
dialkit wrote lacks the fields added since, and is read as that dialkit meant it
(a ``found`` line without ``kept``: the leads kept instead of the rows still
refused were not looked for, and the next run looks for them).

A journal is trusted only as far as it can be checked: a line is applied only
to the batch it names, and a journal that does not match its plan (the plan
deleted or replaced, a line for another batch, a hand-made line, a broken
line, answers the batch cannot have) is refused with :class:`ImportJournalError`,
whose message says how to start afresh; every line is checked before anything
is sent. Only the last line can be torn by a kill (each line is one write ending
in a newline): a last line without its newline is cut off on reading, so its
batch counts as not done and the next line starts clean.

The folder is owner-only: it holds the file's personal data. A run holds it
(:func:`held`) so that a second import of the same file into the same campaign,
started while the first runs, is refused before it sends anything: the two
would send the same batches side by side.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import mmap
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import orjson
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from filelock import FileLock, Timeout

from dialkit._files._private import (
    DIRECTORY_MODE,
    open_private,
    private_dir,
    refuse_link,
)
from dialkit.client import batch_key
from dialkit.contract import MAX_IMPORT_BATCH, LeadResultStatus

from ..._files._outputs_written import why_not_written
from ..._utils._base_error import ImportJournalError, ImportRunningError, JournalWriteError
from .._read._lead_file import cannot_open

PLAN = "plan.parquet"
LINES = "journal.jsonl"
REPORT = "report.parquet"
LOCK = ".lock"
PLAN_COLUMNS = ("row", "phone_e164", "status", "reason", "field")
"""The plan's columns the import reads."""

_BATCH_FIELDS: dict[str, type] = {"batch": int, "key": str, "hash": str}
_FIELDS: dict[str, dict[str, type]] = {
    "plan": {"hash": str},
    "sent": _BATCH_FIELDS,
    "unknown": _BATCH_FIELDS,
    "done": {**_BATCH_FIELDS, "results": list},
    "found": {"hash": str, "rows": list},
}
_STATUSES = frozenset(status.value for status in LeadResultStatus)
_WRITTEN = "an import's journal"
"""What dialkit writes in the folder, for the refusal of a link."""


@contextlib.contextmanager
def held(folder: Path) -> Iterator[None]:
    """Hold an import's journal folder (made owner-only if new) for one run.

    The hold is a lock on a file in the folder, which the kernel releases when
    the process ends however it ends (a kill -9 too), so a killed import never
    blocks the run that resumes it. A folder that holds nothing but the lock
    when the run ends (a campaign or a file refused before the plan was written)
    is removed.

    Raises:
        ImportRunningError: Another run holds the folder.
        dialkit.errors.SymlinkError: The folder, or its lock, is a symbolic link: its
            lines and lock would be written, and its mode set, where it points.
    """
    private_dir(refuse_link(folder, _WRITTEN))
    folder.chmod(DIRECTORY_MODE)  # an older journal's too
    lock = FileLock(refuse_link(folder / LOCK, _WRITTEN), mode=0o600)
    try:
        lock.acquire(timeout=0)
    except Timeout:
        raise ImportRunningError(folder) from None
    try:
        yield
    finally:
        with contextlib.suppress(OSError):  # the folder deleted meanwhile; Windows keeps
            if [path.name for path in folder.iterdir()] == [LOCK]:  # a file held open
                (folder / LOCK).unlink()
                folder.rmdir()
        lock.release()


def journal_folder(root: str | os.PathLike[str] | None, cache: Path, content: str,
                   campaign_id: str) -> Path:
    """The journal's folder for one file and campaign: ``<root>/<sha256>``, by default
    in ``imports/`` of the client's cache folder (one per service and key, so an
    emulator's journals go with its cache)."""
    base = Path(root) if root is not None else cache / "imports"
    name = hashlib.sha256(f"{content}\0{campaign_id}".encode()).hexdigest()[:32]
    return base / name


def content_hash(frame: pd.DataFrame) -> str:
    """A digest of a lead file's content (its columns and cells), whatever it was read from."""
    digest = hashlib.sha256(orjson.dumps([str(c) for c in frame.columns]))
    digest.update(pd.util.hash_pandas_object(frame, index=True).to_numpy().tobytes())
    return digest.hexdigest()


def file_hash(path: str | os.PathLike[str]) -> str:
    """A digest of a lead file's bytes, read a block at a time.

    Raises:
        LeadFileError: The file cannot be opened.
    """
    try:
        return _digest(Path(path))
    except OSError as error:
        raise cannot_open(Path(path), error) from None


@dataclass(frozen=True)
class Batch:
    """One planned batch: its 0-based ``number``, the plan rows it sends
    (``positions``) and the ``leads`` as sent; its Idempotency-Key and content hash
    are worked out when first needed (a resumed million-row import checks only
    the batches its journal names)."""

    number: int
    positions: np.ndarray
    leads: list[dict[str, Any]]
    campaign_id: str

    @cached_property
    def key(self) -> str:
        """The Idempotency-Key the client derives for the batch."""
        return batch_key(self.campaign_id, self.leads)

    @cached_property
    def digest(self) -> str:
        """A hash of the batch's content: the rows' places in the plan and the leads."""
        content = orjson.dumps([self.positions.tolist(), self.leads],
                               option=orjson.OPT_SORT_KEYS)
        return hashlib.sha256(content).hexdigest()

    def names(self) -> dict[str, Any]:
        """What a journal line holds to name this batch."""
        return {"batch": self.number, "key": self.key, "hash": self.digest}


@dataclass(frozen=True)
class Planned:
    """What the journal's first line says of the cleaned file, and how many rows and
    accepted rows its plan has (counted from the plan itself).

    Attributes:
        about: The file's name, its ``fields``, the columns sent as ``custom_fields``,
            and the ``extension_field`` and ``alt_phone_field`` the leads are sent with.
        rows: The plan's rows.
        accepted: Its accepted rows: the rows sent, :data:`MAX_IMPORT_BATCH` at a time.
    """

    about: dict[str, Any]
    rows: int
    accepted: int

    @property
    def batches(self) -> int:
        return -(-self.accepted // MAX_IMPORT_BATCH)

    def size(self, batch: int) -> int:
        """How many leads ``batch`` (0-based) sends."""
        return min(MAX_IMPORT_BATCH, self.accepted - batch * MAX_IMPORT_BATCH)


@dataclass
class Journal:
    """One import's journal: its plan and how far its batches got.

    Attributes:
        folder: Where it is kept.
        planned: The plan's file and counts; ``None`` until the first run has written it.
        done: How many batches are done (the first ones: they are sent in turn).
        rechecked: Batch number → how a batch whose outcome stayed unknown was
            settled (``found``, ``sent``, ``key``).
        unknown: Batch number → how many times the service answered
            ``outcome_unknown`` for it, across runs.
        found: Plan row → the lead_id of the campaign's lead found for a row
            answered ``duplicate_in_campaign``; ``None`` until looked up.
        kept: Plan row → the lead the campaign keeps instead of a row answered
            ``duplicate_in_campaign`` that is not its own, and that lead's phone
            (``(None, None)``: none found); ``None`` until looked up (and in a journal
            whose look-up an earlier dialkit made).
    """

    folder: Path
    planned: Planned | None = None
    plan_hash: str | None = None
    done: int = 0
    rechecked: dict[int, dict[str, Any]] = field(default_factory=dict)
    unknown: dict[int, int] = field(default_factory=dict)
    found: dict[int, str] | None = None
    kept: dict[int, tuple[str | None, str | None]] | None = None
    _read_up_to: int = field(default=0, repr=False)  # the lines' bytes when opened
    _unchecked: Iterator[tuple[int, dict[str, Any]]] | None = field(default=None, repr=False)
    _next: tuple[int, dict[str, Any]] | None = field(default=None, repr=False)

    @property
    def plan(self) -> Path:
        return self.folder / PLAN

    @classmethod
    def open(cls, folder: Path) -> Journal:
        """The journal in ``folder``, read back and checked against its plan if an
        earlier run left one. A plan without a journal (a run killed between the two)
        is removed: it was never used, and the import cleans the file again.

        Raises:
            ImportJournalError: A broken line, a missing or damaged plan, a plan that
                is not the one the journal was written for, or lines that do not
                follow the plan's batches.
        """
        journal = cls(folder)
        for partial in folder.glob(".*.partial"):  # left by a kill while the plan was written
            partial.unlink(missing_ok=True)
        if (folder / LINES).exists():
            _cut_torn(folder / LINES)
        lines = journal._lines()
        first = next(lines, None)
        if first is None:
            journal.plan.unlink(missing_ok=True)
            return journal
        if not journal.plan.exists():
            raise ImportJournalError(folder, f"its plan, {PLAN}, is missing")
        number, line = first
        if line["event"] != "plan" or not isinstance(line.get("file"), dict):
            raise ImportJournalError(folder, "it was written by an earlier dialkit, whose "
                                     "journal did not say what the plan's file holds")
        journal.plan_hash = _digest(journal.plan)
        if line["hash"] != journal.plan_hash:
            raise ImportJournalError(folder, f"{PLAN} is not the plan its journal was "
                                     "written for (the digest on its first line differs)")
        journal.planned = Planned(_about(folder, line["file"]), *journal._counted())
        for number, line in lines:
            journal._apply(number, line)
        journal._read_up_to = (folder / LINES).stat().st_size
        return journal

    def write_plan(self, about: Mapping[str, Any]) -> None:
        """Start the journal with the digest of the plan (the cleaned file, written to
        :attr:`plan` under a temporary name and renamed into place) and ``about``."""
        os.chmod(self.plan, 0o600)
        self.plan_hash = _digest(self.plan)
        self.planned = Planned(dict(about), *self._counted())
        (self.folder / LINES).unlink(missing_ok=True)  # lines of no plan: none can apply
        self._append({"event": "plan", "hash": self.plan_hash, "file": dict(about)})

    def check(self, batch: Batch) -> None:
        """Check the lines an earlier run wrote about ``batch`` (key and content), as the
        import meets each batch in turn, before it sends any (the lines come in batch
        order, and name no batch after the first not done).

        Raises:
            ImportJournalError: A line names ``batch`` with another key or content.
        """
        if self._unchecked is None:
            self._unchecked = (item for item in self._lines(self._read_up_to)
                               if item[1]["event"] in ("sent", "unknown", "done"))
            self._next = next(self._unchecked, None)
        while self._next is not None and self._next[1]["batch"] <= batch.number:
            number, line = self._next
            if (line["key"], line["hash"]) != (batch.key, batch.digest):
                raise ImportJournalError(self.folder, f"line {number} does not match batch "
                                         f"{batch.number + 1} of the plan (its Idempotency-Key "
                                         "or content hash differs)")
            self._next = next(self._unchecked, None)

    def results(self) -> Iterator[tuple[int, list[list[Any]]]]:
        """Each done batch's number and answers, one list per lead (``index``,
        ``status``, ``reason``, ``field``, ``lead_id``), in batch order."""
        for _, line in self._lines():
            if line["event"] == "done":
                yield line["batch"], line["results"]

    def record_sent(self, batch: Batch) -> None:
        """Note a batch about to be sent, with its key, before it is sent."""
        self._append({"event": "sent", **batch.names()})

    def record_unknown(self, batch: Batch, answered_key: str | None) -> int:
        """Note an ``outcome_unknown`` answer for a batch; how many it has had."""
        self._append({"event": "unknown", **batch.names(), "answered_key": answered_key})
        return self.unknown[batch.number]

    def record_done(self, batch: Batch, results: list[list[Any]],
                    recheck: Mapping[str, Any] | None = None) -> None:
        """Note a batch's answers once the service gave them (or once found)."""
        self._append({"event": "done", **batch.names(), "results": results,
                      **({} if recheck is None else {"recheck": dict(recheck)})})

    def record_found(self, found: Mapping[int, str],
                     kept: Mapping[int, tuple[str | None, str | None]]) -> None:
        """Note the leads found for rows answered ``duplicate_in_campaign``, and for the
        others the lead the campaign keeps instead, in one line."""
        rows = sorted([position, lead_id] for position, lead_id in found.items())
        held = sorted([position, *lead] for position, lead in kept.items())
        self._append({"event": "found", "hash": self.plan_hash, "rows": rows, "kept": held})

    def _count(self, line: dict[str, Any]) -> None:
        """What a line, written or read back, says of the batches: the one place the
        journal's state follows its lines."""
        if line["event"] == "found":
            self.found = dict(line["rows"])
            self.kept = None if "kept" not in line else {
                position: (lead_id, phone) for position, lead_id, phone in line["kept"]}
        elif line["event"] == "unknown":
            self.unknown[line["batch"]] = self.unknown.get(line["batch"], 0) + 1
        elif line["event"] == "done":
            self.done = line["batch"] + 1
            if isinstance(line.get("recheck"), dict):
                self.rechecked[line["batch"]] = line["recheck"]

    def _apply(self, number: int, line: dict[str, Any]) -> None:
        """Count a line read back, after checking that the plan can have it."""
        assert self.planned is not None
        if line["event"] == "plan":
            raise ImportJournalError(self.folder, f"line {number} starts another plan")
        if line["event"] == "found":
            self._check_found(number, line, self.planned.rows)
        else:
            batch = int(line["batch"])
            if batch >= self.planned.batches:
                raise ImportJournalError(self.folder, f"line {number} names batch {batch + 1}, "
                                         f"and the plan has {self.planned.batches}")
            if batch != self.done:
                raise ImportJournalError(self.folder, f"line {number} names batch {batch + 1} "
                                         f"out of turn (batch {self.done + 1} is the first not "
                                         "done, and batches go in turn)")
            why = None if line["event"] != "done" else _bad_results(
                line["results"], self.planned.size(batch))
            if why is not None:
                raise ImportJournalError(self.folder, f"line {number} holds an answer batch "
                                         f"{batch + 1} cannot have ({why})")
        self._count(line)

    def _check_found(self, number: int, line: dict[str, Any], rows: int) -> None:
        for item in line["rows"]:
            if not (isinstance(item, list) and len(item) == 2 and _whole(item[0])
                    and 0 <= item[0] < rows and _lead_id(item[1]) and item[1] is not None):
                raise ImportJournalError(self.folder, f"line {number} names a found lead "
                                         "the plan cannot have")
        kept = line.get("kept", [])
        if not (isinstance(kept, list) and all(_kept(item, rows) for item in kept)):
            raise ImportJournalError(self.folder, f"line {number} names a kept lead the "
                                     "plan cannot have")
        if line["hash"] != self.plan_hash:
            raise ImportJournalError(self.folder, f"line {number} was written for another plan")

    def _counted(self) -> tuple[int, int]:
        """The plan's rows and accepted rows, its ``status`` read a part at a time."""
        try:
            plan = pq.ParquetFile(self.plan)
            names = plan.schema_arrow.names
            accepted = 0 if "status" not in names else sum(
                int(np.count_nonzero(part.column("status").to_pandas() == "accepted"))
                for part in plan.iter_batches(columns=["status"]))
        except (OSError, ValueError, pa.ArrowException) as error:
            raise ImportJournalError(self.folder, f"{PLAN} is damaged and cannot be read "
                                     f"({type(error).__name__})") from None
        missing = [name for name in PLAN_COLUMNS if name not in names]
        if missing:
            raise ImportJournalError(self.folder, f"{PLAN} is not a plan of an import (no "
                                     f"{', '.join(missing)} column)")
        return plan.metadata.num_rows, accepted

    def _append(self, line: dict[str, Any]) -> None:
        """Write ``line`` whole and on disk, or not at all: a write the disk cuts short
        (full, a quota, a file-size limit) is cut back off, so that the journal still
        ends with its last whole line and the next run resumes after it, and the import
        stops with :class:`JournalWriteError` naming the folder and the cause. The line is
        counted first, as one read back is (:meth:`_count`)."""
        self._count(line)
        private_dir(self.folder)
        path = self.folder / LINES
        descriptor = open_private(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, _WRITTEN)
        try:
            start = os.fstat(descriptor).st_size  # one writer: the run holds the folder
            try:
                _write_all(descriptor, orjson.dumps(line) + b"\n")
                os.fsync(descriptor)
            except OSError as error:
                with contextlib.suppress(OSError):  # else the next open cuts the torn line
                    os.ftruncate(descriptor, start)
                raise _unwritten(self.folder / LINES, error) from None
        finally:
            os.close(descriptor)

    def _lines(self, up_to: int | None = None) -> Iterator[tuple[int, dict[str, Any]]]:
        """Every line (up to byte ``up_to``) with its 1-based number, a line at a time (a
        torn last line was cut off when the journal was opened)."""
        path = self.folder / LINES
        if not path.exists():
            return
        with open(path, "rb") as opened:
            read = 0
            for number, raw in enumerate(opened, start=1):
                read += len(raw)
                if up_to is not None and read > up_to:
                    return
                yield number, self._parsed(number, raw)

    def _parsed(self, number: int, raw: bytes) -> dict[str, Any]:
        try:
            line = orjson.loads(raw)
        except orjson.JSONDecodeError:
            line = None
        why = _bad_line(line)
        if number == 1 and why is not None and isinstance(line, dict) \
                and line.get("event") in ("sent", "done") and "hash" not in line:
            raise ImportJournalError(self.folder, "it was written by an earlier dialkit, whose "
                                     "lines did not name their batch's content")
        if why is not None:
            raise ImportJournalError(self.folder, f"line {number} is broken ({why})")
        return line  # type: ignore[no-any-return]


def _write_all(descriptor: int, data: bytes) -> None:
    """``data`` written whole: :func:`os.write` may write only a part (a disk that fills
    as it writes, a file-size limit), and is called again for the rest, which then
    fails with the cause (``ENOSPC``, ``EFBIG``, ``EDQUOT``) or is written."""
    view = memoryview(data)
    while view:
        written = os.write(descriptor, view)
        if written == 0:  # no progress and no error: taken as a full disk
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        view = view[written:]


def _cut_torn(path: Path) -> None:
    """Cut off a last line a kill left without its newline (never through a link: it
    would cut the last line of the file the link points to)."""
    with open(open_private(path, os.O_RDWR, _WRITTEN), "rb+") as opened:
        size = opened.seek(0, os.SEEK_END)
        if size == 0:
            return  # mmap cannot map an empty file
        with mmap.mmap(opened.fileno(), 0, access=mmap.ACCESS_READ) as lines:
            whole = lines.rfind(b"\n") + 1  # searched from the end: a large journal is not read
        if whole < size:
            opened.truncate(whole)


def _digest(path: Path) -> str:
    with open(path, "rb") as opened:
        return hashlib.file_digest(opened, "sha256").hexdigest()


def _about(folder: Path, about: dict[str, Any]) -> dict[str, Any]:
    """The plan line's account of the file, checked for what the journal writes."""
    texts = (about.get("custom_fields"), list(about.get("fields", {}).values()),
             list(about.get("fields", {})))
    if not (isinstance(about.get("name"), str) and isinstance(about.get("fields"), dict)
            and all(isinstance(t, list) and all(isinstance(v, str) for v in t) for t in texts)
            and _text(about.get("extension_field")) and _text(about.get("alt_phone_field"))):
        raise ImportJournalError(folder, "line 1 is broken (its account of the file is not "
                                 "one the journal writes)")
    return about


def _bad_line(line: Any) -> str | None:
    """Why a parsed line is not one the journal writes, or ``None``."""
    if not isinstance(line, dict):
        return "not a JSON object"
    fields = _FIELDS.get(line.get("event"))  # type: ignore[arg-type]
    if fields is None:
        return f"event {line.get('event')!r} is not one the journal writes"
    for name, kind in fields.items():
        value = line.get(name)
        if not isinstance(value, kind) or isinstance(value, bool):
            return f"no {kind.__name__} {name!r}"
    if "batch" in fields and line["batch"] < 0:
        return "a negative batch"
    return None


def _bad_results(results: list[Any], size: int) -> str | None:
    """Why a done line's answers cannot be one batch's of ``size`` leads, or ``None``."""
    indexes = []
    for result in results:
        if not (isinstance(result, list) and len(result) == 5 and _whole(result[0])):
            return "an answer is not [index, status, reason, field, lead_id]"
        index, status, reason, where, lead_id = result
        if status not in _STATUSES or not _text(reason) or not _text(where) \
                or not _lead_id(lead_id):
            return f"the answer for lead {index} is not a LeadResult"
        indexes.append(index)
    if sorted(indexes) != list(range(size)):
        return f"the answers are not one for each of its {size} leads"
    return None


def _kept(item: Any, rows: int) -> bool:
    """Whether ``item`` is ``[plan row, lead_id, phone]``, both ``None`` where none was found."""
    return (isinstance(item, list) and len(item) == 3 and _whole(item[0]) and 0 <= item[0] < rows
            and _lead_id(item[1]) and _text(item[2]) and (item[1] is None) == (item[2] is None))


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(value: Any) -> bool:
    return value is None or isinstance(value, str)


def _lead_id(value: Any) -> bool:
    return value is None or (isinstance(value, str) and value.startswith("lead_"))


def _unwritten(lines: Path, cause: OSError) -> JournalWriteError:
    """The journal's line not written whole, its cause in the system's words and what to
    do (:func:`~dialkit._files._outputs_written.why_not_written`)."""
    code = cause.errno or errno.EIO
    said, hint = why_not_written(OSError(code, cause.strerror))
    return JournalWriteError(lines, code, f"{said} ({hint})" if hint else said)
