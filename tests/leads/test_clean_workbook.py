"""``cleaned.xlsx`` as a person uses it: row numbers and counts that sort and add up, a
frozen header with a filter on each column, and each refusal in words beside its code
(issue 48, item 11). Read back with openpyxl, as Excel would show it."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from typer.testing import CliRunner

from dialkit.cli import app
from dialkit.leads import CleanResult, clean, clean_file
from dialkit.leads._clean import _result as result_module
from dialkit.leads._clean._verdicts import VERDICTS, WORDS

ROOT = Path(__file__).resolve().parents[2]
TRICKY = ROOT / "tests" / "fixtures" / "clean" / "tricky.csv"


def sheets(path: Path) -> dict[str, list[list[openpyxl.cell.Cell]]]:
    """Each sheet's rows of cells, the header first."""
    book = openpyxl.load_workbook(path)
    return {sheet.title: [list(row) for row in sheet.iter_rows()] for sheet in book}


def column(rows: list[list[openpyxl.cell.Cell]], name: str) -> list[openpyxl.cell.Cell]:
    at = [cell.value for cell in rows[0]].index(name)
    return [row[at] for row in rows[1:]]


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tricky.csv cleaned by the command line into a workbook (streamed, as a file is)."""
    out = tmp_path_factory.mktemp("workbook") / "cleaned.xlsx"
    done = CliRunner().invoke(app, ["leads", "clean", str(TRICKY), "--out", str(out)])
    assert done.exit_code == 0, done.output
    return out


def test_row_numbers_and_counts_are_numbers(written: Path) -> None:
    book = sheets(written)
    for name in ("accepted", "rejected"):
        numbers = column(book[name], "row")
        assert numbers and all(cell.data_type == "n" for cell in numbers), name
        assert [cell.value for cell in numbers] == sorted(cell.value for cell in numbers)
    counts = column(book["summary"], "rows")
    assert all(cell.data_type == "n" for cell in counts)
    assert sum(cell.value for cell in counts) == 32  # what SUM() of the column gives
    phones = column(book["accepted"], "phone_e164")
    assert all(cell.data_type == "s" for cell in phones)  # never a number


def test_each_sheet_has_a_frozen_header_and_a_filter(written: Path) -> None:
    book = openpyxl.load_workbook(written)
    for sheet in book:
        assert sheet.freeze_panes == "A2", sheet.title
        assert sheet.auto_filter.ref == f"A1:{sheet.cell(1, sheet.max_column).column_letter}" \
                                        f"{sheet.max_row}", sheet.title


def test_each_refusal_is_explained_in_words_beside_its_code(written: Path) -> None:
    book = sheets(written)
    for name in ("rejected", "summary"):
        header = [cell.value for cell in book[name][0]]
        assert header[header.index("field") + 1] == "explanation"
    rejected = book["rejected"]
    said = {(status.value, reason.value, field.value): words.value for status, reason, field,
            words in zip(column(rejected, "status"), column(rejected, "reason"),
                         column(rejected, "field"), column(rejected, "explanation"),
                         strict=True)}
    assert said[("invalid", "field_rule", "email")] == (
        "the email address is not a valid address (or is longer than 254 characters)")
    assert said[("duplicate", "duplicate_in_request", None)] == (
        "the same phone number or lead id as an earlier row of the file")
    summary = book["summary"]
    words = dict(zip((cell.value for cell in column(summary, "reason")),
                     (cell.value for cell in column(summary, "explanation")), strict=True))
    assert words[None] is None  # the accepted rows: nothing to explain
    assert words["invalid_phone"] == ("not a valid phone number of the country it was read in "
                                      "(the row's country, else the file's region)")


def test_every_refusal_the_clean_gives_has_words() -> None:
    refusals = {verdict for verdict in VERDICTS if verdict[0] != "accepted"}
    assert refusals == set(WORDS)
    assert all("_" not in words for words in WORDS.values())  # no code among the words


def test_the_library_writes_the_workbook_the_command_writes(written: Path,
                                                            tmp_path: Path) -> None:
    result = clean(TRICKY)
    assert isinstance(result, CleanResult)
    result.to_excel(tmp_path / "whole.xlsx")
    whole, streamed = sheets(tmp_path / "whole.xlsx"), sheets(written)
    for name, rows in streamed.items():
        assert [[(c.value, c.data_type) for c in row] for row in whole[name]] == \
            [[(c.value, c.data_type) for c in row] for row in rows], name
    assert openpyxl.load_workbook(tmp_path / "whole.xlsx")["rejected"].freeze_panes == "A2"


def test_a_column_of_the_file_named_explanation_keeps_its_cells(tmp_path: Path) -> None:
    path = tmp_path / "vendor.csv"
    path.write_text("Phone,explanation\nn/a,the vendor's own\n")
    clean_file(path, out=tmp_path / "out.xlsx")
    rejected = sheets(tmp_path / "out.xlsx")["rejected"]
    assert [cell.value for cell in column(rejected, "explanation")] == ["the vendor's own"]
    assert [cell.value for cell in column(rejected, "explanation (clean)")] == [
        "the row has no phone number"]


def test_a_workbook_too_large_for_a_sheet_is_refused(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    result = clean(TRICKY)
    assert isinstance(result, CleanResult)
    monkeypatch.setattr(result_module, "EXCEL_ROWS", 10)
    with pytest.raises(ValueError, match=r"17 rows would go on one sheet.*to_csv\(\)"):
        result.to_excel(tmp_path / "big.xlsx")
    assert not list(tmp_path.iterdir())
