"""Lead files as other tools save them (issue 80, item 4): a CSV saved by Excel for Mac,
a file with one row of an extra field, a dialer's list upload without a header line.

Each file is written as the tool writes it. Excel for Mac's "CSV (Macintosh)" (and "Comma
Separated Values" of Excel 2011 and 2016 for Mac) ends each line with a lone carriage
return, Classic Mac OS's line end, and writes its text in Mac OS Roman; a line break typed
in a cell is a line feed inside the quoted cell (Excel keeps a cell's breaks as LF). A
CRM export whose one name holds an unquoted comma (``Smith, Jr.``) has one row of an
extra field. A dialer's list upload is numbers alone, or ``number,name,...``, with no
header line. Whether each number is valid is libphonenumber's word, asked here, never
dialkit's.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import phonenumbers
import pytest
import xlsxwriter
from test_stream import assert_same, both
from typer.testing import CliRunner

from conftest import KEYS
from dialkit import Client
from dialkit._utils import _tuning
from dialkit.cli import app
from dialkit.errors import InputError
from dialkit.leads import (
    LeadFileError,
    clean,
    clean_dataset,
    import_leads,
    read,
)
from dialkit.sandbox import Sandbox

runner = CliRunner()
AREAS = ("212", "312", "415", "503", "617", "702", "818", "917")
FIRST = ("José", "Zoë", "Françoise", "Jürgen", "Ana", "Ñuño", "Øyvind", "Bob")
LAST = ("Pérez", "Müller", "Dupré", "Ångström", "Smith", "Núñez", "Brontë", "Lee")


@pytest.fixture
def tiny(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Chunks of 7 rows, a bucket per 100 bytes of the file, ranges of 5 rows: every held
    and mended row falls across a chunk's edge somewhere."""
    monkeypatch.setattr(_tuning, "HELD_BYTES", 0)
    monkeypatch.setattr(_tuning, "CHUNK_ROWS", 7)
    monkeypatch.setattr(_tuning, "BUCKET_BYTES", 100)
    monkeypatch.setattr(_tuning, "RANGE_ROWS", 5)
    yield


def phone(n: int) -> str:
    """The ``n``th number of a lead list, written as US lists write them."""
    return f"({AREAS[n % len(AREAS)]}) {200 + n % 700:03d}-{1000 + n:04d}"


def valid(cell: str, region: str = "US") -> bool:
    """libphonenumber's word on a phone cell."""
    try:
        return phonenumbers.is_valid_number(phonenumbers.parse(cell, region))
    except phonenumbers.NumberParseException:
        return False


def csv_line(cells: list[str], delimiter: str = ",") -> str:
    """A record as spreadsheets write it: a cell quoted only when it holds the delimiter,
    a quote or a line break."""
    quoted = [f'"{cell.replace(chr(34), chr(34) * 2)}"'
              if any(mark in cell for mark in (delimiter, '"', "\r", "\n")) else cell
              for cell in cells]
    return delimiter.join(quoted)


# Excel for Mac's "CSV (Macintosh)" ------------------------------------------------------------

MAC_HEADER = ["First Name", "Last Name", "Phone", "Email", "Notes"]


def mac_rows(count: int) -> list[list[str]]:
    """A CRM's leads as a sheet holds them: names beyond ASCII, every 50th row's notes
    with a line break typed in the cell."""
    return [[FIRST[n % 8], LAST[n % 7], phone(n), f"lead{n}@example.com",
             "call after 5\nask for the owner" if n % 50 == 7 else "web form"]
            for n in range(count)]


def excel_for_mac(path: Path, rows: list[list[str]], *, encoding: str = "mac_roman",
                  final_end: bool = True) -> Path:
    """``rows`` under :data:`MAC_HEADER` as Excel for Mac saves "CSV (Macintosh)": each
    line ended by a lone CR, in Mac OS Roman (``final_end``: the last line ended too)."""
    text = "\r".join(csv_line(row) for row in [MAC_HEADER, *rows]) + ("\r" if final_end else "")
    path.write_bytes(text.encode(encoding))
    return path


