"""The readers of a column of phone numbers, cold: ``analytics.state_of``, the audit's
``places``, the consent rule's ``number_types`` and the zones (``zone_sets``).

Issue 49 (the line target): the four share one reading of a column's distinct numbers
(``_phones._types.read_numbers``). Each call gets the numbers as new Arrow data, so
nothing kept by an earlier call answers it; CPU seconds, the median of the rounds. Run
it with each tree's ``src`` on ``PYTHONPATH``, in turn, to compare two trees.

The numbers are bench_when's: a US account's leads, every area code of the state table,
3% toll-free, 3% Canadian, 2% UK, 1% blank or unparseable, and repeats.

Run: ``PYTHONPATH=src .venv/bin/python benchmarks/bench_readers.py [--numbers 200000]
[--rounds 5]``. Results go to ``benchmarks/RESULTS.md`` by hand, with the command.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from collections.abc import Callable
from typing import Any

import pandas as pd

from bench_when import numbers
from dialkit._phones._zones import zone_sets
from dialkit._places._states import places
from dialkit.analytics import state_of

try:
    from dialkit._phones._types import number_types
except ImportError:  # a tree before issue 49's step: _phones._lines
    from dialkit._phones._lines import number_types  # type: ignore[no-redef]

READERS: dict[str, Callable[[pd.Series], Any]] = {
    "state_of": state_of, "places": places, "number_types": number_types, "zones": zone_sets}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--numbers", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()
    phones = numbers(options.numbers).astype(object)
    taken: dict[str, list[float]] = {name: [] for name in READERS}
    for _ in range(options.rounds):
        for name, reader in READERS.items():
            column = phones.astype("string[pyarrow]")  # new Arrow data: nothing kept
            gc.collect()
            cpu = time.process_time()
            reader(column)
            taken[name].append(time.process_time() - cpu)
    print(f"{options.numbers:,} numbers, CPU ms, medians of {options.rounds}: " + ", ".join(
        f"{name} {statistics.median(seconds) * 1000:.0f}" for name, seconds in taken.items()))


if __name__ == "__main__":
    main()
