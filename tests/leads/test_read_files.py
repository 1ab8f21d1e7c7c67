"""Lead files as other tools write them (issue 20, items 6-9): delimiters chosen by the
columns they give, header rows found below titles, blank rows skipped and counted,
workbooks read as Excel shows them, and files in two encodings read line by line."""

from __future__ import annotations

import codecs
import csv
import io
import re
from pathlib import Path

import pytest
import xlsxwriter

from dialkit.leads import LeadFileError, clean, read

NOTE = 'the "VIP" list; call first | then mail, twice'


def written(delimiter: str, rows: list[list[str]]) -> bytes:
    """Rows as the csv module writes them with ``delimiter`` (quoting a cell that holds
    the delimiter or a quote, quotes doubled: LibreOffice's and Excel's way)."""
    text = io.StringIO()
    csv.writer(text, delimiter=delimiter, lineterminator="\r\n").writerows(rows)
    return text.getvalue().encode()


ROWS = [["Full Name", "Phone", "Notes"], ["Ada Lovelace", "+14155550100", NOTE],
        ["Bo Diddley", "+14155550101", "plain"]]


@pytest.mark.parametrize(("delimiter", "name"), [(";", "a.csv"), ("|", "a.csv"), ("\t", "a.csv"),
                                                 ("\t", "a.txt"), (";", "a.txt"), (",", "a.txt")])