@pytest.mark.parametrize("final_end", [True, False], ids=["last_line_ended", "not_ended"])
def test_a_csv_saved_by_excel_for_mac_is_read_as_its_lines(final_end: bool,
                                                           tmp_path: Path) -> None:
    """1,200 rows of a CR-ended file were one line of 4,805 columns, refused whole."""
    rows = mac_rows(1_200)
    path = excel_for_mac(tmp_path / "leads.csv", rows, final_end=final_end)
    result = clean(path)
    frame = result.frame
    assert len(frame) == 1_200 and frame["row"].tolist() == list(range(1, 1_201))
    assert frame["First Name"].tolist() == [row[0] for row in rows]  # é, ü, Ø as written
    assert frame["Last Name"].tolist() == [row[1] for row in rows]
    assert frame.loc[7, "Notes"] == "call after 5\nask for the owner"
    expected = ["accepted" if valid(row[2]) else "invalid" for row in rows]
    assert frame["status"].astype(str).tolist() == expected
    assert result.file.encoding == "mac_roman" and result.file.blank_rows == ()
    assert "text read as mac_roman (not UTF-8)" in result.notes


@pytest.mark.parametrize("encoding", ["mac_roman", "ascii", "utf-8-sig"])
def test_a_mac_csv_cleans_in_chunks_as_it_cleans_whole(encoding: str, tiny: None,
                                                       tmp_path: Path) -> None:
    rows = mac_rows(60)
    if encoding == "ascii":
        rows = [[cell.encode("ascii", "replace").decode() for cell in row] for row in rows]
    path = excel_for_mac(tmp_path / "leads.csv", rows, encoding=encoding)
    whole, streamed, files = both(path, tmp_path)
    assert_same(whole, streamed, files)
    assert streamed.rows == 60 and whole.frame["First Name"].tolist() == [r[0] for r in rows]


def test_a_mac_csv_past_a_limit_is_refused_naming_its_own_line(tmp_path: Path) -> None:
    rows = mac_rows(5)
    rows[1][4] = ",".join(["x"] * 600)  # unquoted: 600 more cells on line 3
    path = tmp_path / "leads.csv"
    path.write_bytes(("\r".join(",".join(row) for row in [MAC_HEADER, *rows]) + "\r")
                     .encode("mac_roman"))
    with pytest.raises(LeadFileError, match=r"line 3 has 604 columns, more than 500"):
        clean(path)


def test_the_command_reads_a_mac_csv(tmp_path: Path) -> None:
    path = excel_for_mac(tmp_path / "leads.csv", mac_rows(1_200))
    result = runner.invoke(app, ["leads", "clean", str(path)])
    assert result.exit_code == 0, result.output
    assert f"{path}: 1,200 rows" in result.output
    assert "note: text read as mac_roman (not UTF-8)" in result.output


def test_dask_cleans_a_mac_csv_as_the_clean_of_the_file(tmp_path: Path) -> None:
    dd = pytest.importorskip("dask.dataframe")
    dask = pytest.importorskip("dask")
    path = excel_for_mac(tmp_path / "leads.csv", mac_rows(300))
    expected = clean(path)
    frame = dd.read_csv(path, dtype=str, keep_default_na=False, encoding="mac_roman")
    with dask.config.set(scheduler="synchronous"):
        found = clean_dataset(frame).compute()
    pd.testing.assert_frame_equal(found.frame, expected.frame)
    pd.testing.assert_frame_equal(found.summary, expected.summary)

# One row of an extra field ---------------------------------------------------------------

CRM_HEADER = "Name,Phone,Email,City"


def crm_export(path: Path, count: int, wide: dict[int, str], *, end: str = "\r\n") -> Path:
    """A CRM export of ``count`` rows, CRLF-ended as Excel on Windows writes them, the
    rows of ``wide`` (row number → the row's line) written as given."""
    lines = [CRM_HEADER] + [wide.get(n, csv_line([f"Lead {n}", phone(n), f"l{n}@example.com",
                                                  "Denver"])) for n in range(1, count + 1)]
    path.write_text(end.join(lines) + end, encoding="utf-8")
    return path


