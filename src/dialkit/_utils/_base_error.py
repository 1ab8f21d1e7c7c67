"""Every error dialkit raises but the service's answers, in one place, under the base
that one ``except dialkit.errors.DialkitError`` catches.

A module of no dialkit imports, so the lowest layers (the law's tables, the file limits)
can raise them without loading the contract; :mod:`dialkit.errors`, which adds the
service's answers (``ApiError`` and its kinds), names them all publicly and draws the
whole tree. Each says ``dialkit.errors`` in a traceback, where users import it.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol

if TYPE_CHECKING:
    import pandas as pd

SignatureReason = Literal["missing_header", "malformed_header", "timestamp_out_of_tolerance",
                          "no_matching_signature"]
"""Which check refused a webhook delivery (:class:`SignatureError`)."""
_JOURNAL_RECOVER = (
    "Nothing was sent. To recover, delete that folder and run the import again: it starts "
    "afresh and still imports each row once, because a batch the service already answered "
    "gets its stored answer under the same Idempotency-Key, and a row that is already a lead "
    "of the campaign is answered duplicate_in_campaign, found among the campaign's leads by "
    "phone and external id, and reported as imported with its lead_id.")


class DialkitError(Exception):
    """Base of every error dialkit raises.

    Each error also keeps the built-in base it had (``ValueError`` for bad input,
    ``RuntimeError``, ``LookupError``, ``OSError``) as its second parent, so an
    ``except ValueError`` written before this base existed still catches what it caught.
    """

    __module__ = "dialkit.errors"  # where users import it: a traceback names it so


class InputError(DialkitError, ValueError):
    """Input dialkit refuses on purpose, the caller's to fix: an argument, an option, a
    file or a frame's column; the message names it and what to pass instead.

    The command line answers it as ``error: <message>`` (exit status 2); any other
    exception is dialkit's own fault, answered as an internal error. Every
    error of bad input derives from it, so ``except InputError`` catches no bug.
    """

    __module__ = "dialkit.errors"


class WorkerMemoryError(DialkitError, MemoryError):
    """A Dask worker died while running dialkit's work on it, every time it was tried
    (``distributed``'s ``KilledWorker``): most likely of memory, its nanny stopping it past
    95 % of its limit, or the system's. The message says what to do (smaller partitions,
    more memory a worker: ``docs/scale.md``, "Memory"); the ``KilledWorker`` is its cause.
    A ``MemoryError``, not bad input: the data may be fine, the cluster too small for it."""

    __module__ = "dialkit.errors"


class ColumnError(InputError):
    """A column that holds the wrong kind of value (or a dataset's files that disagree);
    the message names it, the value at fault and its row, and what to write instead."""

    __module__ = "dialkit.errors"


class DayRuleError(InputError):
    """A day rule the table cannot use; the message names the row and the rule."""

    __module__ = "dialkit.errors"


class UnknownJurisdictionError(InputError):
    """No row has the id asked for; the message names it and the known ids."""

    __module__ = "dialkit.errors"


class LawDataError(InputError):
    """A table of law is not as it must be; the message names the file, row and column."""

    __module__ = "dialkit.errors"


class LimitError(InputError):
    """A file past one of its :class:`FileLimits`: the message is a :func:`refusal`."""

    __module__ = "dialkit.errors"


class AnalyticsInputError(InputError):
    """A frame given to an analytics function lacks a column it needs (or the frames given
    to the explorer lack one it needs): the message names the frame, what is missing and
    what to pass instead."""

    __module__ = "dialkit.errors"


class AuditInputError(InputError):
    """An input the audit cannot use: a frame that lacks a column it needs or holds a
    time that is not one, or a ``blocked_countries`` value that names no country.
    The message names the input; ``frame`` names the frame at fault (``calls``,
    ``leads`` or ``dnc``; ``None`` for another argument), so a caller that read the
    frames from files can name the file."""

    __module__ = "dialkit.errors"

    def __init__(self, message: str, *, frame: str | None = None) -> None:
        super().__init__(message)
        self.frame = frame


class TimeRangeError(InputError):
    """A time, or a length of time, outside what pandas holds: its nanosecond timestamps
    run from 1677-09-21 00:12:43 to 2262-04-11 23:47:16 UTC, and one outside them wraps
    round to another moment (``dialkit compliance when --at 0206-11-03T15:00Z`` once
    answered for another). Refused, never wrapped: the message names the value and the
    range."""

    __module__ = "dialkit.errors"


class CacheMissError(DialkitError, LookupError):
    """``refresh="offline"`` asked for a frame the cache does not hold."""

    __module__ = "dialkit.errors"


class CampaignError(InputError):
    """The campaign a lead file is for cannot take leads: the account has no campaign
    with this id, or its state refuses imports. Nothing was sent.

    Attributes:
        campaign_id: The campaign asked for.
        status: Its status, ``None`` when the account has no such campaign.
    """

    __module__ = "dialkit.errors"

    def __init__(self, message: str, *, campaign_id: str, status: str | None) -> None:
        super().__init__(message)
        self.campaign_id = campaign_id
        self.status = status


class ImportJournalError(InputError):
    """An import journal that cannot be trusted: it does not match its plan, a line
    is broken, or the plan is missing or damaged. Nothing was sent; the message
    names the folder, what is wrong, and how to start afresh.

    Attributes:
        folder: The journal's folder (delete it to start afresh).
    """

    __module__ = "dialkit.errors"

    def __init__(self, folder: Path, why: str) -> None:
        super().__init__(
            f"The import journal in {folder} cannot be trusted: {why}. {_JOURNAL_RECOVER}")
        self.folder = folder


class JournalWriteError(DialkitError, OSError):
    """A journal line could not be written whole: the disk holding the journal is full,
    a quota or a file-size limit is reached, or the disk failed. The journal was cut
    back to its last whole line, so it is sound: once the cause is mended, the same
    import resumes where it stopped and sends no finished batch again. An ``OSError``
    with the cause's ``errno``; ``filename`` is the journal's file.

    Attributes:
        folder: The journal's folder.
    """

    __module__ = "dialkit.errors"

    def __init__(self, lines: Path, code: int, said: str) -> None:
        super().__init__(code, said, str(lines))
        self.folder = lines.parent

    def __str__(self) -> str:
        return (f"the import journal in {self.folder} could not be written: {self.strerror}. "
                "The journal was left whole up to its last line: mend that, then run the "
                "same import again; it resumes where it stopped and sends no finished "
                "batch again")


class ImportRunningError(DialkitError, RuntimeError):
    """Another import of the same file into the same campaign is running, in this
    process or another: the two would send the same batches side by side. Nothing
    was sent. Not an :class:`ImportJournalError`, whose way out is to delete the
    folder: this journal is sound, and in use.

    Attributes:
        folder: The journal's folder, which the running import holds.
    """

    __module__ = "dialkit.errors"

    def __init__(self, folder: Path) -> None:
        super().__init__(
            f"Another import of this file into this campaign is running: it holds the "
            f"import journal in {folder}. Nothing was sent. Let it finish (or stop it), then "
            "run the import again: it resumes where that one stopped, and imports each row once.")
        self.folder = folder


class ImportOutcomes(Protocol):
    """What an import that stopped hands back (:class:`ImportStoppedError`'s ``report``,
    a :class:`dialkit.leads.ImportReport`), as far as its error needs to say: a Protocol,
    for this module is below every layer and names none of them, not even for the type
    checker."""

    @property
    def counts(self) -> pd.Series:
        """Rows by outcome (``imported``, ``refused_locally``, ...)."""

    @property
    def summary(self) -> pd.DataFrame:
        """Rows by ``outcome``, ``status``, ``reason`` and ``field``."""

    @property
    def notes(self) -> tuple[str, ...]:
        """What the import settled or noted, one sentence each."""

    @property
    def path(self) -> Path:
        """The report's Parquet file, every row's outcome."""


class ImportStoppedError(DialkitError, RuntimeError):
    """An import stopped before its last batch; running it again resumes, once the
    cause is gone (the message says whether a re-run alone can succeed).

    Attributes:
        report: The reconciled outcome of every row so far (rows not sent yet
            are ``not_attempted``): the import's :class:`dialkit.leads.ImportReport`.
        batch: The 1-based number of the batch that stopped it.
        cause: The error the service or the network answered.
    """

    __module__ = "dialkit.errors"

    def __init__(self, message: str, *, report: ImportOutcomes, batch: int,
                 cause: BaseException) -> None:
        super().__init__(message)
        self.report = report
        self.batch = batch
        self.cause = cause


class EncodingError(InputError):
    """Bytes that cannot be read as text: the message follows the file's name."""

    __module__ = "dialkit.errors"


class MonitorStateError(InputError):
    """A file that is not a monitor's state, or one of another format: the message names
    the file and what to pass instead."""

    __module__ = "dialkit.errors"


class LeadFileError(InputError):
    """A lead file that cannot be read: the message names the file and the cause."""

    __module__ = "dialkit.errors"


class WorkbookError(InputError):
    """A workbook that cannot be read: the message follows the file's name."""

    __module__ = "dialkit.errors"


class DoctypeError(WorkbookError):
    """A workbook part that declares a DOCTYPE: its message names the part."""

    __module__ = "dialkit.errors"


class SymlinkError(InputError, OSError):
    """A symbolic link where dialkit appends to a file, opens one in place or keeps a
    folder of its own: refused, never followed. On a shared or group-writable
    folder another user can plant ``name -> ~/.bashrc`` before dialkit writes ``name``;
    followed, the write would change the file the link points to, or its mode. The user's
    to fix (remove the link, or name another path), so an :class:`InputError`; and an
    ``OSError`` as the refused ``open`` is (``errno`` ``ELOOP``, ``filename`` the link),
    so that what catches a file that cannot be written catches it too.

    Attributes:
        path: The link.
        what: What dialkit writes there (``"the MCP audit log"``), as the message says it.
    """

    __module__ = "dialkit.errors"

    def __init__(self, path: str | os.PathLike[str], what: str) -> None:
        self.path, self.what = Path(path), what
        try:
            to = f" (to {os.readlink(self.path)})"
        except OSError:  # removed meanwhile
            to = ""
        said = (f"{self.path} is a symbolic link{to}, where dialkit writes {what}: it never "
                "writes through a link (that would change the file the link points to). "
                "Remove the link, or name another path")
        super().__init__(said)
        self.errno, self.strerror, self.filename = errno.ELOOP, said, str(self.path)

    def __str__(self) -> str:
        return str(self.strerror)

    def __reduce__(self) -> tuple[type[SymlinkError], tuple[Path, str]]:
        return type(self), (self.path, self.what)  # pickled by its arguments, not its text


class AccessRefusedError(DialkitError):
    """The credentials of a request are refused; carries the service's problem.

    Attributes:
        status: The HTTP status the service would answer (401, 403).
        code: The problem's ``code``, e.g. ``invalid_api_key``.
    """

    __module__ = "dialkit.errors"

    def __init__(self, detail: str, *, status: int, code: str) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code


class ConfigError(InputError):
    """A configuration that cannot be used (its TOML file, or the world file given as
    ``db``); the message says where and why."""

    __module__ = "dialkit.errors"


class SandboxStartError(DialkitError, RuntimeError):
    """The emulator could not start; the message says why."""

    __module__ = "dialkit.errors"


class SignatureError(InputError):
    """A delivery that must not be trusted; :attr:`reason` says which check failed.

    Attributes:
        reason: ``missing_header``, ``malformed_header``,
            ``timestamp_out_of_tolerance`` or ``no_matching_signature``.
    """

    __module__ = "dialkit.errors"

    def __init__(self, reason: SignatureReason, message: str) -> None:
        super().__init__(message)
        self.reason: SignatureReason = reason


class EnvelopeError(InputError):
    """A correctly signed body that is not a v1 event envelope (not JSON, a field missing)."""

    __module__ = "dialkit.errors"


class StoreError(DialkitError, RuntimeError):
    """The event store could not be opened or written; the message names the file."""

    __module__ = "dialkit.errors"


class ComplianceRiskWarning(UserWarning):
    """A contact the law may forbid, though nothing given says it does: a number of a
    state whose Do-Not-Call list its law obliges a caller to obtain, which no scrub given
    answers for; a listed number a record given would exempt, where the list's words on
    its exemptions were not read. ``next_allowed`` warns so beside its
    ``risk`` column; the client's guard sends such a contact and logs it, unless it
    enforces the policy."""

    __module__ = "dialkit.errors"
