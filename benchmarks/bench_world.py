"""Median build time of the emulator's seeded world, per scale.

Each run builds a fresh world (seed 7, a fixed anchor) into a new store, in
memory or, with ``--on-disk``, in a temporary SQLite file like ``--db`` uses.
Wall time is what a user waits; CPU time is this process alone, which stays
meaningful on a busy machine.

Usage::

    python benchmarks/bench_world.py --scales small medium large --runs 3
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import cast

from dialkit.sandbox._state._store import Store
from dialkit.sandbox._world._build import SHAPES, Scale, build_world

ANCHOR = datetime(2026, 11, 21, 10, tzinfo=UTC)


def build_once(scale: Scale, *, on_disk: bool) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds and number of calls of one build."""
    with tempfile.TemporaryDirectory() as folder:
        store = Store(str(Path(folder) / "world.db") if on_disk else ":memory:")
        wall, cpu = time.perf_counter(), time.process_time()
        build_world(store, "bench", seed=7, scale=scale, anchor=ANCHOR)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        calls = store.row("SELECT count(*) FROM calls")
        store.close()
    return wall, cpu, 0 if calls is None else int(calls[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scales", nargs="+", choices=sorted(SHAPES),
                        default=["small", "medium", "large"])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--on-disk", action="store_true", help="build into a SQLite file")
    args = parser.parse_args()
    print(f"{'scale':<8}{'calls':>10}{'median wall s':>15}{'median cpu s':>14}{'min wall s':>12}")
    for scale in args.scales:
        runs = [build_once(cast(Scale, scale), on_disk=args.on_disk) for _ in range(args.runs)]
        walls, cpus = [r[0] for r in runs], [r[1] for r in runs]
        print(f"{scale:<8}{runs[0][2]:>10,}{statistics.median(walls):>15.2f}"
              f"{statistics.median(cpus):>14.2f}{min(walls):>12.2f}", flush=True)


if __name__ == "__main__":
    main()
