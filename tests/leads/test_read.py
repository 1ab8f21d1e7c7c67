"""Reading lead files: every column as text, encodings and delimiters detected, headers
mapped by the names people use, workbook numbers reported, and every unreadable file
refused with one LeadFileError in words."""

from __future__ import annotations

import io
import os
from datetime import datetime
from pathlib import Path

import pandas as pd
import pytest
import xlsxwriter

from dialkit.leads import LeadFileError, read

MESSY = "Phone Number,First Name,Surname,E-mail\n07700 900123,Zoë,Müller,z@example.com\n" \
    "+1 (415) 555-0123,José,Ñúñez,\n004420 7946 0123,Ann,O'Neil,ann@example.org\n"


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_every_column_is_text_and_no_leading_zero_is_lost(tmp_path: Path) -> None:
    leads = read(write(tmp_path, "leads.csv", MESSY.encode()))
    assert leads.frame["Phone Number"].tolist() == ["07700 900123", "+1 (415) 555-0123",
                                                    "004420 7946 0123"]
    assert all(str(dtype) == "string" for dtype in leads.frame.dtypes)
    assert leads.frame["E-mail"].isna().tolist() == [False, True, False]
    assert leads.fields == {"phone": "Phone Number", "first_name": "First Name",
                            "last_name": "Surname", "email": "E-mail"}
    assert leads.numbers.empty and leads.encoding == "utf-8"


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "cp1252", "latin-1"])
def test_the_encoding_is_detected(tmp_path: Path, encoding: str) -> None:
    text = MESSY.replace("Ann", "Ann € Ltd") if encoding != "latin-1" else MESSY
    leads = read(write(tmp_path, "leads.csv", text.encode(encoding)))
    assert leads.frame["First Name"].tolist()[:2] == ["Zoë", "José"]
    assert leads.frame["Surname"].tolist()[1] == "Ñúñez"
    if encoding != "latin-1":
        assert leads.frame["First Name"].tolist()[2] == "Ann € Ltd"
    expected = {"utf-8": "utf-8", "utf-8-sig": "utf-8-sig", "utf-16": "utf-16",
                "cp1252": "cp1252", "latin-1": "cp1252"}[encoding]
    assert leads.encoding == expected
    assert list(leads.frame.columns)[0] == "Phone Number"  # no BOM left in the header


def test_an_explicit_encoding_is_used_and_a_wrong_one_explained(tmp_path: Path) -> None:
    path = write(tmp_path, "leads.csv", MESSY.encode("cp1252"))
    assert read(path, encoding="cp1252").frame["First Name"][0] == "Zoë"
    with pytest.raises(LeadFileError, match=r"leads.csv: cannot be read as utf-8"):
        read(path, encoding="utf-8")


@pytest.mark.parametrize(("delimiter", "name"), [(";", "a.csv"), ("\t", "a.tsv"), ("|", "a.txt"),
                                                 (",", "a.csv")])
def test_the_delimiter_is_sniffed(tmp_path: Path, delimiter: str, name: str) -> None:
    text = MESSY.replace(",", delimiter)
    leads = read(write(tmp_path, name, text.encode()))
    assert list(leads.frame.columns) == ["Phone Number", "First Name", "Surname", "E-mail"]
    assert len(leads.frame) == 3


@pytest.mark.parametrize(("header", "field"), [
    ("PHONE", "phone"), ("phone_number", "phone"), ("Mobile", "phone"), ("Cell", "phone"),
    ("Tel.", "phone"), ("Telephone", "phone"), ("firstname", "first_name"),
    ("Given Name", "first_name"), ("Last-Name", "last_name"), ("Family Name", "last_name"),
    ("Full Name", "full_name"), ("Name", "full_name"), ("E-Mail Address", "email"),
    ("External ID", "external_id"), ("ID", "external_id"), ("Lead Id", "external_id"),
    ("Country", "country"), ("Country Code", "country"),
])
def test_headers_map_by_common_names(header: str, field: str) -> None:
    frame = pd.DataFrame({"Phone": ["+14155550100"], header: ["x"]}) if field != "phone" \
        else pd.DataFrame({header: ["+14155550100"]})
    assert read(frame).fields[field] == header


def test_mapping_wins_and_the_rest_become_at_most_twenty_custom_fields() -> None:
    extra = {f"Extra {n}": ["v"] for n in range(25)}
    frame = pd.DataFrame({"Phone": ["+14155550100"], "Mobil": ["+14155550101"], **extra})
    leads = read(frame, mapping={"phone": "Mobil"})
    assert leads.fields == {"phone": "Mobil"}
    assert leads.custom_fields == ["Phone", *[f"Extra {n}" for n in range(19)]]
    assert leads.unused == [f"Extra {n}" for n in range(19, 25)]


def test_a_second_phone_like_column_is_a_custom_field() -> None:
    leads = read(pd.DataFrame({"Mobile": ["1"], "Telephone": ["2"]}))
    assert (leads.fields, leads.custom_fields) == ({"phone": "Mobile"}, ["Telephone"])


def workbook(path: Path) -> Path:
    book = xlsxwriter.Workbook(str(path))
    first = book.add_worksheet("Leads")
    when = book.add_format({"num_format": "yyyy-mm-dd"})
    for column, header in enumerate(["Phone", "Name", "Signed up", "Score"]):
        first.write(0, column, header)
    first.write_number(1, 0, 4155550123)
    first.write_string(2, 0, "07700900123")
    first.write_number(3, 0, 4155550124.0)
    for row, name in enumerate(["Ada", "Bo", "Cy"], start=1):
        first.write_string(row, 1, name)
    first.write_datetime(1, 2, datetime(2026, 11, 2), when)
    first.write_number(2, 3, 7.5)
    second = book.add_worksheet("Other")
    second.write_row(0, 0, ["Mobile"])
    second.write_row(1, 0, ["+442079460123"])
    book.close()
    return path


