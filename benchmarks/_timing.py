"""The wall time of one piece of work, for the benchmarks that time a call side by side."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def timed(work: Callable[[], object]) -> float:
    """Seconds ``work()`` took on the wall clock (its answer is not kept)."""
    return timed_answer(work)[0]


def timed_answer(work: Callable[[], T]) -> tuple[float, T]:
    """Seconds ``work()`` took on the wall clock, and its answer: a slow baseline's timed
    run also gives the answer compared, rather than a second run for it."""
    began = time.perf_counter()
    answer = work()
    return time.perf_counter() - began, answer
