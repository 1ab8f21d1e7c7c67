"""What :func:`dialkit.leads.clean` answers: every row with its verdict, and views of it.

One frame holds everything (the file's own columns, then the verdict), so a
reader can filter, sort and export it with pandas alone; the properties and
exports are the views people ask for first: what passes, what fails and why,
and a file to send back to the vendor.
"""

from __future__ import annotations

import base64
import codecs
import html
import io
import os
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import IO, Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from dialkit._files._outputs_written import written
from dialkit._shown._pages import NOT_MATH
from dialkit._shown._words import counted
from dialkit.contract import LeadInput

from ..._utils._base_error import InputError
from .._read._headers import fields_note, near_notes
from .._read._lead_file import LeadFile
from ._custom import VERDICT_COLUMNS, CustomFields, frame_column, phone_columns
from ._hints import hint_note, put_at, text_array, unknown_note
from ._sinks import EXCEL_ROWS, CsvSink, XlsxSink
from ._verdicts import (
    AMBIGUOUS_PHONE,
    DUPLICATE_IN_CAMPAIGN,
    DUPLICATE_IN_REQUEST,
    INVALID_PHONE,
    MISSING,
    PHONE_TOO_LONG,
    REASONS,
    STATUSES,
)

EXTENSION_FIELD = "phone_extension"
"""The custom field a phone's extension is sent as, by default."""

ALT_PHONE_FIELD = "alt_phone"
"""The custom field a lead's other numbers are sent as, by default."""

