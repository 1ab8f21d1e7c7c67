"""``dialkit leads clean|import`` on every sample file, and an import run twice."""

from __future__ import annotations

import logging
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pytest
from typer.testing import CliRunner

from conftest import KEYS, add_fault
from dialkit import Client
from dialkit._utils import _tuning
from dialkit.cli import app
from dialkit.sandbox import Sandbox

SAMPLES = Path(__file__).resolve().parents[2] / "data_samples"
runner = CliRunner()
OPTIONS = {"legacy_cp1252.csv": ["--region", "FR", "--map", "first_name=Prénom",
                                 "--map", "last_name=Nom"]}
VERDICT = ["row", "phone_e164", "country", "extension", "alt_phone", "status", "reason", "field",
           "flags", "hint"]


@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.iterdir()
                                        if p.suffix in (".csv", ".tsv", ".xlsx")))
def test_clean_reads_every_sample_and_writes_every_row(name: str, tmp_path: Path) -> None:
    out, rejects = tmp_path / "out.csv", tmp_path / "rejects.csv"
    result = runner.invoke(app, ["leads", "clean", str(SAMPLES / name), "--blocked-countries",
                                 "KP,IR", "--out", str(out), "--rejects", str(rejects),
                                 *OPTIONS.get(name, [])])
    assert result.exit_code == 0, result.output
    written = pd.read_csv(out, dtype=str, keep_default_na=False)
    assert list(written.columns[-len(VERDICT):]) == VERDICT
    assert written["row"].tolist() == [str(n) for n in range(1, len(written) + 1)]
    assert f"{len(written):,} rows" in result.output and "not checked: " in result.output
    refused = pd.read_csv(rejects, dtype=str, keep_default_na=False)
    assert (refused["status"] != "accepted").all()
    assert f"{len(refused):,} rejected" in result.output


