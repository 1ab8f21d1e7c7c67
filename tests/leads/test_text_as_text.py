"""A lead file's text is a value; only an empty cell is missing (issue 64, item 0).

pyarrow's and pandas' CSV readers take ``NA`` (Namibia's country code), ``null``,
``None``, ``N/A``, ``nan``, ``#N/A`` and more for missing unless told not to. Every
spelling either library reads as missing by default, in every column of a lead file as
Excel, LibreOffice and exports save it, comes out of each driver as the text it was:
``clean`` of the path, ``clean_file`` (a CSV streamed a few rows at a time), and
``clean_dataset`` on Dask give the rows ``clean`` gives for the file's cells as a frame
of text, built here without any of dialkit's readers.
"""

from __future__ import annotations

import codecs
import csv
import io
from collections.abc import Callable
from pathlib import Path

import dask.dataframe as dd
import pandas as pd
import pyarrow.csv as pacsv
import pytest
import xlsxwriter
from pandas._libs.parsers import STR_NA_VALUES

from dialkit._utils import _tuning
from dialkit.leads import CleanResult, clean, clean_dataset, clean_file

SPELLINGS = sorted((set(STR_NA_VALUES) | set(pacsv.ConvertOptions().null_values) | {"-"})
                   - {""})
"""Every text pandas or pyarrow reads as missing by default, and ``-``: each a value here."""
HEADER = ["Phone", "Country", "Last Name", "Notes"]
NAMIBIAN = "081 123 45{:02d}"
"""Namibian mobile numbers written nationally: valid where the row's country is ``NA``."""


def lead_rows(spellings: list[str]) -> list[list[str]]:
    """Per spelling: a Namibian number with it as a name and a note; it as the phone; it
    in every cell (a row, not a blank one). Then a row with a name cp1252 and UTF-8
    write apart and an empty note, the one cell that is missing."""
    rows = []
    for n, spelling in enumerate(spellings):
        rows += [[NAMIBIAN.format(n), "NA", spelling, spelling],
                 [spelling, "US", "Ada", spelling], [spelling] * 4]
    return [*rows, ["(415) 555-0199", "US", "Zoë", ""]]


def delimited(rows: list[list[str]], delimiter: str, newline: str = "\n") -> str:
    """Rows as the csv module writes them (quoted where needed, as Excel and LibreOffice
    quote), the header first."""
    text = io.StringIO()
    csv.writer(text, delimiter=delimiter, lineterminator=newline).writerows([HEADER, *rows])
    return text.getvalue()


def workbook(path: Path, rows: list[list[str]]) -> None:
    """Rows in a workbook, every cell a string cell, an empty one left blank."""
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Leads")
    for at, row in enumerate([HEADER, *rows]):
        for column, cell in enumerate(row):
            if cell:
                sheet.write_string(at, column, cell)
    book.close()


Writer = Callable[[Path, list[list[str]]], None]
LAYOUTS: dict[str, tuple[str, Writer]] = {
    "csv": ("leads.csv", lambda path, rows: path.write_text(
        delimited(rows, ","), encoding="utf-8")),
    # Excel's "CSV UTF-8" where the list separator is ";" (most of Europe)
    "excel_utf8_semicolons": ("leads.csv", lambda path, rows: path.write_bytes(
        codecs.BOM_UTF8 + delimited(rows, ";", "\r\n").encode())),
    # Excel's "CSV (separator)": the ANSI code page
    "excel_cp1252_semicolons": ("leads.csv", lambda path, rows: path.write_bytes(
        delimited(rows, ";", "\r\n").encode("cp1252"))),
    # Excel's "Unicode Text"
    "excel_utf16_tabs": ("leads.txt", lambda path, rows: path.write_bytes(
        codecs.BOM_UTF16_LE + delimited(rows, "\t", "\r\n").encode("utf-16-le"))),
    "libreoffice_tsv": ("leads.tsv", lambda path, rows: path.write_text(
        delimited(rows, "\t"), encoding="utf-8")),
    # a row cut short: pandas reads the whole file, the stream mends the row
    "short_row": ("leads.csv", lambda path, rows: path.write_text(delimited(
        [*rows, ["(415) 555-0198", "US"]], ","), encoding="utf-8")),
    "xlsx": ("leads.xlsx", workbook),
}


