"""The clean says what it understood: which column became which field, the column that gave
each row's region, the encoding, a column sent as a custom field though named almost as a
field; and a refused +1 number is hinted as the number it is, pointing at a Country cell
that says otherwise (issue 48, item 8)."""

from __future__ import annotations

import html
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from dialkit._files._headers import squeeze
from dialkit.cli import app
from dialkit.leads import clean, clean_file
from dialkit.leads._read._headers import ALIASES, NAMES_SHOWN, near_notes

VENDOR = """\
Mobile #;Name;E-mail;Lead Ref;Country;Notes
(416) 555-0100;Zoë;zoe@example.com;R1;CA;
(604) 555-0101;Ann;;R2;CA;
(514) 555-0102;Bo;;R3;Canada;
(212) 555-0103;Cy;;R4;US;
020 7946 0958;Di;;R5;UK;
"""
US_ROWS_SAID_UK = [("415 555 0123", "California"), ("(212) 555-0142", "New York"),
                   ("312-555-0150", "Illinois"), ("617.555.0160", "Massachusetts"),
                   ("404 555 0170", "Georgia"), ("206-555-0180", "Washington")]
"""Six US numbers written nationally in rows whose Country says UK."""


def vendor_file(tmp_path: Path, *, encoding: str = "cp1252") -> Path:
    """A vendor's file in cp1252 with ``;``, "Mobile #", "Lead Ref" and a Country column:
    Canadian and US rows, a British one, and six US numbers in rows said to be British."""
    rows = "".join(f"{phone};Ed {n};;S{n};UK;\n" for n, (phone, _) in enumerate(US_ROWS_SAID_UK))
    path = tmp_path / "vendor.csv"
    path.write_bytes((VENDOR + rows).replace("\n", "\r\n").encode(encoding))
    return path


def test_the_notes_say_which_column_became_which_field_and_how_the_file_was_read(
        tmp_path: Path) -> None:
    notes = clean(vendor_file(tmp_path)).notes
    assert "text read as cp1252 (not UTF-8)" in notes
    assert "columns split at ';'" in notes
    assert ("columns read as: Mobile # → phone, Name → full_name, Country → each row's "
            "region (its phone is read as a number there)") in notes
    assert ("Lead Ref sent as a custom field, not as external_id: a column is read as "
            "external_id when named External ID, Lead ID or ID; rename it, or pass "
            "mapping={'external_id': '<column>'}") in notes


def test_a_notebook_shows_the_notes(tmp_path: Path) -> None:
    shown = html.unescape(clean(vendor_file(tmp_path))._repr_html_())
    assert "<li>columns read as: Mobile # → phone," in shown
    assert "<li>Lead Ref sent as a custom field, not as external_id" in shown


def test_a_utf8_file_is_not_said_to_be_in_another_encoding(tmp_path: Path) -> None:
    notes = clean(vendor_file(tmp_path, encoding="utf-8")).notes
    assert not any("text read as" in note for note in notes)


def test_a_us_number_in_a_row_said_to_be_british_is_never_offered_as_a_us_number(
        tmp_path: Path) -> None:
    """The row's Country was read: its number is not offered as another country's (issue
    70), in its hint or in a note, though the file's other rows are American."""
    result = clean(vendor_file(tmp_path))
    rows = result.frame.tail(len(US_ROWS_SAID_UK))
    assert rows["reason"].tolist() == ["invalid_phone"] * len(US_ROWS_SAID_UK)
    assert rows["hint"].isna().all()
    assert not any("US number" in note or "region=" in note for note in result.notes)


def test_a_written_clean_hints_and_notes_as_the_clean_in_memory(tmp_path: Path) -> None:
    whole = clean(vendor_file(tmp_path))
    written = clean_file(vendor_file(tmp_path), out=tmp_path / "out.csv")
    assert written.notes == whole.notes
    hints = pd.read_csv(tmp_path / "out.csv", dtype=str, keep_default_na=False)["hint"]
    assert hints.tolist() == whole.frame["hint"].fillna("").tolist()


def test_a_us_number_in_a_file_of_another_region_names_its_state(tmp_path: Path) -> None:
    path = tmp_path / "gb.csv"
    path.write_text("Name,Phone\nAda,+1 212 555 0100\nBob,020 7946 0958\nCy,415 555 0123\n")
    result = clean(path, region="GB")
    assert result.frame["hint"].tolist()[2] == (
        "a valid US number in California, +14155550123: write it as +14155550123, or name "
        "US in a country column")
    assert ("1 row looks like a US number: write it with +1, or name each row's country in a "
            "country column (region= would change other rows' numbers)") in result.notes


