"""``dialkit compliance audit`` refuses an export built to exhaust memory before pandas
parses it, as ``dialkit leads clean`` does, and still reads a real export."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest

from dialkit import Client
from dialkit.compliance import load
from hostile_files import long_line_csv, run_capped, wide_csv


@pytest.mark.parametrize(("build", "message"), [
    (lambda tmp: wide_csv(tmp / "calls.csv", 300_000),
     r"calls.csv: line 1 has 300,000 columns, more than 500 \(max_columns\).*"
     r"DIALKIT_MAX_COLUMNS"),
    (lambda tmp: wide_csv(tmp / "calls.csv", 1_000_000),
     r"calls.csv: line 1 is longer than 1,048,576 bytes \(max_line_bytes\)"),
    (lambda tmp: long_line_csv(tmp / "calls.csv"),
     r"calls.csv: line 3 is longer than 1,048,576 bytes \(max_line_bytes\).*"
     r"DIALKIT_MAX_LINE_BYTES"),
], ids=["300k-columns", "million-columns", "50-MiB-line"])
def test_a_hostile_export_is_refused_under_a_memory_ceiling(
        tmp_path: Path, build: Callable[[Path], Path], message: str) -> None:
    done = run_capped("compliance", "audit", "--calls", str(build(tmp_path)))
    assert done.returncode == 2, done.stderr[-500:]
    assert re.search(message, done.stderr), done.stderr[-500:]
    assert "FileLimits" not in done.stderr  # a shell has the variable, not the keyword


def test_a_real_export_passes_under_the_same_ceiling(client: Client, tmp_path: Path) -> None:
    calls: pd.DataFrame = load(client)["calls"]
    calls.to_csv(tmp_path / "calls.csv", index=False)
    done = run_capped("compliance", "audit", "--calls", str(tmp_path / "calls.csv"))
    assert done.returncode == 0, done.stderr[-500:]
    assert re.search(r"\d+ findings", done.stdout)
