"""Files built to exhaust memory are refused before they are parsed: a workbook by the
sizes in its zip directory, a delimited file by a scan of its lines. Each refusal names
the file, the limit and how to raise it; real files pass."""

from __future__ import annotations

import re
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
import xlsxwriter
from typer.testing import CliRunner

from dialkit.cli import app
from dialkit.leads import FileLimits, LeadFileError, read
from hostile_files import long_line_csv, run_capped, wide_csv, zip_bomb

SAMPLES = Path(__file__).parents[2] / "data_samples"
runner = CliRunner()


@pytest.mark.parametrize(("build", "message"), [
    (lambda tmp: zip_bomb(tmp / "bomb.xlsx", 1024),
     r"bomb.xlsx: xl/worksheets/sheet1.xml inflates 335 times \(3,203,261 bytes to "
     r"1,073,725,660\), more than 100 \(max_workbook_ratio\).*DIALKIT_MAX_WORKBOOK_RATIO"),
    (lambda tmp: wide_csv(tmp / "wide.csv", 300_000),
     r"wide.csv: line 1 has 300,000 columns, more than 500 \(max_columns\).*"
     r"DIALKIT_MAX_COLUMNS"),
    (lambda tmp: wide_csv(tmp / "wide.csv", 1_000_000),
     r"wide.csv: line 1 is longer than 1,048,576 bytes \(max_line_bytes\)"),
    (lambda tmp: long_line_csv(tmp / "long.csv"),
     r"long.csv: line 3 is longer than 1,048,576 bytes .*DIALKIT_MAX_LINE_BYTES"),
], ids=["zip-bomb", "300k-columns", "million-columns", "50-MiB-line"])
def test_a_hostile_file_is_refused_under_a_memory_ceiling(
        tmp_path: Path, build: Callable[[Path], Path], message: str) -> None:
    path = build(tmp_path)
    done = run_capped("leads", "clean", str(path))
    assert done.returncode == 2, done.stderr[-500:]
    assert done.stderr.startswith("error: "), done.stderr[-500:]
    assert re.search(message, done.stderr), done.stderr[-500:]


def test_a_real_file_passes_under_the_same_ceiling() -> None:
    done = run_capped("leads", "clean", str(SAMPLES / "excel_export.xlsx"))
    assert done.returncode == 0, done.stderr[-500:]


def test_a_limit_is_raised_by_its_variable(tmp_path: Path) -> None:
    path = wide_csv(tmp_path / "wide.csv", 600)
    refused = runner.invoke(app, ["leads", "clean", str(path)])
    assert refused.exit_code == 2 and "more than 500 (max_columns)" in refused.output
    done = runner.invoke(app, ["leads", "clean", str(path)], env={"DIALKIT_MAX_COLUMNS": "600"})
    assert done.exit_code == 0, done.output


@pytest.mark.parametrize("name", ["messy_us.csv", "international.csv", "legacy_cp1252.csv",
                                  "export_utf16.tsv", "excel_export.xlsx"])
def test_the_samples_pass(name: str) -> None:
    assert len(read(SAMPLES / name).frame) > 0


def test_columns_past_the_limit_are_refused_and_the_limit_can_be_raised(tmp_path: Path) -> None:
    path = tmp_path / "leads.csv"
    path.write_text("phone," + ",".join(f"c{n}" for n in range(500)) + "\n+14155550123\n")
    with pytest.raises(LeadFileError, match=r"leads.csv: line 1 has 501 columns, more than "
                       r"500 \(max_columns\).*FileLimits\(max_columns=\.\.\.\)"):
        read(path)
    assert read(path, limits=FileLimits(max_columns=501)).frame.shape == (1, 501)


def test_a_data_line_past_the_column_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "leads.csv"
    path.write_text("phone,name\n+14155550123,Ann\n" + "x," * 800 + "x\n")
    with pytest.raises(LeadFileError, match=r"line 3 has 801 columns, more than 500"):
        read(path)


def test_delimiters_inside_quotes_are_not_columns(tmp_path: Path) -> None:
    notes = '"' + ", ".join(["yes"] * 900) + '"'
    path = tmp_path / "leads.csv"
    path.write_text(f"phone,notes\n+14155550123,{notes}\n")
    assert read(path).frame["notes"].str.count(",")[0] == 899


def test_a_header_spread_over_lines_by_quotes_is_counted_whole(tmp_path: Path) -> None:
    path = tmp_path / "leads.csv"
    path.write_text("phone," + ",".join(['"a\nb"'] * 700) + "\n+14155550123\n")
    with pytest.raises(LeadFileError, match=r"the header \(lines 1-701\) has 701 columns"):
        read(path)