def test_a_workbook_is_read_as_text_and_its_numbers_reported(tmp_path: Path) -> None:
    leads = read(workbook(tmp_path / "leads.xlsx"))
    assert leads.frame["Phone"].tolist() == ["4155550123", "07700900123", "4155550124"]
    assert leads.frame["Signed up"][0] == "2026-11-02"
    assert leads.frame["Score"][1] == "7.5"
    assert leads.numbers.to_dict("records") == [
        {"row": 1, "column": "Phone", "text": "4155550123"},
        {"row": 2, "column": "Score", "text": "7.5"},
        {"row": 3, "column": "Phone", "text": "4155550124"}]
    assert leads.encoding is None


@pytest.mark.parametrize("sheet", ["Other", 1])
def test_a_sheet_is_chosen_by_name_or_index(tmp_path: Path, sheet: str | int) -> None:
    leads = read(workbook(tmp_path / "leads.xlsx"), sheet=sheet)
    assert leads.frame["Mobile"].tolist() == ["+442079460123"]


def test_a_workbook_is_recognised_by_its_content_and_read_from_a_file_object(
        tmp_path: Path) -> None:
    data = workbook(tmp_path / "leads.xlsx").read_bytes()
    misnamed = write(tmp_path, "export.csv", data)
    assert read(misnamed).fields["phone"] == "Phone"
    assert len(read(io.BytesIO(data)).frame) == 3


def test_a_frame_with_float_phones_is_read_as_text_and_reported() -> None:
    leads = read(pd.DataFrame({"phone": [4155550123.0, None], "name": ["A", "B"]}))
    assert leads.frame["phone"].tolist()[0] == "4155550123"
    assert leads.frame["phone"].isna().tolist() == [False, True]
    assert leads.numbers["row"].tolist() == [1]


BAD_FILES = {
    "empty": (b"", "empty"),
    "blank": (b"  \n\n", "empty"),
    "binary": (bytes(range(256)) * 4, "binary file"),
    "header only": (b"phone,name\n", "header but no rows"),
    "no phone column": (b"name,email\nAda,a@example.com\n", "no phone column among name, email"),
    "broken workbook": (b"PK\x03\x04" + os.urandom(200), "cannot be read as an Excel workbook"),
}


def test_delimiters_ending_every_line_add_no_column_and_shift_none(tmp_path: Path) -> None:
    """Some exports end every line with a delimiter: the empty cells past the header are
    dropped. pandas took a wide first row's first cell for an index, so every column
    moved one place left and each phone was read as missing."""
    data = b"Name,Phone\nAda,4155550123,\nBob,\"415 555 0124\",,\n\nCy,4155550125\n"
    leads = read(write(tmp_path, "export.csv", data))
    assert leads.frame.columns.tolist() == ["Name", "Phone"]
    assert leads.frame["Name"].tolist() == ["Ada", "Bob", "Cy"]
    assert leads.frame["Phone"].tolist() == ["4155550123", "415 555 0124", "4155550125"]
    assert (leads.frame.index + 1).tolist() == [1, 2, 4] and leads.blank_rows == (3,)


RAGGED = {
    "ragged": (b"phone,name\n+14155550100,Ada\n+14155550101,Bo,extra,more\n",
               {2: "line 3 has 4 fields where the header has 2"}),
    "ragged first row": (b"phone,name\n+14155550100,Ada,extra\n+14155550101,Bo\n",
                         {1: "line 2 has 3 fields where the header has 2"}),
    "ragged after a blank line": (b"name,phone\n\nAda,+14155550100,,x\n",
                                  {2: "line 3 has 4 fields where the header has 2"}),
}
"""Files with a row wider than the header: that row is held, named by its line, and the
rest read (issue 80: the whole file was refused)."""


@pytest.mark.parametrize(("data", "held"), RAGGED.values(), ids=RAGGED)
def test_a_row_wider_than_the_header_is_held_by_its_line(tmp_path: Path, data: bytes,
                                                         held: dict[int, str]) -> None:
    leads = read(write(tmp_path, "vendor.csv", data))
    assert {row: said[:len(held[row])] for row, said in leads.held_rows.items()} == held


@pytest.mark.parametrize(("data", "cause"), BAD_FILES.values(), ids=BAD_FILES)
def test_an_unreadable_file_gets_one_lead_file_error_naming_it(tmp_path: Path, data: bytes,
                                                               cause: str) -> None:
    with pytest.raises(LeadFileError) as caught:
        read(write(tmp_path, "vendor.csv", data))
    assert str(caught.value).startswith(str(tmp_path / "vendor.csv"))
    assert cause in str(caught.value)
    shown = caught.value.__cause__ or (None if caught.value.__suppress_context__
                                       else caught.value.__context__)
    assert shown is None  # no codec or pandas traceback chained to it


@pytest.mark.parametrize(("call", "cause"), [
    (lambda p: read(p / "missing.csv"), "cannot be opened"),
    (lambda p: read(workbook(p / "w.xlsx"), sheet="Nope"), "no sheet 'Nope'; its sheets are "
     "Leads, Other"),
    (lambda p: read(pd.DataFrame({"Phone": ["1"]}), mapping={"email": "Mail"}),
     "mapping= names columns the file does not have: Mail"),
], ids=["missing file", "unknown sheet", "unknown mapped column"])
def test_other_mistakes_are_explained(tmp_path: Path, call: object, cause: str) -> None:
    with pytest.raises(LeadFileError, match=cause):
        call(tmp_path)  # type: ignore[operator]
