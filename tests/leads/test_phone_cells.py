"""A file's phone columns found by what their cells hold where no header names a phone
(issue 80, item 1), and a row refused for its phone that holds a valid other number,
named in its hint (item 3).

Which cells are valid numbers, and which number each row should be sent on, is
libphonenumber's word, asked here, never dialkit's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import phonenumbers
import pytest
from test_files_as_saved import UPLOADS, phone, tiny, upload
from test_stream import assert_same, both

from dialkit.leads import LeadFileError, clean, clean_dataset, read

__all__ = ["tiny"]  # the fixture, used by name


def e164(cell: str, region: str = "US") -> str | None:
    """libphonenumber's reading of a cell: its E.164 number where valid."""
    try:
        number = phonenumbers.parse(cell, region)
    except phonenumbers.NumberParseException:
        return None
    if not phonenumbers.is_valid_number(number):
        return None
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


@pytest.mark.parametrize("case", list(UPLOADS))
def test_a_headerless_upload_is_cleaned_without_naming_its_phone(case: str, tiny: None,
                                                                 tmp_path: Path) -> None:
    """The same file, its phone named by place or found by its cells, whole and in
    chunks: one answer."""
    rows, mapping = UPLOADS[case]
    path = upload(tmp_path / "upload.csv", rows)
    others = {field: column for field, column in mapping.items() if field != "phone"}
    named = clean(path, header=None, mapping=mapping)
    whole, streamed, files = both(path, tmp_path, header=None, mapping=others)
    assert_same(whole, streamed, files)
    assert whole.file.fields["phone"] == str(mapping["phone"])
    pd.testing.assert_frame_equal(whole.frame, named.frame)
    said = next(note for note in whole.notes if note.startswith("columns read as"))
    assert f"{mapping['phone']} → phone (its cells hold phone numbers" in said


def test_dask_finds_the_phone_by_the_same_cells(tmp_path: Path) -> None:
    dd = pytest.importorskip("dask.dataframe")
    dask = pytest.importorskip("dask")
    rows, _ = UPLOADS["name_then_number"]
    path = upload(tmp_path / "upload.csv", rows)
    expected = clean(path, header=None)
    options: dict[str, Any] = {"header": None, "dtype": str, "keep_default_na": False}
    with dask.config.set(scheduler="synchronous"):
        on_dask = clean_dataset(dd.read_csv(path, **options)).compute()
    assert on_dask.file.fields["phone"] == expected.file.fields["phone"] == "1"
    pd.testing.assert_frame_equal(on_dask.frame, expected.frame)


ROWS = 40


def crm_export(path: Path) -> pd.DataFrame:
    """A CRM's export whose phone columns are named for no phone (``Number``, ``Contact
    2``), beside columns of other numbers: an account number of ten digits, the
    export's own serial counting up, a postcode, a date, a balance."""
    frame = pd.DataFrame({
        "Name": [f"Lead {n}" for n in range(ROWS)],
        "Number": [phone(n) if n % 9 else "n/a" for n in range(ROWS)],
        "Contact 2": [f"+1 {phone(n + 100)}" if n % 3 == 0 else "" for n in range(ROWS)],
        "Account No": [f"{5550000000 + 7919 * n}" for n in range(ROWS)],
        "Serial": [f"{20240001 + n}" for n in range(ROWS)],
        "Zip": [f"{94100 + n:05d}" for n in range(ROWS)],
        "Joined": [f"2024-{1 + n % 12:02d}-{1 + n % 28:02d}" for n in range(ROWS)],
        "Balance": [f"{1000 + 37 * n}.{n % 100:02d}" for n in range(ROWS)],
    })
    frame.to_csv(path, index=False)
    return frame


