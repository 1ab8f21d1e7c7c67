"""The compliance audit on Dask against pandas, over a generated Parquet dataset (issue 25).

Issue 25's target: on 20,000,000 generated calls, ``dialkit.compliance.audit`` on a
2-worker ``LocalCluster`` with each worker's peak memory under 2 GiB, where pandas needs
all of the frames in one process, and its wall time within 1.5x of pandas on this
2-core machine; and, on paper, what 16 workers would take, from the measured cost of
the tasks and the volume the shuffles move. Issue 62's: at 10,000,000 calls on two
workers of the memory docs/scale.md names (1 GiB), the audit completes, with pandas'
findings, under each rule set (``--rules``: ``US``, the default, and
``US_WITH_HOUSE_RULES``, every rule); a run whose workers die of memory is reported as
FAILED with the dialkit error's message, not a crash.

The dataset is written once under ``--data`` and reused while its stamp matches the
sizes and seed. It is :mod:`bench_audit`'s account, generated chunk by chunk so that
the calls are never all in memory: the number pool (``--leads`` numbers, their regions,
zones, campaigns and DNC listings) is drawn once, and each chunk of ``--chunk`` calls
(its own seed) is placed on a slice of the pool by ``bench_audit``'s own functions, with
those numbers' leads and DNC results; so each number's calls, bursts and
``do_not_call`` dispositions are in one chunk, and every rule finds what it finds on
``bench_audit``'s frames, in the same shares; the first chunk holds ``bench_audit``'s
seeded edges of each rule (:mod:`audit_edges`), so that both sides meet them at any size.
It is laid out as ``dialkit.frames.export``
lays out an account: ``calls/month=YYYY-MM/part-CCC-I.parquet`` (at most
``--rows-per-file`` rows a file: Dask's partitions), ``leads/campaign=cmp_…/part-0.parquet``
(a row group per chunk), and ``dnc/part-CCC.parquet``, every file with the frames'
dtypes (:data:`dialkit.frames.SCHEMAS`, plus ``agent_joined_at`` and ``listed_at``).

Each side runs in a fresh process, the two in turn ``--runs`` times:

- pandas: the three folders read whole (``pd.read_parquet``), then the audit on the
  frames; the read's and the audit's wall seconds, and the process's peak resident
  memory (``VmHWM``) after each.
- Dask: a ``LocalCluster`` of 2 worker processes (``--workers``) of one thread each
  (``--memory-limit`` each, above 2 GiB so that the figure shows what a worker needs
  rather than where it was stopped), ``dialkit`` imported on the workers, then the audit
  of the three folders' paths: its wall seconds; each worker's ``VmHWM`` (and whether a worker
  process changed, i.e. was restarted, or the nannies logged a restart); each worker's
  ``VmHWM`` after its imports, before any task; the highest unmanaged and managed memory
  of a worker in the scheduler's view; the pauses the workers logged (at 80 % of their
  limit); the client
  process's ``VmHWM`` (it also runs the scheduler); the task stream grouped by task
  name (compute seconds, tasks); the bytes the p2p shuffles moved (the workers'
  ``p2p`` metrics). ``--in-process`` (the test suite's smoke run) makes the workers
  threads of that process: no worker process to start, their peaks are the client's.

Both reports' findings must agree: a digest of (rule, call id, lead id), sorted.

Run: ``.venv/bin/python benchmarks/bench_dask_audit.py [--calls 20000000] [--leads
4000000] [--runs 3] [--data /tmp/dialkit-bench-dask-audit] [--memory-limit 4GiB]
[--campaigns 25] [--in-process] [--rules US]`` (fewer campaigns, fewer partitions: the test
suite's smoke run). Issue 62's runs set ``DASK_DISTRIBUTED__P2P__COMM__BUFFER="100 MiB"``,
as docs/scale.md advises for workers of a few GiB or less.
Results go to ``benchmarks/RESULTS.md`` by hand, with the command.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq

import bench_audit
import dialkit.compliance
import dialkit.errors

STAMP = "_bench_dask_audit.json"
"""The dataset's record of what it holds; written last, so a half-written one is redone."""
FORMAT = 2
"""The dataset's layout and contents: 2 since each rule's edges are seeded in its first chunk."""
ROWS_PER_GROUP = 1 << 17
RULES = {"HOUSE_RULES": dialkit.compliance.HOUSE_RULES, "US": dialkit.compliance.US,
         "US_FEDERAL": dialkit.compliance.US_FEDERAL,
         "US_WITH_HOUSE_RULES": dialkit.compliance.US_WITH_HOUSE_RULES}
