"""``dialkit leads clean`` of lead files of growing size: peak memory and rows per second.

Issue 40's measure: a CSV of the realistic mix (:mod:`leads_mix`, written a chunk at a
time by :func:`leads_mix.stream_leads`, so that a file of any size is made in the
memory of one chunk; kept outside the repository, in ``--folder``) is cleaned by
``python -m dialkit leads clean FILE --country-column Country --out OUT.csv`` in a
fresh process per run. Measured from outside the process: its wall time, its CPU
seconds and its peak RSS (``ru_maxrss`` from ``wait4``). Rows per second are the
file's rows over the wall time.

Issue 40's targets, for a streaming clean: peak RSS at most 1 GiB at 20,000,000 rows
and within 10 % of that at 5,000,000 (flat, not growing with the file); throughput
at 20,000,000 rows at least 0.8x today's at 1,000,000; at 1,000,000 rows within 1.1x
today's time. Run before it lands, this gives today's figures, the targets' baseline.

``--baseline SRC`` also runs the clean of another checkout's ``src`` folder (the code
before the streaming clean: ``git worktree add /tmp/before 193098b``, then ``--baseline
/tmp/before/src``), each run of it beside the same file's run of this one (which goes
first turns each round), so that both see the same machine; its rows are marked
``before``. Each run is printed as it ends, then the medians.

Run: ``.venv/bin/python benchmarks/bench_stream.py [--rows 1000000,5000000] [--runs 3]
[--folder /tmp/dialkit-stream] [--baseline SRC] [--baseline-rows 1000000]``. Results go
to ``benchmarks/RESULTS.md`` by hand.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from leads_mix import stream_leads

MIB = 1024 * 1024


def clean_once(source: Path, out: Path, src: Path | None = None) -> dict[str, float]:
    """One fresh ``dialkit leads clean`` (of the code in ``src``, else the installed
    one): wall and CPU seconds, peak RSS in bytes."""
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    return run_measured(["leads", "clean", str(source), "--country-column", "Country",
                         "--out", str(out)], env)


def run_measured(arguments: list[str], env: dict[str, str]) -> dict[str, float]:
    """``python -m dialkit ARGUMENTS`` in a fresh process: its wall and CPU seconds and
    its peak RSS in bytes, measured from outside (``wait4``)."""
    began = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "dialkit", *arguments],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    assert child.stderr is not None
    err = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - began
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"dialkit {' '.join(arguments[:3])} failed:\n{err.decode()}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime,
            "peak": usage.ru_maxrss * 1024}


def file_of(rows: int, folder: Path) -> Path:
    """The mix's lead file of ``rows`` rows in ``folder``, written once and kept."""
    path = folder / f"leads_mix_{rows}.csv"
    if not path.exists():
        partial = path.with_suffix(".partial")
        began = time.perf_counter()
        stream_leads(rows, partial)
        partial.rename(path)  # a run stopped while writing leaves no file that looks whole
        print(f"wrote {path} ({path.stat().st_size / MIB:,.0f} MiB) in "
              f"{time.perf_counter() - began:.0f} s", flush=True)
    return path


def measure(rows: int, runs: int, folder: Path,
            baseline: Path | None = None) -> list[dict[str, Any]]:
    """Medians of ``runs`` cleans of the ``rows``-row file (and of the baseline's, each
    run right after this code's)."""
    source = file_of(rows, folder)
    codes: dict[str, Path | None] = {"": None} | ({"before": baseline} if baseline else {})
    done: dict[str, list[dict[str, float]]] = {name: [] for name in codes}
    for round_ in range(runs):
        for name, src in list(codes.items())[::1 if round_ % 2 == 0 else -1]:
            done[name].append(clean_once(source, folder / f"cleaned_{rows}.csv", src))
            got = done[name][-1]
            print(f"{rows:,} rows, run {round_ + 1}, {name or 'this'}: {got['wall']:.1f} s wall, "
                  f"{got['cpu']:.1f} s CPU, peak {got['peak'] / MIB:,.0f} MiB", flush=True)
    medians = []
    for name, runs_done in done.items():
        median = {key: statistics.median(run[key] for run in runs_done) for key in runs_done[0]}
        medians.append({**median, "rows": rows, "rows_per_s": rows / median["wall"],
                        "file": source.stat().st_size, "code": name})
    return medians


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="1000000,5000000",
                        help="comma-separated file sizes, in rows")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--folder", type=Path, default=Path("/tmp/dialkit-stream"))
    parser.add_argument("--baseline", type=Path, help="another checkout's src folder")
    parser.add_argument("--baseline-rows", default="1000000",
                        help="the file sizes the baseline runs on")
    options = parser.parse_args()
    options.folder.mkdir(parents=True, exist_ok=True)
    before = {int(rows) for rows in options.baseline_rows.split(",")}
    results = [got for rows in options.rows.split(",") for got in measure(
        int(rows), options.runs, options.folder,
        options.baseline if int(rows) in before else None)]
    first = results[0]
    print(f"{'code':>6} {'rows':>12} {'file MiB':>9} {'wall s':>8} {'cpu s':>8} "
          f"{'peak MiB':>9} {'rows/s':>10} {'peak/first':>10} {'rate/first':>10}")
    for got in results:
        print(f"{got['code']:>6} {got['rows']:>12,.0f} {got['file'] / MIB:>9,.0f} "
              f"{got['wall']:>8.1f} "
              f"{got['cpu']:>8.1f} {got['peak'] / MIB:>9,.0f} {got['rows_per_s']:>10,.0f} "
              f"{got['peak'] / first['peak']:>10.2f} "
              f"{got['rows_per_s'] / first['rows_per_s']:>10.2f}")


if __name__ == "__main__":
    main()
