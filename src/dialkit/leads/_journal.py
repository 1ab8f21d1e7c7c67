"""The import journal: what a lead import planned, sent and got back, on disk.

A notebook kernel dies, a laptop sleeps, a process is killed: an import of
many batches must resume where it stopped without sending a finished batch
again, and without re-sending an unfinished one under another key. So before
anything is sent the plan (every row's local verdict, so batches are the same
on every run) is written, and each batch gets a line when it is sent and a
line with the service's answers when it is done. Lines are appended and
flushed to disk one by one; a line torn by a kill is ignored on reading.

The folder is owner-only: it holds the file's personal data.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import pandas as pd

PLAN = "plan.parquet"
LINES = "journal.jsonl"


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


@dataclass
class Journal:
    """One import's journal: its plan and the batches done so far.

    Attributes:
        folder: Where it is kept.
        done: Batch number → the service's answers, one list per lead
            (``index``, ``status``, ``reason``, ``field``, ``lead_id``).
        sent: Batch number → Idempotency-Key of every batch sent.
    """

    folder: Path
    done: dict[int, list[list[Any]]] = field(default_factory=dict)
    sent: dict[int, str] = field(default_factory=dict)

    @classmethod
    def open(cls, folder: Path) -> Journal:
        """The journal in ``folder``, read back if an earlier run left one."""
        journal = cls(folder)
        for line in journal._lines():
            if line["event"] == "sent":
                journal.sent[line["batch"]] = line["key"]
            elif line["event"] == "done":
                journal.done[line["batch"]] = line["results"]
        return journal

    @property
    def plan(self) -> pd.DataFrame | None:
        """The first run's cleaned rows, or ``None`` on a first run."""
        path = self.folder / PLAN
        return pd.read_parquet(path) if path.exists() else None

    def write_plan(self, frame: pd.DataFrame) -> None:
        """Keep the cleaned rows (written whole, then renamed into place)."""
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(self.folder, 0o700)
        partial = self.folder / f"{PLAN}.partial"
        frame.to_parquet(partial, index=False)
        os.chmod(partial, 0o600)
        os.replace(partial, self.folder / PLAN)

    def record_sent(self, batch: int, key: str) -> None:
        """Note a batch about to be sent, with its key, before it is sent."""
        self.sent[batch] = key
        self._append({"event": "sent", "batch": batch, "key": key})

    def record_done(self, batch: int, key: str, results: list[list[Any]]) -> None:
        """Note a batch's answers once the service gave them."""
        self.done[batch] = results
        self._append({"event": "done", "batch": batch, "key": key, "results": results})

    def _append(self, line: dict[str, Any]) -> None:
        path = self.folder / LINES
        descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(descriptor, orjson.dumps(line) + b"\n")
            os.fsync(descriptor)
        finally:
            os.close(descriptor)

    def _lines(self) -> Iterator[dict[str, Any]]:
        path = self.folder / LINES
        if not path.exists():
            return
        for raw in path.read_bytes().splitlines():
            try:
                line = orjson.loads(raw)
            except orjson.JSONDecodeError:
                continue  # a line torn by a kill: its batch counts as not done
            if isinstance(line, dict) and "event" in line:
                yield line
