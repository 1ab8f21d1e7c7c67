"""What a lead file's phones hold beyond one number: extensions and second numbers sent as
custom fields, fallback phone columns, hints for numbers of another region, the row a
duplicate repeats, and exports that keep what Excel needs (issue 20, items 3-5 and 13)."""

from __future__ import annotations

import codecs
from pathlib import Path

import pandas as pd
import pytest
from python_calamine import CalamineWorkbook

from dialkit import Client
from dialkit.contract import MAX_CUSTOM_FIELDS
from dialkit.leads import clean, import_leads


def vendor_file(tmp_path: Path, text: str, *, name: str = "vendor.csv",
                encoding: str = "utf-8") -> Path:
    """A vendor's CSV as their tool wrote it: CRLF line ends."""
    path = tmp_path / name
    path.write_bytes(text.replace("\n", "\r\n").encode(encoding))
    return path


def cells(column: pd.Series) -> list[object]:
    """A column's values, missing ones as ``None``."""
    return [None if pd.isna(value) else value for value in column.tolist()]


def paused(client: Client) -> str:
    return next(client.campaigns.list(status="paused")).id


def stored(client: Client, campaign: str) -> dict[str, dict[str, object] | None]:
    """The campaign's leads: phone → custom fields, as the service keeps them."""
    return {lead.phone: lead.custom_fields for lead in client.leads.list(campaign_id=campaign)}


EXTENSIONS = """\
Name,Phone,Notes
Ada Lovelace,+1 (312) 555-0101 ext. 204,decision maker
Charles Babbage,312-555-0102 / 312-555-0199,call the second after 5pm
Grace Hopper,312.555.0103 x7,
Alan Turing,(312) 555-0104,
"""


def test_extensions_and_second_numbers_go_to_the_service_as_custom_fields(
        client: Client, tmp_path: Path) -> None:
    campaign = paused(client)
    path = vendor_file(tmp_path, EXTENSIONS)
    result = clean(path)
    assert "2 extensions and 1 second number sent as custom fields (phone_extension, " \
           "alt_phone)" in result.notes
    report = import_leads(client, path, campaign, journal=tmp_path / "journal", progress=False)
    assert report.counts["imported"] == 4
    assert "2 extensions and 1 second number sent as custom fields (phone_extension, " \
           "alt_phone)" in report.notes
    leads = stored(client, campaign)
    assert leads["+13125550101"] == {"Notes": "decision maker", "phone_extension": "204"}
    assert leads["+13125550102"] == {"Notes": "call the second after 5pm",
                                     "alt_phone": "+13125550199"}
    assert leads["+13125550103"] == {"phone_extension": "7"}
    assert leads["+13125550104"] is None


def test_the_custom_fields_can_be_renamed_or_left_out(client: Client, tmp_path: Path) -> None:
    path = vendor_file(tmp_path, EXTENSIONS)
    renamed = clean(path, extension_field="Ext", alt_phone_field=None).leads()
    assert renamed[0]["custom_fields"] == {"Notes": "decision maker", "Ext": "204"}
    assert renamed[1]["custom_fields"] == {"Notes": "call the second after 5pm"}
    bare = clean(path, extension_field=None, alt_phone_field=None)
    assert not [note for note in bare.notes if "custom fields" in note]
    campaign = paused(client)
    report = import_leads(client, path, campaign, journal=tmp_path / "journal", progress=False,
                          extension_field="Ext", alt_phone_field=None)
    assert report.counts["imported"] == 4
    assert stored(client, campaign)["+13125550101"] == {"Notes": "decision maker", "Ext": "204"}
    with pytest.raises(ValueError, match="extension_field=''"):
        clean(path, extension_field="")
    with pytest.raises(ValueError, match="has a column 'Notes'.*extension_field"):
        clean(path, extension_field="Notes")