_BOM_ENCODINGS = ("utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32")

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
            ``extension``, ``alt_phone`` (the row's other numbers), ``status``
            (``accepted`` or the service's refusal), ``reason``, ``field``,
            ``flags`` and ``hint`` (``duplicate of row 14``, a region the number
            is valid in).
        file: The file as read: its name, field mapping and custom fields.
        region: The default region the numbers were read in.
        campaign_id: The campaign checked against, if any.
        blocked_countries: The regions refused as blocked.
        skipped: Checks that did not run, each with what would run it.
        extension_field: The custom field the extension is sent as (``None``: not sent).
        alt_phone_field: The custom field ``alt_phone`` is sent as (``None``: not sent).
        sources: Rows whose phone each phone column gave, when the file has more
            than one (``{"Phone": 950, "Mobile": 40}``).
        looks_like: Rows refused whose number is valid in another of the file's
            regions, by region (``"GB"``), or, with a country column, by that region and
            the column whose blank cells to fill (``"GB|Country"``).
        country_column: The column that gave each row's country, if any.
        advice: What the notes advise beyond the hinted rows (:class:`Advice`).
    """

    frame: pd.DataFrame
    file: LeadFile = field(repr=False)
    region: str
    campaign_id: str | None
    blocked_countries: tuple[str, ...]
    skipped: Mapping[str, str]
    extension_field: str | None = EXTENSION_FIELD
    alt_phone_field: str | None = ALT_PHONE_FIELD
    sources: Mapping[str, int] = field(default_factory=dict)
    looks_like: Mapping[str, int] = field(default_factory=dict)
    country_column: str | None = None
    advice: Advice = field(default_factory=lambda: Advice())

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
    def notes(self) -> tuple[str, ...]:
        """What the verdicts do not show, one sentence each: which column became which
        field, a column sent as a custom field though named almost as a field, which
        column gave the phones, what goes as custom fields, numbers valid in another
        region; first, what reading the file found (:attr:`LeadFile.notes`: the encoding,
        blank rows skipped, the header's line, lines in another encoding)."""
        return notes_of(self.file, self.sources, self.sent_as_custom_fields(), self.looks_like,
                        self.country_column, self.advice)

    def sent_as_custom_fields(self) -> str | None:
        """How many extensions and other numbers of the accepted rows go as custom fields,
        and how many found no room; ``None`` when none."""
        if not any(column in self.frame and self.frame[column].notna().any()
                   for column in ("extension", "alt_phone")):
            return None  # no copy of a million rows to say nothing
        # every row counted, the accepted kept: no copy of their cells
        return self.custom.said(self.custom.counted(self.frame, accepted_only=True))

    @property
    def custom(self) -> CustomFields:
        """The custom fields this file's rows are sent with."""
        return CustomFields.of(self.file, self.extension_field, self.alt_phone_field)

    @property
    def counts(self) -> dict[str, int]:
        """Rows by ``status``, without copying any row."""
        counts = self.frame["status"].value_counts()
        return {str(k): int(v) for k, v in counts.items() if v}

    def leads(self) -> list[dict[str, Any]]:
        """The accepted rows as the import sends them: E.164 phone, the mapped
        fields, the custom fields; empty cells left out."""
        return leads_of(self.accepted, self.file.fields, self.custom)

    def to_csv(self, path: str | os.PathLike[str] | None = None,
               rows: str = "all", *, escape_formulas: bool = True,
               bom: bool | None = None) -> str | None:
        """Write every row (``rows="accepted"`` or ``"rejected"`` for those only) as
        CSV, UTF-8; without ``path``, return the text.

        The file starts with a UTF-8 byte order mark when the lead file had one (Excel
        reads UTF-8 without it as its ANSI code page: ``Zoë`` becomes ``ZoÃ«``);
        ``bom=True`` or ``False`` decides otherwise.

        A lead file's text can hold a formula (``=HYPERLINK(...)``); by default a text
        cell or column name that starts with ``=``, ``+``, ``-``, ``@``, a tab or a
        carriage return is written with a leading ``'`` so that a spreadsheet shows it
        as text (a whole E.164 number such as ``+14155550123`` is left as it is; see
        :func:`dialkit.frames.formulas_escaped`). ``escape_formulas=False`` writes the
        values as they are, for programs.

        Written by pyarrow's CSV writer, ten times pandas' speed on a large file
        (:class:`CsvSink`), under a hidden name renamed to ``path`` when complete: a link
        at ``path`` is replaced, never written through, and a failed write leaves nothing.
        """
        frame = self._rows(rows)
        if path is None:
            text = io.BytesIO()
            write_csv(frame, text, escape_formulas=escape_formulas)
            return text.getvalue().decode()
        with written(path, "path") as partial, open(partial, "wb") as out:
            if bom if bom is not None else had_bom(self.file.encoding):
                out.write(codecs.BOM_UTF8)
            write_csv(frame, out, escape_formulas=escape_formulas)
        return None


    def to_excel(self, path: str | os.PathLike[str]) -> None:
        """An Excel workbook: the accepted rows, the rejected rows and the summary,
        each on its own sheet, under a frozen header with a filter on each column; the
        row numbers and counts as numbers, every text a string cell: no phone becomes
        a number and no cell a formula or link, whatever the file held; the rejected
        rows' refusals in words beside their codes (``explanation``).

        Raises:
            ValueError: A sheet would hold more rows than an Excel sheet can.
        """
        parts = {"accepted": self.accepted, "rejected": self.rejected}
        largest = max(len(part) for part in parts.values())
        if largest >= EXCEL_ROWS:
            raise InputError(f"{largest:,} rows would go on one sheet, and an Excel sheet "
                             f"holds {EXCEL_ROWS - 1:,} below its header: write them with "
                             "to_csv() instead")
        with written(path, "path") as partial:
            book = XlsxSink(partial)
            for name, part in parts.items():
                book.write(name, part)
            book.write("summary", self.summary)
            book.close()

    def _rows(self, rows: str) -> pd.DataFrame:
        if rows not in ("all", "accepted", "rejected"):
            raise InputError(f"rows={rows!r}: pass 'all', 'accepted' or 'rejected'")
        return self.frame if rows == "all" else getattr(self, rows)

    def __repr__(self) -> str:
        shown = ", ".join(f"{status} {count:,}" for status, count in self.counts.items())
        return f"<CleanResult {self.file.name}: {counted(len(self.frame), 'row')}: {shown}>"

    def _repr_html_(self) -> str:
        """The counts, a bar chart of the reasons, the notes, and the first rejected rows."""
        accepted = self.counts.get("accepted", 0)
        title = html.escape(f"{self.file.name}: {counted(len(self.frame), 'row')}, {accepted:,} "
                            f"accepted, {len(self.frame) - accepted:,} rejected")
        notes = "".join(f"<li>{html.escape(note)}</li>" for note in self.notes) + "".join(
            f"<li>{html.escape(check)} not checked: {html.escape(why)}</li>"
            for check, why in self.skipped.items())
        shown = self.rejected.head(_SHOWN_REJECTS)
        return (f'<div class="{NOT_MATH}"><strong>{title}</strong>{counts_html(self.summary)}'
                f"{_chart(self.summary)}<ul>{notes}</ul>"
                f"<p>First rejected rows:</p>{shown.to_html(index=False)}</div>")


def write_csv(frame: pd.DataFrame, out: IO[bytes], *, escape_formulas: bool) -> None:
    """``frame`` as CSV into ``out`` (:class:`CsvSink`, in one part)."""
    sink = CsvSink(out, escape_formulas=escape_formulas)
    sink.write(frame)
    sink.close()


def had_bom(encoding: str | None) -> bool:
    """Whether a file was read with a byte order mark (as Excel writes UTF-8 for text
    beyond ASCII, and needs to read it back so): its cleaned CSV starts with one."""
    return (encoding or "").lower().replace("_", "-") in _BOM_ENCODINGS


def count_rows(frame: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Rows by ``keys`` (missing values a group of their own, shown as ``None``), most
    frequent first, then in order of first appearance."""
    return _by_count(_groups(frame, keys))


def _groups(frame: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Rows by ``keys`` in order of first appearance; counted on each key's codes
    (pandas' groupby copied a million rows as Python objects, and pyarrow's group_by
    loads its query engine, 0.06 s of a clean's imports)."""
    group = np.zeros(len(frame), dtype=np.int64)
    groups = 1
    codes, uniques = [], []
    for key in keys:
        code, unique = pd.factorize(frame[key], use_na_sentinel=False)
        if groups * len(unique) > _DIRECT_GROUPS:  # keep the group numbers small
            group, found = pd.factorize(group)
            groups = len(found)
        group = group * len(unique) + code
        groups *= len(unique)
        codes.append(code)
        uniques.append(unique)
    counts = np.bincount(group, minlength=groups)
    first = np.full(groups, len(frame), dtype=np.int64)
    first[group[::-1]] = np.arange(len(frame) - 1, -1, -1)  # of repeats, the last write stays
    rows = np.sort(first[counts > 0])  # each group's first row, in file order
    table = pd.DataFrame({key: unique.take(code[rows]).astype(object)
                          for key, code, unique in zip(keys, codes, uniques, strict=True)}
                         | {"rows": counts[group[rows]]}).astype(object)
    return table.where(table.notna(), None)


def _by_count(table: pd.DataFrame) -> pd.DataFrame:
    return table.sort_values("rows", ascending=False, kind="stable", ignore_index=True)


def rows_by(summary: pd.DataFrame, column: str) -> dict[str, int]:
    """A summary's rows added up by one of its columns (a clean's by ``status``, an
    import's by ``outcome``), in order of first appearance."""
    counts: Counter[str] = Counter()
    for key, rows in zip(summary[column], summary["rows"], strict=True):
        counts[key] += int(rows)
    return dict(counts)


class RowTally:
    """:func:`count_rows` of a file whose parts come one at a time, in file order: the
    groups kept in order of first appearance, their counts added."""

    def __init__(self, keys: list[str]) -> None:
        self.keys = keys
        self.counts: dict[tuple[Any, ...], int] = {}

    def add(self, frame: pd.DataFrame) -> None:
        for *key, rows in _groups(frame, self.keys).itertuples(index=False):
            self.counts[tuple(key)] = self.counts.get(tuple(key), 0) + int(rows)

    def table(self) -> pd.DataFrame:
        """What :func:`count_rows` of the whole file answers."""
        table = pd.DataFrame([[*key, rows] for key, rows in self.counts.items()],
                             columns=[*self.keys, "rows"], dtype=object)
        return _by_count(table.where(table.notna(), None))


_DIRECT_GROUPS = 1 << 20
"""Combinations of keys :func:`count_rows` counts directly (a count and a first row
each); past it, the groups found so far are numbered again."""


def numbered(original: pd.DataFrame, numbers: pd.DataFrame) -> pd.DataFrame:
    """A file's columns (renamed where a verdict column takes the name), each row's
    number in the file (``index + 1``: blank rows skipped but counted) and its
    normalised number: every column of a cleaned frame up to its verdict."""
    frame = original.rename(columns={c: frame_column(c) for c in original.columns
                                     if c in VERDICT_COLUMNS})
    row = pd.Series(frame.index + 1, index=frame.index, name="row")
    alt = numbers["alt_phone"] if "alt_phone" in numbers else pd.Series(
        pd.NA, index=frame.index, dtype="string[pyarrow]", name="alt_phone")
    return pd.concat([frame, row, numbers[["phone_e164", "country", "extension"]], alt,
                      numbers[["flags"]]], axis=1)


def judged(numbered: pd.DataFrame, verdicts: pd.DataFrame, hints: pa.Array) -> pd.DataFrame:
    """A :func:`numbered` frame with its rows' verdicts before ``flags``, and their hints."""
    flags = numbered.columns.get_loc("flags")
    hint = pd.Series(pd.arrays.ArrowStringArray(hints), index=numbered.index, name="hint")
    return pd.concat([numbered.iloc[:, :flags], verdicts, numbered.iloc[:, flags:], hint],
                     axis=1)


@dataclass(frozen=True)
class Advice:
    """What a clean's notes advise beyond its hinted rows, counted over the whole file.

    Attributes:
        unknown: Country cells that name no country the clean can read, by their text,
            with their rows.
        changing: Regions that ``region=`` would change a valid row's number under, so
            never advised.
    """

    unknown: Mapping[str, int] = field(default_factory=dict)
    changing: frozenset[str] = frozenset()


def notes_of(file: LeadFile, sources: Mapping[str, int], sent: str | None,
             looks_like: Mapping[str, int], country: str | None = None,
             advice: Advice | None = None) -> tuple[str, ...]:
    """:attr:`CleanResult.notes` from their parts (a streamed file's, counted as read;
    ``country``: the column of each row's country)."""
    advice = advice or Advice()
    notes = list(file.notes)
    fields = fields_note(file.fields, country, phone_columns(file), bool(file.phone_cells),
                         file.numberless)
    notes += ([fields] if fields else []) + near_notes(file.fields, file.custom_fields)
    if sources:
        (first, rows), *others = sources.items()
        taken = [f"{count:,} from {column}" for column, count in others if count]
        notes.append(f"valid phones: {rows:,} from {first}" + (
            f", {', '.join(taken)} (where {first} held none)" if taken else ""))
    if sent:
        notes.append(sent)
    if advice.unknown:
        notes.append(unknown_note(country or "country", Counter(advice.unknown)))
    notes += [hint_note(region, rows, advice.changing) for region, rows in looks_like.items()]
    return tuple(notes)


def row_hints(hints: pa.Array | None, owners: np.ndarray | None, rows: int) -> pa.Array:
    """Each row's hint: ``duplicate of row N`` where ``owners`` (per row, the number of
    the row it repeats, or -1) names one, else the region's hint, if any."""
    found = hints if hints is not None else pa.nulls(rows, pa.string())
    if owners is None or not (owners >= 0).any():
        return found
    repeats = np.flatnonzero(owners >= 0)
    said = pc.binary_join_element_wise("duplicate of row ",
                                       pc.cast(pa.array(owners[repeats]), pa.string()), "")
    positions = np.full(rows, -1, np.int64)
    positions[repeats] = np.arange(len(repeats))
    spread = said.take(pa.array(positions, mask=positions < 0))
    return spread if hints is None else pc.coalesce(spread, found)


FOR_ITS_PHONE = (MISSING, PHONE_TOO_LONG, INVALID_PHONE, AMBIGUOUS_PHONE,
                 DUPLICATE_IN_REQUEST, DUPLICATE_IN_CAMPAIGN)
"""The verdicts a row gets for its phone alone, which another of its numbers may not get:
a duplicate of another row's phone is the commonest (an office line a team shares, each
person's mobile beside it). Not a blocked country or a Do-Not-Call listing: a person
who is not to be called is not called on another number either."""


def other_number_hints(hints: pa.Array, codes: np.ndarray, others: pd.Series) -> pa.Array:
    """``hints`` with, for each row refused for its phone (:data:`FOR_ITS_PHONE`, by its
    verdict's code in ``codes``) whose other phone columns hold a valid number
    (``others``: :attr:`Phones.other_valid`), that number named after the row's hint."""
    rows = np.flatnonzero(np.isin(codes, FOR_ITS_PHONE) & others.notna().to_numpy(bool))
    if not len(rows):
        return hints
    at = pa.array(rows)
    hint = hints.take(at)
    before = pc.if_else(pc.fill_null(pc.greater(pc.utf8_length(hint), 0), False),
                        pc.binary_join_element_wise(hint, "; ", ""), "")
    said = pc.binary_join_element_wise(  # over Arrow: a duplicate of two phones' file is
        before, "its other number ",  # refused with another number on most of its rows
        pc.cast(text_array(others).take(at), hints.type),
        " is valid: make it the row's phone to send the lead on it", "")
    return put_at(hints, rows, said)


def leads_of(rows: pd.DataFrame, fields: Mapping[str, str],
             custom: CustomFields) -> list[dict[str, Any]]:
    """Cleaned ``rows`` (accepted ones) as the import sends them: E.164 phone, the
    file's columns mapped to lead ``fields``, the custom fields; empty cells left out."""
    sent = {name: fields[name] for name in SENT_FIELDS if name in fields}
    columns = {name: _cells(rows, frame_column(column)) for name, column in sent.items()}
    extra_cells = {name: _cells(rows, frame_column(name)) for name in custom.columns()}
    for name, (going, _) in custom.extras(rows).items():
        cells = _cells(rows, "extension" if name == custom.extension_field else "alt_phone")
        extra_cells[name] = [cell if go else None for cell, go in zip(cells, going, strict=True)]
    leads = []
    for n, phone in enumerate(rows["phone_e164"].tolist()):
        lead: dict[str, Any] = {"phone": phone}
        lead.update({k: v[n] for k, v in columns.items() if v[n] is not None})
        extra = {k: v[n] for k, v in extra_cells.items() if v[n] is not None}
        if extra:
            lead["custom_fields"] = extra
        leads.append(lead)
    return leads


def extras_note(sent: Mapping[str, int], custom: CustomFields) -> str | None:
    """How many leads sent carried an extension and other numbers as custom fields
    (``sent``: leads by custom field); ``None`` when none did."""
    said = []
    for name, word in ((custom.extension_field, "extension"),
                       (custom.alt_phone_field, "second number")):
        if name is not None and sent.get(name):
            said.append(counted(sent[name], word))
    names = ", ".join(custom.names())
    return f"{' and '.join(said)} sent as custom fields ({names})" if said else None


def cleaned_parts(path: str | os.PathLike[str], *, rows: int,
                  columns: list[str] | None = None) -> Iterator[pd.DataFrame]:
    """A cleaned Parquet file (an import's plan, its report) read back ``rows`` rows at a
    time, typed as a cleaned frame in memory is (text as ``string``, ``status`` and
    ``reason`` as the contract's categoricals, ``batch`` as ``Int64``) and indexed by
    ``row`` - 1 as it is."""
    typed = {"status": pd.CategoricalDtype(STATUSES), "reason": pd.CategoricalDtype(REASONS),
             "batch": pd.Int64Dtype()}
    text = {pa.large_string(): pd.StringDtype("pyarrow"), pa.string(): pd.StringDtype("pyarrow")}
    import pyarrow.parquet as pq  # not for a clean in memory

    for part in pq.ParquetFile(path).iter_batches(batch_size=rows, columns=columns):
        frame = part.to_pandas(types_mapper=text.get)
        for name in typed.keys() & set(frame.columns):
            frame[name] = frame[name].astype(object).astype(typed[name])
        if "row" in frame:
            frame.index = pd.Index(frame["row"].to_numpy() - 1)
        yield frame


def _cells(rows: pd.DataFrame, column: str) -> list[Any]:
    """A column's cells as Python values, ``None`` where missing (``NaN``, ``<NA>``, ``NaT``)."""
    cells: list[Any] = rows[column].astype(object).to_numpy(na_value=None).tolist()
    return cells


def counts_html(summary: pd.DataFrame) -> str:
    """A table of counts as a person reads it: ``2,734``, and a blank cell where a
    reason or field does not apply (pandas writes ``None``)."""
    shown: str = summary.fillna("").to_html(index=False, formatters={"rows": "{:,}".format})
    return shown


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
    axes.set_title("Rows the service would refuse, by reason")
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=80)
    encoded = base64.b64encode(buffer.getvalue()).decode()
    return f'<img alt="rows refused, by reason" src="data:image/png;base64,{encoded}"/>'
