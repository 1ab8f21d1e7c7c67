"""A workbook's peak at the limits (issue 62, item 8): the memory ``dialkit.leads.read``
takes for a workbook the limits let through, over reading a small one.

docs/leads.md promises that a workbook inside ``max_workbook_bytes`` peaks at most about
that much over reading a small one. Each shape is written with xlsxwriter, then read in
a fresh process under a limit (the peak is the process's ``VmHWM``: ``ru_maxrss`` would
count this process's memory, which the child's holds at the fork).

- ``long-shared``: rows of a phone and one shared string of 30,000 bytes (a file of a few
  KB: what once took 584 MB read for 5,000 rows).
- ``short-cells``: rows of a phone and nine short texts of their own (many cells, the
  kind whose 40 MiB sheet peaked 19 times its size).

Run: ``PYTHONPATH=src .venv/bin/python benchmarks/bench_workbook_peak.py [--limit-mb 150]
[--long-rows 900] [--short-rows 45000]``. Results go to ``benchmarks/RESULTS.md`` by
hand, with the command.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import textwrap
import zipfile
from pathlib import Path

import xlsxwriter

PEAK = textwrap.dedent(r"""
    import re, sys
    from dialkit.leads import FileLimits, LeadFileError, read
    try:
        rows = len(read(sys.argv[1], limits=FileLimits(max_workbook_bytes=int(sys.argv[2]))).frame)
    except LeadFileError:
        rows = "refused"
    print(rows, int(re.search(r"VmHWM:\s*(\d+)", open("/proc/self/status").read())[1]) * 1024)
""")


def write(path: Path, rows: int, texts: list[str] | None) -> Path:
    """``rows`` rows of a phone and ``texts`` (``None``: nine of each row's own)."""
    book = xlsxwriter.Workbook(path)
    sheet = book.add_worksheet()
    sheet.write_row(0, 0, ["phone", *(f"c{n}" for n in range(9 if texts is None else 1))])
    for row in range(1, rows + 1):
        own = [f"{row}-{n}" for n in range(9)] if texts is None else texts
        sheet.write_row(row, 0, ["+14155550123", *own])
    book.close()
    return path


def peak(path: Path, limit: int) -> tuple[str, int]:
    """What a fresh process read of ``path`` (rows, or ``refused``) and its peak RSS."""
    done = subprocess.run([sys.executable, "-c", PEAK, str(path), str(limit)],
                          capture_output=True, text=True, check=True)
    rows, rss = done.stdout.split()
    return rows, int(rss)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit-mb", type=int, default=150)
    parser.add_argument("--long-rows", type=int, default=900)
    parser.add_argument("--short-rows", type=int, default=45_000)
    options = parser.parse_args()
    limit = options.limit_mb * 1_000_000
    with tempfile.TemporaryDirectory() as folder:
        small = peak(write(Path(folder, "small.xlsx"), 10, ["x"]), limit)[1]
        print(f"limit {limit:,} bytes; a small workbook's read peaks at {small >> 20} MiB")
        print("| shape | rows | file | sheet XML | read | peak | over the small one |")
        print("|---|---|---|---|---|---|---|")
        shapes = {"long-shared": (options.long_rows, ["x" * 30_000]),
                  "short-cells": (options.short_rows, None)}
        for shape, (rows, texts) in shapes.items():
            path = write(Path(folder, f"{shape}.xlsx"), rows, texts)
            sheet = zipfile.ZipFile(path).getinfo("xl/worksheets/sheet1.xml").file_size
            read, rss = peak(path, limit)
            print(f"| {shape} | {rows:,} | {path.stat().st_size:,} B | {sheet:,} B | {read} "
                  f"| {rss >> 20} MiB | {(rss - small) / 1e6:.0f} MB "
                  f"({(rss - small) / limit:.2f}x the limit) |")


if __name__ == "__main__":
    main()