def test_a_file_whose_headers_name_no_phone_is_read_by_its_cells(tmp_path: Path) -> None:
    source = crm_export(tmp_path / "crm.csv")
    result = clean(tmp_path / "crm.csv")
    assert result.file.fields["phone"] == "Number"
    assert result.file.phone_cells == ("Number", "Contact 2")
    expected = [e164(first) or e164(second) for first, second in zip(
        source["Number"], source["Contact 2"], strict=True)]
    assert result.frame["phone_e164"].astype(object).where(
        result.frame["phone_e164"].notna(), None).tolist() == expected
    note = next(note for note in result.notes if note.startswith("columns read as"))
    assert "Number → phone (its cells hold phone numbers; no header names a phone)" in note
    assert "Contact 2 → the lead's other numbers" in note
    for other in ("Account No", "Serial", "Zip", "Joined", "Balance"):
        assert other in result.file.custom_fields and other not in note


@pytest.mark.parametrize("column", ["Account No", "Serial"])
def test_numbers_that_are_no_phones_are_never_read_as_one(column: str, tmp_path: Path) -> None:
    """An account number or a serial alone: refused, naming how to choose the phone,
    never sent as a phone."""
    crm_export(tmp_path / "crm.csv")
    kept = pd.read_csv(tmp_path / "crm.csv", dtype=str)[["Name", column]]
    kept.to_csv(tmp_path / "ids.csv", index=False)
    with pytest.raises(LeadFileError, match=f"no phone column among Name, {column}"):
        read(tmp_path / "ids.csv")


@pytest.mark.parametrize("header", ["Name,Contacto,Latitud,Longitud", "Name,Contacto,A,B"])
def test_coordinates_are_never_read_as_phones(header: str, tmp_path: Path) -> None:
    """A business register's coordinates (issue 97): ``-99.25929282`` is written as a
    phone is (ten digits, a dash, a dot), and was read as the number of each row whose
    phone cell is empty. A coordinate's header, and a decimal whatever its header, is no
    phone's."""
    rows = [f"Shop {n},{'' if n % 4 else phone(n)},19.{43 + n:08d},-99.{25929282 + n:08d}"
            for n in range(ROWS)]
    (tmp_path / "register.csv").write_text(header + "\n" + "\n".join(rows) + "\n")
    result = clean(tmp_path / "register.csv")
    assert result.file.phone_cells == ("Contacto",)
    empty = result.frame["Contacto"].isna().to_numpy()
    assert (result.frame["reason"][empty] == "missing_phone").all() and empty.sum() == ROWS * 3 // 4
    assert result.frame["alt_phone"].isna().all()


def test_numbers_with_excel_s_text_mark_are_read_by_their_cells(tmp_path: Path) -> None:
    """Austria's authorities write their numbers ``'+431531200``: under a header no phone
    word names, the cells are still phones (issue 97)."""
    vienna = phonenumbers.format_number(phonenumbers.example_number("AT"),
                                        phonenumbers.PhoneNumberFormat.E164)
    path = tmp_path / "authorities.csv"
    path.write_text("Name,Kontakt\n" + "".join(
        f"Amt {n},'{vienna[:-2]}{n:02d}\n" for n in range(0, 60, 7)))
    result = clean(path, region="AT")
    assert result.file.phone_cells == ("Kontakt",)
    assert cells_of(result.frame["phone_e164"]) == [
        e164(f"{vienna[:-2]}{n:02d}", "AT") for n in range(0, 60, 7)]


def school_register(path: Path) -> pd.DataFrame:
    """A school register (issue 97): the schools' 8-digit register numbers first, then the
    schools' numbers under a header no phone word names, a third of them empty."""
    fixed = phonenumbers.example_number_for_type("ID", phonenumbers.PhoneNumberType.FIXED_LINE)
    digits = str(fixed.national_number)
    frame = pd.DataFrame({
        "NPSN": [f"{10260556 + 7919 * n}" for n in range(ROWS)],
        "Nama": [f"SD {n}" for n in range(ROWS)],
        "Kontak": ["" if n % 3 == 0 else f"(0{digits[:2]}) {digits[2:-2]}{n:02d}"
                   for n in range(ROWS)],
    })
    frame.to_csv(path, index=False)
    return frame


