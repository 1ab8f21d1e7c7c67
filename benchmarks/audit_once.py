"""One side of an A/B of ``compliance.audit`` between two commits: ``bench_audit``'s frames,
the audit run 5 times in this process, the median and a digest of the findings printed.

Run each side in turn, the code and the benchmarks of each commit on ``PYTHONPATH``::

    PYTHONPATH=src:benchmarks .venv/bin/python benchmarks/audit_once.py 300000 60000
    PYTHONPATH=/tmp/old/src:/tmp/old/benchmarks .venv/bin/python benchmarks/audit_once.py \\
        300000 60000

(``git archive OLD src benchmarks | tar -x -C /tmp/old``). Equal digests in a pair: the
same findings, byte for byte (the frames' dates follow the clock, so compare a pair run
in the same minute).
"""

from __future__ import annotations

import gc
import hashlib
import statistics
import sys
import time

import bench_audit
from dialkit.compliance import US, audit


def main(calls: int, leads: int) -> None:
    frames = bench_audit.frames(calls, leads)
    report = audit(frames["calls"], leads=frames["leads"], dnc=frames["dnc"], rules=US)
    times = []
    for _ in range(5):
        gc.collect()
        start = time.perf_counter()
        report = audit(frames["calls"], leads=frames["leads"], dnc=frames["dnc"], rules=US)
        times.append(time.perf_counter() - start)
    digest = hashlib.sha256(report.findings.to_csv(index=False).encode()).hexdigest()[:12]
    print(f"median {statistics.median(times):.3f} s, {len(report.findings):,} findings, "
          f"digest {digest}")


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
