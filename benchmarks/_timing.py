"""The wall time of one piece of work, for the benchmarks that time a call side by side."""

from __future__ import annotations

import time
from collections.abc import Callable


def timed(work: Callable[[], object]) -> float:
    """Seconds ``work()`` took on the wall clock (its answer is not kept)."""
    began = time.perf_counter()
    work()
    return time.perf_counter() - began