def test_the_custom_fields_stay_within_the_contracts_limit(client: Client,
                                                            tmp_path: Path) -> None:
    extra = [f"Field {n}" for n in range(MAX_CUSTOM_FIELDS)]  # the file fills all 20
    text = "Phone," + ",".join(extra) + "\n" + "\n".join(
        f"+1 312 555 01{n:02d} ext. {n + 1}," + ",".join(["x"] * len(extra)) for n in range(3))
    path = vendor_file(tmp_path, text + "\n")
    result = clean(path)
    assert "3 extensions not sent: the row already has 20 custom fields" in result.notes
    campaign = paused(client)
    report = import_leads(client, result, campaign, journal=tmp_path / "journal",
                          progress=False)
    assert report.counts["imported"] == 3  # not one refused at custom_fields


PHONE_AND_MOBILE = """\
First Name,Phone,Mobile,Work phone
Ada,,+44 7911 123456,
Charles,not known,(312) 555-0110,
Grace,(312) 555-0111,(312) 555-0112,312 555 0113 ext. 9
Alan,,,(312) 555-0114
Edsger,,,
"""


def test_a_blank_or_invalid_phone_falls_back_to_the_mobile_column(tmp_path: Path) -> None:
    result = clean(vendor_file(tmp_path, PHONE_AND_MOBILE))
    frame = result.frame
    assert cells(frame["phone_e164"])[:4] == ["+447911123456", "+13125550110",
                                                "+13125550111", "+13125550114"]
    assert cells(frame["status"]) == ["accepted"] * 4 + ["invalid"]
    assert cells(frame["flags"])[:4] == ["from_mobile", "from_mobile", None,
                                           "from_work_phone"]
    assert cells(frame["alt_phone"])[:4] == [
        None, "not known", "+13125550112, +13125550113 ext. 9", None]
    assert "valid phones: 1 from Phone, 2 from Mobile, 1 from Work phone (where Phone held " \
           "none)" in result.notes
    leads = result.leads()
    assert leads[0] == {"phone": "+447911123456", "first_name": "Ada"}  # no Mobile field
    assert leads[2]["custom_fields"] == {"alt_phone": "+13125550112, +13125550113 ext. 9"}


def test_cell_and_home_phone_are_phone_columns_too(tmp_path: Path) -> None:
    result = clean(vendor_file(tmp_path, "Name,Cell,Home Phone\nAda,,312-555-0120\n"))
    assert cells(result.frame["phone_e164"]) == ["+13125550120"]
    assert cells(result.frame["flags"]) == ["from_home_phone"]


US_FILE_WITH_UK_ROWS = """\
Name,Phone
Ada,+44 20 7946 0000
Charles,(312) 555-0130
Grace,020 7946 0958
Alan,0161 496 0123
Edsger,12345
"""


def test_a_number_valid_in_another_region_of_the_file_gets_a_hint(tmp_path: Path) -> None:
    result = clean(vendor_file(tmp_path, US_FILE_WITH_UK_ROWS))
    frame = result.frame
    assert cells(frame["reason"])[2:] == ["invalid_phone"] * 3  # still refused, as the
    assert cells(frame["hint"]) == [                            # service would
        None, None, "a valid GB number, +442079460958: write it as +442079460958, or name GB "
        "in a country column", "a valid GB number, +441614960123: write it as +441614960123, "
        "or name GB in a country column", None]
    assert ("2 rows look like GB numbers: write them with +44, or name each row's country in a "
            "country column (region= would change other rows' numbers)") in result.notes


def test_the_country_column_points_to_the_region_of_a_blank_country(tmp_path: Path) -> None:
    text = "Name,Phone,Country\nAda,030 90182000,DE\nCharles,030 90182001,\n"
    result = clean(vendor_file(tmp_path, text))
    assert cells(result.frame["phone_e164"])[0] == "+493090182000"
    assert cells(result.frame["hint"])[1] == (
        "the row's Country is blank; the number is a valid DE number, +493090182001: fill "
        "that cell with DE, or write it as +493090182001")
    assert ("1 row with a blank Country looks like a DE number: fill its Country with DE "
            "(each row's hint names its number)") in result.notes


