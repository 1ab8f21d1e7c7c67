"""Outputs are inert: no file dialkit writes holds a live formula, whatever its input held.

Workbooks (cleaned leads, rejects, evidence) hold every text as a string cell; CSV
files (``leads clean``, ``leads import``, ``compliance audit``) prefix a text cell that a
spreadsheet would read as a formula with ``'``, unless raw values are asked for. Pages
(the audit's report, the explorer's view, a plot's labels) show every name as text:
no markup, no mathematics (the demo's pages, in a world of hostile names: test_demo).
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import openpyxl
import pandas as pd
import pytest
import xlsxwriter
from bs4 import BeautifulSoup
from matplotlib.figure import Figure
from openpyxl.utils.escape import unescape
from typer.testing import CliRunner

from conftest import KEYS
from demo_run import HOSTILE_NAMES, live_markup
from dialkit import Client
from dialkit.analytics import Explorer
from dialkit.cli import app
from dialkit.compliance import POLICY, audit, plot_summary
from dialkit.frames import formulas_escaped, write_csv
from dialkit.leads import clean, clean_file
from dialkit.sandbox import Sandbox

HOSTILE = ['=HYPERLINK("http://x","y")', "=cmd|' /C calc'!A0", "+1+1", "-2+3", "@SUM(A1)",
           "\t=1", "\r=1"]
"""Cells a spreadsheet reads as formulas (a tab or CR first is skipped by some)."""
HEADER = '=HYPERLINK("http://h","h")'
runner = CliRunner()


def lead_rows() -> list[list[str]]:
    """A lead file's rows: a valid phone beside each hostile text, and each hostile text
    as the phone (refused, so it reaches the rejects too); a hostile column name."""
    rows = [["Phone", "First Name", HEADER]]
    for n, text in enumerate(HOSTILE):
        rows += [[f"+1415555{n:04d}", text, text], [text, "Ada", text]]
    return rows


def write_xlsx_input(path: Path) -> None:
    """The rows as an xlsx that holds every hostile text as an inert string."""
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet()
    for r, row in enumerate(lead_rows()):
        for c, text in enumerate(row):
            sheet.write_string(r, c, text)
    book.close()


def write_csv_input(path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as file:
        csv.writer(file, quoting=csv.QUOTE_ALL).writerows(lead_rows())


def cells(path: Path) -> list[openpyxl.cell.Cell]:
    """Every cell of every sheet of a workbook, as openpyxl reads it."""
    book = openpyxl.load_workbook(path)
    return [cell for sheet in book for row in sheet.iter_rows() for cell in row]


def assert_inert_workbook(path: Path, texts: list[str]) -> None:
    """No formula cell, and each of ``texts`` is a string cell, exactly (a control
    character is stored as ``_x000D_``, as the format says, which Excel reads back and
    openpyxl leaves to ``unescape``)."""
    found = cells(path)
    assert [c.coordinate for c in found if c.data_type == "f"] == []
    strings = {unescape(c.value) for c in found if c.data_type == "s"}
    assert set(texts) <= strings, sorted(set(texts) - strings)


def read_csv_cells(path: Path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8") as file:
        return list(csv.reader(file))


def assert_escaped(rows: list[list[str]]) -> None:
    """No cell starts as a formula would, apart from a whole E.164 number."""
    risky = [cell for row in rows for cell in row
             if cell[:1] in ("=", "+", "-", "@", "\t", "\r")
             and not (cell[1:].isdigit() and cell[1:].isascii() and cell[0] == "+")]
    assert risky == []


def test_the_input_workbook_holds_the_texts_as_inert_strings(tmp_path: Path) -> None:
    write_xlsx_input(tmp_path / "in.xlsx")
    assert_inert_workbook(tmp_path / "in.xlsx", [*HOSTILE, HEADER])


@pytest.mark.parametrize("suffix", [".xlsx", ".csv"])
def test_the_cleaned_workbook_holds_no_formula(tmp_path: Path, suffix: str) -> None:
    source = tmp_path / f"in{suffix}"
    write_xlsx_input(source) if suffix == ".xlsx" else write_csv_input(source)
    out = tmp_path / "cleaned.xlsx"
    result = runner.invoke(app, ["leads", "clean", str(source), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert_inert_workbook(out, [*HOSTILE, HEADER])
    rejected = pd.read_excel(out, sheet_name="rejected", dtype=str, engine="calamine")
    assert set(HOSTILE) <= set(rejected["Phone"])  # the refused rows, their text exact


def test_the_library_workbook_and_csv_are_inert_too(tmp_path: Path) -> None:
    source = tmp_path / "in.xlsx"
    write_xlsx_input(source)
    result = clean(source)
    result.to_excel(tmp_path / "out.xlsx")
    assert_inert_workbook(tmp_path / "out.xlsx", [*HOSTILE, HEADER])
    escaped = list(csv.reader(io.StringIO(result.to_csv() or "", newline="")))
    assert_escaped(escaped)
    assert ["'" + h for h in HOSTILE] == [row[1] for row in escaped[1::2]]
    raw = list(csv.reader(io.StringIO(result.to_csv(escape_formulas=False) or "", newline="")))
    assert raw[0][2] == HEADER and [row[1] for row in raw[1::2]] == HOSTILE


def test_leads_clean_csv_is_escaped_unless_raw(tmp_path: Path) -> None:
    source = tmp_path / "in.csv"
    write_csv_input(source)
    out, rejects = tmp_path / "out.csv", tmp_path / "rejects.csv"
    arguments = ["leads", "clean", str(source), "--out", str(out), "--rejects", str(rejects)]
    result = runner.invoke(app, arguments)
    assert result.exit_code == 0, result.output
    written, refused = read_csv_cells(out), read_csv_cells(rejects)
    assert_escaped(written)
    assert_escaped(refused)
    assert written[0][2] == "'" + HEADER
    assert [row[1] for row in written[1::2]] == ["'" + h for h in HOSTILE]
    assert [row[0] for row in refused[1:]] == ["'" + h for h in HOSTILE]
    e164 = written[0].index("phone_e164")
    assert [row[e164] for row in written[1::2]] == [f"+1415555{n:04d}"
                                                   for n in range(len(HOSTILE))]
    raw = runner.invoke(app, [*arguments, "--raw-csv"])
    assert raw.exit_code == 0, raw.output
    written, refused = read_csv_cells(out), read_csv_cells(rejects)
    assert written[0][2] == HEADER and [row[1] for row in written[1::2]] == HOSTILE
    assert [row[0] for row in refused[1:]] == HOSTILE


def hostile_calls() -> pd.DataFrame:
    """Outbound calls to Iran, each with a hostile id and campaign id: every one a finding
    of blocked_country (and of call_frequency)."""
    return pd.DataFrame({
        "id": HOSTILE, "direction": "outbound", "from_number": "+14155550100",
        "to_number": "+982122223333", "created_at": pd.Timestamp("2026-06-01T15:00Z"),
        "answered_at": pd.NaT, "ended_at": pd.NaT, "campaign_id": HOSTILE,
        "disposition": None})


@pytest.mark.parametrize("mask_pii", [False, True])
def test_the_evidence_workbook_holds_no_formula(tmp_path: Path, mask_pii: bool) -> None:
    report = audit(hostile_calls(), blocked_countries=["IR"])
    path = tmp_path / "evidence.xlsx"
    report.to_excel(path, mask_pii=mask_pii, about={"account": HOSTILE[0], HEADER: "-1"})
    assert_inert_workbook(path, [*HOSTILE, HEADER, "-1"])


def test_compliance_audit_csv_is_escaped_unless_raw(tmp_path: Path) -> None:
    calls, out, workbook = tmp_path / "calls.csv", tmp_path / "findings.csv", tmp_path / "e.xlsx"
    # quoted: pandas' own CSV leaves a cell's CR bare, which ends the row
    hostile_calls().to_csv(calls, index=False, quoting=csv.QUOTE_ALL)
    arguments = ["compliance", "audit", "--calls", str(calls), "--blocked-countries", "IR",
                 "--out", str(out), "--workbook", str(workbook),
                 "--policy", "house-rules"]
    result = runner.invoke(app, arguments)
    assert result.exit_code == 0, result.output
    rows = read_csv_cells(out)
    assert_escaped(rows)
    header = rows[0]
    blocked = [row for row in rows[1:] if row[0] == "blocked_country"]
    assert sorted(row[header.index("call_id")] for row in blocked) == sorted(
        "'" + h for h in HOSTILE)
    assert {row[header.index("phone")] for row in rows[1:]} == {"+982122223333"}  # E.164 kept
    frequency = [row[header.index("calls_in_24h")] for row in rows[1:]
                 if row[0] == "call_frequency"]
    assert frequency and all(n.isdigit() for n in frequency)  # numbers stay numbers
    assert_inert_workbook(workbook, HOSTILE)
    masked = runner.invoke(app, [*arguments, "--mask-pii"])
    assert masked.exit_code == 0, masked.output
    assert {row[header.index("phone")] for row in read_csv_cells(out)[1:]} == {
        "'+9821******33"}  # a masked number is text: escaped
    raw = runner.invoke(app, [*arguments, "--raw-csv"])
    assert raw.exit_code == 0, raw.output
    rows = read_csv_cells(out)
    assert sorted(row[header.index("call_id")] for row in rows[1:]
                  if row[0] == "blocked_country") == sorted(HOSTILE)


def test_leads_import_outcome_csv_is_escaped_unless_raw(sandbox: Sandbox, client: Client,
                                                        tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DIALKIT_API_KEY", KEYS["full"])
    monkeypatch.setenv("DIALKIT_BASE_URL", sandbox.base_url)
    campaign = next(client.campaigns.list(status="paused")).id
    source, out = tmp_path / "in.csv", tmp_path / "outcome.csv"
    write_csv_input(source)
    arguments = ["leads", "import", str(source), "--campaign", campaign, "--journal",
                 str(tmp_path), "--out", str(out)]
    result = runner.invoke(app, arguments)
    assert result.exit_code == 0, result.output
    rows = read_csv_cells(out)
    assert_escaped(rows)
    assert [row[1] for row in rows[1::2]] == ["'" + h for h in HOSTILE]
    again = runner.invoke(app, [*arguments, "--raw-csv"])  # answered from its journal
    assert again.exit_code == 0, again.output
    assert [row[1] for row in read_csv_cells(out)[1::2]] == HOSTILE


@pytest.mark.parametrize(("cell", "written"), [
    ("+14155550123", "+14155550123"),  # E.164: a number to a spreadsheet, never a formula
    ("+1 415 555 0123", "'+1 415 555 0123"),
    ("+1415555012345678", "'+1415555012345678"),  # 16 digits: not E.164
    ("+١٤١٥", "'+١٤١٥"),  # digits of another script are not E.164's
    ("-5", "'-5"),  # text that looks like a number stays text
    ("a=1", "a=1"), (" =1", " =1"), ("", ""), ("'=1", "'=1"),
    *((h, "'" + h) for h in HOSTILE),
])
def test_a_text_cell_is_escaped_when_it_starts_as_a_formula(cell: str, written: str) -> None:
    for dtype in ("str", object, "category"):
        frame = pd.DataFrame({"text": pd.Series([cell, None], dtype=dtype)})
        assert formulas_escaped(frame)["text"].tolist()[0] == written


def test_numbers_dates_and_missing_cells_are_not_text(tmp_path: Path) -> None:
    frame = pd.DataFrame({"n": [-5, 3], "x": [-2.5, None], "k": pd.array([-1, None], "Int64"),
                          "at": pd.to_datetime(["2026-01-01", None], utc=True),
                          "mixed": pd.Series([-7, "-7"], dtype=object), "@1": ["a", "b"]})
    text = write_csv(frame)
    assert text is not None
    assert list(csv.reader(io.StringIO(text, newline=""))) == [
        ["n", "x", "k", "at", "mixed", "'@1"],
        ["-5", "-2.5", "-1", "2026-01-01 00:00:00+00:00", "-7", "a"],
        ["3", "", "", "", "'-7", "b"]]
    write_csv(frame, tmp_path / "raw.csv", escape_formulas=False)
    assert [row[4:] for row in read_csv_cells(tmp_path / "raw.csv")] == [
        ["mixed", "@1"], ["-7", "a"], ["-7", "b"]]


def hostile_names() -> dict[str, str]:
    """The hostile calls' campaigns (:func:`hostile_calls`) named by ``HOSTILE_NAMES``."""
    return dict(zip(HOSTILE, HOSTILE_NAMES, strict=False))