def as_text(rows: list[list[str]]) -> pd.DataFrame:
    """The file's cells as a frame of text, as a reader that keeps text would give them."""
    return pd.DataFrame([row + [""] * (len(HEADER) - len(row)) for row in rows],
                        columns=HEADER, dtype=object)


def streamed_as_whole(path: Path, whole: CleanResult, folder: Path) -> bytes:
    """``clean_file``'s output of ``path``, checked to be the bytes ``whole`` writes (cells
    as they are: ``-NaN`` not escaped as a formula)."""
    whole.to_csv(folder / "whole.csv", escape_formulas=False)
    clean_file(path, out=folder / "streamed.csv", escape_formulas=False)
    written = (folder / "streamed.csv").read_bytes()
    assert written == (folder / "whole.csv").read_bytes()
    return written


@pytest.fixture(autouse=True)
def chunks_of_seven(monkeypatch: pytest.MonkeyPatch) -> None:
    """A streamed file in chunks of 7 rows: every kind of row lands on a chunk's edge."""
    monkeypatch.setattr(_tuning, "CHUNK_ROWS", 7)


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_a_null_spelling_is_text_and_na_is_namibia(spelling: str, tmp_path: Path) -> None:
    rows = lead_rows([spelling])
    path = tmp_path / "leads.csv"
    LAYOUTS["csv"][1](path, rows)
    whole = clean(path)
    frame = whole.frame
    assert frame.loc[0, ["status", "phone_e164", "country"]].tolist() == [
        "accepted", "+264811234500", "NA"]
    assert frame.loc[0, ["Country", "Last Name", "Notes"]].tolist() == ["NA", spelling, spelling]
    assert frame.loc[1, "Phone"] == spelling
    assert frame["row"].tolist() == [1, 2, 3, 4]  # the row of spellings alone is no blank row
    assert pd.isna(frame.loc[3, "Notes"])  # an empty cell is missing
    pd.testing.assert_frame_equal(frame, clean(as_text(rows)).frame)
    written = list(csv.DictReader(io.StringIO(streamed_as_whole(
        path, whole, tmp_path).decode())))
    assert [written[0][column] for column in ("Country", "Last Name", "Notes", "country")] == [
        "NA", spelling, spelling, "NA"]


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_every_kind_of_file_gives_the_rows_of_its_text(layout: str, tmp_path: Path) -> None:
    name, write = LAYOUTS[layout]
    path = tmp_path / name
    write(path, lead_rows(SPELLINGS))
    rows = lead_rows(SPELLINGS) + ([["(415) 555-0198", "US"]] if layout == "short_row" else [])
    whole = clean(path)
    pd.testing.assert_frame_equal(whole.frame, clean(as_text(rows)).frame)
    assert (whole.frame["country"] == "NA").sum() == len(SPELLINGS)
    streamed_as_whole(path, whole, tmp_path)


def test_clean_dataset_gives_the_rows_of_the_clean_of_the_file(tmp_path: Path) -> None:
    path = tmp_path / "leads.csv"
    rows = lead_rows(SPELLINGS)
    LAYOUTS["csv"][1](path, rows)
    expected = clean(path)
    for source in (dd.from_pandas(as_text(rows), npartitions=3),
                   dd.read_csv(path, dtype=str, keep_default_na=False, blocksize=500)):
        assert source.npartitions > 1
        found = clean_dataset(source).compute()
        pd.testing.assert_frame_equal(found.frame, expected.frame)
        pd.testing.assert_frame_equal(found.summary, expected.summary)
