"""The audit log of tool calls: one record per call, whatever became of it (run,
refused by the service, refused for its arguments or key, or not confirmed).

A record names the time, the API client and the key's credential id (never
the secret), the tool, a digest of the arguments (never the arguments: they
hold personal data), the outcome and what the user said when asked to
confirm. :class:`AuditLog` is what the server writes to; the emulator keeps
its records in its store, ``dialkit mcp serve`` in a JSON Lines file.
"""

from __future__ import annotations

import errno
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Literal, Protocol

import orjson

from .._files._private import open_private, private_dir

Confirmation = Literal["not_needed", "undecided", "asked", "given", "declined", "cancelled",
                       "unanswered", "unsupported"]
"""What became of the confirmation: not needed (the tool cannot reach a person, or the
call was refused before it could be asked), undecided (whether to ask could not be
decided, so the call was refused), asked (the question went to the client, no answer
yet), given, or refused in one of four ways."""

Outcome = Literal["ok", "error", "not_run", "sending"]
"""``ok``: the operation succeeded; ``error``: the service refused it, or the key
(``code`` says why), or the tool server failed (``internal_error``); ``not_run``: nothing
was sent (``code`` says why: no confirmation, ``invalid_arguments``, ``unknown_tool``,
``confirmation_undecided``, ``audit_log_unwritable``); ``sending``: a contact with an
override, recorded before it is sent (``override_recorded``), its outcome's record
following."""


@dataclass(frozen=True, slots=True)
class AuditRecord:
    """One tool call.

    Attributes:
        at: When, ISO 8601 in UTC.
        account: The account's name, where known.
        client_id: The API client's id.
        credential_id: The key's credential id.
        tool: The tool's name.
        arguments_digest: SHA-256 of the tool's name and arguments (canonical JSON).
        outcome: ``ok``, ``error`` or ``not_run``.
        confirmation: What the user said, if asked.
        status: The service's HTTP status, if it was called.
        code: The problem's ``code`` of a refusal, or why nothing ran.
        request_id: ``X-Request-ID`` of the service's answer.
        replayed: The answer was the stored answer of an earlier identical call.
        override: The reason given to send a contact the guard forbids, as the
            user was asked to confirm it.
        overridden: The rule the override was given over (``calling_hours``), where the
            guard forbade the contact when the user was asked.
    """

    at: str
    account: str | None
    client_id: str | None
    credential_id: str | None
    tool: str
    arguments_digest: str
    outcome: Outcome
    confirmation: Confirmation
    status: int | None = None
    code: str | None = None
    request_id: str | None = None
    replayed: bool = False
    override: str | None = None
    overridden: str | None = None

    def to_dict(self) -> dict[str, object]:
        """The record as plain data (JSON-ready): every field is a string, a number, a
        boolean or ``None``, so it is read field by field, not deep-copied as
        ``dataclasses.asdict`` would (a third of the cost of writing a record)."""
        return {name: getattr(self, name) for name in _FIELDS}


_FIELDS = tuple(field.name for field in fields(AuditRecord))


class AuditLog(Protocol):
    """Where the tool server writes its records."""

    def write(self, record: AuditRecord) -> None:
        """Keep ``record``."""
        ...


class MemoryAuditLog:
    """Records kept in memory, oldest first (tests, notebooks)."""

    def __init__(self) -> None:
        self._records: list[AuditRecord] = []
        self._lock = threading.Lock()

    def write(self, record: AuditRecord) -> None:
        """Keep ``record``."""
        with self._lock:
            self._records.append(record)

    def records(self) -> list[AuditRecord]:
        """Every record so far, oldest first."""
        with self._lock:
            return list(self._records)

    def __iter__(self) -> Iterator[AuditRecord]:
        return iter(self.records())


class JsonLinesAuditLog:
    """Records appended to a JSON Lines file (one object a line), owner-only.

    The file (and its folder) is created when the log is made, so a path that cannot
    be written fails then, before any tool runs an operation it could not record.

    Raises:
        OSError: The file cannot be created or opened for appending.
        dialkit.errors.SymlinkError: The file is a symbolic link: never
            written through.

    Examples:
        >>> log = JsonLinesAuditLog("audit.jsonl")
        >>> log.path.is_file()  # created at once, so a bad path fails here, not mid-call
        True
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        os.close(self._open())

    def _open(self) -> int:
        """The file opened for appending, owner-only (made so if it was not: a log
        written by another tool, or by an older dialkit), in owner-only new folders; a
        link at its name refused, each time it is opened."""
        private_dir(self.path.parent)
        return open_private(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT,
                            "the MCP audit log")

    def write(self, record: AuditRecord) -> None:
        """Append ``record`` as one line; a record of an override is on the disk (fsync)
        before this returns, for the contact is sent only after it.

        Raises:
            OSError: The line could not be written whole (a full disk, a folder in the
                file's place, a symbolic link: :class:`~dialkit.errors.SymlinkError`).
        """
        line = orjson.dumps(record.to_dict()) + b"\n"
        with self._lock:
            fd = self._open()
            try:
                if os.write(fd, line) != len(line):
                    raise OSError(errno.ENOSPC, "the record was written in part", str(self.path))
                if record.override is not None:
                    os.fsync(fd)
            finally:
                os.close(fd)

    def records(self) -> list[AuditRecord]:
        """Every record in the file, oldest first."""
        if not self.path.exists():
            return []
        return [AuditRecord(**orjson.loads(line))
                for line in self.path.read_bytes().splitlines() if line.strip()]
