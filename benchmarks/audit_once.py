"""One side of an A/B of ``compliance.audit`` between two commits: ``bench_audit``'s frames,
the audit run 5 times in this process, the median and a digest of the findings printed.

Run each side in turn, the code of each commit on ``PYTHONPATH`` and the same benchmarks
on both (the frames a commit's ``bench_audit`` makes may differ from another's: since
issue 71 they hold each rule's seeded edges, ``audit_edges``)::

    PYTHONPATH=src:benchmarks .venv/bin/python benchmarks/audit_once.py 300000 60000
    PYTHONPATH=/tmp/old/src:benchmarks .venv/bin/python benchmarks/audit_once.py 300000 60000

(``git archive OLD src | tar -x -C /tmp/old``). Equal digests in a pair: the same findings,
byte for byte (the audit looks from ``bench_audit.AS_OF``, not the clock, so a pair need not
run in the same minute).
"""

from __future__ import annotations

import gc
import hashlib
import statistics
import sys
import time

import pandas as pd

import bench_audit
from dialkit.compliance import US, AuditReport, audit


def main(calls: int, leads: int) -> None:
    frames = bench_audit.frames(calls, leads)
    report = audited(frames)
    times = []
    for _ in range(5):
        gc.collect()
        start = time.perf_counter()
        report = audited(frames)
        times.append(time.perf_counter() - start)
    digest = hashlib.sha256(report.findings.to_csv(index=False).encode()).hexdigest()[:12]
    print(f"median {statistics.median(times):.3f} s, {len(report.findings):,} findings, "
          f"digest {digest}")


def audited(frames: dict[str, pd.DataFrame]) -> AuditReport:
    """The audit of ``frames`` under ``US`` at the frames' own moment (``AS_OF``)."""
    return audit(frames["calls"], leads=frames["leads"], dnc=frames["dnc"], rules=US,
                 as_of=bench_audit.AS_OF)


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
