"""A lead file cleaned in chunks (``clean(path, out=...)``) answers as the clean of the
whole file in memory: the same bytes, summary and notes, with chunks, buckets and
ranges made tiny so that every row's duplicate, hint and mended line falls across
their edges."""

from __future__ import annotations

import csv
import io
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from dialkit import Client
from dialkit._utils import _tuning
from dialkit.cli import app
from dialkit.leads import CleanedFile, CleanResult, LeadFileError, clean, clean_file, read
from dialkit.leads._clean import _chunked, _sinks, _stream

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "clean"
SAMPLES = ROOT / "data_samples"
CASES: dict[str, tuple[Path, dict[str, Any]]] = {
    "tricky": (FIXTURES / "tricky.csv", {"blocked_countries": "KP,IR"}),
    "tricky_gb_raw": (FIXTURES / "tricky.csv", {"region": "GB", "escape_formulas": False}),
    "mix": (FIXTURES / "mix_1500.csv", {"country_column": "Country"}),
    "messy_us": (SAMPLES / "messy_us.csv", {"blocked_countries": "KP,IR"}),
    "international": (SAMPLES / "international.csv", {}),
    "legacy_cp1252": (SAMPLES / "legacy_cp1252.csv", {
        "region": "FR", "mapping": {"first_name": "Prénom", "last_name": "Nom"}}),
    "export_utf16": (SAMPLES / "export_utf16.tsv", {}),
    "excel_export": (SAMPLES / "excel_export.xlsx", {}),
}