def test_a_row_with_an_extra_field_is_held_by_its_line_and_the_rest_read(
        tmp_path: Path) -> None:
    """A name with an unquoted comma pushed the row's cells one column right: its phone
    cell holds ``Jr.``. The file was refused whole; now that row alone is refused,
    named by its line, and the other 39 are read."""
    wide = {6: f"Smith, Jr.,{phone(6)},smith@example.com,Denver"}
    path = crm_export(tmp_path / "crm.csv", 40, wide)
    result = clean(path)
    frame = result.frame.set_index("row")
    assert len(frame) == 40
    held = frame.loc[6]
    assert (held["status"], held["reason"]) == ("invalid", "extra_fields")
    assert pd.isna(held["field"])
    assert held["hint"].startswith("line 7 has 5 fields where the header has 4")
    assert "Denver" in held["hint"]  # the cell past the header's last column, kept in words
    others = frame.drop(index=6)
    assert (others["status"] == "accepted").all()
    assert result.summary.loc[result.summary["reason"] == "extra_fields", "rows"].tolist() == [1]
    assert any("line 7" in note and "more fields than the header" in note
               for note in result.notes)
    assert list(read(path).held_rows) == [6]


def test_a_held_row_leaves_its_number_to_a_later_row(tmp_path: Path) -> None:
    """A held row is no lead: a later row with its number is no duplicate of it."""
    wide = {3: f"Ada,{phone(9)},ada@example.com,Denver,CO"}
    path = crm_export(tmp_path / "crm.csv", 12, wide)
    frame = clean(path).frame.set_index("row")
    assert frame.loc[3, "reason"] == "extra_fields" and frame.loc[3, "Phone"] == phone(9)
    assert frame.loc[9, "status"] == "accepted"  # the same number, first of the leads


@pytest.mark.parametrize("end", ["\r\n", "\r"], ids=["crlf", "mac_cr"])
def test_held_rows_clean_in_chunks_as_they_clean_whole(end: str, tiny: None,
                                                       tmp_path: Path) -> None:
    """Rows held in several chunks, one after a quoted cell of two lines (its line is not
    its row's number plus one), one short row mended: the streamed file is the whole's."""
    wide = {2: '"Lead 2\nsecond line",' + phone(2) + ",l2@example.com,Denver",
            9: f"Smith, Jr.,{phone(9)},smith@example.com,Denver",
            10: f"{phone(10)}",  # short: filled with empty cells
            23: f"Lead 23,{phone(23)},l23@example.com,Denver,CO,USA"}
    path = crm_export(tmp_path / "crm.csv", 30, wide, end=end)
    whole, streamed, files = both(path, tmp_path)
    assert_same(whole, streamed, files)
    hints = whole.frame.set_index("row")["hint"]
    assert hints[9].startswith("line 11 has 5 fields")  # the quoted break is a line
    assert hints[23].startswith("line 25 has 6 fields")
    assert dict(whole.file.held_rows).keys() == {9, 23}


def test_an_import_sends_the_rest_and_never_the_held_row(client: Client,
                                                        tmp_path: Path) -> None:
    wide = {3: f"Smith, Jr.,{phone(3)},smith@example.com,Denver"}
    path = crm_export(tmp_path / "crm.csv", 12, wide)
    campaign = next(client.campaigns.list(status="paused")).id
    report = import_leads(client, path, campaign, journal=tmp_path / "journal",
                          progress=False)
    frame = report.frame.set_index("row")
    assert (frame.loc[3, "outcome"], frame.loc[3, "reason"]) == ("refused_locally",
                                                                 "extra_fields")
    assert (frame.drop(index=3)["outcome"] == "imported").all()
    sent = set(client.frames.leads(campaign_id=campaign, refresh="full")["phone"])
    held = phonenumbers.format_number(phonenumbers.parse(phone(3), "US"),
                                      phonenumbers.PhoneNumberFormat.E164)
    assert valid(phone(3)) and held not in sent  # its number, one cell right, never sent
    assert {e164 for e164 in frame["phone_e164"].dropna()} <= sent


def test_the_command_names_the_held_row_s_line(tmp_path: Path) -> None:
    path = crm_export(tmp_path / "crm.csv", 40, {6: f"Smith, Jr.,{phone(6)},s@example.com,X"})
    result = runner.invoke(app, ["leads", "clean", str(path)])
    assert result.exit_code == 0, result.output
    assert "40 rows, 39 accepted, 1 rejected" in result.output
    assert "extra_fields" in result.output and "line 7" in result.output

# A dialer's list upload without a header -----------------------------------------------------

