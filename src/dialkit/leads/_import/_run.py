"""Importing a lead file exactly once, resumably, and reconciling every row.

:func:`import_leads` cleans the file (:func:`clean`) into its plan, a Parquet
file in the journal's folder (a CSV on disk streamed, :mod:`.._clean._stream`), reads the
plan back a part at a time, sends the accepted rows in batches of at most 200,
and maps each of the service's ``LeadResult`` answers back to the file's row in
a report written beside it; memory holds a part of the file and counts, never
every row. Batches are planned once and kept in a journal (:mod:`._journal`):
a re-run after a crash, a kill or a stop resumes after the last finished batch,
and a batch that was in flight goes again under the same content-derived
Idempotency-Key, so the service imports it once. A
journal that does not match its plan is refused, never applied to other
batches. What the service cannot say (a key answered ``outcome_unknown`` again
and again, a row that is already a lead of the campaign) is settled from the
campaign's leads (:mod:`._recheck`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections import Counter
from collections.abc import Iterator, Sequence
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any, Unpack

import numpy as np
import orjson
import pandas as pd

from dialkit._files._outputs_written import written
from dialkit._files._private import FILE_MODE
from dialkit._places._blocked import blocked_regions
from dialkit._shown._progress import Shown, bar, shown
from dialkit._utils import _tuning
from dialkit.contract import MAX_IMPORT_BATCH, CampaignStatus, ErrorCode
from dialkit.errors import (
    ApiConnectionError,
    ApiError,
    MalformedResponseError,
    OutcomeUnknownError,
    RateLimitError,
    ServiceUnavailableError,
)

from ..._utils._base_error import ImportStoppedError
from .._clean._campaign import check_campaign, not_importable
from .._clean._custom import CustomFields, frame_column
from .._clean._result import (
    CleanResult,
    RowTally,
    _cells,
    cleaned_parts,
    extras_note,
    leads_of,
)
from .._clean._sinks import FrameSink
from .._clean._stream import clean_file_with
from .._options import CleanOptions, FileArgs, options_of
from .._read._lead_file import LeadFile, Source, read
from ._journal import (
    PLAN,
    PLAN_COLUMNS,
    REPORT,
    Batch,
    Journal,
    content_hash,
    file_hash,
    held,
    journal_folder,
)
from ._recheck import (
    UNKNOWN_LIMIT,
    Kept,
    LeadKey,
    Looked,
    campaign_holders,
    campaign_leads,
    found_note,
    kept_lead,
    kept_note,
    lead_key,
    name_kept,
    own_lead,
    recheck_note,
    send_rest,
    unnamed_note,
)
from ._report import ImportReport

if TYPE_CHECKING:
    from dialkit.client import Client, ImportResult

_ANSWER_COLUMNS = ("index", "status", "reason", "field", "lead_id")
_KEPT_COLUMNS = ("campaign_lead_id", "campaign_phone")
_IN_CAMPAIGN = "duplicate_in_campaign"
_REPEAT = ("duplicate", "duplicate_in_request")


def import_leads(client: Client, source: Source | LeadFile | CleanResult, campaign_id: str, *,
                 journal: str | os.PathLike[str] | None = None, progress: bool | None = None,
                 screen: bool = False, **options: Unpack[FileArgs]) -> ImportReport:
    """Clean a lead file, import its accepted rows exactly once, and reconcile every row.

    A row the service (or the local screen) answers ``duplicate_in_campaign``
    whose lead is in the campaign with the row's phone and external id is
    ``imported``, with that lead's ``lead_id``: an earlier import put it there.
    Another row answered ``duplicate_in_campaign`` stays refused, and the report
    names the lead the campaign keeps instead (``campaign_lead_id``,
    ``campaign_phone``): the lead with the row's phone, else the one with its
    external id. A batch the service answered ``outcome_unknown`` for twice is
    settled from the campaign's leads: the rows found there are imported, the
    others go under a new key. ``ImportReport.notes`` says when any of these
    happened.

    Args:
        client: The account to import into.
        source: A lead file (as for :func:`read`), what :func:`read` returned,
            or what :func:`clean` returned (imported as it was cleaned).
        campaign_id: A draft, ready or paused campaign.
        journal: The folder of journals; by default ``imports/`` in the client's
            cache folder (``client.cache.path``). One journal per file content,
            campaign and options.
        progress: A progress bar over rows; by default in a notebook or a terminal,
            and where nobody watches (a script under nohup or cron), a line on the
            ``dialkit.progress`` logger every 10 seconds, and at the end of a step that
            ran longer.
        screen: Also check, before the first batch is sent, every number against the
            account's DNC list and the campaign's leads, as ``clean(client=...,
            campaign_id=...)`` does: ``True`` for a plan whose local verdicts
            include them. By default the service alone screens them, as it does every
            imported lead, and its answers (``on_dnc``, ``duplicate_in_campaign``) are
            the rows' outcomes: the preview costs a request per 100 numbers and a
            read of the campaign's leads, two thirds of a large import's requests. A
            journal already planned resumes as it was planned.


    Keyword Args:
        region: As for :func:`clean` (a :class:`CleanResult` is imported with the
            options it was cleaned with), as are ``blocked_countries``, ``country_column``,
            ``sheet``, ``mapping``, ``encoding`` and ``header``.
        extension_field: As for :func:`clean`: each lead carries its extension as this
            custom field, and ``ImportReport.notes`` counts them.
        alt_phone_field: As for :func:`clean`: each lead carries its other numbers as
            this custom field.
    Returns:
        An :class:`ImportReport` with one outcome per row of the file.

    Raises:
        ImportStoppedError: A batch could not be imported (the campaign is not
            importable, the outcome of a batch is unknown, the service or the
            network kept failing, the service refused the batch). Nothing
            finished is lost: run the same import again and it resumes; the
            message says so only where a re-run alone can succeed (no answer, a
            5xx, a 429), else what to fix first.
        CampaignError: The campaign is not the account's or cannot take leads
            (read before anything is written, by :func:`clean`).
        ImportJournalError: The journal does not match its plan, or the plan is
            missing or damaged; nothing was sent, and the message says how to
            start afresh.
        ImportRunningError: Another import of the same file into the campaign is
            running (this process's or another's); nothing was sent.
        LeadFileError: The file cannot be read.

    Examples:
        >>> import dialkit.leads
        >>> with open("vendor.csv", "w") as file:  # a vendor's file, as it came
        ...     _ = file.write("Mobile,Name,E-mail\\n(415) 555-0199,Ada,ada@example.com\\n"
        ...                    "212.555.0142,Alan,\\nnot a phone,Nobody,\\n")
        >>> client = dialkit.Client.sandbox()
        >>> campaign_id = next(client.campaigns.list(status="ready")).id
        >>> report = dialkit.leads.import_leads(client, "vendor.csv", campaign_id)
        >>> report.counts
        imported              2
        refused_locally       1
        refused_by_service    0
        not_attempted         0
        Name: rows, dtype: int64
        >>> client.close()
    """
    asked = options_of("import_leads", options, FileArgs, client=client,
                       campaign_id=campaign_id)
    blocked_countries = blocked_regions(asked.blocked_countries)  # before anything is read
    said = {"region": asked.region, "blocked_countries": sorted(blocked_countries),
            "country_column": asked.country_column, "extension_field": asked.extension_field,
            "alt_phone_field": asked.alt_phone_field}  # what the journal's name is derived from
    named: Any
    if isinstance(source, CleanResult):
        digest, named = content_hash(source.frame), [source.extension_field,
                                                     source.alt_phone_field]
    elif isinstance(source, str | os.PathLike):  # read a block at a time, not whole
        read_as = [asked.sheet, asked.mapping, asked.encoding,  # a journal of before
                   *["no header"] * (asked.header is None)]
        digest, named = file_hash(source), {"options": said, "read": read_as}
    else:  # resumes under its name
        source = source if isinstance(source, LeadFile) else read(
            source, sheet=asked.sheet, mapping=asked.mapping, encoding=asked.encoding,
            header=asked.header)
        digest, named = content_hash(source.frame), {"options": said, "fields": source.fields}
    content = digest + orjson.dumps(named, option=orjson.OPT_SORT_KEYS).hex()
    folder = journal_folder(journal, client.cache.path, content, campaign_id)
    with held(folder):
        book = Journal.open(folder)
        if book.planned is None:
            book.write_plan(_plan(source, folder, progress, asked, screen))
        return _Run(client, campaign_id, book, shown(progress)).run()


def _plan(source: Any, folder: Path, progress: bool | None, options: CleanOptions,
          screen: bool) -> dict[str, Any]:
    """Clean the file into the journal's plan (a file on disk streamed a chunk at a time,
    :func:`clean_file`; a clean already made written as it is): what the journal's
    first line says of it. Without ``screen``, the campaign is read (:func:`check_campaign`)
    and the file cleaned offline: the service screens each row it is sent."""
    if isinstance(source, CleanResult):
        with _parquet(folder / PLAN) as sink:
            sink.write(source.frame)
        fields, custom, notes = source.file.fields, source.custom, source.notes
    else:
        if not screen:
            assert options.client is not None and options.campaign_id is not None
            check_campaign(options.client, options.campaign_id)
            options = dataclasses.replace(options, client=None)
        cleaned = clean_file_with(source, options, out=folder / PLAN, progress=progress)
        fields, custom, notes = cleaned.fields, CustomFields(
            cleaned.name, cleaned.custom_fields, options.extension_field,
            options.alt_phone_field), cleaned.notes
    return {"name": custom.name, "fields": fields, "custom_fields": list(custom.sent),
            "extension_field": custom.extension_field,
            "alt_phone_field": custom.alt_phone_field, "notes": list(notes)}


@contextlib.contextmanager
def _parquet(path: Path) -> Iterator[FrameSink]:
    """A Parquet file of the journal's folder written a part at a time under a hidden
    name, and made ``path``, owner-only, once complete (:func:`written`): a kill leaves
    the hidden file, which :meth:`Journal.open` removes, never a part of a plan or
    report as if whole."""
    with written(path, path.name, mode=FILE_MODE) as partial:
        sink = FrameSink(partial)
        try:
            yield sink
        finally:
            sink.close()


class _Run:
    """One run of an import: the plan's batches, in turn (those done by an earlier run
    checked against the journal, the others sent), then the reconciliation."""

    def __init__(self, client: Client, campaign_id: str, book: Journal, progress: Shown) -> None:
        assert book.planned is not None
        self.client, self.campaign_id, self.book = client, campaign_id, book
        self.planned = book.planned
        about = self.planned.about
        self.fields: dict[str, str] = about["fields"]
        self.custom = CustomFields(about["name"], tuple(about["custom_fields"]),
                                   about["extension_field"], about["alt_phone_field"])
        self.resumed = book.done
        self.sent = Counter[str]()  # leads of the batches done, by custom field they carry
        self.progress = progress

    def run(self) -> ImportReport:
        with self._bar() as bar:
            for batch in self._batches():
                self.book.check(batch)
                if batch.number >= self.resumed:
                    try:
                        self._settle(batch)
                    except (ApiError, OSError) as error:
                        raise self._stopped(batch, error) from error
                    bar.update(len(batch.positions))
                self.sent.update(name for lead in batch.leads
                                 for name in lead.get("custom_fields", ()))
        try:
            self._find_in_campaign()
        except (ApiError, OSError) as error:
            raise self._unlisted(error) from error
        return self.report()

    def _batches(self) -> Iterator[Batch]:
        """The plan's accepted rows as batches of :data:`MAX_IMPORT_BATCH` leads, in file
        order, read back :data:`~dialkit._utils._tuning.PLAN_ROWS` rows at a time."""
        leads: list[dict[str, Any]] = []  # a part's, and those left over from the part before
        positions = np.empty(0, dtype=np.int64)
        number = offset = 0
        for frame in cleaned_parts(self.book.plan, rows=_tuning.PLAN_ROWS):
            accepted = np.flatnonzero((frame["status"] == "accepted").to_numpy(dtype=bool))
            leads += leads_of(frame.iloc[accepted], self.fields, self.custom)
            positions = np.concatenate([positions, offset + accepted])
            offset += len(frame)
            whole = len(leads) if offset == self.planned.rows else \
                len(leads) - len(leads) % MAX_IMPORT_BATCH  # the last part sends the rest
            for at in range(0, whole, MAX_IMPORT_BATCH):
                yield Batch(number, positions[at:at + MAX_IMPORT_BATCH],
                            leads[at:at + MAX_IMPORT_BATCH], self.campaign_id)
                number += 1
            leads, positions = leads[whole:], positions[whole:]

    def _settle(self, batch: Batch) -> None:
        """Send a batch under its key, or settle it from the campaign's leads once the
        service has answered ``outcome_unknown`` for it :data:`UNKNOWN_LIMIT` times."""
        if self.book.unknown.get(batch.number, 0) >= UNKNOWN_LIMIT:
            self._recheck(batch)
            return
        try:
            self._send(batch)
        except OutcomeUnknownError as error:
            if self.book.record_unknown(batch, error.idempotency_key) < UNKNOWN_LIMIT:
                raise
            self._recheck(batch)

    def _send(self, batch: Batch) -> None:
        self.book.record_sent(batch)
        answer = self.client.leads.import_batch(self.campaign_id, batch.leads)
        self.book.record_done(batch, _results(answer, range(len(batch.leads))))

    def _recheck(self, batch: Batch) -> None:
        """Take the batch's leads found in the campaign as imported; send the others
        under a key derived from the batch's (see :func:`._recheck.rest_key`)."""
        keys = [lead_key(lead) for lead in batch.leads]
        leads = campaign_leads(self.client, self.campaign_id, set(keys))
        found = {n: leads.get(key) for n, key in enumerate(keys)}
        results = [[n, "accepted", None, None, lead_id] for n, lead_id in found.items()
                   if lead_id is not None]
        rest = [n for n, lead_id in found.items() if lead_id is None]
        key = None
        if rest:
            attempt = self.book.unknown.get(batch.number, 0)
            try:
                answer, key = send_rest(self.client, self.campaign_id,
                                        [batch.leads[n] for n in rest], batch.key, attempt)
            except OutcomeUnknownError as error:
                self.book.record_unknown(batch, error.idempotency_key)
                raise
            results += _results(answer, rest)
        self.book.record_done(batch, sorted(results, key=lambda result: int(result[0])),
                              {"found": len(batch.leads) - len(rest), "sent": len(rest),
                               "key": key})

    def _find_in_campaign(self) -> None:
        """Look up, once, the leads of rows answered ``duplicate_in_campaign``: a lead
        with the row's phone and external id is the row's, imported earlier; for each
        other row, the lead the campaign keeps instead (:func:`kept_lead`). One listing
        finds both. A journal whose look-up an earlier dialkit made (no ``kept``) keeps
        the leads it found, and the rows it did not find are looked up."""
        if self.book.kept is not None:
            return
        known = self.book.found or {}
        wanted = {position: key for position, key in self._wanted() if position not in known}
        if not wanted:
            return
        holders = campaign_holders(self.client, self.campaign_id, set(wanted.values()))
        found, kept = dict(known), dict[int, Kept]()
        for position, key in wanted.items():
            lead_id = own_lead(key, holders)
            if lead_id is not None:
                found[position] = lead_id
            else:
                kept[position] = kept_lead(self.client, self.campaign_id, key, holders)
        self.book.record_found(found, kept)

    def _wanted(self) -> Iterator[tuple[int, LeadKey]]:
        """Each row answered ``duplicate_in_campaign``: its place in the plan, and its
        phone and external id as sent."""
        column = self.fields.get("external_id")
        columns = [*PLAN_COLUMNS, *([frame_column(column)] if column else [])]
        for offset, frame, answers in self._answered(columns):
            rows = np.flatnonzero(answers["reason"] == _IN_CAMPAIGN)
            phones = _cells(frame.iloc[rows], "phone_e164")
            external = _cells(frame.iloc[rows], frame_column(column)) if column else \
                [None] * len(rows)
            yield from zip((offset + rows).tolist(), zip(phones, external, strict=True),
                           strict=True)

    def _answered(self, columns: list[str] | None = None) -> Iterator[
            tuple[int, pd.DataFrame, dict[str, np.ndarray]]]:
        """The plan a part at a time (its first row's place, its rows, and each row's
        ``status``, ``reason``, ``field``, ``lead_id`` and ``batch``: the service's answer
        where its batch is done, else the local verdict; ``attempted`` says which)."""
        answered = ((number * MAX_IMPORT_BATCH + result[0], number, result)  # in file order
                    for number, results in self.book.results()
                    for result in sorted(results, key=itemgetter(0)))
        pending = next(answered, None)
        before = offset = 0  # accepted rows in the parts before, rows in them
        for frame in cleaned_parts(self.book.plan, rows=_tuning.PLAN_ROWS, columns=columns):
            answers = {name: frame[name].astype(object).to_numpy(copy=True)
                       for name in ("status", "reason", "field")}
            answers.update({name: np.full(len(frame), None, dtype=object)
                            for name in ("lead_id", "batch", *_KEPT_COLUMNS)})
            answers["attempted"] = np.zeros(len(frame), dtype=bool)
            accepted = np.flatnonzero(answers["status"] == "accepted")
            while pending is not None and pending[0] < before + len(accepted):
                accepted_row, number, result = pending
                position = accepted[accepted_row - before]
                answers["attempted"][position] = True
                answers["batch"][position] = number + 1
                for name, value in zip(_ANSWER_COLUMNS[1:], result[1:], strict=True):
                    answers[name][position] = value
                pending = next(answered, None)
            yield offset, frame, answers
            before += len(accepted)
            offset += len(frame)

    def report(self) -> ImportReport:
        """Every row's outcome, written to the journal's folder a part at a time: the
        service's answer where its batch is done, else local; rows found in the
        campaign after ``duplicate_in_campaign`` imported, and the others named the
        lead the campaign keeps instead."""
        found = Looked(self.book.found)
        kept = Looked(self.book.kept)
        tally = RowTally(["outcome", "status", "reason", "field"])
        rows = 0
        named = Counter[str]()  # rows found, and refused for a kept lead, by kind
        given: set[str] = set()  # the leads found, each the first of its rows in the file's
        with _parquet(self.book.folder / REPORT) as sink:
            for offset, frame, answers in self._answered():
                here = np.zeros(len(frame), dtype=bool)
                for at, lead_id in found.within(offset, len(frame)):
                    if answers["reason"][at] == _IN_CAMPAIGN:
                        here[at] = _found(answers, at, lead_id, given)
                named["found"] += int(here.sum())
                for at, lead in kept.within(offset, len(frame)):
                    if answers["reason"][at] == _IN_CAMPAIGN:
                        named[name_kept(answers, at, lead, frame["phone_e164"].iloc[at])] += 1
                part = _outcomes(frame, answers, here)
                sink.write(part)
                tally.add(part)
                rows += len(part)
        return ImportReport(self.campaign_id, rows, tally.table(), self.planned.batches,
                            self.resumed, str(self.book.folder), self._notes(named))

    def _notes(self, named: Counter[str]) -> tuple[str, ...]:
        """The clean's notes, as ``leads clean`` says them (before, the import said
        nothing of a Country cell that contradicts its row's number; kept in the plan, a
        journal of an earlier version has none), then what the import itself found."""
        notes = [*self.planned.about.get("notes", ())]
        notes += [recheck_note(number, self.planned.size(number), recheck)
                  for number, recheck in sorted(self.book.rechecked.items())]
        if named["found"]:
            notes.append(found_note(named["found"]))
        if named["phone"] or named["external"]:
            notes.append(kept_note(named["phone"], named["external"]))
        if named["unnamed"]:
            notes.append(unnamed_note(named["unnamed"]))
        sent = extras_note(self.sent, self.custom)
        if sent and sent not in notes:  # the clean's sentence, where its counts are the same
            notes.append(sent)
        return tuple(notes)

    def _stopped(self, batch: Batch, error: BaseException) -> ImportStoppedError:
        where = f"batch {batch.number + 1} of {self.planned.batches}"
        if isinstance(error, OutcomeUnknownError):
            why = self._unknown(batch, where)
        elif isinstance(error, ApiError) and error.code == ErrorCode.CAMPAIGN_NOT_IMPORTABLE:
            status = self._campaign_status()
            then = (f", then run the same import again to resume at {where}."
                    if status == CampaignStatus.RUNNING else f" (stopped at {where}).")
            why = not_importable(self.campaign_id, status) + then
        elif transient(error):
            why = f"{where} failed ({error}). Run the same import again to resume at it."
        else:
            why = (f"{where} was refused ({error}). Running the same import again would be "
                   f"refused the same way: fix what the error names first.")
        try:
            report = self.report()
        except OSError:
            if isinstance(error, OSError):  # a full disk refuses the report as it did the
                raise error from None  # journal: the journal's error says which and why
            raise
        return ImportStoppedError(f"The import stopped: {why}", report=report,
                                  batch=batch.number + 1, cause=error)

    def _unknown(self, batch: Batch, where: str) -> str:
        """What to do after ``outcome_unknown``: advice that the next run carries out."""
        if self.book.unknown.get(batch.number, 0) < UNKNOWN_LIMIT:
            return (f"the outcome of {where} is unknown (the service could not say whether it "
                    f"was imported). Its key is kept in the journal: run the same import "
                    f"again and the batch goes again under that key, so it is imported once; "
                    f"if the service still cannot say, the import looks for the batch's rows "
                    f"among the campaign's leads and sends only those it does not find, under "
                    f"a new key.")
        return (f"the outcome of {where} is still unknown: its rows not found among the "
                f"campaign's leads went under a new key, and the service could not say whether "
                f"that import happened either. Run the same import again: it looks for the "
                f"rows among the campaign's leads again and sends only those still missing, "
                f"under another key.")

    def _unlisted(self, error: BaseException) -> ImportStoppedError:
        """Every batch is done, but the leads of rows answered duplicate_in_campaign
        could not be looked up."""
        then = ("Run the same import again: it sends nothing again and lists them once more."
                if transient(error) else "Fix what the error names, then run the same import "
                "again: it sends nothing again and lists them once more.")
        return ImportStoppedError(
            f"The import stopped: every batch is done, but the campaign's leads could not be "
            f"listed to find the rows answered {_IN_CAMPAIGN} ({error}). {then}",
            report=self.report(), batch=self.planned.batches, cause=error)

    def _campaign_status(self) -> str:
        try:
            return str(self.client.campaigns.get(self.campaign_id).status.value)
        except ApiError:
            return "not importable"

    def _bar(self) -> Any:
        """A bar over the rows sent, of the accepted rows (a no-op unless shown); its log
        lines say ``import: 200 of 450 leads sent``."""
        total = self.planned.accepted
        return bar(self.progress, total=total, initial=min(total, self.resumed * MAX_IMPORT_BATCH),
                   unit=" leads", unit_scale=True, desc=f"importing {total:,} leads",
                   line=("import", " leads sent"))