"""The rule sets a run may audit by (``--rules``): ``US`` is the audit's default (the law
of every place called), ``US_WITH_HOUSE_RULES`` every rule (that law and the policy)."""
GIB = 2**30
TARGET_WORKER_GIB, TARGET_RATIO = 2.0, 1.5
"""Issue 25's targets: each worker's peak under 2 GiB, the Dask wall within 1.5x pandas'."""
BANDWIDTHS = {"1 Gbit/s": 125e6, "10 Gbit/s": 1.25e9}
"""Per-worker network bandwidth assumed for the 16-worker projection (bytes a second)."""
WORKERS_PROJECTED = 16
SENT = "background-comms process"
"""The p2p metric of the bytes of the shards the workers sent each other (the shuffle volume)."""


# The dataset ---------------------------------------------------------------------------------

def dataset(parent: Path, calls: int, leads: int, chunk: int, rows_per_file: int,
            seed: int, campaigns: int = bench_audit.CAMPAIGNS) -> Path:
    """The dataset of these sizes under ``parent``: reused when its stamp matches, else
    (re)written chunk by chunk, in a folder of its own renamed into place (two runs at
    once, two test sessions' smoke runs, never read each other's half). The leads are
    laid out by campaign: ``campaigns`` files, and as many partitions in the shuffles."""
    stamp = {"format": FORMAT, "calls": calls, "leads": leads, "chunk": chunk,
             "rows_per_file": rows_per_file, "seed": seed, "campaigns": campaigns}
    folder = parent / (f"calls{calls}-leads{leads}-seed{seed}" + (
        "" if campaigns == bench_audit.CAMPAIGNS else f"-campaigns{campaigns}"))
    try:
        if json.loads((folder / STAMP).read_text())["what"] == stamp:
            print(f"dataset: {folder} (reused)", flush=True)
            return folder
    except (OSError, ValueError, KeyError):
        pass
    parent.mkdir(parents=True, exist_ok=True)
    writing = Path(tempfile.mkdtemp(dir=parent, prefix=f".{folder.name}."))
    try:
        began = time.perf_counter()
        rows = write(writing, calls, leads, chunk, rows_per_file, seed, campaigns)
        seconds = time.perf_counter() - began
        (writing / STAMP).write_text(json.dumps({"what": stamp, "rows": rows,
                                                 "seconds": seconds}))
        shutil.rmtree(folder, ignore_errors=True)
        writing.rename(folder)
    except OSError:
        if not (folder / STAMP).exists():
            raise
        print(f"dataset: {folder} (written meanwhile by another run)", flush=True)
        return folder
    finally:
        shutil.rmtree(writing, ignore_errors=True)
    print(f"dataset: {folder}, written in {seconds:.0f} s: {rows}", flush=True)
    return folder