UPLOADS = {
    "numbers_alone": ([[phone(n)] for n in range(30)], {"phone": 0}),
    "number_name": ([[phone(n), FIRST[n % 8], LAST[n % 7]] for n in range(30)],
                    {"phone": 0, "first_name": 1, "last_name": 2}),
    "name_then_number": ([[f"{FIRST[n % 8]} {LAST[n % 7]}", phone(n), "Denver, CO"]
                          for n in range(30)], {"full_name": 0, "phone": "1"}),
}


def upload(path: Path, rows: list[list[str]]) -> Path:
    path.write_text("".join(csv_line(row) + "\n" for row in rows), encoding="utf-8")
    return path


@pytest.mark.parametrize("case", list(UPLOADS))
def test_a_dialer_upload_without_a_header_is_read_by_place(case: str, tmp_path: Path) -> None:
    """Every line is a lead, the first too; the columns are named by place from 0, as
    pandas names them with ``header=None``."""
    rows, mapping = UPLOADS[case]
    path = upload(tmp_path / "upload.csv", rows)
    result = clean(path, header=None, mapping=mapping)
    place = int(mapping["phone"])
    assert len(result.frame) == 30
    assert result.frame[str(place)].tolist() == [row[place] for row in rows]
    expected = ["accepted" if valid(row[place]) else "invalid" for row in rows]
    assert result.frame["status"].astype(str).tolist() == expected
    assert result.file.fields["phone"] == str(place) and result.file.header_row is None
    assert any("no header line" in note for note in result.notes)


@pytest.mark.parametrize("case", list(UPLOADS))
def test_a_headerless_file_cleans_as_pandas_and_dask_read_it(case: str, tmp_path: Path) -> None:
    """``header=None`` names the columns as ``pd.read_csv(..., header=None)`` does, so the
    file's clean, its frame's and its Dask frame's are one."""
    dd = pytest.importorskip("dask.dataframe")
    dask = pytest.importorskip("dask")
    rows, mapping = UPLOADS[case]
    path = upload(tmp_path / "upload.csv", rows)
    expected = clean(path, header=None, mapping=mapping)
    options: dict[str, Any] = {"header": None, "dtype": str, "keep_default_na": False}
    as_frame = clean(pd.read_csv(path, **options), mapping=mapping)
    pd.testing.assert_frame_equal(as_frame.frame, expected.frame)
    with dask.config.set(scheduler="synchronous"):
        on_dask = clean_dataset(dd.read_csv(path, **options), mapping=mapping).compute()
    pd.testing.assert_frame_equal(on_dask.frame, expected.frame)


@pytest.mark.parametrize("case", list(UPLOADS))
def test_a_headerless_file_cleans_in_chunks_as_it_cleans_whole(case: str, tiny: None,
                                                               tmp_path: Path) -> None:
    rows, mapping = UPLOADS[case]
    rows = [*rows[:12], [], rows[12][:1], *rows[13:]]  # a blank line, a short row
    path = upload(tmp_path / "upload.csv", rows)
    whole, streamed, files = both(path, tmp_path, header=None, mapping=mapping)
    assert_same(whole, streamed, files)
    assert whole.file.blank_rows == (13,)


def test_a_headerless_upload_read_with_a_header_says_how_to_read_it(tmp_path: Path) -> None:
    path = upload(tmp_path / "upload.csv", UPLOADS["number_name"][0])
    with pytest.raises(LeadFileError) as refused:
        clean(path)
    assert "header=None" in str(refused.value)
    assert "mapping={'phone': 0}" in str(refused.value)


