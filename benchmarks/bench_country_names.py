"""A country cell read as people write it (issue 70): what ``region_of`` reads of a realistic
list, and what reading costs, each case in a fresh process.

- coverage: the cells of ``tests/places/country_cells.py`` (written by hand, each with the
  region a person reads in it) read as that region, as no region, or as another (a
  wrong one: none is the target);
- import: ``import dialkit._places._regions``;
- codes: a column's distinct ISO alpha-2 codes and calling codes read, and whether that
  loaded Babel or pycountry (it must not: a coded column costs what it did);
- first name: the first name read, which builds the table of names (Babel's CLDR names in
  every official language of the regions ``phonenumbers`` supports, pycountry's ISO
  3166), wall and CPU, and the process's memory after it and at its peak;
- next names: a name read once the table is built.

With ``--baseline-src`` (the ``src`` of an earlier tree, e.g. ``git archive HEAD src | tar
-x -C /tmp/before``) every case runs from both trees in turn.

Run: ``.venv/bin/python benchmarks/bench_country_names.py [--runs 5]
[--baseline-src /tmp/before/src]``. Results go to ``benchmarks/RESULTS.md`` by hand,
with the command.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CELLS = ROOT / "tests" / "places"

CHILD = r"""
import json, sys, time, gc
sys.path.insert(0, {cells!r})
from country_cells import CELLS
def memory(field):
    return int(open("/proc/self/status").read().split(field + ":")[1].split()[0]) / 1024
began = time.perf_counter()
from dialkit._places._regions import region_of
imported = time.perf_counter() - began
codes = ["US", "gb", "De", "FR", "+44", "49", "0033", "IN", "+1", "au"]
began = time.perf_counter()
found = [region_of(code) for code in codes * {repeats}]
coded = (time.perf_counter() - began) / len(found)
loaded = sorted({{"babel", "pycountry"}} & set(sys.modules))
gc.collect()
before = memory("VmRSS")
wall, cpu = time.perf_counter(), time.process_time()
region_of("Deutschland")
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
gc.collect()
after, peak = memory("VmRSS"), memory("VmHWM")
names = ["Deutschland", "México", "U.S.A.", "Éire", "The Netherlands", "日本"] * {repeats}
began = time.perf_counter()
_ = [region_of(name) for name in names]
named = (time.perf_counter() - began) / len(names)
read = {{cell: region_of(cell) for cell in CELLS}}
try:
    from dialkit._places._country_names import cldr_languages, named_regions
    table = named_regions()
    shared = sorted(name for name, regions in table.items() if len(regions) > 1)
    extra = {{"names": len(table), "languages": len(cldr_languages()), "shared": shared}}
except ImportError:  # a tree before issue 70
    extra = {{}}
print(json.dumps({{"import": imported, "code": coded, "loaded": loaded, "first": wall,
                  "first_cpu": cpu, "kept_mib": after - before, "peak_mib": peak,
                  "name": named, "read": read, **extra}}))
"""


def run(src: Path, repeats: int) -> dict[str, Any]:
    """One fresh process reading codes, then names, from the tree ``src``."""
    code = CHILD.format(cells=str(CELLS), repeats=repeats)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False, env={**os.environ, "PYTHONPATH": str(src)})
    if done.returncode != 0:
        raise SystemExit(f"from {src}: exit {done.returncode}\n{done.stderr[-3000:]}")
    answer: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return answer


def coverage(read: dict[str, str | None]) -> str:
    """How many cells read as a person reads them, as none, as another region."""
    sys.path.insert(0, str(CELLS))
    from country_cells import CELLS as MEANT

    right = sum(read[cell] == region for cell, region in MEANT.items())
    wrong = [cell for cell, region in MEANT.items()
             if read[cell] is not None and read[cell] != region]
    named = [cell for cell, region in MEANT.items() if region is not None]
    hits = sum(read[cell] == MEANT[cell] for cell in named)
    return (f"{right}/{len(MEANT)} cells as meant ({hits}/{len(named)} of those naming a "
            f"region, {100 * hits / len(named):.1f}%), {len(wrong)} wrong {wrong}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=1000,
                        help="each code and name read this many times (timed per read)")
    parser.add_argument("--baseline-src", type=Path, default=None)
    args = parser.parse_args()
    trees = {"now": ROOT / "src", **({"before": args.baseline_src} if args.baseline_src
                                     else {})}
    runs: dict[str, list[dict[str, Any]]] = {tree: [] for tree in trees}
    for _ in range(args.runs):  # the trees in turn, run by run: a noisy machine weighs alike
        for tree, src in trees.items():
            runs[tree].append(run(src, args.repeats))
    for tree, answers in runs.items():
        print(f"{tree} ({trees[tree]}), median of {args.runs} fresh processes")
        for key, label, scale, unit in [
                ("import", "import dialkit._places._regions", 1e3, "ms"),
                ("code", "a code read", 1e6, "us"), ("first", "first name, wall", 1e3, "ms"),
                ("first_cpu", "first name, CPU", 1e3, "ms"),
                ("kept_mib", "memory kept by the first name", 1, "MiB"),
                ("peak_mib", "the process's peak", 1, "MiB"),
                ("name", "a name read after", 1e6, "us")]:
            value = statistics.median(float(answer[key]) for answer in answers)
            print(f"  {label:<34}{value * scale:>10.1f} {unit}")
        last = answers[-1]
        print(f"  codes loaded: {last['loaded'] or 'neither Babel nor pycountry'}")
        print(f"  coverage: {coverage(last['read'])}")
        if "names" in last:
            print(f"  table: {last['names']} folded names from {last['languages']} CLDR "
                  f"languages; names of two regions (read as none): {last['shared']}")


if __name__ == "__main__":
    main()