@pytest.fixture
def tiny(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Chunks of 7 rows, a bucket per 100 bytes of the file, ranges of 5 rows."""
    small(monkeypatch, rows=7, bucket=100, ranged=5)
    yield


@pytest.fixture
def parted(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Chunks of 97 rows, a bucket per 4 KiB, ranges of 50 rows: a file of thousands of
    rows in a few dozen chunks (each normalises its phones, and screens them with the
    account, at a cost of its own)."""
    small(monkeypatch, rows=97, bucket=4096, ranged=50)
    yield


def small(monkeypatch: pytest.MonkeyPatch, *, rows: int, bucket: int, ranged: int,
          held: bool = False) -> None:
    """Chunks of ``rows``, buckets of ``bucket`` bytes of the file, ranges of ``ranged``
    rows; keys in buckets on disk, or (``held``) in memory, as a small file's are."""
    monkeypatch.setattr(_tuning, "HELD_BYTES", 1 << 40 if held else 0)
    monkeypatch.setattr(_tuning, "CHUNK_ROWS", rows)
    monkeypatch.setattr(_tuning, "BUCKET_BYTES", bucket)
    monkeypatch.setattr(_tuning, "RANGE_ROWS", ranged)


def both(path: Path, folder: Path, **options: Any) -> tuple[CleanResult, CleanedFile,
                                                            dict[str, bytes]]:
    """The clean in memory and the streamed one of ``path``, and the files each wrote."""
    escape = options.pop("escape_formulas", True)
    whole = clean(path, **options)
    assert isinstance(whole, CleanResult)
    whole.to_csv(folder / "whole.csv", escape_formulas=escape)
    whole.to_csv(folder / "whole.rejects.csv", rows="rejected", escape_formulas=escape)
    streamed = clean_file(path, out=folder / "streamed.csv",
                          rejects=folder / "streamed.rejects.csv", escape_formulas=escape,
                          **options)
    assert isinstance(streamed, CleanedFile)
    files = {name: (folder / name).read_bytes() for name in (
        "whole.csv", "whole.rejects.csv", "streamed.csv", "streamed.rejects.csv")}
    return whole, streamed, files


def assert_same(whole: CleanResult, streamed: CleanedFile, files: dict[str, bytes]) -> None:
    assert files["streamed.csv"] == files["whole.csv"]
    assert files["streamed.rejects.csv"] == files["whole.rejects.csv"]
    pd.testing.assert_frame_equal(streamed.summary, whole.summary)
    assert streamed.notes == whole.notes
    assert streamed.rows == len(whole.frame)
    assert streamed.counts == whole.counts


@pytest.mark.parametrize("case", list(CASES))
def test_a_streamed_clean_writes_the_bytes_of_the_clean_in_memory(
        case: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path, options = CASES[case]
    rows = 7 if case.startswith("tricky") or case in ("legacy_cp1252", "export_utf16") else 97
    small(monkeypatch, rows=rows, bucket=rows * 15, ranged=rows // 2 + 1)
    whole, streamed, files = both(path, tmp_path, **dict(options))
    assert_same(whole, streamed, files)
    assert streamed.out == tmp_path / "streamed.csv"


def test_text_spills_with_narrow_offsets_up_to_their_bound() -> None:
    column = pa.chunked_array([pa.array(["+15550100"] * 3, pa.large_string())])
    table = pa.table({"phone": column, "row": [1, 2, 3]})
    (part,) = column.chunks
    assert _stream._narrow_fits(table)
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(_stream, "NARROW_BYTES", part.nbytes)
        assert _stream._narrow_fits(table)
        patched.setattr(_stream, "NARROW_BYTES", part.nbytes - 1)
        assert not _stream._narrow_fits(table)


def test_chunks_too_large_for_narrow_offsets_spill_apart_and_read_back_alike(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Every other chunk's text too large for 32-bit offsets: a stream each time the
    kind changes, read back in file order, the bytes of the clean in memory."""
    kinds: list[pa.DataType] = []
    fits = iter([True, False, False, True] * 100)

    class Spied(_sinks.FrameSink):
        def write_table(self, table: pa.Table) -> None:
            kinds.append(self.text)
            super().write_table(table)

    monkeypatch.setattr(_stream, "FrameSink", Spied)
    monkeypatch.setattr(_stream, "_narrow_fits", lambda table: next(fits))
    small(monkeypatch, rows=97, bucket=97 * 15, ranged=49)
    whole, streamed, files = both(FIXTURES / "mix_1500.csv", tmp_path, country_column="Country")
    assert_same(whole, streamed, files)
    assert kinds[:4] == [pa.string(), pa.large_string(), pa.large_string(), pa.string()]
    assert len(kinds) == -(-len(whole.frame) // 97)


@pytest.mark.parametrize(("rows", "bucket", "ranged", "held"), [
    (1, 1, 1, False), (10_000, 1 << 30, 1 << 20, False), (7, 1, 5, True)])
def test_the_answer_does_not_hang_on_the_sizes_of_chunks_buckets_or_ranges(
        rows: int, bucket: int, ranged: int, held: bool, monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    small(monkeypatch, rows=rows, bucket=bucket, ranged=ranged, held=held)
    whole, streamed, files = both(*CASES["tricky"][:1], tmp_path, blocked_countries="KP,IR")
    assert_same(whole, streamed, files)


PHONES = ["(415) 555-0100", "415.555.0101", "+1 415 555 0102", "n/a", "", "+44 20 7946 0958",
          "020 7946 0958", "4155550100", "+1 (415) 555-0100 ext. 7", "212-555-0187 / 415-555-0101"]
IDS = ["A1", "A2", "A3", "", "A" * 300]
EMAILS = ["ada@example.com", "not an email", ""]
ROWS = st.lists(st.tuples(st.sampled_from(PHONES), st.sampled_from(IDS), st.sampled_from(EMAILS),
                          st.sampled_from(["", "GB", "US"])), min_size=1, max_size=40)


def written(rows: list[tuple[str, str, str, str]], *, ids: bool = True) -> bytes:
    text = io.StringIO()
    out = csv.writer(text, lineterminator="\r\n")
    out.writerow(["Phone", "Lead ID", "Email", "Country"] if ids else
                 ["Phone", "Notes", "Email", "Country"])
    out.writerows(rows)
    return text.getvalue().encode()


EVERY_CELL = [(PHONES[n % 10], IDS[n // 4 % 5], EMAILS[n // 2 % 3], ("", "GB", "US")[n // 5 % 3])
              for n in range(30)]
"""Each phone, id and email three times or more, in chunks of 3 and 4: repeats of a phone,
of an id and of both across chunks, beside blank rows, long ids and bad emails."""


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=ROWS, ids=st.booleans(), chunk=st.integers(1, 6), held=st.booleans())
@example(rows=EVERY_CELL, ids=True, chunk=3, held=False)
@example(rows=EVERY_CELL, ids=True, chunk=4, held=True)
def test_files_whose_phones_and_ids_repeat_across_chunks_answer_as_whole(
        rows: list[tuple[str, str, str, str]], ids: bool, chunk: int, held: bool,
        monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Repeats of a phone, of an id, of both, among rows refused by later checks (a long
    id, a bad email) and blank rows: the walk across keys, chunk after chunk, with the
    keys in buckets on disk or held in memory."""
    small(monkeypatch, rows=chunk, bucket=chunk * 20, ranged=chunk + 1, held=held)
    folder = tmp_path_factory.mktemp("leads")
    path = folder / "leads.csv"
    path.write_bytes(written(rows, ids=ids))
    try:
        whole = clean(path, country_column="Country")
    except LeadFileError as refused:  # every row blank: refused the same way
        with pytest.raises(LeadFileError) as streamed_refusal:
            clean_file(path, out=folder / "out.csv", country_column="Country")
        assert str(streamed_refusal.value) == str(refused)
        return
    assert isinstance(whole, CleanResult)
    streamed = clean_file(path, out=folder / "out.csv", country_column="Country")
    assert (folder / "out.csv").read_bytes() == whole.to_csv().encode()
    pd.testing.assert_frame_equal(streamed.summary, whole.summary)
    assert streamed.notes == whole.notes


GB_NATIONAL = ("020 7946 0958", "", "", "")  # hinted: a GB number, its Country blank
DE_NATIONAL = ("0151 20413050", "", "", "")  # hinted: a DE number, its Country blank
NAMED = [("+44 20 7946 0000", "", "", "GB"), ("+49 30 901821", "", "", "DE")]
"""Rows that make GB and DE regions of the file, which the hints try."""


@pytest.mark.parametrize("order", ["GB first", "DE first", "interleaved"])
@pytest.mark.parametrize("chunk", [1, 2, 3])
def test_hints_as_common_as_each_other_are_noted_in_one_order_whole_or_streamed(
        order: str, chunk: int, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Two hints on as many rows each: the notes say them commonest first, then by name,
    however the chunks met them (they came in first-counted order, which differs)."""
    rows = {"GB first": [GB_NATIONAL] * 2 + [DE_NATIONAL] * 2,
            "DE first": [DE_NATIONAL] * 2 + [GB_NATIONAL] * 2,
            "interleaved": [DE_NATIONAL, GB_NATIONAL] * 2}[order] + NAMED
    small(monkeypatch, rows=chunk, bucket=1 << 20, ranged=chunk + 1)
    path = tmp_path / "leads.csv"
    path.write_bytes(written(rows, ids=False))
    whole = clean(path, country_column="Country")
    streamed = clean_file(path, out=tmp_path / "out.csv", country_column="Country")
    hinted = [note for note in whole.notes if "blank Country" in note]
    assert [note[:51] for note in hinted] == [
        "2 rows with a blank Country look like DE numbers: f",
        "2 rows with a blank Country look like GB numbers: f"]
    assert list(whole.looks_like) == ["DE|Country", "GB|Country"]
    assert streamed.notes == whole.notes


def test_rows_of_another_width_are_mended_in_their_place_across_chunks(
        tiny: None, tmp_path: Path) -> None:
    path = tmp_path / "ragged.csv"
    lines = ["Phone,Name,Email"] + [f"+1415555{n:04d},N{n},n{n}@example.com" for n in range(30)]
    lines[3] = "+14155550002,short"  # filled with an empty cell
    lines[12] = "+14155550011,wide,w@example.com,,"  # empty cells past the header dropped
    lines[20] = '"+1415555\n0019",multi,line@example.com'
    path.write_text("\n".join(lines) + "\n+14155550099\n")
    whole, streamed, files = both(path, tmp_path)
    assert_same(whole, streamed, files)
    assert read(path).frame.loc[2, "Email"] is pd.NA


def test_a_wide_row_late_in_the_file_is_held_by_its_line_as_a_whole_clean_holds_it(
        tiny: None, tmp_path: Path) -> None:
    """Read in chunks, a wide row past the first chunk is held and named by its line, as
    the clean of the whole file holds it (issue 80: the whole file was refused)."""
    path = tmp_path / "late.csv"
    rows = [f"+1415555{n:04d},N{n}" for n in range(60)] + ["+14155559999,Bo,x,y"]
    path.write_text("Phone,Name\n" + "\n".join(rows) + "\n")
    out = tmp_path / "out.csv"
    clean_file(path, out=out)
    whole = clean(path).frame
    streamed = pd.read_csv(out, dtype=str, keep_default_na=False)
    held = streamed.iloc[60]
    assert (held["status"], held["reason"]) == ("invalid", "extra_fields")
    assert held["hint"].startswith("line 62 has 4 fields")
    assert streamed["status"].tolist() == whole["status"].astype(str).tolist()
    assert streamed["hint"].tolist() == whole["hint"].fillna("").astype(str).tolist()


def test_a_clean_stopped_half_way_leaves_no_file_that_looks_whole(
        parted: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A clean killed while it writes leaves at most a ``.partial`` file, never ``out``."""
    written_so_far: list[int] = []

    def stop(rows: int, seconds: float) -> None:
        written_so_far.append(rows)
        if rows > 200:
            raise KeyboardInterrupt

    out = tmp_path / "out.csv"
    with pytest.raises(KeyboardInterrupt):
        clean_file(FIXTURES / "mix_1500.csv", out=out, progress=stop)
    assert written_so_far and not out.exists()
    assert not list(tmp_path.iterdir())  # the partial file removed too


def test_progress_is_told_the_rows_done_after_each_chunk(tiny: None, tmp_path: Path) -> None:
    told: list[tuple[int, float]] = []
    result = clean_file(FIXTURES / "tricky.csv", out=tmp_path / "out.csv",
                   progress=lambda rows, seconds: told.append((rows, seconds)))
    rows = [done for done, _ in told]
    assert rows == sorted(rows) and len(rows) > 2 and rows[-1] == result.rows
    assert all(seconds >= 0 for _, seconds in told)


def test_a_streamed_clean_holds_one_chunk_at_a_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    small(monkeypatch, rows=100, bucket=1 << 12, ranged=64)
    seen = streamed_chunks(monkeypatch)
    result = clean_file(FIXTURES / "mix_1500.csv", out=tmp_path / "out.csv")
    assert sum(seen) == result.rows == 1500
    assert max(seen) <= 100 and len(seen) >= 15  # blank rows left out of their chunk


def test_each_chunk_s_phones_are_normalised_once_on_the_thread_that_reads_ahead(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    small(monkeypatch, rows=100, bucket=1 << 12, ranged=64)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)  # threads, however many cores this has
    seen = streamed_chunks(monkeypatch)
    calls: list[tuple[str, int]] = []
    normalized = _chunked.normalized_cells

    def recorded(cells: pd.Series, *args: Any) -> pd.DataFrame:
        if cells.name == "Phone":
            calls.append((threading.current_thread().name, len(cells)))
        return normalized(cells, *args)
    monkeypatch.setattr(_chunked, "normalized_cells", recorded)
    clean_file(FIXTURES / "mix_1500.csv", out=tmp_path / "out.csv", country_column="Country")
    assert [rows for _, rows in calls] == seen  # each chunk's phone column once
    assert threading.main_thread().name not in {name for name, _ in calls}


@pytest.mark.parametrize("case", ["tricky", "excel_export"])
def test_a_streamed_workbook_holds_the_cells_of_the_clean_in_memory(
        case: str, tiny: None, tmp_path: Path) -> None:
    path, options = CASES[case]
    whole = clean(path, **options)
    assert isinstance(whole, CleanResult)
    whole.to_excel(tmp_path / "whole.xlsx")
    clean_file(path, out=tmp_path / "streamed.xlsx", **options)
    for sheet in ("accepted", "rejected", "summary"):
        want = pd.read_excel(tmp_path / "whole.xlsx", sheet_name=sheet, dtype=str,
                             engine="calamine")
        got = pd.read_excel(tmp_path / "streamed.xlsx", sheet_name=sheet, dtype=str,
                            engine="calamine")
        pd.testing.assert_frame_equal(got, want)


def test_a_workbook_too_large_for_a_sheet_is_refused_before_anything_is_written(
        parted: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_sinks, "EXCEL_ROWS", 1000)
    monkeypatch.setattr(_stream, "EXCEL_ROWS", 1000)
    out = tmp_path / "big.xlsx"
    with pytest.raises(ValueError, match=r"1,338 rows would go on one sheet of big.xlsx.*"
                                         r"\.csv or \.parquet"):
        clean_file(FIXTURES / "mix_1500.csv", out=out, country_column="Country")
    assert not list(tmp_path.iterdir())


def test_a_streamed_parquet_file_holds_the_frame_of_the_clean_in_memory(
        tiny: None, tmp_path: Path) -> None:
    whole = clean(FIXTURES / "tricky.csv")
    assert isinstance(whole, CleanResult)
    clean_file(FIXTURES / "tricky.csv", out=tmp_path / "out.parquet")
    got = pd.read_parquet(tmp_path / "out.parquet")
    want = whole.frame.reset_index(drop=True)
    assert list(got.columns) == list(want.columns)
    for column in want.columns:
        assert got[column].astype(object).where(got[column].notna(), None).tolist() == \
            want[column].astype(object).where(want[column].notna(), None).tolist(), column


def test_an_output_of_another_kind_is_refused_naming_what_is_written(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"out='.*x\.json': name a \.csv, \.parquet or \.xlsx"):
        clean_file(FIXTURES / "tricky.csv", out=tmp_path / "x.json")
    with pytest.raises(ValueError, match=r"rejects='.*x\.xlsx': name a \.csv file"):
        clean_file(FIXTURES / "tricky.csv", rejects=tmp_path / "x.xlsx")


def test_the_lead_file_itself_is_refused_as_an_output(tmp_path: Path) -> None:
    """Written under another name and renamed once done, the output would replace it."""
    path = tmp_path / "vendor.csv"
    path.write_bytes((FIXTURES / "tricky.csv").read_bytes())
    with pytest.raises(ValueError, match="is what is being cleaned"):
        clean_file(path, out=tmp_path / "." / "vendor.csv")
    with pytest.raises(ValueError, match=r"rejects='.*vendor\.csv' is what is being cleaned"):
        clean_file(path, rejects=path)
    assert path.read_bytes() == (FIXTURES / "tricky.csv").read_bytes()
    assert [p.name for p in tmp_path.iterdir()] == ["vendor.csv"]


def test_the_account_checks_answer_alike_in_chunks(client: Client, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """In 7 chunks (each screened with the account at a cost of its own): the file's
    repeats across chunks of 97 are held above, without the account."""
    small(monkeypatch, rows=499, bucket=4096, ranged=50)
    campaign = next(client.campaigns.list(status="paused")).id
    for phone in pd.read_csv(SAMPLES / "dnc_list.csv", dtype=str)["phone"]:
        client.dnc.add(phone)
    whole, streamed, files = both(SAMPLES / "messy_us.csv", tmp_path, client=client,
                                  campaign_id=campaign)
    assert_same(whole, streamed, files)
    assert not streamed.skipped
    assert "on_dnc" in set(whole.frame["status"].astype(str))


def test_the_command_line_streams_and_says_the_summary(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    small(monkeypatch, rows=500, bucket=4096, ranged=50)  # 3 chunks
    out = tmp_path / "out.parquet"
    result = CliRunner().invoke(app, ["leads", "clean", str(FIXTURES / "mix_1500.csv"),
                                      "--country-column", "Country", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"{FIXTURES / 'mix_1500.csv'}: 1,500 rows, 1,338 accepted")
    assert len(pd.read_parquet(out)) == 1500
    assert "cleaning" not in result.output  # no bar where nobody watches


def test_an_output_that_cannot_be_written_fails_before_the_file_is_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    read_chunks = streamed_chunks(monkeypatch)
    with pytest.raises(FileNotFoundError):
        clean_file(FIXTURES / "tricky.csv", out=tmp_path / "no such folder" / "out.csv")
    assert not read_chunks
    result = CliRunner().invoke(app, ["leads", "clean", str(FIXTURES / "tricky.csv"),
                                      "--out", str(tmp_path / "no such folder" / "out.csv")])
    assert result.exit_code == 2
    assert result.output == (f"error: {tmp_path / 'no such folder' / 'out.csv'}: "
                             "no such file or directory, so it was not written: create its "
                             "folder first, or name one that exists\n")


BAD = {
    "empty": b"",
    "header_only": b"Phone,Name\r\n",
    "blank_rows_only": b"Phone,Name\r\n,\r\n  ,\r\n",
    "no_phone_column": b"Name,Email\r\nAda,ada@example.com\r\n",
    "binary": b"\x00\x01\x02Phone\x00,Name\r\n",
}


@pytest.mark.parametrize("case", list(BAD))
def test_a_bad_file_is_refused_as_the_clean_in_memory_refuses_it(case: str,
                                                                  tmp_path: Path) -> None:
    path = tmp_path / f"{case}.csv"
    path.write_bytes(BAD[case])
    with pytest.raises(LeadFileError) as whole:
        clean(path)
    with pytest.raises(LeadFileError) as streamed:
        clean_file(path, out=tmp_path / "out.csv", rejects=tmp_path / "rejects.csv")
    assert str(streamed.value) == str(whole.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]


def test_a_quote_left_open_at_the_end_reads_as_the_clean_in_memory_reads_it(
        tmp_path: Path) -> None:
    path = tmp_path / "open.csv"
    path.write_bytes(b'Phone,Name\r\n+14155550101,Bo\r\n+14155550100,"Ada\r\n')
    whole, streamed, files = both(path, tmp_path)
    assert_same(whole, streamed, files)


def streamed_chunks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The sizes of the chunks the streamed clean's driver judges (a clean in memory's one
    chunk among them)."""
    seen: list[int] = []
    judge = _stream.judged_chunk  # the driver's own name for it
    monkeypatch.setattr(_stream, "judged_chunk", lambda file, *args: seen.append(
        len(file.frame)) or judge(file, *args))
    return seen


@pytest.mark.parametrize("late", [False, True], ids=["at_once", "half_way"])
def test_a_cp1252_file_is_streamed_in_cp1252(late: bool, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A vendor's cp1252 file streams as cp1252, whether its first byte beyond ASCII is
    in pyarrow's first block or half way through (the UTF-8 reading given up there)."""
    small(monkeypatch, rows=50, bucket=2000, ranged=40)
    monkeypatch.setattr(_tuning, "READ_BLOCK", 1024)
    monkeypatch.setenv("DIALKIT_MAX_LINE_BYTES", "256")
    ascii_rows = [f"+1415555{n:04d},Ada,Lovelace" for n in range(300 if late else 0)]
    rows = ascii_rows + [f"+1415666{n:04d},Zoë,Müller" for n in range(100)]
    path = tmp_path / "vendor.csv"
    path.write_bytes(("Phone,First Name,Last Name\r\n" + "\r\n".join(rows) + "\r\n")
                     .encode("cp1252"))
    seen = streamed_chunks(monkeypatch)
    whole, streamed, files = both(path, tmp_path)
    assert_same(whole, streamed, files)
    assert whole.file.encoding == "cp1252" and len(seen) >= 3  # clean's chunk, then 2+
    assert "Zoë" in files["streamed.csv"].decode()


def test_a_file_of_two_encodings_is_read_whole_and_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "appended.csv"
    path.write_bytes("Phone,Name\r\n+14155550100,Zoë\r\n".encode()
                     + "+14155550101,José\r\n".encode("cp1252"))
    seen, wholes = streamed_chunks(monkeypatch), []
    read_whole = _stream.read_for_clean
    monkeypatch.setattr(_stream, "read_for_clean", lambda *args: wholes.append(
        args[0]) or read_whole(*args))
    whole, streamed, files = both(path, tmp_path)
    assert_same(whole, streamed, files)
    assert wholes == [path, path] and seen == [2, 2]  # clean's and clean_file's: read whole
    assert any("read as cp1252" in note for note in streamed.notes)


SAVED = {  # files as spreadsheets and exports write them, each with rows of another width
    "excel_csv_utf8": ("\ufeffPhone,First Name,Last Name\r\n"
                       + "".join(f"+1415555{n:04d},Zoë,Müller\r\n" for n in range(40))
                       + "+14155559999,Ada\r\n", {}),
    "semicolons_below_a_title": ("Leads exported 2026-11-02;;\r\n\r\n;;\r\nName;Phone;City\r\n"
                                 + "".join(f"N{n};+1415555{n:04d};Paris\r\n"
                                           for n in range(40))
                                 + "Bo;+14155559999\r\nCy;+14155559998;Lyon;;\r\n", {}),
    "tabs_quoted": ("Phone\tNotes\r\n" + "".join(f'"+1415555{n:04d}"\t"a\tb ""c"""\r\n'
                                                for n in range(40)), {}),
    "utf8_mark_with_encoding_named": ("\ufeffPhone,Name\r\n+14155550100,Zoë\r\n",
                                      {"encoding": "utf-8"}),
}


@pytest.mark.parametrize("case", list(SAVED))
def test_files_as_other_tools_save_them_stream_as_they_read_whole(
        case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    small(monkeypatch, rows=7, bucket=200, ranged=5)
    text, options = SAVED[case]
    path = tmp_path / "export.csv"
    path.write_bytes(text.encode())
    whole, streamed, files = both(path, tmp_path, **options)
    assert_same(whole, streamed, files)
    assert files["streamed.csv"].startswith(b"\xef\xbb\xbf") == (case == "excel_csv_utf8")


def test_progress_true_draws_a_bar_of_rows(tiny: None, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    clean_file(FIXTURES / "tricky.csv", out=tmp_path / "out.csv", progress=True)
    drawn = capsys.readouterr().err
    assert "reading tricky.csv" in drawn and "finishing tricky.csv: 100%" in drawn
    assert "| 32/32 [" in drawn


def test_what_a_clean_killed_half_way_left_is_removed_by_the_next(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A ``kill -9`` leaves the output's ``.partial`` file and the spill's folder (as
    large as the file again); the next clean removes them, and leaves those of a clean
    still running, and names that are not a clean's."""
    lines = (FIXTURES / "mix_1500.csv").read_text().splitlines(keepends=True)
    source = tmp_path / "vendor.csv"
    source.write_text(lines[0] + "".join(lines[1:]) * 40)  # 60,000 rows
    temporary, folder = tmp_path / "tmp", tmp_path / "out"
    temporary.mkdir()
    folder.mkdir()
    out = folder / "cleaned.csv"
    child = subprocess.Popen(
        [sys.executable, "-m", "dialkit", "leads", "clean", str(source), "--country-column",
         "Country", "--out", str(out)], env={**os.environ, "TMPDIR": str(temporary)},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not (any(temporary.iterdir()) and any(folder.iterdir())):
        assert child.poll() is None and time.monotonic() < deadline
        time.sleep(0.005)
    child.send_signal(signal.SIGKILL)
    child.wait()
    left = [*temporary.iterdir(), *folder.iterdir()]
    assert [p.name.startswith(("dialkit-clean-", ".cleaned.csv.")) for p in left] == [True] * 2
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        kept = [temporary / f"dialkit-clean-{alive.pid}.abc", folder / f".cleaned.csv.{alive.pid}"
                ".abc.partial", folder / ".cleaned.csv.1.notes", temporary / "dialkit-clean-x.1"]
        for path in kept:
            path.mkdir()
        monkeypatch.setattr(tempfile, "tempdir", str(temporary))
        done = clean_file(source, out=out, country_column="Country")
    finally:
        alive.kill()
        alive.wait()
    assert done.rows == 60_000 and out.exists()
    assert sorted([*temporary.iterdir(), *folder.iterdir()]) == sorted([*kept, out])
