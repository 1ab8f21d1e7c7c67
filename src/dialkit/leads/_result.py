"""What :func:`dialkit.leads.clean` answers: every row with its verdict, and views of it.

One frame holds everything (the file's own columns, then the verdict), so a
reader can filter, sort and export it with pandas alone; the properties and
exports are the views people ask for first: what passes, what fails and why,
and a file to send back to the vendor.
"""

from __future__ import annotations

import base64
import html
import io
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pacsv

from ..contract import LeadInput
from ..frames import excel_writer, formulas_escaped
from ._read import LeadFile

VERDICT_COLUMNS = ("row", "phone_e164", "country", "extension", "status", "reason", "field",
                   "flags")
"""The columns :func:`clean` adds after the file's own."""

SENT_FIELDS = tuple(name for name in LeadInput.model_fields if name not in ("phone",
                                                                             "custom_fields"))
"""The lead fields a file's columns can fill, besides the phone and custom fields."""

_SHOWN_REJECTS = 10


@dataclass(frozen=True)
class CleanResult:
    """Every row of a lead file with the verdict the service would give it.

    Attributes:
        frame: One row per input row, in file order: the file's columns (a
            column named like a verdict column gets `` (file)`` appended), then
            ``row`` (the 1-based data line), ``phone_e164``, ``country``,
            ``extension``, ``status`` (``accepted`` or the service's refusal),
            ``reason``, ``field`` and ``flags``.
        file: The file as read: its name, field mapping and custom fields.
        region: The default region the numbers were read in.
        campaign_id: The campaign checked against, if any.
        blocked_countries: The regions refused as blocked.
        skipped: Checks that did not run, each with what would run it.
    """

    frame: pd.DataFrame
    file: LeadFile = field(repr=False)
    region: str
    campaign_id: str | None
    blocked_countries: tuple[str, ...]
    skipped: Mapping[str, str]

    @classmethod
    def build(cls, file: LeadFile, numbers: pd.DataFrame, verdicts: pd.DataFrame,
              **about: Any) -> CleanResult:
        """Join the file's columns, the normalised numbers and the verdicts."""
        original = file.frame.rename(columns={c: f"{c} (file)" for c in file.frame.columns
                                              if c in VERDICT_COLUMNS})
        row = pd.Series(np.arange(1, len(original) + 1), index=original.index, name="row")
        frame = pd.concat([original, row, numbers[["phone_e164", "country", "extension"]],
                           verdicts, numbers[["flags"]]], axis=1)
        return cls(frame, file, **about)

    @property
    def accepted(self) -> pd.DataFrame:
        """The rows that pass every check that ran."""
        return self.frame[self.frame["status"] == "accepted"]

    @property
    def rejected(self) -> pd.DataFrame:
        """The rows the service would refuse, with its status, reason and field."""
        return self.frame[self.frame["status"] != "accepted"]

    @property
    def summary(self) -> pd.DataFrame:
        """Rows by ``status``, ``reason`` and ``field``, most frequent first."""
        return count_rows(self.frame, ["status", "reason", "field"])

    @property
    def counts(self) -> dict[str, int]:
        """Rows by ``status``, without copying any row."""
        counts = self.frame["status"].value_counts()
        return {str(k): int(v) for k, v in counts.items() if v}

    def leads(self) -> list[dict[str, Any]]:
        """The accepted rows as the import sends them: E.164 phone, the mapped
        fields, the custom fields; empty cells left out."""
        rows = self.accepted
        fields = {name: self.file.fields[name] for name in SENT_FIELDS
                  if name in self.file.fields}
        columns = {name: _cells(rows, self._column(column)) for name, column in fields.items()}
        custom = {name: _cells(rows, self._column(name)) for name in self.file.custom_fields}
        phones = rows["phone_e164"].tolist()
        leads = []
        for n, phone in enumerate(phones):
            lead: dict[str, Any] = {"phone": phone}
            lead.update({k: v[n] for k, v in columns.items() if v[n] is not None})
            extra = {k: v[n] for k, v in custom.items() if v[n] is not None}
            if extra:
                lead["custom_fields"] = extra
            leads.append(lead)
        return leads

    def _column(self, name: str) -> str:
        """A file column's name in :attr:`frame` (renamed if a verdict column took it)."""
        return f"{name} (file)" if name in VERDICT_COLUMNS else name

    def to_csv(self, path: str | os.PathLike[str] | None = None,
               rows: str = "all", *, escape_formulas: bool = True) -> str | None:
        """Write every row (``rows="accepted"`` or ``"rejected"`` for those only) as
        CSV, UTF-8; without ``path``, return the text.

        A lead file's text can hold a formula (``=HYPERLINK(...)``); by default a text
        cell or column name that starts with ``=``, ``+``, ``-``, ``@``, a tab or a
        carriage return is written with a leading ``'`` so that a spreadsheet shows it
        as text (a whole E.164 number such as ``+14155550123`` is left as it is; see
        :func:`dialkit.frames.formulas_escaped`). ``escape_formulas=False`` writes the
        values as they are, for programs.

        Written by pyarrow's CSV writer, ten times pandas' speed on a large file.
        """
        frame = self._rows(rows)
        table = pa.Table.from_pandas(formulas_escaped(frame) if escape_formulas else frame,
                                     preserve_index=False)
        sink = io.BytesIO() if path is None else os.fspath(path)
        pacsv.write_csv(table, sink, pacsv.WriteOptions(quoting_style="needed"))
        return sink.getvalue().decode() if isinstance(sink, io.BytesIO) else None

    def to_excel(self, path: str | os.PathLike[str]) -> None:
        """An Excel workbook: the accepted rows, the rejected rows and the summary,
        each on its own sheet, every text a string cell: no phone becomes a number and
        no cell a formula or link, whatever the file held."""
        with excel_writer(path) as book:
            for name, part in (("accepted", self.accepted), ("rejected", self.rejected),
                               ("summary", self.summary)):
                part.to_excel(book, sheet_name=name, index=False)

    def _rows(self, rows: str) -> pd.DataFrame:
        if rows == "all":
            return self.frame
        if rows == "accepted":
            return self.accepted
        if rows == "rejected":
            return self.rejected
        raise ValueError(f"rows={rows!r}: pass 'all', 'accepted' or 'rejected'")

    def __repr__(self) -> str:
        shown = ", ".join(f"{status} {count}" for status, count in self.counts.items())
        return f"<CleanResult {self.file.name}: {len(self.frame)} rows: {shown}>"

    def _repr_html_(self) -> str:
        """The counts, a bar chart of the reasons, and the first rejected rows."""
        accepted = self.counts.get("accepted", 0)
        title = html.escape(f"{self.file.name}: {len(self.frame):,} rows, {accepted:,} "
                            f"accepted, {len(self.frame) - accepted:,} rejected")
        notes = "".join(f"<li>{html.escape(check)} not checked: {html.escape(why)}</li>"
                        for check, why in self.skipped.items())
        shown = self.rejected.head(_SHOWN_REJECTS)
        return (f"<div><strong>{title}</strong>{self.summary.to_html(index=False)}"
                f"{_chart(self.summary)}<ul>{notes}</ul>"
                f"<p>First rejected rows:</p>{shown.to_html(index=False)}</div>")