def _found(answers: dict[str, np.ndarray], at: int, lead_id: str, given: set[str]) -> bool:
    """Take the lead found for the row ``at`` as its own, unless an earlier row of the
    file has it: a repeat of that row (the local screen answered both
    ``duplicate_in_campaign``), which an import without the lead in the campaign
    refuses as ``duplicate_in_request``, and so the report says, whichever import made
    the lead (before, the second import of one file counted its repeats imported)."""
    if lead_id in given:
        answers["status"][at], answers["reason"][at] = _REPEAT
        answers["field"][at] = None
        return False
    given.add(lead_id)
    answers["lead_id"][at] = lead_id
    return True


def _outcomes(frame: pd.DataFrame, answers: dict[str, np.ndarray],
              found: np.ndarray) -> pd.DataFrame:
    """A part of the plan with each row's answer and outcome (``found``: rows found in
    the campaign after ``duplicate_in_campaign``)."""
    local = (frame["status"] != "accepted").to_numpy(dtype=bool)
    outcome = np.where(found, "imported", np.where(local, "refused_locally", np.where(
        ~answers["attempted"], "not_attempted", np.where(
            answers["status"] == "accepted", "imported", "refused_by_service"))))
    frame = frame.copy()
    for name in ("status", "reason", "field"):
        frame[name] = pd.array(answers[name], dtype=frame[name].dtype)
    frame["lead_id"] = pd.array(answers["lead_id"], dtype="string[pyarrow]")
    frame["batch"] = pd.array(answers["batch"], dtype="Int64")
    frame["outcome"] = pd.array(outcome, dtype="string[pyarrow]")
    for name in _KEPT_COLUMNS:
        frame[name] = pd.array(answers[name], dtype="string[pyarrow]")
    return frame


def transient(error: BaseException) -> bool:
    """Whether running the import again, unchanged, can get past ``error``: no answer
    or a broken one, a 5xx, a 429, a request with the same key still in flight. A 400,
    403, 404, 409 on the campaign's state or 422 would be answered the same way again.
    (``outcome_unknown`` has its own advice: :meth:`_Run._unknown`.)"""
    if isinstance(error, OSError | ApiConnectionError | ServiceUnavailableError
                  | RateLimitError | MalformedResponseError):
        return True
    return isinstance(error, ApiError) and (
        error.status is None or error.status >= 500 or error.code == ErrorCode.CONFLICT)


def _results(answer: ImportResult, indexes: Sequence[int]) -> list[list[Any]]:
    """The service's answers as journal lists, each index mapped to the batch's own
    (``indexes[i]`` for the i-th lead sent)."""
    return [[indexes[lead["index"]], *(lead[name] for name in _ANSWER_COLUMNS[1:])]
            for lead in (result.model_dump(mode="json") for result in answer)]