def test_a_country_cell_that_names_the_numbers_own_region_is_not_blamed(
        tmp_path: Path) -> None:
    path = tmp_path / "kz.csv"  # a Kazakh number written with another country's exit code
    path.write_text("Phone,Country\n+7 771 000 1751,KZ\n00 7 771 000 1750,KZ\n")
    result = clean(path)
    assert pd.isna(result.frame["hint"].iloc[1])
    assert not any("Country" in note and "hold" in note for note in result.notes)


@pytest.mark.parametrize(("column", "field"), [
    ("Lead Ref", "external_id"), ("Customer ID", "external_id"), ("Reference", "external_id"),
    ("First", "first_name"), ("Surname 2", "last_name"), ("Work Email", "email"),
    ("Company Name", None), ("Source", None), ("Notes", None)])
def test_a_column_named_almost_as_a_field_gets_a_note(column: str, field: str | None) -> None:
    notes = near_notes({"phone": "Phone"}, [column])
    assert [note.split(": ")[0] for note in notes] == (
        [] if field is None else [f"{column} sent as a custom field, not as {field}"])


def test_a_field_a_column_holds_gets_no_note() -> None:
    assert near_notes({"phone": "Phone", "external_id": "ID"}, ["Lead Ref"]) == []


def test_the_names_a_note_offers_are_names_the_reader_maps() -> None:
    for field, names in NAMES_SHOWN.items():
        assert all(squeeze(name) in ALIASES[field] for name in names), field


def test_the_command_line_says_the_notes_in_its_flags(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["leads", "clean", str(vendor_file(tmp_path))])
    assert result.exit_code == 0, result.output
    assert "note: columns read as: Mobile # → phone," in result.stdout
    assert "note: text read as cp1252 (not UTF-8)" in result.stdout
    assert "rename it, or pass --map external_id=COLUMN" in result.stdout


def test_columns_named_as_their_fields_go_unsaid(tmp_path: Path) -> None:
    path = tmp_path / "plain.csv"
    path.write_text("Phone,E-mail,First Name,Land\n(312) 555-0100,ada@example.com,Ada,US\n")
    assert not any(note.startswith("columns read as") for note in clean(path).notes)
    assert "columns read as: Land → each row's region (its phone is read as a number " \
           "there)" in clean(path, country_column="Land").notes


EXCEL_CSV = ('\ufeffLead #,First Name,Last Name,Mobile #,Email,Notes\r\n'
             'L-1001,Ada,Lovelace,(415) 555-0199,ada@example.com,"called, no answer"\r\n'
             'L-1002,Alan,Turing,212.555.0142,,\r\n')
"""A vendor's file as Excel saves it ("CSV UTF-8"): a byte order mark, CRLF, quoted cells."""


@pytest.mark.parametrize("header", ["Lead #", "Lead ID", "LeadID", "Lead No", "Lead No.",
                                    "Lead Number", "Record ID", "Record #", "Customer ID",
                                    "Customer No", "Contact ID"])
def test_a_vendors_id_column_is_the_external_id(tmp_path: Path, header: str) -> None:
    """Issue 62: ``Lead #`` went to custom fields while ``external_id`` stayed empty."""
    path = tmp_path / "vendor.csv"
    path.write_bytes(EXCEL_CSV.replace("Lead #", header, 1).encode("utf-8"))
    result = clean(path)
    assert result.file.fields["external_id"] == header
    assert [lead.get("external_id") for lead in result.leads()] == ["L-1001", "L-1002"]
    assert all(header not in lead.get("custom_fields", {}) for lead in result.leads())


@pytest.mark.parametrize(("columns", "external_id"), [
    (["Customer ID", "Lead ID", "Phone"], "Lead ID"),  # the lead's own id, wherever it is
    (["Record ID", "ID", "Phone"], "ID"),
    (["Lead Ref", "Reference", "Account ID", "Client ID", "Phone"], None),  # codes, not ids
    (["Phone #", "Mobile", "Lead #"], "Lead #"),  # Phone # stays a phone's name
])
def test_a_name_of_another_meaning_does_not_take_the_external_id(
        columns: list[str], external_id: str | None) -> None:
    fields = clean(pd.DataFrame([["x"] * (len(columns) - 1) + ["(415) 555-0199"]],
                                columns=columns)).file.fields
    assert fields.get("external_id") == external_id
    assert fields["phone"] in ("Phone", "Phone #")