def write(folder: Path, calls: int, leads: int, chunk: int, rows_per_file: int,
          seed: int, campaigns: int = bench_audit.CAMPAIGNS) -> dict[str, int]:
    """Write the calls, leads and DNC results, a chunk of calls at a time; the rows of each."""
    rng = np.random.default_rng(seed)
    pool = bench_audit.account_pool(leads, rng, campaigns)
    chunks = max(1, -(-calls // chunk))
    rows = dict.fromkeys(bench_audit.NAMES, 0)
    with _campaign_files(folder / "leads") as lead_file:
        for number in range(chunks):
            count = calls * (number + 1) // chunks - calls * number // chunks
            part = bench_audit.account(pool.iloc[number::chunks].reset_index(drop=True), count,
                                       np.random.default_rng([seed, number]))
            if number == 0:  # each rule's edges, once (bench_audit's)
                part = bench_audit.with_edges(part, set(pool["phone"]))
            _write_calls(folder / "calls", part["calls"], number, rows_per_file)
            for campaign, leads_of in part["leads"].groupby("campaign_id", observed=True):
                lead_file(str(campaign), leads_of)
            (folder / "dnc").mkdir(exist_ok=True)
            pq.write_table(pa.Table.from_pandas(part["dnc"], preserve_index=False),
                           folder / "dnc" / f"part-{number:03d}.parquet")
            for name in rows:
                rows[name] += len(part[name])
            print(f"  chunk {number + 1}/{chunks}: {len(part['calls']):,} calls, "
                  f"{len(part['leads']):,} leads", flush=True)
    return rows


def _write_calls(folder: Path, calls: pd.DataFrame, number: int, rows_per_file: int) -> None:
    """A chunk's calls by month of ``created_at``, as ``dialkit.frames.export`` writes them
    (the ``month`` column in the folder names only), files named by the chunk."""
    table = pa.Table.from_pandas(calls, preserve_index=False).append_column(
        "month", _months(calls["created_at"]))
    ds.write_dataset(table, folder, format="parquet", partitioning=ds.partitioning(
        pa.schema([("month", pa.string())]), flavor="hive"), preserve_order=True,
        max_rows_per_file=rows_per_file, max_rows_per_group=min(rows_per_file, ROWS_PER_GROUP),
        existing_data_behavior="overwrite_or_ignore",
        basename_template=f"part-{number:03d}-{{i}}.parquet")


def _months(created_at: pd.Series) -> pa.Array:
    """Each call's month of ``created_at`` (UTC) as ``YYYY-MM``: the few months' text taken
    by each row's month, the same text as ``dt.strftime("%Y-%m")``, which formats every row
    in Python (1.2 CPU s a million calls, of some 12 to generate them)."""
    months = created_at.dt.tz_convert("UTC").dt.tz_localize(None).to_numpy().astype("M8[M]")
    distinct, row = np.unique(months, return_inverse=True)
    return pa.array(np.datetime_as_string(distinct, unit="M")).take(pa.array(row.ravel()))


@contextmanager
def _campaign_files(folder: Path) -> Iterator[Any]:
    """A writer of a campaign's leads, appended as a row group to its one file (as the
    export writes a campaign's leads, in one file)."""
    writers: dict[str, pq.ParquetWriter] = {}

    def append(campaign: str, leads: pd.DataFrame) -> None:
        table = pa.Table.from_pandas(leads, preserve_index=False)
        if campaign not in writers:
            (folder / f"campaign={campaign}").mkdir(parents=True)
            writers[campaign] = pq.ParquetWriter(folder / f"campaign={campaign}" /
                                                 "part-0.parquet", table.schema)
        writers[campaign].write_table(table)
    try:
        yield append
    finally:
        for writer in writers.values():
            writer.close()


# Measuring, in fresh processes -----------------------------------------------------------------

def digest(findings: pd.DataFrame) -> str:
    """The findings as sorted lines of (rule, call id, lead id)."""
    keys = findings[["rule", "call_id", "lead_id"]].astype(object).fillna("").astype(str)
    lines = sorted(" ".join(row) for row in keys.itertuples(index=False))
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def high_water(pid: int | str = "self") -> int:
    """A process's peak resident memory (``VmHWM``), in bytes; 0 if it is gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return 0


def audit_options(rules: str) -> dict[str, Any]:
    return {"verified_caller_ids": bench_audit.VERIFIED,
            "blocked_countries": bench_audit.BLOCKED, "rules": RULES[rules],
            "as_of": bench_audit.AS_OF}


def found(report: Any) -> dict[str, Any]:
    findings = report.findings
    return {"digest": digest(findings), "findings": len(findings),
            "per_rule": {str(k): int(v) for k, v in findings["rule"].value_counts().items()},
            "abandoned": len(report.abandoned)}


def measure_pandas(folder: Path, rules: str) -> dict[str, Any]:
    """Read the dataset whole, then audit it on pandas."""
    began = time.perf_counter()
    frames = {name: pd.read_parquet(folder / name) for name in bench_audit.NAMES}
    read = time.perf_counter() - began
    after_read = high_water()
    began = time.perf_counter()
    report = dialkit.compliance.audit(frames["calls"], leads=frames["leads"],
                                      dnc=frames["dnc"], **audit_options(rules))
    seconds = time.perf_counter() - began
    return {"read": read, "audit": seconds, "wall": read + seconds,
            "frames_bytes": sum(int(f.memory_usage(deep=True).sum()) for f in frames.values()),
            "peak_after_read": after_read, "peak": high_water(), **found(report),
            "load": os.getloadavg()[0]}


def measure_dask(folder: Path, rules: str, memory_limit: str, workers: int,
                 processes: bool = True) -> dict[str, Any]:
    """Audit the dataset's folders on a ``LocalCluster`` of ``workers`` processes (threads
    of this process if not ``processes``). A run whose workers died of memory
    (:class:`dialkit.errors.WorkerMemoryError`) is reported as ``failed``, with its
    figures up to then."""
    from dask.distributed import Client, LocalCluster, get_task_stream

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=processes,
                      memory_limit=memory_limit, dashboard_address=":0") as cluster, \
            Client(cluster) as client:
        client.run(lambda: __import__("dialkit.compliance"))
        pids = client.run(os.getpid)
        imported = client.run(lambda: high_water())  # the worker before any task
        sampled = _Sampler(list(pids.values()), cluster.scheduler)
        failed = None
        with sampled, get_task_stream(client) as stream:
            began = time.perf_counter()
            try:
                report = dialkit.compliance.audit(folder / "calls", leads=folder / "leads",
                                                  dnc=folder / "dnc", **audit_options(rules))
            except dialkit.errors.WorkerMemoryError as error:
                failed = str(error)
            seconds = time.perf_counter() - began
        now = client.run(lambda: (os.getpid(), high_water()))
        metrics = client.run_on_scheduler(_shuffle_metrics)
        logs = client.get_worker_logs(nanny=True)
        pauses = sum("pausing worker" in line.lower()
                     for lines in client.get_worker_logs().values() for _, line in lines)
    restarts = [line for lines in logs.values() for _, line in lines
                if "restart" in line.lower() or "exceeded" in line.lower()]
    return {"wall": seconds, "workers": {address: {"pid": pid, "peak": peak}
                                         for address, (pid, peak) in now.items()},
            "workers_changed": sorted(set(pids.values()) - {pid for pid, _ in now.values()}),
            "sampled_peak": sampled.peaks, "restart_logs": restarts[:10],
            "imported": max(imported.values()), "unmanaged": sampled.unmanaged,
            "managed": sampled.managed, "pauses": pauses,
            "client_peak": high_water(), "tasks": tasks_by_name(stream.data),
            "shuffle": metrics, "load": os.getloadavg()[0],
            **({"failed": failed} if failed else found(report))}


class _Sampler:
    """The worker processes' resident memory sampled every 0.2 s (``VmRSS``), kept as each
    pid's peak: what a worker reached before a restart, which ``VmHWM`` at the end loses;
    and, of the ``scheduler``'s view of each worker (its heartbeats), the highest
    unmanaged memory (the process's less the data Dask holds and knows the size of) and
    managed memory."""

    def __init__(self, pids: list[int], scheduler: Any) -> None:
        self.peaks = dict.fromkeys(map(str, pids), 0)
        self.unmanaged, self.managed = 0, 0
        self._scheduler = scheduler
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> _Sampler:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()

    def _sample(self) -> None:
        while not self._stop.wait(0.2):
            for pid in self.peaks:
                self.peaks[pid] = max(self.peaks[pid], high_water(pid))
            for worker in list(self._scheduler.workers.values()):
                memory = worker.memory
                self.unmanaged = max(self.unmanaged, memory.unmanaged)
                self.managed = max(self.managed, memory.managed)


def _shuffle_metrics(dask_scheduler: Any) -> dict[str, float]:
    """The workers' cumulative ``p2p`` metrics in bytes, over every shuffle of the run (the
    cluster runs one audit): ``background-comms process`` is what the shards sent between
    workers held, ``background-disk`` what the receivers spilled to disk."""
    return {" ".join(map(str, key[1:-1])): float(value)
            for key, value in dask_scheduler.cumulative_worker_metrics.items()
            if isinstance(key, tuple) and key[0] == "p2p" and key[-1] == "bytes"}


def tasks_by_name(stream: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """The task stream's compute seconds and task count by task name (its prefix)."""
    from dask.utils import key_split

    named: dict[str, dict[str, float]] = defaultdict(lambda: {"tasks": 0, "seconds": 0.0,
                                                              "longest": 0.0})
    for task in stream:
        for step in task.get("startstops", ()):
            if step["action"] == "compute":
                each = named[key_split(task["key"])]
                each["tasks"] += 1
                each["seconds"] += step["stop"] - step["start"]
                each["longest"] = max(each["longest"], step["stop"] - step["start"])
    return dict(named)


RUN = ("import sys; sys.path.insert(0, sys.argv[1]); import bench_dask_audit as b; "
       "b.measured(sys.argv[2:])")


def measured(argv: list[str]) -> None:
    """In a fresh process: one side's figures as a JSON line."""
    side, folder, rules, memory_limit, workers, processes = argv
    result = (measure_pandas(Path(folder), rules) if side == "pandas"
              else measure_dask(Path(folder), rules, memory_limit, int(workers),
                                processes == "processes"))
    print(json.dumps(result))


def in_a_fresh_process(side: str, folder: Path, rules: str, memory_limit: str,
                       guard: float, workers: int, processes: bool = True) -> dict[str, Any]:
    """One side's figures from a fresh process; the process is killed, and its peak
    reported, if the machine's available memory falls under ``guard`` bytes (the machine
    is shared: a side that needs more than there is must not push others out)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        child = subprocess.Popen([sys.executable, "-c", RUN, str(Path(__file__).parent), side,
                                  str(folder), rules, memory_limit, str(workers),
                                  "processes" if processes else "threads"],
                                 stdout=out, stderr=err,
                                 text=True)
        began, peak, killed = time.perf_counter(), 0, None
        while child.poll() is None:
            peak = max(peak, high_water(child.pid))
            if (left := available()) < guard:
                child.kill()
                child.wait()
                killed = left
            time.sleep(0.2)
        if killed is not None:
            return {"killed": True, "peak": peak, "available": killed,
                    "wall": time.perf_counter() - began, "load": os.getloadavg()[0]}
        out.seek(0)
        err.seek(0)
        if child.returncode != 0:
            raise RuntimeError(f"the {side} side exited {child.returncode}:\n"
                               f"{err.read()[-6000:]}")
        result: dict[str, Any] = json.loads(out.read().strip().splitlines()[-1])
        return result


def available() -> int:
    """The machine's available memory (``MemAvailable``), in bytes."""
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) * 1024
    return 0