def test_the_command_reads_a_headerless_upload(tmp_path: Path) -> None:
    path = upload(tmp_path / "upload.csv", UPLOADS["number_name"][0])
    out = tmp_path / "out.csv"
    result = runner.invoke(app, ["leads", "clean", str(path), "--no-header", "--map", "phone=0",
                                 "--map", "first_name=1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert f"{path}: 30 rows" in result.output
    written = pd.read_csv(out, dtype=str, keep_default_na=False)
    assert written.columns[:3].tolist() == ["0", "1", "2"] and len(written) == 30
    refused = runner.invoke(app, ["leads", "clean", str(path)])
    assert refused.exit_code == 2, refused.output
    assert "pass --no-header (the column whose cells hold phones" in refused.output
    assert "--map phone=0" in refused.output
    assert "header=None" not in refused.output and "mapping=" not in refused.output


def test_the_import_command_reads_a_headerless_file(
        tmp_path: Path, client: Client, sandbox: Sandbox,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``leads import --no-header`` imports a dialer's upload, its phone found by its
    cells; without the flag, the refusal names it."""
    monkeypatch.setenv("DIALKIT_API_KEY", KEYS["full"])
    monkeypatch.setenv("DIALKIT_BASE_URL", sandbox.base_url)
    path = upload(tmp_path / "upload.csv", UPLOADS["number_name"][0])
    campaign = next(client.campaigns.list(status="paused")).id
    refused = runner.invoke(app, ["leads", "import", str(path), "--campaign", campaign,
                                  "--journal", str(tmp_path / "journal")])
    assert refused.exit_code == 2, refused.output
    assert "pass --no-header" in refused.output and "--map phone=0" in refused.output
    assert "header=None" not in refused.output and "mapping=" not in refused.output
    imported = runner.invoke(app, ["leads", "import", str(path), "--campaign", campaign,
                                   "--no-header", "--journal", str(tmp_path / "journal")])
    assert imported.exit_code == 0, imported.output
    phones = {lead.phone for lead in client.leads.list(campaign_id=campaign)}
    cleaned = clean(path, header=None).frame
    accepted = set(cleaned.loc[cleaned["status"] == "accepted", "phone_e164"])
    assert accepted and accepted <= phones


def test_a_headerless_workbook_is_read_by_place(tmp_path: Path) -> None:
    """A list pasted into a sheet: the numbers as Excel stores them, some as numbers."""
    path = tmp_path / "upload.xlsx"
    book = xlsxwriter.Workbook(path)
    sheet = book.add_worksheet("Sheet1")
    for n in range(20):
        cell = phone(n)
        if n % 2:
            sheet.write_number(n, 0, int("".join(c for c in cell if c.isdigit())))
        else:
            sheet.write_string(n, 0, cell)
        sheet.write_string(n, 1, FIRST[n % 8])
    book.close()
    result = clean(path, header=None, mapping={"phone": 0, "first_name": 1})
    assert len(result.frame) == 20 and result.frame["1"].tolist() == [FIRST[n % 8]
                                                                     for n in range(20)]
    assert (result.frame["status"] == "accepted").sum() == sum(valid(phone(n))
                                                               for n in range(20))


def test_a_column_is_mapped_by_its_place_with_a_header_too(tmp_path: Path) -> None:
    path = tmp_path / "export.csv"
    path.write_text("Name,Number,Type\nAda,+14155550100,Mobile\nBo,+14155550101,Home\n")
    result = clean(path, mapping={"phone": 1})
    assert result.file.fields["phone"] == "Number"
    assert (result.frame["status"] == "accepted").all()
    with pytest.raises(LeadFileError, match=r"mapping= names column 3 by place.*0 to 2"):
        clean(path, mapping={"phone": 3})


@pytest.mark.parametrize("header", [0, False, "none"])
def test_a_header_option_of_another_kind_is_refused_saying_what_to_pass(header: Any,
                                                                        tmp_path: Path) -> None:
    path = upload(tmp_path / "upload.csv", UPLOADS["numbers_alone"][0])
    with pytest.raises(InputError, match=r"pass header=None"):
        clean(path, header=header, mapping={"phone": 0})


def test_a_frame_has_no_header_line_to_leave_out() -> None:
    with pytest.raises(InputError, match=r"header=None.*pd.read_csv"):
        read(pd.DataFrame({0: ["+14155550100"]}), header=None)


def test_the_sample_is_as_excel_for_mac_writes_it(tmp_path: Path) -> None:
    """The file above is what Excel for Mac writes: no LF between records, the in-cell
    break an LF inside quotes, é as Mac OS Roman's byte 0x8E."""
    data = excel_for_mac(tmp_path / "leads.csv", mac_rows(10)).read_bytes()
    assert data.count(b"\r") == 11 and data.count(b"\n") == 1 and b"\x8e" in data
    records = list(csv.reader(io.StringIO(data.decode("mac_roman"), newline="")))
    assert len(records) == 11 and records[8][4] == "call after 5\nask for the owner"
