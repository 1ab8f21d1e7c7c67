"""Importing a lead file exactly once, resumably, and reconciling every row.

:func:`import_leads` cleans the file (:func:`clean`), sends the accepted rows
in batches of at most 200, and maps each of the service's ``LeadResult``
answers back to the file's row. Batches are planned once and kept in a
journal (:mod:`._journal`): a re-run after a crash, a kill or a stop resumes
after the last finished batch, and a batch that was in flight goes again under
the same content-derived Idempotency-Key, so the service imports it once.
"""

from __future__ import annotations

import html
import os
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import orjson
import pandas as pd
from tqdm.auto import tqdm

from ..client import batch_key
from ..contract import IMPORTABLE_STATUSES, MAX_IMPORT_BATCH, ErrorCode
from ..errors import ApiError, OutcomeUnknownError
from ..frames import watched
from ._clean import clean
from ._journal import Journal, content_hash, journal_folder
from ._read import LeadFile, Source, read
from ._result import CleanResult

if TYPE_CHECKING:
    from ..client import Client

OUTCOMES = ("imported", "refused_locally", "refused_by_service", "not_attempted")
"""Every row's final outcome, one of these."""

_ANSWER_COLUMNS = ("index", "status", "reason", "field", "lead_id")


class ImportStoppedError(RuntimeError):
    """An import stopped before its last batch; running it again resumes.

    Attributes:
        report: The reconciled outcome of every row so far (rows not sent yet
            are ``not_attempted``).
        batch: The 1-based number of the batch that stopped it.
        cause: The error the service or the network answered.
    """

    def __init__(self, message: str, *, report: ImportReport, batch: int,
                 cause: BaseException) -> None:
        super().__init__(message)
        self.report = report
        self.batch = batch
        self.cause = cause


@dataclass(frozen=True)
class ImportReport:
    """One final outcome for every row of the file.

    Attributes:
        frame: One row per input row: the cleaned frame's columns (``row``,
            ``phone_e164``, ...; ``status``, ``reason`` and ``field`` are the
            service's answer where the row was sent, else the local verdict),
            then ``lead_id``, ``batch`` (1-based, for rows sent) and ``outcome``
            (``imported``, ``refused_locally``, ``refused_by_service`` or
            ``not_attempted``).
        campaign_id: The campaign imported into.
        batches: How many batches the import has; ``resumed`` of them were done
            by an earlier run and not sent again.
        journal: The journal's folder.
    """

    frame: pd.DataFrame
    campaign_id: str
    batches: int
    resumed: int
    journal: str

    @property
    def counts(self) -> pd.Series:
        """Rows by outcome (every outcome listed, zeros included)."""
        counts = self.frame["outcome"].value_counts()
        return pd.Series({name: int(counts.get(name, 0)) for name in OUTCOMES}, name="rows")

    @property
    def summary(self) -> pd.DataFrame:
        """Rows by ``outcome``, ``status``, ``reason`` and ``field``."""
        keys = ["outcome", "status", "reason", "field"]
        counts = self.frame[keys].astype(object).fillna("").value_counts(sort=True)
        summary: pd.DataFrame = counts.rename("rows").reset_index().replace({"": None})
        return summary

    def __repr__(self) -> str:
        shown = ", ".join(f"{name} {count}" for name, count in self.counts.items())
        return f"<ImportReport {self.campaign_id}: {len(self.frame)} rows: {shown}>"

    def _repr_html_(self) -> str:
        """The counts by outcome, then by the service's status, reason and field."""
        title = html.escape(f"Import into {self.campaign_id}: {len(self.frame):,} rows in "
                            f"{self.batches} batches ({self.resumed} done by an earlier run)")
        summary: str = self.summary.to_html(index=False)
        return f"<div><strong>{title}</strong>{summary}</div>"


def import_leads(client: Client, source: Source | LeadFile | CleanResult, campaign_id: str, *,
                 journal: str | os.PathLike[str] | None = None, progress: bool | None = None,
                 region: str = "US", blocked_countries: Collection[str] = (),
                 country_column: str | None = None, sheet: str | int | None = None,
                 mapping: Mapping[str, str] | None = None,
                 encoding: str | None = None) -> ImportReport:
    """Clean a lead file, import its accepted rows exactly once, and reconcile every row.

    Args:
        client: The account to import into.
        source: A lead file (as for :func:`read`), what :func:`read` returned,
            or what :func:`clean` returned (imported as it was cleaned).
        campaign_id: A draft, ready or paused campaign.
        journal: The folder of journals; by default ``imports/`` in the client's
            cache folder (``client.cache.path``). One journal per file content,
            campaign and options.
        progress: A progress bar over rows; by default in a notebook or a terminal.
        region, blocked_countries, country_column, sheet, mapping, encoding:
            As for :func:`clean`.

    Returns:
        An :class:`ImportReport` with one outcome per row of the file.

    Raises:
        ImportStoppedError: A batch could not be imported (the campaign is not
            importable, the outcome of a batch is unknown, the service or the
            network kept failing). Nothing finished is lost: run the same
            import again and it resumes.
        LeadFileError: The file cannot be read.

    Example:
        >>> report = dialkit.leads.import_leads(client, "vendor.csv", "cmp_...")  # doctest: +SKIP
        >>> report.counts  # doctest: +SKIP
    """
    options = {"region": region, "blocked_countries": sorted(blocked_countries),
               "country_column": country_column}
    if isinstance(source, CleanResult):
        file, cleaned = source.file, source
        content = content_hash(source.frame)
    else:
        file = source if isinstance(source, LeadFile) else read(
            source, sheet=sheet, mapping=mapping, encoding=encoding)
        cleaned = None
        content = content_hash(file.frame) + orjson.dumps(
            {"options": options, "fields": file.fields}, option=orjson.OPT_SORT_KEYS).hex()
    book = Journal.open(journal_folder(journal, client.cache.path, content, campaign_id))
    plan = book.plan
    if plan is not None:
        cleaned = CleanResult(plan, file, region, campaign_id, (), {})
    elif cleaned is None:
        cleaned = clean(file, client=client, campaign_id=campaign_id, region=region,
                        blocked_countries=blocked_countries, country_column=country_column)
    if plan is None:
        book.write_plan(cleaned.frame)
    return _Run(client, cleaned, campaign_id, book, progress).run()


