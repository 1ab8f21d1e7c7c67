"""Every phone column of a lead file (issue 80, item 1): ``Phone 1`` beside ``Phone 2``
took ``Phone 2`` as the phone and never read ``Phone 1`` (a custom field), so a row whose
first number was valid and whose second was not was refused; a header list missed
``Telefone``, ``電話番号``, ``Mobile Phone Number``. A column is a phone's by its header's
words in the languages lead files come in, with or without a number or an ordinal; the
first in file order is the phone, the others its fallbacks and the lead's other numbers; a
fax is never a number to dial. The notes say which column was read as what.

The truth of each number is libphonenumber's, computed here.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import phonenumbers
import pytest
from typer.testing import CliRunner

from dialkit.cli import app
from dialkit.leads import clean
from dialkit.leads._read._phone_names import phone_header

GOOD, OTHER, FAX = "+1 212-555-0123", "+1 (415) 555-0188", "+1 415 555 0100"
BAD = "001-999-00"


def e164(text: str) -> str:
    number = phonenumbers.parse(text, "US")
    assert phonenumbers.is_valid_number(number), text
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


def written(folder: Path, header: str, rows: list[str]) -> Path:
    path = folder / "leads.csv"
    path.write_text(header + "\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_the_first_phone_column_is_the_phone_and_the_second_its_fallback(
        tmp_path: Path) -> None:
    path = written(tmp_path, "Name,Phone 1,Phone 2,Fax", [
        f"Ann,{GOOD},{BAD},", f'Bob,{BAD},"{OTHER}",', f"Cy,12,,{FAX}"])
    done = clean(path)
    rows = done.frame
    assert rows["phone_e164"].tolist()[:2] == [e164(GOOD), e164(OTHER)]
    assert rows["status"].tolist() == ["accepted", "accepted", "invalid"]  # never the fax
    assert "Phone 1" not in done.file.custom_fields
    assert "Phone 1 → phone, Phone 2 → the lead's other numbers" in done.notes[0]


@pytest.mark.parametrize("header", [
    "Phone 1", "Phone1", "phone_1", "Mobile Phone Number", "Tel2", "Telefone", "Teléfono",
    "Téléphone", "Mobiltelefon", "Handy", "Cellulare", "電話番号", "携帯電話番号", "Телефон",
    "Номер телефона", "Direct Dial", "Número de teléfono", "Tel. privat", "Work Phone",
    "Phone (Work)", "Mobile #", "CellPhone", "Telefonnummer 2", "Celular", "Telpon",
    "Telepon", "No. Telp", "Numero_telefonico", "Número telefónico", "gemeente.contact.telefoon",
    "contact.phone", "Home_Phone__c", "GSM", "Selfoon"])
def test_a_header_that_names_a_phone_in_any_language_is_read(header: str,
                                                              tmp_path: Path) -> None:
    done = clean(written(tmp_path, f'Name,"{header}"', [f"Ann,{GOOD}"]))
    assert done.frame["phone_e164"].tolist() == [e164(GOOD)]


@pytest.mark.parametrize("header", ["Fax", "Telefax", "Phone Type", "Phone Ext",
                                    "Phone Opt In", "Telephone Verified", "Hotel",
                                    "Phone Country Code", "CEP", "NPSN", "contact.fax",
                                    "Phone.Type", "gemeente.contact.emailadres"])
def test_a_header_that_names_something_else_is_no_phone(header: str) -> None:
    assert not phone_header(header)


def test_a_fax_alone_is_no_phone_column(tmp_path: Path) -> None:
    with pytest.raises(Exception, match="no phone column"):
        clean(written(tmp_path, "Name,Fax", [f"Ann,{FAX}"]))


def test_the_command_says_how_to_choose_another_phone(tmp_path: Path) -> None:
    path = written(tmp_path, "Name,Phone 1,Phone 2", [f'Ann,{GOOD},"{OTHER}"'])
    done = CliRunner().invoke(app, ["leads", "clean", str(path), "--json"])
    assert done.exit_code == 0, done.output
    said = done.output
    assert "Phone 2 → the lead's other numbers" in said and "--map phone=COLUMN" in said
    out = tmp_path / "cleaned.csv"
    chosen = CliRunner().invoke(app, ["leads", "clean", str(path), "--map", "phone=Phone 2",
                                      "--out", str(out)])
    assert chosen.exit_code == 0, chosen.output
    assert pd.read_csv(out, dtype=str)["phone_e164"].tolist() == [e164(OTHER)]


def test_dask_reads_every_phone_column_as_pandas_does(tmp_path: Path) -> None:
    dd = pytest.importorskip("dask.dataframe")
    from dialkit.leads import clean_dataset

    path = written(tmp_path, "Name,Phone 1,Phone 2", [
        f"Ann,{GOOD},{BAD}", f'Bob,{BAD},"{OTHER}"'])
    on_pandas = clean(path).frame
    on_dask = clean_dataset(dd.read_csv(path, dtype=str)).compute().frame
    assert on_dask["phone_e164"].tolist() == on_pandas["phone_e164"].tolist() == [
        e164(GOOD), e164(OTHER)]


def test_a_register_number_beside_a_phone_column_is_never_the_phone(tmp_path: Path) -> None:
    """A school register (issue 97): the schools' 8-digit register numbers (``NPSN``) before
    the phone column (``Telpon``), which no header list knew, were read as the phone by
    their cells, so each lead carried its register number as another number, and a school
    with no number was refused ``invalid_phone`` for its register number."""
    jakarta = phonenumbers.example_number_for_type("ID", phonenumbers.PhoneNumberType.FIXED_LINE)
    national = phonenumbers.format_number(jakarta, phonenumbers.PhoneNumberFormat.NATIONAL)
    path = written(tmp_path, "NPSN,Nama Sekolah,Telpon,Email", [
        f"10260556,SD Satu,{national},", "10205538,SD Dua,,sd@example.com",
        f"70028952,SD Tiga,{national.replace('-', '')},"])
    done = clean(path, region="ID")
    assert done.file.fields["phone"] == "Telpon" and done.file.phone_cells == ()
    assert done.frame["phone_e164"].tolist()[::2] == [
        phonenumbers.format_number(jakarta, phonenumbers.PhoneNumberFormat.E164)] * 2
    assert [str(reason) for reason in done.frame["reason"]] == [
        "nan", "missing_phone", "duplicate_in_request"]
    assert done.frame["alt_phone"].isna().all()
    assert "NPSN" in done.file.custom_fields
    assert "columns read as: Telpon → phone" in done.notes

