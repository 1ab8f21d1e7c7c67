"""The import journal: what a lead import planned, sent and got back, on disk.

A notebook kernel dies, a laptop sleeps, a process is killed: an import of
many batches must resume where it stopped without sending a finished batch
again, and without re-sending an unfinished one under another key. So before
anything is sent the plan (every row's local verdict, so batches are the same
on every run) is written, and the journal's first line holds the plan file's
digest. Each batch gets a line when it is sent, when the service answers
``outcome_unknown`` and when it is done, and every one of those lines names its
batch by number, Idempotency-Key and content hash (the rows' places in the
plan and the leads sent). Lines are appended and flushed to disk one by one.

A journal is trusted only as far as it can be checked: a line is applied only
to the batch it names, and a journal that does not match its plan (the plan
deleted or replaced, a line for another batch, a hand-made line, a broken
line, answers the batch cannot have) is refused with :class:`ImportJournalError`,
whose message says how to start afresh. Only the last line can be torn by a
kill (each line is one write ending in a newline): a last line without its
newline is cut off on reading, so its batch counts as not done and the next
line starts clean.

The folder is owner-only: it holds the file's personal data.
"""

from __future__ import annotations

import hashlib
import io
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import orjson
import pandas as pd
import pyarrow as pa

from ..client import batch_key
from ..contract import LeadResultStatus

PLAN = "plan.parquet"
LINES = "journal.jsonl"
PLAN_COLUMNS = ("row", "phone_e164", "status", "reason", "field")
"""The plan's columns the import reads."""

RECOVER = (
    "Nothing was sent. To recover, delete that folder and run the import again: it starts "
    "afresh and still imports each row once, because a batch the service already answered "
    "gets its stored answer under the same Idempotency-Key, and a row that is already a lead "
    "of the campaign is answered duplicate_in_campaign, found among the campaign's leads by "
    "phone and external id, and reported as imported with its lead_id.")

_BATCH_FIELDS: dict[str, type] = {"batch": int, "key": str, "hash": str}
_FIELDS: dict[str, dict[str, type]] = {
    "plan": {"hash": str},
    "sent": _BATCH_FIELDS,
    "unknown": _BATCH_FIELDS,
    "done": {**_BATCH_FIELDS, "results": list},
    "found": {"hash": str, "rows": list},
}
_STATUSES = frozenset(status.value for status in LeadResultStatus)


class ImportJournalError(ValueError):
    """An import journal that cannot be trusted: it does not match its plan, a line
    is broken, or the plan is missing or damaged. Nothing was sent; the message
    names the folder, what is wrong, and how to start afresh.

    Attributes:
        folder: The journal's folder (delete it to start afresh).
    """

    def __init__(self, folder: Path, why: str) -> None:
        super().__init__(f"The import journal in {folder} cannot be trusted: {why}. {RECOVER}")
        self.folder = folder


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