class _Run:
    """One run of an import: the batches not done yet, then the reconciliation."""

    def __init__(self, client: Client, cleaned: CleanResult, campaign_id: str, book: Journal,
                 progress: bool | None) -> None:
        self.client = client
        self.cleaned = cleaned
        self.campaign_id = campaign_id
        self.book = book
        leads = cleaned.leads()
        rows = np.flatnonzero((cleaned.frame["status"] == "accepted").to_numpy(dtype=bool))
        self.batches = [(rows[at:at + MAX_IMPORT_BATCH], leads[at:at + MAX_IMPORT_BATCH])
                        for at in range(0, len(leads), MAX_IMPORT_BATCH)]
        self.resumed = sum(1 for n in range(len(self.batches)) if n in book.done)
        self.progress = watched() if progress is None else progress

    def run(self) -> ImportReport:
        with self._bar() as bar:
            for number, (positions, leads) in enumerate(self.batches):
                if number in self.book.done:
                    continue
                try:
                    self._send(number, leads)
                except (ApiError, OSError) as error:
                    raise self._stopped(number, error) from error
                bar.update(len(positions))
        return self.report()

    def _send(self, number: int, leads: list[dict[str, Any]]) -> None:
        key = batch_key(self.campaign_id, leads)
        self.book.record_sent(number, key)
        answer = self.client.leads.import_batch(self.campaign_id, leads)
        results = [[lead[name] for name in _ANSWER_COLUMNS]
                   for lead in (r.model_dump(mode="json") for r in answer)]
        self.book.record_done(number, key, results)

    def report(self) -> ImportReport:
        """Every row's outcome: the service's answer where its batch is done, else local."""
        frame = self.cleaned.frame.copy()
        attempted = np.zeros(len(frame), dtype=bool)
        answers = {name: frame[name].astype(object).to_numpy(copy=True)
                   for name in ("status", "reason", "field")}
        lead_id = np.full(len(frame), None, dtype=object)
        batch = np.full(len(frame), None, dtype=object)
        for number, (positions, _) in enumerate(self.batches):
            results = self.book.done.get(number)
            if results is None:
                continue
            for result in results:
                position = positions[result[0]]
                attempted[position] = True
                batch[position] = number + 1
                for name, value in zip(_ANSWER_COLUMNS[1:], result[1:], strict=True):
                    if name == "lead_id":
                        lead_id[position] = value
                    else:
                        answers[name][position] = value
        local = (frame["status"] != "accepted").to_numpy(dtype=bool)
        status = answers["status"]
        outcome = np.where(local, "refused_locally", np.where(
            ~attempted, "not_attempted", np.where(status == "accepted", "imported",
                                                  "refused_by_service")))
        for name, values in answers.items():
            frame[name] = pd.array(values, dtype="string[pyarrow]")
        frame["lead_id"] = pd.array(lead_id, dtype="string[pyarrow]")
        frame["batch"] = pd.array(batch, dtype="Int64")
        frame["outcome"] = pd.array(outcome, dtype="string[pyarrow]")
        return ImportReport(frame, self.campaign_id, len(self.batches), self.resumed,
                            str(self.book.folder))

    def _stopped(self, number: int, error: BaseException) -> ImportStoppedError:
        where = f"batch {number + 1} of {len(self.batches)}"
        if isinstance(error, OutcomeUnknownError):
            why = (f"the outcome of {where} is unknown (the service could not say whether it "
                   f"was imported). Its key is kept in the journal: run the same import again "
                   f"and the batch goes again under that key, so it is imported once.")
        elif isinstance(error, ApiError) and error.code == ErrorCode.CAMPAIGN_NOT_IMPORTABLE:
            why = (f"campaign {self.campaign_id} is {self._campaign_status()}, and leads can go "
                   f"only into a {', '.join(IMPORTABLE_STATUSES[:-1])} or "
                   f"{IMPORTABLE_STATUSES[-1]} campaign: pause it, then run the same import "
                   f"again to resume at {where}.")
        else:
            why = f"{where} failed ({error}). Run the same import again to resume at it."
        return ImportStoppedError(f"The import stopped: {why}", report=self.report(),
                                  batch=number + 1, cause=error)

    def _campaign_status(self) -> str:
        try:
            return str(self.client.campaigns.get(self.campaign_id).status.value)
        except ApiError:
            return "not importable"

    def _bar(self) -> Any:
        total = sum(len(p) for p, _ in self.batches)
        done = sum(len(p) for n, (p, _) in enumerate(self.batches) if n in self.book.done)
        return _Bar(total, done, self.progress)


class _Bar:
    """tqdm over rows when shown; a no-op otherwise."""

    def __init__(self, total: int, done: int, shown: bool) -> None:
        self._bar = tqdm(total=total, initial=done, unit=" leads", desc="importing") \
            if shown else None

    def update(self, rows: int) -> None:
        if self._bar is not None:
            self._bar.update(rows)

    def __enter__(self) -> _Bar:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.close()