def test_a_quoted_cell_holding_the_delimiter_or_a_quote_does_not_hide_it(
        tmp_path: Path, delimiter: str, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(written(delimiter, ROWS))
    leads = read(path)
    assert list(leads.frame.columns) == ["Full Name", "Phone", "Notes"]
    assert leads.frame["Notes"].tolist() == [NOTE, "plain"]
    assert leads.delimiter == delimiter and leads.header_row == 1


def test_a_title_row_and_blank_lines_above_the_header_are_skipped_and_named(
        tmp_path: Path) -> None:
    path = tmp_path / "export.csv"
    path.write_bytes(b"Leads exported 2026-11-02;;\r\n\r\n;;\r\n" + written(";", ROWS))
    leads = read(path)
    assert leads.header_row == 4 and leads.delimiter == ";"
    assert leads.frame["Phone"].tolist() == ["+14155550100", "+14155550101"]
    assert "header on line 4" in " ".join(leads.notes)


def test_a_file_with_no_phone_column_names_the_delimiters_tried(tmp_path: Path) -> None:
    path = tmp_path / "export.csv"
    path.write_bytes(written(";", [["Name", "Email"], ["Ada", "a@example.com"]]))
    with pytest.raises(LeadFileError, match=r"no phone column among Name, Email.*';'"):
        read(path)


def test_blank_rows_are_skipped_counted_and_keep_the_row_numbers(tmp_path: Path) -> None:
    path = tmp_path / "leads.csv"
    path.write_bytes(b"Phone,Name\r\n+14155550100,Ada\r\n\r\n   ,  \r\n+14155550101,Bo\r\n,\r\n")
    leads = read(path)
    assert leads.blank_rows == (2, 3, 5)
    result = clean(leads)
    assert result.frame["row"].tolist() == [1, 4]
    assert result.counts == {"accepted": 2}
    assert "3 blank rows skipped (rows 2, 3, 5)" in result.notes


def excel_like(path: Path) -> Path:
    """A workbook as Excel saves a vendor list: a merged title row, phones stored as
    numbers with a zero-padding format, and a formula Excel did not calculate."""
    book = xlsxwriter.Workbook(path)
    sheet = book.add_worksheet("Leads")
    padded = book.add_format({"num_format": "00000000000"})
    spaced = book.add_format({"num_format": '"+44 "0000 000000'})
    sheet.merge_range(0, 0, 0, 2, "Vendor list, November")
    sheet.write_row(1, 0, ["Name", "Phone", "Company"])
    sheet.write_string(2, 0, "Ada")
    sheet.write_number(2, 1, 7400123456, padded)
    sheet.write_string(3, 0, "Bo")
    sheet.write_number(3, 1, 2079460123, spaced)
    sheet.write_string(4, 0, "Cy")
    sheet.write_formula(4, 1, '="0"&"7700900124"', None, "")  # saved uncalculated: no value
    sheet.write_string(5, 0, "Di")
    sheet.write_number(5, 1, 4155550123)
    sheet.write_string(6, 0, "Ed")  # Excel's Format Cells > Special > Phone Number
    sheet.write_number(6, 1, 4155550124,
                       book.add_format({"num_format": "[<=9999999]###-####;(###) ###-####"}))
    book.close()
    return path


def test_a_number_format_gives_back_the_digits_excel_shows(tmp_path: Path) -> None:
    leads = read(excel_like(tmp_path / "leads.xlsx"))
    assert leads.header_row == 2 and "sheet 'Leads' read, its header on row 2" in leads.notes
    assert leads.frame["Phone"].tolist()[:2] == ["07400123456", "+44 2079 460123"]
    assert leads.frame["Phone"].tolist()[3:] == ["4155550123", "(415) 555-0124"]
    assert leads.numbers["text"].tolist() == ["07400123456", "+44 2079 460123", "4155550123",
                                              "(415) 555-0124"]
    result = clean(leads, region="GB")
    assert result.frame["phone_e164"].tolist()[0] == "+447400123456"
    assert "stored_as_number" in result.frame["flags"][0]


def test_a_formula_without_a_value_is_reported_as_such(tmp_path: Path) -> None:
    leads = read(excel_like(tmp_path / "leads.xlsx"))
    assert leads.formulas.to_dict("records") == [{"row": 3, "column": "Phone"}]
    row = clean(leads, region="GB").frame.iloc[2]
    assert row["reason"] != "missing_phone" and "formula_without_value" in row["flags"]


def sheets(path: Path, *columns: list[str]) -> Path:
    book = xlsxwriter.Workbook(path)
    for n, header in enumerate(columns):
        sheet = book.add_worksheet(f"Sheet{n + 1}")
        sheet.write_row(0, 0, header)
        sheet.write_row(1, 0, ["x" if c != "Phone" else "+14155550100" for c in header])
    book.close()
    return path


def test_the_sheet_with_a_phone_column_is_chosen(tmp_path: Path) -> None:
    leads = read(sheets(tmp_path / "w.xlsx", ["Read me"], ["Name", "Phone"]))
    assert leads.sheet == "Sheet2" and leads.frame["Phone"][0] == "+14155550100"
    assert leads.notes == ["sheet 'Sheet2' read"]


@pytest.mark.parametrize(("columns", "cause"), [
    ([["Read me"], ["Name"]], "no sheet has a phone column: Sheet1 (Read me), Sheet2 (Name)"),
    ([["Read me"], ["Phone"], ["Name", "Phone"]], "2 sheets have a phone column: Sheet2, "
     "Sheet3"),
], ids=["none", "several"])
def test_without_one_sheet_to_read_every_sheet_is_named(tmp_path: Path, columns: list[list[str]],
                                                        cause: str) -> None:
    with pytest.raises(LeadFileError, match=re.escape(cause)):
        read(sheets(tmp_path / "w.xlsx", *columns))


MIXED = ("Phone,Name\r\n+14155550100,Zoë\r\n".encode()
         + "+14155550101,José\r\n".encode("cp1252")
         + "+14155550102,Ñúñez €\r\n".encode()
         + "+14155550103,Renée\r\n".encode("cp1252"))


def test_a_file_in_two_encodings_is_read_line_by_line(tmp_path: Path) -> None:
    path = tmp_path / "appended.csv"
    path.write_bytes(MIXED)
    leads = read(path)
    assert leads.frame["Name"].tolist() == ["Zoë", "José", "Ñúñez €", "Renée"]
    assert leads.encoding == "utf-8" and leads.other_encoding_lines == (3, 5)
    assert "lines 3, 5 read as cp1252 (the rest utf-8)" in leads.notes


def test_a_file_marked_utf8_with_cp1252_lines_appended_is_read_line_by_line(
        tmp_path: Path) -> None:
    """Excel's CSV (UTF-8 with its mark) appended to by a cp1252 tool: the mark alone
    let the bytes through unchecked, and the reader failed with an internal error."""
    path = tmp_path / "appended.csv"
    path.write_bytes(codecs.BOM_UTF8 + MIXED)
    leads = read(path)
    assert leads.frame["Name"].tolist() == ["Zoë", "José", "Ñúñez €", "Renée"]
    assert leads.encoding == "utf-8-sig" and leads.other_encoding_lines == (3, 5)


@pytest.mark.parametrize("codec", ["utf-32", "utf-32-be", "utf-16", "utf-16-be"])
def test_a_utf32_or_utf16_file_with_its_mark_is_read_as_such(tmp_path: Path,
                                                             codec: str) -> None:
    """UTF-32's little-endian mark starts with UTF-16's: such a file was read as UTF-16,
    every cell full of NULs."""
    text = "Name,Phone\nZoë,+14155550100\n"
    data = text.encode(codec)
    if not data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) and "16" in codec:
        data = codecs.BOM_UTF16_BE + data
    if not data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)) and "32" in codec:
        data = codecs.BOM_UTF32_BE + data
    path = tmp_path / "leads.csv"
    path.write_bytes(data)
    leads = read(path)
    assert leads.frame["Name"].tolist() == ["Zoë"]
    assert leads.frame["Phone"].tolist() == ["+14155550100"]