def count_rows(frame: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Rows by ``keys`` (missing values a group of their own, shown as ``None``), most
    frequent first, then in order of first appearance; counted by pyarrow on the
    columns as they are (pandas' groupby copied a million rows as Python objects)."""
    columns = pa.Table.from_pandas(frame[keys], preserve_index=False)
    counts = columns.group_by(keys, use_threads=False).aggregate([([], "count_all")])
    table = counts.rename_columns([*keys, "rows"]).to_pandas().astype(object)
    table = table.sort_values("rows", ascending=False, kind="stable", ignore_index=True)
    return table.where(table.notna(), None)


def _cells(rows: pd.DataFrame, column: str) -> list[Any]:
    values = rows[column].astype(object)
    cells: list[Any] = values.where(values.notna(), None).tolist()
    return cells


def _chart(summary: pd.DataFrame) -> str:
    """A horizontal bar chart of the refusals, as an inline PNG."""
    refused = summary[summary["status"] != "accepted"]
    if refused.empty:
        return ""
    from matplotlib.figure import Figure  # a notebook display only: imported when shown

    labels = [" / ".join(str(v) for v in (s, r, f) if v is not None and not pd.isna(v))
              for s, r, f in refused[["status", "reason", "field"]].itertuples(index=False)]
    figure = Figure(figsize=(6, 0.4 * len(labels) + 0.8))
    axes = figure.subplots()
    axes.barh(labels[::-1], refused["rows"].tolist()[::-1], color="#c0504d")
    axes.set_xlabel("rows refused")
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=80)
    encoded = base64.b64encode(buffer.getvalue()).decode()
    return f'<img alt="rows refused, by reason" src="data:image/png;base64,{encoded}"/>'