def test_a_long_line_is_refused_and_the_limit_can_be_raised(tmp_path: Path) -> None:
    path = tmp_path / "leads.tsv"
    path.write_text("phone\tnotes\n+14155550123\t" + "n" * 2_000_000 + "\n")
    with pytest.raises(LeadFileError, match=r"leads.tsv: line 2 is longer than 1,048,576 bytes "
                       r"\(max_line_bytes\)"):
        read(path)
    limits = FileLimits(max_line_bytes=4 << 20)
    assert len(read(path, limits=limits).frame["notes"][0]) == 2_000_000
    with path.open("rb") as opened, pytest.raises(LeadFileError, match=r"line 2 is longer"):
        read(opened)  # a file object too


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_line_as_long_as_the_limit_passes(tmp_path: Path, newline: str) -> None:
    limits = FileLimits(max_line_bytes=100)
    header = "phone," + "x" * (100 - len("phone,") - len(newline) + 1)  # CR counts, LF not
    path = tmp_path / "leads.csv"
    path.write_bytes(f"{header}{newline}+14155550123,a{newline}".encode())
    assert len(read(path, limits=limits).frame) == 1
    path.write_bytes(f"{header}y{newline}+14155550123,a{newline}".encode())
    with pytest.raises(LeadFileError, match=r"line 1 is longer than 100 bytes"):
        read(path, limits=limits)


def test_a_long_line_in_another_encoding_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "leads.csv"
    path.write_bytes(("phone,name\n+14155550123,Zoë" + "é" * 600_000 + "\n").encode("cp1252"))
    with pytest.raises(LeadFileError, match=r"line 2 is longer than 1,048,576 bytes"):
        read(path)


def _workbook(path: Path, rows: int) -> Path:
    book = xlsxwriter.Workbook(path)
    sheet = book.add_worksheet()
    sheet.write_row(0, 0, ["phone", "name"])
    for row in range(1, rows + 1):
        sheet.write_row(row, 0, [f"+1415555{row % 10_000:04d}", "Ann"])
    book.close()
    return path


def test_a_workbook_past_the_size_limit_is_refused(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "leads.xlsx", 2000)
    size = sum(info.file_size for info in zipfile.ZipFile(path).infolist())
    with pytest.raises(LeadFileError, match=rf"leads.xlsx: {size:,} bytes uncompressed, more "
                       r"than 1,000 \(max_workbook_bytes\).*DIALKIT_MAX_WORKBOOK_BYTES"):
        read(path, limits=FileLimits(max_workbook_bytes=1000))
    assert len(read(path).frame) == 2000


def test_a_repetitive_real_workbook_passes_the_ratio(tmp_path: Path) -> None:
    path = tmp_path / "same.xlsx"
    book = xlsxwriter.Workbook(path, {"constant_memory": True})
    sheet = book.add_worksheet()
    sheet.write_row(0, 0, ["phone", "name", "city", "state", "company"])
    for row in range(1, 10_001):  # one row over and over: 18:1 at a million rows
        sheet.write_row(row, 0, ["+14155550123", "Ann", "Springfield", "CA", "Acme"])
    book.close()
    member = zipfile.ZipFile(path).getinfo("xl/worksheets/sheet1.xml")
    assert member.file_size > 1 << 20  # large enough for its ratio to be checked
    assert len(read(path).frame) == 10_000


def test_a_small_zip_bomb_is_refused_in_process(tmp_path: Path) -> None:
    with pytest.raises(LeadFileError, match=r"inflates 333 times \(25,213 bytes to "
                       r"8,388,700\), more than 100 \(max_workbook_ratio\)"):
        read(zip_bomb(tmp_path / "bomb.xlsx", 8))


def test_an_xls_past_the_size_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "old.xls"
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(4096))
    with pytest.raises(LeadFileError, match=r"old.xls: 4,104 bytes, more than 1,000 "
                       r"\(max_workbook_bytes\)"):
        read(path, limits=FileLimits(max_workbook_bytes=1000))


def test_limits_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DIALKIT_MAX_COLUMNS", "42")
    monkeypatch.setenv("DIALKIT_MAX_WORKBOOK_BYTES", "2GiB")
    with pytest.raises(ValueError, match=r"DIALKIT_MAX_WORKBOOK_BYTES='2GiB': .*whole number"):
        FileLimits.from_env()
    monkeypatch.setenv("DIALKIT_MAX_WORKBOOK_BYTES", "2147483648")
    assert FileLimits.from_env() == FileLimits(max_columns=42, max_workbook_bytes=2 << 30)
