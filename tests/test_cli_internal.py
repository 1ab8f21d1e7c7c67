"""The command line tells dialkit's own bugs from the user's bad input (issue 61).

A calls export without ``status`` and ``hangup_cause`` crashed the audit with pandas'
``Item wrong length 0 instead of 2.`` (a ``ValueError``), which the command told the user
as ``error: ...``, exit status 2: bad input. An exception no command expects is now an
internal error with its own exit status and its traceback in an owner-only file (or shown
with ``-v``); only the errors raised on purpose for input are ``error:``, exit 2. The
emulator cannot make dialkit fail, so the failure is planted by replacing the audit's
run (``run_audit``, the one call the command makes).
"""

from __future__ import annotations

import logging
import re
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

import dialkit.compliance
from dialkit.cli import main
from dialkit.cli._shared import EXIT_INTERNAL

CRASH = "Item wrong length 0 instead of 2."


@pytest.fixture(autouse=True)
def _logging_kept() -> Iterator[None]:
    """The logging set up as it was before ``-v`` set it up: the next test's command
    tells ``-v`` by dialkit's logger's level."""
    root, named = logging.getLogger(), [logging.getLogger(n) for n in ("dialkit", "httpx")]
    kept = (root.level, list(root.handlers), [logger.level for logger in named])
    yield
    root.setLevel(kept[0])
    root.handlers[:] = kept[1]
    for logger, level in zip(named, kept[2], strict=True):
        logger.setLevel(level)


@pytest.fixture
def calls(tmp_path: Path) -> Path:
    """A calls export of the documented columns, one call."""
    path = tmp_path / "calls.csv"
    pd.DataFrame([{"id": "call_1", "direction": "outbound", "from_number": "+14155550100",
                   "to_number": "+12125550123", "created_at": "2026-11-02T15:00:00Z",
                   "answered_at": None, "ended_at": "2026-11-02T15:00:30Z",
                   "campaign_id": "cmp_1", "disposition": None}]).to_csv(path, index=False)
    return path


def _run(args: list[str], monkeypatch: pytest.MonkeyPatch,
         capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """``dialkit ARGS`` through the console script's entry point: its exit status and
    standard error."""
    monkeypatch.setattr(sys, "argv", ["dialkit", *args])
    with pytest.raises(SystemExit) as ended:
        main()
    return int(ended.value.code or 0), capsys.readouterr().err


def _broken(*_: object, **__: object) -> None:
    raise ValueError(CRASH)


def test_a_bug_is_told_as_an_internal_error_with_its_traceback_in_a_file(
        calls: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(dialkit.compliance, "run_audit", _broken)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    status, err = _run(["compliance", "audit", "--calls", str(calls)], monkeypatch, capsys)
    assert status == EXIT_INTERNAL != 2
    assert err.startswith(f"internal error: ValueError: {CRASH}\n")
    assert "This is a bug in dialkit, not in your input" in err
    assert "error: " + CRASH not in err
    where = re.search(r"the traceback is in (\S+) \(or run the command again with -v", err)
    assert where, err
    written = Path(where.group(1))
    assert written.parent == tmp_path
    assert stat.S_IMODE(written.stat().st_mode) == 0o600
    text = written.read_text()
    assert text.startswith("Traceback (most recent call last):")
    assert text.rstrip().endswith(f"ValueError: {CRASH}")


def test_with_verbose_the_traceback_is_shown(
        calls: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(dialkit.compliance, "run_audit", _broken)
    status, err = _run(["-v", "compliance", "audit", "--calls", str(calls)], monkeypatch,
                       capsys)
    assert status == EXIT_INTERNAL
    assert "Traceback (most recent call last):" in err
    assert f"internal error: ValueError: {CRASH}\n" in err
    assert "the traceback is above" in err


@pytest.mark.parametrize(("args", "said"), [
    (["--since", "30"], "error: --since '30': pass"),  # a bare ValueError before issue 61
    (["--policy-window", "9-5"], "error: --policy-window '9-5': pass the allowed hours"),
    (["--blocked-countries", "Atlantis"], "error: --blocked-countries holds 'Atlantis'"),
], ids=["period", "window", "country"])
def test_bad_input_is_still_an_error_with_status_2(
        calls: Path, args: list[str], said: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    status, err = _run(["compliance", "audit", "--calls", str(calls), *args], monkeypatch,
                       capsys)
    assert (status, err.splitlines()[0][:len(said)]) == (2, said), err
    assert "internal error" not in err


def test_a_file_missing_a_column_is_still_bad_input(
        calls: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    pd.read_csv(calls).drop(columns="to_number").to_csv(calls, index=False)
    status, err = _run(["compliance", "audit", "--calls", str(calls)], monkeypatch, capsys)
    assert status == 2
    assert err.startswith(f"error: {calls}: calls has no column to_number")
