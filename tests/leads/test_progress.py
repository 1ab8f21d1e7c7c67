"""Long steps say what they do, their total, their rate and the time left (issue 48);
where nobody watches, in log lines (issue 62).

A clean's bar counts a streamed file's rows against its lines, counted before the
first row is read; the DNC screen, when asked for, counts its numbers; an import
counts its rows sent against its accepted rows. tqdm writes to standard error,
captured; it draws a bar when made and when closed, and an update 0.1 s or more after
the last drawing: the emulator is slowed (150 ms a request) where the states between
are looked at, with a rate and a time left.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from conftest import add_fault
from dialkit import Client
from dialkit._shown._progress_lines import progress_line
from dialkit._utils import _tuning
from dialkit.leads import clean_file, import_leads
from dialkit.sandbox import Sandbox

CHUNK = 100


@pytest.fixture(autouse=True)
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A file read :data:`CHUNK` rows at a time."""
    monkeypatch.setattr(_tuning, "CHUNK_ROWS", CHUNK)
    monkeypatch.setattr(_tuning, "HELD_BYTES", 0)  # as a file too large to hold
    yield


def vendor_file(path: Path, rows: int) -> Path:
    pd.DataFrame({"Mobile": [f"(312) 555-{n:04d}" for n in range(rows)],
                  "Name": ["Ada"] * rows}).to_csv(path, index=False)
    return path


def states(err: str) -> list[str]:
    """Each state the bars were drawn in, in order."""
    return [line.strip() for line in re.split(r"[\r\n]", err) if line.strip()]