def test_bytes_that_cannot_be_decoded_are_named_by_line_and_offset(tmp_path: Path) -> None:
    path = tmp_path / "leads.csv"
    path.write_bytes(b"Phone,Name\n+14155550100,Ada\n+14155550101,Jos\xe9\n")
    with pytest.raises(LeadFileError) as caught:
        read(path, encoding="utf-8")
    message = str(caught.value)
    assert "line 3" in message and "byte 45 of the file" in message and "0xE9" in message
    assert "codec" not in message and "position" not in message


def test_a_wrong_encoding_for_a_file_with_a_byte_order_mark_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "leads.csv"
    path.write_bytes(codecs.BOM_UTF8 + "First Name,Phone\nZoë,+14155550100\n".encode())
    with pytest.raises(LeadFileError, match="starts with a UTF-8 byte order mark.*encoding="):
        read(path, encoding="cp1252")


def test_a_long_row_below_a_title_is_named_by_its_line_in_the_file(tmp_path: Path) -> None:
    path = tmp_path / "export.csv"
    path.write_bytes(b"Leads;\r\n\r\nName;Phone\r\nAda;+14155550100\r\nBo;+14155550101;x;y\r\n")
    assert read(path).held_rows == {2: "line 5 has 4 fields where the header has 2 (past the "
                                       "last column: 'x', 'y'); quote values that contain "
                                       "the delimiter (';')"}


def test_an_offset_sheet_keeps_its_phone_formats_and_formulas(tmp_path: Path) -> None:
    path = tmp_path / "offset.xlsx"
    book = xlsxwriter.Workbook(path)
    sheet = book.add_worksheet("x")
    sheet.write_row(2, 27, ["Name", "Mobile"])  # AB3: the data starts off A1
    sheet.write_string(3, 27, "Ada")
    sheet.write_number(3, 28, 7400123456, book.add_format({"num_format": "00000000000"}))
    sheet.write_string(5, 27, "Bo")
    sheet.write_formula(5, 28, "=A1", None, "")
    book.close()
    leads = read(path)
    assert leads.frame["Mobile"].tolist()[0] == "07400123456" and leads.header_row == 3
    assert leads.blank_rows == (2,) and leads.formulas["row"].tolist() == [3]


def test_a_data_row_that_says_mobile_is_not_taken_for_the_header(tmp_path: Path) -> None:
    path = tmp_path / "crm.csv"
    path.write_bytes(b"Name,Number,Type\r\nAda,+14155550100,Mobile\r\n")
    leads = read(path)  # the phone found by its cells, the header on the first line
    assert leads.header_row == 1 and leads.fields["phone"] == "Number"
    assert leads.frame["Type"].tolist() == ["Mobile"]


def test_a_utf16_file_broken_half_way_is_named_by_line_not_read_with_replacements(
        tmp_path: Path) -> None:
    path = tmp_path / "export.tsv"
    path.write_bytes(codecs.BOM_UTF16_LE + "Phone\n+14155550100\n".encode("utf-16-le")
                     + b"\x00\xd8" + "x\n".encode("utf-16-le"))
    with pytest.raises(LeadFileError, match=r"cannot be read as utf-16: line 3, byte 41 of the "
                       r"file holds the bytes 0x00 0xD8.*save it again as UTF-8"):
        read(path)


def test_a_workbooks_repeated_and_blank_headers_are_named_as_a_csvs(tmp_path: Path) -> None:
    """Two ``Notes`` columns were kept as they were, and the cleaned file could not be
    written (pandas refuses repeated column names); a CSV's got ``Notes.1``."""
    path = sheets(tmp_path / "w.xlsx", ["Phone", "Notes", "Notes", ""])
    leads = read(path)
    assert leads.frame.columns.tolist() == ["Phone", "Notes", "Notes.1", "column 4"]
    assert "Notes.1" in clean(leads).to_csv().splitlines()[0]


def test_formats_are_kept_when_a_sheet_row_is_longer_than_a_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sheet's XML is read in chunks cut at a row's end; a chunk holding no row's
    end (a row longer than a chunk) lost three bytes each time, and the phone cell at
    the row's start with them."""
    path = tmp_path / "long_rows.xlsx"
    book = xlsxwriter.Workbook(path)
    sheet, padded = book.add_worksheet("Leads"), book.add_format({"num_format": "00000000000"})
    sheet.write_row(0, 0, ["Phone", "Notes"])
    for row in range(1, 6):
        sheet.write_number(row, 0, 7400123450 + row, padded)
        sheet.write_number(row, 1, 12345)
    book.close()
    expected = [f"0740012345{row}" for row in range(1, 6)]
    assert read(path).frame["Phone"].tolist() == expected
    monkeypatch.setattr("dialkit.leads._read._xlsx._CHUNK", 7)
    assert read(path).frame["Phone"].tolist() == expected