def assert_names_shown_as_text(page: str, names: list[str]) -> None:
    """Each of ``names`` is on ``page`` as text, and nothing of them is live."""
    assert live_markup(page) == []
    shown = BeautifulSoup(page, features="html.parser").get_text()
    assert [name for name in names if name not in shown] == []


@pytest.mark.parametrize("shown", ["to_html", "_repr_html_"])
def test_the_audit_page_shows_each_name_as_text(tmp_path: Path, shown: str) -> None:
    names = hostile_names()
    report = audit(hostile_calls(), blocked_countries=["IR"],
                   policy=POLICY(HOSTILE_NAMES[2], max_calls_per_24h=3))
    if shown == "to_html":
        report.to_html(tmp_path / "report.html", names=names, about={"account": HOSTILE_NAMES[4]})
    page = ((tmp_path / "report.html").read_text(encoding="utf-8") if shown == "to_html"
            else report._repr_html_())
    named = list(names.values()) if shown == "to_html" else []  # a notebook's: ids alone
    assert_names_shown_as_text(page, [*named, HOSTILE_NAMES[2]])


def test_the_audit_chart_draws_a_policys_name_as_written() -> None:
    report = audit(hostile_calls(), blocked_countries=["IR"],
                   policy=POLICY(r"Bad $\nosuchcommand{$ maths", max_calls_per_24h=3))
    ax = plot_summary(report, ax=Figure().add_subplot())
    ax.figure.draw_without_rendering()  # a formula matplotlib cannot parse would raise here
    shown, mathematics = ax.title._preprocess_math(ax.title.get_text())  # as drawn
    assert shown.endswith(r" + Bad $\nosuchcommand{$ maths") and mathematics is False