# Reporting ------------------------------------------------------------------------------------

def report(folder: Path, runs: dict[str, list[dict[str, Any]]], memory_limit: str) -> None:
    """The figures as tables for ``RESULTS.md``; a side killed for the machine's memory is
    reported as such, with the peak it had reached, and a Dask run whose workers died
    of memory with what it had reached and the error's message."""
    done = {side: [r for r in each if completed(r)] for side, each in runs.items()}
    rows = json.loads((folder / STAMP).read_text())["rows"]
    files = {name: len(list((folder / name).rglob("*.parquet"))) for name in bench_audit.NAMES}
    print(f"\n{rows['calls']:,} calls, {rows['leads']:,} leads, {rows['dnc']:,} DNC results "
          f"({files['calls']} / {files['leads']} / {files['dnc']} files)")
    first = next((r for each in done.values() for r in each), None)
    if first is not None:
        print(f"{first['findings']:,} findings, {first['abandoned']:,} abandoned calls, the "
              f"same in every completed run of either side (digest {first['digest'][:12]}); "
              f"per rule: {first['per_rule']}")
    print("\n| side | median wall | runs (s) | peak memory (median) | load (1 min) after each |")
    print("|---|---|---|---|---|")
    for side, each in runs.items():
        for killed in (r for r in each if "killed" in r):
            print(f"| {side}: KILLED | {killed['wall']:.1f} s | | {killed['peak'] / GIB:.2f} GiB, "
                  f"{killed['available'] / GIB:.1f} GiB left on the machine | "
                  f"{killed['load']:.1f} |")
    for failed in (r for r in runs["dask"] if "failed" in r):
        print(f"| dask: FAILED | {failed['wall']:.1f} s | | {_dask_memory(failed)} | "
              f"{failed['load']:.1f} |")
    if done["pandas"]:
        _pandas_rows(done["pandas"])
    if done["dask"]:
        _dask_row(done["dask"], memory_limit)
    for failed in (r for r in runs["dask"] if "failed" in r):
        print(f"\nFAILED: {failed['failed']}")
    if done["pandas"] and done["dask"]:
        paired = [(d, p) for d, p in zip(runs["dask"], runs["pandas"], strict=True)
                  if completed(d) and completed(p)]
        print(f"\nDask / pandas (median of per-run ratios): "
              f"{statistics.median(d['wall'] / p['wall'] for d, p in paired):.2f}x of read + "
              f"audit, {statistics.median(d['wall'] / p['audit'] for d, p in paired):.2f}x of "
              f"the audit alone (target <= {TARGET_RATIO}x)")
    if done["dask"]:
        project(done["dask"][len(done["dask"]) // 2])


def completed(run: dict[str, Any]) -> bool:
    """Whether a side's run completed: not killed for the machine's memory, nor failed
    for its workers' (``WorkerMemoryError``)."""
    return "killed" not in run and "failed" not in run


def _dask_memory(run: dict[str, Any]) -> str:
    """A Dask run's memory in words: each worker's peak, after its imports, unmanaged at
    the most (the scheduler's view), pauses and restarts."""
    peak = max([w["peak"] for w in run["workers"].values()]  # none: all restarting
               + list(run["sampled_peak"].values()))
    return (f"worker {peak / GIB:.2f} GiB at the peak, {run['imported'] / GIB:.2f} GiB after "
            f"its imports, unmanaged up to {run['unmanaged'] / GIB:.2f} GiB; "
            f"{run['pauses']} pauses, {len(run['restart_logs'])} restart lines, "
            f"{len(run['workers_changed'])} worker processes replaced")


def _pandas_rows(runs: list[dict[str, Any]]) -> None:
    med = statistics.median
    print(f"| pandas, one process: read | {med(p['read'] for p in runs):.1f} s | "
          f"{', '.join(format(p['read'], '.1f') for p in runs)} | "
          f"{med(p['peak_after_read'] for p in runs) / GIB:.2f} GiB after the read "
          f"(frames: {runs[0]['frames_bytes'] / GIB:.2f} GiB) | |")
    print(f"| pandas, one process: audit | {med(p['audit'] for p in runs):.1f} s | "
          f"{', '.join(format(p['audit'], '.1f') for p in runs)} | | |")
    print(f"| pandas, one process: read + audit | {med(p['wall'] for p in runs):.1f} s | "
          f"{', '.join(format(p['wall'], '.1f') for p in runs)} | "
          f"{med(p['peak'] for p in runs) / GIB:.2f} GiB | "
          f"{', '.join(format(p['load'], '.1f') for p in runs)} |")


def _dask_row(runs: list[dict[str, Any]], memory_limit: str) -> None:
    """The Dask runs' row, and whether each worker stayed under the target, unrestarted."""
    med = statistics.median
    peaks = [max(max(w["peak"] for w in d["workers"].values()),
                 max(d["sampled_peak"].values())) for d in runs]
    print(f"| Dask, {len(runs[0]['workers'])} workers x 1 thread, {memory_limit} each: "
          "read + audit | "
          f"{med(d['wall'] for d in runs):.1f} s | "
          f"{', '.join(format(d['wall'], '.1f') for d in runs)} | "
          f"worker {med(peaks) / GIB:.2f} GiB (max {max(peaks) / GIB:.2f}); "
          f"client + scheduler {med(d['client_peak'] for d in runs) / GIB:.2f} GiB | "
          f"{', '.join(format(d['load'], '.1f') for d in runs)} |")
    print(f"\nDask worker peak {'under' if max(peaks) < TARGET_WORKER_GIB * GIB else 'NOT under'} "
          f"{TARGET_WORKER_GIB:g} GiB in every run (target); worker processes replaced: "
          f"{[d['workers_changed'] for d in runs]}; nanny lines of restarts or memory: "
          f"{[d['restart_logs'] for d in runs]}")
    for n, run in enumerate(runs, 1):
        print(f"Dask run {n}: {_dask_memory(run)}")


def project(run: dict[str, Any]) -> None:
    """The task stream of one Dask run, and the 16-worker projection from it."""
    tasks = run["tasks"]
    total = sum(t["seconds"] for t in tasks.values())
    print("\n| task | tasks | compute s (sum) | s per task | longest |")
    print("|---|---|---|---|---|")
    for name, t in sorted(tasks.items(), key=lambda item: -item[1]["seconds"]):
        print(f"| {name} | {t['tasks']:.0f} | {t['seconds']:.1f} | "
              f"{t['seconds'] / t['tasks']:.3f} | {t['longest']:.2f} |")
    print(f"| all | {sum(t['tasks'] for t in tasks.values()):.0f} | {total:.1f} | | |")
    shuffle = run["shuffle"]
    print("\np2p shuffle metrics (bytes, summed over shuffles and workers): "
          + ", ".join(f"{k}: {v / GIB:.2f} GiB" for k, v in sorted(shuffle.items())))
    moved = shuffle.get(SENT, 0.0)
    serial = max((t["longest"] for t in tasks.values()), default=0.0)
    print(f"\n16-worker projection: compute {total:.1f} s over {WORKERS_PROJECTED} workers = "
          f"{total / WORKERS_PROJECTED:.1f} s; shuffled {moved / GIB:.2f} GiB of which 15/16 "
          "cross the network, spread over 16 workers' links; the longest task "
          f"({serial:.1f} s) as a floor:")
    for label, bandwidth in BANDWIDTHS.items():
        network = moved * (WORKERS_PROJECTED - 1) / WORKERS_PROJECTED / (
            WORKERS_PROJECTED * bandwidth)
        print(f"  at {label} a worker: {total / WORKERS_PROJECTED:.1f} + {network:.1f} = "
              f"{max(serial, total / WORKERS_PROJECTED + network):.1f} s "
              f"({len(run['workers'])} workers measured: {run['wall']:.1f} s)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=20_000_000)
    parser.add_argument("--leads", type=int, default=4_000_000)
    parser.add_argument("--runs", type=int, default=3, help="0: only write the dataset")
    parser.add_argument("--chunk", type=int, default=1_000_000,
                        help="calls generated (and held) at a time")
    parser.add_argument("--rows-per-file", type=int, default=250_000,
                        help="calls a Parquet file at most: Dask's partitions")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--campaigns", type=int, default=bench_audit.CAMPAIGNS,
                        choices=range(1, bench_audit.CAMPAIGNS + 1), metavar="1-25",
                        help="the leads' campaigns (files, and partitions of the shuffles)")
    parser.add_argument("--data", type=Path,
                        default=Path(tempfile.gettempdir()) / "dialkit-bench-dask-audit",
                        help="where the dataset is written and reused (a folder per size)")
    parser.add_argument("--memory-limit", default="4GiB", help="each Dask worker's limit")
    parser.add_argument("--workers", type=int, default=2,
                        help="Dask's worker processes (1: the test suite's smoke run)")
    parser.add_argument("--in-process", action="store_true",
                        help="Dask's workers as threads of its process (the smoke run)")
    parser.add_argument("--guard-gib", type=float, default=3.0,
                        help="kill a side when the machine's available memory falls under this")
    parser.add_argument("--rules", choices=sorted(RULES), default="HOUSE_RULES")
    parser.add_argument("--sides", default="pandas,dask",
                        help="which sides, in order (dask alone: no pandas process)")
    options = parser.parse_args()
    folder = dataset(options.data, options.calls, options.leads, options.chunk,
                     options.rows_per_file, options.seed, options.campaigns)
    if options.runs == 0:
        return
    sides = options.sides.split(",")
    runs: dict[str, list[dict[str, Any]]] = {side: [] for side in sides}
    for run in range(options.runs):
        for side in sides[run % len(sides):] + sides[:run % len(sides)]:
            runs[side].append(in_a_fresh_process(side, folder, options.rules,
                                                 options.memory_limit, options.guard_gib * GIB,
                                                 options.workers, not options.in_process))
            last = runs[side][-1]
            print(f"run {run + 1}, {side}: " + (
                f"KILLED after {last['wall']:.1f} s at {last['peak'] / GIB:.1f} GiB, "
                f"{last['available'] / GIB:.1f} GiB left on the machine" if "killed" in last
                else f"FAILED after {last['wall']:.1f} s: {last['failed']}" if "failed" in last
                else f"{last['wall']:.1f} s, {last['findings']:,} findings"), flush=True)
        digests = {r[-1]["digest"] for r in runs.values() if completed(r[-1])}
        if len(digests) > 1:
            raise AssertionError(f"run {run + 1}: the sides found differently: "
                                 f"{ {side: r[-1]['per_rule'] for side, r in runs.items()} }")
    if sides == ["pandas", "dask"] or sides == ["dask", "pandas"]:
        report(folder, runs, options.memory_limit)
    else:
        print(json.dumps(runs, indent=1, default=str))


if __name__ == "__main__":
    main()
