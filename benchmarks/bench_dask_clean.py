"""``dialkit.leads.clean`` of a Parquet dataset on a 2-worker ``LocalCluster``: the client's
peak memory and the wall time, the rows on the workers against the rows gathered.

Issue 40's measure for Dask: the realistic mix (:mod:`leads_mix`) written once as a
dataset of ``--parts`` Parquet files (kept outside the repository, in ``--folder``), then
cleaned in a fresh process per run, which starts a ``LocalCluster`` of two worker
processes (``--workers``) of one thread each and times the clean alone (the cluster's start not
counted; ``--in-process``, the test suite's smoke run, gives the cluster its workers as
threads of that process instead: no interpreter to start a worker, and the peak then
holds theirs). The process's own peak RSS (``VmHWM``: the client and the cluster's scheduler,
not the workers; not ``ru_maxrss``, which keeps the high-water mark of the parent it was
forked from, the writer of the dataset) is the client's memory. Three cleans:

- ``before``: the code of ``--baseline SRC`` (the gathering clean: ``git archive main
  src | tar -x -C /tmp/dask-before``, then ``--baseline /tmp/dask-before/src``), the
  rows computed onto the client, the phones normalised on the workers;
- ``counts``: this code's ``clean_dataset(dataset)``, the counts alone coming back;
- ``out``: this code's ``clean_dataset(dataset, out=folder)``, the workers writing the cleaned
  partitions in the same run.

Run: ``.venv/bin/python benchmarks/bench_dask_clean.py [--rows 1000000] [--parts 10]
[--runs 3] [--folder /tmp/dialkit-dask-clean] [--baseline SRC] [--workers 2]
[--in-process]``. Results go to
``benchmarks/RESULTS.md`` by hand.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pandas as pd

from leads_mix import write_leads

MIB = 1024 * 1024

RUN = """
import json, sys, time
from pathlib import Path
from dask import distributed
import dialkit.leads
clean = getattr(dialkit.leads, "clean_dataset", dialkit.leads.clean)  # a baseline's name

if __name__ == "__main__":
    dataset, out, workers = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    processes = sys.argv[4] == "processes"
    with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=processes,
                                  dashboard_address=":0") as local, \\
            distributed.Client(local):
        began = time.perf_counter()
        result = clean(dataset, region="US", **({"out": out} if out else {}))
        wall = time.perf_counter() - began
    status = Path("/proc/self/status").read_text()
    peak = int(status.split("VmHWM:")[1].split()[0]) * 1024
    print(json.dumps({"wall": wall, "peak": peak, "accepted": result.counts["accepted"]}))
"""
"""One clean in a fresh process, on a cluster of its own: its wall time, the process's
peak RSS, and the rows accepted (the same in every clean)."""


def dataset_of(rows: int, parts: int, folder: Path) -> Path:
    """The mix of ``rows`` rows as ``parts`` Parquet files in ``folder``, written once."""
    path = folder / f"leads_{rows}_{parts}"
    if not path.exists():
        csv = folder / f"leads_{rows}.csv"
        write_leads(rows, csv)
        frame = pd.read_csv(csv, dtype=str, keep_default_na=False)
        partial = path.with_name(path.name + ".partial")
        partial.mkdir()
        size = -(-rows // parts)
        for part, at in enumerate(range(0, rows, size)):
            frame.iloc[at:at + size].to_parquet(partial / f"part-{part:03d}.parquet",
                                                index=False)
        partial.rename(path)
    return path


def clean_once(dataset: Path, out: Path | None, src: Path | None,
               workers: int, processes: bool = True) -> dict[str, Any]:
    """One clean in a fresh process (of the code in ``src``, else this checkout's), on a
    cluster of ``workers`` processes (threads of that process if not ``processes``)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(src or Path(__file__).resolve().parents[1] / "src")
    done = subprocess.run([sys.executable, "-c", RUN, str(dataset), str(out or ""),
                           str(workers), "processes" if processes else "threads"],
                          capture_output=True, text=True, env=env, check=False)
    if done.returncode:
        raise SystemExit(f"the clean failed:\n{done.stderr[-3000:]}")
    answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--parts", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--folder", type=Path, default=Path("/tmp/dialkit-dask-clean"))
    parser.add_argument("--baseline", type=Path, help="the gathering clean's src folder")
    parser.add_argument("--workers", type=int, default=2,
                        help="the cluster's worker processes (1: the test suite's smoke run)")
    parser.add_argument("--in-process", action="store_true",
                        help="the workers as threads of the cleaning process (the smoke run)")
    options = parser.parse_args()
    options.folder.mkdir(parents=True, exist_ok=True)
    # this script's own output from an earlier run, maybe of code that wrote no mark
    shutil.rmtree(options.folder / "cleaned", ignore_errors=True)
    began = time.perf_counter()
    dataset = dataset_of(options.rows, options.parts, options.folder)
    print(f"dataset {dataset} ready in {time.perf_counter() - began:.0f} s", flush=True)
    cleans: dict[str, tuple[Path | None, Path | None]] = {
        **({"before": (None, options.baseline)} if options.baseline else {}),
        "counts": (None, None), "out": (options.folder / "cleaned", None)}
    done: dict[str, list[dict[str, Any]]] = {name: [] for name in cleans}
    for _ in range(options.runs):  # interleaved: each clean sees the same machine
        for name, (out, src) in cleans.items():
            done[name].append(clean_once(dataset, out, src, options.workers,
                                         not options.in_process))
    print(f"{'clean':>7} {'rows':>10} {'wall s':>7} {'client peak MiB':>16} {'accepted':>9}")
    for name, runs in done.items():
        wall = statistics.median(run["wall"] for run in runs)
        peak = statistics.median(run["peak"] for run in runs)
        walls = ", ".join(f"{run['wall']:.1f}" for run in runs)
        print(f"{name:>7} {options.rows:>10,} {wall:>7.1f} {peak / MIB:>16,.0f} "
              f"{runs[0]['accepted']:>9,}  (walls {walls})")


if __name__ == "__main__":
    main()