@dataclass
class Journal:
    """One import's journal: its plan and what each batch got so far.

    Attributes:
        folder: Where it is kept.
        plan: The first run's cleaned rows; ``None`` on a first run.
        done: Batch number → the service's answers, one list per lead
            (``index``, ``status``, ``reason``, ``field``, ``lead_id``).
        rechecked: Batch number → how a batch whose outcome stayed unknown was
            settled (``found``, ``sent``, ``key``).
        unknown: Batch number → how many times the service answered
            ``outcome_unknown`` for it, across runs.
        found: Plan row → the lead_id of the campaign's lead found for a row
            answered ``duplicate_in_campaign``; ``None`` until looked up.
    """

    folder: Path
    plan: pd.DataFrame | None = None
    plan_hash: str | None = None
    done: dict[int, list[list[Any]]] = field(default_factory=dict)
    rechecked: dict[int, dict[str, Any]] = field(default_factory=dict)
    unknown: dict[int, int] = field(default_factory=dict)
    found: dict[int, str] | None = None
    _lines: list[tuple[int, dict[str, Any]]] = field(default_factory=list, repr=False)

    @classmethod
    def open(cls, folder: Path) -> Journal:
        """The journal in ``folder``, read back and checked against its plan if an
        earlier run left one; lines about batches wait for :meth:`apply`.

        Raises:
            ImportJournalError: A broken line, a missing or damaged plan, or a
                plan that is not the one the journal was written for.
        """
        journal = cls(folder)
        lines = list(journal._read())
        journal._read_plan()
        if lines and journal.plan is None:
            raise ImportJournalError(folder, f"its plan, {PLAN}, is missing")
        if lines:
            number, first = lines[0]
            if first["event"] != "plan" or first["hash"] != journal.plan_hash:
                raise ImportJournalError(folder, f"{PLAN} is not the plan its journal was "
                                         "written for (the digest on its first line differs)")
        elif journal.plan_hash is not None:
            journal._append({"event": "plan", "hash": journal.plan_hash})
        journal._lines = lines[1:]
        return journal

    def apply(self, batches: Sequence[Batch]) -> None:
        """Apply each line to the batch it names, after checking that it is that batch.

        Raises:
            ImportJournalError: A line names a batch the plan does not have, with
                another key or content, or holds answers the batch cannot have.
        """
        rows = 0 if self.plan is None else len(self.plan)
        for number, line in self._lines:
            if line["event"] == "found":
                self.found = self._found(number, line, rows)
                continue
            batch = self._batch_of(number, line, batches)
            if line["event"] == "unknown":
                self.unknown[batch.number] = self.unknown.get(batch.number, 0) + 1
            elif line["event"] == "done":
                self.done[batch.number] = self._results(number, line, len(batch.leads))
                if isinstance(line.get("recheck"), dict):
                    self.rechecked[batch.number] = line["recheck"]

    def write_plan(self, frame: pd.DataFrame) -> None:
        """Keep the cleaned rows (written whole, then renamed into place), and start the
        journal with the plan's digest."""
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(self.folder, 0o700)
        partial = self.folder / f"{PLAN}.partial"
        frame.to_parquet(partial, index=False)
        os.chmod(partial, 0o600)
        os.replace(partial, self.folder / PLAN)
        self.plan = frame
        self.plan_hash = hashlib.sha256((self.folder / PLAN).read_bytes()).hexdigest()
        (self.folder / LINES).unlink(missing_ok=True)  # lines of no plan: none can apply
        self._append({"event": "plan", "hash": self.plan_hash})

    def record_sent(self, batch: Batch) -> None:
        """Note a batch about to be sent, with its key, before it is sent."""
        self._append({"event": "sent", **batch.names()})

    def record_unknown(self, batch: Batch, answered_key: str | None) -> int:
        """Note an ``outcome_unknown`` answer for a batch; how many it has had."""
        self.unknown[batch.number] = self.unknown.get(batch.number, 0) + 1
        self._append({"event": "unknown", **batch.names(), "answered_key": answered_key})
        return self.unknown[batch.number]

    def record_done(self, batch: Batch, results: list[list[Any]],
                    recheck: Mapping[str, Any] | None = None) -> None:
        """Note a batch's answers once the service gave them (or once found)."""
        self.done[batch.number] = results
        line = {"event": "done", **batch.names(), "results": results}
        if recheck is not None:
            self.rechecked[batch.number] = dict(recheck)
            line["recheck"] = dict(recheck)
        self._append(line)

    def record_found(self, found: Mapping[int, str]) -> None:
        """Note the leads found for rows answered ``duplicate_in_campaign``."""
        self.found = dict(found)
        rows = sorted([position, lead_id] for position, lead_id in found.items())
        self._append({"event": "found", "hash": self.plan_hash, "rows": rows})

    def _batch_of(self, number: int, line: dict[str, Any], batches: Sequence[Batch]) -> Batch:
        if line["batch"] >= len(batches):
            raise ImportJournalError(self.folder, f"line {number} names batch "
                                     f"{line['batch'] + 1}, and the plan has {len(batches)}")
        batch: Batch = batches[int(line["batch"])]
        if (line["key"], line["hash"]) != (batch.key, batch.digest):
            raise ImportJournalError(self.folder, f"line {number} does not match batch "
                                     f"{batch.number + 1} of the plan (its Idempotency-Key or "
                                     "content hash differs)")
        return batch

    def _results(self, number: int, line: dict[str, Any], size: int) -> list[list[Any]]:
        results: list[Any] = line["results"]
        why = _bad_results(results, size)
        if why is not None:
            raise ImportJournalError(self.folder, f"line {number} holds an answer batch "
                                     f"{line['batch'] + 1} cannot have ({why})")
        return results

    def _found(self, number: int, line: dict[str, Any], rows: int) -> dict[int, str]:
        found: dict[int, str] = {}
        for item in line["rows"]:
            if not (isinstance(item, list) and len(item) == 2 and _whole(item[0])
                    and 0 <= item[0] < rows and _lead_id(item[1]) and item[1] is not None):
                raise ImportJournalError(self.folder, f"line {number} names a found lead "
                                         "the plan cannot have")
            found[item[0]] = item[1]
        if line["hash"] != self.plan_hash:
            raise ImportJournalError(self.folder, f"line {number} was written for another plan")
        return found

    def _read_plan(self) -> None:
        path = self.folder / PLAN
        if not path.exists():
            return
        data = path.read_bytes()
        try:
            plan = pd.read_parquet(io.BytesIO(data))
        except (OSError, ValueError, pa.ArrowException) as error:
            raise ImportJournalError(self.folder, f"{PLAN} is damaged and cannot be read "
                                     f"({type(error).__name__})") from None
        missing = [name for name in PLAN_COLUMNS if name not in plan.columns]
        if missing:
            raise ImportJournalError(self.folder, f"{PLAN} is not a plan of an import (no "
                                     f"{', '.join(missing)} column)")
        self.plan, self.plan_hash = plan, hashlib.sha256(data).hexdigest()

    def _append(self, line: dict[str, Any]) -> None:
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        path = self.folder / LINES
        descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(descriptor, orjson.dumps(line) + b"\n")
            os.fsync(descriptor)
        finally:
            os.close(descriptor)

    def _read(self) -> Iterator[tuple[int, dict[str, Any]]]:
        """Every line with its 1-based number, a torn last line cut off first."""
        path = self.folder / LINES
        if not path.exists():
            return
        data = path.read_bytes()
        if data and not data.endswith(b"\n"):  # a line torn by a kill: cut it off
            data = data[:data.rfind(b"\n") + 1]
            os.truncate(path, len(data))
        for number, raw in enumerate(data.splitlines(), start=1):
            try:
                line = orjson.loads(raw)
            except orjson.JSONDecodeError:
                line = None
            why = _bad_line(line)
            if number == 1 and why is not None and isinstance(line, dict) \
                    and line.get("event") in ("sent", "done") and "hash" not in line:
                why = ("it was written by an earlier dialkit, whose lines did not name their "
                       "batch's content")
                raise ImportJournalError(self.folder, why)
            if why is not None:
                raise ImportJournalError(self.folder, f"line {number} is broken ({why})")
            yield number, line


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


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(value: Any) -> bool:
    return value is None or isinstance(value, str)


def _lead_id(value: Any) -> bool:
    return value is None or (isinstance(value, str) and value.startswith("lead_"))