def test_clean_writes_a_workbook(tmp_path: Path) -> None:
    out = tmp_path / "out.xlsx"
    result = runner.invoke(app, ["leads", "clean", str(SAMPLES / "excel_export.xlsx"),
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    sheets = pd.read_excel(out, sheet_name=None, dtype=str, engine="calamine")
    assert list(sheets) == ["accepted", "rejected", "summary"]
    assert sum(len(sheets[s]) for s in ("accepted", "rejected")) == 300


@pytest.mark.parametrize(("arguments", "message"), [
    (["leads", "clean", "/nonexistent.csv"], "/nonexistent.csv: cannot be opened"),
    (["leads", "clean", str(SAMPLES / "messy_us.csv"), "--map", "phone"],
     "--map 'phone': write FIELD=COLUMN"),
    (["leads", "clean", str(SAMPLES / "messy_us.csv"), "--out", "x.json"],
     "name a .csv, .parquet or .xlsx file"),
    (["leads", "clean", str(SAMPLES / "messy_us.csv"), "--blocked-countries", "Atlantis"],
     "--blocked-countries holds 'Atlantis', which names no country"),
])
def test_bad_input_ends_with_a_message(arguments: list[str], message: str) -> None:
    result = runner.invoke(app, arguments)
    assert result.exit_code == 2 and message in result.output
    assert "Traceback" not in result.output


def test_import_then_again_resumes(sandbox: Sandbox, client: Client, tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DIALKIT_API_KEY", KEYS["full"])
    monkeypatch.setenv("DIALKIT_BASE_URL", sandbox.base_url)
    campaign = next(client.campaigns.list(status="paused")).id
    arguments = ["leads", "import", str(SAMPLES / "international.csv"), "--campaign", campaign,
                 "--journal", str(tmp_path), "--out", str(tmp_path / "outcome.csv")]
    first = runner.invoke(app, arguments)
    assert first.exit_code == 0, first.output
    outcome = pd.read_csv(tmp_path / "outcome.csv", dtype=str)
    imported = int((outcome["outcome"] == "imported").sum())
    assert imported > 900 and "(0 done by an earlier run)" in first.output
    again = runner.invoke(app, [*arguments[:-1], str(tmp_path / "outcome.parquet")])
    assert again.exit_code == 0 and "(5 done by an earlier run)" in again.output
    written = pd.read_parquet(tmp_path / "outcome.parquet")
    assert written["outcome"].tolist() == outcome["outcome"].tolist()
    workbook = runner.invoke(app, [*arguments[:-1], str(tmp_path / "outcome.xlsx")])
    assert workbook.exit_code == 2 and "name a .csv or .parquet file" in workbook.output
    assert not (tmp_path / "outcome.xlsx").exists()
    leads = client.frames.leads(campaign_id=campaign, refresh="full")
    assert leads["phone"].isin(outcome["phone_e164"]).sum() == imported
    running = next(client.campaigns.list(status="running")).id
    stopped = runner.invoke(app, ["leads", "import", str(SAMPLES / "dnc_list.csv"),
                                  "--campaign", running, "--journal", str(tmp_path)])
    assert stopped.exit_code == 1 and f"campaign {running} is running" in stopped.output


def test_a_journal_folder_that_cannot_be_written_ends_with_a_message(
        sandbox: Sandbox, client: Client, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DIALKIT_API_KEY", KEYS["full"])
    monkeypatch.setenv("DIALKIT_BASE_URL", sandbox.base_url)
    campaign = next(client.campaigns.list(status="paused")).id
    a_file = tmp_path / "journal.txt"
    a_file.write_text("not a folder")
    result = runner.invoke(app, ["leads", "import", str(SAMPLES / "dnc_list.csv"),
                                 "--campaign", campaign, "--journal", str(a_file)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.output.startswith(f"error: {a_file}") and "Not a directory" in result.output


@pytest.fixture
def arrow_pool() -> Iterator[None]:
    """pyarrow's default allocator put back after the test."""
    was = pa.default_memory_pool()
    yield
    pa.set_memory_pool(was)


def _jemalloc() -> str:
    """``jemalloc`` where this pyarrow has it (Linux and macOS wheels), else the system's."""
    try:
        return str(pa.jemalloc_memory_pool().backend_name)
    except NotImplementedError:
        return "system"


@pytest.mark.parametrize(("chosen", "backend"), [("", _jemalloc()), ("system", "system")])
def test_clean_allocates_from_jemalloc_unless_the_user_chose(
        arrow_pool: None, monkeypatch: pytest.MonkeyPatch, chosen: str, backend: str) -> None:
    """The command owns its process: jemalloc keeps a chunk's freed pages for the next
    (docs/scale.md); an allocator the user set is left alone."""
    pa.set_memory_pool(pa.system_memory_pool())
    monkeypatch.setenv("ARROW_DEFAULT_MEMORY_POOL", chosen)
    result = runner.invoke(app, ["leads", "clean", str(SAMPLES / "messy_us.csv")])
    assert result.exit_code == 0, result.output
    assert pa.default_memory_pool().backend_name == backend


def test_an_import_under_nohup_logs_its_progress_as_it_goes(
        sandbox: Sandbox, client: Client, tmp_path: Path) -> None:
    """Standard error a pipe, no terminal (as under nohup or cron): without -v the
    command logs its progress lines, counts and all, while it still runs (issue 62:
    its first line came at its end). Each batch is slowed, so the process is still
    sending when the line of its first batch arrives."""
    add_fault(sandbox, path="/v1/leads/import", method="POST", kind="latency", latency_ms=400)
    campaign = next(client.campaigns.list(status="paused")).id
    path = tmp_path / "vendor.csv"
    pd.DataFrame({"Mobile": [f"(312) 555-{n:04d}" for n in range(450)]}).to_csv(path,
                                                                               index=False)
    env = {**os.environ, "DIALKIT_API_KEY": KEYS["full"], "DIALKIT_BASE_URL": sandbox.base_url,
           "DIALKIT_PROGRESS_SECONDS": "0"}
    with subprocess.Popen([sys.executable, "-m", "dialkit", "leads", "import", str(path),
                           "--campaign", campaign, "--journal", str(tmp_path / "journal")],
                          env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as command:
        assert command.stderr is not None and command.stdout is not None
        while_running = []
        for line in command.stderr:
            while_running.append((line, command.poll() is None))
        out = command.stdout.read()
    assert command.returncode == 0, while_running
    first = next(running for line, running in while_running
                 if re.search(r"INFO dialkit\.progress: import: 200 of 450 leads sent "
                              r"\(44\.4%\), [\d,.]+/s, about \d+ s left$", line))
    assert first  # the line of the first batch, logged while the next batches were sent
    assert re.search(r"import: 450 of 450 leads sent \(100\.0%\) in \d+ s",
                     while_running[-1][0])
    assert "450 rows in 3 batches" in out and KEYS["full"] not in str(while_running)


def test_an_import_prints_the_notes_the_clean_prints(
        sandbox: Sandbox, client: Client, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 62: ``leads import`` said nothing of rows whose Country it could not use; it
    says each note of ``leads clean``, in the same words (issue 70: a Country not
    understood is named, with its rows)."""
    monkeypatch.setenv("DIALKIT_API_KEY", KEYS["full"])
    monkeypatch.setenv("DIALKIT_BASE_URL", sandbox.base_url)
    path = tmp_path / "vendor.csv"
    path.write_text("Mobile #,Name,Lead #,Country\n(416) 555-0100,Zoë,L1,CA\n"
                    "(212) 555-0103,Cy,L2,US\n415 555 0123,Ed,L3,Atlantis\n"
                    "(312) 555-0150,Flo,L4,atlantis\n",
                    encoding="utf-8")
    campaign = next(client.campaigns.list(status="paused")).id
    cleaned = runner.invoke(app, ["leads", "clean", str(path)])
    imported = runner.invoke(app, ["leads", "import", str(path), "--campaign", campaign,
                                   "--journal", str(tmp_path / "journal")])
    assert cleaned.exit_code == 0 and imported.exit_code == 0, imported.output
    said = [line for line in cleaned.stdout.splitlines() if line.startswith("note: ")]
    assert ("note: 2 rows: their Country names no country the clean can read: 'Atlantis' "
            "(1 row), 'atlantis' (1 row) (a number written with + and its country code is "
            "read as written, any other refused unknown_country); write each as an ISO 3166 "
            "code (such as 'DE') or a country's name, then clean again") in said
    assert "note: columns read as: Mobile # → phone, Name → full_name, Lead # → " \
           "external_id, Country → each row's region (its phone is read as a number " \
           "there)" in said
    notes = [line for line in imported.stdout.splitlines() if line.startswith("note: ")]
    assert notes[:len(said)] == said


def test_a_command_run_in_process_shows_progress_lines_and_leaves_no_handler(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The runner's standard error is no terminal: the lines come without -v, and the
    handler the command added to ``dialkit.progress`` goes with it."""
    monkeypatch.setattr(_tuning, "PROGRESS_LOG_SECONDS", 0)
    logger = logging.getLogger("dialkit.progress")
    before = (list(logger.handlers), logger.level)
    result = runner.invoke(app, ["leads", "clean", str(SAMPLES / "messy_us.csv")])
    assert result.exit_code == 0, result.output
    assert re.search(r"INFO dialkit\.progress: finishing messy_us\.csv: [\d,]+ of [\d,]+ rows "
                     r"\(100\.0%\) in \d+ s", result.stderr), result.stderr
    assert "dialkit.progress" not in result.stdout
    assert (list(logger.handlers), logger.level) == before