def test_a_column_of_no_valid_number_is_not_the_phone_beside_one_of_numbers(
        tmp_path: Path) -> None:
    """Both columns are written as phones; only the second's cells are numbers in Indonesia.
    The register numbers were the phone, and each lead carried its own as its other number,
    a school with no number refused for its register number; now they are a custom field,
    whole, in chunks and on Dask alike, and the note says why."""
    source = school_register(tmp_path / "register.csv")
    whole, streamed, files = both(tmp_path / "register.csv", tmp_path, region="ID")
    assert_same(whole, streamed, files)
    assert (whole.file.fields["phone"], whole.file.phone_cells, whole.file.numberless) == (
        "Kontak", ("Kontak",), ("NPSN",))
    assert "NPSN" in whole.file.custom_fields and whole.frame["alt_phone"].isna().all()
    expected = [e164(cell, "ID") if cell else None for cell in source["Kontak"]]
    assert None not in expected[1:3]
    assert cells_of(whole.frame["phone_e164"]) == expected
    assert cells_of(whole.frame["reason"])[::3] == ["missing_phone"] * len(expected[::3])
    note = next(note for note in whole.notes if note.startswith("columns read as"))
    assert "Kontak → phone (its cells hold phone numbers" in note
    assert "NPSN → custom fields, not phones (written as phones, but none of the first 100 " \
           "cells is a valid number, and Kontak's are)" in note
    dd = pytest.importorskip("dask.dataframe")
    on_dask = clean_dataset(dd.read_csv(tmp_path / "register.csv", dtype=str,
                                        keep_default_na=False), region="ID").compute()
    assert on_dask.file.numberless == ("NPSN",)
    assert cells_of(on_dask.frame["phone_e164"]) == expected


def test_a_column_of_no_valid_number_alone_is_still_the_phone(tmp_path: Path) -> None:
    """Where no column's cells are numbers, the columns are read as before: each row is
    refused for its phone, never for a column taken away."""
    school_register(tmp_path / "register.csv")
    result = clean(tmp_path / "register.csv", region="US")
    assert result.file.phone_cells == ("NPSN", "Kontak") and result.file.numberless == ()


def cells_of(column: pd.Series) -> list[object]:
    return [None if pd.isna(value) else str(value) for value in column]


def test_a_header_that_is_a_row_is_never_read_by_its_cells(tmp_path: Path) -> None:
    """A header-less upload read as if its first line were a header: the first lead would
    be lost as the columns' names, so the file is refused, saying how to read it."""
    rows, _ = UPLOADS["number_name"]
    path = upload(tmp_path / "upload.csv", rows)
    with pytest.raises(LeadFileError, match=r"pass header=None \(the column whose cells"):
        read(path)


SHARED_LINE = "(415) 555-0100"


def test_a_row_refused_for_its_phone_names_its_valid_other_number(tmp_path: Path) -> None:
    """A team behind one office line, each with a mobile: the second and later rows are
    duplicates of the first by their phone, and each hint names the row's own mobile. A
    row of a blocked country is not offered its other number; a row whose other number
    is no valid one gets no such hint."""
    frame = pd.DataFrame({
        "Name": ["Ada", "Alan", "Grace", "Barbara", "Edsger", "Niklaus"],
        "Phone": [SHARED_LINE, SHARED_LINE, SHARED_LINE, SHARED_LINE, "+98 21 6102 1234", "555"],
        "Mobile": ["(415) 555-0101", "(212) 555-0142", "555-01", "", "(617) 555-0123",
                   "12"],
    })
    frame.to_csv(tmp_path / "team.csv", index=False)
    result = clean(tmp_path / "team.csv", blocked_countries=["IR"])
    hints = result.frame["hint"].astype(object).where(result.frame["hint"].notna(), None)
    statuses = result.frame["status"].astype(str).tolist()
    assert statuses == ["accepted", "duplicate", "duplicate", "duplicate", "blocked_country",
                        "invalid"]
    mobile = e164(frame["Mobile"][1])
    assert mobile is not None and e164(frame["Mobile"][2]) is None
    assert hints[1] == (f"duplicate of row 1; its other number {mobile} is valid: make it "
                        "the row's phone to send the lead on it")
    assert hints[2] == hints[3] == "duplicate of row 1"
    assert hints[4] is None or "other number" not in hints[4]
    assert hints[5] is None or "other number" not in hints[5]
    assert hints[0] is None