def test_a_number_too_short_for_the_default_region_gets_no_hint(tmp_path: Path) -> None:
    text = "Name,Phone\nAda,+49 30 90182000\nCharles,555-0198\n"  # a US number, no area code
    result = clean(vendor_file(tmp_path, text))
    assert cells(result.frame["reason"])[1] == "invalid_phone"
    assert cells(result.frame["hint"]) == [None, None]  # though 5550198 is valid in DE


def test_a_duplicate_names_the_row_it_repeats(tmp_path: Path) -> None:
    text = ("Lead ID,Phone\nA-1,(312) 555-0140\nA-2,n/a\nA-3,312.555.0141\nA-4,+13125550140\n"
            "A-3,(312) 555-0142\n")
    frame = clean(vendor_file(tmp_path, text)).frame
    assert cells(frame["reason"])[3:] == ["duplicate_in_request"] * 2
    assert cells(frame["hint"]) == [None, None, None, "duplicate of row 1",
                                      "duplicate of row 3"]


def test_the_cleaned_csv_keeps_the_files_byte_order_mark(tmp_path: Path) -> None:
    text = "Name,Phone\nZoë Ångström,(312) 555-0150\n"
    with_bom = vendor_file(tmp_path, text, name="excel.csv", encoding="utf-8-sig")
    clean(with_bom).to_csv(tmp_path / "out.csv")
    assert (tmp_path / "out.csv").read_bytes().startswith(codecs.BOM_UTF8 + b'"Name",')
    clean(with_bom).to_csv(tmp_path / "rejects.csv", rows="rejected")
    assert (tmp_path / "rejects.csv").read_bytes().startswith(codecs.BOM_UTF8)
    plain = vendor_file(tmp_path, text, name="plain.csv")
    clean(plain).to_csv(tmp_path / "plain_out.csv")
    assert (tmp_path / "plain_out.csv").read_bytes().startswith(b'"Name",')
    clean(plain).to_csv(tmp_path / "forced.csv", bom=True)
    assert (tmp_path / "forced.csv").read_bytes().startswith(codecs.BOM_UTF8)
    assert not (clean(with_bom).to_csv() or "").startswith("\ufeff")


def test_the_cleaned_workbook_holds_every_cell_but_the_counts_as_text(tmp_path: Path) -> None:
    result = clean(vendor_file(tmp_path, "Name,Phone\nAda,(312) 555-0160\nBob,n/a\n"))
    result.to_excel(tmp_path / "out.xlsx")
    book = CalamineWorkbook.from_path(str(tmp_path / "out.xlsx"))
    for sheet in book.sheet_names:
        header, *rows = book.get_sheet_by_name(sheet).to_python()
        counts = [header.index("row" if sheet != "summary" else "rows")]
        cells = [cell for row in rows for n, cell in enumerate(row)
                 if cell != "" and n not in counts]
        assert cells and all(isinstance(cell, str) for cell in cells), (sheet, cells)
    accepted = pd.read_excel(tmp_path / "out.xlsx", sheet_name="accepted", dtype=str,
                             engine="calamine")
    assert accepted["row"].tolist() == ["1"]


def test_the_command_names_the_custom_fields_and_the_hints_in_its_flags(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from dialkit.cli import app

    runner = CliRunner()
    path = vendor_file(tmp_path, EXTENSIONS)
    said = runner.invoke(app, ["leads", "clean", str(path), "--extension-field", "Ext"]).output
    assert "note: 2 extensions and 1 second number sent as custom fields (Ext, alt_phone)" in said
    said = runner.invoke(app, ["leads", "clean", str(path), "--extension-field", "",
                               "--alt-phone-field", ""]).output
    assert "custom fields" not in said
    said = runner.invoke(app, ["leads", "clean", str(path), "--extension-field", "Notes"])
    assert said.exit_code == 2
    assert "pass --extension-field another name, or '' to leave them out" in said.output
    said = runner.invoke(app, ["leads", "clean", str(vendor_file(tmp_path, US_FILE_WITH_UK_ROWS))])
    assert ("note: 2 rows look like GB numbers: write them with +44, or name each row's "
            "country in a country column (--region would change other rows' numbers)"
            in said.output)
