"""A clean that cannot spill, or is killed, says so and leaves nothing behind (issue 72).

Real processes: ``dialkit leads clean`` in a subprocess with its own ``TMPDIR``, a real
file-size limit (``ulimit -f``: a write past it fails with EFBIG, as a full disk fails
with ENOSPC) and real signals. Each process keeps its keys and rows on disk however
small the file (``HELD_BYTES = 0``), in small chunks, so that a test file of a few MB
spills, and for a few seconds."""

from __future__ import annotations

import re
import signal
import stat
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import leads_mix  # noqa: E402
from dialkit.leads._clean._duplicates import SPILL_RATIO  # noqa: E402

ROWS = 120_000
"""Rows of the lead file: cleaned in 60 chunks of :data:`CHUNK`, a few seconds."""
CHUNK = 2_000

CLEAN = textwrap.dedent("""
    import resource, signal, sys
    from dialkit._utils import _tuning
    from dialkit.cli import app
    signal.signal(signal.SIGHUP, signal.SIG_DFL)  # as a terminal's shell starts it
    limit, spill = int(sys.argv[1]), sys.argv[2] == "spill"
    if spill:
        _tuning.HELD_BYTES, _tuning.CHUNK_ROWS = 0, int(sys.argv[3])
    if limit:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit: EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    app(sys.argv[4:], prog_name="dialkit")
""")


@pytest.fixture(scope="module")
def leads(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The benchmarks' mix of leads, written once for the module."""
    path = tmp_path_factory.mktemp("leads") / "leads.csv"
    leads_mix.write_leads(ROWS, path)
    return path


@pytest.fixture
def spills(tmp_path: Path) -> Path:
    """The clean's ``TMPDIR``."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    return folder


def clean(leads: Path, out: Path, spills: Path, *, limit: int = 0,
          spill: bool = True) -> subprocess.Popen[str]:
    """``dialkit leads clean leads --out out --rejects rej.csv`` started, spilling to
    ``spills``, under a file-size limit of ``limit`` bytes (0: none)."""
    return subprocess.Popen(
        [sys.executable, "-c", CLEAN, str(limit), "spill" if spill else "held", str(CHUNK), "leads",
         "clean", str(leads), "--out", str(out), "--rejects", str(out.with_name("rej.csv"))],
        env={"PATH": "/usr/bin:/bin", "TMPDIR": str(spills), "DIALKIT_PROGRESS": "0"},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def left(spills: Path, out: Path) -> list[str]:
    """What the clean left in its ``TMPDIR`` and beside its outputs."""
    return sorted([p.name for p in spills.iterdir()] + [p.name for p in out.parent.iterdir()])


def spilling(spills: Path, process: subprocess.Popen[str]) -> Iterator[Path]:
    """The clean's spill folder once its first spill file is there (while it runs)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        for folder in spills.glob("dialkit-clean-*"):
            files = list(folder.glob("rows-*.arrow"))
            if files and files[0].stat().st_size:
                yield folder
                return
        time.sleep(0.02)
    raise AssertionError(f"no spill while the clean ran: {process.communicate()}")


@pytest.mark.parametrize("ending", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_clean_ended_by_a_signal_removes_its_spill_and_its_partial_outputs(
        leads: Path, spills: Path, tmp_path: Path, ending: signal.Signals) -> None:
    """Before, SIGTERM or SIGHUP left the spill (the leads' numbers, in TMPDIR) and a
    ``.partial`` beside each output; Ctrl-C removed both."""
    out = tmp_path / "out" / "out.csv"
    out.parent.mkdir()
    process = clean(leads, out, spills)
    folder = next(spilling(spills, process))
    modes = {path.name: stat.S_IMODE(path.stat().st_mode)
             for path in [folder, *folder.iterdir()]}
    process.send_signal(ending)
    _, err = process.communicate(timeout=60)
    assert process.returncode == -ending, err  # ended as the signal asks, not as failed
    assert left(spills, out) == []
    assert modes[folder.name] == 0o700
    assert set(modes.values()) <= {0o700, 0o600}, modes


def test_a_spill_past_a_file_size_limit_names_the_spill_its_size_and_tmpdir(
        leads: Path, spills: Path, tmp_path: Path) -> None:
    """Before: ``error: out.csv: File too large``; the output was blamed, TMPDIR unnamed."""
    out = tmp_path / "out" / "out.csv"
    out.parent.mkdir()
    process = clean(leads, out, spills, limit=300_000)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 2, err
    said = err.strip().splitlines()[-1]
    assert said.startswith(f"error: {spills}: file too large while the clean spilled"), said
    assert "it had written " in said and " bytes there" in said
    assert f"{round(leads.stat().st_size * SPILL_RATIO):,} bytes for this one" in said
    assert "set TMPDIR to a folder on a disk with room" in said
    assert "out.csv" not in said and "rej.csv" not in said
    assert left(spills, out) == []


def test_an_output_past_a_file_size_limit_still_names_the_output(
        leads: Path, spills: Path, tmp_path: Path) -> None:
    """The spill's errors are the spill's only: a clean with no spill (its rows held)
    whose output passes the limit names the output, not TMPDIR."""
    out = tmp_path / "out" / "out.csv"
    out.parent.mkdir()
    process = clean(leads, out, spills, limit=300_000, spill=False)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 2, err
    said = err.strip().splitlines()[-1]
    assert re.match(f"error: {re.escape(str(out.parent))}/(out|rej).csv: file too large, so "
                    "it was not written", said), said
    assert "TMPDIR" not in said
    assert left(spills, out) == []


def notebooks_own(signum: int, frame: object) -> None:
    """A handler of the caller's own, as a notebook's or a server's."""


@pytest.mark.parametrize("before", [signal.SIG_DFL, notebooks_own], ids=["default", "own"])
def test_a_clean_in_a_library_call_leaves_the_callers_handlers_as_they_were(
        leads: Path, tmp_path: Path, before: object) -> None:
    """The default is taken for the clean only, and a handler of the caller's never."""
    from dialkit.leads import clean_file

    old = {each: signal.signal(each, before) for each in (signal.SIGTERM, signal.SIGHUP)}
    try:
        clean_file(leads, out=tmp_path / "out.csv", progress=False)
        assert signal.getsignal(signal.SIGTERM) is before
        assert signal.getsignal(signal.SIGHUP) is before
    finally:
        for each, handler in old.items():
            signal.signal(each, handler)