def test_a_streamed_clean_shows_its_rows_of_the_files_lines(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = vendor_file(tmp_path / "vendor.csv", 450)
    clean_file(path, out=tmp_path / "cleaned.csv", progress=True)
    drawn = states(capsys.readouterr().err)
    assert re.match(r"reading vendor\.csv:\s+0%\|.*\| 0/450 \[", drawn[0])  # its total
    reading = [s for s in drawn if s.startswith("reading vendor.csv:")]
    assert all(re.match(r"reading vendor\.csv:\s+\d+%\|.*\| \d+/450 \[", s) for s in reading)
    assert re.match(r"reading vendor\.csv: 100%\|.*\| 450/450 \[", reading[-1])
    assert re.match(r"finishing vendor\.csv: 100%\|.*\| 450/450 \[", drawn[-1])


def test_the_dnc_screen_shows_its_numbers_rate_and_time_left(
        sandbox: Sandbox, client: Client, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(_tuning, "SCREEN_STEP", 100)  # a request a slice
    add_fault(sandbox, path="/v1/dnc/check", method="POST", kind="latency", latency_ms=150)
    path = vendor_file(tmp_path / "vendor.csv", 400)
    campaign = next(client.campaigns.list(status="paused")).id
    clean_file(path, client=client, campaign_id=campaign, out=tmp_path / "cleaned.csv",
          progress=True)
    drawn = states(capsys.readouterr().err)
    checking = [s for s in drawn if s.startswith("checking 400 numbers against the DNC list:")]
    # the total estimated from the first chunk, the share of the file read: exact here
    assert any(re.match(r"checking 400 numbers .*: +25%\|.*\| 100/400 "
                        r"\[\d\d:\d\d<\d\d:\d\d, +[\d.]+ numbers/s\]", s) for s in checking)
    assert any(s.startswith("checked 400 numbers against the DNC list: 100%") for s in drawn)
    assert any(re.match(r"reading vendor\.csv:\s+25%\|.*\| 100/400 \[\d\d:\d\d<\d\d:\d\d", s)
               for s in drawn)  # the file's bar goes at the screen's pace


def test_an_import_shows_its_leads_sent_of_those_accepted(
        sandbox: Sandbox, client: Client, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    add_fault(sandbox, path="/v1/leads/import", method="POST", kind="latency", latency_ms=150)
    path = vendor_file(tmp_path / "vendor.csv", 450)
    campaign = next(client.campaigns.list(status="paused")).id
    import_leads(client, path, campaign, journal=tmp_path / "journal", progress=True)
    drawn = states(capsys.readouterr().err)
    assert any(re.match(r"reading vendor\.csv:\s+\d+%", s) for s in drawn)
    # a state between, with its rate and time left (tqdm writes 1.33k for 1,330 a second)
    assert any(re.match(r"importing 450 leads: +(44|89)%\|.*\| (200|400)/450 "
                        r"\[\d\d:\d\d<\d\d:\d\d, +[\d.]+k? leads/s\]", s) for s in drawn)
    assert not any("DNC" in s for s in drawn)  # the service screens them


# --- where nobody watches: log lines (issue 62) -------------------------------------------


def test_an_import_nobody_watches_logs_its_progress(
        sandbox: Sandbox, client: Client, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """Standard error is captured, no terminal: by default the steps log lines on
    ``dialkit.progress``, a line each time the interval (0 here) has passed, and one at
    each step's end; nothing is drawn."""
    monkeypatch.setattr(_tuning, "PROGRESS_LOG_SECONDS", 0)
    add_fault(sandbox, path="/v1/leads/import", method="POST", kind="latency", latency_ms=50)
    path = vendor_file(tmp_path / "vendor.csv", 450)
    campaign = next(client.campaigns.list(status="paused")).id
    with caplog.at_level(logging.INFO, logger="dialkit.progress"):
        import_leads(client, path, campaign, journal=tmp_path / "journal")
    lines = [r.getMessage() for r in caplog.records if r.name == "dialkit.progress"]
    assert any(re.fullmatch(r"import: 200 of 450 leads sent \(44\.4%\), [\d,.]+/s, "
                            r"about \d+ s left", line) for line in lines), lines
    assert re.fullmatch(r"import: 450 of 450 leads sent \(100\.0%\) in \d+ s, [\d,.]+/s",
                        lines[-1])
    assert any(line.startswith("reading vendor.csv: ") and " of 450 rows (" in line
               for line in lines)


@pytest.mark.parametrize(("progress", "setting", "logged"), [
    (None, "", True), (None, "0", False), (False, "", False), (True, "", False)])
def test_lines_only_by_default_and_not_with_dialkit_progress_0(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        capsys: pytest.CaptureFixture[str], progress: bool | None, setting: str,
        logged: bool) -> None:
    """``progress=True`` draws its bar as asked (on standard error, captured), ``False``
    and ``DIALKIT_PROGRESS=0`` show nothing at all."""
    monkeypatch.setattr(_tuning, "PROGRESS_LOG_SECONDS", 0)
    monkeypatch.setenv("DIALKIT_PROGRESS", setting)
    path = vendor_file(tmp_path / "vendor.csv", 450)
    with caplog.at_level(logging.INFO, logger="dialkit.progress"):
        clean_file(path, out=tmp_path / "cleaned.csv", progress=progress)
    lines = [r.getMessage() for r in caplog.records if r.name == "dialkit.progress"]
    assert bool(lines) is logged
    assert ("reading vendor.csv:" in capsys.readouterr().err) is (progress is True)


@pytest.mark.parametrize("setting", ["soon", "-1"])
def test_a_bad_interval_in_the_environment_is_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, setting: str) -> None:
    monkeypatch.setenv("DIALKIT_PROGRESS_SECONDS", setting)
    with pytest.raises(ValueError, match=f"DIALKIT_PROGRESS_SECONDS='{setting}': write the "
                                         "seconds between two progress lines"):
        clean_file(vendor_file(tmp_path / "vendor.csv", 10), out=tmp_path / "cleaned.csv")


@pytest.mark.parametrize(("args", "line"), [
    (("import", " leads sent", 12_000, 300_000, 30.0), "import: 12,000 of 300,000 leads sent "
     "(4.0%), 400/s, about 12 min left"),
    (("import", " leads sent", 300_000, 300_000, 750.0, 0, "", True),
     "import: 300,000 of 300,000 leads sent (100.0%) in 12 min, 400/s"),
    (("loading calls", " pages", 3, None, 2.0, 0, "rows=1200"),
     "loading calls: 3 pages, 1,200 rows, 1.5/s"),
    (("import", " leads sent", 600, 1_000, 4.0, 400), "import: 600 of 1,000 leads sent "
     "(60.0%), 50/s, about 8 s left"),  # a resumed import's rate: this run's leads
    (("checking", " numbers", 0, 100, 0.0), "checking: 0 of 100 numbers (0.0%)"),
    (("import", " leads", 1, 2_000_000, 30.0), "import: 1 of 2,000,000 leads (0.0%), "
     "0.0/s, about 16666 h 39 min left"),
])
def test_a_progress_line_says_count_share_rate_and_time_left(args: Any, line: str) -> None:
    assert progress_line(*args[:5], *args[5:7], ended=len(args) > 7) == line


def test_a_step_shorter_than_the_interval_logs_nothing(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """As a load of one page draws no bar: no line came before its end, so none at it."""
    with caplog.at_level(logging.INFO, logger="dialkit.progress"):
        clean_file(vendor_file(tmp_path / "vendor.csv", 450), out=tmp_path / "cleaned.csv")
    assert _tuning.PROGRESS_LOG_SECONDS == 10
    assert [r for r in caplog.records if r.name == "dialkit.progress"] == []
