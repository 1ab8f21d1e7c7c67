"""What an import answers: :class:`ImportReport`, one final outcome for every row of the
file, kept in the journal's folder (:mod:`._journal`) and read back a part at a time."""

from __future__ import annotations

import contextlib
import html
import os
import shutil
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import pandas as pd

from dialkit._files._outputs_written import written
from dialkit._shown._pages import NOT_MATH
from dialkit._shown._words import counted
from dialkit._utils import _tuning

from .._clean._result import cleaned_parts, counts_html, rows_by
from .._clean._sinks import CsvSink
from ._journal import REPORT

OUTCOMES = ("imported", "refused_locally", "refused_by_service", "not_attempted")
"""Every row's final outcome, one of these."""


@dataclass(frozen=True)
class ImportReport:
    """One final outcome for every row of the file, kept in the journal's folder (a
    Parquet file, :attr:`path`), with their counts in memory.

    Attributes:
        campaign_id: The campaign imported into.
        rows: The file's rows.
        summary: Rows by ``outcome``, ``status``, ``reason`` and ``field``, most
            frequent first.
        batches: How many batches the import has; ``resumed`` of them were done
            by an earlier run and not sent again.
        journal: The journal's folder.
        notes: What the clean of the file noted (:attr:`CleanResult.notes`: which
            column became which field, rows whose Country contradicts their number
            and the fix), then what the import settled from the campaign's leads
            rather than from the service's answers (a batch whose outcome stayed
            unknown, rows already leads of the campaign, rows refused for another
            lead the campaign keeps, and what to do about them), one sentence each.
    """

    campaign_id: str
    rows: int
    summary: pd.DataFrame = field(repr=False)
    batches: int
    resumed: int
    journal: str
    notes: tuple[str, ...] = ()

    @property
    def path(self) -> Path:
        """The report's Parquet file: :attr:`frame`'s rows, written a part at a time."""
        return Path(self.journal) / REPORT

    @cached_property
    def frame(self) -> pd.DataFrame:
        """One row per input row, read from :attr:`path` when first asked (a file of
        millions of rows is better read a part at a time, or written with
        :meth:`to_csv`): the cleaned frame's columns (``row``, ``phone_e164``, ...;
        ``status``, ``reason`` and ``field`` are the service's answer where the row
        was sent, else the local verdict), then ``lead_id``, ``batch`` (1-based, for
        rows sent), ``outcome`` (``imported``, ``refused_locally``,
        ``refused_by_service`` or ``not_attempted``), and, for a row still refused as
        ``duplicate_in_campaign``, the lead the campaign keeps instead:
        ``campaign_lead_id`` and its phone, ``campaign_phone`` (the row's own number
        where another lead has it; another where the lead has the row's external id:
        a lead's phone never changes), both empty where no such lead is found (a
        note says so) and on every other row."""
        return pd.concat(list(cleaned_parts(self.path, rows=_tuning.PLAN_ROWS)))

    @property
    def counts(self) -> pd.Series:
        """Rows by outcome (every outcome listed, zeros included)."""
        counts = rows_by(self.summary, "outcome")
        return pd.Series({name: counts.get(name, 0) for name in OUTCOMES}, name="rows")

    @property
    def headline(self) -> str:
        """``1,204 rows in 7 batches (2 done by an earlier run)``, in the singular for one."""
        return (f"{counted(self.rows, 'row')} in {counted(self.batches, 'batch')} "
                f"({self.resumed} done by an earlier run)")

    def to_csv(self, path: str | os.PathLike[str], *, escape_formulas: bool = True) -> None:
        """Write every row's outcome as CSV, a part at a time (formula-like cells made
        text unless ``escape_formulas=False``, as :meth:`CleanResult.to_csv`), under a
        hidden name renamed to ``path`` when complete: a failed write (a full disk)
        leaves nothing that looks whole, and a link at ``path`` is replaced, never
        written through."""
        with self._written(path) as partial, open(partial, "wb") as out:
            sink = CsvSink(out, escape_formulas=escape_formulas)
            for part in cleaned_parts(self.path, rows=_tuning.PLAN_ROWS):
                sink.write(part)
            sink.close()

    def to_parquet(self, path: str | os.PathLike[str]) -> None:
        """Copy the report's Parquet file (:attr:`path`) to ``path``, as :meth:`to_csv`
        writes: whole or not at all, never through a link."""
        with self._written(path) as partial:
            shutil.copyfile(self.path, partial)

    def _written(self, path: str | os.PathLike[str]) -> contextlib.AbstractContextManager[Path]:
        """A safe write of ``path``, which must not be the report's own file."""
        return written(path, "path", inputs={"the report's own file": self.path})

    def __repr__(self) -> str:
        shown = ", ".join(f"{name} {count:,}" for name, count in self.counts.items())
        return f"<ImportReport {self.campaign_id}: {self.rows:,} rows: {shown}>"

    def _repr_html_(self) -> str:
        """The counts by outcome, then by the service's status, reason and field."""
        title = html.escape(f"Import into {self.campaign_id}: {self.headline}")
        summary = counts_html(self.summary)
        notes = "".join(f"<li>{html.escape(note)}</li>" for note in self.notes)
        return f'<div class="{NOT_MATH}"><strong>{title}</strong>{summary}<ul>{notes}</ul></div>'