def test_the_explorers_page_shows_each_name_as_text() -> None:
    calls = hostile_calls().assign(status="completed", duration_seconds=0)
    leads = pd.DataFrame({"id": [f"lead_{n}" for n in range(len(HOSTILE))],
                          "campaign_id": HOSTILE, "phone": calls["to_number"],
                          "status": "contacted"})
    campaigns = pd.DataFrame({"id": HOSTILE, "name": list(hostile_names().values())})
    shown = Explorer({"leads": leads, "calls": calls, "campaigns": campaigns})
    assert_names_shown_as_text(shown.static_html(), list(hostile_names().values()))
    for campaign in HOSTILE:  # each title names the one campaign: drawn as written
        shown.campaigns.value = (campaign,)


@pytest.mark.parametrize("written", [False, True], ids=["CleanResult", "CleanedFile"])
def test_a_lead_files_clean_shows_its_name_and_cells_as_text(tmp_path: Path,
                                                           written: bool) -> None:
    path = tmp_path / r"$\frac{1}{0}$ leads.csv"  # the file's name is in the title
    path.write_text("phone\n+14155550123\n" + "".join(
        f'"{name.replace(chr(34), chr(34) * 2)}"\n' for name in HOSTILE_NAMES))
    result = clean_file(path, out=tmp_path / "clean.csv") if written else clean(path)
    page = result._repr_html_()
    assert live_markup(page) == []
    shown = BeautifulSoup(page, features="html.parser").get_text()
    assert path.name in shown
    if not written:  # the rejected rows: the hostile phones, as text
        assert [name for name in HOSTILE_NAMES if name not in shown] == []
